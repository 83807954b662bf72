<?xml version="1.0" encoding="UTF-8"?>
<!-- What html.xsl and man.xsl share: parameters and wording that
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

  <!-- No xsl:key: the cross-references (jg:anchor, jg:capability-field,
       jg:capability-users, jg:release-changes, jg:type-page, jg:type-pages,
       jg:type-users) answer from one index of the spec that jvmtigen
       builds once per run, where libxslt walked the whole tree for each
       key of each stylesheet at its first key() call (33M instructions on
       JDK 25 for the six keys the two stylesheets had). See README.md. -->

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

</xsl:stylesheet>