/* Every error a function can return besides the universal ones, and who
 * returns it: the trampoline, on entry (the guards of guard.h), or the
 * implementation (what a parameter's type implies but the spec leaves to
 * the implementation, e.g. a jthread with impl="noconvert", and the errors
 * the function names itself). The documentation lists these; the
 * trampolines check the subset guards_of() gives. */
#ifndef JVMTIGEN_ERRORS_H
#define JVMTIGEN_ERRORS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/guard.h"
#include "model/model.h"

/* Why a parameter can make a function fail. */
typedef enum ParamErrorKind {
    PE_NULL,         /* a pointer that must not be NULL is NULL */
    PE_MONITOR,      /* not a raw monitor */
    PE_THREAD,       /* not a thread */
    PE_THREAD_ALIVE, /* a thread that is not alive */
    PE_THREAD_GROUP, /* not a thread group */
    PE_OBJECT,       /* not an object */
    PE_DEPTH,        /* a frame depth below zero */
    PE_FRAMES,       /* no frame at that depth */
    PE_CLASS,        /* not a class, or unloaded */
    PE_METHOD,       /* not a method ID */
    PE_NATIVE,       /* a native method where one is refused */
    PE_FIELD,        /* not a field ID (of its class) */
    PE_LOCATION,     /* not a location in the method */
    PE_ENUM,         /* not a value of its constants group */
    PE_EVENT_TYPE,   /* not an event type */
    PE_MIN,          /* a jint below its minimum */
    PE_COUNT
} ParamErrorKind;

/* One row per kind: a new kind of parameter error is a row here (and, when
 * the trampoline checks it, a guard_kinds[] row in model/guard.c). */
typedef struct ParamErrorKindInfo {
    const char *name;  /* as the docs' templates see it: "null", "thread-alive", ... */
    const char *error; /* "JVMTI_ERROR_..." */
    int guard;         /* the GuardKind that checks it on entry, or -1: never */
    /* The docs' sentence (jg:errors' says=): %p the parameter, %t the type
     * of its values, %c " of CLASS" when the class is known, %m the minimum;
     * each format renders them its own way (templates' "says-part"). */
    const char *says;
} ParamErrorKindInfo;
extern const ParamErrorKindInfo param_error_kinds[PE_COUNT];

typedef enum FnErrorOrigin {
    FE_CAPABILITY, /* a required capability is missing (checked on entry) */
    FE_PARAM,      /* a parameter (param, kind) */
    FE_OWN         /* named in the function's <errors> (own) */
} FnErrorOrigin;

typedef struct FnError {
    FnErrorOrigin origin;
    const char *error;   /* "JVMTI_ERROR_..." */
    bool on_entry;       /* the trampoline checks it before the implementation runs */
    const char *cap;     /* FE_CAPABILITY */
    const Param *param;  /* FE_PARAM */
    ParamErrorKind kind; /* FE_PARAM */
    const Guard *guard;  /* FE_PARAM checked on entry: its guard (klass, min...) */
    const NameRef *own;  /* FE_OWN */
} FnError;

typedef struct FnErrors {
    FnError *items;
    size_t n;
    Guard *guards; /* guards_of(f), which items point into */
    size_t n_guards;
} FnErrors;

/* f's errors: capabilities, then each parameter's in declaration order,
 * then its own. Free with fn_errors_free(). */
FnErrors fn_errors_of(const Function *f);
void fn_errors_free(FnErrors *e);

#endif
