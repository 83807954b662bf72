/* Included by agent.c (after its helpers): the cases and timings of object
 * tags, thread-local storage and suspend/resume, where HotSpot and the
 * host's core are comparable.
 *
 * Thread CPU time: the answers' errors and the timer's description.
 * Suspend/resume: of a thread attached through JNI waiting in native code
 * (suspended, again, listed, resumed, again), of what is not a thread, and
 * of that thread once it detached (with TLS and CPU time of it too).
 *
 * Objects are made with JNI AllocObject(java/lang/Object) in both VMs.
 * Timings: SetTag and GetTag over 100000 tagged objects (held by global
 * references), and GetObjectsWithTags finding all of them (one tag), its
 * local references dropped with the frame each call pushes. */

#define OBJ_TIMING_OBJECTS 100000

static jobject new_object(JNIEnv *jni)
{
    jclass k = (*jni)->FindClass(jni, "java/lang/Object");
    return k ? (*jni)->AllocObject(jni, k) : NULL;
}

/* "11,13": tags sorted, so that the order of the result does not matter. */
static void say_tags(const char *id, jvmtiError err, jint count, const jlong *tags)
{
    if (err != JVMTI_ERROR_NONE) {
        result(id, err);
        return;
    }
    jlong sorted[8];
    int n = count < 8 ? (int)count : 8;
    for (int i = 0; i < n; i++)
        sorted[i] = tags[i];
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
            jlong t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    char buf[160] = "";
    size_t len = 0;
    for (int i = 0; i < n && len < sizeof buf - 24; i++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%lld", i ? "," : "",
                                (long long)sorted[i]);
    say(id, "JVMTI_ERROR_NONE count=%d tags=%s", (int)count, n ? buf : "-");
}

static void tag_cases(JNIEnv *jni)
{
    jobject o[3];
    for (int i = 0; i < 3; i++)
        o[i] = new_object(jni);
    if (!o[0] || !o[1] || !o[2]) {
        say("tags.setup", "no objects (AllocObject failed)");
        return;
    }
    jlong t = -1;
    jvmtiError err = (*full)->GetTag(full, o[0], &t);
    say("tags.untagged", "%s %lld", err_name(err), (long long)t);
    result("tags.set", (*full)->SetTag(full, o[0], 11));
    t = 0;
    err = (*full)->GetTag(full, o[0], &t);
    say("tags.round-trip", "%s %lld", err_name(err), (long long)t);
    (*full)->SetTag(full, o[0], -5);
    err = (*full)->GetTag(full, o[0], &t);
    say("tags.negative", "%s %lld", err_name(err), (long long)t);
    jobject again = (*jni)->NewLocalRef(jni, o[0]);
    err = (*full)->GetTag(full, again, &t);
    say("tags.other-reference", "%s %lld", err_name(err), (long long)t);
    (*jni)->DeleteLocalRef(jni, again);
    (*full)->SetTag(full, o[0], 0);
    t = -1;
    err = (*full)->GetTag(full, o[0], &t);
    say("tags.zero-removes", "%s %lld", err_name(err), (long long)t);
    result("tags.set-null-object", (*full)->SetTag(full, NULL, 1));
    result("tags.get-null-object", (*full)->GetTag(full, NULL, &t));

    (*full)->SetTag(full, o[0], 11);
    (*full)->SetTag(full, o[1], 12);
    (*full)->SetTag(full, o[2], 13);
    jlong want[] = {11, 13, 424242};
    jint count = -1;
    jobject *objs = NULL;
    jlong *tags = NULL;
    err = (*full)->GetObjectsWithTags(full, 3, want, &count, &objs, &tags);
    say_tags("tags.with-tags", err, count, tags);
    if (err == JVMTI_ERROR_NONE) {
        int same = 1;
        for (jint i = 0; i < count; i++) {
            int k = tags[i] == 11 ? 0 : tags[i] == 13 ? 2 : -1;
            same = same && k >= 0 && (*jni)->IsSameObject(jni, objs[i], o[k]);
            (*jni)->DeleteLocalRef(jni, objs[i]);
        }
        say("tags.with-tags-objects", same ? "the tagged objects" : "other objects");
        (*full)->Deallocate(full, (unsigned char *)objs);
        (*full)->Deallocate(full, (unsigned char *)tags);
    }
    count = -1;
    err = (*full)->GetObjectsWithTags(full, 1, want + 1, &count, NULL, NULL);
    say("tags.with-tags-count-only", "%s count=%d", err_name(err), (int)count);
    jlong zero[] = {11, 0};
    result("tags.with-tags-zero", (*full)->GetObjectsWithTags(full, 2, zero, &count, NULL, NULL));
    count = -1;
    err = (*full)->GetObjectsWithTags(full, 1, want + 2, &count, &objs, &tags);
    say("tags.with-tags-none", "%s count=%d", err_name(err), (int)count);
    if (err == JVMTI_ERROR_NONE) {
        (*full)->Deallocate(full, (unsigned char *)objs);
        (*full)->Deallocate(full, (unsigned char *)tags);
    }
    for (int i = 0; i < 3; i++) {
        (*full)->SetTag(full, o[i], 0);
        (*jni)->DeleteLocalRef(jni, o[i]);
    }
}

static void say_pointer(const char *id, jvmtiError err, const void *p)
{
    if (err != JVMTI_ERROR_NONE)
        result(id, err);
    else if (!p)
        say(id, "JVMTI_ERROR_NONE null");
    else
        say(id, "JVMTI_ERROR_NONE %#lx", (unsigned long)(uintptr_t)p);
}

static void tls_cases(void)
{
    void *v = (void *)1;
    jvmtiError err = (*full)->GetThreadLocalStorage(full, NULL, &v);
    say_pointer("tls.default", err, v);
    result("tls.set", (*full)->SetThreadLocalStorage(full, NULL, (void *)0x1234));
    v = NULL;
    err = (*full)->GetThreadLocalStorage(full, NULL, &v);
    say_pointer("tls.round-trip", err, v);
    v = NULL;
    err = (*full)->GetThreadLocalStorage(full, ctx.thread, &v);
    say_pointer("tls.current-thread-named", err, v);
    v = (void *)1;
    err = (*bare)->GetThreadLocalStorage(bare, NULL, &v);
    say_pointer("tls.other-environment", err, v);
    (*full)->SetThreadLocalStorage(full, ctx.thread, NULL);
    v = (void *)1;
    err = (*full)->GetThreadLocalStorage(full, NULL, &v);
    say_pointer("tls.cleared", err, v);
    result("tls.get-not-a-thread", (*full)->GetThreadLocalStorage(full, (jthread)ctx.klass, &v));
    result("tls.set-not-a-thread",
           (*full)->SetThreadLocalStorage(full, (jthread)ctx.klass, (void *)1));
}

static void cpu_cases(void)
{
    jlong ns = -1;
    jvmtiError err = (*full)->GetThreadCpuTime(full, NULL, &ns);
    say("cpu.current", "%s %s", err_name(err), ns > 0 ? "positive" : "not positive");
    jlong named = -1;
    err = (*full)->GetThreadCpuTime(full, ctx.thread, &named);
    say("cpu.current-named", "%s %s", err_name(err), named >= ns ? "not less" : "less");
    result("cpu.not-a-thread", (*full)->GetThreadCpuTime(full, (jthread)ctx.klass, &ns));
    jvmtiTimerInfo info;
    memset(&info, 0, sizeof info);
    err = (*full)->GetThreadCpuTimerInfo(full, &info);
    say("cpu.timer-info", "%s kind=%d max=%lld skip-forward=%d skip-backward=%d", err_name(err),
        (int)info.kind, (long long)info.max_value, (int)info.may_skip_forward,
        (int)info.may_skip_backward);
}

/* A thread attached through JNI that waits, in native code, until let go:
 * the one the suspend cases suspend and resume; after it detached, a
 * thread that is no longer alive. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    jthread thread; /* global reference */
    int ready, release;
} waiter = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0, 0};

static void *waiter_main(void *arg)
{
    (void)arg;
    JNIEnv *jni = NULL;
    jthread self = NULL;
    if ((*vm)->AttachCurrentThread(vm, (void **)&jni, NULL) == JNI_OK &&
        (*full)->GetCurrentThread(full, &self) == JVMTI_ERROR_NONE && self)
        self = (*jni)->NewGlobalRef(jni, self);
    pthread_mutex_lock(&waiter.lock);
    waiter.thread = self;
    waiter.ready = 1;
    pthread_cond_broadcast(&waiter.cond);
    while (!waiter.release)
        pthread_cond_wait(&waiter.cond, &waiter.lock);
    pthread_mutex_unlock(&waiter.lock);
    if (jni)
        (*vm)->DetachCurrentThread(vm);
    return NULL;
}

static void say_results(const char *id, jvmtiError err, const jvmtiError *r, int n)
{
    char buf[256];
    size_t len = (size_t)snprintf(buf, sizeof buf, "%s", err_name(err));
    for (int i = 0; err == JVMTI_ERROR_NONE && i < n && len < sizeof buf; i++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, " %s", err_name(r[i]));
    say(id, "%s", buf);
}

static void suspend_cases(void)
{
    jthread not_thread = (jthread)ctx.klass;
    result("suspend.not-a-thread", (*full)->SuspendThread(full, not_thread));
    result("resume.not-a-thread", (*full)->ResumeThread(full, not_thread));
    result("resume.not-suspended", (*full)->ResumeThread(full, ctx.thread));
    pthread_t pt;
    if (pthread_create(&pt, NULL, waiter_main, NULL) != 0) {
        say("suspend.setup", "pthread_create failed");
        return;
    }
    pthread_mutex_lock(&waiter.lock);
    while (!waiter.ready)
        pthread_cond_wait(&waiter.cond, &waiter.lock);
    pthread_mutex_unlock(&waiter.lock);
    jthread w = waiter.thread;
    if (w) {
        result("suspend.other", (*full)->SuspendThread(full, w));
        result("suspend.other-again", (*full)->SuspendThread(full, w));
        jthread list[] = {w, not_thread, ctx.thread};
        jvmtiError r[3];
        jvmtiError err = (*full)->SuspendThreadList(full, 2, list, r);
        say_results("suspend.list-suspended-and-not-a-thread", err, r, 2);
        result("resume.other", (*full)->ResumeThread(full, w));
        result("resume.other-again", (*full)->ResumeThread(full, w));
        err = (*full)->SuspendThreadList(full, 1, list, r);
        say_results("suspend.list-one", err, r, 1);
        err = (*full)->ResumeThreadList(full, 3, list, r);
        say_results("resume.list", err, r, 3);
    } else {
        say("suspend.setup", "the helper thread could not attach");
    }
    pthread_mutex_lock(&waiter.lock);
    waiter.release = 1;
    pthread_cond_broadcast(&waiter.cond);
    pthread_mutex_unlock(&waiter.lock);
    pthread_join(pt, NULL);
    if (!w)
        return;
    /* It detached: no longer alive. */
    result("suspend.ended", (*full)->SuspendThread(full, w));
    result("resume.ended", (*full)->ResumeThread(full, w));
    jvmtiError r[1];
    say_results("suspend.list-ended", (*full)->SuspendThreadList(full, 1, &w, r), r, 1);
    void *v;
    result("tls.get-ended", (*full)->GetThreadLocalStorage(full, w, &v));
    result("tls.set-ended", (*full)->SetThreadLocalStorage(full, w, (void *)1));
    jlong ns;
    result("cpu.ended", (*full)->GetThreadCpuTime(full, w, &ns));
}

static void objects_cases(JNIEnv *jni)
{
    tag_cases(jni);
    tls_cases();
    cpu_cases();
    suspend_cases();
}

/* ---- timings ---- */

static jobject *timing_objects;

static double time_tags(int what, long n)
{
    jlong t;
    double t0 = now_ns();
    switch (what) {
    case 0:
        for (long i = 0; i < n; i++)
            (*full)->SetTag(full, timing_objects[i % OBJ_TIMING_OBJECTS], (jlong)i + 1);
        break;
    case 1:
        for (long i = 0; i < n; i++)
            (*full)->GetTag(full, timing_objects[i % OBJ_TIMING_OBJECTS], &t);
        break;
    }
    return (now_ns() - t0) / (double)n;
}

static double time_objects_with_tags(JNIEnv *jni, long n)
{
    jlong want = 7;
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        jint count = 0;
        jobject *objs = NULL;
        jlong *tags = NULL;
        if ((*jni)->PushLocalFrame(jni, 16) != JNI_OK)
            break;
        if ((*full)->GetObjectsWithTags(full, 1, &want, &count, &objs, &tags) == JVMTI_ERROR_NONE) {
            if (count != OBJ_TIMING_OBJECTS)
                say("timing.setup", "GetObjectsWithTags found %d objects", (int)count);
            (*full)->Deallocate(full, (unsigned char *)objs);
            (*full)->Deallocate(full, (unsigned char *)tags);
        }
        (*jni)->PopLocalFrame(jni, NULL);
    }
    return (now_ns() - t0) / (double)n;
}

static void objects_timings(JNIEnv *jni)
{
    if (iters <= 0)
        return;
    timing_objects = calloc(OBJ_TIMING_OBJECTS, sizeof *timing_objects);
    for (int i = 0; timing_objects && i < OBJ_TIMING_OBJECTS; i++) {
        jobject local = new_object(jni);
        timing_objects[i] = local ? (*jni)->NewGlobalRef(jni, local) : NULL;
        (*jni)->DeleteLocalRef(jni, local);
        if (!timing_objects[i] || (*full)->SetTag(full, timing_objects[i], 1) != JVMTI_ERROR_NONE) {
            say("timing.setup", "cannot make and tag %d objects", OBJ_TIMING_OBJECTS);
            return;
        }
    }
    if (!timing_objects)
        return;
    static const char *const names[] = {"SetTag", "GetTag"};
    /* One row at a time, as before pacing: HotSpot's GetTag read 42.8-45.6
     * ns on its own and 56.7-60.9 taking turns with SetTag. */
    for (int w = 0; w < 2; w++) {
        double tag_best;
        paced_rounds(time_tags, w, 1, &tag_best);
        printf("timing.%s %.2f\n", names[w], tag_best);
    }
    for (int i = 0; i < OBJ_TIMING_OBJECTS; i++)
        (*full)->SetTag(full, timing_objects[i], 7);
    long calls = iters / 500000 > 0 ? iters / 500000 : 1;
    double best = 1e30;
    for (int round = 0; round < TIMING_ROUNDS; round++) {
        double ns = time_objects_with_tags(jni, calls);
        if (ns < best)
            best = ns;
    }
    printf("timing.GetObjectsWithTags-100k %.2f\n", best);
    fflush(stdout);
    for (int i = 0; i < OBJ_TIMING_OBJECTS; i++) {
        (*full)->SetTag(full, timing_objects[i], 0);
        (*jni)->DeleteGlobalRef(jni, timing_objects[i]);
    }
    free(timing_objects);
    timing_objects = NULL;
}
