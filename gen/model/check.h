/* Semantic checks of a built model, beyond what any DTD can say: unique ids
 * and numbers, references that resolve, C-valid names, numbers in range.
 * Every problem is queued as "FILE:LINE: error: ..."; all are reported. */
#ifndef JVMTIGEN_CHECK_H
#define JVMTIGEN_CHECK_H

#include "model/model.h"

/* diag_error_count() tells how many were found. */
void check_spec(const Spec *spec);

#endif
