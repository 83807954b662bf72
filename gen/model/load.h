/* Reading a spec: libxml2 parses and validates it against the DTD it carries
 * (inline, or a local regular file named by its DOCTYPE). Nothing is fetched
 * from the network and no external entity is read: the only file opened
 * besides the spec is its own external DTD subset. Both are read into memory
 * by jvmtigen itself, so a compressed file is not unpacked and a device or a
 * pipe is not read. libxml2's entity-expansion limits stay on (no
 * XML_PARSE_HUGE), an entity may expand to LOAD_MAX_ENTITY_SIZE bytes at
 * most, and a load stops after LOAD_MAX_ERRORS errors. */
#ifndef JVMTIGEN_LOAD_H
#define JVMTIGEN_LOAD_H

#include <stddef.h>

#include <libxml/tree.h>

#include "base/util.h"

enum { LOAD_OK = 0, LOAD_INVALID = 1, LOAD_IO = 3 };

/* Errors from the XML parser after which a load gives up (a damaged file can
 * make one error per element, far more bytes than the file itself). */
#define LOAD_MAX_ERRORS 100
/* Attributes (and namespace declarations) one element may have: libxml2
 * builds an element's attribute list in time quadratic in their number
 * (50,000 attributes took a minute). The JDK's specs use at most 8. */
#define LOAD_MAX_ATTRIBUTES 256
/* The most text one internal entity may expand to, the entities it names
 * included. libxml2 2.9 limits expansion only by its ratio to the input
 * read, and checks late: an attribute naming a 300 KB entity four times
 * took seconds. The JDK's specs declare no entities at all. */
#define LOAD_MAX_ENTITY_SIZE 65536

/* On LOAD_OK *doc is set (free with xmlFreeDoc). Diagnostics are queued.
 * Every file read is appended to deps (malloc'd strings) when deps != NULL. */
int load_spec(const char *path, xmlDocPtr *doc, Vec *deps);

/* The same for a spec already in memory: name is what diagnostics call it
 * and what a relative DTD name is resolved against, as if the bytes had
 * been read from the file `name`. Only the DTD is read from disk. */
int load_spec_memory(const char *name, const char *data, size_t len, xmlDocPtr *doc, Vec *deps);

#endif
