/* The templates' memory. A template can grow without end (a string doubled
 * at each of 40 calls) and would take the machine's memory long before
 * --time-limit. While the templates run, libxml2's and libxslt's
 * allocations go through here (xmlMemSetup in start_memory_limit; the
 * library's own functions again after stop_memory_limit: the hooks wrap
 * malloc and realloc, and free stays free, so a block may be taken before
 * and given back after, or the other way round). The process's resident
 * memory may not grow by more than DOCS_MAX_MEMORY over what it was when
 * they started: past it this process says so and exits 1, as at the time
 * limit (nothing has been written yet). Only the templates are watched:
 * hooks over the spec's parse and the C outputs cost them 4% of their
 * instructions (make bench, issue 37). A default
 * run's templates add under 40 MB on the JDK 25 spec; the hostile suite's
 * spec of 100,000 constants about 520 MB (1.6 GB under AddressSanitizer,
 * whose redzones and quarantine the limit must leave room for).
 *
 * The resident size is read (/proc/self/statm) after every 16 MiB asked
 * for (memory cannot grow by more than is asked for), so the limit is
 * passed by at most about that much; counting each block's size instead
 * cost 7% of the docs' instructions, this 1.3%. Without /proc there is no
 * limit.
 *
 * The same hooks keep the blocks the templates free for their next
 * allocations of that size. libxslt allocates and frees about a million
 * small blocks on the JDK 25 spec (XPath objects, node sets, text nodes),
 * many at a time, past what glibc's per-size cache holds (7 blocks): its
 * malloc and free cost 160 instructions a pair, a kept block about 30
 * (issue 37). The blocks stay glibc's (malloc_usable_size sorts them), so
 * one allocated before the hooks, or freed after them by free itself, is
 * as good as any. Kept blocks are given back when the templates end under
 * JVMTIGEN_FREE_AT_EXIT=1, else left to the exit (base/keep.h). Under
 * AddressSanitizer blocks go straight back, for its use-after-free checks. */
#define _DEFAULT_SOURCE
#include "docs/state.h"

#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/xmlmemory.h>

#include "base/keep.h"
#include "base/status.h"

#if defined(__SANITIZE_ADDRESS__)
#define ASAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN_BUILD 1
#endif
#endif
#if defined(__GLIBC__) && !defined(ASAN_BUILD)
#include <malloc.h>
#define KEEP_BLOCKS 1
#endif

#define CHECK_BYTES ((size_t)16 << 20)

static long long limit; /* the most resident bytes; 0: no limit now */
static bool hooked;     /* the hooks are installed; saved: what they replaced */
static xmlFreeFunc saved_free;
static xmlMallocFunc saved_malloc;
static xmlReallocFunc saved_realloc;
static xmlStrdupFunc saved_strdup;
static size_t asked; /* bytes asked for since the last look */
static char message[PATH_MAX + 128];
static size_t message_len;

/* The resident size in bytes, or -1. */
static long long resident(void)
{
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    char text[128];
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0)
        return -1;
    text[n] = '\0';
    unsigned long long size, pages;
    if (sscanf(text, "%llu %llu", &size, &pages) != 2)
        return -1;
    return (long long)pages * sysconf(_SC_PAGESIZE);
}

static void asking(size_t n)
{
    asked += n;
    if (asked < CHECK_BYTES)
        return;
    asked = 0;
    if (resident() > limit) {
        ssize_t w = write(STDERR_FILENO, message, message_len);
        (void)w;
        _exit(EXIT_INVALID);
    }
}

#if KEEP_BLOCKS
/* Freed blocks by size class, each linked through its first word: class c
 * holds blocks of at least 16c + 8 usable bytes (glibc's sizes: 24, 40,
 * 56, ...). Larger blocks are rare and go back to free. */
#define KEPT_CLASSES 32
static void *kept_blocks[KEPT_CLASSES];
#endif

static void *limited_malloc(size_t n)
{
#if KEEP_BLOCKS
    size_t c = (n + 7) >> 4;
    if (c < KEPT_CLASSES) {
        c += c == 0;
        void *p = kept_blocks[c];
        if (p) {
            kept_blocks[c] = *(void **)p;
            return p;
        }
        n = 16 * c + 8; /* freed, it comes back to class c */
    }
#endif
    if (limit)
        asking(n);
    return malloc(n);
}

static void limited_free(void *p)
{
#if KEEP_BLOCKS
    if (!p)
        return;
    /* at least 8 (valgrind's malloc answers the size asked for) */
    size_t u = malloc_usable_size(p);
    size_t c = (u - 8) >> 4;
    if (u >= 8 && c < KEPT_CLASSES) {
        *(void **)p = kept_blocks[c];
        kept_blocks[c] = p;
        return;
    }
#endif
    free(p);
}

/* The kept blocks back to free. */
static void release_blocks(void)
{
#if KEEP_BLOCKS
    for (size_t c = 0; c < KEPT_CLASSES; c++) {
        while (kept_blocks[c]) {
            void *p = kept_blocks[c];
            kept_blocks[c] = *(void **)p;
            free(p);
        }
    }
#endif
}

static void *limited_realloc(void *p, size_t n)
{
    if (limit)
        asking(n);
    return realloc(p, n);
}

static char *limited_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = limited_malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

void start_memory_limit(const char *templates)
{
    long long now = resident();
    int n = snprintf(message, sizeof message,
                     "%s: error: the templates took more than %d MiB of memory; "
                     "one that grows without end?\n",
                     templates, (int)(DOCS_MAX_MEMORY >> 20));
    message_len = n < 0 ? 0 : (size_t)n < sizeof message ? (size_t)n : sizeof message - 1;
    asked = 0;
    limit = now < 0 ? 0 : now + DOCS_MAX_MEMORY;
    if (!hooked && xmlMemGet(&saved_free, &saved_malloc, &saved_realloc, &saved_strdup) == 0 &&
        xmlMemSetup(limited_free, limited_malloc, limited_realloc, limited_strdup) == 0)
        hooked = true;
}

void stop_memory_limit(void)
{
    limit = 0;
    if (hooked && xmlMemSetup(saved_free, saved_malloc, saved_realloc, saved_strdup) == 0)
        hooked = false;
    if (!hooked && !keeping_until_exit())
        release_blocks();
}
