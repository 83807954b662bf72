/* `jvmtigen fill SPEC FILE`: starts and maintains the hand-written C file in
 * which a VM implements the jvmti_impl_* functions of jvmtigen_impl.h.
 *
 * A missing (or empty) FILE becomes a skeleton: one stub per function of the
 * function table, in spec order. An existing FILE is merged: every byte of it
 * stays as it is, except that a stub is inserted for each function it does
 * not define (after the definition of the nearest function before it in spec
 * order), a comment is inserted above each definition whose parameter or
 * return types differ from the spec's, and such a comment of jvmtigen's own
 * is removed once the definition matches again. Definitions of names that are
 * not functions of the spec are reported and left alone. */
#ifndef JVMTIGEN_FILL_H
#define JVMTIGEN_FILL_H

#include "model/facts.h"
#include "model/model.h"

typedef struct FillOptions {
    const char *spec_path; /* for messages and the skeleton's comment */
    const char *file;      /* the C file to create or merge */
    JvmtiVersion version;  /* for the skeleton's comment and signature notes */
    int verbose;
    int quiet; /* no summary line */
    int core;  /* --core: leave out what the runtime core implements */
} FillOptions;

/* The marker comment opening each stub, up to the function's name. */
#define FILL_STUB_MARKER "/* jvmtigen stub: "
/* How a comment about a changed signature begins, up to the function's name. */
#define FILL_SIGNATURE_NOTE "/* jvmtigen: the signature of "

/* With --core, the file ends with the table of the VM's implementations
 * (jvmtirt_impl_table jvmtirt_impls, for jvmtirt_config.impls) between these
 * two comments, rewritten on each run: every function the file defines
 * whose body is no longer the stub's. */
#define FILL_TABLE_BEGIN "/* jvmtigen: registered implementations"
#define FILL_TABLE_END "/* jvmtigen: end of registered implementations */"

/* Creates or merges o->file from a checked spec. Diagnostics are queued and
 * flushed. Returns an exit status (base/status.h): EXIT_OK done (warnings
 * allowed), EXIT_INVALID the file cannot be scanned or has duplicate
 * definitions, EXIT_IO an I/O error. */
int fill_file(const Spec *spec, const FillOptions *o);

/* One stub (marker comment, definition), ending with a newline. */
void fill_stub_append(Buf *b, const Function *f);

#endif
