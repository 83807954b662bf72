/* The layout keys of `jvmtigen model` (README.md): each typedef's "layout"
 * and the top-level "abi" (base types, jvmtiCapabilities, the event
 * callbacks and the function table, slot by slot), for each data model. */
#ifndef JVMTIGEN_MODEL_ABI_H
#define JVMTIGEN_MODEL_ABI_H

#include "base/json.h"
#include "c/layout.h"

/* "layout": typedef number i of the spec, or null where unknown. */
void model_json_typedef_layout(Json *j, const Spec *s, Layouts *l, size_t i);
/* "abi": everything else a binding lays out. */
void model_json_abi(Json *j, const Spec *s);

/* How a struct is passed (struct_uses): who owns its memory and the
 * references in its fields, for the model's "owner" and diff's
 * "allocated_by". */
enum {
    USE_IN = 1,           /* a function takes one in (inptr, inbuf) */
    USE_OUT = 2,          /* a function fills the caller's (outptr, outbuf) */
    USE_VM = 4,           /* a function passes it otherwise (the VM's memory) */
    USE_CALLBACK = 8,     /* a callback hands one to the agent */
    USE_IN_UNPASSED = 16, /* a field of a struct nothing passes */
};
/* Every way struct id is passed: directly, or inside a struct (its fields
 * go where it goes), up to 16 levels out. */
unsigned struct_uses(const Spec *s, const char *id);

#endif
