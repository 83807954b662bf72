#define _DEFAULT_SOURCE /* realpath */
#include "base/output.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"

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

/* The names of our own temporary files and backups, beside their targets:
 * ".NAME" TMP_MARK "XXXXXX" and ".NAME" OLD_MARK "XXXXXX". A run killed
 * outright (SIGKILL, a crash) leaves them; the next run into the directory
 * removes them (remove_leftovers). */
#define TMP_MARK ".jvmtigen-tmp."
#define OLD_MARK ".jvmtigen-old."

/* ".NAME" MARK "XXXXXX" beside path, into out. */
static void beside(const char *path, const char *mark, Buf *out)
{
    const char *slash = strrchr(path, '/');
    if (slash)
        buf_printf(out, "%.*s/.%s%sXXXXXX", (int)(slash - path), path, slash + 1, mark);
    else
        buf_printf(out, ".%s%sXXXXXX", path, mark);
}

/* Writes data to a new temporary file beside path; its name goes to tmp.
 * 0 on success; on failure a diagnostic is queued and no file is left. */
static int write_temp(const char *path, const char *data, size_t len, Buf *tmp)
{
    beside(path, TMP_MARK, tmp);
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

/* Keeps the current file at path as a hard link beside it, so that the set
 * can be put back; 1 if there is none to keep, 0 when kept, -1 (with a
 * diagnostic) when it cannot be kept. */
static int keep_old(const char *path, Buf *old)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 1 : io_error(path, "cannot replace");
    for (int tries = 0; tries < 100; tries++) {
        old->len = 0;
        beside(path, OLD_MARK, old);
        /* mkstemp's pattern made by hand: link() creates no file first */
        static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
        static unsigned seq;
        unsigned v = (unsigned)getpid() * 2654435761u + seq++ * 40503u + (unsigned)tries;
        for (size_t k = old->len - 6; k < old->len; k++, v /= 36)
            old->data[k] = digits[v % 36];
        if (link(path, old->data) == 0)
            return 0;
        if (errno != EEXIST)
            break;
    }
    return io_error(path, "cannot keep the old file while replacing it (a hard link beside it)");
}

/* Removes "OUTDIR/.NAME.jvmtigen-{tmp,old}.XXXXXX" left by a run that was
 * killed: only names of that exact form. */
static void remove_leftovers(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        const char *n = e->d_name;
        const char *m = strstr(n, TMP_MARK);
        if (!m)
            m = strstr(n, OLD_MARK);
        if (n[0] != '.' || !m || m == n || strlen(m) != strlen(TMP_MARK) + 6)
            continue;
        Buf p;
        buf_init(&p);
        buf_printf(&p, "%s/%s", dir, n);
        struct stat st;
        if (lstat(p.data, &st) == 0 && S_ISREG(st.st_mode))
            unlink(p.data);
        buf_free(&p);
    }
    closedir(d);
}

static sigset_t lock_saved_mask;

static void stop_signals(sigset_t *set);

int output_lock(const char *dir)
{
    /* The stop signals wait, as in write_files, until output_unlock: the
     * pruning of stale pages after the renames belongs to the new set. */
    sigset_t stop;
    stop_signals(&stop);
    sigprocmask(SIG_BLOCK, &stop, &lock_saved_mask);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        sigprocmask(SIG_SETMASK, &lock_saved_mask, NULL);
        return io_error(dir, "cannot open the output directory");
    }
    /* A lock on the directory itself, not a file in it: the directory holds
     * nothing new. A second writer waits here until the first is done. */
    while (flock(fd, LOCK_EX) != 0) {
        if (errno != EINTR) {
            int saved = errno;
            close(fd);
            sigprocmask(SIG_SETMASK, &lock_saved_mask, NULL);
            errno = saved;
            return io_error(dir, "cannot lock the output directory");
        }
    }
    return fd;
}

void output_unlock(int fd)
{
    if (fd < 0)
        return;
    close(fd);
    sigprocmask(SIG_SETMASK, &lock_saved_mask, NULL);
}

/* The signals a user sends to stop a run (Ctrl-C and the like). They are
 * held while the files are written and renamed: one that arrives while the
 * temporary files are written stops the run before the first rename (the
 * temporary files removed); one that arrives during the renames waits for
 * them. Either way, once write_files returns, the default action follows.
 * A signal the caller ignores or blocks (a background job of a script
 * ignores SIGINT) stops nothing: held, an ignored one would still be seen
 * pending, and the run would stop where its caller chose to carry on. */
static void stop_signals(sigset_t *set)
{
    /* As the caller left them: worked out at the first call, before this
     * file blocks any of them itself (output_lock, then write_files). */
    static sigset_t stop;
    static bool known;
    if (!known) {
        static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
        sigset_t blocked;
        sigprocmask(SIG_BLOCK, NULL, &blocked);
        sigemptyset(&stop);
        for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
            struct sigaction sa;
            bool ignored = sigaction(sigs[i], NULL, &sa) == 0 && sa.sa_handler == SIG_IGN;
            if (!ignored && !sigismember(&blocked, sigs[i]))
                sigaddset(&stop, sigs[i]);
        }
        known = true;
    }
    *set = stop;
}

static bool stop_pending(const sigset_t *stop)
{
    sigset_t pending;
    if (sigpending(&pending) != 0)
        return false;
    for (int sig = 1; sig < 32; sig++)
        if (sigismember(stop, sig) && sigismember(&pending, sig))
            return true;
    return false;
}

/* Why all or nothing is done this way: every new file is first written
 * completely beside its target, and only then do they take their places,
 * one rename each. Each file replaced keeps its old content as a hard link
 * (OLD_MARK) until every rename has succeeded; when one fails, the renames
 * done so far are undone (each old file renamed back, each new one removed)
 * and the directory holds the previous set again. A staging directory and a
 * manifest would be atomic across a crash too, but readers (make, the
 * compiler) would have to know about them; with backups beside the files
 * the outputs stay plain files in DIR, and a crash in the middle of the
 * renames (SIGKILL) is the one case left half-new, until the next run. */
int write_files(OutFile *files, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        files[i].changed = false;
        struct stat st;
        if (stat(files[i].path, &st) == 0 && !S_ISREG(st.st_mode)) {
            errno = S_ISDIR(st.st_mode) ? EISDIR : EEXIST;
            return io_error(files[i].path, "cannot replace (not a regular file)");
        }
    }
    /* Leftovers of killed runs, in every directory written to. */
    for (size_t i = 0; i < n; i++) {
        const char *path = files[i].path, *slash = strrchr(path, '/');
        if (i && slash && strncmp(path, files[i - 1].path, (size_t)(slash - path) + 1) == 0 &&
            !strchr(files[i - 1].path + (slash - path) + 1, '/'))
            continue; /* the same directory as the previous file */
        Buf dir;
        buf_init(&dir);
        path_dir_name(path, &dir);
        remove_leftovers(dir.data);
        buf_free(&dir);
    }
    sigset_t stop, saved_mask;
    stop_signals(&stop);
    sigprocmask(SIG_BLOCK, &stop, &saved_mask);

    Buf *tmps = xcalloc(n, sizeof *tmps);
    Buf *olds = xcalloc(n, sizeof *olds);
    bool *todo = xcalloc(n, sizeof *todo);
    bool *has_old = xcalloc(n, sizeof *has_old);
    int rc = 0;
    size_t written = 0;
    for (; written < n && rc == 0; written++) {
        buf_init(&tmps[written]);
        buf_init(&olds[written]);
        const OutFile *f = &files[written];
        todo[written] = !same_content(f->path, f->data.data, f->data.len);
        if (todo[written])
            rc = write_temp(f->path, f->data.data ? f->data.data : "", f->data.len, &tmps[written]);
        if (rc)
            todo[written] = false; /* write_temp left nothing */
        if (rc == 0 && stop_pending(&stop)) {
            Loc loc = {files[written].path, 0};
            error_at(&loc, "%s", "interrupted by a signal before any file was replaced");
            rc = -1;
        }
    }
    /* The old files kept, before the first rename. */
    for (size_t i = 0; i < written && rc == 0; i++) {
        if (!todo[i])
            continue;
        int k = keep_old(files[i].path, &olds[i]);
        if (k < 0)
            rc = -1;
        has_old[i] = k == 0;
    }
    /* Every file is on disk: now they take their places. */
    size_t renamed = 0;
    for (; renamed < written && rc == 0; renamed++) {
        if (todo[renamed] && rename(tmps[renamed].data, files[renamed].path) != 0) {
            rc = io_error(files[renamed].path, "cannot replace");
            break;
        }
    }
    if (rc != 0) {
        /* Put the previous set back: the renames done are undone. */
        for (size_t i = 0; i < renamed; i++) {
            if (!todo[i])
                continue;
            if (has_old[i] ? rename(olds[i].data, files[i].path) != 0 : unlink(files[i].path) != 0)
                io_error(files[i].path, "cannot put the previous file back");
            else
                has_old[i] = false;
        }
    }
    for (size_t i = 0; i < written; i++) {
        if (todo[i] && rc != 0 && i >= renamed)
            unlink(tmps[i].data);
        if (has_old[i])
            unlink(olds[i].data);
        if (todo[i] && rc == 0)
            files[i].changed = true;
        buf_free(&tmps[i]);
        buf_free(&olds[i]);
    }
    free(tmps);
    free(olds);
    free(todo);
    free(has_old);
    sigprocmask(SIG_SETMASK, &saved_mask, NULL);
    return rc;
}

int write_if_changed(const char *path, const char *data, size_t len, bool *changed)
{
    OutFile f = {(char *)(uintptr_t)path, {(char *)(uintptr_t)data, len, len}, false};
    int rc = write_files(&f, 1);
    *changed = f.changed;
    return rc;
}

int write_through(const char *path, const char *data, size_t len, bool *changed)
{
    *changed = false;
    if (same_content(path, data, len))
        return 0;
    int fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return io_error(path, "cannot write");
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        errno = EINVAL;
        return io_error(path, "cannot write (not a regular file)");
    }
    /* The space first: a full disk refuses before a byte changes. A file
     * system without fallocate is written all the same. */
    int err = len ? posix_fallocate(fd, 0, (off_t)len) : 0;
    if (err && err != EOPNOTSUPP && err != EINVAL) {
        close(fd);
        errno = err;
        return io_error(path, "cannot write");
    }
    sigset_t stop, saved;
    stop_signals(&stop);
    sigprocmask(SIG_BLOCK, &stop, &saved);
    size_t off = 0;
    while (off < len) {
        ssize_t w = pwrite(fd, data + off, len - off, (off_t)off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    int rc = 0;
    if (off < len || ftruncate(fd, (off_t)len) != 0)
        rc = io_error(path, "cannot write (the file may now be damaged)");
    if (close(fd) != 0 && rc == 0)
        rc = io_error(path, "cannot write");
    sigprocmask(SIG_SETMASK, &saved, NULL);
    *changed = true;
    return rc;
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

/* path made absolute, each component resolved as the system would: the
 * part that exists through realpath (symbolic links, ".."), what follows
 * it by name ("." dropped, ".." taking the previous component away, as it
 * will once make_dirs has made the missing directories). */
static void canonical_name(const char *path, Buf *out)
{
    Buf abs;
    buf_init(&abs);
    if (path[0] != '/') {
        char *cwd = getcwd(NULL, 0);
        buf_puts(&abs, cwd ? cwd : ".");
        buf_putc(&abs, '/');
        free(cwd);
    }
    buf_puts(&abs, path);
    /* The longest leading part that exists, resolved at once (the whole
     * name, for a file that is there); the rest one component at a time. */
    size_t cut = abs.len;
    char *real = NULL;
    for (;;) {
        char c = abs.data[cut];
        abs.data[cut] = '\0';
        real = realpath(abs.data, NULL);
        abs.data[cut] = c;
        if (real || cut == 0)
            break;
        while (cut > 0 && abs.data[cut - 1] == '/')
            cut--;
        while (cut > 0 && abs.data[cut - 1] != '/')
            cut--;
    }
    Buf cur;
    buf_init(&cur);
    buf_puts(&cur, real && strcmp(real, "/") != 0 ? real : "");
    free(real);
    const char *p = abs.data + cut;
    while (*p) {
        while (*p == '/')
            p++;
        size_t n = strcspn(p, "/");
        bool dotdot = n == 2 && p[0] == '.' && p[1] == '.';
        if (n == 0 || (n == 1 && p[0] == '.')) {
            p += n;
            continue;
        }
        buf_putc(&cur, '/');
        buf_put(&cur, p, n);
        p += n;
        real = realpath(cur.data, NULL);
        if (real) {
            buf_reset(&cur);
            buf_puts(&cur, strcmp(real, "/") == 0 ? "" : real);
            free(real);
        } else if (dotdot) {
            /* a missing directory's "..": it and the name before go */
            for (int k = 0; k < 2; k++) {
                while (cur.len > 0 && cur.data[cur.len - 1] != '/')
                    cur.len--;
                if (cur.len > 0)
                    cur.len--;
            }
            cur.data[cur.len] = '\0';
        }
    }
    buf_puts(out, cur.len ? cur.data : "/");
    buf_free(&cur);
    buf_free(&abs);
}

void file_id(const char *path, FileId *id)
{
    struct stat st;
    id->exists = stat(path, &st) == 0;
    id->dev = id->exists ? (unsigned long long)st.st_dev : 0;
    id->ino = id->exists ? (unsigned long long)st.st_ino : 0;
    buf_init(&id->canon);
    canonical_name(path, &id->canon);
}

bool file_id_same(const FileId *a, const FileId *b)
{
    if (a->exists && b->exists && a->dev == b->dev && a->ino == b->ino)
        return true;
    return strcmp(a->canon.data, b->canon.data) == 0;
}

void file_id_free(FileId *id) { buf_free(&id->canon); }

bool same_file(const char *a, const char *b)
{
    FileId ia, ib;
    file_id(a, &ia);
    file_id(b, &ib);
    bool same = file_id_same(&ia, &ib);
    file_id_free(&ia);
    file_id_free(&ib);
    return same;
}
