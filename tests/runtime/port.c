/* port.c: the VM port (jvmtirt_config, registered implementations), built
 * as a tiny VM would be: with -fvisibility=hidden, linked with the static
 * and with the shared library (test.sh builds it three ways: static hidden,
 * shared hidden, shared with default visibility; -DPORT_SHARED_HIDDEN=1
 * says which build cannot have its jvmti_impl_ definition seen by the
 * library). Registering is the one way in: a definition the linker puts in
 * a default's place without being registered is refused, so that no build
 * flag can make a VM's function silently lose to its default. Expected
 * values are written by hand. */
#define _POSIX_C_SOURCE 200809L

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jvmtigen_impl.h"
#include "jvmtigen_post.h"
#include "jvmtigen_tables.h"
#include "jvmtirt.h"

#ifndef PORT_SHARED_HIDDEN
#define PORT_SHARED_HIDDEN 0
#endif

/* runtime/base/rt.h's RT_ENV_RESERVE, which a VM does not see: a disposed
 * environment's slot is not reused before this many others were freed. */
#define RT_RESERVE_AT_LEAST 16

static int failures;

static void line(int ok, const char *desc, long got, long want)
{
    if (ok)
        printf("ok - runtime: port: %s\n", desc);
    else {
        printf("not ok - runtime: port: %s (expected %ld, got %ld)\n", desc, want, got);
        failures++;
    }
    fflush(stdout);
}

static void expect(long got, long want, const char *desc) { line(got == want, desc, got, want); }

/* The VM's own function, named as `fill --core` names it and hidden when
 * built with -fvisibility=hidden (one that stays the VM's: the collector).
 * It counts its calls and answers a code of its own, so a test sees its
 * answer come back. */
static int gc_calls;
jvmtiError jvmti_impl_ForceGarbageCollection(jvmtiEnv *env)
{
    (void)env;
    gc_calls++;
    return JVMTI_ERROR_INTERRUPT;
}

static jvmtiError my_interrupt(jvmtiEnv *env, jthread thread)
{
    (void)env, (void)thread;
    return JVMTI_ERROR_NONE;
}

static int thread_id_calls;
static uintptr_t counting_thread_id(jthread t)
{
    thread_id_calls++;
    return (uintptr_t)t;
}

static char thread_obj;
#define T ((jthread)(void *)&thread_obj)

/* A new environment, the calling thread attached as T's. */
static jvmtiEnv *new_env(void)
{
    jvmtirt_thread_start((uintptr_t)T, JVMTIRT_JAVA_THREAD);
    jvmtiEnv *e = NULL;
    if (jvmtirt_get_env((void **)&e, JVMTI_VERSION) != JNI_OK)
        return NULL;
    return e;
}


static jvmtiCapabilities potential_of(jvmtiEnv *e)
{
    jvmtiCapabilities c;
    memset(&c, 0, sizeof c);
    (*e)->GetPotentialCapabilities(e, &c);
    return c;
}

/* What `fill --core` keeps at the end of a VM's file: the table of its
 * functions, here the collector only. */
static jvmtirt_impl_table vm_impls = JVMTIRT_IMPL_TABLE_INIT;

/* A config with the capabilities this test offers and the VM's table. */
static jvmtirt_config base_config(void)
{
    jvmtirt_config c = JVMTIRT_CONFIG_INIT;
    vm_impls.ForceGarbageCollection = jvmti_impl_ForceGarbageCollection;
    c.impls = &vm_impls;
    c.potential.can_signal_thread = 1;                 /* only defaults unless registered */
    c.potential.can_get_current_thread_cpu_time = 1; /* the core's own functions */
    c.potential.can_generate_garbage_collection_events = 1; /* an event, no function */
    return c;
}

static int slot_of(const char *name)
{
    for (int n = 1; n < JVMTIGEN_FUNCTION_SLOTS; n++)
        if (jvmtigen_functions_info[n].name && strcmp(jvmtigen_functions_info[n].name, name) == 0)
            return n;
    return -1;
}

/* Whether the report lists the function (as a line of its own). */
static int reported(const char *what)
{
    FILE *f = tmpfile();
    if (!f)
        return -1;
    jvmtirt_report_defaults(f);
    rewind(f);
    char buf[512];
    int found = 0;
    while (fgets(buf, sizeof buf, f))
        if (strstr(buf, what))
            found = 1;
    fclose(f);
    return found;
}

/* What the core writes to stderr between capture_begin and capture_end
 * (into text, size n). */
static FILE *capture_log;
static int capture_saved = -1;

static int capture_begin(void)
{
    fflush(stderr);
    capture_log = tmpfile();
    capture_saved = dup(2);
    if (!capture_log || capture_saved < 0 || dup2(fileno(capture_log), 2) < 0) {
        expect(0, 1, "stderr redirected");
        return 0;
    }
    return 1;
}

static void capture_end(char *text, size_t n)
{
    fflush(stderr);
    dup2(capture_saved, 2);
    close(capture_saved);
    rewind(capture_log);
    size_t got = fread(text, 1, n - 1, capture_log);
    text[got] = '\0';
    fclose(capture_log);
}

/* jvmtirt_init(c) with its stderr in text. */
static jvmtiError init_captured_keep(const jvmtirt_config *c, char *text, size_t n)
{
    if (!capture_begin())
        return JVMTI_ERROR_INTERNAL;
    jvmtiError err = jvmtirt_init(c);
    capture_end(text, n);
    return err;
}

static jvmtiError other_gc(jvmtiEnv *env)
{
    (void)env;
    return JVMTI_ERROR_NONE;
}

/* The VM's jvmti_impl_ForceGarbageCollection defined but not registered
 * (the way in by name that linking with a weak default used to give).
 * Where the linker put it in the default's place (static, or shared with
 * default visibility) it used to be called, and in the shared, hidden
 * build it silently was not: init now refuses it in the first two and
 * names it (report, strict) in the third, where the library cannot see
 * it. */
static void section_by_name(void)
{
    char text[1024];
    jvmtirt_config c = base_config();
    c.impls = NULL;
    jvmtiError err = init_captured_keep(&c, text, sizeof text);
    int slot = slot_of("ForceGarbageCollection");
    if (PORT_SHARED_HIDDEN) {
        expect(err, JVMTI_ERROR_NONE, "hidden, shared, unregistered: init (the library cannot "
                                      "see the definition)");
        jvmtirt_set_phase(JVMTI_PHASE_LIVE);
        jvmtiEnv *e = new_env();
        expect((*e)->ForceGarbageCollection(e), JVMTI_ERROR_NOT_AVAILABLE,
               "... ForceGarbageCollection is at its default");
        expect(jvmtigen_impl_supplied(slot), 0, "... jvmtigen_impl_supplied says so");
        expect(reported("function ForceGarbageCollection answers"), 1,
               "... and jvmtirt_report_defaults names it");
        (*e)->DisposeEnvironment(e);
        jvmtirt_thread_end();
        jvmtirt_shutdown();
        c.strict = 1;
        fprintf(stderr, "(a strict init's refusal follows)\n");
        expect(jvmtirt_init(&c), JVMTI_ERROR_NOT_AVAILABLE, "... and a strict init refuses");
    } else {
        expect(err, JVMTI_ERROR_ILLEGAL_ARGUMENT,
               "jvmti_impl_ForceGarbageCollection defined, not registered: init refuses");
        expect(strstr(text, "jvmtirt: error: jvmtirt_init: jvmti_impl_ForceGarbageCollection is "
                            "defined but is not impls.ForceGarbageCollection") != NULL,
               1, "... and names it");
        expect(strchr(text, '\n') == strrchr(text, '\n'), 1, "... in one line");
        expect(jvmtigen_impl_unregistered(slot), 1, "... jvmtigen_impl_unregistered says so");
    }
    /* Registered as another function than the one of that name: the
     * trampolines would call the name's, and the registered one would lose. */
    jvmtirt_impl_table impls = JVMTIRT_IMPL_TABLE_INIT;
    impls.ForceGarbageCollection = other_gc;
    c = base_config();
    c.impls = &impls;
    err = init_captured_keep(&c, text, sizeof text);
    if (PORT_SHARED_HIDDEN) {
        expect(err, JVMTI_ERROR_NONE, "hidden, shared, another function registered: init");
        jvmtirt_set_phase(JVMTI_PHASE_LIVE);
        jvmtiEnv *e = new_env();
        expect((*e)->ForceGarbageCollection(e), JVMTI_ERROR_NONE, "... the registered one is called");
        (*e)->DisposeEnvironment(e);
        jvmtirt_thread_end();
        jvmtirt_shutdown();
    } else {
        expect(err, JVMTI_ERROR_ILLEGAL_ARGUMENT,
               "jvmti_impl_ForceGarbageCollection defined, another function registered: refused");
    }
}

static void section_unregistered(void)
{
    jvmtirt_config c = base_config();
    expect(jvmtirt_init(&c), JVMTI_ERROR_NONE, "init with only the collector registered");
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtiEnv *e = new_env();
    gc_calls = 0;
    expect((*e)->ForceGarbageCollection(e), JVMTI_ERROR_INTERRUPT,
           "registered: ForceGarbageCollection reaches the VM whatever its visibility");
    expect(gc_calls, 1, "... once");
    expect(jvmtigen_impl_supplied(slot_of("GetPhase")), -1, "a core function has no default");
    expect(jvmtigen_impl_supplied(slot_of("GetTopThreadGroups")), -1,
           "GetTopThreadGroups is the core's, over config.thread_group_members");
    expect(reported("function GetTopThreadGroups answers JVMTI_ERROR_NOT_AVAILABLE (the core's, "
                    "needs config.thread_group_members"),
           1, "... without it the report names a missing mandatory function and the operation");
    /* The core's stack and class functions need the VM's walks: without
     * them they answer NOT_AVAILABLE, and the report says so. */
    expect(jvmtigen_impl_supplied(slot_of("GetFrameCount")), -1, "GetFrameCount is the core's");
    expect(reported("function GetFrameCount answers"), 1,
           "... but without config.walk_stacks the report names it");
    expect(reported("function GetAllStackTraces answers"), 1, "... and GetAllStackTraces");
    expect(reported("function GetLoadedClasses answers"), 1,
           "... and without config.each_class GetLoadedClasses");
    expect(reported("StopThread"), 0, "... but not a function of a withdrawn capability");
    expect(jvmtirt_report_defaults(NULL) > 10, 1, "it counts the missing mandatory functions");
    jvmtiCapabilities p = potential_of(e);
    expect(p.can_signal_thread, 0, "can_signal_thread (all its functions defaults) is not offered");
    expect(reported("capability can_signal_thread withdrawn"), 1, "... and the report says so");
    expect(p.can_get_current_thread_cpu_time, 1, "a capability of the core's functions stays");
    expect(p.can_generate_garbage_collection_events, 1, "a capability of events only stays");
    jvmtiCapabilities want;
    memset(&want, 0, sizeof want);
    want.can_signal_thread = 1;
    expect((*e)->AddCapabilities(e, &want), JVMTI_ERROR_NOT_AVAILABLE,
           "AddCapabilities(can_signal_thread) is refused");
    (*e)->DisposeEnvironment(e);
    jvmtirt_shutdown();

    c.strict = 1;
    fprintf(stderr, "(a strict init's refusal follows)\n");
    expect(jvmtirt_init(&c), JVMTI_ERROR_NOT_AVAILABLE, "strict: init refuses missing functions");

    c = base_config();
    c.offer_defaults = 1;
    expect(jvmtirt_init(&c), JVMTI_ERROR_NONE, "offer_defaults: init");
    e = new_env();
    expect(potential_of(e).can_signal_thread, 1, "offer_defaults: can_signal_thread is offered");
    (*e)->DisposeEnvironment(e);
    jvmtirt_shutdown();
}

static void section_registered(void)
{
    jvmtirt_impl_table impls = JVMTIRT_IMPL_TABLE_INIT;
    impls.ForceGarbageCollection = jvmti_impl_ForceGarbageCollection;
    impls.InterruptThread = my_interrupt;
    jvmtirt_config c = base_config();
    c.impls = &impls;
    expect(jvmtirt_init(&c), JVMTI_ERROR_NONE, "init with registered functions");
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtiEnv *e = new_env();
    gc_calls = 0;
    expect((*e)->ForceGarbageCollection(e), JVMTI_ERROR_INTERRUPT,
           "registered: ForceGarbageCollection reaches the VM whatever its visibility");
    expect(gc_calls, 1, "... and its answer comes back");
    expect(jvmtigen_impl_supplied(slot_of("ForceGarbageCollection")), 1, "... supplied");
    jvmtiCapabilities p = potential_of(e);
    expect(p.can_signal_thread, 1, "one function of can_signal_thread registered: it is offered");
    jvmtiCapabilities want;
    memset(&want, 0, sizeof want);
    want.can_signal_thread = 1;
    expect((*e)->AddCapabilities(e, &want), JVMTI_ERROR_NONE, "AddCapabilities(can_signal_thread)");
    expect((*e)->InterruptThread(e, T), JVMTI_ERROR_NONE,
           "InterruptThread reaches the registered function");
    expect((*e)->StopThread(e, T, (jobject)(void *)&thread_obj), JVMTI_ERROR_NOT_AVAILABLE,
           "StopThread (not registered) is NOT_AVAILABLE");
    expect(reported("optional function StopThread answers"), 1, "... and the report names it");
    (*e)->DisposeEnvironment(e);
    jvmtirt_shutdown();

    /* A table from an older VM: members past its size are not used. Where
     * the linker put the VM's jvmti_impl_ForceGarbageCollection in the
     * default's place, leaving its member out is refused, not dropped. */
    impls.size = offsetof(jvmtirt_impl_table, ForceGarbageCollection);
    if (!PORT_SHARED_HIDDEN) {
        fprintf(stderr, "(a refusal of a definition past the table's size follows)\n");
        expect(jvmtirt_init(&c), JVMTI_ERROR_ILLEGAL_ARGUMENT,
               "a table shorter than today's, the VM's definition past it: refused");
        impls.InterruptThread = NULL;
        impls.size = offsetof(jvmtirt_impl_table, InterruptThread);
        expect(jvmtirt_init(&c), JVMTI_ERROR_ILLEGAL_ARGUMENT,
               "... also when the whole table is past it");
        return;
    }
    expect(jvmtirt_init(&c), JVMTI_ERROR_NONE, "a registered table shorter than today's");
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    e = new_env();
    expect((*e)->ForceGarbageCollection(e), JVMTI_ERROR_NOT_AVAILABLE,
           "... a member past its size is not called");
    (*e)->DisposeEnvironment(e);
    jvmtirt_shutdown();
}

/* A function of the core's own registered as well: the VM's would never
 * be called (the core's list grows between releases, so a table that was
 * right for an older core can be wrong for this one). init refuses and
 * names it; before, the registration was ignored in silence. */
static jvmtiError my_thread_state(jvmtiEnv *env, jthread thread, jint *state)
{
    (void)env, (void)thread;
    *state = 0;
    return JVMTI_ERROR_NONE;
}

static void section_shadowed(void)
{
    jvmtirt_impl_table impls = JVMTIRT_IMPL_TABLE_INIT;
    impls.GetThreadState = my_thread_state;
    impls.InterruptThread = my_interrupt;
    impls.ForceGarbageCollection = jvmti_impl_ForceGarbageCollection;
    jvmtirt_config c = base_config();
    c.impls = &impls;
    if (!capture_begin())
        return;
    jvmtiError err = jvmtirt_init(&c);
    char text[1024];
    capture_end(text, sizeof text);
    expect(err, JVMTI_ERROR_ILLEGAL_ARGUMENT,
           "impls.GetThreadState (a function of the core's) registered: init refuses");
    expect(strstr(text, "jvmtirt: error: jvmtirt_init: impls.GetThreadState is set, but the "
                        "core implements GetThreadState") != NULL,
           1, "... and says which");
    expect(strstr(text, "InterruptThread") == NULL, 1, "... naming no VM function");
    impls.GetThreadState = NULL;
    expect(jvmtirt_init(&c), JVMTI_ERROR_NONE, "without it, init succeeds");
    jvmtirt_shutdown();
}

static void section_config_versions(void)
{
    jvmtirt_config c = base_config();
    c.size = 0;
    fprintf(stderr, "(refusals of bad configs follow)\n");
    expect(jvmtirt_init(&c), JVMTI_ERROR_ILLEGAL_ARGUMENT, "a config with size 0 is refused");
    c = base_config();
    c.version = JVMTIRT_CONFIG_VERSION + 1;
    expect(jvmtirt_init(&c), JVMTI_ERROR_ILLEGAL_ARGUMENT, "a config of an unknown version is refused");
    expect(jvmtirt_init(NULL), JVMTI_ERROR_ILLEGAL_ARGUMENT, "a NULL config is refused");

    /* An older VM's config ends before thread_id: whatever lies past its
     * size (here: a function that counts) counts as NULL. */
    c = base_config();
    c.thread_id = counting_thread_id;
    c.size = offsetof(jvmtirt_config, thread_id);
    expect(jvmtirt_init(&c), JVMTI_ERROR_NONE, "a config shorter than today's (an older VM)");
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtiEnv *e = new_env();
    thread_id_calls = 0;
    expect((*e)->SetEventNotificationMode(e, JVMTI_ENABLE, JVMTI_EVENT_THREAD_END, T),
           JVMTI_ERROR_NONE, "... events enable for a thread");
    expect(thread_id_calls, 0, "... the thread_id past its size was not called");
    jvmtirt_thread_end();
    (*e)->DisposeEnvironment(e);
    jvmtirt_shutdown();

    c.size = sizeof c;
    expect(jvmtirt_init(&c), JVMTI_ERROR_NONE, "the same config at full size");
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    e = new_env();
    thread_id_calls = 0;
    (*e)->SetEventNotificationMode(e, JVMTI_ENABLE, JVMTI_EVENT_THREAD_END, T);
    expect(thread_id_calls > 0, 1, "... now thread_id is called");
    jvmtirt_thread_end();
    (*e)->DisposeEnvironment(e);
    jvmtirt_shutdown();
}

/* ---- DisposeEnvironment ---- */

static jvmtiEnv *disposed_env;
static int disposed_calls;
static void on_env_disposed(jvmtiEnv *env)
{
    disposed_env = env;
    disposed_calls++;
}

static int vm_death_calls;
static void JNICALL on_vm_death(jvmtiEnv *env, JNIEnv *jni)
{
    (void)env, (void)jni;
    vm_death_calls++;
}

static void section_dispose(void)
{
    jvmtirt_config c = base_config();
    c.env_disposed = on_env_disposed;
    c.offer_defaults = 1;
    expect(jvmtirt_init(&c), JVMTI_ERROR_NONE, "dispose: init");
    jvmtiEnv *a = new_env();
    static int local;
    (*a)->SetEnvironmentLocalStorage(a, &local);
    jvmtiCapabilities want;
    memset(&want, 0, sizeof want);
    want.can_signal_thread = 1;
    (*a)->AddCapabilities(a, &want);
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMDeath = on_vm_death;
    (*a)->SetEventCallbacks(a, &cb, (jint)sizeof cb);
    (*a)->SetEventNotificationMode(a, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, NULL);
    expect((*a)->DisposeEnvironment(a), JVMTI_ERROR_NONE, "DisposeEnvironment");
    expect(disposed_calls, 1, "... tells the VM once (env_disposed)");
    expect(disposed_env == a, 1, "... with the environment");

    /* The OnLoad phase, no post under way: the environment was reclaimed
     * at once. A stale handle must not reach freed memory. */
    jvmtiPhase ph;
    expect((*a)->GetPhase(a, &ph), JVMTI_ERROR_INVALID_ENVIRONMENT,
           "a disposed environment's GetPhase: INVALID_ENVIRONMENT");
    void *data;
    expect((*a)->GetEnvironmentLocalStorage(a, &data), JVMTI_ERROR_INVALID_ENVIRONMENT,
           "... GetEnvironmentLocalStorage: INVALID_ENVIRONMENT");
    expect((*a)->DisposeEnvironment(a), JVMTI_ERROR_INVALID_ENVIRONMENT,
           "... DisposeEnvironment again: INVALID_ENVIRONMENT");
    expect(disposed_calls, 1, "... and the VM is not told twice");

    /* Create and dispose until a new environment lands where a was: it
     * starts empty. */
    jvmtiEnv *b = NULL;
    int reused_after = -1;
    for (int i = 0; i < 100 && reused_after < 0; i++) {
        jvmtiEnv *e = new_env();
        if (e == a) {
            b = e;
            reused_after = i;
        } else {
            (*e)->DisposeEnvironment(e);
        }
    }
    expect(reused_after >= RT_RESERVE_AT_LEAST, 1,
           "a disposed environment's address is reused only after the reserve went round");
    if (b) {
        expect((*b)->GetEnvironmentLocalStorage(b, &data), JVMTI_ERROR_NONE,
               "the new environment at the reused address works");
        expect(data == NULL, 1, "... its local storage is NULL, not the disposed one's");
        jvmtiCapabilities have;
        (*b)->GetCapabilities(b, &have);
        expect(have.can_signal_thread, 0, "... it has no capability of the disposed one");
        jvmtirt_set_phase(JVMTI_PHASE_LIVE);
        vm_death_calls = 0;
        (*b)->SetEventNotificationMode(b, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, NULL);
        jvmtirt_post_VMDeath(NULL);
        expect(vm_death_calls, 0, "... nor its callbacks");
        (*b)->DisposeEnvironment(b);
    }

    /* Any number of cycles, in bounded memory. */
    jvmtirt_stats st0, st;
    jvmtirt_get_stats(&st0);
    int stale_ok = 0;
    for (int i = 0; i < 100000; i++) {
        jvmtiEnv *e = new_env();
        (*e)->DisposeEnvironment(e);
        stale_ok += (*e)->GetPhase(e, &ph) == JVMTI_ERROR_INVALID_ENVIRONMENT;
    }
    jvmtirt_get_stats(&st);
    expect(stale_ok, 100000, "100,000 create/dispose cycles: each stale call INVALID_ENVIRONMENT");
    expect(st.env_slots <= st0.env_slots + 1, 1, "... with no more environment slots than before");
    expect(st.env_slots <= RT_RESERVE_AT_LEAST + 2, 1, "... a few dozen at most");
    jvmtirt_shutdown();
}

/* ---- jvmtirt_resolve_thread ---- */

static char not_a_thread, ended_thread, other_thread;
static jvmtiError vm_check_thread(jvmtiEnv *env, jthread t)
{
    (void)env;
    if (t == (jthread)(void *)&not_a_thread)
        return JVMTI_ERROR_INVALID_THREAD;
    return JVMTI_ERROR_NONE; /* a VM that cannot tell liveness: the registry does */
}

static void section_resolve_thread(void)
{
    jvmtirt_config c = base_config();
    c.check_thread = vm_check_thread;
    expect(jvmtirt_init(&c), JVMTI_ERROR_NONE, "resolve: init");
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtiEnv *e = new_env(); /* the calling thread is T */
    uintptr_t id = 0;
    expect(jvmtirt_resolve_thread(e, NULL, 1, &id), JVMTI_ERROR_NONE,
           "resolve_thread(NULL, null is current)");
    expect(id == (uintptr_t)T, 1, "... is the calling thread's id");
    expect(jvmtirt_resolve_thread(e, NULL, 0, &id), JVMTI_ERROR_INVALID_THREAD,
           "resolve_thread(NULL) where NULL is no thread: INVALID_THREAD");
    id = 0;
    expect(jvmtirt_resolve_thread(e, T, 0, &id), JVMTI_ERROR_NONE, "resolve_thread(a live thread)");
    expect(id == (uintptr_t)T, 1, "... its id");
    expect(jvmtirt_resolve_thread(e, (jthread)(void *)&not_a_thread, 1, &id),
           JVMTI_ERROR_INVALID_THREAD, "resolve_thread(not a thread): the VM's INVALID_THREAD");
    expect(jvmtirt_resolve_thread(e, (jthread)(void *)&other_thread, 1, &id),
           JVMTI_ERROR_THREAD_NOT_ALIVE, "resolve_thread(a thread never started): THREAD_NOT_ALIVE");
    jvmtirt_thread_end();
    jvmtirt_thread_start((uintptr_t)(void *)&ended_thread, JVMTIRT_JAVA_THREAD);
    jvmtirt_thread_end();
    expect(jvmtirt_resolve_thread(e, (jthread)(void *)&ended_thread, 1, &id),
           JVMTI_ERROR_THREAD_NOT_ALIVE, "resolve_thread(a thread that ended): THREAD_NOT_ALIVE");
    expect(jvmtirt_resolve_thread(e, NULL, 1, &id), JVMTI_ERROR_UNATTACHED_THREAD,
           "resolve_thread(NULL) on a thread the VM does not know: UNATTACHED_THREAD");
    (*e)->DisposeEnvironment(e);
    jvmtirt_shutdown();
}

/* ---- the port checks itself (issue 32, point 4) ---- */

/* Calls before jvmtirt_init, after jvmtirt_shutdown, and a second init:
 * each refused with a line naming the call (all were accepted before). */
static void section_order(void)
{
    char text[2048];
    void *p = &p;
    if (!capture_begin())
        return;
    jint got = jvmtirt_get_env(&p, JVMTI_VERSION);
    jvmtiError defined = jvmtirt_property_define("x.before", "1", 1);
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtirt_thread_start((uintptr_t)T, JVMTIRT_JAVA_THREAD);
    capture_end(text, sizeof text);
    expect(got, JNI_ERR, "jvmtirt_get_env before jvmtirt_init: JNI_ERR");
    expect(p == NULL, 1, "... and no environment");
    expect(strstr(text, "jvmtirt: error: jvmtirt_get_env called before jvmtirt_init") != NULL, 1,
           "... saying so on stderr");
    expect(defined, JVMTI_ERROR_WRONG_PHASE, "jvmtirt_property_define before init: WRONG_PHASE");
    expect(strstr(text, "jvmtirt_set_phase called before jvmtirt_init") != NULL, 1,
           "jvmtirt_set_phase before init is refused, saying so");
    expect(strstr(text, "jvmtirt_thread_start called before jvmtirt_init") != NULL, 1,
           "jvmtirt_thread_start before init is refused, saying so");
    jvmtirt_stats st;
    jvmtirt_get_stats(&st);
    expect(st.threads, 0, "... and no thread was registered");

    jvmtirt_config c = base_config();
    expect(jvmtirt_init(&c), JVMTI_ERROR_NONE, "then init");
    jvmtiPhase ph = 0;
    jvmtiEnv *e = new_env();
    expect(e != NULL, 1, "... environments come");
    if (e)
        (*e)->GetPhase(e, &ph);
    expect(ph, JVMTI_PHASE_ONLOAD, "... in the OnLoad phase (the early set_phase changed nothing)");
    if (!capture_begin())
        return;
    jvmtiError again = jvmtirt_init(&c);
    capture_end(text, sizeof text);
    expect(again, JVMTI_ERROR_WRONG_PHASE, "a second jvmtirt_init: WRONG_PHASE");
    expect(strstr(text, "jvmtirt: error: jvmtirt_init called a second time") != NULL, 1,
           "... saying so on stderr");
    expect(e && (*e)->GetPhase(e, &ph) == JVMTI_ERROR_NONE, 1,
           "... and the environment of the first still works");
    jvmtirt_thread_end();
    jvmtirt_shutdown();
    if (!capture_begin())
        return;
    p = &p;
    got = jvmtirt_get_env(&p, JVMTI_VERSION);
    capture_end(text, sizeof text);
    expect(got, JNI_ERR, "jvmtirt_get_env after jvmtirt_shutdown: JNI_ERR");
    expect(jvmtirt_init(&c), JVMTI_ERROR_NONE, "init after shutdown is accepted");
    jvmtirt_shutdown();
}

/* can_suspend without suspend_thread/resume_thread: offered, added, then
 * every suspend function answered NOT_AVAILABLE, and the report said
 * nothing. */
static jvmtiError vm_suspend(uintptr_t id, int is_current)
{
    (void)id, (void)is_current;
    return JVMTI_ERROR_NONE;
}
static jvmtiError vm_resume(uintptr_t id)
{
    (void)id;
    return JVMTI_ERROR_NONE;
}

static void section_suspend_ops(void)
{
    jvmtirt_config c = base_config();
    c.potential.can_suspend = 1;
    expect(jvmtirt_init(&c), JVMTI_ERROR_NONE, "suspend: init with can_suspend and no operations");
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtiEnv *e = new_env();
    expect(potential_of(e).can_suspend, 0, "... can_suspend is not offered");
    jvmtiCapabilities want;
    memset(&want, 0, sizeof want);
    want.can_suspend = 1;
    expect((*e)->AddCapabilities(e, &want), JVMTI_ERROR_NOT_AVAILABLE,
           "... AddCapabilities(can_suspend) is refused");
    expect(reported("capability can_suspend withdrawn"), 1, "... the report says it is withdrawn");
    expect(reported("config.suspend_thread, config.resume_thread"), 1,
           "... naming the operations left NULL");
    (*e)->DisposeEnvironment(e);
    jvmtirt_thread_end();
    jvmtirt_shutdown();

    c.suspend_thread = vm_suspend; /* one of the two is not enough */
    expect(jvmtirt_init(&c), JVMTI_ERROR_NONE, "suspend: init with suspend_thread only");
    e = new_env();
    expect(potential_of(e).can_suspend, 0, "... can_suspend is still not offered");
    expect(reported("config.resume_thread, left NULL"), 1, "... the report names resume_thread");
    (*e)->DisposeEnvironment(e);
    jvmtirt_thread_end();
    jvmtirt_shutdown();

    c.resume_thread = vm_resume;
    expect(jvmtirt_init(&c), JVMTI_ERROR_NONE, "suspend: init with both operations");
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    e = new_env();
    expect(potential_of(e).can_suspend, 1, "... can_suspend is offered");
    expect((*e)->AddCapabilities(e, &want), JVMTI_ERROR_NONE, "... and added");
    expect(reported("can_suspend"), 0, "... the report is silent about it");
    (*e)->DisposeEnvironment(e);
    jvmtirt_thread_end();
    jvmtirt_shutdown();
}

/* Identity: a VM whose thread objects are not its thread ids, and whose
 * objects are handles. */
static char thread_objects[4], objects[4], handles[4];
#define THREAD_ID(i) ((uintptr_t)(i) + 0x1000)
static jthread vm_thread_ref(uintptr_t id)
{
    return id >= THREAD_ID(0) && id < THREAD_ID(4) ? (jthread)(void *)&thread_objects[id - THREAD_ID(0)]
                                                   : NULL;
}
static uintptr_t vm_thread_id(jthread t)
{
    char *p = (char *)(void *)t;
    return p >= thread_objects && p < thread_objects + 4 ? THREAD_ID(p - thread_objects) : 0;
}
static uintptr_t vm_thread_id_wrong(jthread t) { return vm_thread_id(t) + 1; }
/* An object's identity: its index + 1; a reference: one of the handles. */
static uintptr_t vm_object_id(jobject o)
{
    char *p = (char *)(void *)o;
    return p >= handles && p < handles + 4 ? (uintptr_t)(p - handles) + 1 : 0;
}
static jobject vm_object_ref(uintptr_t id)
{
    return id >= 1 && id <= 4 ? (jobject)(void *)&handles[id - 1] : NULL;
}
static jobject vm_object_ref_wrong(uintptr_t id)
{
    return id >= 1 && id <= 4 ? (jobject)(void *)&objects[id - 1] : NULL;
}

static uintptr_t walked_id;
static jvmtiError vm_walk(const uintptr_t *ids, jint n, jint *states,
                          int (*visit)(void *, jint, jmethodID, jlocation), void *arg)
{
    (void)visit, (void)arg;
    for (jint i = 0; i < n; i++) {
        walked_id = ids[i];
        states[i] = ids[i] == THREAD_ID(1) ? JVMTI_THREAD_STATE_ALIVE : 0;
    }
    return JVMTI_ERROR_NONE;
}

/* init with c, stderr in text: its result; a core set up is shut down. */
static jvmtiError init_captured(const jvmtirt_config *c, char *text, size_t n)
{
    jvmtiError err = init_captured_keep(c, text, n);
    if (err == JVMTI_ERROR_NONE)
        jvmtirt_shutdown();
    return err;
}

static void section_identity(void)
{
    char text[2048];
    jvmtirt_config c = base_config();
    c.thread_ref = vm_thread_ref;
    c.sample_thread = THREAD_ID(1);
    expect(init_captured(&c, text, sizeof text), JVMTI_ERROR_ILLEGAL_ARGUMENT,
           "identity: thread_ref set, thread_id NULL, the sample's object is not its id: refused");
    expect(strstr(text, "jvmtirt: error: jvmtirt_init: config.thread_id is NULL") != NULL, 1,
           "... naming config.thread_id");
    expect(strchr(text, '\n') == strrchr(text, '\n'), 1, "... in one line");
    c.thread_id = vm_thread_id_wrong;
    expect(init_captured(&c, text, sizeof text), JVMTI_ERROR_ILLEGAL_ARGUMENT,
           "identity: thread_id(thread_ref(id)) != id: refused");
    expect(strstr(text, "config.thread_id(config.thread_ref(0x1001)) is 0x1002") != NULL, 1,
           "... saying what each gave");
    c.thread_id = vm_thread_id;
    c.sample_thread = THREAD_ID(9);
    expect(init_captured(&c, text, sizeof text), JVMTI_ERROR_ILLEGAL_ARGUMENT,
           "identity: thread_ref(sample_thread) NULL: refused");
    expect(strstr(text, "config.thread_ref(0x1009)") != NULL, 1, "... naming thread_ref");
    c.sample_thread = THREAD_ID(1);
    expect(init_captured(&c, text, sizeof text), JVMTI_ERROR_NONE,
           "identity: thread_id and thread_ref agree: accepted");

    c.sample_object = (jobject)(void *)&handles[2];
    c.object_id = vm_object_id; /* object_ref NULL: identities would be taken as references */
    expect(init_captured(&c, text, sizeof text), JVMTI_ERROR_ILLEGAL_ARGUMENT,
           "identity: object_id without object_ref: refused");
    expect(strstr(text, "config.object_ref is NULL") != NULL, 1, "... naming config.object_ref");
    c.object_ref = vm_object_ref_wrong;
    expect(init_captured(&c, text, sizeof text), JVMTI_ERROR_ILLEGAL_ARGUMENT,
           "identity: object_id(object_ref(id)) != id: refused");
    expect(strstr(text, "config.object_id(config.object_ref(0x3)) is 0x0") != NULL, 1,
           "... saying what each gave");
    c.object_id = NULL;
    c.object_ref = vm_object_ref;
    c.sample_object = (jobject)(void *)3; /* the identity is the reference */
    expect(init_captured(&c, text, sizeof text), JVMTI_ERROR_ILLEGAL_ARGUMENT,
           "identity: object_ref without object_id: refused");
    expect(strstr(text, "config.object_id is NULL") != NULL, 1, "... naming config.object_id");
    c.object_id = vm_object_id;
    c.sample_object = (jobject)(void *)&handles[2];
    expect(init_captured(&c, text, sizeof text), JVMTI_ERROR_NONE,
           "identity: object_id and object_ref agree: accepted");
    c.sample_object = (jobject)(void *)&objects[0];
    expect(init_captured(&c, text, sizeof text), JVMTI_ERROR_ILLEGAL_ARGUMENT,
           "identity: object_id(sample_object) 0: refused");

    /* Without samples a half-given pair is reported. */
    c = base_config();
    c.thread_ref = vm_thread_ref;
    c.object_id = vm_object_id;
    expect(jvmtirt_init(&c), JVMTI_ERROR_NONE, "identity: no samples: init");
    expect(reported("identity: config.thread_id is NULL while config.thread_ref is set"), 1,
           "... the report names the unverified thread_id");
    expect(reported("identity: config.object_ref is NULL while config.object_id is set"), 1,
           "... and the unverified object_ref");
    jvmtirt_shutdown();
    c.thread_id = vm_thread_id;
    c.object_ref = vm_object_ref;
    expect(jvmtirt_init(&c), JVMTI_ERROR_NONE, "identity: both pairs given: init");
    expect(reported("identity:"), 0, "... the report says nothing of identity");
    jvmtirt_shutdown();

    /* GetAllStackTraces hands the walk the ids the VM registered, not ones
     * read back through a thread_id that disagrees (the VM's walk waited
     * for a thread it never had). */
    c = base_config();
    c.thread_ref = vm_thread_ref;
    c.thread_id = vm_thread_id_wrong;
    c.walk_stacks = vm_walk;
    expect(jvmtirt_init(&c), JVMTI_ERROR_NONE, "GetAllStackTraces: init (no sample)");
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtirt_thread_start(THREAD_ID(1), JVMTIRT_JAVA_THREAD);
    jvmtiEnv *e = NULL;
    jvmtirt_get_env((void **)&e, JVMTI_VERSION);
    jvmtiStackInfo *info = NULL;
    jint n = 0;
    walked_id = 0;
    expect((*e)->GetAllStackTraces(e, 4, &info, &n), JVMTI_ERROR_NONE, "GetAllStackTraces");
    expect(n, 1, "... one thread");
    expect((long)walked_id, (long)THREAD_ID(1), "... walked by the id it was registered with");
    expect(n == 1 && info[0].thread == vm_thread_ref(THREAD_ID(1)), 1, "... and its thread object");
    (*e)->Deallocate(e, (unsigned char *)info);
    (*e)->DisposeEnvironment(e);
    jvmtirt_thread_end();
    jvmtirt_shutdown();
}

/* VMInit posted before the live phase: dropped, and (before) in silence. */
static int vm_init_calls;
static void JNICALL on_vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)env, (void)jni, (void)thread;
    vm_init_calls++;
}

static void section_vm_init_phase(void)
{
    jvmtirt_config c = base_config();
    expect(jvmtirt_init(&c), JVMTI_ERROR_NONE, "VMInit: init");
    jvmtiEnv *e = new_env();
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMInit = on_vm_init;
    (*e)->SetEventCallbacks(e, &cb, (jint)sizeof cb);
    (*e)->SetEventNotificationMode(e, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL);
    jvmtirt_set_phase(JVMTI_PHASE_START);
    char text[1024];
    if (!capture_begin())
        return;
    jvmtirt_post_VMInit(NULL, T);
    jvmtirt_post_VMInit(NULL, T);
    capture_end(text, sizeof text);
    expect(vm_init_calls, 0, "VMInit posted in the start phase is not sent");
    expect(strstr(text, "jvmtirt: error: jvmtirt_post_VMInit in the start phase: VMInit is sent "
                        "only in the live phase") != NULL,
           1, "... and the VM is told so on stderr");
    expect(strchr(text, '\n') == strrchr(text, '\n'), 1, "... once");
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtirt_post_VMInit(NULL, T);
    expect(vm_init_calls, 1, "in the live phase it is sent");
    (*e)->DisposeEnvironment(e);
    jvmtirt_thread_end();
    jvmtirt_shutdown();
}

int main(void)
{
    section_order();
    section_by_name();
    section_unregistered();
    section_registered();
    section_shadowed();
    section_config_versions();
    section_dispose();
    section_resolve_thread();
    section_suspend_ops();
    section_identity();
    section_vm_init_phase();
    return failures ? 1 : 0;
}
