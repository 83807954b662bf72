/* jvmtigen_trace.h: call tracing for the generated trampolines.
 *
 * jvmtigen_traced_functions (jvmtigen_entry.c) puts every traceable function
 * behind a switch in jvmtigen_trace_flags; a switched-on call is logged as
 * one line when it returns:
 *
 *   jvmti: GetThreadState(thread=0x7f.., thread_state_ptr=0x7ffd..)
 *          = JVMTI_ERROR_NONE; *thread_state_ptr=5 (812 ns)
 *
 * (one line in reality). Which functions: jvmtigen_trace_configure() with a
 * comma-separated list of name patterns ('*' and '?' wildcards; a leading
 * '-' removes matches), or the environment: JVMTI_TRACE=GetThreadState,Set*
 * and optionally JVMTI_TRACE_FILE=path (default: standard error). */
#ifndef JVMTIGEN_TRACE_H
#define JVMTIGEN_TRACE_H

#include <stddef.h>

#include "jvmti.h"
#include "jvmtigen_tables.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define JVMTIGEN_NOINLINE __attribute__((noinline, cold))
#else
#define JVMTIGEN_NOINLINE
#endif

/* Selects the traced functions; returns how many are on. Functions the spec
 * marks notrace are never traced. NULL or "" turns tracing off. */
int jvmtigen_trace_configure(const char *patterns);
/* Reads JVMTI_TRACE and JVMTI_TRACE_FILE; returns what configure returned,
 * or -1 if the trace file cannot be opened (tracing then goes to stderr). */
int jvmtigen_trace_configure_from_env(void);

/* Where finished lines go (each ends in '\n'); NULL restores the default. */
typedef void (*jvmtigen_trace_sink_fn)(const char *line, size_t len);
void jvmtigen_trace_set_sink(jvmtigen_trace_sink_fn sink);

/* ---- used by the generated tracing trampolines ---- */
#define JVMTIGEN_TRACE_LINE_MAX 1024

typedef struct jvmtigen_trace_call {
    char line[JVMTIGEN_TRACE_LINE_MAX];
    size_t len;
    int items;       /* values written in the current list */
    int stage;       /* 0: arguments, 1: after the result */
    long long t0, t1;
} jvmtigen_trace_call;

void jvmtigen_trace_begin(jvmtigen_trace_call *c, jvmtiEnv *env, const char *function);
void jvmtigen_trace_int(jvmtigen_trace_call *c, const char *name, jlong v);
void jvmtigen_trace_double(jvmtigen_trace_call *c, const char *name, double v);
void jvmtigen_trace_bool(jvmtigen_trace_call *c, const char *name, jboolean v);
void jvmtigen_trace_char(jvmtigen_trace_call *c, const char *name, char v);
void jvmtigen_trace_ptr(jvmtigen_trace_call *c, const char *name, const void *p);
void jvmtigen_trace_str(jvmtigen_trace_call *c, const char *name, const char *s);
void jvmtigen_trace_raw(jvmtigen_trace_call *c, const char *name, const char *text);
/* An enum value by name, or flags joined with '|'. */
void jvmtigen_trace_const(jvmtigen_trace_call *c, const char *name, jlong v,
                          const jvmtigen_constant_group *g);
void jvmtigen_trace_call_start(jvmtigen_trace_call *c);
void jvmtigen_trace_result(jvmtigen_trace_call *c, jvmtiError err);
void jvmtigen_trace_end(jvmtigen_trace_call *c);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* JVMTIGEN_TRACE_H */
