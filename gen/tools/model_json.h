/* `jvmtigen model`: the typed model as JSON, for tools that want the spec's
 * facts without parsing its XML. The format is documented in README.md
 * ("jvmtigen model: the model as JSON"). Prose, links, the change history,
 * elided items and source lines are left out, so two specs with the same
 * facts give the same bytes. */
#ifndef JVMTIGEN_MODEL_JSON_H
#define JVMTIGEN_MODEL_JSON_H

#include "base/json.h"
#include "model/model.h"

/* Appends the model of a checked spec as one JSON document: two-space
 * indented, keys in a fixed order, lists in document order, ending with a
 * newline. A pure function of the model. */
void emit_model_json(const Spec *spec, Buf *out);

#endif
