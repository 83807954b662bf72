/* A run's memory is short-lived and mostly touched once: the spec's text,
 * its tree, the model, the outputs' buffers and the docs' result trees, about
 * 30 MB in all. On the machine make bench runs on, the first touch of a page
 * costs 14 us, so page faults were half of a default run's wall time (7,000
 * of them on the JDK 25 spec). With the heap in 2 MB pages a run takes 600
 * to 1,000 faults (fewer when the kernel has huge pages free) and half the
 * time.
 *
 * glibc can do this itself (the glibc.malloc.hugetlb tunable), but only when
 * asked through the environment before the program starts. Here the heap is
 * grown once by a large pad and that range advised, which is what the tunable
 * does for each growth. Where the kernel's THP mode is "never" the advice is
 * ignored; under a sanitizer or valgrind malloc is not glibc's and the heap
 * does not grow, so nothing is advised. */
#define _DEFAULT_SOURCE
#include "base/heap.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#define HUGE_PAGE ((uintptr_t)2 << 20)

void heap_setup(void)
{
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD) && defined(M_TOP_PAD)
    /* Large blocks from the heap, and freed memory kept there: the spec's
     * text, freed after the parse, becomes the outputs' buffers instead of
     * going back to the system while they take fresh pages. */
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
#if defined(MADV_HUGEPAGE)
    /* One growth covers a whole run (a default run on JDK 25 peaks under
     * 40 MB); the pad is address space, and a page is only backed once
     * touched. Later growths, if any, use the default pad. */
    mallopt(M_TOP_PAD, 64 << 20);
    /* Larger than what a heap already set up can have spare (glibc's pad
     * is 128 KB), so the heap grows here, by the pad. */
    uintptr_t before = (uintptr_t)sbrk(0);
    void *volatile probe = malloc(1 << 20); /* volatile: kept, not elided */
    uintptr_t after = (uintptr_t)sbrk(0);
    free(probe);
    mallopt(M_TOP_PAD, 128 << 10); /* glibc's default */
    if (before == (uintptr_t)-1 || after <= before)
        return;
    uintptr_t start = (before + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t end = after & ~(HUGE_PAGE - 1);
    if (end > start)
        madvise((void *)start, end - start, MADV_HUGEPAGE); /* advice only */
#endif
#endif
}
