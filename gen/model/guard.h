/* The checks a trampoline makes before calling the implementation, in the
 * order the JDK makes them. One list per function, derived from the model
 * alone; the trampoline, tracing and implementation-header emitters all read
 * it, so what is checked and what the implementation is promised agree.
 *
 * Order (after OpenJDK's generated entry code):
 *   phase -> [attached, for live/start functions] -> environment ->
 *   required capabilities -> [attached if the VM has threads, for the
 *   early-phase functions] -> each parameter in declaration order. */
#ifndef JVMTIGEN_GUARD_H
#define JVMTIGEN_GUARD_H

#include "model/model.h"

typedef enum GuardKind {
    G_PHASE,      /* current phase not allowed           -> WRONG_PHASE */
    G_ATTACHED,   /* calling thread not suitable          -> UNATTACHED_THREAD */
    G_ENV,        /* environment NULL or not valid        -> INVALID_ENVIRONMENT */
    G_CAPABILITY, /* env lacks `cap`                       -> MUST_POSSESS_CAPABILITY */
    G_NULL,       /* pointer parameter is NULL            -> NULL_POINTER */
    G_MONITOR,    /* raw monitor NULL or not one          -> INVALID_MONITOR */
    G_THREAD,     /* jthread the VM rejects               -> INVALID_THREAD, THREAD_NOT_ALIVE */
    G_DEPTH,      /* frame depth < 0                      -> ILLEGAL_ARGUMENT */
    G_CLASS,      /* jclass the VM rejects                -> INVALID_CLASS */
    G_METHOD,     /* jmethodID the VM rejects             -> INVALID_METHODID */
    G_NATIVE,     /* method is native (native="error")    -> NATIVE_METHOD */
    G_FIELD,      /* jfieldID not a field of its class    -> INVALID_FIELDID */
    G_MIN,        /* jint below its minimum               -> ILLEGAL_ARGUMENT */
    G_COUNT
} GuardKind;

/* Which phases a function may be called in (jvmtiPhase names). */
typedef enum PhaseRule {
    RULE_LIVE,        /* live (the default) */
    RULE_START,       /* start or live */
    RULE_ONLOAD,      /* OnLoad or live */
    RULE_ONLOAD_ONLY, /* OnLoad only */
    RULE_ANY          /* no check */
} PhaseRule;
PhaseRule phase_rule(const Function *f);
/* The same for any phase attribute (an event's: absent means live too). */
PhaseRule phase_rule_of(Phase p);

/* What the calling thread must be (G_ATTACHED). */
typedef enum AttachRule {
    ATTACH_JAVA,           /* an attached Java thread */
    ATTACH_JAVA_OR_VM,     /* callbacksafe: a Java thread or a VM-internal one */
    ATTACH_JAVA_IF_THREADS /* early phases: a Java thread, once the VM has threads */
} AttachRule;

typedef struct Guard {
    GuardKind kind;
    PhaseRule phase;      /* G_PHASE */
    AttachRule attach;    /* G_ATTACHED */
    const char *cap;      /* G_CAPABILITY */
    const Param *param;   /* parameter guards */
    bool null_is_current; /* G_THREAD: NULL means the calling thread (not checked) */
    bool class_of_member; /* G_CLASS: the class of a field/method (primitive rejected) */
    const Param *klass;   /* G_FIELD: the class parameter, or NULL */
    long long min;        /* G_MIN */
} Guard;

/* The guards of f, in order; *n receives the count. Free with free(). */
Guard *guards_of(const Function *f, size_t *n);

/* Everything said about one kind of check, in one row: a new kind is a row
 * here (and the param_error_kinds[] row that names it, for the docs), the
 * types that get it (param_guards) and the C the trampoline makes of it
 * (emit_entry.c). */
typedef struct GuardKindInfo {
    /* The error it returns ("JVMTI_ERROR_..."); G_THREAD: the first of two. */
    const char *error;
    /* Whether a NULL argument is refused with that error before anything
     * else (G_THREAD: unless NULL is the calling thread). */
    bool refuses_null;
    /* The runtime hook (jvmtigen_hooks.h) that judges the argument, or NULL. */
    const char *hook;
    /* What jvmtigen_impl.h promises the implementation once it passed: a
     * format of the subject (the parameter, capability, phase or thread
     * rule) and the detail (the class, the minimum); alt when the guard
     * says more (null_is_current, class_of_member, klass). */
    const char *promise, *promise_alt;
    /* libjvmticheck's finding when the agent's argument breaks the check it
     * can make without the VM (a format of the minimum for G_MIN), or NULL. */
    const char *finding;
} GuardKindInfo;
extern const GuardKindInfo guard_kinds[G_COUNT];

/* The error a guard returns: guard_kinds[k].error. */
const char *guard_error(GuardKind k);

/* The promise of g (guard_kinds[]), one line without its newline. */
void guard_promise_append(Buf *b, const Guard *g);

#endif
