/* An LD_PRELOAD library for tests/cli/heap.sh: writes a line for each
 * madvise(MADV_HUGEPAGE) the process makes to $JVMTIGEN_MADVISE_LOG:
 * "hugepage START LENGTH heap" when the range lies inside the [heap]
 * mapping, "hugepage START LENGTH elsewhere" when not. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static int in_heap(uintptr_t start, uintptr_t end)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    if (!maps)
        return 0;
    char line[512];
    int found = 0;
    while (!found && fgets(line, sizeof line, maps)) {
        unsigned long lo, hi;
        if (strstr(line, "[heap]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2)
            found = lo <= start && end <= hi;
    }
    fclose(maps);
    return found;
}

int madvise(void *addr, size_t length, int advice)
{
    static int (*real)(void *, size_t, int);
    if (!real)
        real = (int (*)(void *, size_t, int))dlsym(RTLD_NEXT, "madvise");
    const char *path = getenv("JVMTIGEN_MADVISE_LOG");
    if (advice == MADV_HUGEPAGE && path) {
        uintptr_t start = (uintptr_t)addr;
        FILE *log = fopen(path, "a");
        if (log) {
            fprintf(log, "hugepage %#lx %zu %s\n", (unsigned long)start, length,
                    in_heap(start, start + length) ? "heap" : "elsewhere");
            fclose(log);
        }
    }
    return real(addr, length, advice);
}
