<?xml version="1.0" encoding="UTF-8"?>
<!-- The spec's prose markup as roff (man(7) macros). Text is collapsed onto
     long lines and escaped; blocks start on lines of their own. jvmtigen
     then drops blank lines and leading blanks outside .nf/.fi blocks. -->
<xsl:stylesheet version="1.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:jg="urn:jvmtigen"
                extension-element-prefixes="jg"
                exclude-result-prefixes="jg">

  <!-- Running text: white space collapsed (one blank kept at either end
       where the source had any), escaped, a leading dot guarded; verbatim
       text line by line. Both are jvmtigen's (templates/README.md): they
       run on every text node. <jg:roff/> is jg:roff-text(.) as an
       instruction, without xsl:value-of's XPath (6M of the man pages' 117M
       instructions on JDK 25). -->
  <xsl:template match="text()"><jg:roff/></xsl:template>

  <xsl:template match="description">
    <xsl:apply-templates/>
    <xsl:text>&#10;</xsl:text>
  </xsl:template>

  <xsl:template match="p">&#10;.PP&#10;</xsl:template>
  <xsl:template match="br">&#10;.br&#10;</xsl:template>
  <xsl:template match="jvmti">JVM TI</xsl:template>
  <xsl:template match="tm"><xsl:apply-templates/>\(tm</xsl:template>
  <xsl:template match="space">\ </xsl:template>
  <!-- Font changes do not nest (\fP goes back one font only): inside one,
       inner markup adds none. Mode in-font carries that down, through the
       links (the DTD lets no other element hold a font element); asking
       each element for a font ancestor instead was a tenth of the man
       pages' instructions. A template per font rather than a test of the
       element's name, the children (or a link's id where it has none)
       taken straight into mode in-font, and text there rendered at once:
       each step skipped was a template call per element or text node,
       together 11M of the man pages' 182M instructions on JDK 25. -->
  <xsl:template match="b|code|functionlink|eventlink|errorlink|datalink|typelink">
    <xsl:text>\fB</xsl:text>
    <xsl:apply-templates mode="in-font"/>
    <xsl:if test="not(node())"><xsl:value-of select="jg:roff-text(@id)"/></xsl:if>
    <xsl:text>\fR</xsl:text>
  </xsl:template>
  <xsl:template match="i|paramlink|fieldlink">
    <xsl:text>\fI</xsl:text>
    <xsl:apply-templates mode="in-font"/>
    <xsl:if test="not(node())"><xsl:value-of select="jg:roff-text(@id)"/></xsl:if>
    <xsl:text>\fR</xsl:text>
  </xsl:template>
  <xsl:template match="b|code|functionlink|eventlink|errorlink|datalink|typelink|
                       i|paramlink|fieldlink" mode="in-font">
    <xsl:choose>
      <xsl:when test="node()"><xsl:apply-templates mode="in-font"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="jg:roff-text(@id)"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>
  <xsl:template match="internallink|externallink|sup"><xsl:apply-templates/></xsl:template>
  <xsl:template match="internallink|externallink|sup" mode="in-font">
    <xsl:apply-templates mode="in-font"/>
  </xsl:template>
  <!-- Priority 0: above node()'s -0.5, which would apply the default
       mode's text() template, the same text one call later. -->
  <xsl:template match="text()" mode="in-font" priority="0"><jg:roff/></xsl:template>
  <xsl:template match="node()" mode="in-font"><xsl:apply-templates select="."/></xsl:template>
  <xsl:template match="vmspec">
    <xsl:text>\fIThe Java Virtual Machine Specification\fP</xsl:text>
    <xsl:if test="@chapter">, chapter <xsl:value-of select="jg:roff-text(@chapter)"/></xsl:if>
  </xsl:template>

  <xsl:template match="pre|example">
    <xsl:text>&#10;.PP&#10;.RS&#10;.nf&#10;</xsl:text>
    <xsl:variable name="text"><xsl:apply-templates mode="verbatim"/></xsl:variable>
    <xsl:value-of select="jg:roff-lines($text)"/>
    <xsl:text>&#10;.fi&#10;.RE&#10;.PP&#10;</xsl:text>
  </xsl:template>
  <xsl:template match="text()" mode="verbatim"><xsl:value-of select="."/></xsl:template>
  <xsl:template match="*" mode="verbatim"><xsl:apply-templates mode="verbatim"/></xsl:template>

  <xsl:template match="blockquote">
    <xsl:text>&#10;.RS&#10;</xsl:text><xsl:apply-templates/><xsl:text>&#10;.RE&#10;</xsl:text>
  </xsl:template>

  <xsl:template match="ul">
    <xsl:if test="ancestor::ul">&#10;.RS&#10;</xsl:if>
    <xsl:apply-templates select="li"/>
    <xsl:choose>
      <xsl:when test="ancestor::ul">&#10;.RE&#10;</xsl:when>
      <xsl:otherwise>&#10;.PP&#10;</xsl:otherwise>
    </xsl:choose>
  </xsl:template>
  <xsl:template match="li">&#10;.IP \(bu 2&#10;<xsl:apply-templates/></xsl:template>

  <xsl:template match="dl"><xsl:apply-templates select="dt|dd"/>&#10;.PP&#10;</xsl:template>
  <xsl:template match="dt">&#10;.TP&#10;<xsl:apply-templates/>&#10;</xsl:template>
  <xsl:template match="dd"><xsl:apply-templates/></xsl:template>

  <xsl:template match="table">
    <xsl:apply-templates select="tr"/>
    <xsl:text>&#10;.PP&#10;</xsl:text>
  </xsl:template>
  <xsl:template match="tr">
    <xsl:text>&#10;.IP "" 2&#10;</xsl:text>
    <xsl:for-each select="td|th">
      <xsl:if test="position() &gt; 1"> | </xsl:if>
      <xsl:apply-templates/>
    </xsl:for-each>
  </xsl:template>

  <xsl:template match="constants">
    <xsl:text>&#10;.PP&#10;</xsl:text>
    <xsl:value-of select="jg:roff-text(normalize-space(@label))"/>
    <xsl:text> (\fB</xsl:text><xsl:value-of select="jg:roff-text(@id)"/><xsl:text>\fP):&#10;</xsl:text>
    <xsl:for-each select="constant">
      <xsl:text>.TP&#10;.BR </xsl:text><xsl:value-of select="jg:roff-text(@id)"/><xsl:text> " = </xsl:text>
      <xsl:value-of select="jg:roff-text(@num)"/><xsl:text>"&#10;</xsl:text>
      <xsl:apply-templates/>
      <xsl:text>&#10;</xsl:text>
    </xsl:for-each>
    <xsl:text>.PP&#10;</xsl:text>
  </xsl:template>

  <xsl:template match="functionphaselist">
    <xsl:text>&#10;.RS&#10;</xsl:text>
    <xsl:variable name="phase" select="@phase"/>
    <xsl:for-each select="/specification/functionsection/category/function[@phase = $phase or ($phase = 'live' and not(@phase))]">
      <xsl:if test="position() &gt; 1">, </xsl:if>
      <xsl:text>\fB</xsl:text><xsl:value-of select="jg:roff-text(@id)"/><xsl:text>\fP</xsl:text>
    </xsl:for-each>
    <xsl:text>&#10;.RE&#10;</xsl:text>
  </xsl:template>
  <xsl:template match="eventphaselist">
    <xsl:text>&#10;.RS&#10;</xsl:text>
    <xsl:variable name="phase" select="@phase"/>
    <xsl:for-each select="/specification/eventsection/event[@phase = $phase or ($phase = 'live' and not(@phase))]">
      <xsl:if test="position() &gt; 1">, </xsl:if>
      <xsl:text>\fB</xsl:text><xsl:value-of select="jg:roff-text(@id)"/><xsl:text>\fP</xsl:text>
    </xsl:for-each>
    <xsl:text>&#10;.RE&#10;</xsl:text>
  </xsl:template>

  <xsl:template match="rationale">&#10;.PP&#10;Rationale: <xsl:apply-templates/>&#10;.PP&#10;</xsl:template>
  <xsl:template match="issue|todo|elide"/>
  <!-- Structures defined inside prose are documented elsewhere. -->
  <xsl:template match="typedef|uniontypedef|capabilitiestypedef"/>
</xsl:stylesheet>
