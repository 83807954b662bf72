/* Reading a spec: libxml2 parses and validates it against the DTD it carries
 * (inline, or a local file named by its DOCTYPE). Nothing is fetched from the
 * network and no external entity is read: the only file opened besides the
 * spec is its own external DTD subset. libxml2's entity-expansion limits stay
 * on (no XML_PARSE_HUGE). */
#ifndef JVMTIGEN_LOAD_H
#define JVMTIGEN_LOAD_H

#include <libxml/tree.h>

#include "util.h"

enum { LOAD_OK = 0, LOAD_INVALID = 1, LOAD_IO = 3 };

/* On LOAD_OK *doc is set (free with xmlFreeDoc). Diagnostics are queued.
 * Every file read is appended to deps (malloc'd strings) when deps != NULL. */
int load_spec(const char *path, xmlDocPtr *doc, Vec *deps);

#endif
