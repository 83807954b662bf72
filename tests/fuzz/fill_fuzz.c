/* libFuzzer target: `jvmtigen fill --core` on a fuzzed C file, against the
 * project's own spec (loaded once). The input is the file's text; fill
 * merges into it. Checked: the run ends with 0 or 1 (a refusal); a refusal
 * leaves the file as it was; a merge keeps the user's text (every token and
 * comment of the input, but the table's and fill's own comments, is in the
 * output, in order; directives are not looked at) and a second run changes
 * nothing. The dictionary
 * (fill.dict) holds the table's markers and the comments fill writes, so
 * the fuzzer quotes them in strings, // comments and code, as issue 31's
 * lost file did. */
#define _GNU_SOURCE /* memmem */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>

#include "base/cscan.h"
#include "base/diag.h"
#include "base/status.h"
#include "model/build.h"
#include "model/check.h"
#include "model/facts.h"
#include "model/load.h"
#include "tools/fill.h"

#ifndef FUZZ_OWN_SPEC
#error "FUZZ_OWN_SPEC: the project's spec/jvmti.xml (the Makefile sets it)"
#endif

static Spec *spec;
static xmlDocPtr doc; /* the spec's, kept for the whole run */
static Vec deps;
static char file[64];
static FILE *quiet;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    LIBXML_TEST_VERSION
    xmlInitParser();
    quiet = fopen("/dev/null", "w");
    diag_set_stream(quiet);
    if (load_spec(FUZZ_OWN_SPEC, &doc, &deps) != LOAD_OK)
        abort();
    spec = build_spec(doc, FUZZ_OWN_SPEC);
    check_spec(spec);
    if (diag_error_count())
        abort();
    char dir[] = "/tmp/jvmtigen-fill-fuzz.XXXXXX";
    if (!mkdtemp(dir))
        abort();
    snprintf(file, sizeof file, "%s/impl.c", dir);
    return 0;
}

static void put(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
}

static int fill(void)
{
    FillOptions o = {.spec_path = FUZZ_OWN_SPEC, .file = file, .quiet = 1, .core = 1};
    if (!spec->version || !version_parse(spec->version, &o.version))
        abort();
    int rc = fill_file(spec, &o);
    diag_flush();
    return rc;
}

/* Where the table is in a scanned text: from its begin comment (the last
 * one before the first end comment) to the end of its end comment. */
static void table_span(const CScan *sc, size_t *from, size_t *to)
{
    *from = *to = 0;
    const char *t = sc->text;
    size_t nb = strlen(FILL_TABLE_BEGIN), ne = strlen(FILL_TABLE_END);
    for (size_t k = 0; k < sc->n_comments; k++) {
        const CComment *c = &sc->comments[k];
        size_t len = c->end - c->off;
        if (len == ne && memcmp(t + c->off, FILL_TABLE_END, ne) == 0) {
            *to = *from < c->off ? c->end : 0;
            return;
        }
        if (len >= nb && memcmp(t + c->off, FILL_TABLE_BEGIN, nb) == 0)
            *from = c->off;
    }
}

static bool same_text(const char *a, size_t na, const char *b, size_t nb)
{
    return na == nb && memcmp(a, b, na) == 0;
}

/* A // comment runs to its line's '\n', so a CR before it is part of the
 * comment: the one that ended the file ("//x" at the end) gains the CR of
 * the "\r\n" fill writes after it in a CRLF file. The same comment. */
static bool same_comment(const char *a, size_t na, const char *b, size_t nb)
{
    while (na && a[na - 1] == '\r')
        na--;
    while (nb && b[nb - 1] == '\r')
        nb--;
    return same_text(a, na, b, nb);
}

/* Every token and every comment of the user's in old (all but the table's
 * and fill's own comments) is in new, in order: fill only inserts, and
 * rewrites the table. Tokens, not lines: fill may insert before a
 * definition that starts mid-line. */
static void user_text_kept(const Buf *old, const Buf *new)
{
    CScan a, b;
    if (!cscan(&a, old->data, old->len) || !cscan(&b, new->data, new->len)) {
        fprintf(stderr, "fuzz: fill merged a file that does not scan, or wrote one\n");
        abort();
    }
    size_t from, to;
    table_span(&a, &from, &to);
    size_t j = 0;
    for (size_t i = 0; i < a.n_toks; i++) {
        const CTok *t = &a.toks[i];
        if (t->off >= from && t->off < to)
            continue;
        while (j < b.n_toks && !same_text(old->data + t->off, t->len, new->data + b.toks[j].off,
                                          b.toks[j].len))
            j++;
        if (j++ >= b.n_toks) {
            fprintf(stderr, "fuzz: fill dropped the token '%.*s' of line %d\n", (int)t->len,
                    old->data + t->off, t->line);
            abort();
        }
    }
    j = 0;
    for (size_t i = 0; i < a.n_comments; i++) {
        const CComment *c = &a.comments[i];
        if ((c->off >= from && c->off < to) || memmem(old->data + c->off, c->end - c->off,
                                                       "jvmtigen", 8))
            continue;
        while (j < b.n_comments &&
               !same_comment(old->data + c->off, c->end - c->off, new->data + b.comments[j].off,
                             b.comments[j].end - b.comments[j].off))
            j++;
        if (j++ >= b.n_comments) {
            fprintf(stderr, "fuzz: fill dropped the comment of line %d\n", c->line);
            abort();
        }
    }
    cscan_free(&a);
    cscan_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || memchr(data, '\0', size))
        return 0; /* empty: a new file; NUL: not a C file */
    put(file, data, size);
    Buf old = {0}, after = {0}, again = {0};
    buf_put(&old, (const char *)data, size);
    int rc = fill();
    if (read_file(file, &after) != 0)
        abort();
    if (rc != EXIT_OK && rc != EXIT_INVALID)
        abort();
    if (rc != EXIT_OK) {
        if (after.len != old.len || memcmp(after.data, old.data, old.len) != 0) {
            fprintf(stderr, "fuzz: a refused fill changed the file\n");
            abort();
        }
    } else {
        user_text_kept(&old, &after);
        if (fill() != EXIT_OK || read_file(file, &again) != 0 || again.len != after.len ||
            memcmp(again.data, after.data, after.len) != 0) {
            fprintf(stderr, "fuzz: a second fill changed the file\n");
            abort();
        }
    }
    buf_free(&old);
    buf_free(&after);
    buf_free(&again);
    return 0;
}
