/* libFuzzer target: the documentation. A buffer is loaded, built and
 * checked as by `jvmtigen generate`; a spec without errors is rendered with
 * the project's templates (templates/, libxslt, the jg: extension functions
 * of gen/docs/) in this process (JVMTIGEN_JOBS=1: no helper is forked).
 * It is here for what the other targets do not reach: gen/docs/'s C code, and
 * whether spec text can get out of its place on a page.
 *
 * Checked, for every spec without errors:
 * - the templates render it without an error: a valid spec is documented;
 * - jvmti.html, read by libxml2's HTML parser, links nowhere but into itself
 *   and to http, https and mailto URLs (a spec's javascript: URL must not
 *   become an href), has no event-handler attribute and one script element;
 * - every man page is a plain file name; each of its lines that roff would
 *   take as a request starts with a macro the templates write, and every
 *   escape is one they write: spec text cannot inject a request (.so, .sy)
 *   or an escape (\X, \*) into a page. */
#include <limits.h>
#include <strings.h>

#include <libxml/HTMLparser.h>

#include "docs/docs.h"
#include "fuzz_common.h"

#ifndef FUZZ_TEMPLATES
#error "FUZZ_TEMPLATES: the templates directory (the Makefile sets it)"
#endif

static void fail(const char *what, const char *file, const char *at)
{
    fprintf(stderr, "fuzz: %s: %s: \"%.60s\"\n", file, what, at);
    abort();
}

/* An href or src of the page: "#...", or an http(s)/mailto URL. */
static int allowed_url(const char *u)
{
    return u[0] == '#' || strncasecmp(u, "https://", 8) == 0 || strncasecmp(u, "http://", 7) == 0 ||
           strncasecmp(u, "mailto:", 7) == 0;
}

/* Walks the page as libxml2's HTML parser reads it (as a browser would):
 * links only to allowed URLs, no event-handler attribute, and as many
 * script elements as the templates write (one). */
static void walk_html(const DocFile *f, xmlNodePtr n, int *scripts)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (strcasecmp((const char *)n->name, "script") == 0)
            ++*scripts;
        for (xmlAttrPtr a = n->properties; a; a = a->next) {
            const char *name = (const char *)a->name;
            if (strncasecmp(name, "on", 2) == 0)
                fail("an event-handler attribute", f->name, name);
            if (strcasecmp(name, "href") == 0 || strcasecmp(name, "src") == 0) {
                xmlChar *v = xmlNodeListGetString(n->doc, a->children, 1);
                if (v && !allowed_url((const char *)v))
                    fail("a link to somewhere else", f->name, (const char *)v);
                xmlFree(v);
            }
        }
        walk_html(f, n->children, scripts);
    }
}

static void check_html(const DocFile *f)
{
    if (f->data.len == 0 || f->data.len > INT_MAX)
        fail("empty or huge page", f->name, "");
    htmlDocPtr h = htmlReadMemory(f->data.data, (int)f->data.len, f->name, "UTF-8",
                                  HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
    if (!h)
        fail("the page does not parse as HTML", f->name, "");
    int scripts = 0;
    walk_html(f, xmlDocGetRootElement(h), &scripts);
    xmlFreeDoc(h);
    if (scripts != 1)
        fail("not one script element", f->name, "");
}

static int letter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int known_macro(const char *p, size_t n)
{
    static const char *const macros[] = {"TH", "SH", "SS", "PP", "TP", "IP", "B", "I", "BR",
                                         "IR", "RS", "RE", "nf", "fi", "br", "nh", "ad",
                                         "\\\""};
    for (size_t i = 0; i < sizeof macros / sizeof *macros; i++)
        if (strlen(macros[i]) == n && memcmp(macros[i], p, n) == 0)
            return 1;
    return 0;
}

static void check_man(const DocFile *f)
{
    const char *name = f->name + strlen(DOCS_MAN_DIR "/");
    if (strncmp(f->name, DOCS_MAN_DIR "/", strlen(DOCS_MAN_DIR "/")) != 0 || !*name ||
        strchr(name, '/') || name[0] == '.')
        fail("not a plain page name", f->name, f->name);
    const char *s = f->data.data, *end = s + f->data.len;
    for (const char *line = s; line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        const char *eol = nl ? nl : end;
        if (*line == '.' || *line == '\'') {
            const char *m = line + 1, *e = m;
            while (e < eol && *e != ' ')
                e++;
            if (!known_macro(m, (size_t)(e - m)))
                fail("a request the templates do not write", f->name, line);
        }
        for (const char *p = line; p < eol; p++) {
            if (*p != '\\')
                continue;
            char c = p + 1 < eol ? p[1] : '\0';
            if (c == 'f' && p + 2 < eol && strchr("BIRP", p[2])) {
                p += 2;
            } else if (c == '(' && p + 3 < eol && letter(p[2]) && letter(p[3])) {
                p += 3;
            } else if (c == '&' || c == '-' || c == 'e' || c == ' ') {
                p += 1;
            } else if (c == '"' && p == line + 1 && *line == '.') {
                break; /* a comment line: the templates' own */
            } else {
                fail("an escape the templates do not write", f->name, p);
            }
        }
        line = nl ? nl + 1 : end;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int once;
    if (!once++)
        setenv("JVMTIGEN_JOBS", "1", 1); /* no helper process: a fork per input */
    Vec deps = {0};
    xmlDocPtr doc = NULL;
    Spec *spec = NULL;
    int errors = fuzz_load(data, size, &doc, &spec, &deps);
    if (errors == 0) {
        GenContext ctx = fuzz_context(spec);
        DocsResult res;
        int rc = docs_render(&ctx, doc, FUZZ_TEMPLATES, 0, &res, NULL, NULL, NULL);
        xmlSetGenericErrorFunc(NULL, fuzz_silent);
        if (rc != 0 || res.helper || diag_error_count() != 0) {
            fprintf(stderr, "fuzz: the templates failed on a spec without errors (%d)\n", rc);
            abort();
        }
        for (size_t i = 0; i < res.n; i++) {
            if (strcmp(res.files[i].name, "jvmti.html") == 0)
                check_html(&res.files[i]);
            else
                check_man(&res.files[i]);
        }
        docs_result_free(&res);
    }
    fuzz_end(doc, spec, &deps, errors);
    return 0;
}
