/* Memory a run would free just before it exits is left to the exit:
 * freeing the spec's document node by node, its model and the HTML page's
 * result tree cost 50M instructions, for memory the process hands back a
 * moment later (clang's cc1 does the same). What is kept stays pointed to
 * from here, so no leak checker calls it lost; with JVMTIGEN_FREE_AT_EXIT=1
 * it is freed at once, and the memcheck suite sees every allocation given
 * back. */
#ifndef JVMTIGEN_KEEP_H
#define JVMTIGEN_KEEP_H

#include <libxml/tree.h>

#include "base/util.h"

bool keeping_until_exit(void);            /* false under JVMTIGEN_FREE_AT_EXIT=1 */
void keep_doc_until_exit(xmlDocPtr doc);  /* else xmlFreeDoc */
void keep_arena_until_exit(Arena *arena); /* else arena_free */

#endif
