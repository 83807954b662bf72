/* The templates' memory. A template can grow without end (a string doubled
 * at each of 40 calls) and would take the machine's memory long before
 * --time-limit. While the templates run, libxml2's and libxslt's
 * allocations go through here (xmlMemSetup in start_memory_limit). The
 * process's resident memory may not grow by more than DOCS_MAX_MEMORY over
 * what it was when they started: past it this process says so and exits 1,
 * as at the time limit (nothing has been written yet). Only the templates
 * are watched: hooks over the spec's parse and the C outputs cost them 4%
 * of their instructions (make bench, issue 37). A default run's templates
 * add under 40 MB on the JDK 25 spec; the hostile suite's spec of 100,000
 * constants about 520 MB (1.6 GB under AddressSanitizer, whose redzones and
 * quarantine the limit must leave room for).
 *
 * The resident size is read (/proc/self/statm) after every 16 MiB asked
 * for (memory cannot grow by more than is asked for), so the limit is
 * passed by at most about that much; counting each block's size instead
 * cost 7% of the docs' instructions, this 1.3%. Without /proc there is no
 * limit.
 *
 * The templates' small blocks (up to 1 KiB) come from an arena of their
 * own: pages of one size each, cut in order, and the blocks freed kept by
 * size for the next allocations. libxslt allocates and frees about a
 * million small blocks on the JDK 25 spec (XPath objects, node sets, text
 * nodes), many at a time, past what glibc's per-size cache holds (7
 * blocks): glibc's malloc and free cost 160 instructions a pair, its
 * blocks kept and reused about 30 (the size asked of malloc_usable_size),
 * the arena's about 26 (malloc 14, free 12: their fast paths test only
 * the size and the address); and the 190,000 blocks that stay (the result
 * trees) cost about 140 each from glibc, a few from a page (JDK 25, default
 * run: 559.9M -> 522.2M instructions; issue 37). An arena block lives past
 * the templates (the result trees kept for the exit): the hooks then stay,
 * free handing arena blocks back to the arena (its address tells) and
 * everything else to glibc, new blocks glibc's. Larger blocks, and any
 * once the arena's reserve is used up, are glibc's throughout. Under
 * AddressSanitizer there is no arena (every block glibc's, for its
 * use-after-free checks) and the hooks go when the templates end. */
#define _DEFAULT_SOURCE
#include "docs/state.h"

#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libxml/xmlmemory.h>

#include "base/status.h"

#if defined(__SANITIZE_ADDRESS__)
#define ASAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN_BUILD 1
#endif
#endif
#if defined(__GLIBC__) && !defined(ASAN_BUILD)
#define TEMPLATE_ARENA 1
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

/* Without the arena: glibc's blocks, the memory watched. */
static void *watched_malloc(size_t n)
{
    if (limit)
        asking(n);
    return malloc(n);
}

static void *watched_realloc(void *p, size_t n)
{
    if (limit)
        asking(n);
    return realloc(p, n);
}

/* xmlStrdup through the given malloc. */
static char *strdup_by(void *(*alloc)(size_t), const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = alloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

static char *watched_strdup(const char *s) { return strdup_by(watched_malloc, s); }

#if TEMPLATE_ARENA
/* The arena: address space reserved once, made writable CHUNK bytes at a
 * time and cut into pages of PAGE bytes, each page holding blocks of one
 * size class (class c: 16(c + 1) bytes). A block's class is its page's, so
 * a block needs no header and free finds it by its address. Freed blocks
 * wait by class, linked through their first word, for the next
 * allocation of that class; larger blocks are glibc's.
 *
 * The hooks are the arena's only while it is there (block_free is never
 * asked about a NULL arena) and block_malloc only while the templates run
 * (its fast path asks nothing else): each is a handful of instructions,
 * a million calls on the JDK 25 spec. */
#if SIZE_MAX > 0xffffffffu
#define ARENA_SIZE ((size_t)4 << 30)
#else
#define ARENA_SIZE ((size_t)512 << 20) /* of a 32-bit address space */
#endif
#define PAGE_SHIFT 16
#define PAGE ((size_t)1 << PAGE_SHIFT)
#define CHUNK ((size_t)16 << 20)
#define CLASSES 64 /* up to 1024 bytes */
static char *arena, *arena_top, *arena_writable;
static bool in_templates; /* block_realloc's new blocks come from the arena */
static unsigned char page_class[ARENA_SIZE >> PAGE_SHIFT];
static void *kept_blocks[CLASSES];
static char *bump[CLASSES], *bump_end[CLASSES];

static bool in_arena(const void *p) { return (uintptr_t)p - (uintptr_t)arena < ARENA_SIZE; }

static void arena_reserve(void)
{
    if (arena)
        return;
    void *m = mmap(NULL, ARENA_SIZE + PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (m == MAP_FAILED)
        return;
    arena = (char *)(((uintptr_t)m + PAGE - 1) & ~(uintptr_t)(PAGE - 1));
    arena_top = arena_writable = arena;
}

/* A new page for class c, or NULL (the arena is full). */
static char *new_page(size_t c)
{
    if (arena_top == arena_writable) {
        if ((size_t)(arena_writable - arena) + CHUNK > ARENA_SIZE ||
            mprotect(arena_writable, CHUNK, PROT_READ | PROT_WRITE) != 0)
            return NULL;
        if (limit)
            asking(CHUNK);
        arena_writable += CHUNK;
    }
    char *page = arena_top;
    arena_top += PAGE;
    page_class[(size_t)(page - arena) >> PAGE_SHIFT] = (unsigned char)c;
    bump[c] = page;
    bump_end[c] = page + PAGE;
    return page;
}

static size_t arena_block_size(const void *p)
{
    return 16 * ((size_t)page_class[(size_t)((const char *)p - arena) >> PAGE_SHIFT] + 1);
}

/* What block_malloc's fast path leaves: a new page, or glibc's block. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void *
malloc_slow(size_t n)
{
    size_t c = (n - 1) >> 4;
    if (c < CLASSES && new_page(c)) {
        void *p = bump[c];
        bump[c] += 16 * (c + 1);
        return p;
    }
    return watched_malloc(n);
}

/* (n - 1) >> 4 puts 0 bytes past the classes: glibc's block. */
static void *block_malloc(size_t n)
{
    size_t c = (n - 1) >> 4;
    if (c < CLASSES) {
        void *p = kept_blocks[c];
        if (p) {
            kept_blocks[c] = *(void **)p;
            return p;
        }
        char *b = bump[c];
        if ((size_t)(bump_end[c] - b) >= 16 * (c + 1)) {
            bump[c] = b + 16 * (c + 1);
            return b;
        }
    }
    return malloc_slow(n);
}

static void block_free(void *p)
{
    size_t off = (uintptr_t)p - (uintptr_t)arena;
    if (off < ARENA_SIZE) {
        size_t c = page_class[off >> PAGE_SHIFT];
        *(void **)p = kept_blocks[c];
        kept_blocks[c] = p;
        return;
    }
    free(p);
}

static void *block_realloc(void *p, size_t n)
{
    if (in_arena(p)) {
        size_t old = arena_block_size(p);
        if (n <= old)
            return p;
        void *q = in_templates ? block_malloc(n) : malloc(n);
        if (q) {
            memcpy(q, p, old);
            block_free(p);
        }
        return q;
    }
    return watched_realloc(p, n);
}

static char *block_strdup(const char *s) { return strdup_by(block_malloc, s); }
#endif

/* Replaces libxml2's allocation functions, the first time saving its own. */
static void hook(xmlFreeFunc f, xmlMallocFunc m, xmlReallocFunc r, xmlStrdupFunc d)
{
    if (!hooked && xmlMemGet(&saved_free, &saved_malloc, &saved_realloc, &saved_strdup) != 0)
        return;
    if (xmlMemSetup(f, m, r, d) == 0)
        hooked = true;
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
#if TEMPLATE_ARENA
    arena_reserve();
    if (arena) {
        in_templates = true;
        hook(block_free, block_malloc, block_realloc, block_strdup);
        return;
    }
#endif
    hook(free, watched_malloc, watched_realloc, watched_strdup);
}

void stop_memory_limit(void)
{
    limit = 0;
#if TEMPLATE_ARENA
    /* The arena's blocks outlive the templates (the result trees kept for
     * the exit): xmlFree still knows them, new blocks glibc's again. */
    in_templates = false;
    if (arena && hooked) {
        hook(block_free, saved_malloc, block_realloc, saved_strdup);
        return;
    }
#endif
    if (hooked && xmlMemSetup(saved_free, saved_malloc, saved_realloc, saved_strdup) == 0)
        hooked = false;
}
