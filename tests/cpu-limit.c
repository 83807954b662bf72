/* cpu-limit SECONDS COMMAND [ARG...]: runs COMMAND with a limit on the
 * processor time it uses, not on the time that passes, so that a loaded
 * machine (which stretches wall time, not CPU time: under ASan at load 13
 * a run of 11 s of CPU took 66 s) cannot stop it. tests/lib.sh's
 * hostile_run, the hostile and security suites.
 *
 * - Each process of the command may use SECONDS of CPU (RLIMIT_CPU, which
 *   its children inherit): SIGXCPU then, SIGKILL 5 seconds of CPU later;
 *   exit status 152 (128 + SIGXCPU) or 137. No core file (RLIMIT_CORE 0).
 * - A command blocked for good (on a pipe no one writes to, say) uses no
 *   CPU and would never reach that limit: when no process of its group has
 *   used any for CPU_LIMIT_IDLE seconds (default 120), the group is killed,
 *   exit status 124 (as timeout(1)'s). However loaded the machine, a
 *   runnable process gets some CPU every few milliseconds: only a process
 *   waiting for what will not come is stopped.
 *
 * Otherwise the exit status is the command's (128 + N when signal N ended
 * it; 127 when it cannot be run). The command runs in a process group of
 * its own (what it starts is counted and killed with it); SIGINT, SIGTERM
 * and SIGHUP sent to cpu-limit are passed on to the group (an ignored one
 * stays ignored, in the command too). A process of the group left behind
 * when the command ends is not touched: the caller may want to know. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* CPU clock ticks used by the processes of group pgid: their own and their
 * reaped children's (a helper's move there when it is waited for). */
static unsigned long long group_ticks(pid_t pgid)
{
    unsigned long long total = 0;
    DIR *proc = opendir("/proc");
    if (!proc)
        return 0;
    for (struct dirent *e; (e = readdir(proc));) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        char path[300], buf[1024]; /* d_name: at most 255 bytes */
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue; /* gone meanwhile */
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = '\0';
        const char *p = strrchr(buf, ')'); /* after the command's name */
        long grp;
        unsigned long long ut, st, cut, cst;
        if (p && sscanf(p + 2, "%*c %*d %ld %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu",
                        &grp, &ut, &st, &cut, &cst) == 5 && grp == pgid)
            total += ut + st + cut + cst;
    }
    closedir(proc);
    return total;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc < 3 || atoi(argv[1]) <= 0) {
        fprintf(stderr, "usage: cpu-limit SECONDS COMMAND [ARG...]\n");
        return 2;
    }
    rlim_t seconds = (rlim_t)atoi(argv[1]);
    const char *idle_env = getenv("CPU_LIMIT_IDLE");
    double idle = idle_env && atoi(idle_env) > 0 ? atoi(idle_env) : 120;
    sigset_t wanted, old;
    sigemptyset(&wanted);
    sigaddset(&wanted, SIGCHLD);
    sigaddset(&wanted, SIGINT);
    sigaddset(&wanted, SIGTERM);
    sigaddset(&wanted, SIGHUP);
    sigprocmask(SIG_BLOCK, &wanted, &old);
    pid_t pid = fork();
    if (pid < 0) {
        perror("cpu-limit: fork");
        return 127;
    }
    if (pid == 0) {
        setpgid(0, 0);
        struct rlimit cpu = {seconds, seconds + 5}, core = {0, 0};
        setrlimit(RLIMIT_CPU, &cpu);
        setrlimit(RLIMIT_CORE, &core);
        sigprocmask(SIG_SETMASK, &old, NULL);
        execvp(argv[2], argv + 2);
        fprintf(stderr, "cpu-limit: %s: %s\n", argv[2], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid); /* whichever of the two comes first */
    unsigned long long last = 0;
    double since = now();
    for (;;) {
        struct timespec poll = {2, 0}; /* between two looks at the CPU used */
        int sig = sigtimedwait(&wanted, NULL, &poll);
        if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP)
            killpg(pid, sig);
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid)
            return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
        unsigned long long ticks = group_ticks(pid);
        if (ticks != last) {
            last = ticks;
            since = now();
        } else if (now() - since >= idle) {
            fprintf(stderr, "cpu-limit: no CPU used for %.0f s: blocked, killed\n", idle);
            killpg(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return 124;
        }
    }
}
