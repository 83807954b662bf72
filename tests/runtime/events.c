/* events.c: the semantics of event posting in the runtime core, through the
 * generated jvmtirt_post_NAME functions and environments' function tables:
 *   - ClassFileLoadHook chains: each environment sees the bytes the one
 *     before it left, environments without can_retransform_classes come
 *     first, a retransformation reaches only those with it, replaced
 *     buffers are freed and the VM gets the last one;
 *   - NativeMethodBind chains the address;
 *   - an event posted outside its phases reaches nobody;
 *   - per-thread enabling follows the event's thread parameter, else the
 *     calling thread;
 *   - jvmtigen_post_filter_NAME decides per environment.
 * Expected values are written by hand from the spec's text. Prints TAP-like
 * lines (tests/lib.sh). */
#define _GNU_SOURCE /* mallinfo2 */

#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvmtigen_post.h"
#include "jvmtirt.h"

static int failures;

static void check(int ok, const char *desc, const char *got)
{
    if (ok)
        printf("ok - runtime: events: %s\n", desc);
    else {
        printf("not ok - runtime: events: %s (got \"%s\")\n", desc, got);
        failures++;
    }
    fflush(stdout);
}

/* ---- a log of deliveries: "<env letter><what>;" ---- */

static char log_text[1024];

static void log_add(jvmtiEnv *env, const char *what)
{
    void *letter = NULL;
    (*env)->GetEnvironmentLocalStorage(env, &letter);
    size_t n = strlen(log_text);
    snprintf(log_text + n, sizeof log_text - n, "%c%s;", (char)(intptr_t)letter, what);
}

static void expect_log(const char *want, const char *desc)
{
    check(strcmp(log_text, want) == 0, desc, log_text);
    log_text[0] = '\0';
}

static jvmtiEnv *env_new(char letter, int retransform)
{
    void *p = NULL;
    if (jvmtirt_get_env(&p, JVMTI_VERSION) != JNI_OK || !p) {
        check(0, "jvmtirt_get_env gives an environment", "none");
        exit(1);
    }
    jvmtiEnv *e = p;
    (*e)->SetEnvironmentLocalStorage(e, (const void *)(intptr_t)letter);
    if (retransform) {
        jvmtiCapabilities c;
        memset(&c, 0, sizeof c);
        c.can_retransform_classes = 1;
        if ((*e)->AddCapabilities(e, &c) != JVMTI_ERROR_NONE)
            check(0, "AddCapabilities(can_retransform_classes)", "refused");
    }
    return e;
}

static void enable(jvmtiEnv *e, jvmtiEvent ev, jthread t)
{
    jvmtiError err = (*e)->SetEventNotificationMode(e, JVMTI_ENABLE, ev, t);
    if (err != JVMTI_ERROR_NONE) {
        char why[32];
        snprintf(why, sizeof why, "error %d", (int)err);
        check(0, "SetEventNotificationMode(ENABLE)", why);
    }
}

/* A fresh core, live, with the calling thread as thread 1. */
static void live_core(const jvmtirt_config *cfg)
{
    jvmtirt_init(cfg);
    jvmtirt_thread_start(1, JVMTIRT_JAVA_THREAD);
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
}

/* Gives each of the n environments the callbacks and enables ev globally. */
static void listen(jvmtiEnv **envs, int n, const jvmtiEventCallbacks *cb, jvmtiEvent ev)
{
    for (int i = 0; i < n; i++) {
        (*envs[i])->SetEventCallbacks(envs[i], cb, (jint)sizeof *cb);
        enable(envs[i], ev, NULL);
    }
}

/* ---- ClassFileLoadHook: each environment appends its letter ---- */

static void JNICALL on_class_file(jvmtiEnv *env, JNIEnv *jni, jclass being_redefined,
                                  jobject loader, const char *name, jobject pd, jint len,
                                  const unsigned char *data, jint *new_len,
                                  unsigned char **new_data)
{
    (void)jni, (void)being_redefined, (void)loader, (void)pd;
    char seen[128];
    snprintf(seen, sizeof seen, "(%.*s)", (int)len, (const char *)data);
    log_add(env, seen);
    void *letter = NULL;
    (*env)->GetEnvironmentLocalStorage(env, &letter);
    if (name && strcmp(name, "Keep") == 0)
        return; /* leaves the class as it is */
    unsigned char *out = NULL;
    if ((*env)->Allocate(env, len + 1, &out) != JVMTI_ERROR_NONE)
        return;
    memcpy(out, data, (size_t)len);
    out[len] = (unsigned char)(intptr_t)letter;
    *new_data = out;
    *new_len = len + 1;
}

static size_t heap_in_use(void)
{
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

static int sanitized(void)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return 1;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
    return 1;
#endif
#endif
    return 0;
}

/* Posts the hook for bytes "cls" and returns what the VM got ("-": no
 * replacement). */
static const char *post_hook(const char *name, jclass being_redefined)
{
    static char got[128];
    jint new_len = 3;
    unsigned char *new_data = NULL;
    jvmtirt_post_ClassFileLoadHook(NULL, being_redefined, NULL, name, NULL, 3,
                                    (const unsigned char *)"cls", &new_len, &new_data);
    if (!new_data)
        return "-";
    snprintf(got, sizeof got, "%.*s", (int)new_len, (const char *)new_data);
    jvmtirt_post_deallocate(new_data);
    return got;
}

static void section_class_file_load_hook(void)
{
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    cfg.offer_defaults = 1; /* can_retransform_classes: RetransformClasses is the VM's */
    cfg.potential.can_retransform_classes = 1;
    live_core(&cfg);
    /* A and C lack can_retransform_classes, B (created between them) has it. */
    jvmtiEnv *A = env_new('A', 0), *B = env_new('B', 1), *C = env_new('C', 0);
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.ClassFileLoadHook = on_class_file;
    jvmtiEnv *all[] = {A, B, C};
    listen(all, 3, &cb, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK);

    const char *got = post_hook("Load", NULL);
    check(strcmp(got, "clsACB") == 0, "ClassFileLoadHook: the VM gets the last environment's bytes",
          got);
    expect_log("A(cls);C(clsA);B(clsAC);",
               "ClassFileLoadHook: each environment sees the previous one's bytes; "
               "incapable ones (A, C) before capable ones (B), creation order within each");

    got = post_hook("Redefined", (jclass)&cfg);
    check(strcmp(got, "clsACB") == 0, "ClassFileLoadHook for RedefineClasses: every environment",
          got);
    expect_log("A(cls);C(clsA);B(clsAC);", "ClassFileLoadHook for RedefineClasses: same order");

    jvmtirt_post_set_retransforming(1);
    got = post_hook("Retransformed", (jclass)&cfg);
    jvmtirt_post_set_retransforming(0);
    check(strcmp(got, "clsB") == 0, "ClassFileLoadHook for RetransformClasses: only B's bytes",
          got);
    expect_log("B(cls);", "ClassFileLoadHook for RetransformClasses: only capable environments");

    got = post_hook("Keep", NULL);
    check(strcmp(got, "-") == 0, "ClassFileLoadHook: nobody replaces: the VM gets NULL", got);
    expect_log("A(cls);C(cls);B(cls);", "ClassFileLoadHook: unchanged bytes pass on");

    /* Replaced buffers are freed: the heap is back where it was once the VM
     * freed the last one (ASan's leak check says the same under
     * SANITIZE=address, where mallinfo2 does not count). */
    if (!sanitized()) {
        post_hook("Warm", NULL);
        log_text[0] = '\0';
        size_t before = heap_in_use();
        for (int i = 0; i < 100; i++)
            post_hook("Load", NULL);
        log_text[0] = '\0';
        char why[64];
        snprintf(why, sizeof why, "%zu bytes more", heap_in_use() - before);
        check(heap_in_use() == before,
              "ClassFileLoadHook: the buffers of A and C are freed when replaced", why);
    }

    /* A VM that passes no pointer for the new bytes: nothing leaks. */
    jvmtirt_post_ClassFileLoadHook(NULL, NULL, NULL, "Load", NULL, 3,
                                    (const unsigned char *)"cls", NULL, NULL);
    expect_log("A(cls);C(clsA);B(clsAC);", "ClassFileLoadHook without the VM's pointers still chains");
    jvmtirt_thread_end();
    jvmtirt_shutdown();
}

/* ---- NativeMethodBind ---- */

static void native_a(void) {}
static void native_b(void) {}
static void native_orig(void) {}

static const char *fn_name(void *p)
{
    return p == (void *)(uintptr_t)native_orig ? "orig"
         : p == (void *)(uintptr_t)native_a    ? "a"
         : p == (void *)(uintptr_t)native_b    ? "b"
                                               : "?";
}

static void JNICALL on_bind(jvmtiEnv *env, JNIEnv *jni, jthread thread, jmethodID method,
                            void *address, void **new_address_ptr)
{
    (void)jni, (void)thread, (void)method;
    char seen[32];
    snprintf(seen, sizeof seen, "(%s)", fn_name(address));
    log_add(env, seen);
    void *letter = NULL;
    (*env)->GetEnvironmentLocalStorage(env, &letter);
    if ((char)(intptr_t)letter == 'A')
        *new_address_ptr = (void *)(uintptr_t)native_a;
    else if ((char)(intptr_t)letter == 'B' && address == (void *)(uintptr_t)native_a)
        *new_address_ptr = (void *)(uintptr_t)native_b; /* wraps what A bound */
}

static void section_native_method_bind(void)
{
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    cfg.offer_defaults = 1; /* can_retransform_classes: RetransformClasses is the VM's */
    cfg.potential.can_generate_native_method_bind_events = 1;
    live_core(&cfg);
    jvmtiEnv *A = env_new('A', 0), *C = env_new('C', 0), *B = env_new('B', 0);
    jvmtiCapabilities bind;
    memset(&bind, 0, sizeof bind);
    bind.can_generate_native_method_bind_events = 1;
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.NativeMethodBind = on_bind;
    jvmtiEnv *all[] = {A, C, B};
    for (int i = 0; i < 3; i++)
        (*all[i])->AddCapabilities(all[i], &bind);
    listen(all, 3, &cb, JVMTI_EVENT_NATIVE_METHOD_BIND);
    void *orig = (void *)(uintptr_t)native_orig, *bound = orig;
    jvmtirt_post_NativeMethodBind(NULL, (jthread)1, NULL, orig, &bound);
    expect_log("A(orig);C(a);B(a);",
               "NativeMethodBind: each environment gets the address the previous one set");
    check(bound == (void *)(uintptr_t)native_b, "NativeMethodBind: the VM binds the last address",
          fn_name(bound));
    jvmtirt_thread_end();
    jvmtirt_shutdown();
}

/* ---- phases ---- */

static void JNICALL on_class_load(jvmtiEnv *env, JNIEnv *jni, jthread thread, jclass klass)
{
    (void)jni, (void)klass;
    char what[32];
    snprintf(what, sizeof what, "load@%d", (int)(intptr_t)thread);
    log_add(env, what);
}

static void JNICALL on_vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)jni, (void)thread;
    log_add(env, "init");
}

static void section_phases(void)
{
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    cfg.offer_defaults = 1; /* can_retransform_classes: RetransformClasses is the VM's */
    cfg.potential.can_generate_early_class_hook_events = 1;
    cfg.potential.can_generate_all_class_hook_events = 1;
    jvmtirt_init(&cfg);
    jvmtirt_thread_start(1, JVMTIRT_JAVA_THREAD);
    jvmtiEnv *A = env_new('A', 0), *E = env_new('E', 0);
    jvmtiCapabilities early;
    memset(&early, 0, sizeof early);
    early.can_generate_early_class_hook_events = 1;
    early.can_generate_all_class_hook_events = 1;
    (*E)->AddCapabilities(E, &early);
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.ClassLoad = on_class_load;
    cb.VMInit = on_vm_init;
    cb.ClassFileLoadHook = on_class_file;
    jvmtiEnv *all[] = {A, E};
    for (int i = 0; i < 2; i++) {
        (*all[i])->SetEventCallbacks(all[i], &cb, (jint)sizeof cb);
        enable(all[i], JVMTI_EVENT_CLASS_LOAD, NULL);
        enable(all[i], JVMTI_EVENT_VM_INIT, NULL);
        enable(all[i], JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL);
    }
    /* Still OnLoad: no agent code may run on an event yet. */
    post_hook("Keep", NULL);
    expect_log("", "ClassFileLoadHook (phase any) posted in the OnLoad phase reaches nobody");
    jvmtirt_set_phase(JVMTI_PHASE_PRIMORDIAL);
    jvmtirt_post_ClassLoad(NULL, (jthread)1, NULL);
    expect_log("", "ClassLoad posted in the primordial phase reaches nobody");
    post_hook("Keep", NULL);
    expect_log("E(cls);", "ClassFileLoadHook in the primordial phase: only the environment "
                          "with the early and all class hook capabilities");
    jvmtirt_set_phase(JVMTI_PHASE_START);
    jvmtirt_post_VMInit(NULL, (jthread)1);
    expect_log("", "VMInit posted in the start phase reaches nobody");
    jvmtirt_post_ClassLoad(NULL, (jthread)1, NULL);
    expect_log("Aload@1;Eload@1;", "ClassLoad in the start phase reaches both");
    post_hook("Keep", NULL);
    expect_log("A(cls);E(cls);", "ClassFileLoadHook in the start phase reaches both");
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtirt_post_VMInit(NULL, (jthread)1);
    expect_log("Ainit;Einit;", "VMInit in the live phase reaches both");
    jvmtirt_set_phase(JVMTI_PHASE_DEAD);
    jvmtirt_post_ClassLoad(NULL, (jthread)1, NULL);
    expect_log("", "ClassLoad posted in the dead phase reaches nobody");
    post_hook("Keep", NULL);
    expect_log("", "ClassFileLoadHook (phase any) posted in the dead phase reaches nobody");
    jvmtirt_thread_end();
    jvmtirt_shutdown();
}

/* ---- per-thread enabling: the event's thread, posted from another ---- */

#define ID_A 1
#define ID_B 2

typedef struct worker {
    pthread_t pt;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    void (*job)(void); /* NULL: idle; the worker runs it and clears it */
    int stop, started;
} worker;

static worker wb = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

static void *worker_main(void *arg)
{
    (void)arg;
    jvmtirt_thread_start(ID_B, JVMTIRT_JAVA_THREAD);
    pthread_mutex_lock(&wb.mu);
    wb.started = 1;
    pthread_cond_broadcast(&wb.cv);
    for (;;) {
        while (!wb.job && !wb.stop)
            pthread_cond_wait(&wb.cv, &wb.mu);
        if (wb.job) {
            void (*job)(void) = wb.job;
            pthread_mutex_unlock(&wb.mu);
            job();
            pthread_mutex_lock(&wb.mu);
            wb.job = NULL;
            pthread_cond_broadcast(&wb.cv);
        } else
            break;
    }
    pthread_mutex_unlock(&wb.mu);
    jvmtirt_thread_end();
    return NULL;
}

static void on_b(void (*job)(void))
{
    pthread_mutex_lock(&wb.mu);
    wb.job = job;
    pthread_cond_broadcast(&wb.cv);
    while (wb.job)
        pthread_cond_wait(&wb.cv, &wb.mu);
    pthread_mutex_unlock(&wb.mu);
}

static void job_load_for_a(void) { jvmtirt_post_ClassLoad(NULL, (jthread)ID_A, NULL); }

static int filter_not_a(jvmtiEnv *env, JNIEnv *jni, jthread thread, jclass klass)
{
    (void)jni, (void)thread, (void)klass;
    void *letter = NULL;
    (*env)->GetEnvironmentLocalStorage(env, &letter);
    return (char)(intptr_t)letter != 'A';
}

static void section_threads(void)
{
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    cfg.offer_defaults = 1; /* can_retransform_classes: RetransformClasses is the VM's */
    jvmtirt_init(&cfg);
    jvmtirt_thread_start(ID_A, JVMTIRT_JAVA_THREAD);
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    pthread_create(&wb.pt, NULL, worker_main, NULL);
    pthread_mutex_lock(&wb.mu);
    while (!wb.started)
        pthread_cond_wait(&wb.cv, &wb.mu);
    pthread_mutex_unlock(&wb.mu);

    jvmtiEnv *A = env_new('A', 0), *B = env_new('B', 0);
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.ClassLoad = on_class_load;
    cb.ClassFileLoadHook = on_class_file;
    (*A)->SetEventCallbacks(A, &cb, (jint)sizeof cb);
    (*B)->SetEventCallbacks(B, &cb, (jint)sizeof cb);
    enable(A, JVMTI_EVENT_CLASS_LOAD, (jthread)ID_B); /* for thread B only */
    enable(B, JVMTI_EVENT_CLASS_LOAD, (jthread)ID_A); /* for thread A only */

    jvmtirt_post_ClassLoad(NULL, (jthread)ID_B, NULL);
    expect_log("Aload@2;", "ClassLoad for thread B posted from thread A: "
                           "the environment that enabled it for B gets it, not the one for A");
    jvmtirt_post_ClassLoad(NULL, (jthread)ID_A, NULL);
    expect_log("Bload@1;", "ClassLoad for thread A posted from thread A: only the one for A");
    on_b(job_load_for_a);
    expect_log("Bload@1;", "ClassLoad for thread A posted from thread B: only the one for A");

    /* the per-event filter decides per environment */
    enable(A, JVMTI_EVENT_CLASS_LOAD, NULL);
    enable(B, JVMTI_EVENT_CLASS_LOAD, NULL);
    jvmtigen_post_filter_ClassLoad = filter_not_a;
    jvmtirt_post_ClassLoad(NULL, (jthread)ID_A, NULL);
    jvmtigen_post_filter_ClassLoad = NULL;
    expect_log("Bload@1;", "jvmtigen_post_filter_ClassLoad skips the environment it refuses");
    jvmtirt_post_ClassLoad(NULL, (jthread)ID_A, NULL);
    expect_log("Aload@1;Bload@1;", "without the filter both get it");

    pthread_mutex_lock(&wb.mu);
    wb.stop = 1;
    pthread_cond_broadcast(&wb.cv);
    pthread_mutex_unlock(&wb.mu);
    pthread_join(wb.pt, NULL);
    jvmtirt_thread_end();
    jvmtirt_shutdown();
}

/* With an argument, only the sections whose names contain it. */
int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*run)(void);
    } sections[] = {{"class_file_load_hook", section_class_file_load_hook},
                    {"native_method_bind", section_native_method_bind},
                    {"phases", section_phases},
                    {"threads", section_threads}};
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
        if (argc < 2 || strstr(sections[i].name, argv[1]))
            sections[i].run();
    return failures ? 1 : 0;
}
