/* ---- frames: breakpoints, field watches, frame pops, native method
 * prefixes, the JNI function table, class-loader search ----
 * Included by agent.c (uses its say/result and the full environment, which
 * holds the capabilities these need in both VMs). Handles: Thread.getName
 * and Thread.name, as in the generated cases. Each case is "frames.*". */

/* A second environment with the capabilities of breakpoints and field
 * access watches, asked for in OnLoad after the full one holds them: HotSpot
 * makes these capabilities OnLoad-only and solo (one environment at a
 * time); the host does not, and the core keeps breakpoints and watches per
 * environment. */
static jvmtiEnv *frames_second;

static void frames_cases_onload(void)
{
    void *p = NULL;
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    caps.can_generate_breakpoint_events = 1;
    caps.can_generate_field_access_events = 1;
    jint rc = (*vm)->GetEnv(vm, &p, JVMTI_VERSION_11);
    jvmtiError err = rc == JNI_OK && p ? (*(jvmtiEnv *)p)->AddCapabilities((jvmtiEnv *)p, &caps)
                                       : JVMTI_ERROR_INTERNAL;
    say("frames.other-env.capabilities", "%s %s", jni_name(rc), err_name(err));
    if (err == JVMTI_ERROR_NONE)
        frames_second = p;
    /* OnLoad takes any path: neither VM looks at it then. */
    result("frames.search.onload.boot-missing-dir",
           (*full)->AddToBootstrapClassLoaderSearch(full, "/nonexistent/conformance-boot"));
    result("frames.search.onload.system-missing-dir",
           (*full)->AddToSystemClassLoaderSearch(full, "/nonexistent/conformance-system"));
}

/* Set, set again, clear, clear again: NONE, DUPLICATE, NONE, NOT_FOUND. */
static void frames_watch_cycle(const char *kind,
                               jvmtiError (JNICALL *set)(jvmtiEnv *, jclass, jfieldID),
                               jvmtiError (JNICALL *clear)(jvmtiEnv *, jclass, jfieldID))
{
    char id[96];
    snprintf(id, sizeof id, "frames.%s.clear-unset", kind);
    result(id, clear(full, ctx.klass, ctx.field));
    snprintf(id, sizeof id, "frames.%s.set", kind);
    result(id, set(full, ctx.klass, ctx.field));
    snprintf(id, sizeof id, "frames.%s.set-again", kind);
    result(id, set(full, ctx.klass, ctx.field));
    snprintf(id, sizeof id, "frames.%s.clear", kind);
    result(id, clear(full, ctx.klass, ctx.field));
    snprintf(id, sizeof id, "frames.%s.clear-again", kind);
    result(id, clear(full, ctx.klass, ctx.field));
}

/* An empty zip archive: only its end record. */
static int frames_empty_jar(const char *path)
{
    static const unsigned char end[22] = {'P', 'K', 5, 6};
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    int ok = fwrite(end, 1, sizeof end, f) == sizeof end;
    return fclose(f) == 0 && ok;
}

static void frames_cases_live(void)
{
    if (!ctx.method || !ctx.field) {
        say("frames", "no handles");
        return;
    }
    jmethodID m = ctx.method;
    result("frames.breakpoint.clear-unset", (*full)->ClearBreakpoint(full, m, 0));
    result("frames.breakpoint.set", (*full)->SetBreakpoint(full, m, 0));
    result("frames.breakpoint.set-again", (*full)->SetBreakpoint(full, m, 0));
    result("frames.breakpoint.clear", (*full)->ClearBreakpoint(full, m, 0));
    result("frames.breakpoint.clear-again", (*full)->ClearBreakpoint(full, m, 0));
    result("frames.breakpoint.location-negative", (*full)->SetBreakpoint(full, m, -1));
    result("frames.breakpoint.location-past-end", (*full)->SetBreakpoint(full, m, 1 << 20));
    frames_watch_cycle("access", (*full)->SetFieldAccessWatch, (*full)->ClearFieldAccessWatch);
    frames_watch_cycle("modification", (*full)->SetFieldModificationWatch,
                       (*full)->ClearFieldModificationWatch);
    result("frames.access.set-for-kinds", (*full)->SetFieldAccessWatch(full, ctx.klass, ctx.field));
    result("frames.access.clear-other-kind",
           (*full)->ClearFieldModificationWatch(full, ctx.klass, ctx.field));
    result("frames.access.clear-for-kinds",
           (*full)->ClearFieldAccessWatch(full, ctx.klass, ctx.field));

    /* A second environment at the same places: is a breakpoint or a watch
     * the environment's own, or the VM's? */
    jvmtiEnv *e2 = frames_second;
    if (e2) { /* the host only: HotSpot refuses the second environment */
        result("frames.other-env.breakpoint.first", (*full)->SetBreakpoint(full, m, 0));
        result("frames.other-env.breakpoint.second", (*e2)->SetBreakpoint(e2, m, 0));
        result("frames.other-env.breakpoint.second-clear", (*e2)->ClearBreakpoint(e2, m, 0));
        result("frames.other-env.breakpoint.first-clear", (*full)->ClearBreakpoint(full, m, 0));
        result("frames.other-env.access.first",
               (*full)->SetFieldAccessWatch(full, ctx.klass, ctx.field));
        result("frames.other-env.access.second",
               (*e2)->SetFieldAccessWatch(e2, ctx.klass, ctx.field));
        result("frames.other-env.access.second-clear",
               (*e2)->ClearFieldAccessWatch(e2, ctx.klass, ctx.field));
        result("frames.other-env.access.first-clear",
               (*full)->ClearFieldAccessWatch(full, ctx.klass, ctx.field));
        (*e2)->DisposeEnvironment(e2);
    }

    /* VMInit runs in native code: the thread has no Java frame yet. */
    result("frames.framepop.current-in-vminit", (*full)->NotifyFramePop(full, NULL, 0));
    result("frames.framepop.thread-in-vminit", (*full)->NotifyFramePop(full, ctx.thread, 0));

    result("frames.prefix.set", (*full)->SetNativeMethodPrefix(full, "conformance_"));
    char *with_null[] = {"a_", NULL};
    result("frames.prefix.null-element", (*full)->SetNativeMethodPrefixes(full, 2, with_null));
    result("frames.prefix.none", (*full)->SetNativeMethodPrefixes(full, 0, with_null));
    result("frames.prefix.cancel", (*full)->SetNativeMethodPrefix(full, NULL));

    jniNativeInterface *table = NULL;
    result("frames.jni.get", (*full)->GetJNIFunctionTable(full, &table));
    if (table) {
        result("frames.jni.set-same", (*full)->SetJNIFunctionTable(full, table));
        (*full)->Deallocate(full, (unsigned char *)table);
    }

    result("frames.search.live.boot-missing-jar",
           (*full)->AddToBootstrapClassLoaderSearch(full, "/nonexistent/conformance.jar"));
    result("frames.search.live.boot-directory", (*full)->AddToBootstrapClassLoaderSearch(full, "/"));
    result("frames.search.live.system-missing-jar",
           (*full)->AddToSystemClassLoaderSearch(full, "/nonexistent/conformance.jar"));
    char jar[64];
    snprintf(jar, sizeof jar, "/tmp/jvmtigen-conformance-%ld.jar", (long)getpid());
    if (frames_empty_jar(jar)) {
        result("frames.search.live.system-empty-jar", (*full)->AddToSystemClassLoaderSearch(full, jar));
        remove(jar);
    } else {
        say("frames.search.live.system-empty-jar", "cannot write %s", jar);
    }
}
