/* The time limit (--time-limit) over the templates.
 * A template can run for ever (2^40 calls of a named template). At
 * --time-limit this process kills the helper, says so and exits 1: nothing
 * has been written yet (outputs are written after docs_render). The helper
 * has a second more, in case this process is gone. */
#include "docs/state.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "base/status.h"

static char limit_message[PATH_MAX + 128];
static size_t limit_message_len;
static volatile sig_atomic_t limit_helper; /* its pid, in this process */
static volatile sig_atomic_t limit_in_helper;

static void on_time_limit(int sig)
{
    (void)sig;
    if (limit_in_helper)
        _exit(EXIT_INVALID);
    if (limit_helper > 0)
        kill((pid_t)limit_helper, SIGKILL);
    ssize_t w = write(STDERR_FILENO, limit_message, limit_message_len);
    (void)w;
    _exit(EXIT_INVALID);
}

void start_time_limit(const char *templates, unsigned seconds, struct sigaction *old)
{
    int n = snprintf(limit_message, sizeof limit_message,
                     "%s: error: the templates ran longer than %u seconds (--time-limit); "
                     "one that never ends?\n",
                     templates, seconds);
    limit_message_len = n < 0                              ? 0
                        : (size_t)n < sizeof limit_message ? (size_t)n
                                                           : sizeof limit_message - 1;
    limit_helper = 0;
    limit_in_helper = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_time_limit;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, old);
    alarm(seconds);
}

void time_limit_helper(pid_t pid) { limit_helper = pid; }

void time_limit_in_helper(unsigned seconds)
{
    limit_in_helper = 1;
    alarm(seconds);
}

void stop_time_limit(struct sigaction *old)
{
    alarm(0);
    sigaction(SIGALRM, old, NULL);
}
