<?xml version="1.0" encoding="UTF-8"?>
<!-- The spec's prose markup as HTML: links of every kind, code, examples,
     lists, tables, and the placeholders (<jvmti/>, <vmspec/>, phase lists). -->
<xsl:stylesheet version="1.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:jg="urn:jvmtigen"
                exclude-result-prefixes="jg">

  <!-- The anchors the page makes itself (besides the spec's ids). -->
  <xsl:variable name="own-anchors"
                select="' top main SpecificationIntro FunctionSection FunctionIndex ErrorSection EventSection EventIndex DataSection StructureTypeDefinitions FunctionTypeDefinitions EnumerationDefinitions FunctionTable ConstantIndex CapabilityIndex '"/>

  <!-- The spec's anchors xref links to when the spec has them (jg:anchor
       asked at each call: a global variable of those present, built from
       key() before the page began, cost 22M instructions on JDK 25, most
       of it indexing the key). Others are never linked. -->
  <xsl:variable name="spec-targets"
                select="' jvmtiPhase heapCallbacks AddCapabilities Deallocate refs universal-error JVMTI_ERROR_THREAD_NOT_ALIVE jvmtiEvent SetEventNotificationMode ChangeHistory '"/>

  <!-- A link to #id when the page has that anchor; otherwise just the text
       (so a small spec without, say, AddCapabilities has no dangling link). -->
  <xsl:template name="xref">
    <xsl:param name="id"/>
    <xsl:param name="text"/>
    <xsl:variable name="spaced" select="concat(' ', $id, ' ')"/>
    <xsl:choose>
      <xsl:when test="contains($own-anchors, $spaced) or (contains($spec-targets, $spaced) and jg:anchor($id))"><a href="#{$id}"><xsl:copy-of select="$text"/></a></xsl:when>
      <xsl:otherwise><xsl:copy-of select="$text"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template match="description">
    <div class="prose"><xsl:apply-templates/></div>
  </xsl:template>

  <!-- Paragraph separators: <p/> is empty in the spec. A block-level span
       is valid wherever the spec puts one. -->
  <xsl:template match="p"><span class="para"></span></xsl:template>
  <xsl:template match="br"><br/></xsl:template>

  <xsl:template match="jvmti">JVM&#160;TI</xsl:template>
  <xsl:template match="tm"><xsl:apply-templates/><sup class="tm">TM</sup></xsl:template>
  <xsl:template match="b"><b><xsl:apply-templates/></b></xsl:template>
  <xsl:template match="i"><i><xsl:apply-templates/></i></xsl:template>
  <xsl:template match="sup"><sup><xsl:apply-templates/></sup></xsl:template>
  <xsl:template match="code"><code><xsl:apply-templates/></code></xsl:template>
  <xsl:template match="space">&#160;</xsl:template>
  <xsl:template match="pre"><pre><xsl:apply-templates mode="verbatim"/></pre></xsl:template>
  <xsl:template match="example"><pre class="example"><code><xsl:apply-templates mode="verbatim"/></code></pre></xsl:template>

  <!-- Verbatim text as the spec's file lays it out starts with the line
       break after <example> and ends with the indentation before
       </example>: the first text loses its blank lines (not the first
       line's indentation), the last its trailing white space. Markup
       inside is rendered as elsewhere. -->
  <xsl:template match="node()" mode="verbatim"><xsl:apply-templates select="."/></xsl:template>
  <xsl:template match="text()" mode="verbatim">
    <xsl:variable name="head">
      <xsl:choose>
        <xsl:when test="position() = 1"><xsl:call-template name="drop-blank-lines"/></xsl:when>
        <xsl:otherwise><xsl:value-of select="."/></xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:choose>
      <xsl:when test="position() = last()">
        <xsl:call-template name="drop-trailing-space"><xsl:with-param name="text" select="string($head)"/></xsl:call-template>
      </xsl:when>
      <xsl:otherwise><xsl:value-of select="$head"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>
  <!-- Lines made of white space only, at the start of the text. -->
  <xsl:template name="drop-blank-lines">
    <xsl:param name="text" select="string(.)"/>
    <xsl:variable name="lead">
      <xsl:choose>
        <xsl:when test="normalize-space($text) = ''"><xsl:value-of select="$text"/></xsl:when>
        <xsl:otherwise><xsl:value-of select="substring-before($text, substring(normalize-space($text), 1, 1))"/></xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:choose>
      <xsl:when test="contains($lead, '&#10;')">
        <xsl:call-template name="drop-blank-lines"><xsl:with-param name="text" select="substring-after($text, '&#10;')"/></xsl:call-template>
      </xsl:when>
      <xsl:otherwise><xsl:value-of select="$text"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>
  <!-- White space at the end of the text (as little is there: a step a
       character). -->
  <xsl:template name="drop-trailing-space">
    <xsl:param name="text"/>
    <xsl:variable name="n" select="string-length($text)"/>
    <xsl:choose>
      <xsl:when test="$n &gt; 0 and normalize-space(substring($text, $n)) = ''">
        <xsl:call-template name="drop-trailing-space"><xsl:with-param name="text" select="substring($text, 1, $n - 1)"/></xsl:call-template>
      </xsl:when>
      <xsl:otherwise><xsl:value-of select="$text"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>
  <xsl:template match="blockquote"><blockquote><xsl:apply-templates/></blockquote></xsl:template>
  <xsl:template match="ul">
    <ul>
      <xsl:if test="@type and @type != 'disc'"><xsl:attribute name="class"><xsl:value-of select="@type"/></xsl:attribute></xsl:if>
      <xsl:apply-templates/>
    </ul>
  </xsl:template>
  <xsl:template match="li"><li><xsl:apply-templates/></li></xsl:template>
  <xsl:template match="dl"><dl><xsl:apply-templates/></dl></xsl:template>
  <xsl:template match="dt"><dt><xsl:apply-templates/></dt></xsl:template>
  <xsl:template match="dd"><dd><xsl:apply-templates/></dd></xsl:template>
  <xsl:template match="table"><div class="scroll"><table class="prose-table"><xsl:apply-templates/></table></div></xsl:template>
  <xsl:template match="tr|td|th">
    <xsl:element name="{local-name()}">
      <xsl:if test="@class"><xsl:attribute name="class"><xsl:value-of select="@class"/></xsl:attribute></xsl:if>
      <xsl:if test="@scope"><xsl:attribute name="scope"><xsl:value-of select="@scope"/></xsl:attribute></xsl:if>
      <xsl:apply-templates/>
    </xsl:element>
  </xsl:template>

  <!-- Editorial notes: rationale is shown, open issues and to-dos are not. -->
  <xsl:template match="rationale">
    <span class="rationale"><b>Rationale: </b><xsl:apply-templates/></span>
  </xsl:template>
  <xsl:template match="issue|todo"/>

  <!-- Links -->

  <!-- The text of a link: its content, or its id when it is empty. -->
  <xsl:template name="link-text">
    <xsl:choose>
      <xsl:when test="node()"><xsl:apply-templates/></xsl:when>
      <xsl:otherwise><code><xsl:value-of select="@id"/></code></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template match="functionlink|datalink|typelink|errorlink">
    <a href="#{@id}"><xsl:call-template name="link-text"/></a>
  </xsl:template>

  <xsl:template match="eventlink">
    <a href="#{@id}">
      <xsl:choose>
        <xsl:when test="node()"><xsl:apply-templates/></xsl:when>
        <xsl:otherwise><b><xsl:value-of select="jg:anchor(@id)[self::event]/@label"/></b></xsl:otherwise>
      </xsl:choose>
    </a>
  </xsl:template>

  <xsl:template match="fieldlink">
    <a href="#{@struct}.{@id}"><xsl:call-template name="link-text"/></a>
  </xsl:template>

  <xsl:template match="paramlink">
    <a href="#{(ancestor::function|ancestor::event|ancestor::callback)[last()]/@id}.{@id}"><xsl:call-template name="link-text"/></a>
  </xsl:template>

  <xsl:template match="internallink">
    <a href="#{@id}"><xsl:apply-templates/></a>
  </xsl:template>

  <!-- External links: http, https and mailto URLs as they are; paths
       relative to the JDK's specs directory point at the published JDK
       documentation. A spec is input like any other: a URL of any other
       scheme (javascript:, data:, file:) is not made a link. -->
  <xsl:template match="externallink">
    <xsl:variable name="scheme" select="translate(substring-before(@id, ':'), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"/>
    <xsl:variable name="text">
      <xsl:choose>
        <xsl:when test="node()"><xsl:apply-templates/></xsl:when>
        <xsl:otherwise><xsl:value-of select="@id"/></xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:variable name="url">
      <xsl:choose>
        <xsl:when test="$scheme = 'https' or $scheme = 'http' or $scheme = 'mailto'"><xsl:value-of select="@id"/></xsl:when>
        <xsl:when test="contains(@id, ':') and not(contains($scheme, '/'))"/>
        <xsl:when test="starts-with(@id, '../')">
          <xsl:value-of select="concat('https://docs.oracle.com/en/java/javase/', $version-major, '/docs/', substring-after(@id, '../'))"/>
        </xsl:when>
        <xsl:otherwise>
          <xsl:value-of select="concat('https://docs.oracle.com/en/java/javase/', $version-major, '/docs/specs/', @id)"/>
        </xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:choose>
      <xsl:when test="string($url) != ''"><a class="external" href="{$url}"><xsl:copy-of select="$text"/></a></xsl:when>
      <xsl:otherwise><xsl:copy-of select="$text"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- The JVM specification, optionally one chapter of it. -->
  <xsl:template match="vmspec">
    <xsl:variable name="base" select="concat('https://docs.oracle.com/javase/specs/jvms/se', $version-major, '/html/')"/>
    <cite>The Java Virtual Machine Specification</cite>
    <xsl:if test="@chapter">
      <xsl:variable name="major">
        <xsl:choose>
          <xsl:when test="contains(@chapter, '.')"><xsl:value-of select="substring-before(@chapter, '.')"/></xsl:when>
          <xsl:otherwise><xsl:value-of select="@chapter"/></xsl:otherwise>
        </xsl:choose>
      </xsl:variable>
      <xsl:text>, </xsl:text>
      <a class="external" href="{$base}jvms-{$major}.html#jvms-{@chapter}">chapter <xsl:value-of select="@chapter"/></a>
    </xsl:if>
  </xsl:template>

  <!-- The functions or events of a phase, listed where the prose asks. -->
  <xsl:template match="functionphaselist">
    <ul class="phase-list">
      <xsl:variable name="phase" select="@phase"/>
      <xsl:for-each select="/specification/functionsection/category/function[@phase = $phase or ($phase = 'live' and not(@phase))]">
        <li><a href="#{@id}"><code><xsl:value-of select="@id"/></code></a></li>
      </xsl:for-each>
    </ul>
  </xsl:template>
  <xsl:template match="eventphaselist">
    <ul class="phase-list">
      <xsl:variable name="phase" select="@phase"/>
      <xsl:for-each select="/specification/eventsection/event[@phase = $phase or ($phase = 'live' and not(@phase))]">
        <li><a href="#{@id}"><b><xsl:value-of select="@label"/></b></a></li>
      </xsl:for-each>
    </ul>
  </xsl:template>

  <!-- Plain text of the title (for <title>). -->
  <xsl:template match="jvmti" mode="plain">JVM TI</xsl:template>
  <xsl:template match="tm" mode="plain"><xsl:value-of select="."/>&#8482;</xsl:template>
</xsl:stylesheet>
