<?xml version="1.0" encoding="UTF-8"?>
<!-- What html.xsl and man.xsl share: parameters, keys and wording that
     does not depend on the output format. See README.md beside this file. -->
<xsl:stylesheet version="1.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:jg="urn:jvmtigen"
                exclude-result-prefixes="jg">

  <!-- Set by jvmtigen: the JVM TI version the outputs are made for
       ("17.0.0"), its major number, the spec's file name, the generator. -->
  <xsl:param name="version" select="'0.0.0'"/>
  <xsl:param name="version-major" select="'0'"/>
  <xsl:param name="spec-name" select="'jvmti.xml'"/>
  <xsl:param name="generator" select="'jvmtigen'"/>

  <!-- Keys: libxslt indexes every key of a stylesheet over the whole
       document at the first key() call, used or not, so each stylesheet
       holds only the keys it uses (the page's cross-references are in
       html.xsl). -->

  <!-- One key for what names a capability, each entry keyed by its kind
       and the capability: "required ID" and "capability ID" (a function's
       or an event's capabilities/required and capabilities/capability: the
       function or event is its ../..) and "capabilityfield ID" (the
       capabilities structure's field; $caps/capabilityfield searched with a
       predicate for each capability a page names cost 18M instructions in
       each stylesheet on JDK 25). One key, not three: libxslt walks the
       whole tree for each key (on JDK 25 the three took 10M instructions
       in each stylesheet, this one 4.5M). -->
  <xsl:key name="capability"
           match="category/function/capabilities/*|eventsection/event/capabilities/*|
                  /specification/functionsection/category/capabilitiestypedef/capabilityfield"
           use="concat(local-name(), ' ', @id)"/>

  <!-- The capabilities structure: its fields' ids are "jvmtiCapabilities.NAME". -->
  <xsl:variable name="caps" select="/specification/functionsection/category/capabilitiestypedef"/>
  <xsl:variable name="caps-id" select="$caps/@id"/>

  <!-- The anchor of a basetype: its name attribute if it has one. -->
  <xsl:template name="basetype-anchor">
    <xsl:choose>
      <xsl:when test="@name"><xsl:value-of select="@name"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="@id"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- A function's or callback's one-line title: its synopsis, or its id
       where the synopsis is blank (the generator warns about that), so no
       link or NAME line is left empty. -->
  <xsl:template name="synopsis-text">
    <xsl:choose>
      <xsl:when test="normalize-space(synopsis)"><xsl:value-of select="synopsis"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="@id"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- "1.0" unless the item says otherwise. -->
  <xsl:template name="since">
    <xsl:choose>
      <xsl:when test="@since"><xsl:value-of select="@since"/></xsl:when>
      <xsl:otherwise>1.0</xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- When a function may be called, in words. -->
  <xsl:template name="function-phase-words">
    <xsl:param name="phase" select="@phase"/>
    <xsl:choose>
      <xsl:when test="$phase = 'onload'">in the OnLoad or the live phase</xsl:when>
      <xsl:when test="$phase = 'onloadOnly'">in the OnLoad phase only</xsl:when>
      <xsl:when test="$phase = 'start'">in the start or the live phase</xsl:when>
      <!-- A function of phase "any" may be called in every phase, OnLoad and
           dead included (GetPhase, Allocate, the raw monitors, ...). -->
      <xsl:when test="$phase = 'any'">in any phase</xsl:when>
      <xsl:otherwise>in the live phase only</xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- When an event may be sent, in words. -->
  <xsl:template name="event-phase-words">
    <xsl:param name="phase" select="@phase"/>
    <xsl:choose>
      <xsl:when test="$phase = 'onload'">in the OnLoad or the live phase</xsl:when>
      <xsl:when test="$phase = 'start'">in the start or the live phase</xsl:when>
      <!-- An event of phase "any" is sent whenever agent code can run:
           never in OnLoad, never once the VM is dead. -->
      <xsl:when test="$phase = 'any'">in the primordial, start or live phase</xsl:when>
      <xsl:otherwise>in the live phase only</xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- A parameter error's sentence: jg:errors' says="", whose %p, %t, %c
       and %m (the parameter, the type, the class, the minimum; errors.c)
       the including stylesheet's "says-part" renders in its own format
       (html.xsl's; man.xsl's sentences are jg:man-errors', written in C).
       The context is the <error> element; p is the parameter as rendered. -->
  <xsl:template name="says">
    <xsl:param name="p"/>
    <xsl:param name="text" select="@says"/>
    <xsl:choose>
      <xsl:when test="contains($text, '%')">
        <xsl:value-of select="substring-before($text, '%')"/>
        <xsl:variable name="rest" select="substring-after($text, '%')"/>
        <xsl:call-template name="says-part">
          <xsl:with-param name="what" select="substring($rest, 1, 1)"/>
          <xsl:with-param name="p" select="$p"/>
        </xsl:call-template>
        <xsl:call-template name="says">
          <xsl:with-param name="p" select="$p"/>
          <xsl:with-param name="text" select="substring($rest, 2)"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise><xsl:value-of select="$text"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

</xsl:stylesheet>