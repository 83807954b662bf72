/* The memory layout of the spec's C types, as jvmti.h declares them, for
 * the data models a binding meets: LP64 (x86-64 and AArch64 System V, and
 * Win64, whose jint is a 32-bit long) and ILP32 as i386 System V lays it
 * out (jlong and jdouble 8 bytes aligned to 4 inside structs: what gcc -m32
 * and clang -m32 do). Derived from the types in the model; `jvmtigen model`
 * prints it and tests/abi checks it against the compilers. */
#ifndef JVMTIGEN_LAYOUT_H
#define JVMTIGEN_LAYOUT_H

#include <stdbool.h>

#include "model/model.h"

typedef enum DataModel { DM_LP64, DM_ILP32, DM_COUNT } DataModel;
extern const char *const data_model_names[DM_COUNT]; /* "lp64", "ilp32" */

typedef struct Layout {
    long size, align;
} Layout;

/* The layout of every typedef of s, computed once. A typedef whose size
 * cannot be known (a field of a type with no size, by value, or a struct
 * holding itself) is unknown. */
typedef struct Layouts Layouts;
Layouts *layouts_new(const Spec *s);
void layouts_free(Layouts *l);

/* The layout of a value of type t in dm; false when it has none. */
bool layout_of_type(Layouts *l, const Type *t, DataModel dm, Layout *out);
/* The layout of typedef number i of s (s->typedefs[i]) and its fields'
 * offsets (offsets[k] for field k); false when unknown. */
bool layout_of_typedef(Layouts *l, size_t i, DataModel dm, Layout *out, const long **offsets);

long layout_pointer_size(DataModel dm);
/* jvmtiCapabilities with n capabilities: one unsigned int bit-field each,
 * then the unnamed padding emit_header.c writes. */
Layout layout_capabilities(size_t n);
/* A struct of n pointers (the function table, the event callbacks). */
Layout layout_pointers(DataModel dm, long n);

#endif
