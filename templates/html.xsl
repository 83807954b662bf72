<?xml version="1.0" encoding="UTF-8"?>
<!-- The JVM TI reference as one HTML5 page (jvmti.html). Prose markup is in
     html-prose.xsl, the stylesheet and script in html-assets.xsl. -->
<xsl:stylesheet version="1.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:jg="urn:jvmtigen"
                extension-element-prefixes="jg"
                exclude-result-prefixes="jg">

  <xsl:include href="common.xsl"/>
  <xsl:include href="html-prose.xsl"/>
  <xsl:include href="html-assets.xsl"/>

  <xsl:output method="html" encoding="UTF-8" indent="no"/>

  <!-- Cross-references go through jg:anchor and its kin (common.xsl), so
       rendering stays linear. Items inside <elide> are in none of them and
       in no output (an elided function sits in category/elide/function,
       not category/function). -->

  <!-- Every constants group (they sit in descriptions, at any depth): one
       walk of the tree, shared by the search list and the indexes;
       descendant::, as //constants[p] visits the children of every node). -->
  <xsl:variable name="constant-groups" select="/specification/functionsection/descendant::constants[not(ancestor::elide)]"/>

  <xsl:variable name="title">
    <xsl:apply-templates select="/specification/title/node()" mode="plain"/>
  </xsl:variable>

  <!-- What every function or event shows the same: the facts tables'
       header rows and the fixed links, made once here and copied where
       they go. Made for each item (xref's call with its parameters) they
       cost 12M of the page's instructions on JDK 25. -->
  <xsl:variable name="function-facts-head">
    <tr>
      <th scope="col"><xsl:call-template name="xref"><xsl:with-param name="id" select="'jvmtiPhase'"/><xsl:with-param name="text" select="'Phase'"/></xsl:call-template></th>
      <th scope="col"><xsl:call-template name="xref"><xsl:with-param name="id" select="'heapCallbacks'"/><xsl:with-param name="text" select="'Callback safe'"/></xsl:call-template></th>
      <th scope="col"><xsl:call-template name="xref"><xsl:with-param name="id" select="'FunctionTable'"/><xsl:with-param name="text" select="'Position'"/></xsl:call-template></th>
      <th scope="col"><xsl:call-template name="xref"><xsl:with-param name="id" select="'ChangeHistory'"/><xsl:with-param name="text" select="'Since'"/></xsl:call-template></th>
    </tr>
  </xsl:variable>
  <xsl:variable name="event-facts-head">
    <tr>
      <th scope="col"><xsl:call-template name="xref"><xsl:with-param name="id" select="'jvmtiPhase'"/><xsl:with-param name="text" select="'Phase'"/></xsl:call-template></th>
      <th scope="col"><xsl:call-template name="xref"><xsl:with-param name="id" select="'jvmtiEvent'"/><xsl:with-param name="text" select="'Event type'"/></xsl:call-template></th>
      <th scope="col">Number</th>
      <th scope="col"><xsl:call-template name="xref"><xsl:with-param name="id" select="'SetEventNotificationMode'"/><xsl:with-param name="text" select="'Enabling'"/></xsl:call-template></th>
      <th scope="col">Thread filter</th>
      <th scope="col"><xsl:call-template name="xref"><xsl:with-param name="id" select="'ChangeHistory'"/><xsl:with-param name="text" select="'Since'"/></xsl:call-template></th>
    </tr>
  </xsl:variable>
  <xsl:variable name="enable-link"><xsl:call-template name="xref"><xsl:with-param name="id" select="'SetEventNotificationMode'"/><xsl:with-param name="text" select="'SetEventNotificationMode'"/></xsl:call-template></xsl:variable>
  <xsl:variable name="universal-errors-link"><xsl:call-template name="xref"><xsl:with-param name="id" select="'universal-error'"/><xsl:with-param name="text" select="'universal errors'"/></xsl:call-template></xsl:variable>
  <xsl:variable name="add-capabilities-link"><xsl:call-template name="xref"><xsl:with-param name="id" select="'AddCapabilities'"/><xsl:with-param name="text"><code>AddCapabilities</code></xsl:with-param></xsl:call-template></xsl:variable>
  <xsl:variable name="deallocate-link"><xsl:call-template name="xref"><xsl:with-param name="id" select="'Deallocate'"/><xsl:with-param name="text"><code>Deallocate</code></xsl:with-param></xsl:call-template></xsl:variable>
  <xsl:variable name="managed-link"><xsl:call-template name="xref"><xsl:with-param name="id" select="'refs'"/><xsl:with-param name="text" select="'managed'"/></xsl:call-template></xsl:variable>

  <!-- ================================================================ -->
  <!-- The page                                                          -->
  <!-- ================================================================ -->

  <xsl:template match="/">
    <xsl:text disable-output-escaping="yes">&lt;!DOCTYPE html&gt;&#10;</xsl:text>
    <html lang="en">
      <head>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <meta name="generator" content="{$generator}"/>
        <meta name="color-scheme" content="light dark"/>
        <title><xsl:value-of select="$title"/><xsl:text> </xsl:text><xsl:value-of select="$version"/></title>
        <style><xsl:call-template name="css"/></style>
      </head>
      <body>
        <a class="skip" href="#main">Skip to the content</a>
        <header class="top">
          <p class="title"><xsl:call-template name="xref"><xsl:with-param name="id" select="'top'"/><xsl:with-param name="text"><xsl:value-of select="$title"/></xsl:with-param></xsl:call-template>
            <span class="version">Version <xsl:value-of select="$version"/></span></p>
          <div id="search" class="search" hidden="hidden" role="search">
            <label for="search-box" class="visually-hidden">Search functions, events, types, constants, errors and sections</label>
            <input id="search-box" type="search" autocomplete="off" spellcheck="false"
                   placeholder="Search functions, events, types, errors…"/>
            <!-- Every entry, never shown itself: the script copies the
                 matches of a query into the results list. -->
            <ul id="search-index" hidden="hidden">
              <xsl:call-template name="search-items"/>
            </ul>
            <ul id="search-results" class="search-results" hidden="hidden"></ul>
          </div>
        </header>
        <div class="layout">
          <!-- Folded on a small screen by the script (open without it). -->
          <nav id="toc" class="toc" aria-label="Contents">
            <details class="toc-box" open="open"><summary>Contents</summary>
              <xsl:call-template name="toc"/>
            </details>
          </nav>
          <main id="main">
            <xsl:apply-templates select="specification"/>
          </main>
        </div>
        <script><xsl:call-template name="js"/></script>
      </body>
    </html>
  </xsl:template>

  <xsl:template match="specification">
    <h1 id="top"><xsl:value-of select="$title"/></h1>
    <p class="subtitle"><xsl:value-of select="title/@subtitle"/><xsl:text> </xsl:text>
      <xsl:value-of select="$version"/></p>
    <section id="SpecificationIntro" class="part">
      <h2>Introduction<xsl:call-template name="self-link"><xsl:with-param name="id" select="'SpecificationIntro'"/></xsl:call-template></h2>
      <xsl:apply-templates select="intro"/>
    </section>
    <xsl:apply-templates select="functionsection"/>
    <xsl:apply-templates select="errorsection"/>
    <xsl:apply-templates select="eventsection"/>
    <xsl:apply-templates select="datasection"/>
    <xsl:call-template name="capability-index"/>
    <xsl:apply-templates select="changehistory"/>
    <footer class="colophon">
      <p>Generated by <xsl:value-of select="$generator"/> from <code><xsl:value-of select="$spec-name"/></code>
        for JVM TI <xsl:value-of select="$version"/>.</p>
    </footer>
  </xsl:template>

  <!-- An <intro>: a titled subsection when it has a label. -->
  <xsl:template match="intro">
    <xsl:choose>
      <xsl:when test="@label != ''">
        <section class="intro">
          <xsl:if test="@id"><xsl:attribute name="id"><xsl:value-of select="@id"/></xsl:attribute></xsl:if>
          <h3><xsl:value-of select="@label"/><xsl:if test="@id"><xsl:call-template name="self-link"/></xsl:if></h3>
          <div class="prose"><xsl:apply-templates/></div>
        </section>
      </xsl:when>
      <xsl:otherwise>
        <div class="prose intro">
          <xsl:if test="@id"><xsl:attribute name="id"><xsl:value-of select="@id"/></xsl:attribute></xsl:if>
          <xsl:apply-templates/>
        </div>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template match="elide|issuessection"/>

  <!-- ================================================================ -->
  <!-- Table of contents and search list                                 -->
  <!-- ================================================================ -->

  <xsl:template name="toc">
    <ul>
      <li><xsl:call-template name="xref"><xsl:with-param name="id" select="'SpecificationIntro'"/><xsl:with-param name="text" select="'Introduction'"/></xsl:call-template>
        <ul>
          <xsl:for-each select="/specification/intro[@id and @label != '']">
            <li><a href="#{@id}"><xsl:value-of select="@label"/></a></li>
          </xsl:for-each>
        </ul>
      </li>
      <li><xsl:call-template name="xref"><xsl:with-param name="id" select="'FunctionSection'"/><xsl:with-param name="text"><xsl:value-of select="/specification/functionsection/@label"/></xsl:with-param></xsl:call-template>
        <ul>
          <li><xsl:call-template name="xref"><xsl:with-param name="id" select="'FunctionIndex'"/><xsl:with-param name="text" select="'Function index'"/></xsl:call-template></li>
          <xsl:for-each select="/specification/functionsection/category">
            <li>
              <details>
                <summary><a href="#{@id}"><xsl:value-of select="@label"/></a></summary>
                <ul>
                  <xsl:for-each select="function">
                    <li><a href="#{@id}"><xsl:value-of select="@id"/></a></li>
                  </xsl:for-each>
                </ul>
              </details>
            </li>
          </xsl:for-each>
        </ul>
      </li>
      <li><xsl:call-template name="xref"><xsl:with-param name="id" select="'ErrorSection'"/><xsl:with-param name="text"><xsl:value-of select="/specification/errorsection/@label"/></xsl:with-param></xsl:call-template>
        <ul>
          <xsl:for-each select="/specification/errorsection/errorcategory">
            <li>
              <details>
                <summary><a href="#{@id}"><xsl:value-of select="@label"/></a></summary>
                <ul>
                  <xsl:for-each select="errorid">
                    <li><a href="#{@id}"><xsl:value-of select="substring-after(@id, 'JVMTI_ERROR_')"/></a></li>
                  </xsl:for-each>
                </ul>
              </details>
            </li>
          </xsl:for-each>
        </ul>
      </li>
      <li><xsl:call-template name="xref"><xsl:with-param name="id" select="'EventSection'"/><xsl:with-param name="text"><xsl:value-of select="/specification/eventsection/@label"/></xsl:with-param></xsl:call-template>
        <ul>
          <li><xsl:call-template name="xref"><xsl:with-param name="id" select="'EventIndex'"/><xsl:with-param name="text" select="'Event index'"/></xsl:call-template></li>
          <li>
            <details>
              <summary><xsl:call-template name="xref"><xsl:with-param name="id" select="'EventIndex'"/><xsl:with-param name="text" select="'All events'"/></xsl:call-template></summary>
              <ul>
                <xsl:for-each select="/specification/eventsection/event">
                  <xsl:sort select="@id"/>
                  <li><a href="#{@id}"><xsl:value-of select="@id"/></a></li>
                </xsl:for-each>
              </ul>
            </details>
          </li>
        </ul>
      </li>
      <li><xsl:call-template name="xref"><xsl:with-param name="id" select="'DataSection'"/><xsl:with-param name="text" select="'Data types'"/></xsl:call-template>
        <ul>
          <xsl:for-each select="/specification/datasection/basetypes">
            <li><a href="#{@id}"><xsl:value-of select="@label"/></a></li>
          </xsl:for-each>
          <li>
            <details>
              <summary><xsl:call-template name="xref"><xsl:with-param name="id" select="'StructureTypeDefinitions'"/><xsl:with-param name="text" select="'Structure types'"/></xsl:call-template></summary>
              <ul>
                <xsl:for-each select="/specification/functionsection/category/*[self::typedef or self::uniontypedef or self::capabilitiestypedef]|
                                      /specification/functionsection/category/function/*[self::typedef or self::uniontypedef]|
                                      /specification/eventsection/event/typedef">
                  <xsl:sort select="@id"/>
                  <li><a href="#{@id}"><xsl:value-of select="@id"/></a></li>
                </xsl:for-each>
              </ul>
            </details>
          </li>
          <li>
            <details>
              <summary><xsl:call-template name="xref"><xsl:with-param name="id" select="'FunctionTypeDefinitions'"/><xsl:with-param name="text" select="'Function types'"/></xsl:call-template></summary>
              <ul>
                <xsl:for-each select="/specification/functionsection/category/callback">
                  <xsl:sort select="@id"/>
                  <li><a href="#{@id}"><xsl:value-of select="@id"/></a></li>
                </xsl:for-each>
              </ul>
            </details>
          </li>
          <li>
            <details>
              <summary><xsl:call-template name="xref"><xsl:with-param name="id" select="'EnumerationDefinitions'"/><xsl:with-param name="text" select="'Enumerations'"/></xsl:call-template></summary>
              <ul>
                <xsl:for-each select="$constant-groups[@kind = 'enum']">
                  <xsl:sort select="@id"/>
                  <li><a href="#{@id}"><xsl:value-of select="@id"/></a></li>
                </xsl:for-each>
              </ul>
            </details>
          </li>
          <li><xsl:call-template name="xref"><xsl:with-param name="id" select="'FunctionTable'"/><xsl:with-param name="text" select="'Function table'"/></xsl:call-template></li>
          <li><xsl:call-template name="xref"><xsl:with-param name="id" select="'VersionConstants'"/><xsl:with-param name="text" select="'Version constants'"/></xsl:call-template></li>
          <li><xsl:call-template name="xref"><xsl:with-param name="id" select="'ConstantIndex'"/><xsl:with-param name="text" select="'Constant index'"/></xsl:call-template></li>
        </ul>
      </li>
      <li>
        <details>
          <summary><xsl:call-template name="xref"><xsl:with-param name="id" select="'CapabilityIndex'"/><xsl:with-param name="text" select="'Capabilities'"/></xsl:call-template></summary>
          <ul>
            <xsl:for-each select="/specification/functionsection/category/capabilitiestypedef/capabilityfield">
              <li><a href="#{$caps-id}.{@id}"><xsl:value-of select="@id"/></a></li>
            </xsl:for-each>
          </ul>
        </details>
      </li>
      <li><xsl:call-template name="xref"><xsl:with-param name="id" select="'ChangeHistory'"/><xsl:with-param name="text" select="'Change history'"/></xsl:call-template></li>
    </ul>
  </xsl:template>

  <!-- The search list: every function, event, agent entry point (and
       JNI's GetEnv, pointing at the introduction's sections), version
       constant, constant, error, group of constants, type, field,
       capability, callback and base type, each with its name (code, what
       ranks first), its kind, its title, the version that added it, and a
       one-line summary (an item's first sentence; an event's constant).
       The script matches a query against all of it and filters by
       data-kind and data-since; sections it adds from the page.

       Its markup is written by jvmtigen (<jg:search-list/>,
       gen/docs/pagefacts.c), an exception to the rule that markup stays
       here, for its cost: 618 lines on JDK 25, one walk of the spec in C.
       Each line is

         <li data-kind="KIND" [data-since="SINCE"]><a href="#HREF"><code>NAME</code>
           <span class="kind">KIND</span>[ <span class="title">TITLE</span>]
           [ <span class="since">since SINCE</span>]
           [ <span class="sum">[<code>ALIAS</code>[ · ]]SUMMARY</span>]</a></li>

       (one line, a blank before each span), the same facts as
       jg:search-index gives. With its serialization, the list cost 37M of
       the page's 285M instructions as a template called for each entry
       with seven parameters, 30M as a for-each over jg:search-index's
       entries, 13M so. A copy of these templates
       wanting other markup can write it from jg:search-index:

         <xsl:for-each select="jg:search-index(/specification)">
           <li data-kind="{@kind}"><xsl:copy-of select="@data-since"/> ... -->
  <xsl:template name="search-items">
    <jg:search-list/>
  </xsl:template>

  <!-- ================================================================ -->
  <!-- Functions                                                         -->
  <!-- ================================================================ -->

  <xsl:template match="functionsection">
    <section id="FunctionSection" class="part">
      <h2><xsl:value-of select="@label"/><xsl:call-template name="self-link"><xsl:with-param name="id" select="'FunctionSection'"/></xsl:call-template></h2>
      <xsl:apply-templates select="intro"/>
      <section id="FunctionIndex">
        <h3>Function index<xsl:call-template name="self-link"><xsl:with-param name="id" select="'FunctionIndex'"/></xsl:call-template></h3>
        <div class="index-columns">
          <xsl:for-each select="category">
            <div class="index-group">
              <h4><a href="#{@id}"><xsl:value-of select="@label"/></a></h4>
              <ul>
                <xsl:for-each select="function">
                  <li><a href="#{@id}"><xsl:call-template name="synopsis-text"/></a>
                    <xsl:call-template name="since-badge"/></li>
                </xsl:for-each>
              </ul>
            </div>
          </xsl:for-each>
        </div>
      </section>
      <xsl:apply-templates select="category"/>
    </section>
  </xsl:template>

  <xsl:template match="category">
    <section id="{@id}" class="category">
      <h2 class="category-title"><xsl:value-of select="@label"/><xsl:call-template name="self-link"/></h2>
      <ul class="category-list">
        <xsl:for-each select="function">
          <li><a href="#{@id}"><xsl:call-template name="synopsis-text"/></a></li>
        </xsl:for-each>
      </ul>
      <xsl:apply-templates select="intro|typedef|uniontypedef|capabilitiestypedef"/>
      <xsl:apply-templates select="function|callback"/>
    </section>
  </xsl:template>

  <!-- A permalink: a link to the item itself, after its heading's text.
       Always focusable and shown on focus and on touch screens (.self in
       html-assets.xsl), not only under a mouse. -->
  <xsl:template name="self-link">
    <xsl:param name="id" select="@id"/>
    <xsl:text> </xsl:text><a class="self" href="#{$id}" aria-label="Link to {$id}">#</a>
  </xsl:template>

  <!-- The version that added an item (its since, when not the original
       1.0): what the spec records of an item's history. It links to the
       first entry of that release in the change history, when there is
       one (jg:release-changes says: searching the change history for each
       badge was a sixth of the page's cost). -->
  <xsl:template name="since-badge">
    <xsl:if test="@since and @since != '1.0'">
      <xsl:variable name="since" select="string(@since)"/>
      <xsl:text> </xsl:text>
      <xsl:choose>
        <xsl:when test="jg:release-changes($since)">
          <a class="since" href="#version-{$since}" title="Added in JVM TI {$since}: see the change history">since <xsl:value-of select="$since"/></a>
        </xsl:when>
        <xsl:otherwise>
          <span class="since" title="Added in JVM TI {$since}">since <xsl:value-of select="$since"/></span>
        </xsl:otherwise>
      </xsl:choose>
    </xsl:if>
  </xsl:template>


  <xsl:template match="function">
    <section id="{@id}" class="item function" data-name="{@id}">
      <h3><xsl:call-template name="synopsis-text"/>
        <xsl:text> </xsl:text><code class="ident"><xsl:value-of select="@id"/></code>
        <xsl:call-template name="since-badge"/>
<xsl:call-template name="self-link"/></h3>
      <pre class="synopsis"><code><xsl:value-of select="jg:prototype(@id)"/></code></pre>
      <!-- Phase · callback-safe · capabilities · since, as the man page
           says it too (jg:facts). -->
      <p class="proto-facts">
        <xsl:for-each select="jg:facts(@id)">
          <xsl:if test="position() &gt; 1"> · </xsl:if>
          <span data-fact="{@kind}"><xsl:value-of select="."/></span>
        </xsl:for-each>
      </p>
      <xsl:apply-templates select="description"/>
      <div class="scroll"><table class="facts">
        <xsl:copy-of select="$function-facts-head"/>
        <tr>
          <td>May be called <xsl:call-template name="function-phase-words"/></td>
          <td>
            <xsl:choose>
              <xsl:when test="@callbacksafe = 'safe'">Yes: may be called from heap iteration callbacks and from the event handlers of GarbageCollectionStart, GarbageCollectionFinish and ObjectFree</xsl:when>
              <xsl:otherwise>No</xsl:otherwise>
            </xsl:choose>
          </td>
          <td>
            <xsl:choose>
              <xsl:when test="@hide">not in the function table</xsl:when>
              <xsl:otherwise><xsl:value-of select="@num"/></xsl:otherwise>
            </xsl:choose>
          </td>
          <td><xsl:call-template name="since"/></td>
        </tr>
      </table></div>
      <xsl:apply-templates select="typedef|uniontypedef"/>
      <xsl:call-template name="capabilities-table">
        <xsl:with-param name="what" select="'function'"/>
      </xsl:call-template>
      <xsl:call-template name="params-table"/>
      <xsl:call-template name="errors-table"/>
    </section>
  </xsl:template>

  <!-- The capabilities a function or event needs or may use. -->
  <xsl:template name="capabilities-table">
    <xsl:param name="what"/>
    <div class="capabilities">
      <h4>Capabilities</h4>
      <xsl:choose>
        <xsl:when test="eventcapabilities">
          <p>Depends on the event: an event can only be enabled by an environment that
            has the capabilities the event lists:</p>
          <div class="scroll"><table class="wide">
            <tr><th scope="col">Event</th><th scope="col">Capabilities needed to enable it</th></tr>
            <xsl:for-each select="/specification/eventsection/event">
              <xsl:sort select="@id"/>
              <tr>
                <th scope="row"><a href="#{@id}"><code><xsl:value-of select="@id"/></code></a></th>
                <td>
                  <xsl:for-each select="capabilities/required">
                    <xsl:if test="position() &gt; 1"><xsl:text>, </xsl:text></xsl:if>
                    <a href="#{$caps-id}.{@id}"><code><xsl:value-of select="@id"/></code></a>
                  </xsl:for-each>
                  <xsl:if test="not(capabilities/required)">none</xsl:if>
                </td>
              </tr>
            </xsl:for-each>
          </table></div>
        </xsl:when>
        <xsl:when test="not(capabilities/required)">
          <p><strong>Required functionality</strong>: every implementation provides this
            <xsl:value-of select="$what"/>, and no capability is needed to use it.</p>
        </xsl:when>
        <xsl:otherwise>
          <p><strong>Optional functionality</strong>: a VM need not implement it. To use this
            <xsl:value-of select="$what"/> the environment must possess
            <xsl:choose>
              <xsl:when test="count(capabilities/required) = 1">this capability</xsl:when>
              <xsl:otherwise>all of these capabilities</xsl:otherwise>
            </xsl:choose>
            (see <xsl:copy-of select="$add-capabilities-link"/>):</p>
          <xsl:call-template name="capability-list">
            <xsl:with-param name="list" select="capabilities/required"/>
          </xsl:call-template>
        </xsl:otherwise>
      </xsl:choose>
      <xsl:if test="capabilities/capability">
        <p><strong>Optional features</strong>: these capabilities, when the environment
          possesses them, add to what this <xsl:value-of select="$what"/> does:</p>
        <xsl:call-template name="capability-list">
          <xsl:with-param name="list" select="capabilities/capability"/>
        </xsl:call-template>
      </xsl:if>
    </div>
  </xsl:template>

  <!-- A capability's effect: what the function or event says, else the
       capability's own description. (The parameter is not named caps: that
       would hide the global $caps.) -->
  <xsl:template name="capability-list">
    <xsl:param name="list"/>
    <div class="scroll"><table class="wide">
      <tr><th scope="col">Capability</th><th scope="col">Effect</th></tr>
      <xsl:for-each select="$list">
        <tr>
          <th scope="row"><a href="#{$caps-id}.{@id}"><code><xsl:value-of select="@id"/></code></a></th>
          <td>
            <xsl:choose>
              <xsl:when test="normalize-space(.) != '' or *"><xsl:apply-templates/></xsl:when>
              <xsl:otherwise>
                <xsl:apply-templates select="jg:capability-field(@id)/description/node()"/>
              </xsl:otherwise>
            </xsl:choose>
          </td>
        </tr>
      </xsl:for-each>
    </table></div>
  </xsl:template>

  <!-- The parameters of a function, event or callback. -->
  <xsl:template name="params-table">
    <xsl:variable name="owner" select="@id"/>
    <div class="parameters">
      <h4>Parameters</h4>
      <xsl:choose>
        <xsl:when test="not(parameters/param[not(jclass/@method)])"><p>None.</p></xsl:when>
        <xsl:otherwise>
          <div class="scroll"><table class="wide">
            <tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Description</th></tr>
            <!-- A <jclass method=""/> parameter names a method's class for
                 the spec's own purposes; C has no such parameter. -->
            <xsl:for-each select="parameters/param[not(jclass/@method)]">
              <tr>
                <th scope="row"><code id="{$owner}.{@id}"><xsl:value-of select="@id"/></code></th>
                <td><xsl:call-template name="ctype">
                    <xsl:with-param name="key" select="concat($owner, '.', @id)"/>
                  </xsl:call-template></td>
                <td>
                  <xsl:apply-templates select="description"/>
                  <xsl:call-template name="type-notes"/>
                </td>
              </tr>
            </xsl:for-each>
          </table></div>
        </xsl:otherwise>
      </xsl:choose>
    </div>
  </xsl:template>

  <!-- The C type of Owner.name (from jvmtigen, as jvmti.h spells it), its
       named type linked. The context is the param or field. -->
  <xsl:template name="ctype">
    <xsl:param name="key"/>
    <xsl:variable name="c" select="jg:ctype($key)"/>
    <xsl:variable name="name" select="jg:ctype-target($key)"/>
    <code class="ctype">
      <xsl:choose>
        <xsl:when test="contains($c, $name) and jg:anchor($name)">
          <xsl:value-of select="substring-before($c, $name)"/>
          <a href="#{$name}"><xsl:value-of select="$name"/></a>
          <xsl:value-of select="substring-after($c, $name)"/>
        </xsl:when>
        <xsl:otherwise><xsl:value-of select="$c"/></xsl:otherwise>
      </xsl:choose>
    </code>
  </xsl:template>

  <!-- What a parameter's type says about memory, counts and NULL. -->
  <xsl:template name="type-notes">
    <span class="type-note"><xsl:apply-templates select="*[not(self::description)][1]" mode="type-note"/>
      <xsl:call-template name="local-reference-note"/></span>
  </xsl:template>
  <!-- Where the model says a parameter or field returns new JNI local
       references (jg:reference-of), that the agent is to manage them. -->
  <xsl:template name="local-reference-note">
    <xsl:if test="jg:reference-of(.) = 'local'">
      <xsl:choose>
        <xsl:when test="allocbuf|allocallocbuf|allocfieldbuf|outbuf">
          <xsl:text> The references in it are JNI local references, to be </xsl:text>
        </xsl:when>
        <xsl:when test="outptr"><xsl:text> The result is a JNI local reference, to be </xsl:text></xsl:when>
        <xsl:otherwise><xsl:text> A JNI local reference, to be </xsl:text></xsl:otherwise>
      </xsl:choose>
      <xsl:copy-of select="$managed-link"/><xsl:text> by the agent.</xsl:text>
    </xsl:if>
  </xsl:template>

  <xsl:template match="*" mode="type-note"/>
  <xsl:template name="count-words">
    <xsl:param name="count"/>
    <xsl:param name="prefix" select="''"/>
    <xsl:if test="$count">
      <xsl:text> of </xsl:text><code><xsl:value-of select="$prefix"/><xsl:value-of select="$count"/></code>
      <xsl:text> elements</xsl:text>
    </xsl:if>
  </xsl:template>
  <xsl:template name="nullok-note">
    <xsl:if test="nullok">
      <xsl:text> NULL may be passed: </xsl:text><xsl:apply-templates select="nullok/node()"/>
    </xsl:if>
  </xsl:template>
  <xsl:template match="outptr" mode="type-note">
    <xsl:choose>
      <!-- A callback is passed its environments; other pointers of a
           callback point to storage the VM provides, which the agent may
           change. -->
      <xsl:when test="(ancestor::event or ancestor::callback) and struct = 'JNIEnv'"/>
      <!-- void and the environments are passed as plain pointers (void*,
           jvmtiEnv*): the callback is given them, it stores nothing. -->
      <xsl:when test="(ancestor::event or ancestor::callback) and (void or struct)">
        <xsl:text>A pointer the VM passes in.</xsl:text>
      </xsl:when>
      <xsl:when test="ancestor::event or ancestor::callback">
        <xsl:text>Points to storage the VM provides; the callback may store a new value there.</xsl:text>
      </xsl:when>
      <xsl:otherwise>
        <xsl:text>Points to storage the agent provides; on return it holds the result.</xsl:text>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:call-template name="nullok-note"/>
  </xsl:template>
  <xsl:template match="inptr" mode="type-note">
    <xsl:text>Points to a value the </xsl:text>
    <xsl:call-template name="passer"/>
    <xsl:text> passes in.</xsl:text>
    <xsl:call-template name="nullok-note"/>
  </xsl:template>
  <xsl:template match="inbuf" mode="type-note">
    <xsl:text>An array</xsl:text>
    <xsl:call-template name="count-words"><xsl:with-param name="count" select="@incount"/></xsl:call-template>
    <xsl:text> that the </xsl:text>
    <xsl:call-template name="passer"/>
    <xsl:text> passes in.</xsl:text>
    <xsl:call-template name="nullok-note"/>
  </xsl:template>
  <xsl:template match="outbuf" mode="type-note">
    <xsl:text>An array</xsl:text>
    <xsl:call-template name="count-words"><xsl:with-param name="count" select="@incount"/></xsl:call-template>
    <xsl:text> that the agent allocates; the function fills it in</xsl:text>
    <xsl:if test="@outcount">
      <xsl:text> and sets </xsl:text><code>*<xsl:value-of select="@outcount"/></code>
      <xsl:text> to the number of elements set</xsl:text>
    </xsl:if>
    <xsl:text>.</xsl:text>
    <xsl:call-template name="nullok-note"/>
  </xsl:template>
  <xsl:template match="vmbuf" mode="type-note">
    <xsl:text>An array</xsl:text>
    <xsl:call-template name="count-words"><xsl:with-param name="count" select="@incount|@outcount"/></xsl:call-template>
    <xsl:text> that belongs to the VM: do not modify or free it.</xsl:text>
    <xsl:call-template name="nullok-note"/>
  </xsl:template>
  <!-- A callback's way to hand something back: with a count, a buffer the
       agent allocates and the VM takes over (ClassFileLoadHook's
       new_class_data); without, a pointer of the agent's own. -->
  <xsl:template match="agentbuf" mode="type-note">
    <xsl:choose>
      <xsl:when test="@incount|@outcount">
        <xsl:text>Where the callback may store a pointer to a new array</xsl:text>
        <xsl:call-template name="count-words"><xsl:with-param name="count" select="@incount|@outcount"/></xsl:call-template>
        <xsl:text>, which the agent allocates with </xsl:text>
        <xsl:call-template name="xref"><xsl:with-param name="id" select="'Allocate'"/><xsl:with-param name="text"><code>Allocate</code></xsl:with-param></xsl:call-template>
        <xsl:text>; the VM takes it over and frees it with </xsl:text>
        <xsl:copy-of select="$deallocate-link"/>
        <xsl:text>.</xsl:text>
      </xsl:when>
      <xsl:otherwise>
        <xsl:text>Points to storage the VM provides; the callback may store a pointer of its own there, which the VM does not free.</xsl:text>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:call-template name="nullok-note"/>
  </xsl:template>
  <xsl:template name="passer">
    <xsl:choose>
      <xsl:when test="ancestor::event or ancestor::callback">VM</xsl:when>
      <xsl:otherwise>agent</xsl:otherwise>
    </xsl:choose>
  </xsl:template>
  <xsl:template match="allocbuf|allocallocbuf" mode="type-note">
    <xsl:text>On return, points to a newly allocated array</xsl:text>
    <xsl:call-template name="count-words">
      <xsl:with-param name="count" select="@outcount|@incount"/>
      <xsl:with-param name="prefix" select="substring('*', 1, number(boolean(@outcount)))"/>
    </xsl:call-template>
    <xsl:if test="self::allocallocbuf">
      <xsl:text>, each of them itself a newly allocated array</xsl:text>
    </xsl:if>
    <xsl:text>. Free </xsl:text>
    <xsl:if test="self::allocallocbuf">each element and then </xsl:if>
    <xsl:text>the array with </xsl:text><xsl:copy-of select="$deallocate-link"/><xsl:text>.</xsl:text>
    <xsl:call-template name="nullok-note"/>
  </xsl:template>
  <xsl:template match="allocfieldbuf" mode="type-note">
    <xsl:text>A newly allocated array</xsl:text>
    <xsl:call-template name="count-words">
      <xsl:with-param name="count" select="@outcount"/>
    </xsl:call-template>
    <xsl:text>; free it with </xsl:text><xsl:copy-of select="$deallocate-link"/><xsl:text>.</xsl:text>
  </xsl:template>
  <xsl:template match="ptrtype" mode="type-note">
    <xsl:call-template name="nullok-note"/>
  </xsl:template>
  <xsl:template match="jthread" mode="type-note">
    <xsl:if test="@null = 'current'">NULL stands for the current thread.</xsl:if>
  </xsl:template>
  <xsl:template match="jmethodID|jfieldID" mode="type-note">
    <xsl:if test="@class">
      <xsl:text>Belongs to the class </xsl:text><code><xsl:value-of select="@class"/></code><xsl:text>.</xsl:text>
    </xsl:if>
  </xsl:template>
  <xsl:template match="jclass" mode="type-note">
    <xsl:if test="@method">
      <xsl:text>The class of </xsl:text><code><xsl:value-of select="@method"/></code><xsl:text>.</xsl:text>
    </xsl:if>
  </xsl:template>
  <xsl:template match="jint" mode="type-note">
    <xsl:if test="@min">Must be at least <xsl:value-of select="@min"/>.</xsl:if>
  </xsl:template>

  <!-- The errors of a function besides the universal ones (jg:errors): a
       missing capability, what each parameter can be wrong in, its own.
       Which of them jvmtigen's function table checks on entry is a fact of
       this project's implementation, not of the spec: the reference leaves
       it out (jvmtigen_impl.h and `jvmtigen model` say it). -->
  <xsl:template name="errors-table">
    <div class="errors">
      <h4>Errors</h4>
      <p>Besides the <xsl:copy-of select="$universal-errors-link"/>,
        this function can return:</p>
      <xsl:variable name="errors" select="jg:errors(@id)"/>
      <xsl:choose>
        <xsl:when test="not($errors)"><p>No other error.</p></xsl:when>
        <xsl:otherwise>
          <div class="scroll"><table class="wide">
            <tr><th scope="col">Error</th><th scope="col">When</th></tr>
            <!-- A row for each missing capability, then one for each
                 error a parameter can cause (<jg:param-error-rows/>,
                 written by jvmtigen for their cost: see templates/README.md
                 and gen/docs/pagefacts.c for their markup), then the
                 function's own errors. -->
            <xsl:for-each select="$errors[@origin = 'capability']">
              <tr>
                <th scope="row"><a href="#{@id}"><code><xsl:value-of select="@id"/></code></a></th>
                <!-- (The sentence's line breaks and indentation are part
                     of its text, as the page has always had them.) -->
                <td>The environment does not possess the capability
            <a href="#{$caps-id}.{@cap}"><code><xsl:value-of select="@cap"/></code></a>
            (add it with <xsl:copy-of select="$add-capabilities-link"/>).</td>
              </tr>
            </xsl:for-each>
            <jg:param-error-rows/>
            <xsl:for-each select="errors/error">
              <tr>
                <th scope="row"><a href="#{@id}"><code><xsl:value-of select="@id"/></code></a></th>
                <td><xsl:apply-templates/></td>
              </tr>
            </xsl:for-each>
          </table></div>
        </xsl:otherwise>
      </xsl:choose>
    </div>
  </xsl:template>

  <xsl:template match="callback">
    <section id="{@id}" class="item callback" data-name="{@id}">
      <h3><xsl:call-template name="synopsis-text"/>
        <xsl:text> </xsl:text><code class="ident"><xsl:value-of select="@id"/></code>
        <xsl:call-template name="since-badge"/>
<xsl:call-template name="self-link"/></h3>
      <pre class="synopsis"><code><xsl:value-of select="jg:prototype(@id)"/></code></pre>
      <xsl:apply-templates select="description"/>
      <xsl:call-template name="params-table"/>
    </section>
  </xsl:template>

  <!-- ================================================================ -->
  <!-- Types and constants                                               -->
  <!-- ================================================================ -->

  <xsl:template match="typedef|uniontypedef">
    <xsl:variable name="owner" select="@id"/>
    <section id="{@id}" class="item type">
      <h3><xsl:value-of select="@label"/>
        <xsl:text> </xsl:text><code class="ident"><xsl:value-of select="@id"/></code>
        <xsl:call-template name="since-badge"/><xsl:call-template name="self-link"/></h3>
      <pre class="synopsis"><code>
        <xsl:choose>
          <xsl:when test="self::uniontypedef">typedef union {</xsl:when>
          <xsl:otherwise>typedef struct {</xsl:otherwise>
        </xsl:choose>
        <xsl:for-each select="field">
          <xsl:text>&#10;    </xsl:text>
          <xsl:value-of select="jg:ctype(concat($owner, '.', @id))"/>
          <xsl:text> </xsl:text><xsl:value-of select="@id"/><xsl:text>;</xsl:text>
        </xsl:for-each>
        <xsl:text>&#10;} </xsl:text><xsl:value-of select="@id"/><xsl:text>;</xsl:text>
      </code></pre>
      <xsl:apply-templates select="description"/>
      <div class="scroll"><table class="wide">
        <tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Description</th></tr>
        <xsl:for-each select="field">
          <tr>
            <th scope="row"><code id="{$owner}.{@id}"><xsl:value-of select="@id"/></code></th>
            <td><xsl:call-template name="ctype">
                <xsl:with-param name="key" select="concat($owner, '.', @id)"/>
              </xsl:call-template></td>
            <td><xsl:apply-templates select="description"/>
              <xsl:call-template name="type-notes"/></td>
          </tr>
        </xsl:for-each>
      </table></div>
    </section>
  </xsl:template>

  <xsl:template match="capabilitiestypedef">
    <xsl:variable name="owner" select="@id"/>
    <section id="{@id}" class="item type">
      <h3><xsl:value-of select="@label"/>
        <xsl:text> </xsl:text><code class="ident"><xsl:value-of select="@id"/></code><xsl:call-template name="self-link"/></h3>
      <pre class="synopsis"><code>
        <xsl:text>typedef struct {</xsl:text>
        <xsl:for-each select="capabilityfield">
          <xsl:text>&#10;    unsigned int </xsl:text><xsl:value-of select="@id"/><xsl:text> : 1;</xsl:text>
        </xsl:for-each>
        <xsl:text>&#10;    unsigned int : </xsl:text>
        <xsl:value-of select="(16 - count(capabilityfield) mod 16) mod 16"/>
        <xsl:text>;&#10;    ...&#10;} </xsl:text><xsl:value-of select="@id"/><xsl:text>;</xsl:text>
      </code></pre>
      <xsl:apply-templates select="description"/>
      <div class="scroll"><table class="wide">
        <tr><th scope="col">Capability</th><th scope="col">Description</th><th scope="col">Needed by</th></tr>
        <xsl:for-each select="capabilityfield">
          <tr>
            <th scope="row"><code id="{$owner}.{@id}"><xsl:value-of select="@id"/></code>
              <xsl:call-template name="since-badge"/></th>
            <td><xsl:apply-templates select="description"/></td>
            <td><xsl:call-template name="capability-users"/></td>
          </tr>
        </xsl:for-each>
      </table></div>
    </section>
  </xsl:template>

  <!-- Which functions and events need (or may use) the capability. -->
  <xsl:template name="capability-users">
    <xsl:variable name="req" select="jg:capability-users('required', @id)"/>
    <xsl:variable name="opt" select="jg:capability-users('capability', @id)"/>
    <xsl:if test="$req">
      <span class="xref-label">Required by</span>
      <xsl:for-each select="$req">
        <xsl:text> </xsl:text><a href="#{@id}"><code><xsl:value-of select="@id"/></code></a>
      </xsl:for-each>
    </xsl:if>
    <xsl:if test="$opt">
      <xsl:if test="$req"><br/></xsl:if>
      <span class="xref-label">Used by</span>
      <xsl:for-each select="$opt">
        <xsl:text> </xsl:text><a href="#{@id}"><code><xsl:value-of select="@id"/></code></a>
      </xsl:for-each>
    </xsl:if>
    <!-- Some capabilities change what the VM does without any function or
         event naming them (can_generate_early_vmstart, say). -->
    <xsl:if test="not($req | $opt)"><i>No function or event names it; see its description.</i></xsl:if>
  </xsl:template>

  <xsl:template match="constants">
    <div class="scroll"><table id="{@id}" class="wide constants">
      <caption><xsl:value-of select="@label"/>
        <xsl:text> </xsl:text><code class="ident"><xsl:value-of select="@id"/></code>
        <xsl:call-template name="since-badge"/>
        <span class="kind">
          <xsl:choose>
            <xsl:when test="@kind = 'bits'"> (bit flags)</xsl:when>
            <xsl:when test="@kind = 'enum'"> (enumeration)</xsl:when>
          </xsl:choose>
        </span><xsl:call-template name="self-link"/></caption>
      <tr><th scope="col">Constant</th><th scope="col">Value</th><th scope="col">Description</th></tr>
      <xsl:for-each select="constant">
        <tr>
          <th scope="row"><code id="{@id}"><xsl:value-of select="@id"/></code></th>
          <td><code><xsl:value-of select="@num"/></code></td>
          <td><xsl:apply-templates/></td>
        </tr>
      </xsl:for-each>
    </table></div>
  </xsl:template>

  <!-- ================================================================ -->
  <!-- Errors                                                            -->
  <!-- ================================================================ -->

  <xsl:template match="errorsection">
    <section id="ErrorSection" class="part">
      <h2><xsl:value-of select="@label"/><xsl:call-template name="self-link"><xsl:with-param name="id" select="'ErrorSection'"/></xsl:call-template></h2>
      <xsl:apply-templates select="intro"/>
      <xsl:apply-templates select="errorcategory"/>
    </section>
  </xsl:template>

  <xsl:template match="errorcategory">
    <section id="{@id}" class="error-category">
      <h3><xsl:value-of select="@label"/><xsl:call-template name="self-link"/></h3>
      <xsl:apply-templates select="intro"/>
      <dl class="errors">
        <xsl:for-each select="errorid">
          <dt id="{@id}" data-name="{@id}"><code><xsl:value-of select="@id"/></code>
            <span class="num">(<xsl:value-of select="@num"/>)</span><xsl:call-template name="self-link"/></dt>
          <dd>
            <div class="prose"><xsl:apply-templates/></div>
            <xsl:choose>
              <xsl:when test="../@id = 'universal-error'">
                <p class="xref">Any function may return it.</p>
              </xsl:when>
              <xsl:otherwise>
                <xsl:variable name="users" select="jg:error-functions(@id)"/>
                <xsl:if test="$users">
                  <p class="xref"><span class="xref-label">Returned by</span>
                    <xsl:for-each select="$users">
                      <xsl:text> </xsl:text><a href="#{@id}"><code><xsl:value-of select="@id"/></code></a>
                    </xsl:for-each>
                  </p>
                </xsl:if>
              </xsl:otherwise>
            </xsl:choose>
          </dd>
        </xsl:for-each>
      </dl>
    </section>
  </xsl:template>

  <!-- ================================================================ -->
  <!-- Events                                                            -->
  <!-- ================================================================ -->

  <xsl:template match="eventsection">
    <section id="EventSection" class="part">
      <h2><xsl:value-of select="@label"/><xsl:call-template name="self-link"><xsl:with-param name="id" select="'EventSection'"/></xsl:call-template></h2>
      <xsl:apply-templates select="intro"/>
      <section id="EventIndex">
        <h3>Event index<xsl:call-template name="self-link"><xsl:with-param name="id" select="'EventIndex'"/></xsl:call-template></h3>
        <ul class="index-columns">
          <xsl:for-each select="event">
            <xsl:sort select="@label"/>
            <li><a href="#{@id}"><xsl:value-of select="@label"/></a>
              <xsl:call-template name="since-badge"/></li>
          </xsl:for-each>
        </ul>
      </section>
      <xsl:apply-templates select="event"/>
    </section>
  </xsl:template>

  <xsl:template match="event">
    <section id="{@id}" class="item event" data-name="{@id}">
      <h3><xsl:value-of select="@label"/>
        <xsl:text> </xsl:text><code class="ident"><xsl:value-of select="@id"/></code>
        <xsl:call-template name="since-badge"/>
<xsl:call-template name="self-link"/></h3>
      <pre class="synopsis"><code><xsl:value-of select="jg:prototype(@id)"/></code></pre>
      <xsl:apply-templates select="description"/>
      <div class="scroll"><table class="facts">
        <xsl:copy-of select="$event-facts-head"/>
        <tr>
          <td>Sent <xsl:call-template name="event-phase-words"/></td>
          <td><code><xsl:value-of select="@const"/></code></td>
          <td><xsl:value-of select="@num"/></td>
          <td><code><xsl:copy-of select="$enable-link"/>(JVMTI_ENABLE, <xsl:value-of select="@const"/>, NULL)</code></td>
          <td>
            <xsl:choose>
              <xsl:when test="@filtered = 'thread'">Can be enabled for one thread</xsl:when>
              <xsl:otherwise>Global only: cannot be enabled for one thread</xsl:otherwise>
            </xsl:choose>
          </td>
          <td><xsl:call-template name="since"/></td>
        </tr>
      </table></div>
      <xsl:apply-templates select="typedef"/>
      <xsl:call-template name="capabilities-table">
        <xsl:with-param name="what" select="'event'"/>
      </xsl:call-template>
      <xsl:call-template name="params-table"/>
    </section>
  </xsl:template>

  <!-- ================================================================ -->
  <!-- Data types                                                        -->
  <!-- ================================================================ -->

  <xsl:template match="datasection">
    <section id="DataSection" class="part">
      <h2>Data types<xsl:call-template name="self-link"><xsl:with-param name="id" select="'DataSection'"/></xsl:call-template></h2>
      <xsl:apply-templates select="intro"/>
      <xsl:apply-templates select="basetypes"/>
      <section id="StructureTypeDefinitions">
        <h3>Structure types<xsl:call-template name="self-link"><xsl:with-param name="id" select="'StructureTypeDefinitions'"/></xsl:call-template></h3>
        <div class="scroll"><table class="wide">
          <tr><th scope="col">Type</th><th scope="col">Description</th></tr>
          <xsl:for-each select="/specification/functionsection/category/*[self::typedef or self::uniontypedef or self::capabilitiestypedef]|
                                /specification/functionsection/category/function/*[self::typedef or self::uniontypedef]|
                                /specification/eventsection/event/typedef">
            <xsl:sort select="@id"/>
            <tr><th scope="row"><a href="#{@id}"><code><xsl:value-of select="@id"/></code></a></th>
              <td><xsl:value-of select="@label"/><xsl:call-template name="since-badge"/></td></tr>
          </xsl:for-each>
        </table></div>
      </section>
      <section id="FunctionTypeDefinitions">
        <h3>Function types<xsl:call-template name="self-link"><xsl:with-param name="id" select="'FunctionTypeDefinitions'"/></xsl:call-template></h3>
        <div class="scroll"><table class="wide">
          <tr><th scope="col">Type</th><th scope="col">Description</th></tr>
          <xsl:for-each select="/specification/functionsection/category/callback">
            <xsl:sort select="@id"/>
            <tr><th scope="row"><a href="#{@id}"><code><xsl:value-of select="@id"/></code></a></th>
              <td><xsl:call-template name="synopsis-text"/><xsl:call-template name="since-badge"/></td></tr>
          </xsl:for-each>
        </table></div>
      </section>
      <section id="EnumerationDefinitions">
        <h3>Enumerations<xsl:call-template name="self-link"><xsl:with-param name="id" select="'EnumerationDefinitions'"/></xsl:call-template></h3>
        <div class="scroll"><table class="wide">
          <tr><th scope="col">Type</th><th scope="col">Description</th></tr>
          <xsl:for-each select="$constant-groups[@kind = 'enum']">
            <xsl:sort select="@id"/>
            <tr><th scope="row"><a href="#{@id}"><code><xsl:value-of select="@id"/></code></a></th>
              <td><xsl:value-of select="@label"/><xsl:call-template name="since-badge"/></td></tr>
          </xsl:for-each>
        </table></div>
      </section>
      <xsl:call-template name="function-table"/>
      <section id="VersionConstants">
        <h3>Version constants<xsl:call-template name="self-link"><xsl:with-param name="id" select="'VersionConstants'"/></xsl:call-template></h3>
        <p>The versions <code>jvmti.h</code> names, for JNI's <code>GetEnv</code> and
          <xsl:call-template name="xref"><xsl:with-param name="id" select="'GetVersionNumber'"/><xsl:with-param name="text"><code>GetVersionNumber</code></xsl:with-param></xsl:call-template>.</p>
        <div class="scroll"><table class="wide">
          <tr><th scope="col">Constant</th><th scope="col">Value</th><th scope="col">Since</th></tr>
          <xsl:for-each select="jg:versions()">
            <tr><th scope="row"><code id="{@name}"><xsl:value-of select="@name"/></code></th>
              <td><code><xsl:value-of select="@value"/></code></td>
              <td><xsl:call-template name="since"/></td></tr>
          </xsl:for-each>
        </table></div>
      </section>
      <section id="ConstantIndex">
        <h3>Constant index<xsl:call-template name="self-link"><xsl:with-param name="id" select="'ConstantIndex'"/></xsl:call-template></h3>
        <ul class="index-columns">
          <!-- (An event's constants, such as ResourceExhausted's flags, too.) -->
    <xsl:for-each select="$constant-groups/constant|/specification/eventsection/event//constants/constant">
            <xsl:sort select="@id"/>
            <li><a href="#{@id}"><code><xsl:value-of select="@id"/></code></a></li>
          </xsl:for-each>
        </ul>
      </section>
    </section>
  </xsl:template>

  <xsl:template match="basetypes">
    <section id="{@id}" class="basetypes">
      <h3><xsl:value-of select="@label"/><xsl:call-template name="self-link"/></h3>
      <xsl:apply-templates select="intro"/>
      <div class="scroll"><table class="wide">
        <tr><th scope="col">Type</th><th scope="col">Description</th></tr>
        <xsl:for-each select="basetype">
          <xsl:variable name="anchor"><xsl:call-template name="basetype-anchor"/></xsl:variable>
          <tr>
            <th scope="row"><code id="{$anchor}"><xsl:value-of select="@id"/></code></th>
            <td>
              <xsl:apply-templates select="description"/>
              <xsl:if test="definition">
                <pre><code><xsl:apply-templates select="definition/node()" mode="verbatim"/></code></pre>
              </xsl:if>
            </td>
          </tr>
        </xsl:for-each>
      </table></div>
    </section>
  </xsl:template>

  <!-- The slots of jvmtiInterface_1, reserved ones included: jg:table-slots()
       is the list the function table in jvmti.h is written from. -->
  <xsl:template name="function-table">
    <section id="FunctionTable">
      <h3>Function table<xsl:call-template name="self-link"><xsl:with-param name="id" select="'FunctionTable'"/></xsl:call-template></h3>
      <p>The layout of <code>jvmtiInterface_1</code>, the table an environment points to.</p>
      <div class="scroll"><table class="wide">
        <tr><th scope="col">Position</th><th scope="col">Function</th><th scope="col">Since</th></tr>
        <xsl:for-each select="jg:table-slots()">
          <tr>
            <th scope="row"><xsl:value-of select="@num"/></th>
            <xsl:choose>
              <xsl:when test="@function">
                <td><a href="#{@function}"><code><xsl:value-of select="@function"/></code></a></td>
                <td><xsl:value-of select="@since"/></td>
              </xsl:when>
              <xsl:otherwise><td><i>reserved</i></td><td></td></xsl:otherwise>
            </xsl:choose>
          </tr>
        </xsl:for-each>
      </table></div>
    </section>
  </xsl:template>

  <!-- ================================================================ -->
  <!-- Cross-indexes and change history                                  -->
  <!-- ================================================================ -->

  <xsl:template name="capability-index">
    <section id="CapabilityIndex" class="part">
      <h2>Capability index<xsl:call-template name="self-link"><xsl:with-param name="id" select="'CapabilityIndex'"/></xsl:call-template></h2>
      <p>For each capability, the functions and events that need it and those whose
        behaviour it extends.</p>
      <div class="scroll"><table class="wide">
        <tr><th scope="col">Capability</th><th scope="col">Functions and events</th></tr>
        <xsl:for-each select="/specification/functionsection/category/capabilitiestypedef/capabilityfield">
          <tr>
            <th scope="row"><a href="#{$caps-id}.{@id}"><code><xsl:value-of select="@id"/></code></a></th>
            <td><xsl:call-template name="capability-users"/></td>
          </tr>
        </xsl:for-each>
      </table></div>
    </section>
  </xsl:template>

  <xsl:template match="changehistory">
    <section id="{@id}" class="part">
      <h2>Change history<xsl:call-template name="self-link"/></h2>
      <p>Last update: <xsl:value-of select="@update"/></p>
      <xsl:apply-templates select="intro"/>
      <div class="scroll"><table class="wide changes">
        <tr><th scope="col">Date</th><th scope="col">Version</th><th scope="col">Changes</th></tr>
        <xsl:for-each select="change">
          <xsl:variable name="release" select="jg:release(@version)"/>
          <tr>
            <!-- The first entry of a release is where its items' since
                 badges point (entries are in date order). -->
            <xsl:if test="$release != '' and $release != jg:release(preceding-sibling::change[1]/@version)">
              <xsl:attribute name="id">version-<xsl:value-of select="$release"/></xsl:attribute>
            </xsl:if>
            <td><xsl:value-of select="@date"/></td>
            <td><xsl:value-of select="@version"/></td>
            <td><xsl:apply-templates/></td>
          </tr>
        </xsl:for-each>
      </table></div>
    </section>
  </xsl:template>
</xsl:stylesheet>
