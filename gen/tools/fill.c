/* realpath() is XSI. */
#define _XOPEN_SOURCE 700

#include "tools/fill.h"

#include "c/core.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/cscan.h"
#include "model/ctype.h"
#include "base/diag.h"
#include "model/facts.h"
#include "c/impl.h"
#include "base/output.h"
#include "base/status.h"

void fill_stub_append(Buf *b, const Function *f)
{
    buf_puts(b, FILL_STUB_MARKER);
    buf_puts(b, f->id);
    if (f->since && *f->since) {
        buf_puts(b, " (since ");
        comment_text_append(b, f->since);
        buf_putc(b, ')');
    }
    buf_puts(b, " */\n");
    impl_signature_append(b, f, "\n");
    buf_puts(b, "\n{\n    (void)env;\n");
    for (size_t i = 0; i < f->n_params; i++)
        if (param_in_call(f->params[i]))
            buf_printf(b, "    (void)%s;\n", f->params[i]->name);
    buf_puts(b, "    return JVMTI_ERROR_NOT_AVAILABLE;\n}\n");
}

/* The table of registered implementations (--core): `is_real(f, arg)`
 * says whether the file's definition of f counts. */
static void table_append(Buf *b, const Spec *spec, const FillOptions *o,
                         bool (*is_real)(const Function *f, void *arg), void *arg)
{
    buf_puts(
        b, FILL_TABLE_BEGIN
        " (`jvmtigen fill --core`\n"
        " * rewrites this table on every run: each function defined above whose body\n"
        " * is no longer its stub's). Pass &jvmtirt_impls as jvmtirt_config.impls: the\n"
        " * core then calls them whatever the visibility of their symbols. */\n"
        "const jvmtirt_impl_table jvmtirt_impls = {\n    .size = sizeof(jvmtirt_impl_table),\n");
    for (size_t i = 0; i < spec->n_functions; i++) {
        const Function *f = spec->functions[i];
        if (function_in_table(f) && !(o->core && core_implements(f->id)) && is_real(f, arg))
            buf_printf(b, "    .%s = " IMPL_PREFIX "%s,\n", f->id, f->id);
    }
    buf_puts(b, "};\n" FILL_TABLE_END "\n");
}

static bool none_real(const Function *f, void *arg)
{
    (void)f, (void)arg;
    return false;
}

/* Whether FILE should define f: every function of the table, but with
 * --core not those jvmtigen's runtime core implements. */
static bool wanted(const FillOptions *o, const Function *f)
{
    return function_in_table(f) && !(o->core && core_implements(f->id));
}

static void skeleton_append(Buf *b, const Spec *spec, const char *spec_name, const JvmtiVersion *v,
                            const FillOptions *o)
{
    buf_puts(b, "/*\n * JVM TI implementation functions, one per function of ");
    comment_text_append(b, spec_name);
    buf_puts(b, ".\n *\n * Started by `jvmtigen fill` from ");
    comment_text_append(b, spec_name);
    buf_printf(b, " (JVM TI %d.%d.%d) with a stub for each\n", v->major, v->minor, v->micro);
    buf_puts(b, " * function; jvmtigen_impl.h says what each may rely on. This file is yours:\n"
                " * edit it as you like. `jvmtigen fill` only ever adds to it: stubs for\n"
                " * functions it does not define yet, and a comment above a definition whose\n"
                " * signature no longer matches the spec's (which it takes away again once\n"
                " * the signature matches). It never changes what you wrote.\n"
                " */\n\n#include \"jvmtigen_impl.h\"\n");
    if (o->core)
        buf_puts(b, "\n/* The functions jvmtigen's runtime core implements (environments,\n"
                    " * capabilities, events, raw monitors, memory, ...) are not here. */\n");
    for (size_t i = 0; i < spec->n_functions; i++) {
        if (!wanted(o, spec->functions[i]))
            continue;
        buf_putc(b, '\n');
        fill_stub_append(b, spec->functions[i]);
    }
    if (o->core) {
        buf_putc(b, '\n');
        table_append(b, spec, o, none_real, NULL);
    }
}

/* ---- merging ---- */

typedef struct Edit {
    size_t pos, del; /* replace text[pos, pos+del) ... */
    Buf text;        /* ... by this */
    int rank;        /* at one offset: stubs (0) before comments (1) */
    size_t seq;
} Edit;

typedef struct ImplDef {
    const CFuncDef *d;
    char *id; /* the name without IMPL_PREFIX */
    int line;
} ImplDef;

typedef struct Merge {
    const Spec *spec;
    const FillOptions *o;
    const char *spec_name;
    JvmtiVersion version;
    const char *t;
    size_t n;
    CScan sc;
    const char *eol; /* "\n", or "\r\n" when the file uses it */
    Edit *edits;
    size_t n_edits, cap_edits;
    size_t stubs, flagged, unknown, removed;
} Merge;

static Edit *add_edit(Merge *m, size_t pos, size_t del, int rank)
{
    if (m->n_edits == m->cap_edits) {
        m->cap_edits = m->cap_edits ? m->cap_edits * 2 : 32;
        m->edits = xrealloc(m->edits, m->cap_edits * sizeof *m->edits);
    }
    Edit *e = &m->edits[m->n_edits];
    *e = (Edit){.pos = pos, .del = del, .rank = rank, .seq = m->n_edits};
    buf_init(&e->text);
    m->n_edits++;
    return e;
}

/* Appends s with each "\n" spelled as the file spells its line ends. */
static void put_eol_text(const Merge *m, Buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '\n')
            buf_puts(b, m->eol);
        else
            buf_putc(b, *s);
    }
}

/* White space that does not end a line. */
static bool is_line_space(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; }

static bool is_space(char c) { return is_line_space(c) || c == '\r' || c == '\n'; }

/* Whether only blanks come between the start of pos's line and pos. */
static bool starts_line(const Merge *m, size_t pos, size_t *line_start)
{
    size_t ls = pos;
    while (ls > 0 && is_line_space(m->t[ls - 1]))
        ls--;
    if (ls > 0 && m->t[ls - 1] != '\n')
        return false;
    *line_start = ls;
    return true;
}

/* Where to insert text "before" pos: the start of its line if only blanks
 * precede it there, else pos itself. */
static size_t before(const Merge *m, size_t pos)
{
    size_t ls;
    return starts_line(m, pos, &ls) ? ls : pos;
}

/* Whitespace only in t[a, b)? newlines counts the newlines. */
static bool only_space(const Merge *m, size_t a, size_t b, int *newlines)
{
    *newlines = 0;
    for (size_t i = a; i < b; i++) {
        if (!is_space(m->t[i]))
            return false;
        *newlines += m->t[i] == '\n';
    }
    return true;
}

/* The comment right before offset pos (nothing but whitespace between), or
 * NULL. */
static const CComment *comment_before(const Merge *m, size_t pos)
{
    const CComment *c = NULL;
    for (size_t k = 0; k < m->sc.n_comments && m->sc.comments[k].end <= pos; k++)
        c = &m->sc.comments[k];
    int nl;
    return c && only_space(m, c->end, pos, &nl) ? c : NULL;
}

static size_t tok_off(const Merge *m, size_t i) { return m->sc.toks[i].off; }

/* Where the definition starts, together with the comments directly above it
 * (each on a line of its own, no blank line between): stubs that go before it
 * go there. */
static size_t chain_start(const Merge *m, const CFuncDef *d)
{
    size_t pos = tok_off(m, d->first);
    for (;;) {
        const CComment *c = comment_before(m, pos);
        int nl;
        size_t ls;
        if (!c || !only_space(m, c->end, pos, &nl) || nl > 1 || !starts_line(m, c->off, &ls))
            break;
        pos = c->off;
    }
    return before(m, pos);
}

/* Where stubs go after a definition: after the line its '}' ends (comments on
 * that line included). *bare: no newline there yet (a '}' at the end of the
 * file, or followed by more code on its line). */
static size_t after_def(const Merge *m, const CFuncDef *d, bool *bare)
{
    size_t brace_end = tok_off(m, d->rbrace) + 1;
    size_t j = brace_end, k = 0;
    for (;;) {
        while (j < m->n && (is_line_space(m->t[j]) || m->t[j] == '\r'))
            j++;
        while (k < m->sc.n_comments && m->sc.comments[k].off < j)
            k++;
        if (k < m->sc.n_comments && m->sc.comments[k].off == j) {
            const CComment *c = &m->sc.comments[k];
            bool line_comment = m->t[c->off + 1] == '/';
            if (!line_comment && memchr(m->t + c->off, '\n', c->end - c->off))
                break;
            j = c->end;
            continue;
        }
        break;
    }
    if (j < m->n && m->t[j] == '\n') {
        *bare = false;
        return j + 1;
    }
    *bare = true;
    return j == m->n ? j : brace_end;
}

static void signature_note(const Merge *m, const Function *f, Buf *b)
{
    Buf s;
    buf_init(&s);
    buf_puts(&s, FILL_SIGNATURE_NOTE);
    buf_puts(&s, f->id);
    buf_puts(&s, " changed in ");
    comment_text_append(&s, m->spec_name);
    buf_printf(&s, " (JVM TI %d.%d.%d); it is now:\n   ", m->version.major, m->version.minor,
               m->version.micro);
    impl_signature_append(&s, f, " ");
    buf_puts(&s, " */");
    put_eol_text(m, b, s.data);
    buf_free(&s);
}

/* The spec's signature reduced like the file's (see cscan_signature_key). */
static void expected_key(const Function *f, Buf *key)
{
    Buf text;
    buf_init(&text);
    impl_signature_append(&text, f, " ");
    buf_puts(&text, " {}");
    CScan sc;
    if (cscan(&sc, text.data, text.len) && sc.n_defs == 1)
        cscan_signature_key(&sc, &sc.defs[0], key);
    else
        buf_puts(key, "?"); /* cannot happen: the text is the generator's own */
    cscan_free(&sc);
    buf_free(&text);
}

/* A definition of a function of the spec: flag or unflag its signature. */
static void review_signature(Merge *m, const ImplDef *def, const Function *f)
{
    const CFuncDef *d = def->d;
    Buf want, have;
    buf_init(&want);
    buf_init(&have);
    expected_key(f, &want);
    cscan_signature_key(&m->sc, d, &have);
    bool differs = strcmp(want.data, have.data) != 0;

    size_t start = tok_off(m, d->first);
    const CComment *c = comment_before(m, start);
    size_t plen = strlen(FILL_SIGNATURE_NOTE), idlen = strlen(f->id);
    bool ours = c && c->end - c->off > plen + idlen &&
                memcmp(m->t + c->off, FILL_SIGNATURE_NOTE, plen) == 0 &&
                memcmp(m->t + c->off + plen, f->id, idlen) == 0 &&
                m->t[c->off + plen + idlen] == ' ';
    Buf note;
    buf_init(&note);
    if (differs) {
        m->flagged++;
        Loc loc = {m->o->file, def->line};
        warn_at(&loc,
                IMPL_PREFIX "%s: signature differs from the spec's; "
                            "a comment above it says how",
                f->id);
        signature_note(m, f, &note);
    }
    bool same =
        ours && note.len == c->end - c->off && memcmp(note.data, m->t + c->off, note.len) == 0;
    if (ours && !same) {
        /* Take our old comment away, with its line if it has one to itself. */
        size_t a = c->off, e = c->end, ls;
        if (starts_line(m, a, &ls)) {
            size_t j = e;
            while (j < m->n && (is_line_space(m->t[j]) || m->t[j] == '\r'))
                j++;
            if (j < m->n && m->t[j] == '\n') {
                a = ls;
                e = j + 1;
            }
        }
        add_edit(m, a, e - a, 1);
        if (!differs)
            m->removed++;
    }
    if (differs && !same) {
        Edit *e = add_edit(m, before(m, start), 0, 1);
        buf_put(&e->text, note.data, note.len);
        buf_puts(&e->text, m->eol);
    }
    buf_free(&note);
    buf_free(&want);
    buf_free(&have);
}

static int cmp_edits(const void *pa, const void *pb)
{
    const Edit *a = pa, *b = pb;
    if (a->pos != b->pos)
        return a->pos < b->pos ? -1 : 1;
    /* At one offset, insertions come before a deletion starting there, and
     * stubs before a comment that must stay right above its definition. */
    if ((a->del > 0) != (b->del > 0))
        return a->del > 0 ? 1 : -1;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void apply_edits(Merge *m, Buf *out)
{
    if (m->n_edits > 1)
        qsort(m->edits, m->n_edits, sizeof *m->edits, cmp_edits);
    size_t cur = 0;
    for (size_t i = 0; i < m->n_edits; i++) {
        const Edit *e = &m->edits[i];
        size_t pos = e->pos < cur ? cur : e->pos;
        buf_put(out, m->t + cur, pos - cur);
        buf_put(out, e->text.data ? e->text.data : "", e->text.len);
        cur = e->pos + e->del > pos ? e->pos + e->del : pos;
    }
    buf_put(out, m->t + cur, m->n - cur);
}

typedef struct Entry {
    const Function *f;
    const ImplDef *def; /* its definition in the file, or NULL */
} Entry;

/* s[0, n) without white space, appended to b. */
static void squeezed_append(Buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!is_space(s[i]))
            buf_putc(b, s[i]);
}

/* Whether the definition's body is still f's stub body (white space aside). */
static bool body_is_stub(const Merge *m, const ImplDef *def, const Function *f)
{
    Buf stub, want, have;
    buf_init(&stub);
    buf_init(&want);
    buf_init(&have);
    fill_stub_append(&stub, f);
    const char *brace = strchr(stub.data, '{');
    squeezed_append(&want, brace, strlen(brace));
    size_t a = tok_off(m, def->d->lbrace), z = tok_off(m, def->d->rbrace) + 1;
    squeezed_append(&have, m->t + a, z - a);
    bool same = want.len == have.len && memcmp(want.data, have.data, want.len) == 0;
    buf_free(&stub);
    buf_free(&want);
    buf_free(&have);
    return same;
}

typedef struct TableArg {
    const Merge *m;
    StrMap *by_fn;
} TableArg;

static bool defined_for_real(const Function *f, void *arg)
{
    const TableArg *a = arg;
    const struct Entry *e = strmap_get(a->by_fn, f->id);
    return e && e->def && !body_is_stub(a->m, e->def, f);
}

/* Whether comment c's text starts with what (exactly what, when whole). */
static bool comment_is(const Merge *m, const CComment *c, const char *what, bool whole)
{
    size_t k = strlen(what), len = c->end - c->off;
    return (whole ? len == k : len >= k) && memcmp(m->t + c->off, what, k) == 0;
}

/* The table's tokens from *i on: `. NAME = jvmti_impl_NAME` or `.size =
 * sizeof(jvmtirt_impl_table)`, comma-separated, up to the closing brace. */
static bool table_entries(const Merge *m, size_t *i, size_t end)
{
    const CScan *s = &m->sc;
    size_t plen = strlen(IMPL_PREFIX);
    while (*i < end && !ctok_is(s, *i, "}")) {
        size_t k = *i;
        if (k + 3 >= end || !ctok_is(s, k, ".") || s->toks[k + 1].kind != CT_IDENT ||
            !ctok_is(s, k + 2, "="))
            return false;
        const CTok *name = &s->toks[k + 1], *value = &s->toks[k + 3];
        if (ctok_is(s, k + 1, "size")) {
            if (k + 6 >= end || !ctok_is(s, k + 3, "sizeof") || !ctok_is(s, k + 4, "(") ||
                !ctok_is(s, k + 5, "jvmtirt_impl_table") || !ctok_is(s, k + 6, ")"))
                return false;
            k += 7;
        } else {
            if (value->len != plen + name->len ||
                memcmp(m->t + value->off, IMPL_PREFIX, plen) != 0 ||
                memcmp(m->t + value->off + plen, m->t + name->off, name->len) != 0)
                return false;
            k += 4;
        }
        if (k < end && ctok_is(&m->sc, k, ","))
            k++;
        else if (k >= end || !ctok_is(&m->sc, k, "}"))
            return false;
        *i = k;
    }
    return *i < end;
}

/* Whether the text between the table's two comments is only what fill
 * writes there (white space aside); else *bad is where it is not. A table
 * holding anything else is not rewritten: that would lose the user's text. */
static bool table_is_ours(const Merge *m, const CComment *begin, const CComment *end, size_t *bad)
{
    const CScan *s = &m->sc;
    size_t first = 0;
    while (first < s->n_toks && s->toks[first].off < begin->end)
        first++;
    size_t last = first;
    while (last < s->n_toks && s->toks[last].off < end->off)
        last++;
    /* Nothing but tokens and white space: no comment, no directive. */
    size_t from = begin->end;
    for (size_t i = first; i <= last; i++) {
        size_t to = i < last ? s->toks[i].off : end->off;
        for (size_t j = from; j < to; j++)
            if (!is_space(m->t[j])) {
                *bad = j;
                return false;
            }
        if (i < last)
            from = s->toks[i].off + s->toks[i].len;
    }
    static const char *const head[] = {"const", "jvmtirt_impl_table", "jvmtirt_impls", "=", "{"};
    size_t i = first;
    for (size_t k = 0; k < sizeof head / sizeof *head; k++, i++)
        if (i >= last || !ctok_is(s, i, head[k])) {
            *bad = i < last ? s->toks[i].off : end->off;
            return false;
        }
    if (!table_entries(m, &i, last) || i + 2 != last || !ctok_is(s, i + 1, ";")) {
        *bad = i < last ? s->toks[i].off : end->off;
        return false;
    }
    return true;
}

static int line_at(const Merge *m, size_t pos)
{
    int line = 1;
    for (size_t i = 0; i < pos && i < m->n; i++)
        line += m->t[i] == '\n';
    return line;
}

/* Rewrites the table of registered implementations, or adds it at the end.
 * Its markers are comments as the C scanner finds them (not text in a
 * string or a // comment); the table is the last begin marker before the
 * first end marker. */
static int update_table(Merge *m, StrMap *by_fn)
{
    const CComment *begin = NULL, *end = NULL;
    for (size_t k = 0; k < m->sc.n_comments && !end; k++) {
        const CComment *c = &m->sc.comments[k];
        if (comment_is(m, c, FILL_TABLE_END, true))
            end = c;
        else if (comment_is(m, c, FILL_TABLE_BEGIN, false))
            begin = c;
    }
    if (end && !begin) {
        Loc loc = {m->o->file, end->line};
        error_at(&loc,
                 "the end of the table of registered implementations has no beginning ('%s'); "
                 "remove what is left of the table",
                 FILL_TABLE_BEGIN " ... */");
        return EXIT_INVALID;
    }
    if (begin && !end) {
        Loc loc = {m->o->file, begin->line};
        error_at(&loc,
                 "the table of registered implementations has no end ('%s'); "
                 "remove what is left of it",
                 FILL_TABLE_END);
        return EXIT_INVALID;
    }
    size_t bad;
    if (begin && !table_is_ours(m, begin, end, &bad)) {
        Loc loc = {m->o->file, line_at(m, bad)};
        error_at(&loc,
                 "the table of registered implementations (lines %d-%d) holds something fill "
                 "does not write there; fill rewrites the table on every run and would lose it: "
                 "move it out of the table",
                 begin->line, line_at(m, end->off));
        return EXIT_INVALID;
    }
    TableArg arg = {m, by_fn};
    Buf table;
    buf_init(&table);
    table_append(&table, m->spec, m->o, defined_for_real, &arg);
    if (begin) {
        size_t pos = begin->off;
        size_t del = end->end - begin->off;
        /* the table's own line end stays where it is */
        table.data[--table.len] = '\0';
        Edit *e = add_edit(m, pos, del, 2);
        put_eol_text(m, &e->text, table.data);
    } else {
        Edit *e = add_edit(m, m->n, 0, 2);
        if (m->n > 0 && m->t[m->n - 1] != '\n')
            buf_puts(&e->text, m->eol);
        buf_puts(&e->text, m->eol);
        put_eol_text(m, &e->text, table.data);
    }
    buf_free(&table);
    return 0;
}

/* What fill appends at the end of the file (stubs, the table) would join a
 * declaration left open there (its last token not ';' or '}'): the stub's
 * signature would take in that text, and the next run would flag it. */
static int end_is_open(const Merge *m)
{
    bool appends = false;
    for (size_t i = 0; i < m->n_edits && !appends; i++)
        appends = m->edits[i].pos == m->n && m->edits[i].del == 0;
    const CScan *s = &m->sc;
    if (!appends || s->n_toks == 0 || ctok_is(s, s->n_toks - 1, ";") ||
        ctok_is(s, s->n_toks - 1, "}"))
        return 0;
    Loc loc = {m->o->file, s->toks[s->n_toks - 1].line};
    error_at(&loc, "the file ends inside a declaration (no ';' or '}' after it): what fill "
                   "adds at the end would join it; end it first");
    return EXIT_INVALID;
}

/* The line end fill writes: the one most of the file's lines end with
 * ("\r\n" only if more lines end so than with a bare "\n"). By majority, not
 * by the first line: a first line "\r\r\n" of a file that is otherwise
 * "\n" would make the second run rewrite all fill wrote the first time; and
 * what fill adds only strengthens the majority, so a second run agrees. */
static const char *line_end_of(const char *t, size_t n)
{
    size_t crlf = 0, lf = 0;
    for (const char *p = t, *end = t + n; (p = memchr(p, '\n', (size_t)(end - p))); p++) {
        if (p > t && p[-1] == '\r')
            crlf++;
        else
            lf++;
    }
    return crlf > lf ? "\r\n" : "\n";
}

/* Fills out with the merged text; returns an exit status. */
static int merge(Merge *m, Buf *out)
{
    const Spec *spec = m->spec;
    int rc = 0;
    if (!cscan(&m->sc, m->t, m->n)) {
        Loc loc = {m->o->file, m->sc.error_line};
        error_at(&loc, "%s", m->sc.error);
        return EXIT_INVALID;
    }
    m->eol = line_end_of(m->t, m->n);

    /* The file's jvmti_impl_ definitions. */
    size_t plen = strlen(IMPL_PREFIX);
    ImplDef *defs = xcalloc(m->sc.n_defs + 1, sizeof *defs);
    Entry *entries = xcalloc(spec->n_functions + 1, sizeof *entries);
    size_t n_defs = 0;
    StrMap by_id;
    strmap_init(&by_id);
    for (size_t i = 0; i < m->sc.n_defs; i++) {
        const CFuncDef *d = &m->sc.defs[i];
        const CTok *name = &m->sc.toks[d->name];
        if (name->len <= plen || memcmp(m->t + name->off, IMPL_PREFIX, plen) != 0)
            continue;
        ImplDef *def = &defs[n_defs++];
        def->d = d;
        def->line = name->line;
        def->id = xmalloc(name->len - plen + 1);
        memcpy(def->id, m->t + name->off + plen, name->len - plen);
        def->id[name->len - plen] = '\0';
        const ImplDef *prev = strmap_put(&by_id, def->id, def);
        if (prev) {
            Loc loc = {m->o->file, def->line};
            error_at(&loc, IMPL_PREFIX "%s is defined twice; the first definition is at line %d",
                     def->id, prev->line);
            rc = EXIT_INVALID;
        }
    }
    StrMap by_fn;
    strmap_init(&by_fn);
    for (size_t i = 0; i < spec->n_functions; i++) {
        entries[i].f = spec->functions[i];
        strmap_put(&by_fn, spec->functions[i]->id, &entries[i]);
    }

    for (size_t i = 0; i < n_defs && rc == 0; i++) {
        Entry *e = strmap_get(&by_fn, defs[i].id);
        if (!e || !function_in_table(e->f)) {
            Loc loc = {m->o->file, defs[i].line};
            warn_at(&loc, IMPL_PREFIX "%s: %s is not a function of %s; left in place", defs[i].id,
                    defs[i].id, m->spec_name);
            m->unknown++;
            continue;
        }
        if (!wanted(m->o, e->f)) {
            Loc loc = {m->o->file, defs[i].line};
            warn_at(&loc,
                    IMPL_PREFIX "%s: the runtime core implements %s; linking both "
                                "fails (drop this one, or run fill without --core)",
                    defs[i].id, defs[i].id);
        }
        e->def = &defs[i];
        review_signature(m, &defs[i], e->f);
    }

    /* A stub for each function the file lacks, after its nearest predecessor
     * in spec order; before the first definition if none precedes it. */
    const Entry *last = NULL;
    size_t group_pos = (size_t)-1;
    for (size_t i = 0; i < spec->n_functions && rc == 0; i++) {
        const Entry *e = &entries[i];
        if (!wanted(m->o, e->f) && !e->def)
            continue;
        if (e->def) {
            last = e;
            continue;
        }
        size_t pos;
        bool bare = false, leading = true;
        if (last) {
            pos = after_def(m, last->def->d, &bare);
        } else if (n_defs) {
            pos = chain_start(m, defs[0].d);
            leading = false;
        } else {
            pos = m->n;
            bare = m->n > 0 && m->t[m->n - 1] != '\n';
        }
        Edit *ed = add_edit(m, pos, 0, 0);
        if (bare && pos != group_pos)
            buf_puts(&ed->text, m->eol);
        if (leading)
            buf_puts(&ed->text, m->eol);
        Buf stub;
        buf_init(&stub);
        fill_stub_append(&stub, e->f);
        put_eol_text(m, &ed->text, stub.data);
        buf_free(&stub);
        if (!leading)
            buf_puts(&ed->text, m->eol);
        group_pos = pos;
        m->stubs++;
    }
    if (rc == 0 && m->o->core)
        rc = update_table(m, &by_fn);
    if (rc == 0)
        rc = end_is_open(m);
    if (rc == 0)
        apply_edits(m, out);

    strmap_free(&by_fn);
    strmap_free(&by_id);
    free(entries);
    for (size_t i = 0; i < n_defs; i++)
        free(defs[i].id);
    free(defs);
    return rc;
}

static const char *plural(size_t n) { return n == 1 ? "" : "s"; }

int fill_file(const Spec *spec, const FillOptions *o)
{
    Merge m = {
        .spec = spec, .o = o, .spec_name = path_base_name(o->spec_path), .version = o->version};

    Buf old, out;
    buf_init(&old);
    buf_init(&out);
    bool created = false;
    int rc = 0;
    if (read_file(o->file, &old) != 0) {
        if (errno != ENOENT) {
            Loc l = {o->file, 0};
            error_at(&l, "cannot read: %s", read_file_error(errno));
            rc = EXIT_IO;
            goto done;
        }
        created = true;
    } else if (old.len == 0) {
        created = true;
    }
    if (created) {
        skeleton_append(&out, spec, m.spec_name, &m.version, o);
        for (size_t i = 0; i < spec->n_functions; i++)
            m.stubs += wanted(o, spec->functions[i]);
    } else {
        m.t = old.data;
        m.n = old.len;
        rc = merge(&m, &out);
        if (rc)
            goto done;
    }
    /* The file is the user's: write through a symbolic link rather than
     * replace it, and keep the file's permissions. A file with other hard
     * links is written in place, so that they all see the new text. */
    char *real = created ? NULL : realpath(o->file, NULL);
    const char *path = real ? real : o->file;
    struct stat st;
    bool had_mode = !created && stat(path, &st) == 0;
    bool changed;
    const char *text = out.data ? out.data : "";
    if (had_mode && st.st_nlink > 1) {
        if (write_through(path, text, out.len, &changed) != 0)
            rc = EXIT_IO;
    } else if (write_if_changed(path, text, out.len, &changed) != 0)
        rc = EXIT_IO;
    else if (changed && had_mode)
        chmod(path, st.st_mode & 07777);
    free(real);
    if (rc)
        goto done;
    diag_flush();
    if (o->verbose)
        fprintf(stderr, "jvmtigen: %s %s\n", changed ? "wrote" : "unchanged", o->file);
    if (!o->quiet) {
        Buf line;
        buf_init(&line);
        if (created) {
            buf_printf(&line, "new file, %zu stub%s", m.stubs, plural(m.stubs));
        } else {
            buf_printf(&line, "%zu stub%s added, %zu signature%s flagged, %zu unknown function%s",
                       m.stubs, plural(m.stubs), m.flagged, plural(m.flagged), m.unknown,
                       plural(m.unknown));
            if (m.removed)
                buf_printf(&line, ", %zu outdated comment%s removed", m.removed, plural(m.removed));
        }
        fprintf(stderr, "jvmtigen: %s: %s\n", o->file, line.data);
        buf_free(&line);
    }
done:
    diag_flush();
    for (size_t i = 0; i < m.n_edits; i++)
        buf_free(&m.edits[i].text);
    free(m.edits);
    cscan_free(&m.sc);
    buf_free(&old);
    buf_free(&out);
    return rc;
}
