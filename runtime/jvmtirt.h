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

    /* ---- frames: breakpoints, field watches, frame pops, JNI function
     * table, class-loader search (runtime/README.md, "Frames") ----
     * The core keeps which environment asked for what; the VM does only the
     * primitive. The arming operations are called on the agent's thread
     * (inside the JVM TI call, or inside DisposeEnvironment), under a lock
     * of the core's that only these functions take: they must not call
     * SetBreakpoint, ClearBreakpoint, the field-watch functions,
     * NotifyFramePop, ClearAllFramePops or DisposeEnvironment (and, called
     * from DisposeEnvironment, also under the core's main lock: no jvmtirt_
     * function that takes it, such as properties or statistics). A NULL
     * operation makes the functions that need it answer
     * JVMTI_ERROR_NOT_AVAILABLE. */

    /* on = 1: the first environment sets a breakpoint at method/location:
     * check that location is an instruction of method (else return
     * JVMTI_ERROR_INVALID_LOCATION: nothing is recorded) and arm it. on = 0:
     * the last environment cleared it (ClearBreakpoint, DisposeEnvironment):
     * disarm it (the result is ignored). While armed, the VM calls
     * jvmtigen_post_Breakpoint before the instruction runs; the core
     * delivers it only to the environments that set that breakpoint. */
    jvmtiError (*breakpoint_arm)(jmethodID method, jlocation location, int on);
    /* The identity of a class, for field watches (a jclass is a reference
     * that may differ from call to call). Called on any thread, under no
     * lock or the frames lock. NULL: the jclass's own value is the id. */
    uintptr_t (*class_id)(jclass klass);
    /* on = 1: the first environment watches the field (of the class with
     * that id) for kind (JVMTI_EVENT_FIELD_ACCESS or
     * JVMTI_EVENT_FIELD_MODIFICATION); on = 0: the last one stopped. While
     * armed, the VM calls jvmtigen_post_FieldAccess / _FieldModification;
     * the core delivers each only to the environments watching the field. */
    jvmtiError (*field_watch_arm)(uintptr_t class_id, jfieldID field, jvmtiEvent kind, int on);
    /* NotifyFramePop: the frame at depth (0: the top) of the thread with
     * that id (the calling thread, or one that thread_suspended says is
     * suspended). Stores in *frame a key unique among that thread's frames
     * while this one is on the stack (its height above the bottom of the
     * stack will do). Errors: JVMTI_ERROR_NO_MORE_FRAMES (no frame at that
     * depth), JVMTI_ERROR_OPAQUE_FRAME (a native method's frame). Under the
     * frames lock. */
    jvmtiError (*frame_at)(uintptr_t thread_id, jint depth, uintptr_t *frame);
    /* on = 1: the first environment asked for the frame's pop; on = 0: the
     * last request was cleared (ClearAllFramePops, DisposeEnvironment). When
     * an armed frame pops (normally or by an exception) the VM calls
     * jvmtirt_frame_popped on that thread; no disarm follows that. */
    void (*frame_pop_arm)(uintptr_t thread_id, uintptr_t frame, int on);
    /* Whether the thread with that id (not the calling thread) is
     * suspended: NotifyFramePop and ClearAllFramePops on another thread need
     * it (JVMTI_ERROR_THREAD_NOT_SUSPENDED otherwise). NULL: no thread is. */
    int (*thread_suspended)(uintptr_t thread_id);
    /* The JNI function table JNIEnvs use now (GetJNIFunctionTable copies
     * it). Called on the agent's thread, under no lock. */
    const struct JNINativeInterface_ *(*jni_table)(void);
    /* SetJNIFunctionTable: from now on every JNIEnv, present and future,
     * must use table (the core's copy; it stays valid until the next call
     * or jvmtirt_shutdown). Called under the core's JNI-table lock: it may
     * not call Get/SetJNIFunctionTable. */
    void (*jni_table_changed)(const struct JNINativeInterface_ *table);
    /* AddToBootstrapClassLoaderSearch (system = 0) and
     * AddToSystemClassLoaderSearch (system = 1): append segment to that
     * loader's search path. phase: JVMTI_PHASE_ONLOAD (any path: the core
     * checked nothing) or JVMTI_PHASE_LIVE (the core checked that segment
     * names an existing JAR file). Errors it may return:
     * JVMTI_ERROR_ILLEGAL_ARGUMENT (a segment the VM cannot use),
     * JVMTI_ERROR_CLASS_LOADER_UNSUPPORTED (system = 1, live phase: the
     * system class loader cannot append). On the agent's thread, no lock. */
    jvmtiError (*class_path_append)(int system, const char *segment, jvmtiPhase phase);
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
/* Drops the thread's per-thread event settings and frame-pop requests; it
 * becomes unattached. */
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

/* ---- frames ---- */

/* On the thread whose frame (armed through config.frame_pop_arm) pops:
 * posts FramePop to the environments that asked for that frame (and still
 * have the event enabled), then forgets their requests. thread: that
 * thread's jthread; frame: the key config.frame_at gave. */
void jvmtirt_frame_popped(JNIEnv *jni, jthread thread, jmethodID method,
                          jboolean was_popped_by_exception, uintptr_t frame);
/* The native method prefixes, in the order a VM applies them when it
 * resolves a native method (runtime/README.md, "Native method prefixes"):
 * environments that cannot retransform classes first, then those that can,
 * creation order within each; each environment's prefixes in the order it
 * gave them. One malloc'd block (free() it once); *count gets how many;
 * NULL with *count = 0 when there are none (or out of memory). */
char **jvmtirt_native_method_prefixes(jint *count);

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
