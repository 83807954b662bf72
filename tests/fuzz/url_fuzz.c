/* libFuzzer target: what the templates may read (gen/docs/sandbox.c). A
 * tree made once in /tmp: the templates' folder with folders named 'a?',
 * 'a#' and 'a%2e', a symbolic link out of it and one back in, and beside it
 * the file they may not read. The input is a URL as a template writes it,
 * tried as written, under the folder's absolute path and as a file: URL of
 * it. Checked: a URL the sandbox lets through names one file, and that
 * file, resolved as the system will open it, is below the folder. The
 * dictionary (url.dict) holds the pieces of issue 31's escape: queries,
 * fragments, %XX escapes, '..', file: and localhost. */
#define _DEFAULT_SOURCE /* realpath */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>

#include "docs/sandbox.h"

static char root[PATH_MAX];

static void refused(const char *file, int line, bool warning, const char *message)
{
    (void)file, (void)line, (void)warning, (void)message;
}

static void made(int rc)
{
    if (rc != 0)
        abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    LIBXML_TEST_VERSION
    xmlInitParser();
    char base[] = "/tmp/jvmtigen-url-fuzz.XXXXXX";
    if (!mkdtemp(base))
        abort();
    char p[PATH_MAX + 64];
    snprintf(root, sizeof root, "%s/tpl", base);
    made(mkdir(root, 0700));
    static const char *const dirs[] = {"a?", "a#", "a%2e", "sub"};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        snprintf(p, sizeof p, "%s/%s", root, dirs[i]);
        made(mkdir(p, 0700));
    }
    snprintf(p, sizeof p, "%s/out", root);
    made(symlink("..", p));
    snprintf(p, sizeof p, "%s/sub/back", root);
    made(symlink("..", p));
    snprintf(p, sizeof p, "%s/secret.xml", base);
    FILE *f = fopen(p, "w");
    if (!f)
        abort();
    fputs("<secret/>\n", f);
    fclose(f);
    sandbox_open(root, NULL, refused, NULL);
    return 0;
}

static void judge_one(const char *url)
{
    char *path;
    const char *why = sandbox_judge(url, &path);
    if (!why) {
        char real[PATH_MAX];
        size_t n = strlen(root);
        /* A file that is there must be below the folder; one that is not
         * cannot be read at all. */
        if (!path || (realpath(path, real) &&
                      (strncmp(real, root, n) != 0 || (real[n] != '/' && real[n] != '\0')))) {
            fprintf(stderr, "fuzz: '%s' let through, and it opens %s\n", url,
                    path ? real : "(no file)");
            abort();
        }
    }
    free(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1024 || memchr(data, '\0', size))
        return 0;
    char url[1024 + PATH_MAX + 16];
    memcpy(url, data, size);
    url[size] = '\0';
    judge_one(url);
    snprintf(url, sizeof url, "%s/%.*s", root, (int)size, (const char *)data);
    judge_one(url);
    snprintf(url, sizeof url, "file://%s/%.*s", root, (int)size, (const char *)data);
    judge_one(url);
    return 0;
}
