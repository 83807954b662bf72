#include "model/load.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/uri.h>
#include <libxml/xmlIO.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlversion.h>

#include "base/diag.h"

/* State of the one load in progress (the generator loads one spec at a time). */
static struct {
    const char *spec;
    Vec *deps;
    int ext_subset_used;
    int refused;
    int entity_limit_reported;
    int xml_errors;
    int stop;              /* stop the parse at the next safe point */
    xmlParserCtxtPtr main; /* entity content is parsed in sub-contexts */
    xmlExternalEntityLoader default_loader;
    startElementNsSAX2Func start_element;
    entityDeclSAXFunc entity_decl;
    StrMap entity_sizes; /* internal general entity -> its expansion's size + 1 */
    Arena *entity_names; /* the keys of entity_sizes */
    int entities_refused;
} cur;

/* Stopping libxml2 (xmlStopParser) frees the input it is reading, so it is
 * safe only where no caller up the stack still points into that input: an
 * error callback or the entity loader may run deep inside the tree builder.
 * They ask for the stop; the next element's start does it (see
 * guarded_start_element), before anything of that element is built. */
static void request_stop(void) { cur.stop = 1; }

/* Where the main document's parser is: inside an entity, libxml2 reports
 * lines of the entity's text, which says nothing useful about the spec. */
static Loc document_loc(void)
{
    Loc loc = {cur.spec, 0};
    if (cur.main && cur.main->inputNr > 0 && cur.main->inputTab[0])
        loc.line = cur.main->inputTab[0]->line;
    return loc;
}

static int has_scheme(const char *url)
{
    /* A URI scheme is letters/digits/+.- followed by ':' */
    for (const char *p = url; *p; p++) {
        if (*p == ':')
            return p != url;
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '+' || *p == '-' || *p == '.'))
            return 0;
    }
    return 0;
}

static int refuse(const char *what, const char *why, xmlParserCtxtPtr ctxt)
{
    Loc loc = document_loc();
    error_at(&loc, "refusing to load external entity '%s': %s", what, why);
    (void)ctxt;
    cur.refused++;
    /* Nothing useful can come of a document that needs it. */
    request_stop();
    return 0;
}

/* The file the DOCTYPE's system literal names, as written (a plain path or
 * a file: URL), relative to the spec's directory: malloc'd, or NULL when
 * it names no local file. */
static char *subset_path(const char *sysid)
{
    const char *p = sysid;
    if (strncmp(p, "file://", 7) == 0) {
        p += 7;
        if (strncmp(p, "localhost/", 10) == 0)
            p += 9;
        if (*p != '/')
            return NULL; /* file://host/... */
    } else if (has_scheme(p)) {
        return NULL;
    }
    Buf b;
    buf_init(&b);
    const char *slash = strrchr(cur.spec, '/');
    if (*p != '/' && slash)
        buf_printf(&b, "%.*s/", (int)(slash - cur.spec), cur.spec);
    buf_puts(&b, p);
    /* A URI reference may escape bytes as %XX; a file whose name has a
     * literal '%' is found too. */
    struct stat st;
    if (strchr(b.data, '%') && stat(b.data, &st) != 0) {
        char *u = xmlURIUnescapeString(b.data, 0, NULL);
        if (u) {
            buf_reset(&b);
            buf_puts(&b, u);
            xmlFree(u);
        }
    }
    return b.data;
}

/* Reads the external subset into memory: a regular file only (not a
 * device, a pipe or a directory), never unpacked. */
static xmlParserInputPtr load_subset(const char *sysid, xmlParserCtxtPtr ctxt)
{
    char *path = subset_path(sysid);
    if (!path) {
        refuse(sysid, "a spec may not read other files or the network", ctxt);
        return NULL;
    }
    xmlParserInputPtr in = NULL;
    Buf data;
    buf_init(&data);
    if (read_file(path, &data) != 0) {
        int err = errno;
        if (err == READ_NOT_REGULAR || err == EISDIR) {
            refuse(sysid, "the DTD is not a regular file", ctxt);
        } else if (err == READ_TOO_BIG) {
            refuse(sysid, "the DTD is too large", ctxt);
        } else {
            Loc loc = document_loc();
            error_at(&loc, "cannot read the DTD '%s': %s", path, strerror(err));
            cur.refused++;
            request_stop();
        }
        goto out;
    }
    xmlParserInputBufferPtr ib = xmlParserInputBufferCreateMem(
        data.data ? data.data : "", (int)data.len, XML_CHAR_ENCODING_NONE);
    in = ib ? xmlNewIOInputStream(ctxt, ib, XML_CHAR_ENCODING_NONE) : NULL;
    if (!in) {
        if (ib)
            xmlFreeParserInputBuffer(ib);
        error_at(NULL, "cannot create an XML parser input");
        cur.refused++;
        request_stop();
        goto out;
    }
    in->filename = (char *)xmlStrdup((const xmlChar *)path);
    if (cur.deps)
        vec_push(cur.deps, xstrdup(path));
out:
    buf_free(&data);
    free(path);
    return in;
}

/* The external subset is the only outside resource a spec may name. The
 * parser asks for it with inSubset == 2; anything else (external general
 * or parameter entities, a second subset, any URL) is refused. */
static xmlParserInputPtr guarded_loader(const char *url, const char *id, xmlParserCtxtPtr ctxt)
{
    const char *what = url ? url : id ? id : "(unnamed)";
    if (ctxt && ctxt == cur.main && ctxt->inSubset == 2 && !cur.ext_subset_used &&
        ctxt->extSubURI) {
        cur.ext_subset_used = 1;
        return load_subset((const char *)ctxt->extSubURI, ctxt);
    }
    refuse(what, "a spec may not read other files or the network", ctxt);
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
    /* A refused entity is not declared: its references are not news. */
    if (cur.entities_refused &&
        (e->code == XML_ERR_UNDECLARED_ENTITY || e->code == XML_WAR_UNDECLARED_ENTITY ||
         e->code == XML_ERR_USER_STOP))
        return;
    Loc loc = {e->file ? e->file : cur.spec, e->line};
    /* libxml2 validates an element when it ends, and reports the line it
     * has reached then; the element's own line is where the problem is. */
    xmlNodePtr node = e->node;
    if (e->domain == XML_FROM_VALID && node && node->type == XML_ELEMENT_NODE && node->doc &&
        node->doc == (cur.main ? cur.main->myDoc : NULL)) {
        long line = xmlGetLineNo(node);
        if (line > 0 && line < INT_MAX)
            loc = (Loc){cur.spec, (int)line};
    }
    if (cur.xml_errors > LOAD_MAX_ERRORS)
        return; /* given up: nothing more after saying so */
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
    if (level == DIAG_ERROR && ++cur.xml_errors > LOAD_MAX_ERRORS) {
        if (cur.xml_errors == LOAD_MAX_ERRORS + 1) {
            error_at(&loc, "too many errors (%d); giving up", LOAD_MAX_ERRORS);
            request_stop();
        }
        return;
    }
    const char *msg = e->message ? e->message : "unknown XML error";
    diag(level, &loc, "%s", msg);
}

/* Where the parse is stopped when asked to, and where an element with
 * absurdly many attributes is refused before libxml2's tree builder, which
 * takes time quadratic in their number, sees it. */
static void guarded_start_element(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                                  const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
                                  int nb_attributes, int nb_defaulted, const xmlChar **attributes)
{
    xmlParserCtxtPtr ctxt = ctx;
    if (!cur.stop && (nb_attributes > LOAD_MAX_ATTRIBUTES || nb_namespaces > LOAD_MAX_ATTRIBUTES)) {
        Loc loc = document_loc();
        error_at(&loc,
                 "<%s> has %d attributes and %d namespace declarations; a spec "
                 "element may have at most %d of each",
                 (const char *)localname, nb_attributes, nb_namespaces, LOAD_MAX_ATTRIBUTES);
        cur.stop = 1;
    }
    if (cur.stop) {
        xmlStopParser(ctxt);
        return;
    }
    cur.start_element(ctx, localname, prefix, uri, nb_namespaces, namespaces, nb_attributes,
                      nb_defaulted, attributes);
}

/* ---- entity sizes ----
 * Each internal general entity's whole expansion is computed as it is
 * declared: its replacement text, with each entity it names counted at the
 * size computed for that one (entities must be declared before they are
 * used). One over LOAD_MAX_ENTITY_SIZE is refused and not declared at all,
 * so nothing expands it: no later reference costs more than its name. */
static size_t entity_size(const char *name)
{
    static const char *const predefined[] = {"lt", "gt", "amp", "apos", "quot"};
    uintptr_t v = (uintptr_t)strmap_get(&cur.entity_sizes, name);
    if (v)
        return v - 1;
    for (size_t i = 0; i < sizeof predefined / sizeof *predefined; i++)
        if (strcmp(name, predefined[i]) == 0)
            return 1;
    return strlen(name); /* undeclared (or refused): an error, not an expansion */
}

static size_t expansion_size(const char *text)
{
    size_t n = 0;
    for (const char *p = text; *p;) {
        const char *semi = *p == '&' ? strchr(p, ';') : NULL;
        if (!semi) {
            n++, p++;
            continue;
        }
        size_t add = 1; /* a character reference */
        if (p[1] != '#') {
            char name[256];
            size_t len = (size_t)(semi - p - 1);
            if (len >= sizeof name) {
                add = len;
            } else {
                memcpy(name, p + 1, len);
                name[len] = '\0';
                add = entity_size(name);
            }
        }
        n = n > SIZE_MAX - add ? SIZE_MAX : n + add;
        p = semi + 1;
    }
    return n;
}

static void guarded_entity_decl(void *ctx, const xmlChar *name, int type, const xmlChar *public_id,
                                const xmlChar *system_id, xmlChar *content)
{
    if (type == XML_INTERNAL_GENERAL_ENTITY && name && content &&
        !strmap_get(&cur.entity_sizes, (const char *)name)) {
        size_t size = expansion_size((const char *)content);
        if (size > LOAD_MAX_ENTITY_SIZE) {
            if (!cur.entities_refused++) {
                Loc loc = document_loc();
                error_at(&loc,
                         "entity expansion refused: '%s' would expand to %s%zu bytes; an "
                         "entity may expand to at most %d",
                         (const char *)name, size == SIZE_MAX ? "over " : "", size,
                         LOAD_MAX_ENTITY_SIZE);
            }
            request_stop();
            return;
        }
        if (!cur.entity_names)
            cur.entity_names = arena_new();
        strmap_put(&cur.entity_sizes, arena_strdup(cur.entity_names, (const char *)name),
                   (void *)(uintptr_t)(size + 1));
    }
    cur.entity_decl(ctx, name, type, public_id, system_id, content);
}

/* ---- a look at the bytes before libxml2 parses them ----
 * libxml2 checks a start tag's attributes for duplicates in time quadratic
 * in their number, before any callback could refuse the tag (100,000
 * attributes: 16 s; 200,000: 70 s). So tags are counted first: '<', a
 * name, then every '=' outside quotes up to the '>'. Comments, CDATA and
 * processing instructions are skipped; the quoted literals of declarations
 * (an entity's value may hold tags) are looked at the same way. NUL bytes
 * are passed over, so UTF-16 and UTF-32 text is read like ASCII. */
typedef struct Scan {
    const char *p, *end;
} Scan;

static void scan_skip_nul(Scan *s)
{
    while (s->p < s->end && *s->p == '\0')
        s->p++;
}

/* The next character, NUL bytes passed over; '\0' at the end. */
static char scan_peek(Scan *s)
{
    scan_skip_nul(s);
    return s->p < s->end ? *s->p : '\0';
}

static void scan_next(Scan *s)
{
    scan_skip_nul(s);
    if (s->p < s->end)
        s->p++;
}

/* To the next c (or the end): memchr goes a word at a time, and NUL
 * bytes are never c. Lines are not counted on the way (only a refusal
 * needs one: line_at), which made this scan 14% of a --no-docs run. */
static void scan_to(Scan *s, char c)
{
    const char *at = memchr(s->p, c, (size_t)(s->end - s->p));
    s->p = at ? at : s->end;
}

static int line_at(const char *data, const char *at)
{
    int line = 1;
    for (const char *p = data; (p = memchr(p, '\n', (size_t)(at - p))) != NULL; p++)
        line++;
    return line;
}

static bool scan_starts(Scan *s, const char *lit)
{
    Scan t = *s;
    for (; *lit; lit++) {
        if (scan_peek(&t) != *lit)
            return false;
        scan_next(&t);
    }
    *s = t;
    return true;
}

static void scan_past(Scan *s, const char *lit)
{
    while (scan_to(s, *lit), scan_peek(s) && !scan_starts(s, lit))
        scan_next(s);
}

static bool scan_name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' ||
           (unsigned char)c >= 0x80;
}

/* From a tag's name to its end ('>', or a '<' that ends it early):
 * true if it has more than LOAD_MAX_ATTRIBUTES '=' outside quotes. A
 * plain loop: NUL bytes are none of the characters it looks for. */
static bool too_many_attributes(Scan *s)
{
    static const bool looked_at[256] = {['>'] = 1, ['<'] = 1, ['='] = 1, ['"'] = 1, ['\''] = 1};
    int equals = 0;
    const char *p = s->p;
    for (;;) {
        while (p < s->end && !looked_at[(unsigned char)*p])
            p++;
        if (p == s->end || *p == '>' || *p == '<')
            break;
        char c = *p++;
        if (c == '=' && ++equals > LOAD_MAX_ATTRIBUTES)
            return true;
        if (c == '"' || c == '\'') {
            const char *q = memchr(p, c, (size_t)(s->end - p));
            p = q ? q + 1 : s->end;
        }
    }
    s->p = p;
    return false;
}

/* Returns where the first tag with more than LOAD_MAX_ATTRIBUTES
 * attributes starts, or NULL. depth: literals inside declarations are
 * scanned once. */
static const char *scan_tags(Scan *s, int depth)
{
    while (scan_peek(s)) {
        if (scan_peek(s) != '<') {
            scan_to(s, '<');
            continue;
        }
        const char *start = s->p;
        char next = s->p + 1 < s->end ? s->p[1] : '\0';
        if (scan_name_start(next)) { /* most are tags: no need to try the literals */
            s->p++;
            if (too_many_attributes(s))
                return start;
        } else if (next == '/') { /* an end tag: no attributes */
            s->p++;
        } else if (scan_starts(s, "<!--")) {
            scan_past(s, "-->");
        } else if (scan_starts(s, "<![CDATA[")) {
            scan_past(s, "]]>");
        } else if (scan_starts(s, "<?")) {
            scan_past(s, "?>");
        } else if (scan_starts(s, "<!")) {
            for (char c; (c = scan_peek(s)) && c != '>';) {
                scan_next(s);
                if (c != '"' && c != '\'')
                    continue;
                Scan lit = *s;
                scan_to(s, c);
                lit.end = s->p;
                const char *bad = depth ? NULL : scan_tags(&lit, depth + 1);
                if (bad)
                    return bad;
                scan_next(s);
            }
        } else {
            scan_next(s);
            if (scan_name_start(scan_peek(s)) && too_many_attributes(s))
                return start;
        }
    }
    return NULL;
}

/* The text handed to libxml2 a piece at a time, as it reads a file:
 * xmlCtxtReadMemory would copy all of it first, and on this machine every
 * page first touched costs more time than the parse spends on it. */
typedef struct Feed {
    const char *p;
    size_t left;
} Feed;

static int feed_read(void *context, char *out, int len)
{
    Feed *f = context;
    size_t n = len < 0 ? 0 : (size_t)len < f->left ? (size_t)len : f->left;
    memcpy(out, f->p, n);
    f->p += n;
    f->left -= n;
    return (int)n;
}

int load_spec_memory(const char *name, const char *data, size_t len, xmlDocPtr *doc, Vec *deps)
{
    *doc = NULL;
    if (len > INT_MAX) {
        Loc loc = {name, 0};
        error_at(&loc, "too large to parse (%zu bytes)", len);
        return LOAD_INVALID;
    }
    memset(&cur, 0, sizeof cur);
    cur.spec = name;
    cur.deps = deps;
    if (deps)
        vec_push(deps, xstrdup(name));
    Scan scan = {data, data + len};
    const char *crowded = data ? scan_tags(&scan, 0) : NULL;
    if (crowded) {
        Loc loc = {name, line_at(data, crowded)};
        error_at(&loc, "a tag with more than %d attributes; a spec element may have at most %d",
                 LOAD_MAX_ATTRIBUTES, LOAD_MAX_ATTRIBUTES);
        return LOAD_INVALID;
    }
    cur.default_loader = xmlGetExternalEntityLoader();
    xmlSetExternalEntityLoader(guarded_loader);
    xmlSetStructuredErrorFunc(NULL, on_xml_error);

    int errors_before = diag_error_count();
    xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
    int rc = LOAD_INVALID;
    cur.main = ctxt;
    if (!ctxt || !ctxt->sax || !ctxt->sax->startElementNs) {
        error_at(NULL, "cannot create an XML parser");
        goto out;
    }
    cur.start_element = ctxt->sax->startElementNs;
    ctxt->sax->startElementNs = guarded_start_element;
    cur.entity_decl = ctxt->sax->entityDecl;
    if (cur.entity_decl)
        ctxt->sax->entityDecl = guarded_entity_decl;
    /* NOENT: entities are expanded by the parser, under its amplification
     * limits, so the tree holds plain text; external ones never get loaded. */
    int opts = XML_PARSE_DTDLOAD | XML_PARSE_DTDVALID | XML_PARSE_NOENT | XML_PARSE_NONET |
               XML_PARSE_BIG_LINES | XML_PARSE_COMPACT;
    Feed feed = {data ? data : "", len};
    *doc = xmlCtxtReadIO(ctxt, feed_read, NULL, &feed, name, NULL, opts);
    if (!*doc || !ctxt->wellFormed || !ctxt->valid || cur.refused ||
        diag_error_count() > errors_before) {
        if (diag_error_count() == errors_before) {
            Loc loc = {name, 0};
            error_at(&loc, "not a valid spec document");
        }
        if (*doc)
            xmlFreeDoc(*doc);
        *doc = NULL;
    } else {
        rc = LOAD_OK;
    }
out:
    if (ctxt)
        xmlFreeParserCtxt(ctxt);
    cur.main = NULL;
    strmap_free(&cur.entity_sizes);
    arena_free(cur.entity_names);
    xmlSetExternalEntityLoader(cur.default_loader);
    xmlSetStructuredErrorFunc(NULL, NULL);
    return rc;
}

int load_spec(const char *path, xmlDocPtr *doc, Vec *deps)
{
    *doc = NULL;
    Buf data;
    buf_init(&data);
    if (read_file(path, &data) != 0) {
        Loc loc = {path, 0};
        error_at(&loc, "cannot read: %s", read_file_error(errno));
        buf_free(&data);
        return LOAD_IO;
    }
    int rc = load_spec_memory(path, data.data, data.len, doc, deps);
    buf_free(&data);
    return rc;
}
