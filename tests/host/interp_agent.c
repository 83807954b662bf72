/* Debugs tests/host/Debuggee.java the way a debugger does, in HotSpot and
 * in bin/jvmti-host's interpreter (host/interp.c) alike, printing only
 * what both must agree on (test.sh compares each VM's output with the
 * same expected text). Options: METHOD:LINE, where to stop; with
 * ":unwind", PopFrame and ForceEarlyReturnInt at the breakpoint too (the
 * host answers OPAQUE_FRAME on interpreted frames: tests/host only).
 *
 * At ClassPrepare of Debuggee: the breakpoint's location from the method's
 * line number table (GetMethodLocation, GetLineNumberTable), SetBreakpoint,
 * MethodEntry / MethodExit enabled on that thread. At the Breakpoint: the
 * stack with line numbers (GetFrameCount, GetStackTrace), the local
 * variable table, the int and String locals (GetLocalInt, GetLocalObject
 * and JNI GetStringUTFChars), two refused reads (TYPE_MISMATCH,
 * INVALID_SLOT), SetLocalInt of `total` (the program then prints what it
 * was set to plus the rest of the loop); an attached thread suspending
 * it there (SuspendThread, GetFrameLocation, GetLocalInt of the thread
 * from another, ResumeThread); NotifyFramePop, then six single
 * steps. At the FramePop, GetLocalInt of the loop variable, out of its
 * range there (INVALID_SLOT: the local variable table decides). FramePop and the Debuggee methods' MethodEntry / MethodExit are
 * counted and printed at VMDeath. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jvmti.h>

#include "../agentkit.h"

#define MAX_METHODS 16

static jvmtiEnv *jvmti;
static char bp_method[64];
static int bp_line;
static int try_unwind; /* option ":unwind": PopFrame and ForceEarlyReturnInt at the breakpoint */
static int steps_left;
/* Debuggee's methods: their IDs, names and event counts. */
static jmethodID ids[MAX_METHODS];
static char *names[MAX_METHODS];
static int n_ids, entries[MAX_METHODS], exits[MAX_METHODS], frame_pops;
static int slot_i = -1; /* sum's loop variable, whose range ends before the return */
static int slot_total = -1;
static JavaVM *jvm;
static jthread stopped; /* a global reference to the thread at the breakpoint */

static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("interp: ");
    vprintf(fmt, ap);
    printf("\n");
    fflush(stdout); /* interleaved with the program's own lines */
    va_end(ap);
}

static const char *error_name(jvmtiError err)
{
    static char buf[64];
    char *name = NULL;
    if ((*jvmti)->GetErrorName(jvmti, err, &name) != JVMTI_ERROR_NONE || !name) {
        snprintf(buf, sizeof buf, "error %d", (int)err);
        return buf;
    }
    snprintf(buf, sizeof buf, "%s", name);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)name);
    return buf;
}

static int check(jvmtiError err, const char *what)
{
    if (err != JVMTI_ERROR_NONE)
        say("%s failed: %s", what, error_name(err));
    return err == JVMTI_ERROR_NONE;
}

static int index_of(jmethodID m)
{
    for (int i = 0; i < n_ids; i++)
        if (ids[i] == m)
            return i;
    return -1;
}

/* The source line of location in m: the last table entry at or before it. */
static int line_of(jmethodID m, jlocation location)
{
    jint n = 0;
    jvmtiLineNumberEntry *table = NULL;
    if ((*jvmti)->GetLineNumberTable(jvmti, m, &n, &table) != JVMTI_ERROR_NONE)
        return -1;
    int line = -1;
    jlocation best = -1;
    for (jint i = 0; i < n; i++)
        if (table[i].start_location <= location && table[i].start_location > best) {
            best = table[i].start_location;
            line = table[i].line_number;
        }
    (*jvmti)->Deallocate(jvmti, (unsigned char *)table);
    return line;
}

/* "Class.method" for any method (a JDK one too, in HotSpot). */
static void method_name(jmethodID m, char *out, size_t size)
{
    jclass k = NULL;
    char *sig = NULL, *name = NULL;
    snprintf(out, size, "?");
    if ((*jvmti)->GetMethodDeclaringClass(jvmti, m, &k) == JVMTI_ERROR_NONE &&
        (*jvmti)->GetClassSignature(jvmti, k, &sig, NULL) == JVMTI_ERROR_NONE &&
        (*jvmti)->GetMethodName(jvmti, m, &name, NULL, NULL) == JVMTI_ERROR_NONE)
        snprintf(out, size, "%.*s.%s", (int)strlen(sig) - 2, sig + 1, name);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)sig);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)name);
}

static void JNICALL class_prepare(jvmtiEnv *env, JNIEnv *jni, jthread thread, jclass klass)
{
    (void)jni;
    char *sig = NULL;
    if ((*env)->GetClassSignature(env, klass, &sig, NULL) != JVMTI_ERROR_NONE)
        return;
    int ours = strcmp(sig, "LDebuggee;") == 0;
    (*env)->Deallocate(env, (unsigned char *)sig);
    if (!ours)
        return;
    jint n = 0;
    jmethodID *methods = NULL;
    if (!check((*env)->GetClassMethods(env, klass, &n, &methods), "GetClassMethods"))
        return;
    for (jint i = 0; i < n && n_ids < MAX_METHODS; i++) {
        char *name = NULL;
        if ((*env)->GetMethodName(env, methods[i], &name, NULL, NULL) != JVMTI_ERROR_NONE)
            continue;
        ids[n_ids] = methods[i];
        names[n_ids++] = strdup(name);
        (*env)->Deallocate(env, (unsigned char *)name);
    }
    (*env)->Deallocate(env, (unsigned char *)methods);
    for (int i = 0; i < n_ids; i++) {
        if (strcmp(names[i], bp_method) != 0)
            continue;
        jlocation start = -1, end = -1;
        jint n_lines = 0;
        jvmtiLineNumberEntry *lines = NULL;
        if (!check((*env)->GetMethodLocation(env, ids[i], &start, &end), "GetMethodLocation") ||
            !check((*env)->GetLineNumberTable(env, ids[i], &n_lines, &lines), "GetLineNumberTable"))
            return;
        jlocation at = -1;
        for (jint k = 0; k < n_lines && at < 0; k++)
            if (lines[k].line_number == bp_line)
                at = lines[k].start_location;
        (*env)->Deallocate(env, (unsigned char *)lines);
        say("prepared Debuggee: %s at locations %d..%d, line %d at location %d", bp_method,
            (int)start, (int)end, bp_line, (int)at);
        check((*env)->SetBreakpoint(env, ids[i], at), "SetBreakpoint");
    }
    check((*env)->SetEventNotificationMode(env, JVMTI_ENABLE, JVMTI_EVENT_METHOD_ENTRY, thread),
          "enabling MethodEntry");
    check((*env)->SetEventNotificationMode(env, JVMTI_ENABLE, JVMTI_EVENT_METHOD_EXIT, thread),
          "enabling MethodExit");
}

/* The local variable table's entry named name: its slot (-1: none). */
static int slot_of(const jvmtiLocalVariableEntry *t, jint n, const char *name)
{
    for (jint i = 0; i < n; i++)
        if (strcmp(t[i].name, name) == 0)
            return t[i].slot;
    return -1;
}

static void show_locals(jvmtiEnv *env, JNIEnv *jni, jthread thread, jmethodID m)
{
    jint n = 0;
    jvmtiLocalVariableEntry *t = NULL;
    if (!check((*env)->GetLocalVariableTable(env, m, &n, &t), "GetLocalVariableTable"))
        return;
    /* by slot: the spec fixes no order */
    for (jint slot = 0; slot < 16; slot++)
        for (jint i = 0; i < n; i++)
            if (t[i].slot == slot)
                say("  local %d: %s %s, locations %d..%d", (int)slot, t[i].name, t[i].signature,
                    (int)t[i].start_location, (int)(t[i].start_location + t[i].length - 1));
    int s_n = slot_of(t, n, "n"), s_total = slot_of(t, n, "total"), s_i = slot_of(t, n, "i"),
        s_label = slot_of(t, n, "label");
    slot_i = s_i;
    slot_total = s_total;
    jint v_n = 0, v_total = 0, v_i = 0, bad = 0;
    jobject label = NULL;
    if (check((*env)->GetLocalInt(env, thread, 0, s_n, &v_n), "GetLocalInt n") &&
        check((*env)->GetLocalInt(env, thread, 0, s_total, &v_total), "GetLocalInt total") &&
        check((*env)->GetLocalInt(env, thread, 0, s_i, &v_i), "GetLocalInt i"))
        say("  n = %d, total = %d, i = %d", (int)v_n, (int)v_total, (int)v_i);
    if (check((*env)->GetLocalObject(env, thread, 0, s_label, &label), "GetLocalObject label")) {
        const char *text = label ? (*jni)->GetStringUTFChars(jni, (jstring)label, NULL) : NULL;
        say("  label = \"%s\"", text ? text : "(null)");
        if (text)
            (*jni)->ReleaseStringUTFChars(jni, (jstring)label, text);
    }
    say("  GetLocalInt of label: %s", error_name((*env)->GetLocalInt(env, thread, 0, s_label, &bad)));
    say("  GetLocalInt of slot 9: %s", error_name((*env)->GetLocalInt(env, thread, 0, 9, &bad)));
    if (check((*env)->SetLocalInt(env, thread, 0, s_total, 100), "SetLocalInt total"))
        say("  total set to 100");
    for (jint i = 0; i < n; i++) {
        (*env)->Deallocate(env, (unsigned char *)t[i].name);
        (*env)->Deallocate(env, (unsigned char *)t[i].signature);
        (*env)->Deallocate(env, (unsigned char *)t[i].generic_signature);
    }
    (*env)->Deallocate(env, (unsigned char *)t);
}

/* Another (attached) thread suspends the one at the breakpoint while it
 * waits in the callback, reads where it is and its locals, and resumes it. */
static void *watcher(void *arg)
{
    (void)arg;
    JNIEnv *jni = NULL;
    if ((*jvm)->AttachCurrentThread(jvm, (void **)&jni, NULL) != JNI_OK) {
        say("watcher: AttachCurrentThread failed");
        return NULL;
    }
    jmethodID m = NULL;
    jlocation at = -1;
    jint i = 0, total = 0;
    char name[128];
    if (check((*jvmti)->SuspendThread(jvmti, stopped), "SuspendThread") &&
        check((*jvmti)->GetFrameLocation(jvmti, stopped, 0, &m, &at), "GetFrameLocation") &&
        check((*jvmti)->GetLocalInt(jvmti, stopped, 0, slot_i, &i), "GetLocalInt i") &&
        check((*jvmti)->GetLocalInt(jvmti, stopped, 0, slot_total, &total), "GetLocalInt total")) {
        method_name(m, name, sizeof name);
        say("watcher: suspended at %s location %d, i = %d, total = %d", name, (int)at, (int)i,
            (int)total);
        say("watcher: GetLocalInt of i at depth 1: %s",
            error_name((*jvmti)->GetLocalInt(jvmti, stopped, 1, slot_i, &i)));
        if (check((*jvmti)->ResumeThread(jvmti, stopped), "ResumeThread"))
            say("watcher: resumed");
    }
    (*jvm)->DetachCurrentThread(jvm);
    return NULL;
}

static void JNICALL breakpoint(jvmtiEnv *env, JNIEnv *jni, jthread thread, jmethodID method,
                               jlocation location)
{
    char name[128];
    method_name(method, name, sizeof name);
    say("breakpoint: %s location %d line %d", name, (int)location, line_of(method, location));
    jint count = 0;
    if (check((*env)->GetFrameCount(env, thread, &count), "GetFrameCount"))
        say("  %d frames", (int)count);
    jvmtiFrameInfo frames[8];
    if (check((*env)->GetStackTrace(env, thread, 0, 8, frames, &count), "GetStackTrace"))
        for (jint i = 0; i < count; i++) {
            method_name(frames[i].method, name, sizeof name);
            say("  at %s line %d", name, line_of(frames[i].method, frames[i].location));
        }
    show_locals(env, jni, thread, method);
    if (try_unwind) { /* the host's interpreted frames are opaque to both (differences.md) */
        say("  PopFrame: %s", error_name((*env)->PopFrame(env, thread)));
        say("  ForceEarlyReturnInt: %s", error_name((*env)->ForceEarlyReturnInt(env, thread, 7)));
    }
    pthread_t w;
    stopped = (*jni)->NewGlobalRef(jni, thread);
    if (pthread_create(&w, NULL, watcher, NULL) == 0)
        pthread_join(w, NULL);
    (*jni)->DeleteGlobalRef(jni, stopped);
    check((*env)->NotifyFramePop(env, thread, 0), "NotifyFramePop");
    check((*env)->ClearBreakpoint(env, method, location), "ClearBreakpoint");
    steps_left = 6;
    check((*env)->SetEventNotificationMode(env, JVMTI_ENABLE, JVMTI_EVENT_SINGLE_STEP, thread),
          "enabling SingleStep");
}

static void JNICALL single_step(jvmtiEnv *env, JNIEnv *jni, jthread thread, jmethodID method,
                                jlocation location)
{
    (void)jni;
    if (steps_left <= 0)
        return;
    char name[128];
    method_name(method, name, sizeof name);
    say("step: %s location %d line %d", name, (int)location, line_of(method, location));
    if (--steps_left == 0)
        check((*env)->SetEventNotificationMode(env, JVMTI_DISABLE, JVMTI_EVENT_SINGLE_STEP, thread),
              "disabling SingleStep");
}

static void JNICALL frame_pop(jvmtiEnv *env, JNIEnv *jni, jthread thread, jmethodID method,
                              jboolean by_exception)
{
    (void)jni;
    char name[128];
    method_name(method, name, sizeof name);
    frame_pops++;
    say("FramePop: %s, by exception: %d", name, (int)by_exception);
    /* At the return, i is out of its range in the local variable table. */
    jint v = 0;
    say("  GetLocalInt of i at the return: %s",
        error_name((*env)->GetLocalInt(env, thread, 0, slot_i, &v)));
}

static void JNICALL method_entry(jvmtiEnv *env, JNIEnv *jni, jthread thread, jmethodID method)
{
    (void)env, (void)jni, (void)thread;
    int i = index_of(method);
    if (i >= 0)
        entries[i]++;
}

static void JNICALL method_exit(jvmtiEnv *env, JNIEnv *jni, jthread thread, jmethodID method,
                                jboolean by_exception, jvalue value)
{
    (void)env, (void)jni, (void)thread, (void)by_exception;
    int i = index_of(method);
    if (i < 0)
        return;
    exits[i]++;
    if (strcmp(names[i], "sum") == 0 || strcmp(names[i], "twice") == 0)
        say("MethodExit: Debuggee.%s returns %d", names[i], (int)value.i);
    else if (strcmp(names[i], "big") == 0)
        say("MethodExit: Debuggee.%s returns %lld", names[i], (long long)value.j);
}

static void JNICALL vm_death(jvmtiEnv *env, JNIEnv *jni)
{
    (void)env, (void)jni;
    static const char *const order[] = {"main", "sum", "twice", "big"};
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < n_ids; i++)
            if (strcmp(names[i], order[k]) == 0)
                say("%s: %d MethodEntry, %d MethodExit", names[i], entries[i], exits[i]);
    say("%d FramePop", frame_pops);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    (void)reserved;
    if (!options || sscanf(options, "%63[^:]:%d", bp_method, &bp_line) != 2) {
        fprintf(stderr, "interp_agent: options: METHOD:LINE[:unwind]\n");
        return JNI_ERR;
    }
    try_unwind = strstr(options, ":unwind") != NULL;
    jvm = vm;
    if (!(jvmti = agentkit_env(vm, JVMTI_VERSION_1_2)))
        return JNI_ERR;
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    caps.can_generate_breakpoint_events = 1;
    caps.can_generate_single_step_events = 1;
    caps.can_generate_frame_pop_events = 1;
    caps.can_generate_method_entry_events = 1;
    caps.can_generate_method_exit_events = 1;
    caps.can_get_line_numbers = 1;
    caps.can_access_local_variables = 1;
    caps.can_suspend = 1;
    if (try_unwind) {
        caps.can_pop_frame = 1;
        caps.can_force_early_return = 1;
    }
    if (!check((*jvmti)->AddCapabilities(jvmti, &caps), "AddCapabilities"))
        return JNI_ERR;
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.ClassPrepare = class_prepare;
    cb.Breakpoint = breakpoint;
    cb.SingleStep = single_step;
    cb.FramePop = frame_pop;
    cb.MethodEntry = method_entry;
    cb.MethodExit = method_exit;
    cb.VMDeath = vm_death;
    static const jvmtiEvent global[] = {JVMTI_EVENT_CLASS_PREPARE, JVMTI_EVENT_BREAKPOINT,
                                        JVMTI_EVENT_FRAME_POP, JVMTI_EVENT_VM_DEATH};
    if (!check(agentkit_events(jvmti, &cb, (int)(sizeof global / sizeof *global), global),
               "SetEventCallbacks, SetEventNotificationMode"))
        return JNI_ERR;
    return JNI_OK;
}
