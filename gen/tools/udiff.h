/* Unified diffs of two texts, line by line, for `jvmtigen --verify`: the
 * hunks `diff -u` would print, so `patch` applies them. Lines are compared
 * as bytes, newline included (a last line without one differs from the
 * same line with one, and is marked "\ No newline at end of file").
 *
 * The edit script comes from Myers' O(ND) algorithm, in linear space
 * (divide and conquer on the middle snake), after the common prefix and
 * suffix are set aside and lines that occur in only one text are taken as
 * deleted or inserted outright: two unrelated 1 MB files cost no more than
 * reading them. The script is always correct (applying it turns a into b);
 * it is minimal except where a line found in only one text would have
 * paired with nothing anyway. */
#ifndef JVMTIGEN_UDIFF_H
#define JVMTIGEN_UDIFF_H

#include <stddef.h>

#include "base/util.h"

/* Appends the "@@ -l,n +l,n @@" hunks that turn a into b, with `context`
 * lines of context; nothing when they are equal. Returns the number of
 * hunks. */
size_t udiff_hunks(const char *a, size_t alen, const char *b, size_t blen, int context, Buf *out);

#endif
