/* Unified diffs (see udiff.h). Steps:
 *   1. split both texts into lines and give every distinct line a number
 *      (its class), so lines compare as ints;
 *   2. set aside the common prefix and suffix;
 *   3. in what remains, a line whose class the other text lacks is deleted
 *      (or inserted) for sure; the others go to Myers' algorithm;
 *   4. Myers marks the lines it does not match as deleted or inserted;
 *   5. walk both texts, group the changes into hunks with context. */
#include "tools/udiff.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- lines and their classes ---- */

typedef struct Line {
    const char *s;
    size_t len; /* with its newline, if it has one */
} Line;

typedef struct Text {
    Line *lines;
    size_t n;
    int *cls; /* class of each line */
    char *changed;
} Text;

static void split_lines(Text *t, const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '\n')
            n++;
    if (len && s[len - 1] != '\n')
        n++;
    t->lines = xcalloc(n, sizeof *t->lines);
    t->n = 0;
    for (size_t start = 0; start < len;) {
        const char *nl = memchr(s + start, '\n', len - start);
        size_t end = nl ? (size_t)(nl - s) + 1 : len;
        t->lines[t->n++] = (Line){s + start, end - start};
        start = end;
    }
    t->cls = xcalloc(t->n, sizeof *t->cls);
    t->changed = xcalloc(t->n, 1);
}

static uint64_t hash_line(const Line *l)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (size_t i = 0; i < l->len; i++) {
        h ^= (unsigned char)l->s[i];
        h *= 1099511628211u;
    }
    return h;
}

/* Numbers the distinct lines of both texts from 0; returns how many. */
static int classify(Text *a, Text *b)
{
    size_t total = a->n + b->n, cap = 16;
    while (cap < 2 * total)
        cap *= 2;
    const Line **slot_line = xcalloc(cap, sizeof *slot_line);
    int *slot_cls = xcalloc(cap, sizeof *slot_cls);
    int n_cls = 0;
    Text *texts[2] = {a, b};
    for (int t = 0; t < 2; t++) {
        for (size_t i = 0; i < texts[t]->n; i++) {
            const Line *l = &texts[t]->lines[i];
            size_t k = (size_t)hash_line(l) & (cap - 1);
            while (slot_line[k] &&
                   (slot_line[k]->len != l->len || memcmp(slot_line[k]->s, l->s, l->len) != 0))
                k = (k + 1) & (cap - 1);
            if (!slot_line[k]) {
                slot_line[k] = l;
                slot_cls[k] = n_cls++;
            }
            texts[t]->cls[i] = slot_cls[k];
        }
    }
    free(slot_line);
    free(slot_cls);
    return n_cls;
}

/* ---- Myers' algorithm, linear space ----
 * Works on int sequences a[0..na) and b[0..nb) and sets da[i] / db[j] for
 * the elements outside the common subsequence it finds. Each call of
 * middle_snake searches from both corners of its box at once, in box
 * coordinates (x, y from the box's top left; the backward search mirrored,
 * from the bottom right), on diagonals k = x - y. A search that steps one
 * past the box's edge on a diagonal keeps that point (it still bounds its
 * neighbours) but stops extending the diagonal. */

typedef struct Myers {
    const int *a, *b;
    char *da, *db;
    long *fx, *bx;         /* furthest x per diagonal, forward and backward */
    long *fstamp, *bstamp; /* the call that set it: valid only if current */
    long offset;           /* index of diagonal k is k + offset, |k| <= offset */
    long call;             /* a fresh number per call of middle_snake */
} Myers;

/* The x a search reached on diagonal k in this call, or -1. */
static long vget(const Myers *m, const long *v, const long *stamp, long k, long call)
{
    if (k < -m->offset || k > m->offset)
        return -1;
    return stamp[k + m->offset] == call ? v[k + m->offset] : -1;
}

/* Finds a point where the two searches meet: it lies on a shortest edit
 * path of the box. Returns false if none was found (not expected). */
static bool middle_snake(Myers *m, long a0, long a1, long b0, long b1, long *px, long *py)
{
    long n = a1 - a0, nb = b1 - b0, delta = n - nb, o = m->offset, call = ++m->call;
    bool odd = (delta & 1) != 0;
    long maxd = (n + nb + 1) / 2;
    long fs = 0, fe = 0, bs = 0, be = 0; /* diagonals trimmed at each end */
    m->fx[1 + o] = 0;
    m->fstamp[1 + o] = call;
    m->bx[1 + o] = 0;
    m->bstamp[1 + o] = call;
#define F(k) vget(m, m->fx, m->fstamp, (k), call)
#define B(k) vget(m, m->bx, m->bstamp, (k), call)
    for (long d = 0; d <= maxd; d++) {
        for (long k = -d + fs; k <= d - fe; k += 2) {
            long x = (k == -d || (k != d && F(k - 1) < F(k + 1))) ? F(k + 1) : F(k - 1) + 1;
            long y = x - k;
            while (x < n && y < nb && m->a[a0 + x] == m->b[b0 + y])
                x++, y++;
            m->fx[k + o] = x;
            m->fstamp[k + o] = call;
            if (x > n) {
                fe += 2;
            } else if (y > nb) {
                fs += 2;
            } else if (odd) {
                long xr = B(delta - k);
                if (xr >= 0 && x >= n - xr) {
                    *px = a0 + x;
                    *py = b0 + y;
                    return true;
                }
            }
        }
        for (long k = -d + bs; k <= d - be; k += 2) {
            long x = (k == -d || (k != d && B(k - 1) < B(k + 1))) ? B(k + 1) : B(k - 1) + 1;
            long y = x - k;
            while (x < n && y < nb && m->a[a1 - 1 - x] == m->b[b1 - 1 - y])
                x++, y++;
            m->bx[k + o] = x;
            m->bstamp[k + o] = call;
            if (x > n) {
                be += 2;
            } else if (y > nb) {
                bs += 2;
            } else if (!odd) {
                long kf = delta - k, xf = F(kf), yf = xf - kf;
                if (xf >= 0 && xf <= n && yf >= 0 && yf <= nb && xf >= n - x) {
                    *px = a0 + xf;
                    *py = b0 + yf;
                    return true;
                }
            }
        }
    }
#undef F
#undef B
    return false;
}

static void mark_all(Myers *m, long a0, long a1, long b0, long b1)
{
    for (long i = a0; i < a1; i++)
        m->da[i] = 1;
    for (long j = b0; j < b1; j++)
        m->db[j] = 1;
}

static void myers(Myers *m, long a0, long a1, long b0, long b1)
{
    while (a0 < a1 && b0 < b1 && m->a[a0] == m->b[b0])
        a0++, b0++;
    while (a0 < a1 && b0 < b1 && m->a[a1 - 1] == m->b[b1 - 1])
        a1--, b1--;
    long x, y;
    if (a0 == a1 || b0 == b1) {
        mark_all(m, a0, a1, b0, b1);
    } else if (!middle_snake(m, a0, a1, b0, b1, &x, &y) || (x == a0 && y == b0) ||
               (x == a1 && y == b1)) {
        /* Neither is expected; the script stays correct, if not minimal,
         * and the recursion always ends. */
        mark_all(m, a0, a1, b0, b1);
    } else {
        myers(m, a0, x, b0, y);
        myers(m, x, a1, y, b1);
    }
}

/* Marks a's and b's changed lines. */
static void edit_script(Text *a, Text *b, int n_cls)
{
    size_t pre = 0, suf = 0;
    while (pre < a->n && pre < b->n && a->cls[pre] == b->cls[pre])
        pre++;
    while (suf < a->n - pre && suf < b->n - pre && a->cls[a->n - 1 - suf] == b->cls[b->n - 1 - suf])
        suf++;
    size_t ea = a->n - suf, eb = b->n - suf;

    /* Lines only one side has cannot be matched: out before Myers. */
    char *in_a = xcalloc((size_t)n_cls, 1), *in_b = xcalloc((size_t)n_cls, 1);
    for (size_t i = pre; i < ea; i++)
        in_a[a->cls[i]] = 1;
    for (size_t j = pre; j < eb; j++)
        in_b[b->cls[j]] = 1;
    long *ia = xcalloc(ea - pre, sizeof *ia), *ib = xcalloc(eb - pre, sizeof *ib);
    int *sa = xcalloc(ea - pre, sizeof *sa), *sb = xcalloc(eb - pre, sizeof *sb);
    long na = 0, nb = 0;
    for (size_t i = pre; i < ea; i++) {
        if (in_b[a->cls[i]]) {
            ia[na] = (long)i;
            sa[na++] = a->cls[i];
        } else {
            a->changed[i] = 1;
        }
    }
    for (size_t j = pre; j < eb; j++) {
        if (in_a[b->cls[j]]) {
            ib[nb] = (long)j;
            sb[nb++] = b->cls[j];
        } else {
            b->changed[j] = 1;
        }
    }
    free(in_a);
    free(in_b);

    if (na || nb) {
        /* Diagonals -(maxd + 2) .. maxd + 2, maxd = (na + nb + 1) / 2. */
        long maxd = (na + nb + 1) / 2;
        size_t diags = (size_t)(2 * maxd + 5);
        Myers m = {.a = sa, .b = sb, .offset = maxd + 2, .call = 0};
        m.da = xcalloc((size_t)na, 1);
        m.db = xcalloc((size_t)nb, 1);
        m.fx = xcalloc(diags, sizeof *m.fx);
        m.bx = xcalloc(diags, sizeof *m.bx);
        m.fstamp = xcalloc(diags, sizeof *m.fstamp);
        m.bstamp = xcalloc(diags, sizeof *m.bstamp);
        myers(&m, 0, na, 0, nb);
        for (long i = 0; i < na; i++)
            if (m.da[i])
                a->changed[ia[i]] = 1;
        for (long j = 0; j < nb; j++)
            if (m.db[j])
                b->changed[ib[j]] = 1;
        free(m.da);
        free(m.db);
        free(m.fx);
        free(m.bx);
        free(m.fstamp);
        free(m.bstamp);
    }
    free(ia);
    free(ib);
    free(sa);
    free(sb);
}

/* ---- hunks ---- */

typedef enum { OP_SAME, OP_DEL, OP_INS } OpKind;

typedef struct Op {
    OpKind kind;
    size_t i, j; /* a's line (SAME, DEL) and b's line (SAME, INS) */
} Op;

static void put_line(Buf *out, char mark, const Line *l)
{
    buf_putc(out, mark);
    buf_put(out, l->s, l->len);
    if (!l->len || l->s[l->len - 1] != '\n')
        buf_puts(out, "\n\\ No newline at end of file\n");
}

/* "start,count" as diff -u writes it: a one-line range is its number
 * alone; an empty range names the line before it. */
static void put_range(Buf *out, size_t before, size_t count)
{
    if (count == 0)
        buf_printf(out, "%zu,0", before);
    else if (count == 1)
        buf_printf(out, "%zu", before + 1);
    else
        buf_printf(out, "%zu,%zu", before + 1, count);
}

static size_t write_hunks(const Text *a, const Text *b, int context, Buf *out)
{
    size_t n_ops = 0;
    Op *ops = xcalloc(a->n + b->n, sizeof *ops);
    for (size_t i = 0, j = 0; i < a->n || j < b->n;) {
        if (i < a->n && a->changed[i])
            ops[n_ops++] = (Op){OP_DEL, i++, j};
        else if (j < b->n && b->changed[j])
            ops[n_ops++] = (Op){OP_INS, i, j++};
        else
            ops[n_ops++] = (Op){OP_SAME, i++, j++};
    }
    size_t ctx = context > 0 ? (size_t)context : 0, hunks = 0;
    for (size_t k = 0; k < n_ops;) {
        if (ops[k].kind == OP_SAME) {
            k++;
            continue;
        }
        /* A hunk: from ctx lines before this change to ctx lines after the
         * last change that follows within 2 * ctx unchanged lines. */
        size_t start = k > ctx ? k - ctx : 0, end = k;
        for (;;) {
            while (end < n_ops && ops[end].kind != OP_SAME)
                end++;
            size_t same = 0;
            while (end + same < n_ops && ops[end + same].kind == OP_SAME)
                same++;
            if (end + same < n_ops && same <= 2 * ctx) {
                end += same;
                continue;
            }
            end += same < ctx ? same : ctx;
            break;
        }
        size_t ca = 0, cb = 0;
        for (size_t t = start; t < end; t++) {
            ca += ops[t].kind != OP_INS;
            cb += ops[t].kind != OP_DEL;
        }
        buf_puts(out, "@@ -");
        put_range(out, ops[start].i, ca);
        buf_puts(out, " +");
        put_range(out, ops[start].j, cb);
        buf_puts(out, " @@\n");
        for (size_t t = start; t < end; t++) {
            if (ops[t].kind == OP_SAME)
                put_line(out, ' ', &a->lines[ops[t].i]);
            else if (ops[t].kind == OP_DEL)
                put_line(out, '-', &a->lines[ops[t].i]);
            else
                put_line(out, '+', &b->lines[ops[t].j]);
        }
        hunks++;
        k = end;
    }
    free(ops);
    return hunks;
}

size_t udiff_hunks(const char *a, size_t alen, const char *b, size_t blen, int context, Buf *out)
{
    if (alen == blen && (alen == 0 || memcmp(a, b, alen) == 0))
        return 0;
    Text ta, tb;
    split_lines(&ta, a, alen);
    split_lines(&tb, b, blen);
    int n_cls = classify(&ta, &tb);
    edit_script(&ta, &tb, n_cls);
    size_t hunks = write_hunks(&ta, &tb, context, out);
    Text *texts[2] = {&ta, &tb};
    for (int t = 0; t < 2; t++) {
        free(texts[t]->lines);
        free(texts[t]->cls);
        free(texts[t]->changed);
    }
    return hunks;
}
