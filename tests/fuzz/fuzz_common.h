/* What the libFuzzer targets share: one-time set-up of libxml2 and of the
 * diagnostics, the load-build-check pipeline on a buffer, and the checks of
 * what a run printed. Built only by `make fuzz` (see tests/fuzz/README.md).
 *
 * An input is parsed as if read from FUZZ_SPEC_NAME (set by the Makefile to
 * tests/fuzz/regressions/input.xml under the project root), so a DOCTYPE
 * naming "../../../spec/jvmti.dtd" finds the project's DTD exactly as the
 * same file saved in tests/fuzz/regressions/ does when bin/jvmtigen reads it. */
#ifndef JVMTIGEN_FUZZ_COMMON_H
#define JVMTIGEN_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#include "model/build.h"
#include "model/check.h"
#include "base/diag.h"
#include "c/emit.h"
#include "model/load.h"

#ifndef FUZZ_SPEC_NAME
#error "FUZZ_SPEC_NAME: the path an input is read as (the Makefile sets it)"
#endif

static char *fuzz_diag_text;
static size_t fuzz_diag_len;
static FILE *fuzz_diag_stream;

/* libxml2 prints nothing of its own: the loader installs its handler for
 * each load, and outside a load nothing should be said at all. */
static void fuzz_silent(void *ctx, const char *fmt, ...)
{
    (void)ctx, (void)fmt;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    LIBXML_TEST_VERSION
    xmlInitParser();
    xmlSetGenericErrorFunc(NULL, fuzz_silent);
    return 0;
}

/* Loads, builds and checks data; *spec is NULL unless the load succeeded.
 * Returns the number of errors. Diagnostics go to a memory stream that
 * fuzz_end() reads. */
static int fuzz_load(const uint8_t *data, size_t size, xmlDocPtr *doc, Spec **spec, Vec *deps)
{
    fuzz_diag_stream = open_memstream(&fuzz_diag_text, &fuzz_diag_len);
    if (!fuzz_diag_stream)
        abort();
    diag_set_stream(fuzz_diag_stream);
    *spec = NULL;
    int rc = load_spec_memory(FUZZ_SPEC_NAME, (const char *)data, size, doc, deps);
    if (rc == LOAD_OK) {
        if (!*doc)
            abort(); /* success must come with a document */
        *spec = build_spec(*doc, FUZZ_SPEC_NAME);
        if (diag_error_count() == 0)
            check_spec(*spec);
    } else if (*doc) {
        abort(); /* failure must not leave a document behind */
    } else if (diag_error_count() == 0) {
        abort(); /* a failed load always says why */
    }
    return diag_error_count();
}

/* The generation context of a spec without errors: the version the command
 * line would pick, or the one --jvmti-version would give when the spec
 * names none. */
static inline GenContext fuzz_context(Spec *spec)
{
    GenContext ctx = {.spec = spec, .spec_name = "input.xml", .banner = NULL};
    if (!spec->version || !version_parse(spec->version, &ctx.version))
        ctx.version = (JvmtiVersion){25, 0, 0};
    return ctx;
}

/* Prints the queued diagnostics into the memory stream and checks them:
 * every line names the spec, a file the load read (its DTD) or jvmtigen,
 * so no diagnostic runs over several lines; an invalid spec has at least
 * one error line. Then frees everything of the run. */
static void fuzz_end(xmlDocPtr doc, Spec *spec, Vec *deps, int errors)
{
    int printed = diag_flush();
    fclose(fuzz_diag_stream);
    diag_set_stream(NULL);
    if (printed != errors)
        abort();
    size_t name_len = strlen(FUZZ_SPEC_NAME);
    for (const char *p = fuzz_diag_text, *end = p + fuzz_diag_len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            abort(); /* every diagnostic ends its line */
        int known = strncmp(p, "jvmtigen: ", 10) == 0 ||
                    (strncmp(p, FUZZ_SPEC_NAME, name_len) == 0 && p[name_len] == ':');
        for (size_t i = 0; i < deps->n && !known; i++) {
            size_t n = strlen(deps->items[i]);
            known = strncmp(p, deps->items[i], n) == 0 && p[n] == ':';
        }
        if (!known) {
            fprintf(stderr, "fuzz: a diagnostic line that names no file: %.*s\n",
                    (int)(nl - p), p);
            abort();
        }
        p = nl + 1;
    }
    if (errors > 0 && fuzz_diag_len == 0)
        abort();
    free(fuzz_diag_text);
    fuzz_diag_text = NULL;
    spec_free(spec);
    if (doc)
        xmlFreeDoc(doc);
    for (size_t i = 0; i < deps->n; i++)
        free(deps->items[i]);
    vec_free(deps);
    diag_reset();
}

#endif
