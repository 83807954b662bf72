/* The conformance agent's two halves: the cases generated from the model
 * (gen_cases.py writes cases.c into the build directory) and the
 * hand-written core (agent.c) that sets up the environments and handles,
 * runs every case in its stage and prints one line per case. */
#ifndef CONFORMANCE_H
#define CONFORMANCE_H

#include "jvmti.h"

#include "../agentkit.h" /* the set-up every test agent shares */

/* When a case runs. */
enum conf_stage {
    CONF_ONLOAD,     /* in Agent_OnLoad */
    CONF_START,      /* in the VMStart callback */
    CONF_LIVE,       /* in the VMInit callback */
    CONF_UNATTACHED, /* during VMInit, on a thread the VM does not know */
    CONF_DEAD,       /* in Agent_OnUnload */
    CONF_STAGES
};

/* Which environment a case calls. */
enum conf_env {
    CONF_FULL, /* every capability the VM offered during OnLoad */
    CONF_BARE  /* no capability */
};

/* Handles a case passes as valid arguments (when the VM has them). */
enum {
    CONF_NEED_THREAD = 1,
    CONF_NEED_CLASS = 2,
    CONF_NEED_METHOD = 4,
    CONF_NEED_FIELD = 8,
    CONF_NEED_OBJECT = 16,
    CONF_NEED_MONITOR = 32,
    CONF_NEED_UNSTARTED = 64
};

#define CONF_SCRATCH 12   /* at least the most parameters of any function */
#define CONF_SCRATCH_SIZE 4096

typedef struct conf_ctx {
    jthread thread;        /* the VMInit thread (the calling one) */
    jclass klass;          /* java/lang/Thread */
    jmethodID method;      /* Thread.getName(), not native */
    jfieldID field;        /* Thread.name */
    jobject object;        /* the thread object again */
    jrawMonitorID monitor; /* a live raw monitor */
    jvalue value;          /* zero */
    jthread unstarted;     /* a java/lang/Thread object never started (JNI AllocObject) */
    void *scratch[CONF_SCRATCH]; /* zeroed buffers, one per parameter */
} conf_ctx;

typedef jvmtiError (*conf_call_fn)(jvmtiEnv *env, conf_ctx *c);
/* Whether the capabilities a case needs are held (NULL: needs none). */
typedef int (*conf_caps_fn)(const jvmtiCapabilities *held);

typedef struct conf_case {
    const char *id;
    int stage, env;
    unsigned needs;
    conf_caps_fn caps;
    conf_call_fn call;
} conf_case;

extern const conf_case conf_cases[];
extern const int conf_n_cases;

/* Facts from the model, for the hand-written cases. */
typedef struct conf_error {
    int num;
    const char *name;
} conf_error;
extern const conf_error conf_errors[]; /* in both specs, spec order */
extern const int conf_n_errors;
/* The name of any error either spec defines, else NULL. */
const char *conf_error_name(jvmtiError err);

typedef struct conf_capability {
    const char *name;
    int (*get)(const jvmtiCapabilities *caps);
    void (*set)(jvmtiCapabilities *caps, int on);
} conf_capability;
extern const conf_capability conf_capabilities[]; /* in both specs */
extern const int conf_n_capabilities;

typedef struct conf_event {
    const char *name;
    int num;
    int thread_filtered; /* may be enabled for one thread */
    conf_caps_fn caps;   /* what enabling needs; NULL: nothing */
} conf_event;
extern const conf_event conf_events[]; /* in both specs */
extern const int conf_n_events;
/* The lowest and highest event number either spec defines. */
extern const int conf_event_min, conf_event_max;
/* Whether either spec defines this event number. */
int conf_event_defined(int num);

/* A dummy for function-pointer arguments (never meant to be called). */
void conf_dummy(void);

/* ---- areas (README "Adding an area") ----
 * An area's semantic cases live in tests/conformance/area_NAME.c, compiled
 * on its own by run, with one entry function
 *     void conf_area_NAME(int stage, const conf_area_env *a);
 * named by one line X(NAME) in agent.c's CONF_AREAS. The agent calls it
 * once in each stage but CONF_UNATTACHED, in the order of the list; its
 * case ids begin with "NAME." so that the report counts them under NAME. */
typedef struct conf_area_env {
    JavaVM *vm;
    jvmtiEnv *full, *bare; /* the agent's two environments (see agent.c) */
    JNIEnv *jni;           /* the calling thread's; NULL in CONF_ONLOAD and CONF_DEAD */
    const conf_ctx *ctx;   /* the valid handles (local references): CONF_LIVE only, else NULL */
} conf_area_env;

/* One output line, "id answer" (printf-style answer). */
void conf_say(const char *id, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* "id ERROR_NAME". */
void conf_result(const char *id, jvmtiError err);
/* The name either spec gives err, else "ERROR(n)". */
const char *conf_err_name(jvmtiError err);

#endif
