/* From the validated XML tree to the typed model (model.h). The builder
 * trusts nothing the DTD was supposed to guarantee -- a document brings its
 * own DTD -- so every structural surprise is an error with a line. */
#ifndef JVMTIGEN_BUILD_H
#define JVMTIGEN_BUILD_H

#include <libxml/tree.h>

#include "model/model.h"

/* Returns NULL only when out of memory; problems are queued as diagnostics. */
Spec *build_spec(xmlDocPtr doc, const char *file);

#endif
