/* Where jvmtigen finds its templates and its spec when none is named:
 * beside the executable (installed, or in the source tree), else under
 * JVMTIGEN_DATADIR. */
#define _DEFAULT_SOURCE /* realpath */
#include "docs/docs.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef JVMTIGEN_DATADIR
#define JVMTIGEN_DATADIR "/usr/local/share/jvmtigen"
#endif

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* INSTALLED (below share/jvmtigen) or IN_TREE, beside the executable. The
 * installed layout is tried first: an installed jvmtigen must not take
 * PREFIX/templates, which is not its own, for its templates. */
static char *data_path(const char *argv0, const char *installed, const char *in_tree, bool dir)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
    } else if (argv0 && strchr(argv0, '/') && strlen(argv0) < sizeof exe) {
        strcpy(exe, argv0);
    } else {
        exe[0] = '\0';
    }
    char *slash = strrchr(exe, '/');
    if (slash) {
        *slash = '\0';
        const char *const rel[] = {"/../share/jvmtigen/", installed, "/../", in_tree};
        for (size_t i = 0; i < sizeof rel / sizeof *rel; i += 2) {
            Buf b;
            buf_init(&b);
            buf_printf(&b, "%s%s%s", exe, rel[i], rel[i + 1]);
            char real[PATH_MAX];
            if ((dir ? is_dir(b.data) : is_file(b.data)) && realpath(b.data, real)) {
                buf_free(&b);
                return xstrdup(real);
            }
            buf_free(&b);
        }
    }
    Buf b;
    buf_init(&b);
    buf_printf(&b, "%s/%s", JVMTIGEN_DATADIR, installed);
    return b.data;
}

char *docs_default_templates(const char *argv0)
{
    return data_path(argv0, "templates", "templates", true);
}

char *docs_default_spec(const char *argv0)
{
    return data_path(argv0, "jvmti.xml", "spec/jvmti.xml", false);
}
