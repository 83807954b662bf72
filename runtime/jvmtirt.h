/* jvmtirt.h: the runtime core's interface to the VM that embeds it.
 *
 * libjvmtirt is the VM-neutral half of a JVM TI implementation:
 * environments, capabilities, event callbacks and enabling, raw monitors,
 * memory, environment-local storage, phases, timers, system properties and
 * extension registries, linked with the generated function table and
 * trampolines. The VM:
 *
 *   1. calls jvmtirt_init() once, before any agent is loaded, with what it
 *      can do (its potential capabilities, its hooks);
 *   2. answers JavaVM->GetEnv for JVMTI versions with jvmtirt_get_env();
 *   3. moves the phase on with jvmtirt_set_phase();
 *   4. registers each thread as it starts and ends (jvmtirt_thread_start /
 *      jvmtirt_thread_end, on that thread);
 *   5. sends events with the generated jvmtigen_post_NAME() functions
 *      (out/jvmtigen_post.h);
 *   6. defines the jvmti_impl_ functions that need VM knowledge (start
 *      their file with `jvmtigen fill --core`); the ones it leaves out
 *      return JVMTI_ERROR_NOT_AVAILABLE.
 *
 * Thread safety: every function here and every JVM TI function the core
 * implements may be called from any thread at any time, except
 * jvmtirt_init and jvmtirt_shutdown. */
#ifndef JVMTIRT_H
#define JVMTIRT_H

#include <stddef.h>
#include <stdint.h>

#include "jvmti.h"
#include "jvmtigen_hooks.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct jvmtirt_config {
    /* Capabilities the VM can ever give an environment. */
    jvmtiCapabilities potential;
    /* Those of `potential` that can only be added in the OnLoad phase. One
     * that some environment added during OnLoad stays potential afterwards,
     * for every environment (as in HotSpot: the VM started with it). */
    jvmtiCapabilities onload_only;
    /* Those of `potential` that at most one environment may hold at a time. */
    jvmtiCapabilities solo;
    /* What GetJLocationFormat reports (0 means JVMTI_JLOCATION_JVMBCI). */
    jvmtiJlocationFormat jlocation_format;
    /* The identity of a thread object (a jthread that passed the
     * check_thread hook): the id the VM passed to jvmtirt_thread_start for
     * that thread. Used to enable events for one thread. NULL: the jthread's
     * own value is the id (for VMs whose thread references are stable). */
    uintptr_t (*thread_id)(jthread thread);
    /* SetVerboseFlag, after the flag was checked. NULL: accepted, ignored. */
    jvmtiError (*set_verbose)(jvmtiVerboseFlag flag, jboolean value);
    /* GenerateEvents for a supported event type. NULL: nothing to generate. */
    jvmtiError (*generate_events)(jvmtiEnv *env, jvmtiEvent event_type);
    /* Called after an environment's callbacks or enabled events change, so
     * a VM can switch expensive event sources on or off (e.g. single
     * stepping) by asking jvmtirt_event_enabled(). May be NULL. */
    void (*events_changed)(void);

    /* ---- objects ---- */
    /* The identity of an object: a number, never 0, that stays the same
     * for the object's whole life, whatever reference names it, and that
     * no other object has while it lives (the tag map's key). 0 for a
     * reference that is no object (SetTag/GetTag answer INVALID_OBJECT).
     * Called on the thread of the JVM TI call (SetTag, GetTag), with no
     * lock of the core held; must not call JVM TI. NULL: the reference's
     * own value is the identity (for VMs whose references are stable
     * pointers to their objects). */
    uintptr_t (*object_id)(jobject object);
    /* A local reference, for the calling thread, to the live object with
     * that identity: what GetObjectsWithTags returns. Called on the thread
     * of that call, with no lock of the core held, once per object found;
     * must not call JVM TI. The VM must not free the object between its
     * GC notification and this call (see jvmtirt_objects_freed). NULL: the
     * identity is the reference. */
    jobject (*object_ref)(uintptr_t id);
    /* The CPU time, in nanoseconds, the thread with that id (see
     * thread_id) has used: GetThreadCpuTime for a thread other than the
     * caller. Called on the caller's thread, with no lock of the core
     * held, after the core found the thread started and not ended (it may
     * end meanwhile: answer JVMTI_ERROR_THREAD_NOT_ALIVE). Must not call
     * JVM TI. NULL: the core reads the CPU clock of the OS thread that
     * called jvmtirt_thread_start for that id (right for VMs that run each
     * Java thread on its own OS thread). */
    jvmtiError (*thread_cpu_time)(uintptr_t thread_id, jlong *nanos);
    /* Whether the thread with that id is a virtual thread: GetThreadCpuTime
     * answers UNSUPPORTED_OPERATION for one, SuspendAllVirtualThreads and
     * ResumeAllVirtualThreads act on them. Called under rt.lock (the
     * core's own lock): must not call JVM TI or jvmtirt_ functions, nor
     * take a lock the VM holds while calling them. NULL: no thread is. */
    int (*thread_is_virtual)(uintptr_t thread_id);
    /* Suspends the thread with that id (SuspendThread and its list and
     * virtual-thread forms): it stops at its next safe point and stays
     * stopped until resume_thread(id). For another thread, returns once it
     * is stopped, or cannot run Java code again before it is resumed (a
     * thread in native code, in JVM TI or blocked counts as stopped: never
     * wait for one). For the calling thread (is_current), only records the
     * suspension and returns: the core then blocks the caller inside the
     * JVM TI call until another thread resumes it. The core calls it only
     * for a started thread it has not suspended, under rt.lock (which
     * serializes every suspend and resume): it must not call JVM TI or
     * jvmtirt_ functions, nor take a lock the VM holds while calling them.
     * Returns JVMTI_ERROR_NONE, or an error for the agent (e.g.
     * THREAD_NOT_ALIVE for a thread that is ending). NULL (or no
     * resume_thread): the suspend functions answer NOT_AVAILABLE. */
    jvmtiError (*suspend_thread)(uintptr_t thread_id, int is_current);
    /* Lets a thread suspended by suspend_thread run again. Same thread and
     * lock rules; JVMTI_ERROR_NONE, or an error for the agent (e.g.
     * INVALID_TYPESTATE). */
    jvmtiError (*resume_thread)(uintptr_t thread_id);
} jvmtirt_config;

/* Sets up the core: the phase becomes OnLoad. Copies the config. Also reads
 * JVMTI_TRACE / JVMTI_TRACE_FILE (see jvmtigen_trace.h): when JVMTI_TRACE
 * is set, environments get the tracing function table. */
void jvmtirt_init(const jvmtirt_config *config);
/* Frees every environment, monitor, thread record and property (after the
 * VM is dead and no agent code runs). */
void jvmtirt_shutdown(void);

/* ---- environments ---- */

/* For JavaVM->GetEnv when the requested version is a JVM TI one
 * (interface type JVMTI_VERSION_INTERFACE_JVMTI): JNI_OK and a new
 * environment in *penv, or JNI_EVERSION (and *penv = NULL) for a version
 * this JVM TI does not support. */
jint jvmtirt_get_env(void **penv, jint version);
/* Whether version names a JVM TI version this runtime supports. */
int jvmtirt_version_supported(jint version);
/* The version the environment was created for. */
jint jvmtirt_env_version(jvmtiEnv *env);

/* ---- phases ---- */
void jvmtirt_set_phase(jvmtiPhase phase);

/* ---- threads ----
 * Called on the thread itself. id: the VM's identity of the thread (see
 * config.thread_id); kind: JVMTIGEN_JAVA_THREAD or JVMTIGEN_VM_THREAD.
 * The first call also tells the trampolines that the VM now has threads. */
void jvmtirt_thread_start(uintptr_t id, jvmtigen_thread_kind kind);
/* Drops the thread's per-thread event settings; it becomes unattached. */
void jvmtirt_thread_end(void);
/* The VM's id of the calling thread, or 0 if it never started. */
uintptr_t jvmtirt_current_thread_id(void);
/* Interrupts the thread with that id: a RawMonitorWait it is in (or starts
 * next) returns JVMTI_ERROR_INTERRUPTED. Returns 0 if no such thread. */
int jvmtirt_thread_interrupt(uintptr_t id);

/* ---- events ---- */

/* Whether any environment has enabled the event (globally or for some
 * thread) and set a callback for it: what the posting functions test. */
int jvmtirt_event_enabled(jvmtiEvent event);
/* Whether the event is enabled for the given thread (id) in any
 * environment that has a callback: for VM sources that are per thread. */
int jvmtirt_event_enabled_for_thread(jvmtiEvent event, uintptr_t thread_id);

/* ---- objects ----
 * The VM's garbage collector reports the identities (config.object_id) of
 * objects it frees, before an identity can be reused by a new object: the
 * core drops their tags and posts ObjectFree with the tag to each
 * environment that tagged one of them and enabled the event (only those).
 * Called on any thread, with no lock of the core held; ObjectFree callbacks
 * run on that thread before this returns, so the VM must not hold locks
 * that the JVM TI functions allowed in ObjectFree (raw monitors, memory,
 * environment-local storage) would need. While it runs, GetObjectsWithTags
 * may still return one of these objects: a VM that frees objects
 * concurrently with agents' calls does so at a safe point that excludes
 * them. */
void jvmtirt_objects_freed(const uintptr_t *ids, size_t n);

/* ---- system properties ----
 * The VM sets its properties before loading agents; agents may change the
 * writable ones during OnLoad; the VM reads them back afterwards. */
jvmtiError jvmtirt_property_define(const char *name, const char *value, int writable);
/* The value (owned by the core, valid until changed), or NULL. */
const char *jvmtirt_property_value(const char *name);

/* ---- extensions ----
 * Registered by the VM before agents load. The core copies the info. */
jvmtiError jvmtirt_extension_function_add(const jvmtiExtensionFunctionInfo *info);
jvmtiError jvmtirt_extension_event_add(const jvmtiExtensionEventInfo *info);
/* Calls fn for every environment with a callback for the extension event
 * (extension_event_index as registered), in creation order. Stops early
 * when fn returns non-zero. */
void jvmtirt_extension_event_each(jint extension_event_index,
                                  int (*fn)(jvmtiEnv *env, jvmtiExtensionEvent callback,
                                            void *arg),
                                  void *arg);

/* ---- statistics, for tests and leak checks ---- */
typedef struct jvmtirt_stats {
    long environments;      /* live (not disposed) */
    long pending_disposal;  /* disposed, memory not yet reclaimed */
    long raw_monitors;
    long threads;           /* started and not ended */
} jvmtirt_stats;
void jvmtirt_get_stats(jvmtirt_stats *out);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* JVMTIRT_H */
