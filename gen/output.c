#include "output.h"

#include <errno.h>
#include <fcntl.h>
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

int write_if_changed(const char *path, const char *data, size_t len, bool *changed)
{
    *changed = false;
    if (same_content(path, data, len))
        return 0;
    Buf tmp;
    buf_init(&tmp);
    const char *slash = strrchr(path, '/');
    if (slash)
        buf_printf(&tmp, "%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1);
    else
        buf_printf(&tmp, ".%s.XXXXXX", path);
    int fd = mkstemp(tmp.data);
    if (fd < 0) {
        int rc = io_error(path, "cannot create a temporary file");
        buf_free(&tmp);
        return rc;
    }
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
    int rc = 0;
    if (off < len || close(fd) != 0) {
        rc = io_error(path, "cannot write");
        if (off < len)
            close(fd);
        unlink(tmp.data);
    } else if (rename(tmp.data, path) != 0) {
        rc = io_error(path, "cannot replace");
        unlink(tmp.data);
    } else {
        *changed = true;
    }
    buf_free(&tmp);
    return rc;
}

/* Make needs spaces, '#', '$' and ':' escaped in file names. */
static void make_escape(Buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == ' ' || *s == '#' || *s == ':' || *s == '\\')
            buf_putc(b, '\\');
        if (*s == '$')
            buf_putc(b, '$');
        buf_putc(b, *s);
    }
}

int write_depfile(const char *path, const char *const *targets, size_t n_targets,
                  const char *const *deps, size_t n_deps)
{
    Buf b;
    buf_init(&b);
    for (size_t i = 0; i < n_targets; i++) {
        if (i)
            buf_puts(&b, " \\\n ");
        make_escape(&b, targets[i]);
    }
    buf_puts(&b, ":");
    for (size_t i = 0; i < n_deps; i++) {
        buf_puts(&b, " \\\n ");
        make_escape(&b, deps[i]);
    }
    buf_puts(&b, "\n");
    for (size_t i = 0; i < n_deps; i++) {
        buf_puts(&b, "\n");
        make_escape(&b, deps[i]);
        buf_puts(&b, ":\n");
    }
    bool changed;
    int rc = write_if_changed(path, b.data, b.len, &changed);
    buf_free(&b);
    return rc;
}
