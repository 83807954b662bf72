/* The helper process.
 *
 * The two stylesheets are independent, so jvmti.html renders in a forked
 * copy of this process while this one renders the man pages: both cores
 * work at once. Threads would share the source tree, and libxslt writes to
 * the document it transforms (node order, the DTD's links); a fork gives
 * each transformation its own copy. The page comes back through a pipe:
 * the helper's status, the length, the bytes. */
#define _DEFAULT_SOURCE /* fork, pipe */
#include "docs/state.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "base/status.h"

/* One process by default: measured on 2 cores with the JDK 25 spec, the
 * helper is slower whether a core is idle or not. It costs 60-75% more CPU
 * time (copy-on-write faults, its own teardown, which the parent waits
 * for): idle, 300 ms against 235 ms in one process (10 runs each, twice);
 * at load average 8, 2.3 s against 1.8 s. JVMTIGEN_JOBS=2 still asks for
 * it (a machine where the fork is cheaper, and the tests of the pipe).
 *
 * Forks the helper. Returns 0 in the helper, its pid in the parent, -1
 * when everything is to be rendered here (unless JVMTIGEN_JOBS=2 asks for
 * the helper; always under the template profile, or with no fork to be
 * had). *fd is the pipe's end for this side. */
pid_t start_helper(int *fd)
{
    const char *jobs = getenv("JVMTIGEN_JOBS");
    const char *prof = getenv("JVMTIGEN_XSLT_PROFILE");
    bool forced = jobs && strcmp(jobs, "2") == 0;
    if (!forced || (prof && *prof && strcmp(prof, "0") != 0))
        return -1;
    int p[2];
    if (pipe(p) != 0)
        return -1;
    fflush(NULL); /* nothing buffered may be written twice */
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        close(p[0]);
        *fd = p[1];
        diag_reset(); /* what is queued is the parent's to print */
    } else {
        close(p[1]);
        *fd = p[0];
    }
    return pid;
}

static int write_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The helper's status, the page, and the files its templates read (from
 * deps[first] on, each with its NUL), which the parent's depfile lists. */
int send_page(int fd, int rc, const Buf *page, const Vec *deps, size_t first)
{
    uint32_t status = (uint32_t)rc;
    uint64_t len = rc == 0 ? page->len : 0;
    Buf read;
    buf_init(&read);
    for (size_t i = first; deps && i < deps->n; i++)
        buf_put(&read, deps->items[i], strlen(deps->items[i]) + 1);
    uint64_t read_len = read.len;
    int r = write_all(fd, &status, sizeof status) != 0 || write_all(fd, &len, sizeof len) != 0 ||
                    (len && write_all(fd, page->data, page->len) != 0) ||
                    write_all(fd, &read_len, sizeof read_len) != 0 ||
                    (read_len && write_all(fd, read.data, read.len) != 0)
                ? -1
                : 0;
    buf_free(&read);
    return r;
}

/* Appends the NUL-separated names in [p, p + n) to deps, each once. */
static void add_read(Vec *deps, const char *p, size_t n)
{
    if (!deps)
        return;
    for (const char *end = p + n; p < end; p += strlen(p) + 1) {
        bool seen = false;
        for (size_t i = 0; i < deps->n && !seen; i++)
            seen = strcmp(deps->items[i], p) == 0;
        if (!seen)
            vec_push(deps, xstrdup(p));
    }
}

int wait_for(pid_t pid)
{
    int wstatus = 0;
    while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
        ;
    return wstatus;
}

/* Reads the helper's page into page. A helper that failed printed its own
 * diagnostics and is waited for here, so they come before ours; one that
 * died or said too little is an error here. A helper that sent its page is
 * still freeing its memory: res->helper_pid, for docs_wait. */
void collect_helper(pid_t pid, int fd, DocsResult *res, Buf *page, Vec *deps, int *rc)
{
    Buf in;
    buf_init(&in);
    char chunk[65536];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        buf_put(&in, chunk, (size_t)n);
    }
    close(fd);
    uint32_t status = 0;
    uint64_t len = 0, read_len = 0;
    const size_t head = sizeof status + sizeof len;
    if (in.len >= head) {
        memcpy(&status, in.data, sizeof status);
        memcpy(&len, in.data + sizeof status, sizeof len);
    }
    bool whole = in.len >= head && in.len - head >= len && in.len - head - len >= sizeof read_len;
    if (whole) {
        memcpy(&read_len, in.data + head + len, sizeof read_len);
        whole = in.len - head - len - sizeof read_len == read_len &&
                (read_len == 0 || in.data[in.len - 1] == '\0');
    }
    if (whole && status == 0) {
        buf_put(page, in.data + head, (size_t)len);
        add_read(deps, in.data + head + len + sizeof read_len, (size_t)read_len);
        res->helper_pid = pid;
    } else {
        int wstatus = wait_for(pid);
        if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) != 0) {
            if (*rc == 0) /* the helper said why, on stderr */
                *rc = WEXITSTATUS(wstatus);
        } else {
            if (WIFSIGNALED(wstatus))
                error_at(NULL, "the process rendering jvmti.html died (signal %d)",
                         WTERMSIG(wstatus));
            else
                error_at(NULL, "the process rendering jvmti.html ended without its page");
            *rc = EXIT_IO; /* not the spec's fault: an internal or I/O failure */
        }
    }
    buf_free(&in);
}

int docs_wait(DocsResult *res)
{
    if (res->helper_pid <= 0)
        return EXIT_OK;
    int wstatus = wait_for(res->helper_pid);
    res->helper_pid = 0;
    if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0)
        return EXIT_OK;
    if (WIFSIGNALED(wstatus))
        error_at(NULL, "the process rendering jvmti.html died after sending it (signal %d)",
                 WTERMSIG(wstatus));
    else
        error_at(NULL, "the process rendering jvmti.html failed after sending it (status %d)",
                 WEXITSTATUS(wstatus));
    return EXIT_IO;
}
