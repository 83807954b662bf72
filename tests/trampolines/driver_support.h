/* The fixed half of the generated trampoline drivers: recording
 * implementation calls, VM hooks with answers a test sets, the environment,
 * and the expect_* checks. Included once, by the generated driver. */
#ifndef DRIVER_SUPPORT_H
#define DRIVER_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Helpers a given driver may not use. */
#define SUPPORT static __attribute__((unused))

#define SENTINEL ((jvmtiError)7777) /* what every implementation returns */

static const struct jvmtiInterface_1_ *T; /* the table under test */
static int tracing_on;
static int failures, cases;
static const char *cur_fn;
static int cur_traceable;

/* ---- the implementation side ---- */
static int impl_calls;
static jvmtiError impl_result = SENTINEL; /* what the implementations return */
static unsigned char rec[24][32];
static size_t rec_size[24];
static int rec_n;

SUPPORT void impl_enter(void)
{
    impl_calls++;
    rec_n = 0;
}

SUPPORT void record(const void *p, size_t n)
{
    if (rec_n < 24 && n <= sizeof rec[0]) {
        memcpy(rec[rec_n], p, n);
        rec_size[rec_n] = n;
    }
    rec_n++;
}

/* ---- storage that pointer arguments point into ---- */
static union {
    unsigned char bytes[64];
    void *p;
    jlong j;
    double d;
} storage[24];

/* ---- VM hooks that answer what the test says and log what they saw ---- */
typedef struct HookCall {
    char kind; /* 'm' monitor, 't' thread, 'c' class, 'M' method, 'n' native?, 'f' field */
    const void *a, *b;
    int flag;
} HookCall;
static HookCall hook_log[24];
static int hook_n;
static jvmtiError thread_result, class_result, method_result, field_result, monitor_result;
static jboolean native_result;

SUPPORT void log_hook(char kind, const void *a, const void *b, int flag)
{
    if (hook_n < 24) {
        HookCall h = {kind, a, b, flag};
        hook_log[hook_n] = h;
    }
    hook_n++;
}

SUPPORT jvmtiError h_thread(jvmtiEnv *env, jthread t)
{
    (void)env;
    log_hook('t', t, NULL, 0);
    return thread_result;
}
SUPPORT jvmtiError h_class(jvmtiEnv *env, jclass k, int of_member)
{
    (void)env;
    log_hook('c', k, NULL, of_member);
    return class_result;
}
SUPPORT jvmtiError h_method(jvmtiEnv *env, jmethodID m)
{
    (void)env;
    log_hook('M', m, NULL, 0);
    return method_result;
}
SUPPORT jboolean h_native(jvmtiEnv *env, jmethodID m)
{
    (void)env;
    log_hook('n', m, NULL, 0);
    return native_result;
}
SUPPORT jvmtiError h_field(jvmtiEnv *env, jclass k, jfieldID f)
{
    (void)env;
    log_hook('f', f, k, 0);
    return field_result;
}
SUPPORT jvmtiError h_monitor(jvmtiEnv *env, jrawMonitorID m)
{
    (void)env;
    log_hook('m', m, NULL, 0);
    return monitor_result;
}

/* ---- the environment and the caller ---- */
static jvmtigen_env_head env_head;
#define ENV ((jvmtiEnv *)(void *)&env_head)

enum { TS_NO_THREADS, TS_UNATTACHED, TS_VM, TS_JAVA, TS_UNKNOWN_EARLY };

SUPPORT void set_thread(int ts)
{
    switch (ts) {
    case TS_NO_THREADS: jvmtigen_thread_attached(JVMTIGEN_NO_THREADS); break;
    case TS_UNATTACHED:
        jvmtigen_thread_attached(JVMTIRT_THREAD_UNKNOWN);
        jvmtigen_vm_has_threads = 1;
        break;
    case TS_UNKNOWN_EARLY:
        jvmtigen_thread_attached(JVMTIRT_THREAD_UNKNOWN);
        jvmtigen_vm_has_threads = 0;
        break;
    case TS_VM: jvmtigen_thread_attached(JVMTIRT_VM_THREAD); break;
    default: jvmtigen_thread_attached(JVMTIRT_JAVA_THREAD); break;
    }
}

SUPPORT void set_phase(jvmtiPhase p) { jvmtigen_set_phase(p); }

/* ---- trace capture ---- */
static int trace_lines;
static char last_line[JVMTIGEN_TRACE_LINE_MAX + 8];

SUPPORT void sink(const char *line, size_t len)
{
    trace_lines++;
    if (len >= sizeof last_line)
        len = sizeof last_line - 1;
    memcpy(last_line, line, len);
    last_line[len] = 0;
}

SUPPORT void reset(jvmtiPhase phase, int ts, const char *fn, int traceable)
{
    cur_fn = fn;
    cur_traceable = traceable;
    impl_result = SENTINEL;
    impl_calls = rec_n = hook_n = trace_lines = 0;
    thread_result = class_result = method_result = field_result = monitor_result =
        JVMTI_ERROR_NONE;
    native_result = JNI_FALSE;
    memset(storage, 0, sizeof storage);
    env_head.functions = T;
    env_head.magic = JVMTIGEN_ENV_MAGIC;
    memset(&env_head.capabilities, 0xff, sizeof env_head.capabilities);
    jvmtigen_vm_has_threads = 1;
    set_phase(phase);
    set_thread(ts);
}

/* ---- checks ---- */
SUPPORT void fail(const char *what, const char *fmt, long a, long b)
{
    failures++;
    if (failures <= 40) {
        printf("# FAIL %s: %s: ", cur_fn, what);
        printf(fmt, a, b);
        printf("\n");
    }
}

SUPPORT void check_trace(const char *what, jvmtiError got)
{
    if (!tracing_on || !cur_traceable) {
        if (trace_lines != 0)
            fail(what, "%ld trace lines, want %ld", trace_lines, 0);
        return;
    }
    char want[160];
    const char *name = jvmtigen_error_name(got);
    snprintf(want, sizeof want, "] %s(", cur_fn);
    if (trace_lines != 1 || !strstr(last_line, want))
        fail(what, "%ld trace lines, want %ld naming the function", trace_lines, 1);
    if (name)
        snprintf(want, sizeof want, " = %s", name);
    else
        snprintf(want, sizeof want, " = %d", (int)got);
    if (!strstr(last_line, want))
        fail(what, "trace line lacks the result (%ld)", (long)got, 0);
}

SUPPORT void expect_err(const char *what, jvmtiError got, jvmtiError want)
{
    cases++;
    if (got != want)
        fail(what, "returned %ld, want %ld", (long)got, (long)want);
    if (impl_calls != 0)
        fail(what, "implementation called %ld times, want %ld", impl_calls, 0);
    check_trace(what, got);
}

SUPPORT void expect_impl(const char *what, jvmtiError got)
{
    cases++;
    if (got != impl_result)
        fail(what, "returned %ld, want the implementation's %ld", (long)got, (long)impl_result);
    if (impl_calls != 1)
        fail(what, "implementation called %ld times, want %ld", impl_calls, 1);
    check_trace(what, got);
}

SUPPORT void expect_rec(int i, const void *want, size_t n)
{
    cases++;
    if (i >= rec_n || rec_size[i] != n || memcmp(rec[i], want, n) != 0)
        fail("everything valid", "argument %ld reached the implementation changed (of %ld)", i,
             rec_n);
}

SUPPORT void expect_hooks(const HookCall *want, int n)
{
    cases++;
    if (hook_n != n) {
        fail("everything valid", "%ld VM hook calls, want %ld", hook_n, n);
        return;
    }
    for (int i = 0; i < n; i++)
        if (hook_log[i].kind != want[i].kind || hook_log[i].a != want[i].a ||
            hook_log[i].b != want[i].b || hook_log[i].flag != want[i].flag)
            fail("everything valid", "VM hook call %ld differs (kind %ld)", i, hook_log[i].kind);
}

SUPPORT void expect_slot(const char *fn, size_t offset, int num)
{
    cur_fn = fn;
    cases++;
    if (offset / sizeof(void *) + 1 != (size_t)num)
        fail("table slot", "at slot %ld, want %ld", (long)(offset / sizeof(void *) + 1), num);
}

SUPPORT void expect_reserved(const char *slot, const void *p)
{
    cur_fn = slot;
    cases++;
    if (p != NULL)
        fail("reserved slot", "is %ld, want %ld", 1, 0);
}

SUPPORT int run_driver(void (*run_all)(void))
{
    const jvmtigen_vm_hooks hooks = {h_thread, h_class, h_method, h_native, h_field, h_monitor};
    static const char *const names[] = {"plain table", "tracing table, tracing off",
                                        "tracing table, tracing on"};
    jvmtigen_set_vm_hooks(&hooks);
    jvmtigen_trace_set_sink(sink);
    for (int pass = 0; pass < 3; pass++) {
        T = pass == 0 ? &jvmtigen_functions : &jvmtigen_traced_functions;
        tracing_on = pass == 2;
        if (jvmtigen_trace_configure(tracing_on ? "*" : "") < 0)
            return 2;
        int before = failures;
        cases = 0;
        run_all();
        printf("%s - trampolines, %s: %d cases\n", failures == before ? "ok" : "not ok",
               names[pass], cases);
    }
    return failures ? 1 : 0;
}

#endif
