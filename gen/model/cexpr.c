#include "model/cexpr.h"

#include <limits.h>
#include <stdarg.h>
#include <string.h>

/* A value and its C type: int and unsigned int are 32 bits wide, the 64-bit
 * types stand for long and long long alike (a literal without suffix gets
 * the same 64 bits under LP64 and ILP32). `s` holds a signed type's value,
 * `u` an unsigned type's, reduced to its width. */
typedef struct Val {
    long long s;
    unsigned long long u;
    int width; /* 32 or 64 */
    bool uns;
    bool known;    /* false: it uses a constant whose value was refused */
    size_t lo, hi; /* the text it came from */
} Val;

typedef struct Parser {
    const char *text;
    size_t at;
    int depth;
    CexprLookup lookup;
    void *ctx;
    Buf *why;
    bool failed;
} Parser;

/* Parentheses and unary operators nest by recursion: a hostile spec could
 * otherwise nest deep enough to overflow the stack. */
enum { MAX_DEPTH = 200 };

static const char *type_name(const Val *v)
{
    if (v->width == 32)
        return v->uns ? "an unsigned int" : "an int";
    return v->uns ? "a 64-bit unsigned integer" : "a 64-bit signed integer";
}

/* Its value in decimal, into b. */
static const char *value_text(Buf *b, const Val *v)
{
    if (v->uns)
        buf_printf(b, "%llu", v->u);
    else
        buf_printf(b, "%lld", v->s);
    return b->data;
}

static void fail(Parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(Parser *p, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = true;
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(p->why, fmt, ap);
    va_end(ap);
}

static unsigned long long mask(int width) { return width == 64 ? ULLONG_MAX : 0xFFFFFFFFull; }

/* The value converted to another type; C defines every conversion made
 * here (to an unsigned type: modulo 2^width; to a signed one: only from
 * types whose values it holds). */
static Val convert(Val v, int width, bool uns)
{
    if (uns)
        v.u = (v.uns ? v.u : (unsigned long long)v.s) & mask(width);
    else if (v.uns)
        v.s = (long long)v.u;
    v.width = width;
    v.uns = uns;
    return v;
}

/* The usual arithmetic conversions for two operands of rank int or more. */
static void balance(Val *a, Val *b)
{
    int width = a->width > b->width ? a->width : b->width;
    bool uns =
        width == 64 ? (a->width == 64 && a->uns) || (b->width == 64 && b->uns) : a->uns || b->uns;
    *a = convert(*a, width, uns);
    *b = convert(*b, width, uns);
}

static bool signed_fits(long long s, int width)
{
    return width == 64 || (s >= INT_MIN && s <= INT_MAX);
}

static void skip_space(Parser *p)
{
    while (strchr(" \t\r\n", p->text[p->at]) && p->text[p->at])
        p->at++;
}

static bool is_word_char(char c)
{
    return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* The operator at p->at if it is `op` (whole: '<' is not "<<", '&' is not
 * "&&"); consumed when it is. */
static bool take(Parser *p, const char *op)
{
    skip_space(p);
    size_t n = strlen(op);
    const char *t = p->text + p->at;
    if (strncmp(t, op, n) != 0)
        return false;
    /* C reads ++ -- && || -> as one token each, none of them ours */
    if (n == 1 && ((strchr("+-&|", t[0]) && t[1] == t[0]) || (t[0] == '-' && t[1] == '>')))
        return false;
    p->at += n;
    return true;
}

/* What stands at p->at, for "unexpected ..." (a whole UTF-8 character, or
 * a two-character operator C would read as one token). */
static void unexpected(Parser *p)
{
    const char *t = p->text + p->at;
    if (!*t) {
        fail(p, "its value '%s' ends too early", p->text);
        return;
    }
    int len = 1;
    unsigned char lead = (unsigned char)*t;
    if (lead >= 0xC0)
        len = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
    else if (strchr("+-&|<>=!*/%", t[0]) && t[1] && strchr("+-&|<>=", t[1]))
        len = 2;
    for (int k = 1; k < len; k++)
        if (!t[k])
            len = k;
    fail(p, "unexpected '%.*s' in its value '%s'", len, t, p->text);
}

/* A decimal or hexadecimal literal (no suffix; a leading 0, which C reads
 * as octal, refused), typed as C types it: the first of int, unsigned int
 * (hexadecimal only), 64-bit signed, 64-bit unsigned (hexadecimal only)
 * that holds it. */
static Val literal(Parser *p)
{
    size_t lo = p->at;
    while (is_word_char(p->text[p->at]))
        p->at++;
    const char *t = p->text + lo;
    int len = (int)(p->at - lo), shown = len > 40 ? 40 : len;
    Val v = {.width = 32, .known = true, .lo = lo, .hi = p->at};
    bool hex = len > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    int base = hex ? 16 : 10;
    unsigned long long u = 0;
    bool big = false;
    for (int i = hex ? 2 : 0; i < len; i++) {
        int d = t[i] >= '0' && t[i] <= '9'   ? t[i] - '0'
                : t[i] >= 'a' && t[i] <= 'f' ? t[i] - 'a' + 10
                : t[i] >= 'A' && t[i] <= 'F' ? t[i] - 'A' + 10
                                             : 99;
        if (d >= base || (!hex && t[0] == '0' && len > 1)) {
            fail(p, "'%.*s' is not a decimal or hexadecimal integer%s", shown, t,
                 !hex && t[0] == '0' && len > 1 && d < 10
                     ? " (a leading 0 would make C read it as octal)"
                     : "");
            return v;
        }
        if (u > (ULLONG_MAX - (unsigned)d) / (unsigned)base)
            big = true;
        u = u * (unsigned)base + (unsigned)d;
    }
    if (big || (!hex && u > LLONG_MAX)) {
        fail(p, "'%.*s' is too large for every C integer type", shown, t);
        return v;
    }
    if (u <= INT_MAX)
        v.s = (long long)u;
    else if (hex && u <= UINT_MAX)
        v.u = u, v.uns = true;
    else if (u <= LLONG_MAX)
        v.s = (long long)u, v.width = 64;
    else
        v.u = u, v.uns = true, v.width = 64;
    return v;
}

static Val expr_or(Parser *p);

static Val primary(Parser *p)
{
    skip_space(p);
    size_t lo = p->at;
    char c = p->text[p->at];
    Val v = {.width = 32, .known = true, .lo = lo, .hi = lo};
    if (c == '(') {
        p->at++;
        v = expr_or(p);
        if (!take(p, ")") && !p->failed)
            unexpected(p);
        v.lo = lo;
        v.hi = p->at;
        return v;
    }
    if (c >= '0' && c <= '9')
        return literal(p);
    if (c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) {
        while (is_word_char(p->text[p->at]))
            p->at++;
        char name[256];
        size_t len = p->at - lo < sizeof name ? p->at - lo : sizeof name - 1;
        memcpy(name, p->text + lo, len);
        name[len] = '\0';
        v.hi = p->at;
        if (!p->lookup || !p->lookup(p->ctx, name, &v.s, &v.known))
            fail(p, "'%s' in its value is not a constant defined before it", name);
        return v; /* an enumeration constant is an int */
    }
    unexpected(p);
    return v;
}

static Val unary(Parser *p)
{
    skip_space(p);
    size_t lo = p->at;
    const char *op = take(p, "-") ? "-" : take(p, "+") ? "+" : take(p, "~") ? "~" : NULL;
    if (!op)
        return primary(p);
    if (++p->depth > MAX_DEPTH) {
        fail(p, "its value '%.40s...' nests more than %d deep", p->text, MAX_DEPTH);
        return (Val){.width = 32};
    }
    Val v = unary(p);
    p->depth--;
    v.lo = lo;
    if (p->failed || !v.known)
        return v;
    if (*op == '~') {
        v.s = ~v.s;
        v.u = ~v.u & mask(v.width);
    } else if (*op == '-') {
        if (v.uns)
            v.u = (0 - v.u) & mask(v.width);
        else if (v.s == (v.width == 32 ? INT_MIN : LLONG_MIN))
            fail(p, "'%.*s' overflows %s (undefined in C)", (int)(v.hi - v.lo), p->text + v.lo,
                 type_name(&v));
        else
            v.s = -v.s;
    }
    return v;
}

/* r: a's type, the text of a and b; false when there is nothing to compute. */
static bool joined(const Parser *p, Val *r, Val a, Val b)
{
    *r = a;
    r->hi = b.hi;
    r->known = a.known && b.known;
    return !p->failed && r->known;
}

/* a OP b for + - & ^ | after the usual arithmetic conversions. */
static Val arith(Parser *p, Val a, char op, Val b)
{
    Val r;
    if (!joined(p, &r, a, b))
        return r;
    balance(&a, &b);
    r.width = a.width;
    r.uns = a.uns;
    if (r.uns) {
        unsigned long long x = a.u, y = b.u;
        r.u = (op == '+'   ? x + y
               : op == '-' ? x - y
               : op == '&' ? x & y
               : op == '^' ? x ^ y
                           : x | y) &
              mask(r.width);
        return r;
    }
    long long x = a.s, y = b.s;
    if (op == '&' || op == '^' || op == '|') {
        r.s = op == '&' ? x & y : op == '^' ? x ^ y : x | y;
        return r;
    }
    bool over = op == '+' ? (y > 0 ? x > LLONG_MAX - y : x < LLONG_MIN - y)
                          : (y < 0 ? x > LLONG_MAX + y : x < LLONG_MIN + y);
    long long z = over ? 0 : op == '+' ? x + y : x - y;
    if (over || !signed_fits(z, r.width))
        fail(p, "'%.*s' overflows %s (undefined in C)", (int)(r.hi - r.lo), p->text + r.lo,
             type_name(&r));
    else
        r.s = z;
    return r;
}

/* a << b, a >> b: the type is a's; the count must be 0 to width - 1. */
static Val shift(Parser *p, Val a, bool left, Val b)
{
    Val r;
    if (!joined(p, &r, a, b))
        return r;
    int len = (int)(r.hi - r.lo);
    const char *t = p->text + r.lo;
    if (b.uns ? b.u >= (unsigned)a.width : b.s < 0 || b.s >= a.width) {
        Buf count;
        buf_init(&count);
        fail(p, "'%.*s' shifts %s by %s, outside 0 to %d (undefined in C)", len, t, type_name(&a),
             value_text(&count, &b), a.width - 1);
        buf_free(&count);
        return r;
    }
    int n = (int)(b.uns ? b.u : (unsigned long long)b.s);
    if (a.uns) {
        r.u = (left ? a.u << n : a.u >> n) & mask(a.width);
    } else if (a.s < 0) {
        fail(p, "'%.*s' shifts a negative value %s (%s in C)", len, t, left ? "left" : "right",
             left ? "undefined" : "implementation-defined");
    } else if (left && a.s > (a.width == 32 ? INT_MAX : LLONG_MAX) >> n) {
        fail(p, "'%.*s' overflows %s (undefined in C)", len, t, type_name(&a));
    } else {
        r.s = left ? a.s << n : a.s >> n;
    }
    return r;
}

static Val additive(Parser *p)
{
    Val v = unary(p);
    for (;;) {
        char op = take(p, "+") ? '+' : take(p, "-") ? '-' : 0;
        if (!op)
            return v;
        v = arith(p, v, op, unary(p));
    }
}

static Val shifts(Parser *p)
{
    Val v = additive(p);
    for (;;) {
        bool left = take(p, "<<");
        if (!left && !take(p, ">>"))
            return v;
        v = shift(p, v, left, additive(p));
    }
}

/* & binds tighter than ^, which binds tighter than |. */
static Val bitwise(Parser *p, int level)
{
    static const char ops[] = "|^&";
    Val v = level == 2 ? shifts(p) : bitwise(p, level + 1);
    char op[2] = {ops[level], '\0'};
    while (take(p, op))
        v = arith(p, v, ops[level], level == 2 ? shifts(p) : bitwise(p, level + 1));
    return v;
}

static Val expr_or(Parser *p)
{
    if (++p->depth > MAX_DEPTH) {
        fail(p, "its value '%.40s...' nests more than %d deep", p->text, MAX_DEPTH);
        return (Val){.width = 32};
    }
    Val v = bitwise(p, 0);
    p->depth--;
    return v;
}

CexprStatus cexpr_eval(const char *text, CexprLookup lookup, void *ctx, long long *value, Buf *why)
{
    Parser p = {.text = text, .lookup = lookup, .ctx = ctx, .why = why};
    Val v = expr_or(&p);
    skip_space(&p);
    if (!p.failed && text[p.at])
        unexpected(&p);
    if (p.failed)
        return CEXPR_ERROR;
    if (!v.known)
        return CEXPR_UNKNOWN;
    if (v.uns ? v.u > INT_MAX : !signed_fits(v.s, 32)) {
        Buf b;
        buf_init(&b);
        buf_printf(why, "%s does not fit a C int (C computes %s, %s)", text, value_text(&b, &v),
                   type_name(&v));
        buf_free(&b);
        return CEXPR_ERROR;
    }
    *value = v.uns ? (long long)v.u : v.s;
    return CEXPR_OK;
}
