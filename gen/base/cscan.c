#include "base/cscan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return p;
    *cap = *cap ? *cap * 2 : 64;
    p = xrealloc(p, *cap * size);
    return p;
}

typedef struct Brace {
    int line;
    bool counts; /* false for the brace of extern "C" { } */
} Brace;

typedef struct Scanner {
    CScan *s;
    const char *t;
    size_t n;
    size_t i;
    int line;
    size_t cap_toks, cap_comments, cap_defs, cap_braces;
    Brace *braces;
    size_t n_braces;
    int depth;         /* braces that count */
    size_t decl_first; /* token index where the current declaration starts */
    bool in_def;
    CFuncDef def;
} Scanner;

static bool fail(Scanner *sc, int line, const char *msg)
{
    sc->s->error = msg;
    sc->s->error_line = line;
    return false;
}

/* Length of a backslash-newline (line splice) at j, or 0. */
static size_t splice_at(const Scanner *sc, size_t j)
{
    if (j < sc->n && sc->t[j] == '\\') {
        if (j + 1 < sc->n && sc->t[j + 1] == '\n')
            return 2;
        if (j + 2 < sc->n && sc->t[j + 1] == '\r' && sc->t[j + 2] == '\n')
            return 3;
    }
    return 0;
}

/* Skips a block comment opening at j; returns the offset after it, or 0 if
 * it is never closed. Counts lines. */
static size_t skip_block_comment(Scanner *sc, size_t j)
{
    for (j += 2; j + 1 < sc->n; j++) {
        if (sc->t[j] == '\n')
            sc->line++;
        else if (sc->t[j] == '*' && sc->t[j + 1] == '/')
            return j + 2;
    }
    return 0;
}

/* Skips a line comment opening at j, up to (not including) the newline that
 * ends it; a backslash-newline continues it. */
static size_t skip_line_comment(Scanner *sc, size_t j)
{
    for (j += 2; j < sc->n; j++) {
        size_t sp = splice_at(sc, j);
        if (sp) {
            sc->line++;
            j += sp - 1;
        } else if (sc->t[j] == '\n') {
            break;
        }
    }
    return j;
}

/* Skips a string or character literal opening at j. strict: an unescaped
 * newline or the end of the text is an error (returns 0); otherwise the
 * literal just ends there (inside a directive). */
static size_t skip_literal(Scanner *sc, size_t j, bool strict)
{
    char q = sc->t[j];
    for (j++; j < sc->n; j++) {
        char c = sc->t[j];
        size_t sp = splice_at(sc, j);
        if (sp) {
            sc->line++;
            j += sp - 1;
        } else if (c == '\\') {
            if (j + 1 < sc->n && sc->t[j + 1] != '\n')
                j++;
        } else if (c == '\n') {
            return strict ? 0 : j;
        } else if (c == q) {
            return j + 1;
        }
    }
    return strict ? 0 : j;
}

/* Skips a preprocessor directive whose '#' is at j, up to (not including) the
 * newline that ends it. 0 for an unterminated comment inside it. */
static size_t skip_directive(Scanner *sc, size_t j)
{
    for (j++; j < sc->n;) {
        char c = sc->t[j];
        size_t sp = splice_at(sc, j);
        if (sp) {
            sc->line++;
            j += sp;
        } else if (c == '\n') {
            break;
        } else if (c == '/' && j + 1 < sc->n && sc->t[j + 1] == '*') {
            int start = sc->line;
            j = skip_block_comment(sc, j);
            if (!j) {
                sc->line = start;
                return 0;
            }
        } else if (c == '/' && j + 1 < sc->n && sc->t[j + 1] == '/') {
            return skip_line_comment(sc, j);
        } else if (c == '"' || c == '\'') {
            j = skip_literal(sc, j, false);
        } else {
            j++;
        }
    }
    return j;
}

static bool is_ident_start(unsigned char c)
{
    return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

static bool is_ident_char(unsigned char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool ctok_is(const CScan *s, size_t i, const char *str)
{
    const CTok *t = &s->toks[i];
    return strlen(str) == t->len && memcmp(s->text + t->off, str, t->len) == 0;
}

/* At a '{' at depth 0 (token b): is it the body of NAME(...)? */
static bool find_def(const CScan *s, size_t first, size_t b, CFuncDef *d)
{
    size_t j = b;
    while (j > first) {
        size_t r = j - 1;
        if (!ctok_is(s, r, ")"))
            return false;
        int pd = 0;
        size_t k = r;
        for (;;) {
            if (ctok_is(s, k, ")"))
                pd++;
            else if (ctok_is(s, k, "(") && --pd == 0)
                break;
            if (k == first)
                return false;
            k--;
        }
        if (k == first)
            return false;
        size_t nm = k - 1;
        if (s->toks[nm].kind != CT_IDENT)
            return false;
        if (ctok_is(s, nm, "__attribute__") || ctok_is(s, nm, "__attribute")) {
            j = nm;
            continue;
        }
        *d = (CFuncDef){.first = first, .name = nm, .lparen = k, .rparen = r, .lbrace = b};
        return true;
    }
    return false;
}

static bool on_token(Scanner *sc, size_t idx)
{
    CScan *s = sc->s;
    const CTok *t = &s->toks[idx];
    if (t->kind != CT_PUNCT || t->len != 1)
        return true;
    char c = s->text[t->off];
    if (c == ';' && sc->depth == 0) {
        sc->decl_first = idx + 1;
    } else if (c == '{') {
        bool counts = true;
        if (sc->depth == 0) {
            size_t f = sc->decl_first;
            if (idx == f + 2 && ctok_is(s, f, "extern") && s->toks[f + 1].kind == CT_STRING)
                counts = false;
            else if (find_def(s, f, idx, &sc->def))
                sc->in_def = true;
        }
        sc->braces = grow(sc->braces, &sc->cap_braces, sc->n_braces, sizeof *sc->braces);
        sc->braces[sc->n_braces++] = (Brace){t->line, counts};
        if (counts)
            sc->depth++;
        else
            sc->decl_first = idx + 1;
    } else if (c == '}') {
        if (sc->n_braces == 0)
            return fail(sc, t->line, "'}' without a matching '{'");
        if (sc->braces[--sc->n_braces].counts)
            sc->depth--;
        if (sc->depth == 0) {
            if (sc->in_def) {
                sc->def.rbrace = idx;
                s->defs = grow(s->defs, &sc->cap_defs, s->n_defs, sizeof *s->defs);
                s->defs[s->n_defs++] = sc->def;
                sc->in_def = false;
            }
            sc->decl_first = idx + 1;
        }
    }
    return true;
}

static bool scan(Scanner *sc)
{
    CScan *s = sc->s;
    const char *t = sc->t;
    bool bol = true; /* only whitespace and comments so far on this line */
    while (sc->i < sc->n) {
        size_t i = sc->i;
        char c = t[i];
        size_t sp = splice_at(sc, i);
        if (c == '\n') {
            sc->line++;
            sc->i++;
            bol = true;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            sc->i++;
            continue;
        }
        if (sp) {
            sc->line++;
            sc->i += sp;
            continue;
        }
        if (c == '/' && i + 1 < sc->n && (t[i + 1] == '*' || t[i + 1] == '/')) {
            int line = sc->line;
            size_t end = t[i + 1] == '*' ? skip_block_comment(sc, i) : skip_line_comment(sc, i);
            if (!end)
                return fail(sc, line, "unterminated comment");
            s->comments = grow(s->comments, &sc->cap_comments, s->n_comments, sizeof *s->comments);
            s->comments[s->n_comments++] = (CComment){i, end, line};
            sc->i = end;
            continue;
        }
        if (c == '#' && bol) {
            int line = sc->line;
            size_t end = skip_directive(sc, i);
            if (!end)
                return fail(sc, line, "unterminated comment");
            sc->i = end;
            sc->decl_first = s->n_toks;
            continue;
        }
        bol = false;
        CTok tok = {CT_PUNCT, i, 1, sc->line};
        if (is_ident_start((unsigned char)c)) {
            size_t j = i + 1;
            while (j < sc->n && is_ident_char((unsigned char)t[j]))
                j++;
            tok.kind = CT_IDENT;
            tok.len = j - i;
        } else if (is_digit(c) || (c == '.' && i + 1 < sc->n && is_digit(t[i + 1]))) {
            size_t j = i + 1;
            while (j < sc->n) {
                char d = t[j];
                if ((d == '+' || d == '-') && strchr("eEpP", t[j - 1]))
                    j++;
                else if (d == '\'' && j + 1 < sc->n && is_ident_char((unsigned char)t[j + 1]))
                    j += 2;
                else if (is_ident_char((unsigned char)d) || d == '.')
                    j++;
                else
                    break;
            }
            tok.kind = CT_NUMBER;
            tok.len = j - i;
        } else if (c == '"' || c == '\'') {
            size_t end = skip_literal(sc, i, true);
            if (!end)
                return fail(sc, tok.line,
                            c == '"' ? "unterminated string literal"
                                     : "unterminated character constant");
            tok.kind = c == '"' ? CT_STRING : CT_CHAR;
            tok.len = end - i;
        } else if (c == '.' && i + 2 < sc->n && t[i + 1] == '.' && t[i + 2] == '.') {
            tok.len = 3;
        }
        s->toks = grow(s->toks, &sc->cap_toks, s->n_toks, sizeof *s->toks);
        s->toks[s->n_toks++] = tok;
        sc->i = i + tok.len;
        if (!on_token(sc, s->n_toks - 1))
            return false;
    }
    if (sc->n_braces) {
        /* The outermost brace that counts is the likeliest culprit: a body
         * missing its '}' swallows the rest of the file. */
        const Brace *b = &sc->braces[0];
        for (size_t k = 0; k < sc->n_braces; k++)
            if (sc->braces[k].counts) {
                b = &sc->braces[k];
                break;
            }
        return fail(sc, b->line, "'{' without a matching '}'");
    }
    return true;
}

bool cscan(CScan *s, const char *text, size_t len)
{
    memset(s, 0, sizeof *s);
    s->text = text;
    s->len = len;
    Scanner sc = {.s = s, .t = text, .n = len, .line = 1};
    bool ok = scan(&sc);
    free(sc.braces);
    return ok;
}

void cscan_free(CScan *s)
{
    free(s->toks);
    free(s->comments);
    free(s->defs);
    memset(s, 0, sizeof *s);
}

static bool is_type_keyword(const CScan *s, size_t i)
{
    static const char *const words[] = {
        "void",   "char",     "short",    "int",        "long",         "float",
        "double", "signed",   "unsigned", "_Bool",      "_Complex",     "_Imaginary",
        "const",  "volatile", "restrict", "__restrict", "__restrict__", "_Atomic",
    };
    for (size_t k = 0; k < sizeof words / sizeof *words; k++)
        if (ctok_is(s, i, words[k]))
            return true;
    return false;
}

static void put_tok(const CScan *s, size_t i, Buf *out)
{
    if (out->len && out->data[out->len - 1] != ' ')
        buf_putc(out, ' ');
    buf_put(out, s->text + s->toks[i].off, s->toks[i].len);
}

static void put_param(const CScan *s, size_t a, size_t b, Buf *out)
{
    if (b - a > 1 && s->toks[b - 1].kind == CT_IDENT && !is_type_keyword(s, b - 1))
        b--;
    for (size_t i = a; i < b; i++)
        put_tok(s, i, out);
}

void cscan_signature_key(const CScan *s, const CFuncDef *d, Buf *out)
{
    size_t start = out->len;
    for (size_t i = d->first; i < d->name; i++)
        if (!(i == d->first && ctok_is(s, i, "extern")))
            put_tok(s, i, out);
    if (out->len > start)
        buf_putc(out, ' ');
    buf_putc(out, '(');
    size_t a = d->lparen + 1;
    int depth = 0;
    for (size_t i = a; i < d->rparen; i++) {
        if (ctok_is(s, i, "(") || ctok_is(s, i, "["))
            depth++;
        else if (ctok_is(s, i, ")") || ctok_is(s, i, "]"))
            depth--;
        else if (depth == 0 && ctok_is(s, i, ",")) {
            put_param(s, a, i, out);
            buf_puts(out, " ,");
            a = i + 1;
        }
    }
    put_param(s, a, d->rparen, out);
    buf_puts(out, " )");
}

/* Words that make a declaration more than the declaration of a type:
 * attributes, assembly, pragmas, storage classes and function specifiers. */
static bool is_forbidden_word(const CScan *s, size_t i)
{
    static const char *const words[] = {
        "__attribute__", "__attribute", "__declspec",     "asm",           "__asm",
        "__asm__",       "_Pragma",     "__pragma",       "static",        "extern",
        "auto",          "register",    "_Thread_local",  "thread_local",  "__thread",
        "inline",        "__inline",    "__inline__",     "_Noreturn",     "__forceinline",
        "_Alignas",      "alignas",     "_Static_assert", "static_assert",
    };
    for (size_t k = 0; k < sizeof words / sizeof *words; k++)
        if (ctok_is(s, i, words[k]))
            return true;
    return false;
}

static bool is_tag_word(const CScan *s, size_t i)
{
    return ctok_is(s, i, "struct") || ctok_is(s, i, "union") || ctok_is(s, i, "enum");
}

/* Whether tokens i and i+1 are punctuators a, b with nothing between them. */
static bool adjacent(const CScan *s, size_t i, char a, char b)
{
    return i + 1 < s->n_toks && ctok_is(s, i, (char[]){a, 0}) &&
           ctok_is(s, i + 1, (char[]){b, 0}) && s->toks[i].off + 1 == s->toks[i + 1].off;
}

const char *cscan_type_decls_problem(const CScan *s, size_t *tok)
{
    /* The kind of each open brace: true for an enum body (its '=' give
     * enumerators their values). Nesting is as deep as the text. */
    bool *is_enum = xcalloc(s->n_toks + 1, sizeof *is_enum);
    size_t depth = 0, first = 0; /* first token of the current top-level declaration */
    const char *why = NULL;
    size_t i;
    for (i = 0; i < s->n_toks && !why; i++) {
        if (is_forbidden_word(s, i))
            why = "it has an attribute, asm, _Pragma, a storage class or a function specifier";
        else if (adjacent(s, i, '[', '['))
            why = "it has an attribute ('[[')";
        else if (adjacent(s, i, '<', ':') || adjacent(s, i, ':', '>') || adjacent(s, i, '<', '%'))
            why = "it has a digraph";
        else if (depth == 0 && i == first && !ctok_is(s, i, "typedef") && !is_tag_word(s, i))
            why = "a declaration starts with neither 'typedef' nor struct, union or enum";
        else if (ctok_is(s, i, "{")) {
            size_t tag =
                i >= 1 && s->toks[i - 1].kind == CT_IDENT && !is_tag_word(s, i - 1) ? i - 1 : i;
            if (tag == 0 || !is_tag_word(s, tag - 1))
                why = "a '{' opens something other than a struct, union or enum body (code)";
            else
                is_enum[++depth] = ctok_is(s, tag - 1, "enum");
        } else if (ctok_is(s, i, "}")) {
            depth--;
            /* `struct T { ... };` declares no object: only `;` may follow */
            if (depth == 0 && !ctok_is(s, first, "typedef") &&
                (i + 1 >= s->n_toks || !ctok_is(s, i + 1, ";")))
                why = "a struct, union or enum without 'typedef' declares more than a type";
        } else if (ctok_is(s, i, "=") && !is_enum[depth])
            why = "it has an '=' outside an enum body (an initialised object)";
        else if (ctok_is(s, i, ";") && depth == 0) {
            /* `struct T;` or `struct T { ... };` (checked at its '}') */
            if (!ctok_is(s, first, "typedef") && i != first + 2 && !ctok_is(s, i - 1, "}"))
                why = "a struct, union or enum without 'typedef' declares more than a type";
            first = i + 1;
        }
    }
    free(is_enum);
    *tok = why ? i - 1 : s->n_toks;
    return why;
}
