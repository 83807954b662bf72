<?xml version="1.0" encoding="UTF-8"?>
<!-- make bench's floor for the docs: libxslt walking the spec once through
     templates and writing it out as HTML, doing nothing else. Whatever
     html.xsl does costs at least this much. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="html" encoding="UTF-8"/>
  <xsl:template match="@*|node()">
    <xsl:copy><xsl:apply-templates select="@*|node()"/></xsl:copy>
  </xsl:template>
</xsl:stylesheet>
