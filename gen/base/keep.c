#include "base/keep.h"

#include <stdlib.h>
#include <string.h>

/* volatile: stores never read are not optimised away, and a pointer to
 * each block's start keeps it reachable, not "possibly lost". */
static void *volatile kept[8];

static bool free_now(void)
{
    const char *e = getenv("JVMTIGEN_FREE_AT_EXIT");
    return e && strcmp(e, "1") == 0;
}

bool keeping_until_exit(void) { return !free_now(); }

/* False when the caller must free P itself. */
static bool keep(void *p)
{
    if (free_now())
        return false;
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++) {
        if (!kept[i]) {
            kept[i] = p;
            return true;
        }
    }
    return false;
}

void keep_doc_until_exit(xmlDocPtr doc)
{
    if (doc && !keep(doc))
        xmlFreeDoc(doc);
}

void keep_arena_until_exit(Arena *arena)
{
    if (arena && !keep(arena))
        arena_free(arena);
}
