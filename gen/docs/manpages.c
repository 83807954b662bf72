/* The man pages: the man stylesheet's <pages> split into files (with
 * roff's layout tidied), and the pages of earlier runs whose function or
 * event is gone (docs_stale, docs_prune). */
#include "docs/state.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/status.h"

/* A man page name is a plain file name. */
static bool good_page_name(const char *s)
{
    if (!*s || *s == '.')
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '.' || *s == '-'))
            return false;
    return true;
}

/* Layout hygiene of the roff a template wrote (the escaping is the
 * template's): outside .nf/.fi, blanks at the start and end of a line and
 * blank lines go (roff would take them as breaks), and so does a .PP right
 * after a macro that starts a paragraph anyway. */
static void roff_tidy(Buf *out, const char *text)
{
    bool verbatim = false;
    const char *prev = "";
    size_t prev_len = 0;
    /* What is written is at most the text and a newline: room made once,
     * then each line copied without a test (17,551 lines on JDK 25). */
    buf_grow(out, strlen(text) + 1);
    char *o = out->data + out->len;
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        const char *s = p;
        size_t len = n;
        if (!verbatim) {
            while (len && (*s == ' ' || *s == '\t'))
                s++, len--;
            while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
                len--;
        }
        bool para = len == 3 && strncmp(s, ".PP", 3) == 0;
        bool after_block = prev_len >= 3 && prev[0] == '.' &&
                           (strncmp(prev, ".PP", 3) == 0 || strncmp(prev, ".SH", 3) == 0 ||
                            strncmp(prev, ".SS", 3) == 0 || strncmp(prev, ".TP", 3) == 0 ||
                            strncmp(prev, ".IP", 3) == 0);
        if ((len > 0 || verbatim) && !(para && after_block)) {
            memcpy(o, s, len);
            o += len;
            *o++ = '\n';
            prev = s;
            prev_len = len;
        }
        if (len == 3 && strncmp(s, ".nf", 3) == 0)
            verbatim = true;
        else if (len == 3 && strncmp(s, ".fi", 3) == 0)
            verbatim = false;
        p += n + (e ? 1 : 0);
    }
    out->len = (size_t)(o - out->data);
    out->data[out->len] = '\0';
}

int split_pages(xmlDocPtr pages, const char *file, DocsResult *res)
{
    Loc l = {file, 0};
    xmlNodePtr root = xmlDocGetRootElement(pages);
    if (!root || strcmp((const char *)root->name, "pages") != 0) {
        error_at(&l, "the man page stylesheet must produce <pages><page name=\"NAME.3\">...");
        return EXIT_INVALID;
    }
    StrMap seen;
    strmap_init(&seen);
    int rc = 0;
    for (xmlNodePtr n = root->children; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        xmlChar *name = xmlGetProp(n, BAD_CAST "name");
        if (strcmp((const char *)n->name, "page") != 0 || !name ||
            !good_page_name((const char *)name)) {
            error_at(&l,
                     "man page output: <%s name=\"%s\"> is not <page name=\"FILE\"> with "
                     "a plain file name",
                     (const char *)n->name, name ? (const char *)name : "");
            rc = EXIT_INVALID;
        } else {
            Buf path;
            buf_init(&path);
            buf_printf(&path, DOCS_MAN_DIR "/%s", (const char *)name);
            DocFile *f = add_file(res, path.data);
            buf_free(&path);
            if (strmap_put(&seen, f->name, f)) {
                error_at(&l, "man page output: two pages named '%s'", (const char *)name);
                rc = EXIT_INVALID;
            }
            /* A page is one text node when its text was appended to the
             * last (xsl:value-of, <jg:roff/>): read in place, not copied. */
            xmlNodePtr c = n->children;
            if (c && !c->next && c->type == XML_TEXT_NODE) {
                roff_tidy(&f->data, c->content ? (const char *)c->content : "");
            } else {
                xmlChar *text = xmlNodeGetContent(n);
                roff_tidy(&f->data, text ? (const char *)text : "");
                xmlFree(text);
            }
        }
        xmlFree(name);
    }
    strmap_free(&seen);
    return rc;
}

static bool ours(const char *path)
{
    /* Only a regular file can be ours (a FIFO would block the read). */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return false;
    FILE *f = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? fdopen(fd, "rb") : NULL;
    if (!f) {
        close(fd);
        return false;
    }
    char line[64] = "";
    bool yes =
        fgets(line, sizeof line, f) && strncmp(line, DOCS_MAN_MARKER, strlen(DOCS_MAN_MARKER)) == 0;
    fclose(f);
    return yes;
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void docs_stale(const char *outdir, const DocsResult *res, Vec *paths)
{
    Buf dir;
    buf_init(&dir);
    buf_printf(&dir, "%s/" DOCS_MAN_DIR, outdir);
    DIR *d = opendir(dir.data);
    if (!d) {
        buf_free(&dir);
        return;
    }
    StrMap keep;
    strmap_init(&keep);
    for (size_t i = 0; i < res->n; i++) {
        const char *slash = strrchr(res->files[i].name, '/');
        strmap_put(&keep, slash ? slash + 1 : res->files[i].name, (void *)1);
    }
    size_t first = paths->n;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (e->d_name[0] == '.' || n < 3 || strcmp(e->d_name + n - 2, ".3") != 0 ||
            strmap_get(&keep, e->d_name))
            continue;
        Buf p;
        buf_init(&p);
        buf_printf(&p, "%s/%s", dir.data, e->d_name);
        if (ours(p.data))
            vec_push(paths, p.data);
        else
            buf_free(&p);
    }
    closedir(d);
    /* readdir's order is the file system's: sort, for stable output. */
    if (paths->n - first > 1)
        qsort(paths->items + first, paths->n - first, sizeof *paths->items, str_cmp);
    strmap_free(&keep);
    buf_free(&dir);
}

int docs_prune(const char *outdir, const DocsResult *res, int verbose)
{
    Vec doomed = {0};
    int rc = 0;
    docs_stale(outdir, res, &doomed);
    for (size_t i = 0; i < doomed.n; i++) {
        /* Gone already (another hand removed it): what we wanted. */
        if (unlink(doomed.items[i]) != 0 && errno != ENOENT) {
            Loc l = {doomed.items[i], 0};
            error_at(&l, "cannot remove: %s", strerror(errno));
            diag_flush();
            rc = -1;
        } else if (verbose) {
            fprintf(stderr, "jvmtigen: removed %s\n", (char *)doomed.items[i]);
        }
        free(doomed.items[i]);
    }
    vec_free(&doomed);
    return rc;
}
