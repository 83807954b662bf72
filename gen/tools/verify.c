#include "tools/verify.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diag.h"
#include "tools/udiff.h"

enum { CONTEXT = 3 };

/* 0 and the file's bytes in *old; 1 if there is no such file; -1 on error. */
static int read_existing(const char *path, Buf *old)
{
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT)
        return 1;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        Loc l = {path, 0};
        error_at(&l, "cannot compare: not a regular file");
        return -1;
    }
    if (read_file(path, old) != 0) {
        Loc l = {path, 0};
        error_at(&l, "cannot read: %s", read_file_error(errno));
        return -1;
    }
    return 0;
}

int verify_file(const char *path, const char *data, size_t len, Buf *out)
{
    Buf old;
    buf_init(&old);
    int rc = read_existing(path, &old);
    if (rc < 0) {
        buf_free(&old);
        return -1;
    }
    bool missing = rc == 1;
    if (!missing && old.len == len && (len == 0 || memcmp(old.data, data, len) == 0)) {
        buf_free(&old);
        return 0;
    }
    buf_printf(out, "--- %s%s\n+++ %s\t(generated)\n", path, missing ? "\t(missing)" : "", path);
    udiff_hunks(missing ? "" : old.data, missing ? 0 : old.len, data, len, CONTEXT, out);
    buf_free(&old);
    return 1;
}

int verify_removed(const char *path, Buf *out)
{
    Buf old;
    buf_init(&old);
    int rc = read_existing(path, &old);
    if (rc != 0) {
        buf_free(&old);
        return rc < 0 ? -1 : 0; /* gone meanwhile: nothing to remove */
    }
    buf_printf(out, "--- %s\n+++ %s\t(removed)\n", path, path);
    udiff_hunks(old.data ? old.data : "", old.len, "", 0, CONTEXT, out);
    buf_free(&old);
    return 1;
}
