/* libFuzzer target: the whole generation path, into memory. A buffer is
 * loaded, built and checked as by `jvmtigen generate`; a spec without
 * errors then goes through every emitter (emit_all: the same code that
 * writes out/) and the model's JSON. The outputs are checked: each is
 * there, and each C file scans cleanly (comments and literals closed,
 * braces balanced; no line ends in a backslash; no trigraph), and the JSON
 * parses: hostile text in a spec must not break out of the comment or
 * string it is put in. tests/fuzz/compile-corpus goes further and compiles
 * what the corpus generates. */
#include "base/cscan.h"
#include "c/emit.h"
#include "fuzz_common.h"
#include "json_check.h"
#include "tools/model_json.h"

static void check_c(const char *name, const Buf *b)
{
    CScan s;
    if (!cscan(&s, b->data, b->len)) {
        fprintf(stderr, "fuzz: generated %s does not scan: line %d: %s\n", name, s.error_line,
                s.error);
        abort();
    }
    cscan_free(&s);
    /* No line may end in a backslash (C joins it to the next before it
     * finds comments: spec text could leave its comment) and no trigraph. */
    for (size_t i = 0; i < b->len; i++) {
        const char *p = b->data + i;
        if (*p == '\\') {
            size_t j = i + 1;
            while (j < b->len && (b->data[j] == ' ' || b->data[j] == '\t'))
                j++;
            if (j == b->len || b->data[j] == '\n' || b->data[j] == '\r') {
                fprintf(stderr, "fuzz: generated %s: a backslash ends a line at byte %zu\n",
                        name, i);
                abort();
            }
        }
        if (p[0] == '?' && i + 2 < b->len && p[1] == '?' && strchr("=/'()!<>-", p[2])) {
            fprintf(stderr, "fuzz: generated %s: a trigraph at byte %zu\n", name, i);
            abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Vec deps = {0};
    xmlDocPtr doc = NULL;
    Spec *spec = NULL;
    int errors = fuzz_load(data, size, &doc, &spec, &deps);
    if (errors == 0) {
        GenContext ctx = fuzz_context(spec);
        OutFile files[16] = {0};
        if ((size_t)n_outputs > sizeof files / sizeof *files)
            abort();
        emit_all(&ctx, files);
        for (int i = 0; i < n_outputs; i++) {
            const Buf *b = &files[i].data;
            if (b->len == 0 || b->data[b->len - 1] != '\n')
                abort(); /* every output is a whole text file */
            check_c(outputs[i].name, b);
            buf_free(&files[i].data);
        }
        Buf json;
        buf_init(&json);
        emit_model_json(spec, &json);
        if (json.len < 2 || json.data[json.len - 1] != '\n' || !json_valid(json.data, json.len)) {
            fprintf(stderr, "fuzz: the model's JSON does not parse\n");
            abort();
        }
        buf_free(&json);
        if (diag_error_count() != 0)
            abort(); /* emitters report nothing */
    }
    fuzz_end(doc, spec, &deps, errors);
    return 0;
}
