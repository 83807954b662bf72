#define _DEFAULT_SOURCE /* realpath */
#include "docs/sandbox.h"

#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/parserInternals.h>
#include <libxml/uri.h>
#include <libxslt/documents.h>
#include <libxslt/xsltInternals.h>

/* A file the templates read (a stylesheet, an included one, document()'s,
 * a DTD or entity) is at most this large; the spec's own files may be as
 * large as the spec reader allows. */
#define TEMPLATE_MAX_BYTES ((long long)16 << 20)
#define TEMPLATE_MAX_TEXT "16 MiB"
/* How deep stylesheets may include and import one another. */
#define TEMPLATE_MAX_NESTING 64
#define TEMPLATE_MAX_NESTING_TEXT "64"

static struct {
    char *root;        /* the templates directory's real path, or NULL */
    const char *given; /* ... as given, for messages */
    Vec own;           /* real paths of the files the spec's reading read */
    Vec *deps;
    SandboxRefused refused;
    xmlExternalEntityLoader previous;
    xsltDocLoaderFunc doc_loader;
    const char *at_file; /* where the document() check_read allowed is */
    int at_line;
    xsltSecurityPrefsPtr prefs;
    xmlDictPtr dict; /* the stylesheets' dictionary, or NULL */
} sb;

/* The real path of path; for a file that is not there, its directory's
 * real path and its name (a missing file is then reported as missing, not
 * as forbidden). NULL when neither resolves. */
static char *resolve(const char *path)
{
    char real[PATH_MAX];
    if (realpath(path, real))
        return xstrdup(real);
    if (errno != ENOENT)
        return NULL;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t n = slash ? (size_t)(slash - path) : 0;
    char dir[PATH_MAX];
    if (n >= sizeof dir || !*base || strcmp(base, "..") == 0 || strcmp(base, ".") == 0)
        return NULL;
    if (slash && n == 0)
        n = 1; /* "/name" */
    memcpy(dir, slash ? path : ".", slash ? n : 1);
    dir[slash ? n : 1] = '\0';
    if (!realpath(dir, real))
        return NULL;
    Buf b;
    buf_init(&b);
    buf_printf(&b, "%s%s%s", real, strcmp(real, "/") == 0 ? "" : "/", base);
    return b.data;
}

static bool allowed_path(const char *path)
{
    char *real = resolve(path);
    if (!real)
        return false;
    bool yes = false;
    if (sb.root) {
        size_t n = strlen(sb.root);
        yes = strcmp(sb.root, "/") == 0 ||
              (strncmp(real, sb.root, n) == 0 && (real[n] == '/' || real[n] == '\0'));
    }
    for (size_t i = 0; i < sb.own.n && !yes; i++)
        yes = strcmp(real, sb.own.items[i]) == 0;
    free(real);
    return yes;
}

/* The one file the loader opens for url (malloc'd), or NULL with *why.
 * What is judged is what is read: the loader opens this path itself, never
 * the URL through libxml2, which would open a file: URL's query as part of
 * the name and try a name both as written and with %XX decoded. */
static char *file_of(const char *url, const char **why)
{
    xmlURIPtr u = xmlParseURI(url);
    if (u && u->scheme) {
        char *path = NULL;
        if (strcasecmp(u->scheme, "file") != 0 ||
            (u->server && *u->server && strcmp(u->server, "localhost") != 0))
            *why = "nothing is read over the network";
        else if (u->query || u->query_raw || u->fragment)
            *why = "a file: URL with a query or a fragment names no file";
        else if (!u->path || !*u->path)
            *why = "the file: URL names no file";
        else
            path = xstrdup(u->path); /* xmlParseURI decoded its %XX */
        xmlFreeURI(u);
        return path;
    }
    xmlFreeURI(u);
    /* A plain name: libxslt built it by joining and escaping, so the name
     * as written when there is such a file, else with %XX decoded. */
    struct stat st;
    char *decoded =
        strchr(url, '%') && stat(url, &st) != 0 ? (char *)xmlURIUnescapeString(url, 0, NULL) : NULL;
    char *path = xstrdup(decoded ? decoded : url);
    xmlFree(decoded);
    return path;
}

const char *sandbox_judge(const char *url, char **path)
{
    const char *why = NULL;
    *path = file_of(url, &why);
    if (!*path)
        return why;
    if (!allowed_path(*path))
        return "it is neither below the templates directory nor one of the spec's files";
    return NULL;
}

static void refuse(const char *file, int line, const char *url, const char *why)
{
    Buf m;
    buf_init(&m);
    buf_printf(&m, "the templates may not read '%s': %s", url, why);
    if (strcmp(why, "nothing is read over the network") != 0)
        buf_printf(&m, " (templates: %s)", sb.given);
    sb.refused(file, line, false, m.data);
    buf_free(&m);
}

static void record(const char *path)
{
    if (!sb.deps)
        return;
    for (size_t i = 0; i < sb.deps->n; i++)
        if (strcmp(sb.deps->items[i], path) == 0)
            return;
    vec_push(sb.deps, xstrdup(path));
}

/* The file the loader decided on, read by jvmtigen (a regular file only,
 * never unpacked, at most TEMPLATE_MAX_BYTES unless it is one of the spec's
 * own files) and given to the parser from memory; NULL after a message. */
static xmlParserInputPtr read_input(xmlParserCtxtPtr ctxt, const char *url, const char *path,
                                    const char *file, int line)
{
    Buf data;
    buf_init(&data);
    long long max = TEMPLATE_MAX_BYTES;
    char *real = resolve(path);
    for (size_t i = 0; real && i < sb.own.n; i++)
        if (strcmp(real, sb.own.items[i]) == 0)
            max = READ_MAX_BYTES;
    free(real);
    xmlParserInputPtr in = NULL;
    if (read_file_max(path, &data, max) != 0) {
        int err = errno;
        Buf m;
        buf_init(&m);
        buf_printf(&m, "cannot read '%s': %s", url,
                   err == READ_TOO_BIG ? "larger than " TEMPLATE_MAX_TEXT : read_file_error(err));
        sb.refused(file, line, err == ENOENT, m.data);
        buf_free(&m);
        goto out;
    }
    xmlParserInputBufferPtr ib =
        xmlParserInputBufferCreateMem(data.data, (int)data.len, XML_CHAR_ENCODING_NONE);
    in = ib ? xmlNewIOInputStream(ctxt, ib, XML_CHAR_ENCODING_NONE) : NULL;
    if (!in) {
        if (ib)
            xmlFreeParserInputBuffer(ib);
        die_out_of_memory();
    }
    /* The name relative references in the file are resolved against. */
    in->filename = (char *)xmlStrdup((const xmlChar *)url);
    record(path);
out:
    buf_free(&data);
    return in;
}

/* Every document libxml2 or libxslt opens comes here: the stylesheets,
 * what they include, document()'s files, DTDs and external entities. The
 * file is opened directly, without the catalogs (which would read
 * /etc/xml). */
static xmlParserInputPtr loader(const char *url, const char *id, xmlParserCtxtPtr ctxt)
{
    (void)id;
    const char *file = NULL;
    int line = 0;
    if (ctxt && ctxt->input && ctxt->input->filename) {
        file = ctxt->input->filename;
        line = ctxt->input->line;
    }
    if (!file && sb.at_file) { /* document(): where check_read saw it */
        file = sb.at_file;
        line = sb.at_line;
    }
    sb.at_file = NULL;
    if (!url) {
        refuse(file, line, id ? id : "", "a public identifier names no file of the templates");
        return NULL;
    }
    char *path;
    const char *why = sandbox_judge(url, &path);
    if (why) {
        refuse(file, line, url, why);
        free(path);
        return NULL;
    }
    xmlParserInputPtr in = read_input(ctxt, url, path, file, line);
    free(path);
    return in;
}

/* The real path of the file the loader would open for url, or NULL. */
static char *real_file_of(const char *url)
{
    const char *why;
    char *path = file_of(url, &why);
    char *real = path ? resolve(path) : NULL;
    free(path);
    return real;
}

/* Whether doc was read from the file real. */
static bool doc_is(xmlDocPtr doc, const char *real)
{
    char *r = doc && doc->URL ? real_file_of((const char *)doc->URL) : NULL;
    bool same = r && strcmp(r, real) == 0;
    free(r);
    return same;
}

/* Whether a stylesheet being read, inside style (an ancestor by xsl:import,
 * or an include still open), is the file real; *depth counts them. */
static bool in_nesting(xsltStylesheetPtr style, const char *real, int *depth)
{
    for (xsltStylesheetPtr s = style; s; s = s->parent) {
        for (xsltDocumentPtr d = s->includes; d; d = d->includes, ++*depth)
            if (doc_is(d->doc, real))
                return true;
        if (doc_is(s->doc, real))
            return true;
        ++*depth;
    }
    return false;
}

/* libxslt's loader of documents, in front of its own: an xsl:include or
 * xsl:import of a stylesheet already being read is refused. libxslt checks
 * includes and imports apart, and by URL, so a cycle through both (or
 * through another name of the file) recursed until the stack overflowed.
 * A stylesheet is read into sb.dict (its imports and includes follow it). */
static xmlDocPtr doc_loader(const xmlChar *uri, xmlDictPtr dict, int options, void *ctxt,
                            xsltLoadType type)
{
    if (type == XSLT_LOAD_STYLESHEET && ctxt && uri) {
        char *real = real_file_of((const char *)uri);
        int depth = 0;
        const char *why = NULL;
        if (real && in_nesting(ctxt, real, &depth))
            why = "xsl:include and xsl:import go round in a circle back to it";
        else if (depth >= TEMPLATE_MAX_NESTING)
            why = "xsl:include and xsl:import nest deeper than " TEMPLATE_MAX_NESTING_TEXT;
        free(real);
        if (why) {
            refuse(NULL, 0, (const char *)uri, why);
            return NULL;
        }
    }
    if (type == XSLT_LOAD_START && !dict)
        dict = sb.dict;
    return sb.doc_loader(uri, dict, options, ctxt, type);
}

/* libxslt's read check (document() at run time), before anything opens.
 * libxslt gives it a file: URL's path only (no query), so the loader, which
 * sees the whole URL, judges again; it reports at the place noted here. */
static int check_read(xsltSecurityPrefsPtr sec, xsltTransformContextPtr ctxt, const char *value)
{
    (void)sec;
    char *path;
    const char *why = sandbox_judge(value, &path);
    free(path);
    xmlNodePtr inst = ctxt ? ctxt->inst : NULL;
    const char *file = inst && inst->doc && inst->doc->URL ? (const char *)inst->doc->URL : NULL;
    int line = file ? (int)xmlGetLineNo(inst) : 0;
    if (!why) {
        sb.at_file = file;
        sb.at_line = line;
        return 1;
    }
    refuse(file, line, value, why);
    return 0;
}

void sandbox_open(const char *templates, Vec *deps, SandboxRefused refused, xmlDictPtr dict)
{
    memset(&sb, 0, sizeof sb);
    char real[PATH_MAX];
    sb.root = realpath(templates, real) ? xstrdup(real) : NULL;
    sb.given = templates;
    for (size_t i = 0; deps && i < deps->n; i++) {
        char *r = resolve(deps->items[i]);
        if (r)
            vec_push(&sb.own, r);
    }
    sb.deps = deps;
    sb.refused = refused;
    sb.dict = dict;
    sb.previous = xmlGetExternalEntityLoader();
    xmlSetExternalEntityLoader(loader);
    sb.doc_loader = xsltDocDefaultLoader;
    xsltSetLoaderFunc(doc_loader);
    sb.prefs = xsltNewSecurityPrefs();
    if (!sb.prefs)
        die_out_of_memory();
    xsltSetSecurityPrefs(sb.prefs, XSLT_SECPREF_READ_FILE, check_read);
    xsltSetSecurityPrefs(sb.prefs, XSLT_SECPREF_READ_NETWORK, check_read);
    xsltSetSecurityPrefs(sb.prefs, XSLT_SECPREF_WRITE_FILE, xsltSecurityForbid);
    xsltSetSecurityPrefs(sb.prefs, XSLT_SECPREF_WRITE_NETWORK, xsltSecurityForbid);
    xsltSetSecurityPrefs(sb.prefs, XSLT_SECPREF_CREATE_DIRECTORY, xsltSecurityForbid);
}

xsltSecurityPrefsPtr sandbox_prefs(void) { return sb.prefs; }

void sandbox_close(void)
{
    xmlSetExternalEntityLoader(sb.previous);
    xsltSetLoaderFunc(sb.doc_loader);
    xsltFreeSecurityPrefs(sb.prefs);
    free(sb.root);
    for (size_t i = 0; i < sb.own.n; i++)
        free(sb.own.items[i]);
    vec_free(&sb.own);
    memset(&sb, 0, sizeof sb);
}
