/* Trampoline checks of a few JDK 25 functions, with every expectation
 * written by hand from the spec's attributes (quoted above each test), so
 * the rules of gen/model/guard.c are checked against a reading of the spec that
 * owes nothing to the generator. Built with the recording implementations
 * of `gen-driver --stubs` (stubs.c) and the generated jvmtigen_entry.c. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "stubs.c"

#define CALL_OK(what, call) expect_impl(what, call)
#define CALL_ERR(what, call, err) expect_err(what, call, err)

/* <function id="GetLineNumberTable" phase="start" num="70">, requires
 * can_get_line_numbers; klass <jclass method="method"/> (not in C);
 * method <jmethodID class="klass" native="error"/>; entry_count_ptr
 * <outptr><jint/>; table_ptr <allocbuf> of jvmtiLineNumberEntry. */
static void line_number_table(void)
{
    jmethodID m = (jmethodID)(uintptr_t)0x100;
    jint count;
    jvmtiLineNumberEntry *table;
    reset(JVMTI_PHASE_START, TS_JAVA, "GetLineNumberTable", 1);
    CALL_OK("start phase", T->GetLineNumberTable(ENV, m, &count, &table));
    reset(JVMTI_PHASE_ONLOAD, TS_JAVA, "GetLineNumberTable", 1);
    CALL_ERR("OnLoad phase", T->GetLineNumberTable(ENV, m, &count, &table),
             JVMTI_ERROR_WRONG_PHASE);
    reset(JVMTI_PHASE_LIVE, TS_JAVA, "GetLineNumberTable", 1);
    env_head.capabilities.can_get_line_numbers = 0;
    CALL_ERR("no capability", T->GetLineNumberTable(ENV, m, &count, &table),
             JVMTI_ERROR_MUST_POSSESS_CAPABILITY);
    reset(JVMTI_PHASE_LIVE, TS_JAVA, "GetLineNumberTable", 1);
    native_result = JNI_TRUE;
    CALL_ERR("native method", T->GetLineNumberTable(ENV, m, &count, &table),
             JVMTI_ERROR_NATIVE_METHOD);
    reset(JVMTI_PHASE_LIVE, TS_JAVA, "GetLineNumberTable", 1);
    CALL_ERR("NULL method before NULL count", T->GetLineNumberTable(ENV, NULL, NULL, &table),
             JVMTI_ERROR_INVALID_METHODID);
    reset(JVMTI_PHASE_LIVE, TS_JAVA, "GetLineNumberTable", 1);
    CALL_ERR("NULL table", T->GetLineNumberTable(ENV, m, &count, NULL), JVMTI_ERROR_NULL_POINTER);
    reset(JVMTI_PHASE_LIVE, TS_UNATTACHED, "GetLineNumberTable", 1);
    env_head.magic = 0;
    CALL_ERR("unattached before bad env", T->GetLineNumberTable(ENV, m, &count, &table),
             JVMTI_ERROR_UNATTACHED_THREAD);
}

/* <function id="RawMonitorEnter" phase="any" callbacksafe="safe"
 * impl="innative notrace" num="33">; monitor <jrawMonitorID/>. */
static void raw_monitor_enter(void)
{
    jrawMonitorID mon = (jrawMonitorID)(uintptr_t)0x200;
    reset(JVMTI_PHASE_DEAD, TS_UNATTACHED, "RawMonitorEnter", 0);
    CALL_OK("dead phase, unattached thread", T->RawMonitorEnter(ENV, mon));
    reset(JVMTI_PHASE_LIVE, TS_JAVA, "RawMonitorEnter", 0);
    CALL_ERR("NULL monitor", T->RawMonitorEnter(ENV, NULL), JVMTI_ERROR_INVALID_MONITOR);
    reset(JVMTI_PHASE_LIVE, TS_JAVA, "RawMonitorEnter", 0);
    monitor_result = JVMTI_ERROR_INVALID_MONITOR;
    CALL_ERR("not a monitor", T->RawMonitorEnter(ENV, mon), JVMTI_ERROR_INVALID_MONITOR);
    reset(JVMTI_PHASE_LIVE, TS_JAVA, "RawMonitorEnter", 0);
    CALL_ERR("NULL env", T->RawMonitorEnter(NULL, mon), JVMTI_ERROR_INVALID_ENVIRONMENT);
}

/* <function id="GetFieldName" phase="start" num="60">; klass
 * <jclass field="field"/>; field <jfieldID class="klass"/>; name_ptr,
 * signature_ptr, generic_ptr <allocbuf> with <nullok/>. */
static void field_name(void)
{
    jclass k = (jclass)(uintptr_t)0x300;
    jfieldID f = (jfieldID)(uintptr_t)0x310;
    reset(JVMTI_PHASE_LIVE, TS_JAVA, "GetFieldName", 1);
    CALL_OK("all outputs NULL", T->GetFieldName(ENV, k, f, NULL, NULL, NULL));
    {
        const HookCall want[] = {{'c', k, NULL, 1}, {'f', f, k, 0}};
        expect_hooks(want, 2);
    }
    reset(JVMTI_PHASE_LIVE, TS_JAVA, "GetFieldName", 1);
    class_result = JVMTI_ERROR_INVALID_CLASS;
    CALL_ERR("bad class", T->GetFieldName(ENV, k, NULL, NULL, NULL, NULL),
             JVMTI_ERROR_INVALID_CLASS);
    reset(JVMTI_PHASE_LIVE, TS_JAVA, "GetFieldName", 1);
    CALL_ERR("NULL field", T->GetFieldName(ENV, k, NULL, NULL, NULL, NULL),
             JVMTI_ERROR_INVALID_FIELDID);
}

/* <function id="AddCapabilities" phase="onload" num="142">;
 * capabilities_ptr <inptr><struct>jvmtiCapabilities</struct></inptr>.
 * An OnLoad-or-live function checks the environment before the thread. */
static void add_capabilities(void)
{
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    reset(JVMTI_PHASE_ONLOAD, TS_UNKNOWN_EARLY, "AddCapabilities", 1);
    CALL_OK("OnLoad, before the VM has threads", T->AddCapabilities(ENV, &caps));
    reset(JVMTI_PHASE_PRIMORDIAL, TS_JAVA, "AddCapabilities", 1);
    CALL_ERR("primordial phase", T->AddCapabilities(ENV, &caps), JVMTI_ERROR_WRONG_PHASE);
    reset(JVMTI_PHASE_START, TS_JAVA, "AddCapabilities", 1);
    CALL_ERR("start phase", T->AddCapabilities(ENV, &caps), JVMTI_ERROR_WRONG_PHASE);
    reset(JVMTI_PHASE_LIVE, TS_UNATTACHED, "AddCapabilities", 1);
    CALL_ERR("live, unattached", T->AddCapabilities(ENV, &caps), JVMTI_ERROR_UNATTACHED_THREAD);
    reset(JVMTI_PHASE_LIVE, TS_UNATTACHED, "AddCapabilities", 1);
    env_head.magic = 0;
    CALL_ERR("bad env before unattached", T->AddCapabilities(ENV, &caps),
             JVMTI_ERROR_INVALID_ENVIRONMENT);
    reset(JVMTI_PHASE_LIVE, TS_UNATTACHED, "AddCapabilities", 1);
    CALL_ERR("unattached before NULL pointer", T->AddCapabilities(ENV, NULL),
             JVMTI_ERROR_UNATTACHED_THREAD);
}

/* <function id="GetFrameLocation" num="19">; thread <jthread
 * null="current" frame="frame" impl="noconvert"/>; depth <jframeID/>. */
static void frame_location(void)
{
    jmethodID m;
    jlocation loc;
    reset(JVMTI_PHASE_LIVE, TS_JAVA, "GetFrameLocation", 1);
    thread_result = JVMTI_ERROR_INVALID_THREAD; /* noconvert: never asked */
    CALL_OK("noconvert thread, depth 0", T->GetFrameLocation(ENV, NULL, 0, &m, &loc));
    expect_hooks(NULL, 0);
    reset(JVMTI_PHASE_LIVE, TS_JAVA, "GetFrameLocation", 1);
    CALL_ERR("depth -1", T->GetFrameLocation(ENV, NULL, -1, &m, &loc),
             JVMTI_ERROR_ILLEGAL_ARGUMENT);
    reset(JVMTI_PHASE_START, TS_JAVA, "GetFrameLocation", 1);
    CALL_ERR("start phase", T->GetFrameLocation(ENV, NULL, 0, &m, &loc), JVMTI_ERROR_WRONG_PHASE);
}

/* <function id="GetThreadListStackTraces" num="101">; thread_count
 * <jint min="0"/>; thread_list <inbuf> of <jthread/>; max_frame_count
 * <jint min="0"/>; stack_info_ptr <allocbuf>. */
static void thread_list_stack_traces(void)
{
    jthread list[1] = {(jthread)(uintptr_t)0x400};
    jvmtiStackInfo *info;
    reset(JVMTI_PHASE_LIVE, TS_JAVA, "GetThreadListStackTraces", 1);
    CALL_OK("zero threads, zero frames", T->GetThreadListStackTraces(ENV, 0, list, 0, &info));
    reset(JVMTI_PHASE_LIVE, TS_JAVA, "GetThreadListStackTraces", 1);
    CALL_ERR("count -1", T->GetThreadListStackTraces(ENV, -1, list, 0, &info),
             JVMTI_ERROR_ILLEGAL_ARGUMENT);
    reset(JVMTI_PHASE_LIVE, TS_JAVA, "GetThreadListStackTraces", 1);
    CALL_ERR("NULL list before bad frame count",
             T->GetThreadListStackTraces(ENV, 1, NULL, -5, &info), JVMTI_ERROR_NULL_POINTER);
}

/* <function id="GetEnvironmentLocalStorage" phase="any" callbacksafe="safe"
 * impl="innative notrace" num="147">; data_ptr <agentbuf><void/>. */
static void environment_local_storage(void)
{
    void *data;
    reset(JVMTI_PHASE_LIVE, TS_UNATTACHED, "GetEnvironmentLocalStorage", 0);
    CALL_OK("unattached thread", T->GetEnvironmentLocalStorage(ENV, &data));
    reset(JVMTI_PHASE_LIVE, TS_VM, "GetEnvironmentLocalStorage", 0);
    CALL_ERR("NULL data_ptr", T->GetEnvironmentLocalStorage(ENV, NULL), JVMTI_ERROR_NULL_POINTER);
}

/* <function id="GetStackTrace" num="104">: a live function that is not
 * callback-safe refuses a VM-internal thread. */
static void stack_trace(void)
{
    jvmtiFrameInfo frames[2];
    jint count;
    reset(JVMTI_PHASE_LIVE, TS_VM, "GetStackTrace", 1);
    CALL_ERR("VM thread", T->GetStackTrace(ENV, NULL, 0, 2, frames, &count),
             JVMTI_ERROR_UNATTACHED_THREAD);
    reset(JVMTI_PHASE_LIVE, TS_JAVA, "GetStackTrace", 1);
    CALL_ERR("max_frame_count -1", T->GetStackTrace(ENV, NULL, 0, -1, frames, &count),
             JVMTI_ERROR_ILLEGAL_ARGUMENT);
    reset(JVMTI_PHASE_LIVE, TS_JAVA, "GetStackTrace", 1);
    CALL_OK("negative start depth is the implementation's business",
            T->GetStackTrace(ENV, NULL, -3, 2, frames, &count));
}

static void run_hand(void)
{
    line_number_table();
    raw_monitor_enter();
    field_name();
    add_capabilities();
    frame_location();
    thread_list_stack_traces();
    environment_local_storage();
    stack_trace();
}

/* ---- what a traced call looks like ---- */

static int line_matches(const char *what, const char *prefix, const char *rest)
{
    /* "jvmti: [env 0x...] " + prefix, then rest, then " (N ns)\n". */
    cases++;
    const char *p = strstr(last_line, "] ");
    const char *t = strstr(last_line, " ns)\n");
    if (strncmp(last_line, "jvmti: [env ", 12) != 0 || !p || !t ||
        strncmp(p + 2, prefix, strlen(prefix)) != 0 ||
        strncmp(p + 2 + strlen(prefix), rest, strlen(rest)) != 0 ||
        strncmp(p + 2 + strlen(prefix) + strlen(rest), " (", 2) != 0) {
        failures++;
        printf("# FAIL trace %s: got: %s", what, last_line);
        return 0;
    }
    return 1;
}

static void trace_lines_look_right(void)
{
    int before = failures;
    T = &jvmtigen_traced_functions;
    tracing_on = 1;

    setenv("JVMTI_TRACE", "Set*, -SetTag,GetThreadState", 1);
    unsetenv("JVMTI_TRACE_FILE");
    int on = jvmtigen_trace_configure_from_env();
    cases++;
    if (on < 5) {
        failures++;
        printf("# FAIL trace: JVMTI_TRACE selected %d functions\n", on);
    }
    jvmtigen_trace_set_sink(sink);

    reset(JVMTI_PHASE_LIVE, TS_JAVA, "SetEventNotificationMode", 1);
    T->SetEventNotificationMode(ENV, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL);
    line_matches("enum names", "SetEventNotificationMode(mode=JVMTI_ENABLE, "
                 "event_type=JVMTI_EVENT_VM_INIT, event_thread=NULL)", " = 7777");

    reset(JVMTI_PHASE_LIVE, TS_JAVA, "SetTag", 1);
    T->SetTag(ENV, (jobject)(uintptr_t)0x10, 5);
    cases++;
    if (trace_lines != 0) {
        failures++;
        printf("# FAIL trace: SetTag was excluded but logged: %s", last_line);
    }

    jint state = 5;
    reset(JVMTI_PHASE_LIVE, TS_JAVA, "GetThreadState", 1);
    impl_result = JVMTI_ERROR_NONE;
    T->GetThreadState(ENV, NULL, &state);
    char want[128];
    snprintf(want, sizeof want, "GetThreadState(thread=NULL, thread_state_ptr=%p)",
             (void *)&state);
    line_matches("out value", want, " = JVMTI_ERROR_NONE; *thread_state_ptr=5");

    reset(JVMTI_PHASE_ONLOAD, TS_JAVA, "GetThreadState", 1);
    T->GetThreadState(ENV, NULL, &state);
    line_matches("error name", want, " = JVMTI_ERROR_WRONG_PHASE");

    reset(JVMTI_PHASE_ONLOAD, TS_JAVA, "SetSystemProperty", 1); /* onloadOnly */
    T->SetSystemProperty(ENV, "a\"b", "line\nbreak");
    line_matches("strings", "SetSystemProperty(property=\"a\\\"b\", value_ptr=\"line\\x0abreak\")",
                 " = 7777");

    /* RawMonitorEnter is impl="notrace": never traced, whatever the pattern. */
    jvmtigen_trace_configure("*");
    reset(JVMTI_PHASE_LIVE, TS_JAVA, "RawMonitorEnter", 0);
    T->RawMonitorEnter(ENV, (jrawMonitorID)(uintptr_t)0x20);
    cases++;
    if (trace_lines != 0) {
        failures++;
        printf("# FAIL trace: a notrace function was logged: %s", last_line);
    }
    printf("%s - trampolines: trace lines\n", failures == before ? "ok" : "not ok");
}

int main(void)
{
    int rc = run_driver(run_hand);
    trace_lines_look_right();
    return rc || failures ? 1 : 0;
}
