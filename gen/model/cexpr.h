/* A constant's num as C reads it in an enumerator: integer literals, earlier
 * constants (each an int), parentheses, unary + - ~ and binary << >> & ^ |
 * + -, with C's types (int, unsigned int, 64-bit signed and unsigned),
 * promotions and conversions. What C leaves undefined (signed overflow, a
 * shift by a negative count or by the width or more, a negative value
 * shifted left), or implementation-defined (a negative value shifted
 * right), is refused, as is a result that does not fit an int. */
#ifndef JVMTIGEN_CEXPR_H
#define JVMTIGEN_CEXPR_H

#include <stdbool.h>

#include "base/util.h"

/* Looks up a constant defined before (NULL: there are none): true with its value, or true with
 * *known false when it is defined but its own value was refused (no
 * further error about it), false when it is not defined. */
typedef bool (*CexprLookup)(void *ctx, const char *name, long long *value, bool *known);

typedef enum CexprStatus {
    CEXPR_OK,      /* *value is the int C computes */
    CEXPR_UNKNOWN, /* it uses a constant whose value was refused: nothing more to say */
    CEXPR_ERROR,   /* why holds the reason, to follow "constant 'ID': " */
} CexprStatus;

/* lookup may be NULL. */
CexprStatus cexpr_eval(const char *text, CexprLookup lookup, void *ctx, long long *value, Buf *why);

#endif
