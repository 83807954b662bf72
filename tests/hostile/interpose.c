/* An LD_PRELOAD library for the hostile suite: makes jvmtigen's Nth call of
 * rename() fail (JVMTIGEN_FAIL_RENAME=N, with EIO), or sends the process a
 * signal at its Nth rename() or Nth mkstemp() (JVMTIGEN_SIGNAL=SIG,
 * JVMTIGEN_SIGNAL_AT_RENAME=N or JVMTIGEN_SIGNAL_AT_MKSTEMP=N), or kills its
 * child processes at birth (JVMTIGEN_SIGNAL_CHILD=SIG, the docs helper), to
 * show that an output directory is never left half-new.
 *
 * The signals sent have their default action and are not blocked when the
 * program starts, whatever the test's own process inherited: a suite run as
 * a background job of a non-interactive shell (`make check &`) ignores
 * SIGINT, and its children with it. An ignored SIGINT raised while jvmtigen
 * holds it stays pending all the same (Linux queues a blocked signal even
 * when ignored), so the run stopped with exit 3 and nothing killed it after:
 * "exit status 3, expected 130" in a make check run that way. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int env_int(const char *name)
{
    const char *v = getenv(name);
    return v ? atoi(v) : 0;
}

__attribute__((constructor)) static void default_action(void)
{
    /* JVMTIGEN_SIGNAL_INHERIT=1: leave the disposition the caller gave
     * (the case of a run whose caller ignores SIGINT on purpose). */
    if (env_int("JVMTIGEN_SIGNAL_INHERIT"))
        return;
    const char *names[] = {"JVMTIGEN_SIGNAL", "JVMTIGEN_SIGNAL_CHILD"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        int sig = env_int(names[i]);
        if (sig <= 0 || sig >= NSIG)
            continue;
        signal(sig, SIG_DFL);
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, sig);
        sigprocmask(SIG_UNBLOCK, &set, NULL);
    }
}

int rename(const char *from, const char *to)
{
    static int calls;
    static int (*real)(const char *, const char *);
    if (!real)
        real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
    calls++;
    if (calls == env_int("JVMTIGEN_FAIL_RENAME")) {
        errno = EIO;
        return -1;
    }
    if (calls == env_int("JVMTIGEN_SIGNAL_AT_RENAME"))
        raise(env_int("JVMTIGEN_SIGNAL"));
    return real(from, to);
}

int mkstemp(char *template)
{
    static int calls;
    static int (*real)(char *);
    if (!real)
        real = (int (*)(char *))dlsym(RTLD_NEXT, "mkstemp");
    if (++calls == env_int("JVMTIGEN_SIGNAL_AT_MKSTEMP"))
        raise(env_int("JVMTIGEN_SIGNAL"));
    return real(template);
}

/* JVMTIGEN_SIGNAL_CHILD=SIG: every child process (the docs helper) gets
 * SIG as soon as it starts. */
pid_t fork(void)
{
    static pid_t (*real)(void);
    if (!real)
        real = (pid_t (*)(void))dlsym(RTLD_NEXT, "fork");
    pid_t pid = real();
    if (pid == 0 && env_int("JVMTIGEN_SIGNAL_CHILD"))
        raise(env_int("JVMTIGEN_SIGNAL_CHILD"));
    return pid;
}
