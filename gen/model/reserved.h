/* Names the spec may not give to anything: what jni.h, the C library's
 * headers it and the generated C include, jvmti.h itself and jvmtigen's
 * generated code declare, where a name from the spec would meet them. */
#ifndef JVMTIGEN_RESERVED_H
#define JVMTIGEN_RESERVED_H

#include <stdbool.h>

/* Why the spec may not use name, or NULL when it may. */
const char *reserved_name_reason(const char *name);

/* The same for the name of a function or of a function's parameter: those
 * are also the member functions, and their parameters, of jvmti.h's C++
 * class. */
const char *reserved_function_name_reason(const char *name);

#endif
