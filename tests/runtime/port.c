/* port.c: the VM port (jvmtirt_config, registered implementations), built
 * as a tiny VM would be: with -fvisibility=hidden, linked with the static
 * and with the shared library (test.sh builds it three ways: static hidden,
 * shared hidden, shared with default visibility; -DPORT_SHARED_HIDDEN=1
 * says which build cannot have its jvmti_impl_ definition seen by the
 * library). Expected values are written by hand. */
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

/* The VM's own function, hidden when built with -fvisibility=hidden (one
 * that stays the VM's: the collector). It counts its calls and answers a
 * code of its own, so a test sees its answer come back. */
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

/* A config with the capabilities this test offers. */
static jvmtirt_config base_config(void)
{
    jvmtirt_config c = JVMTIRT_CONFIG_INIT;
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

static void section_unregistered(void)
{
    jvmtirt_config c = base_config();
    expect(jvmtirt_init(&c), JVMTI_ERROR_NONE, "init without registered functions");
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtiEnv *e = new_env();
    gc_calls = 0;
    jvmtiError err = (*e)->ForceGarbageCollection(e);
    int slot = slot_of("ForceGarbageCollection");
    if (PORT_SHARED_HIDDEN) {
        /* The case of the issue: the library cannot see the VM's hidden
         * definition. It answers NOT_AVAILABLE, but now says so. */
        expect(err, JVMTI_ERROR_NOT_AVAILABLE,
               "hidden, shared, unregistered: ForceGarbageCollection is at its default");
        expect(jvmtigen_impl_supplied(slot), 0, "... jvmtigen_impl_supplied says so");
        expect(reported("function ForceGarbageCollection answers"), 1,
               "... and jvmtirt_report_defaults names it");
    } else {
        expect(err, JVMTI_ERROR_INTERRUPT, "unregistered: the VM's visible definition is called");
        expect(gc_calls, 1, "... once");
        expect(jvmtigen_impl_supplied(slot), 1, "... jvmtigen_impl_supplied counts it");
        expect(reported("function ForceGarbageCollection answers"), 0, "... the report does not name it");
    }
    expect(jvmtigen_impl_supplied(slot_of("GetPhase")), -1, "a core function has no default");
    expect(jvmtigen_impl_supplied(slot_of("GetTopThreadGroups")), 0, "GetTopThreadGroups is at its default");
    expect(reported("function GetTopThreadGroups answers"), 1, "the report names a missing mandatory function");
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

    /* A table from an older VM: members past its size are not used. */
    impls.size = offsetof(jvmtirt_impl_table, ForceGarbageCollection);
    expect(jvmtirt_init(&c), JVMTI_ERROR_NONE, "a registered table shorter than today's");
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    e = new_env();
    expect(PORT_SHARED_HIDDEN ? (*e)->ForceGarbageCollection(e) : JVMTI_ERROR_NOT_AVAILABLE,
           JVMTI_ERROR_NOT_AVAILABLE, "... a member past its size is not called");
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
    jvmtirt_config c = base_config();
    c.impls = &impls;
    fflush(stderr);
    FILE *log = tmpfile();
    int saved = dup(2);
    if (!log || saved < 0 || dup2(fileno(log), 2) < 0) {
        expect(0, 1, "stderr redirected");
        return;
    }
    jvmtiError err = jvmtirt_init(&c);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char text[1024] = "";
    rewind(log);
    size_t n = fread(text, 1, sizeof text - 1, log);
    text[n] = '\0';
    fclose(log);
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

int main(void)
{
    section_unregistered();
    section_registered();
    section_shadowed();
    section_config_versions();
    section_dispose();
    section_resolve_thread();
    return failures ? 1 : 0;
}
