/* `jvmtigen diff OLD NEW`: an API changelog between two checked specs,
 * computed from their models (model.h), the same facts `jvmtigen model`
 * prints. Items are matched by id, kind by kind: functions, events,
 * callbacks, types (structs and unions), base types, capabilities, errors,
 * constant groups and constants. Each is added, removed, or changed in
 * named facts (num, phase, since, capabilities, signature, a parameter's
 * attributes, ...). The text and JSON forms are documented in README.md
 * ("jvmtigen diff"). With abi, the layouts instead (`diff --abi`): structs'
 * sizes, alignments and offsets, the function table's and the event
 * callbacks' slots, the capabilities' bits. */
#ifndef JVMTIGEN_DIFF_H
#define JVMTIGEN_DIFF_H

#include <stdbool.h>

#include "model/model.h"

typedef struct DiffNames {
    const char *old_name; /* how to call each spec in the output: its path */
    const char *new_name;
} DiffNames;

/* Appends the changelog of old -> new to out, as text or as one JSON
 * document; both end with a newline. Returns the number of items added,
 * removed or changed. A pure function of the two models. */
size_t emit_spec_diff(const Spec *old, const Spec *new_, const DiffNames *names, bool json,
                      bool abi, Buf *out);

#endif
