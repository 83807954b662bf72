/* ---- stacks and classes: stack traces over a known call chain, class
 * lists ----
 * Included by agent.c (uses its say/result/err_name and the full
 * environment). Entry: stacks_cases_onload(&callbacks), from Agent_OnLoad
 * before the full environment's callbacks are set: it adds a Breakpoint
 * callback and runs its VMInit cases after agent.c's. The full environment
 * is the one with can_generate_breakpoint_events (HotSpot gives it to one
 * environment only). In VMInit it sets a breakpoint at ConfChain.c;
 * Main.main calls ConfChain.a, which calls b, which calls c (Main.java), in
 * HotSpot and in the host alike (host/programs.c), so the main thread's stack
 * at the breakpoint is c, b, a, main, every frame at location 0; the
 * locals of those frames are read there too, and the monitor Main.main
 * holds (it is static synchronized). Each case is "stacks.*". */

static jvmtiEventVMInit stacks_next_vm_init; /* agent.c's */
static jclass stacks_chain_class;
static jmethodID stacks_main, stacks_a, stacks_b, stacks_c;

/* "c@0 b@0" for frames of the chain's methods ("?" for any other). */
static const char *stacks_text(const jvmtiFrameInfo *f, jint n)
{
    static char buf[160];
    buf[0] = '\0';
    for (jint i = 0; i < n && strlen(buf) < sizeof buf - 16; i++) {
        jmethodID m = f[i].method;
        const char *name = m == stacks_main ? "main" : m == stacks_a ? "a" : m == stacks_b ? "b"
                           : m == stacks_c  ? "c"    : "?";
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s@%d", i ? " " : "", name,
                 (int)f[i].location);
    }
    return buf;
}

static void stacks_trace(const char *id, jint start, jint max)
{
    jvmtiFrameInfo f[16];
    jint n = -7;
    jvmtiError err = (*full)->GetStackTrace(full, NULL, start, max, f, &n);
    if (err != JVMTI_ERROR_NONE)
        say(id, "%s count %s", err_name(err), n == -7 ? "untouched" : "written");
    else
        say(id, "NONE %d [%s]", (int)n, stacks_text(f, n));
}

/* The frames of the first entry of a stack info array that names the
 * thread, how many entries name it, and whether every frame buffer lies
 * inside the one block, after the array (the spec's layout; the order of
 * the buffers in it is the VM's: HotSpot's is not the threads' order). */
static void stacks_infos(const char *id, JNIEnv *jni, jthread thread, jvmtiError err,
                         jvmtiStackInfo *info, jint n)
{
    if (err != JVMTI_ERROR_NONE) {
        say(id, "%s", err_name(err));
        return;
    }
    const jvmtiFrameInfo *first = (const jvmtiFrameInfo *)(const void *)(info + n);
    long total = 0;
    for (jint i = 0; i < n; i++)
        total += info[i].frame_count;
    int one_block = 1, found = 0;
    char frames[160] = "";
    for (jint i = 0; i < n; i++) {
        one_block &= info[i].frame_count == 0 ||
                     (info[i].frame_buffer >= first &&
                      info[i].frame_buffer + info[i].frame_count <= first + total);
        if ((*jni)->IsSameObject(jni, info[i].thread, thread) && !found++)
            snprintf(frames, sizeof frames, "%s", stacks_text(info[i].frame_buffer,
                                                               info[i].frame_count));
    }
    say(id, "NONE current-thread-entries=%d [%s] one-block=%s", found, frames,
        one_block ? "yes" : "no");
    (*full)->Deallocate(full, (unsigned char *)info);
}

/* Whether the class list holds ConfChain and java/lang/Thread. */
static void stacks_classes(const char *id, JNIEnv *jni, jvmtiError err, jint n, jclass *c)
{
    if (err != JVMTI_ERROR_NONE) {
        say(id, "%s", err_name(err));
        return;
    }
    jclass thread_class = (*jni)->FindClass(jni, "java/lang/Thread");
    int chain = 0, thread = 0;
    for (jint i = 0; i < n; i++) {
        chain |= (*jni)->IsSameObject(jni, c[i], stacks_chain_class);
        thread |= (*jni)->IsSameObject(jni, c[i], thread_class);
    }
    say(id, "NONE ConfChain=%s java/lang/Thread=%s", chain ? "yes" : "no", thread ? "yes" : "no");
    (*full)->Deallocate(full, (unsigned char *)c);
}

/* The locals of the chain's frames at the breakpoint in c (javac -g:
 * Main.main has a local variable table, its one slot `args`, a String[];
 * a, b and c have no locals). Only the errors are compared, and whether
 * an object read is null: HotSpot's args is an empty array, the host's
 * null. */
static void stacks_locals(jvmtiEnv *env)
{
    jint depth = 4, i;
    (*env)->GetFrameCount(env, NULL, &depth); /* 4: stacks.chain.frame-count */
    jlong j;
    jobject o = NULL;
    jint main_depth = depth - 1;
    result("stacks.locals.main-args", (*env)->GetLocalObject(env, NULL, main_depth, 0, &o));
    result("stacks.locals.main-args-as-int", (*env)->GetLocalInt(env, NULL, main_depth, 0, &i));
    result("stacks.locals.main-args-as-long", (*env)->GetLocalLong(env, NULL, main_depth, 0, &j));
    result("stacks.locals.main-slot-1", (*env)->GetLocalObject(env, NULL, main_depth, 1, &o));
    result("stacks.locals.main-slot-negative", (*env)->GetLocalObject(env, NULL, main_depth, -1, &o));
    result("stacks.locals.main-instance", (*env)->GetLocalInstance(env, NULL, main_depth, &o));
    result("stacks.locals.set-main-args-null",
           (*env)->SetLocalObject(env, NULL, main_depth, 0, NULL));
    o = (jobject)env;
    jvmtiError err = (*env)->GetLocalObject(env, NULL, main_depth, 0, &o);
    say("stacks.locals.main-args-after-set", "%s %s", err_name(err), o ? "non-null" : "null");
    result("stacks.locals.set-main-args-int", (*env)->SetLocalInt(env, NULL, main_depth, 0, 1));
    result("stacks.locals.c-slot-0", (*env)->GetLocalInt(env, NULL, 0, 0, &i));
    result("stacks.locals.c-instance", (*env)->GetLocalInstance(env, NULL, 0, &o));
    result("stacks.locals.below-oldest", (*env)->GetLocalInt(env, NULL, depth, 0, &i));
    result("stacks.locals.instance-below-oldest", (*env)->GetLocalInstance(env, NULL, depth, &o));
    result("stacks.locals.depth-negative", (*env)->GetLocalInt(env, NULL, -1, 0, &i));
    result("stacks.locals.not-thread",
           (*env)->GetLocalInt(env, (jthread)stacks_chain_class, 0, 0, &i));
}

/* PopFrame and ForceEarlyReturn at the breakpoint in c (void, called by
 * b, itself called by a, then main): the errors first; then c is popped,
 * so b calls it again and the breakpoint is hit a second time, where c
 * returns early (which changes nothing that follows: c is empty). */
static void stacks_unwind(jvmtiEnv *env, jthread thread)
{
    result("stacks.unwind.force-int", (*env)->ForceEarlyReturnInt(env, NULL, 1));
    result("stacks.unwind.force-long", (*env)->ForceEarlyReturnLong(env, thread, 1));
    result("stacks.unwind.force-object-null", (*env)->ForceEarlyReturnObject(env, NULL, NULL));
    result("stacks.unwind.pop-null", (*env)->PopFrame(env, NULL));
    result("stacks.unwind.pop-not-thread", (*env)->PopFrame(env, (jthread)stacks_chain_class));
    result("stacks.unwind.force-not-thread",
           (*env)->ForceEarlyReturnVoid(env, (jthread)stacks_chain_class));
    jvmtiError err = (*env)->PopFrame(env, thread);
    result("stacks.unwind.pop", err);
    if (err != JVMTI_ERROR_NONE) /* no second hit */
        (*env)->ClearBreakpoint(env, stacks_c, 0);
}

/* The second hit of the breakpoint in c: b called it again after the
 * PopFrame; then c returns early. */
static void stacks_popped(jvmtiEnv *env)
{
    (*env)->ClearBreakpoint(env, stacks_c, 0);
    stacks_trace("stacks.unwind.popped-trace", 0, 16);
    result("stacks.unwind.force-void", (*env)->ForceEarlyReturnVoid(env, NULL));
}

/* Java monitors at the breakpoint in c: Main.main is static synchronized
 * (Main.java; the host's model, host/monitors.c), so the main thread holds
 * class Main's monitor, in Main.main's frame (depth 3), entered once;
 * nothing waits. A monitor is named "Main", "ConfChain", "current" (the
 * thread) or "?". */
static const char *stacks_monitor_name(JNIEnv *jni, jobject o, jthread thread)
{
    if (!o)
        return "null";
    jclass main_class = (*jni)->FindClass(jni, "Main");
    const char *name = (*jni)->IsSameObject(jni, o, main_class)           ? "Main"
                       : (*jni)->IsSameObject(jni, o, stacks_chain_class) ? "ConfChain"
                       : (*jni)->IsSameObject(jni, o, thread)             ? "current"
                                                                          : "?";
    (*jni)->DeleteLocalRef(jni, main_class);
    return name;
}

static void stacks_usage(const char *id, jvmtiEnv *env, JNIEnv *jni, jobject o, jthread thread)
{
    jvmtiMonitorUsage u;
    memset(&u, 0, sizeof u);
    jvmtiError err = (*env)->GetObjectMonitorUsage(env, o, &u);
    if (err != JVMTI_ERROR_NONE) {
        say(id, "%s", err_name(err));
        return;
    }
    say(id, "NONE owner %s entries %d waiters %d notify %d", stacks_monitor_name(jni, u.owner, thread),
        (int)u.entry_count, (int)u.waiter_count, (int)u.notify_waiter_count);
    (*env)->Deallocate(env, (unsigned char *)u.waiters);
    (*env)->Deallocate(env, (unsigned char *)u.notify_waiters);
}

static void stacks_monitors(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    jint n = -1;
    jvmtiMonitorStackDepthInfo *info = NULL;
    jvmtiError err = (*env)->GetOwnedMonitorStackDepthInfo(env, NULL, &n, &info);
    char buf[96] = "";
    for (jint i = 0; err == JVMTI_ERROR_NONE && i < n && strlen(buf) < sizeof buf - 24; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s@%d", i ? " " : "",
                 stacks_monitor_name(jni, info[i].monitor, thread), (int)info[i].stack_depth);
    say("stacks.monitors.owned-depth", "%s %d [%s]", err_name(err), (int)n, buf);
    (*env)->Deallocate(env, (unsigned char *)info);
    jobject *mons = NULL;
    err = (*env)->GetOwnedMonitorInfo(env, thread, &n, &mons);
    buf[0] = '\0';
    for (jint i = 0; err == JVMTI_ERROR_NONE && i < n && strlen(buf) < sizeof buf - 24; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? " " : "",
                 stacks_monitor_name(jni, mons[i], thread));
    say("stacks.monitors.owned-thread", "%s %d [%s]", err_name(err), (int)n, buf);
    (*env)->Deallocate(env, (unsigned char *)mons);
    jobject contended = (jobject)stacks_chain_class; /* must be overwritten */
    err = (*env)->GetCurrentContendedMonitor(env, NULL, &contended);
    say("stacks.monitors.contended", "%s %s", err_name(err),
        err == JVMTI_ERROR_NONE ? stacks_monitor_name(jni, contended, thread) : "-");
    jclass main_class = (*jni)->FindClass(jni, "Main");
    stacks_usage("stacks.monitors.usage-main-class", env, jni, main_class, thread);
    stacks_usage("stacks.monitors.usage-chain-class", env, jni, stacks_chain_class, thread);
    stacks_usage("stacks.monitors.usage-current-thread", env, jni, thread, thread);
    (*jni)->DeleteLocalRef(jni, main_class);
}

static void JNICALL stacks_breakpoint(jvmtiEnv *env, JNIEnv *jni, jthread thread, jmethodID method,
                                      jlocation location)
{
    (void)location;
    if (method != stacks_c)
        return;
    static int hits;
    if (++hits == 2) { /* b called c again after PopFrame */
        stacks_popped(env);
        return;
    }
    jint depth = -1;
    jvmtiError err = (*env)->GetFrameCount(env, NULL, &depth);
    say("stacks.chain.frame-count", "%s %d", err_name(err), (int)depth);
    err = (*env)->GetFrameCount(env, thread, &depth);
    say("stacks.chain.frame-count-thread", "%s %d", err_name(err), (int)depth);
    stacks_trace("stacks.chain.trace-all", 0, 16);
    stacks_trace("stacks.chain.trace-top-2", 0, 2);
    stacks_trace("stacks.chain.trace-from-1", 1, 16);
    stacks_trace("stacks.chain.trace-from-oldest", depth - 1, 16);
    stacks_trace("stacks.chain.trace-at-depth", depth, 16);
    stacks_trace("stacks.chain.trace-at-depth-max0", depth, 0);
    stacks_trace("stacks.chain.trace-beyond-max0", depth + 5, 0);
    stacks_trace("stacks.chain.trace-max0", 0, 0);
    stacks_trace("stacks.chain.trace-neg-1", -1, 16);
    stacks_trace("stacks.chain.trace-neg-2-max1", -2, 1);
    stacks_trace("stacks.chain.trace-neg-depth", -depth, 16);
    stacks_trace("stacks.chain.trace-neg-below", -depth - 1, 16);
    stacks_trace("stacks.chain.trace-neg-below-max0", -depth - 1, 0);
    stacks_trace("stacks.chain.trace-neg-1-max0", -1, 0);
    jvmtiFrameInfo f[1];
    jint n;
    result("stacks.chain.trace-max-negative",
           (*env)->GetStackTrace(env, NULL, 0, -1, f, &n));
    jmethodID m = NULL;
    jlocation at = -9;
    err = (*env)->GetFrameLocation(env, NULL, depth - 1, &m, &at);
    jvmtiFrameInfo got = {m, at};
    say("stacks.chain.location-oldest", "%s [%s]", err_name(err), stacks_text(&got, 1));
    result("stacks.chain.location-below", (*env)->GetFrameLocation(env, NULL, depth, &m, &at));
    result("stacks.chain.frame-count-not-thread",
           (*env)->GetFrameCount(env, (jthread)stacks_chain_class, &depth));
    jvmtiStackInfo *info = NULL;
    jthread list[3] = {thread, thread, NULL};
    err = (*env)->GetThreadListStackTraces(env, 2, list, 3, &info);
    stacks_infos("stacks.chain.list-current-twice-max3", jni, thread, err, info, 2);
    result("stacks.chain.list-null-element", (*env)->GetThreadListStackTraces(env, 3, list, 3, &info));
    list[1] = (jthread)stacks_chain_class;
    result("stacks.chain.list-not-thread", (*env)->GetThreadListStackTraces(env, 2, list, 3, &info));
    info = (jvmtiStackInfo *)(void *)f;
    err = (*env)->GetThreadListStackTraces(env, 0, list, 3, &info);
    say("stacks.chain.list-none", "%s %s", err_name(err), info ? "non-NULL" : "NULL");
    jint threads = 0;
    err = (*env)->GetAllStackTraces(env, 16, &info, &threads);
    stacks_infos("stacks.chain.all-max16", jni, thread, err, info, threads);
    jint count = 0;
    jclass *classes = NULL;
    err = (*env)->GetLoadedClasses(env, &count, &classes);
    stacks_classes("stacks.classes.loaded", jni, err, count, classes);
    err = (*env)->GetClassLoaderClasses(env, NULL, &count, &classes);
    stacks_classes("stacks.classes.bootstrap", jni, err, count, classes);
    stacks_monitors(env, jni, thread);
    stacks_locals(env);
    stacks_unwind(env, thread);
}

static void JNICALL stacks_vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    stacks_next_vm_init(env, jni, thread);
    jint depth = -1;
    jvmtiError err = (*env)->GetFrameCount(env, NULL, &depth);
    say("stacks.vminit.frame-count", "%s %d", err_name(err), (int)depth);
    stacks_trace("stacks.vminit.trace", 0, 5);
    stacks_trace("stacks.vminit.trace-from-1", 1, 5);
    stacks_trace("stacks.vminit.trace-neg-1", -1, 5);
    jmethodID m;
    jlocation at;
    result("stacks.vminit.location-0", (*env)->GetFrameLocation(env, NULL, 0, &m, &at));
    jclass main_class = (*jni)->FindClass(jni, "Main");
    stacks_chain_class = (*jni)->FindClass(jni, "ConfChain");
    if (main_class && stacks_chain_class) {
        stacks_chain_class = (*jni)->NewGlobalRef(jni, stacks_chain_class);
        stacks_main = (*jni)->GetStaticMethodID(jni, main_class, "main", "([Ljava/lang/String;)V");
        stacks_a = (*jni)->GetStaticMethodID(jni, stacks_chain_class, "a", "()V");
        stacks_b = (*jni)->GetStaticMethodID(jni, stacks_chain_class, "b", "()V");
        stacks_c = (*jni)->GetStaticMethodID(jni, stacks_chain_class, "c", "()V");
    }
    if ((*jni)->ExceptionCheck(jni))
        (*jni)->ExceptionClear(jni);
    say("stacks.setup.chain", "main=%s a=%s b=%s c=%s", stacks_main ? "yes" : "no",
        stacks_a ? "yes" : "no", stacks_b ? "yes" : "no", stacks_c ? "yes" : "no");
    if (!stacks_c)
        return;
    result("stacks.setup.breakpoint", (*env)->SetBreakpoint(env, stacks_c, 0));
    (*env)->SetEventNotificationMode(env, JVMTI_ENABLE, JVMTI_EVENT_BREAKPOINT, NULL);
}

static void stacks_cases_onload(jvmtiEventCallbacks *cb)
{
    stacks_next_vm_init = cb->VMInit;
    cb->VMInit = stacks_vm_init;
    cb->Breakpoint = stacks_breakpoint;
}
