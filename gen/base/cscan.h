/* A small scanner of C source, enough for `fill` to find the top-level
 * function definitions of a hand-written file without changing a byte of it.
 *
 * It splits the text into tokens (identifiers, numbers, string and character
 * literals, punctuators), skipping whitespace, comments (recorded, with their
 * offsets) and preprocessor directives (with backslash continuations and
 * comments inside them). It tracks brace depth; a definition is a `{` at
 * depth 0 whose preceding tokens end in NAME ( ... ) -- optionally followed
 * by __attribute__((...)) -- and its body runs to the matching `}`. A
 * prototype, which ends in `;`, is not a definition. The braces of
 * `extern "C" { ... }` do not count as depth. It is not a C parser: macros
 * are not expanded, and a declaration is taken to start after the last `;`,
 * top-level `}` or directive before it. */
#ifndef JVMTIGEN_CSCAN_H
#define JVMTIGEN_CSCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

typedef enum CTokKind { CT_IDENT, CT_NUMBER, CT_STRING, CT_CHAR, CT_PUNCT } CTokKind;

typedef struct CTok {
    CTokKind kind;
    size_t off, len; /* bytes of the token in the text */
    int line;        /* 1-based line of its first byte */
} CTok;

typedef struct CComment {
    size_t off, end; /* from the opening slash to just after the comment */
    int line;
} CComment;

typedef struct CFuncDef {
    size_t first;          /* token index where the declaration starts */
    size_t name;           /* token index of the function's name */
    size_t lparen, rparen; /* token indexes of the parameter list's parentheses */
    size_t lbrace, rbrace; /* token indexes of the body's braces */
} CFuncDef;

typedef struct CScan {
    const char *text;
    size_t len;
    CTok *toks;
    size_t n_toks;
    CComment *comments; /* outside preprocessor directives, in text order */
    size_t n_comments;
    CFuncDef *defs; /* top-level function definitions, in text order */
    size_t n_defs;
    /* when cscan() fails: what and where */
    const char *error;
    int error_line;
} CScan;

/* Scans text[0..len). Returns false (with error and error_line set) for an
 * unterminated comment, string or character literal, a '}' without its '{'
 * or a '{' never closed. Always free the result with cscan_free. */
bool cscan(CScan *s, const char *text, size_t len);
void cscan_free(CScan *s);

/* Whether token i spells exactly str. */
bool ctok_is(const CScan *s, size_t i, const char *str);

/* A definition's signature reduced to its types: the return type's tokens,
 * then each parameter's tokens without the parameter's name, one space between
 * tokens: "jvmtiError ( jvmtiEnv * , jint * )". Whitespace, comments and
 * names do not matter. A parameter's name is its last token when it has more
 * than one, and that token is an identifier other than a type keyword (int,
 * char, const, ...). A leading `extern` is left out of the return type. */
void cscan_signature_key(const CScan *s, const CFuncDef *d, Buf *out);

/* Whether the scanned text is only declarations of types, as a spec's base
 * type definition must be (it goes into jvmti.h as written): each top-level
 * declaration starts with `typedef`, or is a struct, union or enum with no
 * declarator (`struct T;`, `struct T { ... };`); a '{' only opens a struct,
 * union or enum body, so nothing executable fits; '=' only inside an enum
 * body; no attribute (`__attribute__`, `__declspec`, `[[`), no `asm`, no
 * `_Pragma`, no storage class or `inline`, no digraph. NULL if so; else
 * what is wrong, with *tok the index of the token at fault. Preprocessor
 * directives are not tokens: the caller refuses them. */
const char *cscan_type_decls_problem(const CScan *s, size_t *tok);

#endif
