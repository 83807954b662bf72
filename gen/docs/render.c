/* Rendering: each stylesheet compiled once and applied to the spec's
 * tree, jvmti.html in a helper process (helper.c) while the man pages and
 * the caller's C outputs are made here. */
#include "docs/state.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxslt/security.h>
#include <libxslt/transform.h>
#include <libxslt/variables.h>
#include <libxslt/xsltInternals.h>
#include <libxslt/xsltutils.h>

#include "docs/sandbox.h"
#include "base/keep.h"
#include "base/phases.h"
#include "base/status.h"

static void quote_param(Vec *kv, const char *name, const char *value)
{
    vec_push(kv, (void *)name);
    vec_push(kv, (void *)value);
}

/* Compiles TEMPLATES/name. NULL on failure, with diagnostics queued and
 * *rc set. */
static xsltStylesheetPtr compile(DocsState *st, const char *templates, const char *name,
                                 const char **file_out, int *rc)
{
    Buf path;
    buf_init(&path);
    buf_printf(&path, "%s/%s", templates, name);
    const char *file = keep_name(st, path.data);
    *file_out = file;
    buf_free(&path);
    /* A FIFO would block the open (and the parse) until --time-limit. */
    struct stat sst;
    int probe = open_regular(file, &sst);
    if (probe < 0) {
        Loc l = {file, 0};
        error_at(&l, "cannot read template: %s", read_file_error(errno));
        *rc = EXIT_IO;
        return NULL;
    }
    close(probe);
    int before = errors_so_far(st);
    xsltStylesheetPtr style = xsltParseStylesheetFile(BAD_CAST file);
    flush_messages(st, file);
    if (!style || style->errors || errors_so_far(st) > before) {
        if (errors_so_far(st) == before) {
            Loc l = {file, 0};
            error_at(&l, "not a usable XSLT stylesheet");
        }
        if (style)
            xsltFreeStylesheet(style);
        *rc = EXIT_INVALID;
        return NULL;
    }
    return style;
}

/* Applies style to doc; the result document, or NULL with *rc set. */
static xmlDocPtr apply(DocsState *st, xsltStylesheetPtr style, xmlDocPtr doc, const char *file,
                       const char **params, int *rc)
{
    xsltTransformContextPtr t = xsltNewTransformContext(style, doc);
    if (!t) {
        error_at(NULL, "cannot create an XSLT transformation");
        *rc = EXIT_INVALID;
        return NULL;
    }
    t->_private = st;
    /* The transformation's names and strings go into the stylesheet's
     * dictionary, the spec's (docs_render), in place of a dictionary of
     * its own over it: each name is then one pointer everywhere, found at
     * the first look (a sub-dictionary looks in both) and compared by
     * pointer (xmlStrEqual's first test). Nothing is in its own yet. */
    if (t->dict != style->dict && xmlDictSize(t->dict) == xmlDictSize(style->dict) &&
        xmlDictReference(style->dict) == 0) {
        xmlDictFree(t->dict);
        t->dict = style->dict;
    }
    /* document() reads only what the sandbox allows; nothing is written
     * (exsl:document), no directory made. */
    xsltSetCtxtSecurityPrefs(sandbox_prefs(), t);
    register_functions(t);
    register_roff_functions(t);
    register_man_functions(t);
    xsltQuoteUserParams(t, params);
    /* JVMTIGEN_XSLT_PROFILE=1: libxslt's per-template profile on stderr,
     * for template authors. */
    const char *prof = getenv("JVMTIGEN_XSLT_PROFILE");
    FILE *profile = prof && *prof && strcmp(prof, "0") != 0 ? stderr : NULL;
    int before = errors_so_far(st);
    xmlDocPtr res = xsltApplyStylesheetUser(style, doc, NULL, NULL, profile, t);
    flush_messages(st, file);
    if (!res || t->state == XSLT_STATE_ERROR || t->state == XSLT_STATE_STOPPED ||
        errors_so_far(st) > before) {
        if (errors_so_far(st) == before) {
            Loc l = {file, 0};
            error_at(&l, "the transformation failed");
        }
        if (res)
            xmlFreeDoc(res);
        res = NULL;
        *rc = EXIT_INVALID;
    }
    xsltFreeTransformContext(t);
    return res;
}

DocFile *add_file(DocsResult *res, const char *name)
{
    DocFile *f = xrealloc(res->files, (res->n + 1) * sizeof *f);
    res->files = f;
    f = &res->files[res->n++];
    f->name = xstrdup(name);
    buf_init(&f->data);
    return f;
}

/* make bench counts the instructions of render_html and render_man apart
 * (callgrind's inclusive cost by function name), so neither is inlined. */
#if defined(__GNUC__)
#define BENCH_VISIBLE __attribute__((noinline))
#else
#define BENCH_VISIBLE
#endif

/* Renders and serializes jvmti.html into page. The result tree is
 * returned for the caller to free (the helper frees it after the page is
 * on its way). */
BENCH_VISIBLE static xmlDocPtr render_html(DocsState *st, xsltStylesheetPtr html, xmlDocPtr doc,
                                           const char *file, const char **params, DocFile *page,
                                           int *rc)
{
    xmlDocPtr r = apply(st, html, doc, file, params, rc);
    if (r)
        save_html(r, html, &page->data);
    return r;
}

/* Renders the man pages into res, after the page. */
BENCH_VISIBLE static void render_man(DocsState *st, xsltStylesheetPtr man, xmlDocPtr doc,
                                     const char *file, const char **params, DocsResult *res,
                                     int *rc)
{
    xmlDocPtr r = apply(st, man, doc, file, params, rc);
    if (r) {
        if (split_pages(r, file, res) != 0)
            *rc = EXIT_INVALID;
        keep_doc_until_exit(r);
    }
}

int docs_render(const GenContext *ctx, xmlDocPtr doc, const char *templates, unsigned seconds,
                DocsResult *res, Vec *deps, void (*meanwhile)(void *), void *arg)
{
    memset(res, 0, sizeof *res);
    DocsState st;
    state_init(&st, ctx, deps);
    crossref_build(&st.index, doc); /* before the helper: one index serves both */
    messages_start(&st);
    struct sigaction old_alarm;
    if (seconds)
        start_time_limit(templates, seconds, &old_alarm);
    /* The stylesheets are read into the spec's dictionary (their names,
     * the spec's and the results' one set of pointers: JDK 25's outputs
     * 494.5M -> 489.2M instructions), without the limit a parser gives it:
     * the transformations' own had none. */
    if (doc->dict)
        xmlDictSetLimit(doc->dict, 0);
    sandbox_open(templates, deps, on_refused, doc->dict);
    start_memory_limit(templates);

    char version[48], major[16];
    snprintf(version, sizeof version, "%d.%d.%d", ctx->version.major, ctx->version.minor,
             ctx->version.micro);
    snprintf(major, sizeof major, "%d", ctx->version.major);
    Vec kv = {0};
    Buf spec_name; /* a file name: any bytes, but the page is UTF-8 */
    buf_init(&spec_name);
    buf_put_utf8(&spec_name, ctx->spec_name ? ctx->spec_name : "");
    quote_param(&kv, "version", version);
    quote_param(&kv, "version-major", major);
    quote_param(&kv, "spec-name", spec_name.data ? spec_name.data : "");
    quote_param(&kv, "generator", "jvmtigen");
    vec_push(&kv, NULL);

    int rc = 0;
    const char *html_file, *man_file;
    phase_begin();
    register_roff_elements();
    xsltStylesheetPtr html = compile(&st, templates, "html.xsl", &html_file, &rc);
    xsltStylesheetPtr man = compile(&st, templates, "man.xsl", &man_file, &rc);
    XsltNsShare ns_share = {0};
    if (html && man) {
        xslt_ns_share(&ns_share, html);
        xslt_ns_share(&ns_share, man);
    }
    phase_end("templates");
    if (html && man) {
        /* The page comes first in res; man pages are added after it (and
         * move res->files, so it is found by its index). */
        size_t page = res->n;
        add_file(res, "jvmti.html");
        int fd = -1;
        size_t read_before = deps ? deps->n : 0;
        pid_t pid = start_helper(&fd);
        if (pid > 0)
            time_limit_helper(pid);
        if (pid == 0) {
            /* The helper: jvmti.html to the parent, then back to the caller,
             * which frees everything and exits with rc. */
            res->helper = true;
            if (seconds) /* a child has no alarm of its parent's */
                time_limit_in_helper(seconds + 1);
            xmlDocPtr r = render_html(&st, html, doc, html_file, (const char **)kv.items,
                                      &res->files[page], &rc);
            if (send_page(fd, rc, &res->files[page].data, deps, read_before) != 0 && rc == 0)
                rc = EXIT_IO;
            close(fd); /* the parent goes on; freeing is this process's own time */
            if (r)
                xmlFreeDoc(r);
        } else {
            if (meanwhile)
                meanwhile(arg);
            if (pid < 0) {
                phase_begin();
                xmlDocPtr h = render_html(&st, html, doc, html_file, (const char **)kv.items,
                                          &res->files[page], &rc);
                keep_doc_until_exit(h);
                phase_end("html");
            }
            phase_begin();
            render_man(&st, man, doc, man_file, (const char **)kv.items, res, &rc);
            phase_end("man");
            if (pid > 0)
                collect_helper(pid, fd, res, &res->files[page].data, deps, &rc);
        }
    }
    xslt_ns_unshare(&ns_share); /* before the trees are freed */
    if (html)
        xsltFreeStylesheet(html);
    if (man)
        xsltFreeStylesheet(man);
    vec_free(&kv);
    buf_free(&spec_name);
    if (seconds)
        stop_time_limit(&old_alarm);
    stop_memory_limit();
    sandbox_close();
    messages_stop();
    diag_flush(); /* before the file names it points at are freed */
    state_free(&st);
    if (rc != 0)
        docs_result_free(res);
    return rc;
}

void docs_result_free(DocsResult *res)
{
    if (res->helper_pid > 0) /* not to leave a zombie; its status is docs_wait's */
        wait_for(res->helper_pid);
    res->helper_pid = 0;
    for (size_t i = 0; i < res->n; i++) {
        free(res->files[i].name);
        buf_free(&res->files[i].data);
    }
    free(res->files);
    res->files = NULL;
    res->n = 0;
}
