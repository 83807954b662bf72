/* What the documentation's templates may read (render.c): files below the
 * templates directory and the spec's own files (the spec and its DTD),
 * nothing else, and nothing over the network. One gate for every way a
 * template names another resource: libxml2's external entity loader (the
 * stylesheets themselves, xsl:include and xsl:import, document(), DTDs and
 * external entities) and libxslt's security preferences (read rights,
 * checked before anything is opened; no writes). The loader reads the file
 * it judged itself (a regular file, at most 16 MiB) rather than handing the
 * URL to libxml2, which may open another. Every file read is added to the
 * run's dependencies. */
#ifndef JVMTIGEN_SANDBOX_H
#define JVMTIGEN_SANDBOX_H

#include <stdbool.h>

#include <libxslt/security.h>

#include "base/util.h"

/* Told of each refusal: where the template named the resource (file NULL
 * and line 0 when the library does not say) and the message; a warning
 * for a file that is not there (document() then gives an empty node-set,
 * as XSLT lets it), else an error. */
typedef void (*SandboxRefused)(const char *file, int line, bool warning, const char *message);

/* From here on reading is limited to below templates and to the files
 * already in deps (what reading the spec read); files read are appended
 * to deps (malloc'd), each once. Stylesheets are read into dict (NULL: a
 * dictionary of their own). */
void sandbox_open(const char *templates, Vec *deps, SandboxRefused refused, xmlDictPtr dict);
/* The preferences to give each transformation context (document()'s read
 * rights; no writes). Compiling needs none: the loader gates it. */
xsltSecurityPrefsPtr sandbox_prefs(void);
/* NULL when the templates may read url, with *path the one file the
 * loader opens for it (malloc'd); else why not (*path NULL or the file it
 * names). Between sandbox_open and sandbox_close. */
const char *sandbox_judge(const char *url, char **path);
/* Back to libxml2's and libxslt's defaults. */
void sandbox_close(void);

#endif
