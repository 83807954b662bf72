/* The layout keys of `jvmtigen model` (README.md): each typedef's "layout"
 * and the top-level "abi" (base types, jvmtiCapabilities, the event
 * callbacks and the function table, slot by slot), for each data model. */
#ifndef JVMTIGEN_MODEL_ABI_H
#define JVMTIGEN_MODEL_ABI_H

#include "base/json.h"
#include "model/layout.h"

/* "layout": typedef number i of the spec, or null where unknown. */
void model_json_typedef_layout(Json *j, const Spec *s, Layouts *l, size_t i);
/* "abi": everything else a binding lays out. */
void model_json_abi(Json *j, const Spec *s);

#endif
