/* The outputs jvmtigen writes. Each emitter is a pure function of the model
 * and the options: it appends the file's bytes to a buffer and touches no
 * file; output.c decides what reaches the disk. */
#ifndef JVMTIGEN_EMIT_H
#define JVMTIGEN_EMIT_H

#include "base/output.h"
#include "model/facts.h"
#include "model/model.h"

typedef struct GenContext {
    const Spec *spec;
    JvmtiVersion version;
    const char *spec_name; /* the spec's file name, for banners */
    const char *banner;    /* replacement banner text (--banner), or NULL */
} GenContext;

typedef struct Output {
    const char *name; /* path below the output directory */
    void (*emit)(const GenContext *ctx, Buf *out);
} Output;

extern const Output outputs[];
extern const int n_outputs;

/* Every output, outputs[i] into files[i].data (n_outputs initialized
 * buffers): the whole generation, in memory. */
void emit_all(const GenContext *ctx, OutFile *files);

void emit_header(const GenContext *ctx, Buf *out);
void emit_impl_header(const GenContext *ctx, Buf *out);
void emit_tables_header(const GenContext *ctx, Buf *out);
void emit_tables_source(const GenContext *ctx, Buf *out);
void emit_entry(const GenContext *ctx, Buf *out);
void emit_post_header(const GenContext *ctx, Buf *out);
void emit_post_source(const GenContext *ctx, Buf *out);
void emit_defaults(const GenContext *ctx, Buf *out);
void emit_check(const GenContext *ctx, Buf *out);

/* Shared by the trampolines and libjvmticheck's entries (ns is the names'
 * prefix, "jvmtigen" or "jvmticheck"): per category, each function's code
 * (which defines NS_entry_NAME), then the tables NS_functions and
 * NS_traced_functions with the tracing wrappers NS_trace_NAME between. */
void emit_entries_and_tables(Buf *o, const Spec *s, const char *ns,
                             void (*code)(Buf *o, const Spec *s, const Function *f));

/* The layouts of jvmti.h's declarations (emit_header.c), which the docs
 * show too, so the two cannot disagree. No line break at either end.
 * A function's parameters as called through the table: "jvmtiEnv* env",
 * then each parameter of its C signature after sep. */
void header_function_params(Buf *o, const Function *f, const char *sep);
/* An event handler's parameters: "jvmtiEnv *jvmti_env", then each after sep. */
void header_event_params(Buf *o, const Event *e, const char *sep);
/* An event's callback typedef: "typedef void (JNICALL *jvmtiEventX)" and
 * its parameters one a line. */
void header_event_typedef(Buf *o, const Event *e);
/* A callback typedef, its parameters separated by sep (jvmti.h: ", "). */
void header_callback_typedef(Buf *o, const Callback *c, const char *sep);

/* The opening comment of a generated C file: the spec's copyright lines and
 * what generated it, or the user's --banner. Ends with a newline. */
void emit_banner(const GenContext *ctx, Buf *out, const char *what);

#endif
