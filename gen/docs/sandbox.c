#define _DEFAULT_SOURCE /* realpath */
#include "docs/sandbox.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/parserInternals.h>
#include <libxml/uri.h>
#include <libxslt/xsltInternals.h>

static struct {
    char *root;        /* the templates directory's real path, or NULL */
    const char *given; /* ... as given, for messages */
    Vec own;           /* real paths of the files the spec's reading read */
    Vec *deps;
    SandboxRefused refused;
    xmlExternalEntityLoader previous;
    xsltSecurityPrefsPtr prefs;
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

/* NULL when url may be read, else why not. *path is the file it names
 * (malloc'd), when it names one. libxml2 opens a name with %XX escapes
 * either decoded or as written, so both must be allowed. */
static const char *judge(const char *url, char **path)
{
    *path = NULL;
    xmlURIPtr u = xmlParseURI(url);
    if (u && u->scheme && strcasecmp(u->scheme, "file") != 0) {
        xmlFreeURI(u);
        return "nothing is read over the network";
    }
    if (u && u->scheme) {
        if (u->server && *u->server && strcmp(u->server, "localhost") != 0) {
            xmlFreeURI(u);
            return "nothing is read over the network";
        }
        *path = xstrdup(u->path ? u->path : "");
    } else {
        *path = xstrdup(url);
    }
    xmlFreeURI(u);
    char *decoded = xmlURIUnescapeString(*path, 0, NULL);
    bool ok =
        allowed_path(*path) && (!decoded || strcmp(decoded, *path) == 0 || allowed_path(decoded));
    free(decoded);
    return ok ? NULL : "it is neither below the templates directory nor one of the spec's files";
}

static void refuse(const char *file, int line, const char *url, const char *why)
{
    Buf m;
    buf_init(&m);
    buf_printf(&m, "the templates may not read '%s': %s", url, why);
    if (strcmp(why, "nothing is read over the network") != 0)
        buf_printf(&m, " (templates: %s)", sb.given);
    sb.refused(file, line, m.data);
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
    if (!url) {
        refuse(file, line, id ? id : "", "a public identifier names no file of the templates");
        return NULL;
    }
    char *path;
    const char *why = judge(url, &path);
    if (why) {
        refuse(file, line, url, why);
        free(path);
        return NULL;
    }
    record(path);
    free(path);
    return xmlNewInputFromFile(ctxt, url);
}

/* libxslt's read check (document() at run time), before anything opens. */
static int check_read(xsltSecurityPrefsPtr sec, xsltTransformContextPtr ctxt, const char *value)
{
    (void)sec;
    char *path;
    const char *why = judge(value, &path);
    free(path);
    if (!why)
        return 1;
    xmlNodePtr inst = ctxt ? ctxt->inst : NULL;
    if (inst && inst->doc && inst->doc->URL)
        refuse((const char *)inst->doc->URL, (int)xmlGetLineNo(inst), value, why);
    else
        refuse(NULL, 0, value, why);
    return 0;
}

void sandbox_open(const char *templates, Vec *deps, SandboxRefused refused)
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
    sb.previous = xmlGetExternalEntityLoader();
    xmlSetExternalEntityLoader(loader);
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
    xsltFreeSecurityPrefs(sb.prefs);
    free(sb.root);
    for (size_t i = 0; i < sb.own.n; i++)
        free(sb.own.items[i]);
    vec_free(&sb.own);
    memset(&sb, 0, sizeof sb);
}
