/* make bench's clock for a whole process: runs COMMAND and writes to FILE
 * its CPU time (user + system, from wait4's rusage: the process and the
 * children it waited for) and its wall time, in ns, and its peak resident
 * size in KiB (ru_maxrss: the largest of the process's and its children's),
 * "CPU WALL RSS". The exit
 * status is the command's (128 + N when signal N ended it).
 *   usage: cputime FILE COMMAND [ARG...]
 * On a loaded machine the wall time counts whatever else ran on the core;
 * the CPU time only the command's own work. */
#define _DEFAULT_SOURCE /* wait4 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long ns_of(struct timeval tv) { return tv.tv_sec * 1000000000LL + tv.tv_usec * 1000LL; }

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: cputime FILE COMMAND [ARG...]\n");
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0) {
        perror("cputime: fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror(argv[2]);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid) {
        perror("cputime: wait4");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    FILE *f = fopen(argv[1], "w");
    if (!f ||
        fprintf(f, "%lld %lld %ld\n", ns_of(ru.ru_utime) + ns_of(ru.ru_stime),
                (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec), ru.ru_maxrss) < 0 ||
        fclose(f) != 0) {
        perror(argv[1]);
        return 2;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
