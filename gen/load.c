#include "load.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlversion.h>

#include "diag.h"

/* State of the one load in progress (the generator loads one spec at a time). */
static struct {
    const char *spec;
    Vec *deps;
    int main_loaded;
    int ext_subset_used;
    int refused;
    int entity_limit_reported;
    xmlParserCtxtPtr main;  /* entity content is parsed in sub-contexts */
    xmlExternalEntityLoader default_loader;
} cur;

/* Where the main document's parser is: inside an entity, libxml2 reports
 * lines of the entity's text, which says nothing useful about the spec. */
static Loc document_loc(void)
{
    Loc loc = {cur.spec, 0};
    if (cur.main && cur.main->inputNr > 0 && cur.main->inputTab[0])
        loc.line = cur.main->inputTab[0]->line;
    return loc;
}

static char *xstrdup(const char *s)
{
    char *p = strdup(s);
    if (!p) {
        fputs("jvmtigen: error: out of memory\n", stderr);
        exit(3);
    }
    return p;
}

static int is_local(const char *url)
{
    if (strncmp(url, "file://", 7) == 0)
        return 1;
    /* A URI scheme is letters/digits/+.- followed by ':' */
    for (const char *p = url; *p; p++) {
        if (*p == ':')
            return p == url;
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '+' || *p == '-' || *p == '.'))
            return 1;
    }
    return 1;
}

/* The external subset is the only outside resource a spec may name. The
 * parser asks for it first, with inSubset == 2; anything else (external
 * general or parameter entities, a second subset, any URL) is refused. */
static xmlParserInputPtr guarded_loader(const char *url, const char *id,
                                        xmlParserCtxtPtr ctxt)
{
    const char *what = url ? url : id ? id : "(unnamed)";
    /* The first request is the spec itself (xmlCtxtReadFile opens it so). */
    if (!cur.main_loaded && url && strcmp(url, cur.spec) == 0) {
        cur.main_loaded = 1;
        return cur.default_loader(url, id, ctxt);
    }
    if (ctxt && ctxt->inSubset == 2 && !cur.ext_subset_used && url && is_local(url)) {
        cur.ext_subset_used = 1;
        xmlParserInputPtr in = cur.default_loader(url, id, ctxt);
        if (in && cur.deps)
            vec_push(cur.deps, xstrdup(strncmp(url, "file://", 7) == 0 ? url + 7 : url));
        return in;
    }
    Loc loc = document_loc();
    error_at(&loc, "refusing to load external entity '%s': a spec may not read other "
                   "files or the network", what);
    cur.refused++;
    /* Stop the parse: nothing useful can come of a document that needs it. */
    if (ctxt)
        xmlStopParser(ctxt);
    return NULL;
}

static int is_entity_limit(int code)
{
#if LIBXML_VERSION >= 21100
    if (code == XML_ERR_ENTITY_AMPLIFICATION)
        return 1;
#endif
    return code == XML_ERR_ENTITY_LOOP;
}

static void on_xml_error(void *data, xmlErrorPtr e)
{
    (void)data;
    if (!e || e->level == XML_ERR_NONE)
        return;
    /* Our loader already said why the entity is missing. */
    if (cur.refused && (e->code == XML_IO_LOAD_ERROR || e->code == XML_ERR_UNDECLARED_ENTITY ||
                        e->code == XML_WAR_UNDECLARED_ENTITY || e->code == XML_ERR_USER_STOP))
        return;
    Loc loc = {e->file ? e->file : cur.spec, e->line};
    if (is_entity_limit(e->code)) {
        /* One report, at the reference in the spec, in words that say why. */
        if (cur.entity_limit_reported++)
            return;
        loc = document_loc();
        error_at(&loc, "entity expansion refused: it exceeds libxml2's limits (a reference "
                       "loop or an expansion bomb)");
        return;
    }
    DiagLevel level = e->level == XML_ERR_WARNING ? DIAG_WARNING : DIAG_ERROR;
    const char *msg = e->message ? e->message : "unknown XML error";
    diag(level, &loc, "%s", msg);
}

int load_spec(const char *path, xmlDocPtr *doc, Vec *deps)
{
    *doc = NULL;
    FILE *probe = fopen(path, "rb");
    if (!probe) {
        Loc loc = {path, 0};
        error_at(&loc, "cannot read: %s", strerror(errno));
        return LOAD_IO;
    }
    fclose(probe);

    memset(&cur, 0, sizeof cur);
    cur.spec = path;
    cur.deps = deps;
    if (deps)
        vec_push(deps, xstrdup(path));
    cur.default_loader = xmlGetExternalEntityLoader();
    xmlSetExternalEntityLoader(guarded_loader);
    xmlSetStructuredErrorFunc(NULL, on_xml_error);

    int errors_before = diag_error_count();
    xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
    int rc = LOAD_INVALID;
    cur.main = ctxt;
    if (!ctxt) {
        error_at(NULL, "cannot create an XML parser");
        goto out;
    }
    /* NOENT: entities are expanded by the parser, under its amplification
     * limits, so the tree holds plain text; external ones never get loaded. */
    int opts = XML_PARSE_DTDLOAD | XML_PARSE_DTDVALID | XML_PARSE_NOENT | XML_PARSE_NONET |
               XML_PARSE_BIG_LINES;
    *doc = xmlCtxtReadFile(ctxt, path, NULL, opts);
    if (!*doc || !ctxt->wellFormed || !ctxt->valid || cur.refused ||
        diag_error_count() > errors_before) {
        if (diag_error_count() == errors_before) {
            Loc loc = {path, 0};
            error_at(&loc, "not a valid spec document");
        }
        if (*doc)
            xmlFreeDoc(*doc);
        *doc = NULL;
    } else {
        rc = LOAD_OK;
    }
    xmlFreeParserCtxt(ctxt);
out:
    xmlSetExternalEntityLoader(cur.default_loader);
    xmlSetStructuredErrorFunc(NULL, NULL);
    return rc;
}
