/* `jvmtigen --verify`: whether the files in the output directory are what
 * the spec generates now, for projects that commit generated files. Each
 * file that differs is shown as a unified diff (udiff.h) from the file on
 * disk to the file jvmtigen would write. Nothing is written. */
#ifndef JVMTIGEN_VERIFY_H
#define JVMTIGEN_VERIFY_H

#include <stddef.h>

#include "base/util.h"

/* Compares the file at path with data. When they differ, appends
 *     --- PATH                    (or "--- PATH<TAB>(missing)")
 *     +++ PATH<TAB>(generated)
 * and the hunks to out. Returns 1 if they differ (a missing file does),
 * 0 if not, -1 if the file cannot be read (a diagnostic is queued). */
int verify_file(const char *path, const char *data, size_t len, Buf *out);

/* A file a run would remove (a stale man page): "+++ PATH<TAB>(removed)"
 * and its every line as deleted. 1, or -1 if it cannot be read. */
int verify_removed(const char *path, Buf *out);

#endif
