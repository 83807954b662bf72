#define _DEFAULT_SOURCE /* realpath */
#include "output.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"

static int io_error(const char *path, const char *what)
{
    Loc loc = {path, 0};
    error_at(&loc, "%s: %s", what, strerror(errno));
    return -1;
}

int make_dirs(const char *dir)
{
    Buf b;
    buf_init(&b);
    buf_puts(&b, dir);
    int rc = 0;
    for (size_t i = 1; i <= b.len && rc == 0; i++) {
        if (b.data[i] != '/' && b.data[i] != '\0')
            continue;
        char saved = b.data[i];
        b.data[i] = '\0';
        struct stat st;
        if (stat(b.data, &st) != 0) {
            if (mkdir(b.data, 0777) != 0 && errno != EEXIST)
                rc = io_error(b.data, "cannot create directory");
        } else if (!S_ISDIR(st.st_mode)) {
            errno = ENOTDIR;
            rc = io_error(b.data, "cannot create directory");
        }
        b.data[i] = saved;
    }
    buf_free(&b);
    return rc;
}

static bool same_content(const char *path, const char *data, size_t len)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size != len)
        return false;
    Buf old;
    buf_init(&old);
    bool same = read_file(path, &old) == 0 && old.len == len && memcmp(old.data, data, len) == 0;
    buf_free(&old);
    return same;
}

/* Writes data to a new temporary file beside path; its name goes to tmp.
 * 0 on success; on failure a diagnostic is queued and no file is left. */
static int write_temp(const char *path, const char *data, size_t len, Buf *tmp)
{
    const char *slash = strrchr(path, '/');
    if (slash)
        buf_printf(tmp, "%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1);
    else
        buf_printf(tmp, ".%s.XXXXXX", path);
    int fd = mkstemp(tmp->data);
    if (fd < 0)
        return io_error(path, "cannot create a temporary file");
    /* mkstemp makes the file 0600; give it the mode a plain create would. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        off += (size_t)w;
    }
    int saved = errno;
    if (off < len) {
        close(fd);
        unlink(tmp->data);
        errno = saved;
        return io_error(path, "cannot write");
    }
    if (close(fd) != 0) {
        saved = errno;
        unlink(tmp->data);
        errno = saved;
        return io_error(path, "cannot write");
    }
    return 0;
}

int write_files(const char *const *paths, const Buf *contents, size_t n, bool *changed)
{
    for (size_t i = 0; i < n; i++) {
        changed[i] = false;
        struct stat st;
        if (stat(paths[i], &st) == 0 && !S_ISREG(st.st_mode)) {
            errno = S_ISDIR(st.st_mode) ? EISDIR : EEXIST;
            return io_error(paths[i], "cannot replace (not a regular file)");
        }
    }
    Buf *tmps = calloc(n ? n : 1, sizeof *tmps);
    bool *todo = calloc(n ? n : 1, sizeof *todo);
    if (!tmps || !todo) {
        fputs("jvmtigen: error: out of memory\n", stderr);
        exit(3);
    }
    int rc = 0;
    size_t written = 0;
    for (; written < n && rc == 0; written++) {
        buf_init(&tmps[written]);
        todo[written] = !same_content(paths[written], contents[written].data,
                                      contents[written].len);
        if (todo[written])
            rc = write_temp(paths[written], contents[written].data ? contents[written].data : "",
                            contents[written].len, &tmps[written]);
        if (rc)
            todo[written] = false; /* write_temp left nothing */
    }
    /* Every file is on disk: now they take their places. */
    for (size_t i = 0; i < written; i++) {
        if (!todo[i])
            continue;
        if (rc == 0 && rename(tmps[i].data, paths[i]) == 0) {
            changed[i] = true;
            continue;
        }
        if (rc == 0)
            rc = io_error(paths[i], "cannot replace");
        unlink(tmps[i].data);
    }
    for (size_t i = 0; i < written; i++)
        buf_free(&tmps[i]);
    free(tmps);
    free(todo);
    return rc;
}

int write_if_changed(const char *path, const char *data, size_t len, bool *changed)
{
    Buf b = {(char *)(uintptr_t)data, len, len};
    return write_files(&path, &b, 1, changed);
}

/* What GNU make cannot read back in a file name of a rule, whatever the
 * escaping: a newline or carriage return ends the line (and a tab after it
 * would start a recipe line), ';' starts a recipe, '=' makes an assignment,
 * parentheses name an archive member, and a backslash at the end joins the
 * next line. NULL if name can be written. */
static const char *make_unwritable(const char *name)
{
    if (strpbrk(name, "\n\r"))
        return "a newline or carriage return";
    if (strchr(name, ';'))
        return "a ';'";
    if (strchr(name, '='))
        return "an '='";
    if (strpbrk(name, "()"))
        return "a parenthesis";
    size_t n = strlen(name);
    if (n && name[n - 1] == '\\')
        return "a backslash at the end";
    if (!n)
        return "no characters";
    return NULL;
}

/* Writes a file name as GNU make reads it back (checked with GNU make 4.3):
 * a backslash before a space, tab, '#', ':', '|' and the wildcard
 * characters, and before '%' where the name is a target (in a prerequisite
 * it is literal and a backslash would stay); '$' doubled; backslashes just
 * before an escaped character doubled, others kept as they are. */
static void make_escape(Buf *b, const char *s, bool target)
{
    for (; *s; s++) {
        const char *special = target ? " \t#:|*?[%" : " \t#:|*?[";
        if (*s == '\\') {
            size_t run = strspn(s, "\\");
            bool before = s[run] && strchr(special, s[run]);
            for (size_t k = 0; k < run; k++)
                buf_puts(b, before ? "\\\\" : "\\");
            s += run - 1;
            continue;
        }
        if (strchr(special, *s))
            buf_putc(b, '\\');
        if (*s == '$')
            buf_putc(b, '$');
        buf_putc(b, *s);
    }
}

const char *depfile_append(Buf *b, const char *const *targets, size_t n_targets,
                           const char *const *deps, size_t n_deps, const char **bad)
{
    for (size_t i = 0; i < n_targets + n_deps; i++) {
        *bad = i < n_targets ? targets[i] : deps[i - n_targets];
        const char *why = make_unwritable(*bad);
        if (why)
            return why;
    }
    *bad = NULL;
    for (size_t i = 0; i < n_targets; i++) {
        if (i)
            buf_puts(b, " \\\n ");
        make_escape(b, targets[i], true);
    }
    buf_puts(b, ":");
    for (size_t i = 0; i < n_deps; i++) {
        buf_puts(b, " \\\n ");
        make_escape(b, deps[i], false);
    }
    buf_puts(b, "\n");
    for (size_t i = 0; i < n_deps; i++) {
        buf_puts(b, "\n");
        make_escape(b, deps[i], true);
        buf_puts(b, ":\n");
    }
    return NULL;
}

/* path with its directory resolved (symbolic links, "..") when that
 * directory exists; otherwise as written, without "./" components and
 * doubled slashes. */
static void canonical_name(const char *path, Buf *out)
{
    const char *slash = strrchr(path, '/');
    Buf dir;
    buf_init(&dir);
    if (slash)
        buf_put(&dir, path, slash == path ? 1 : (size_t)(slash - path));
    else
        buf_puts(&dir, ".");
    char *real = realpath(dir.data, NULL);
    if (real) {
        buf_printf(out, "%s/%s", real, slash ? slash + 1 : path);
        free(real);
    } else {
        for (const char *p = path; *p; p++) {
            if (*p == '/' && (p[1] == '/' || (p[1] == '.' && (p[2] == '/' || !p[2]))))
                continue; /* the second slash, or "/." */
            if (p == path && p[0] == '.' && p[1] == '/') {
                p++;
                continue;
            }
            buf_putc(out, *p);
        }
    }
    buf_free(&dir);
}

bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    Buf ca, cb;
    buf_init(&ca);
    buf_init(&cb);
    canonical_name(a, &ca);
    canonical_name(b, &cb);
    bool same = strcmp(ca.data ? ca.data : "", cb.data ? cb.data : "") == 0;
    buf_free(&ca);
    buf_free(&cb);
    return same;
}
