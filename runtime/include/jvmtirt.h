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
 *   5. sends events with the generated jvmtirt_post_NAME() functions
 *      (out/jvmtigen_post.h), and loads classes from class files with
 *      jvmtirt_class_file_load / jvmtirt_class_defined (ClassFileLoadHook,
 *      and what RetransformClasses starts from);
 *   6. defines the functions that need VM knowledge (start their file
 *      with `jvmtigen fill --core`) and registers them in config.impls,
 *      the only way they are called; the ones it leaves out return
 *      JVMTI_ERROR_NOT_AVAILABLE (jvmtirt_report_defaults lists them).
 *
 * Thread safety: every function here and every JVM TI function the core
 * implements may be called from any thread at any time, except
 * jvmtirt_init and jvmtirt_shutdown. */
#ifndef JVMTIRT_H
#define JVMTIRT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "jvmti.h"
#include "jvmtigen_hooks.h"
#include "jvmtigen_impl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- heap walks: what the VM's enumerations hand the core ----
 * Objects are named by their identity (as config.object_id gives it, or the
 * reference's value when that operation is NULL): the same key as the tag
 * map's, so the core reads and writes tags without a reference. */

/* One reference: from a root (heap_roots) or from an object
 * (heap_references). */
typedef struct jvmtirt_heap_ref {
    jvmtiHeapReferenceKind kind; /* JVMTI_HEAP_REFERENCE_* */
    uintptr_t referee;           /* the identity of the object referred to */
    /* As the spec defines it for `kind`: field.index for FIELD and
     * STATIC_FIELD, array.index for ARRAY_ELEMENT, constant_pool.index for
     * CONSTANT_POOL, stack_local / jni_local (thread_id, depth, method,
     * location, slot) for STACK_LOCAL / JNI_LOCAL; the core fills
     * thread_tag itself from `thread`. Ignored for other kinds. */
    jvmtiHeapReferenceInfo info;
    uintptr_t thread;            /* STACK_LOCAL, JNI_LOCAL: the identity of the thread object */
} jvmtirt_heap_ref;

/* What the core needs of one object (heap_object_info). */
typedef struct jvmtirt_heap_object {
    uintptr_t klass;   /* the identity of its class (a class object) */
    jlong size;        /* in bytes, as GetObjectSize would say */
    jint length;       /* arrays: the element count; -1 otherwise */
    /* Primitive arrays: the element type (JVMTI_PRIMITIVE_TYPE_*) and the
     * elements, valid until heap_pause(0); 0 and NULL otherwise. */
    jvmtiPrimitiveType array_type;
    const void *elements;
    /* java.lang.String: its UTF-16 value, valid until heap_pause(0), and
     * its length; NULL and 0 otherwise. */
    const jchar *chars;
    jint chars_length;
    uintptr_t superclass; /* class objects: the identity of the superclass, 0 if none */
} jvmtirt_heap_object;

/* Called by the VM's enumerations once per item; non-zero asks the VM to
 * stop enumerating (the walk is over: return at once). */
typedef int (*jvmtirt_heap_ref_fn)(void *ctx, const jvmtirt_heap_ref *ref);
typedef int (*jvmtirt_heap_object_fn)(void *ctx, uintptr_t object);
/* One primitive field: kind JVMTI_HEAP_REFERENCE_FIELD (an instance's) or
 * JVMTI_HEAP_REFERENCE_STATIC_FIELD (a class object's own statics), the
 * field's index as the spec defines it, its type and value. */
typedef int (*jvmtirt_heap_field_fn)(void *ctx, jvmtiHeapReferenceKind kind, jint index,
                                     jvmtiPrimitiveType type, jvalue value);

/* ---- threads, classes and objects ---- */

/* What thread_info hands the core: GetThreadInfo's fields. The core copies
 * name into memory the agent Deallocates. */
typedef struct jvmtirt_thread_info {
    const char *name;              /* modified UTF-8; NULL reads as "" */
    jint priority;
    jboolean is_daemon;
    jthreadGroup thread_group;     /* a local reference, NULL once the thread ended */
    jobject context_class_loader;  /* a local reference, or NULL */
} jvmtirt_thread_info;

/* What class_info hands the core, from which it answers six functions. */
typedef struct jvmtirt_class_info {
    /* The type signature, modified UTF-8: "Ljava/lang/String;", "[I", and
     * for a primitive class its one letter ("I", "V"): the core tells
     * array and primitive classes by it. */
    const char *signature;
    const char *generic;     /* the Signature attribute's value, or NULL */
    /* Its access flags as the class file has them (ACC_SUPER too; a member
     * class's from its InnerClasses entry), as HotSpot answers. */
    jint modifiers;
    /* JVMTI_CLASS_STATUS_VERIFIED, _PREPARED, _INITIALIZED, _ERROR bits;
     * ignored for array and primitive classes (the core answers ARRAY or
     * PRIMITIVE). */
    jint status;
    const char *source_file; /* the SourceFile attribute, or NULL: none */
} jvmtirt_class_info;

/* ---- retransformation and redefinition (config version 2) ---- */

/* class_modifiable's answers. */
enum {
    JVMTIRT_UNMODIFIABLE = 0,  /* never (primitive and array classes, the VM's own) */
    JVMTIRT_MODIFIABLE = 1,    /* by every environment */
    /* only by an environment with can_retransform_any_class (retransform)
     * or can_redefine_any_class (redefine) */
    JVMTIRT_MODIFIABLE_ANY = 2
};

/* What class_modifiable hands the core. */
typedef struct jvmtirt_class_origin {
    int modifiable;            /* JVMTIRT_UNMODIFIABLE, _MODIFIABLE or _MODIFIABLE_ANY */
    /* For the ClassFileLoadHook of a retransformation or redefinition: the
     * calling thread's JNIEnv, the class's loader (NULL: the bootstrap
     * loader) and protection domain (or NULL), local references. */
    JNIEnv *jni;
    jobject loader;
    jobject protection_domain;
} jvmtirt_class_origin;

/* ---- modules (config version 2) ---- */

/* What module_info hands the core about one module. */
typedef struct jvmtirt_module_info {
    jboolean named;       /* JNI_FALSE: an unnamed module (updates are no-ops) */
    jboolean open;        /* an open or automatic module (exports and opens are no-ops) */
    jboolean modifiable;  /* of a named module: IsModifiableModule's answer */
    jboolean has_package; /* the package asked about belongs to the module */
} jvmtirt_module_info;

/* module_update's kinds. */
enum {
    JVMTIRT_MODULE_READS = 1,
    JVMTIRT_MODULE_EXPORTS = 2,
    JVMTIRT_MODULE_OPENS = 3,
    JVMTIRT_MODULE_USES = 4,
    JVMTIRT_MODULE_PROVIDES = 5
};

/* What the core keeps of a class for its retransformations (opaque). */
typedef struct jvmtirt_class_file jvmtirt_class_file;
/* ---- thread groups (config version 2) ---- */

/* What thread_group_info hands the core: GetThreadGroupInfo's fields. The
 * core copies name into memory the agent Deallocates. */
typedef struct jvmtirt_thread_group_info {
    jthreadGroup parent; /* a local reference; NULL for a top-level group */
    const char *name;    /* modified UTF-8, valid until this thread's next call; NULL reads as "" */
    jint max_priority;
    jboolean is_daemon;
} jvmtirt_thread_group_info;
/* ---- locals and frames (config version 2) ---- */

/* The modes of config.frame_slot and config.frame_return. */
enum {
    JVMTIRT_FRAME_DESCRIBE = 0, /* fill in what the core checks */
    JVMTIRT_FRAME_READ = 1,     /* frame_slot: read the local */
    JVMTIRT_FRAME_WRITE = 2,    /* frame_slot: write the local */
    JVMTIRT_FRAME_POP = 3,      /* frame_return: PopFrame */
    JVMTIRT_FRAME_RETURN = 4    /* frame_return: ForceEarlyReturn */
};

/* One local of one frame (config.frame_slot). */
typedef struct jvmtirt_frame_slot {
    /* set by the core */
    jint depth;  /* 0: the top frame */
    jint slot;   /* the local's slot (0 for GetLocalInstance) */
    char type;   /* the kind asked for: 'I', 'J', 'F', 'D' or 'L' */
    jvalue value; /* WRITE: the value; READ: the VM stores it */
    /* set by the VM (DESCRIBE) */
    jmethodID method;    /* the frame's method */
    jlocation location;  /* where it is (-1 in a native method) */
    jboolean is_native;  /* OPAQUE_FRAME, but GetLocalInstance reads slot 0 */
    jboolean is_static;  /* GetLocalInstance: INVALID_SLOT */
    jint max_locals;     /* the frame's slots: 0 .. max_locals - 1 */
    /* What the slot holds now, by the VM's own bookkeeping: 'I' (int and
     * its narrower kinds), 'J' or 'D' (the first slot of the pair), 'F',
     * 'L' (a reference or null), or 0: unknown or unset (no check). Read
     * only when local_type gives no declared type. */
    char tag;
} jvmtirt_frame_slot;

/* The top frame of a thread (config.frame_return). */
typedef struct jvmtirt_frame_return {
    /* set by the core */
    char type;    /* RETURN: 'V', 'I', 'J', 'F', 'D' or 'L' */
    jvalue value; /* RETURN: the value (l: the agent's reference or NULL) */
    /* set by the VM (DESCRIBE) */
    jint frames;             /* frames on the stack: 0, 1, or 2 for two or more */
    jboolean top_native;     /* the top frame is a native method's */
    jboolean caller_native;  /* the frame under it is (frames == 2) */
    char result;             /* the top method's return type's first character */
} jvmtirt_frame_return;
/* ---- metadata (config version 2): a class's methods and fields, described once ---- */

/* One method of a class, as jvmtirt_class_describe takes it (what
 * jvmtirt_class_define reads from a class file). The core copies it all. */
typedef struct jvmtirt_method_desc {
    jmethodID id;          /* the VM's ID for this method; unique among methods */
    const char *name;      /* modified UTF-8: "<init>", "run" */
    const char *signature; /* "(I[Ljava/lang/String;)V" */
    const char *generic;   /* the Signature attribute, or NULL */
    jint modifiers;        /* access_flags (ACC_NATIVE, ACC_STATIC, ...) */
    jboolean synthetic;    /* a Synthetic attribute (ACC_SYNTHETIC counts too) */
    jint max_locals;       /* the Code attribute's; 0 without code */
    /* The bytecodes (code_length bytes), NULL for a method without code
     * (abstract, native): GetBytecodes answers none, GetMethodLocation
     * -1 and -1. */
    const unsigned char *code;
    jint code_length;
    /* The LineNumberTable, n_lines entries; n_lines < 0: none
     * (GetLineNumberTable answers ABSENT_INFORMATION). */
    const jvmtiLineNumberEntry *lines;
    jint n_lines;
    /* The LocalVariableTable (generic_signature from the
     * LocalVariableTypeTable, or NULL); n_locals < 0: none. */
    const jvmtiLocalVariableEntry *locals;
    jint n_locals;
} jvmtirt_method_desc;

/* One field of a class. */
typedef struct jvmtirt_field_desc {
    jfieldID id;           /* the VM's ID; unique among this class's fields */
    const char *name, *signature, *generic; /* generic: NULL for none */
    jint modifiers;        /* access_flags */
    jboolean synthetic;
} jvmtirt_field_desc;

/* What the core answers a class's metadata functions from: the VM fills
 * one for a class it has no class-file bytes for (jvmtirt_class_describe);
 * jvmtirt_class_define builds one from the bytes. */
typedef struct jvmtirt_class_desc {
    /* The class file's version; major_version 0: not known
     * (GetClassVersionNumbers answers ABSENT_INFORMATION). */
    jint minor_version, major_version;
    const char *source_file;            /* the SourceFile attribute, or NULL */
    /* The SourceDebugExtension attribute's bytes (modified UTF-8, NUL
     * ended), or NULL. */
    const char *source_debug_extension;
    const jvmtirt_method_desc *methods; /* in the class file's order */
    jint n_methods;
    const jvmtirt_field_desc *fields;   /* in the class file's order */
    jint n_fields;
    /* The constant pool as a class file lays it out (GetConstantPool):
     * constant_pool_count as the class file says it (entries + 1) and
     * constant_pool_bytes bytes; NULL: none (ABSENT_INFORMATION). The
     * indices in the methods' code must refer to it. */
    const unsigned char *constant_pool;
    jint constant_pool_count, constant_pool_bytes;
    /* The direct superinterfaces, internal names ("java/lang/Runnable")
     * in the class file's order (GetImplementedInterfaces, through
     * config.class_by_name). */
    const char *const *interfaces;
    jint n_interfaces;
} jvmtirt_class_desc;

/* The VM's operations and what it can do: one versioned struct, copied by
 * jvmtirt_init. `size` says how big the struct was when the VM was
 * compiled: a VM built against an older, smaller jvmtirt_config keeps
 * working with a newer core, which treats every field past `size` as 0 or
 * NULL (so new fields only ever go at the end). Start from
 * JVMTIRT_CONFIG_INIT. The comment above each operation is its contract:
 * when it is called, on which thread, under which lock, what it may call
 * back and what NULL means (runtime/README.md says what each area does with
 * its operations). Unless said otherwise an operation is called with no
 * lock of the core held and may call any jvmtirt_* function and any JVM TI
 * function.
 * References: a jthread, jclass, jobject or jthreadGroup an operation is
 * given is the agent's own argument (local or global) or one another
 * operation made in the same call, valid during the operation only: the VM
 * keeps the object, never the reference. A reference an operation makes is
 * a local reference of the calling thread that reaches the agent or comes
 * back through release_ref (the operations without one in their signature
 * take and make none: identities and IDs only). */
/* 1: up to object_hash; 2: class_modifiable and install_classes,
 * sample_thread, sample_object, the thread group and agent thread
 * operations, frame_slot, frame_return and local_type, class_ref and
 * class_by_name, thread_state, release_ref, the Java monitor and the
 * module operations added. */
#define JVMTIRT_CONFIG_VERSION 2
typedef struct jvmtirt_config {
    /* ---- the header ---- */
    size_t size;   /* sizeof(jvmtirt_config) as the VM was compiled */
    int version;   /* JVMTIRT_CONFIG_VERSION as the VM was compiled */
    /* Refuse to start (jvmtirt_init fails and prints what is missing to
     * stderr) when a capability in `potential` or a function that needs no
     * capability is still at its NOT_AVAILABLE default (see `impls`). */
    int strict;

    /* ---- what the VM can do ---- */
    /* Capabilities the VM can ever give an environment. A capability whose
     * functions are all still at their defaults is withdrawn at init (an
     * agent is never offered what only answers NOT_AVAILABLE) unless
     * offer_defaults is set (test harnesses that reach parameter checks). */
    jvmtiCapabilities potential;
    /* Those of `potential` that can only be added in the OnLoad phase. One
     * that some environment added during OnLoad stays potential afterwards,
     * for every environment (as in HotSpot: the VM started with it). */
    jvmtiCapabilities onload_only;
    /* Those of `potential` that at most one environment may hold at a time. */
    jvmtiCapabilities solo;
    int offer_defaults;
    /* What GetJLocationFormat reports (0 means JVMTI_JLOCATION_JVMBCI). */
    jvmtiJlocationFormat jlocation_format;
    /* The VM's implementations of JVM TI functions (the generated
     * jvmtirt_impl_table of jvmtigen_impl.h, started with JVMTIRT_IMPL_TABLE_INIT),
     * or NULL: the only way the VM's functions are called, whatever the
     * symbol visibility of its code. jvmtirt_init refuses a definition
     * named jvmti_impl_NAME that took a default's place without being
     * this table's member for NAME, and one exported from a program linked
     * with the shared library under the name of a function the core
     * implements (the core's calls would reach it instead). */
    const jvmtirt_impl_table *impls;

    /* ---- threads ---- */
    /* The identity of a thread object (a jthread that passed check_thread):
     * the id the VM passed to jvmtirt_thread_start for that thread. Used to
     * enable events for one thread, and, while posting an event enabled for
     * some thread, on the event's thread parameter (on the posting thread,
     * no lock held; it must map every jthread the VM posts events with);
     * also on the members GetThreadGroupChildren keeps, on RunAgentThread's
     * thread (not started yet: the id it will start with) and once by
     * jvmtirt_init on thread_ref(sample_thread); always with no lock of the
     * core held; it must not wait for the thread it is asked about. NULL:
     * the jthread's own value is the id (VMs whose references are stable). */
    uintptr_t (*thread_id)(jthread thread);

    /* ---- handle checks: the trampolines' questions (jvmtigen_hooks.h).
     * Called by the trampolines before the function, on the calling thread,
     * with no lock of the core held; they may call anything, but every such
     * call pays for them: keep them cheap. The handle is never NULL; NULL
     * operation: any handle is accepted. ---- */
    /* JVMTI_ERROR_NONE, INVALID_THREAD (not a thread) or THREAD_NOT_ALIVE.
     * Also called by SetEventNotificationMode for one thread and by
     * jvmtirt_resolve_thread. */
    jvmtiError (*check_thread)(jvmtiEnv *env, jthread thread);
    /* JVMTI_ERROR_NONE or INVALID_CLASS; of_member: the class of a field or
     * method parameter, so a primitive class is invalid too. */
    jvmtiError (*check_class)(jvmtiEnv *env, jclass klass, int of_member);
    /* JVMTI_ERROR_NONE or INVALID_METHODID. */
    jvmtiError (*check_method)(jvmtiEnv *env, jmethodID method);
    /* JNI_TRUE for a native method: for the functions that reject native
     * methods; the method passed check_method. */
    jboolean (*method_is_native)(jvmtiEnv *env, jmethodID method);
    /* JVMTI_ERROR_NONE or INVALID_FIELDID; klass: the field's class
     * parameter (already checked), or NULL where the function has none. */
    jvmtiError (*check_field)(jvmtiEnv *env, jclass klass, jfieldID field);

    /* ---- general ---- */
    /* SetVerboseFlag, after the flag was checked; its result is the call's.
     * On the calling thread, no lock held, may call anything. NULL:
     * accepted, ignored. */
    jvmtiError (*set_verbose)(jvmtiVerboseFlag flag, jboolean value);
    /* GenerateEvents for COMPILED_METHOD_LOAD (capability checked) or
     * DYNAMIC_CODE_GENERATED; its result is the call's. On the calling
     * thread, no lock held, may call anything; it posts the events with
     * jvmtirt_post_NAME before returning or later (posting reaches every
     * environment that enabled them). NULL: nothing to generate. */
    jvmtiError (*generate_events)(jvmtiEnv *env, jvmtiEvent event_type);
    /* Called after any environment's callbacks or enabled events change
     * (also at dispose), on the thread that changed them, so a VM can
     * switch expensive event sources on or off (e.g. single stepping) by
     * asking jvmtirt_event_enabled / _for_thread. Under rt's lock: those
     * two are all it may call (no JVM TI, no other jvmtirt_* function).
     * May be NULL. */
    void (*events_changed)(void);

    /* ---- environments ---- */
    /* DisposeEnvironment of env, once per environment, on the disposing
     * thread (maybe inside one of env's callbacks), after the core stopped
     * delivering new events to it and freed nothing yet; env's calls
     * already answer JVMTI_ERROR_INVALID_ENVIRONMENT. For the VM's own
     * per-environment state, keyed by env: a later environment may get the
     * same address. No lock held; may call anything but calls on env. May
     * be NULL. */
    void (*env_disposed)(jvmtiEnv *env);

    /* The operations of each area follow, each area under a line
     * "---- <area> ----". */

    /* ---- objects ---- */
    /* The identity of an object: a number, never 0, that stays the same
     * for the object's whole life, whatever reference names it, and that
     * no other object has while it lives (the tag map's key). 0 for a
     * reference that is no object (SetTag/GetTag answer INVALID_OBJECT).
     * Called on the thread of the JVM TI call (SetTag, GetTag), with no
     * lock of the core held, and by jvmtirt_init on sample_object and on
     * what object_ref gives for it; must not call JVM TI. NULL: the
     * reference's own value is the identity (for VMs whose references are
     * stable pointers to their objects). */
    uintptr_t (*object_id)(jobject object);
    /* A local reference, for the calling thread, to the live object with that
     * identity: what GetObjectsWithTags returns. Called on the thread of that
     * call, with no lock of the core held, once per object found (and once by
     * jvmtirt_init, on sample_object's identity, on the thread calling it);
     * must not call JVM TI. The VM must not free the object between its GC
     * notification and this call (see jvmtirt_objects_freed). NULL: the
     * identity is the reference. */
    jobject (*object_ref)(uintptr_t id);
    /* The CPU time, in nanoseconds, the thread with that id (see
     * thread_id) has used: GetThreadCpuTime of a started thread, the
     * caller's own too. Called on the caller's thread, with no lock of the
     * core held, after the core found the thread started and not ended (it may
     * end meanwhile: answer JVMTI_ERROR_THREAD_NOT_ALIVE). Must not call
     * JVM TI. NULL: the core reads the CPU clock of the OS thread that
     * called jvmtirt_thread_start for that id (right for VMs that run each
     * Java thread on its own OS thread). */
    jvmtiError (*thread_cpu_time)(uintptr_t thread_id, jlong *nanos);
    /* Whether the thread with that id is a virtual thread: GetThreadCpuTime
     * and RunAgentThread answer UNSUPPORTED_OPERATION for one,
     * SuspendAllVirtualThreads and ResumeAllVirtualThreads act on them,
     * GetAllThreads, GetThreadGroupChildren and GetObjectMonitorUsage leave
     * them out. Called on any thread, under rt.lock (the core's own lock):
     * must not call JVM TI or jvmtirt_ functions, nor
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
     * resume_thread): the suspend functions answer NOT_AVAILABLE and
     * can_suspend is withdrawn from `potential` (unless offer_defaults). */
    jvmtiError (*suspend_thread)(uintptr_t thread_id, int is_current);
    /* Lets a thread suspended by suspend_thread run again. Same thread and
     * lock rules; JVMTI_ERROR_NONE, or an error for the agent (e.g.
     * INVALID_TYPESTATE). */
    jvmtiError (*resume_thread)(uintptr_t thread_id);

    /* ---- frames: breakpoints, field watches, frame pops, JNI function
     * table, class-loader search (runtime/README.md, "Frames") ----
     * The core keeps which environment asked for what; the VM does only the
     * primitive. The arming operations are called on the agent's thread
     * (inside the JVM TI call, or inside DisposeEnvironment), under a lock
     * of the core's that only these functions take (the breakpoint lock for
     * breakpoints and field watches, the frame-pop lock for frame pops):
     * they must not call
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
     * jvmtirt_post_Breakpoint before the instruction runs; the core
     * delivers it only to the environments that set that breakpoint. */
    jvmtiError (*breakpoint_arm)(jmethodID method, jlocation location, int on);
    /* The identity of a class, for field watches and for the classes
     * handed over (jvmtirt_class_define; a jclass is a reference that may
     * differ from call to call). Called on any thread, under no lock or the
     * breakpoint lock. NULL: the jclass's own value is the id. */
    uintptr_t (*class_id)(jclass klass);
    /* on = 1: the first environment watches the field (of the class with
     * that id) for kind (JVMTI_EVENT_FIELD_ACCESS or
     * JVMTI_EVENT_FIELD_MODIFICATION); on = 0: the last one stopped. While
     * armed, the VM calls jvmtirt_post_FieldAccess / _FieldModification;
     * the core delivers each only to the environments watching the field. */
    jvmtiError (*field_watch_arm)(uintptr_t class_id, jfieldID field, jvmtiEvent kind, int on);
    /* NotifyFramePop: the frame at depth (0: the top) of the thread with
     * that id (the calling thread, or one suspended through JVM TI).
     * Stores in *frame a key unique among that thread's frames
     * while this one is on the stack (its height above the bottom of the
     * stack will do). Errors: JVMTI_ERROR_NO_MORE_FRAMES (no frame at that
     * depth), JVMTI_ERROR_OPAQUE_FRAME (a native method's frame). Under the
     * frame-pop lock; also by PopFrame, for the frame it is about to remove
     * (whose requests go unreported, and which is disarmed), under rt.lock
     * (see frame_return). */
    jvmtiError (*frame_at)(uintptr_t thread_id, jint depth, uintptr_t *frame);
    /* on = 1: the first environment asked for the frame's pop; on = 0: the
     * last request was cleared (ClearAllFramePops, DisposeEnvironment), or
     * PopFrame removes the frame (then under rt.lock too). When
     * an armed frame pops (normally or by an exception) the VM calls
     * jvmtirt_frame_popped on that thread; no disarm follows that. */
    void (*frame_pop_arm)(uintptr_t thread_id, uintptr_t frame, int on);
    /* No longer called (kept for the layout): NotifyFramePop and
     * ClearAllFramePops now go by the core's own record of the threads
     * SuspendThread suspended (suspend_thread above). */
    int (*thread_suspended)(uintptr_t thread_id);
    /* The JNI function table JNIEnvs use now (GetJNIFunctionTable copies
     * it). Called on the agent's thread, under the core's JNI-table lock:
     * it may not call Get/SetJNIFunctionTable. */
    const struct JNINativeInterface_ *(*jni_table)(void);
    /* SetJNIFunctionTable: from now on every JNIEnv, present and future,
     * must use table (the core's copy of the agent's). The core frees no
     * copy before jvmtirt_shutdown: a JNI call may still be on its way
     * through an older one. Called on the agent's thread, under the core's
     * JNI-table lock: it may not call Get/SetJNIFunctionTable. */
    void (*jni_table_changed)(const struct JNINativeInterface_ *table);
    /* AddToBootstrapClassLoaderSearch (system = 0) and
     * AddToSystemClassLoaderSearch (system = 1): append segment to that
     * loader's search path. phase: JVMTI_PHASE_ONLOAD (any path: the core
     * checked nothing) or JVMTI_PHASE_LIVE (the core checked that segment
     * names an existing JAR file: a regular file starting as a zip archive
     * does; else ILLEGAL_ARGUMENT). Errors it may return:
     * JVMTI_ERROR_ILLEGAL_ARGUMENT (a segment the VM cannot use),
     * JVMTI_ERROR_CLASS_LOADER_UNSUPPORTED (system = 1, live phase: the
     * system class loader cannot append). On the agent's thread, no lock. */
    jvmtiError (*class_path_append)(int system, const char *segment, jvmtiPhase phase);

    /* ---- stacks and classes (runtime/README.md, "Stacks and classes") ---- */
    /* The stack walk of GetStackTrace, GetFrameCount, GetFrameLocation,
     * GetThreadListStackTraces and GetAllStackTraces (and of GetThreadState
     * without thread_state), after the core resolved their threads
     * (jvmtirt_resolve_thread; the list forms pass every element that is a
     * thread, alive or not; n is 1 but for them): the stacks of the n threads
     * with those ids (config.thread_id's), sampled at one moment: bring every
     * one of them to a point where its stack cannot change (the calling thread
     * already is; a suspended one too; a running one stops briefly at a safe
     * point or handshake, or the VM holds a lock its threads take to push and
     * pop frames, as host/stacks.c does), then, for each i in order, store its
     * JVM TI thread state in states[i] (as GetThreadState answers it: 0 or
     * JVMTI_THREAD_STATE_TERMINATED for a thread not started or ended, which
     * has no frames) and call visit(arg, i, method, location) for each of its
     * frames from the top (the most recent) down, location -1 for a native
     * method's frame. A non-zero answer of visit ends thread i's walk (go on
     * with i + 1). visit is the core's: it only copies, never blocks, never
     * calls the VM. Returns JVMTI_ERROR_NONE or an error for the whole call
     * (OUT_OF_MEMORY). Called on the agent's thread with no lock of the core
     * held; must not call JVM TI. NULL: those five functions answer
     * JVMTI_ERROR_NOT_AVAILABLE (and jvmtirt_report_defaults lists them). */
    jvmtiError (*walk_stacks)(const uintptr_t *thread_ids, jint n, jint *states,
                              int (*visit)(void *arg, jint index, jmethodID method,
                                           jlocation location),
                              void *arg);
    /* The class enumeration of GetLoadedClasses (all = 1: every class and
     * interface loaded, hidden ones and array classes (of primitives too)
     * included, primitive classes not; initiating_loader unused) and GetClassLoaderClasses
     * (all = 0: every class for which initiating_loader, NULL for the
     * bootstrap loader, is recorded as an initiating loader: those it
     * defined and those it loaded by delegation, no hidden class nor array
     * of one). Calls visit(arg, klass) once per class, klass a local
     * reference for the calling thread; a non-zero answer of visit ends the
     * walk (the core ran out of memory). Returns JVMTI_ERROR_NONE or an
     * error for the call. Called on the agent's thread, no lock of the core
     * held; must not call JVM TI. NULL: the two functions answer
     * JVMTI_ERROR_NOT_AVAILABLE (and jvmtirt_report_defaults lists them). */
    jvmtiError (*each_class)(jobject initiating_loader, int all,
                             int (*visit)(void *arg, jclass klass), void *arg);

    /* ---- heap ----
     * FollowReferences, IterateThroughHeap and the four 1.0 heap functions
     * (runtime/README.md, "Heap walks"). The core keeps the protocol (work
     * list, visited set, filters, tags, callbacks); the VM only enumerates.
     * Called on the agent's thread inside the walking JVM TI call, with no
     * lock of the core held, always between heap_pause(1) and heap_pause(0):
     * they must not allocate Java objects nor call JVM TI. An enumeration
     * stops when its callback returns non-zero. When heap_roots,
     * heap_references, heap_objects or heap_object_info is NULL the six
     * functions answer JVMTI_ERROR_NOT_AVAILABLE and jvmtirt_report_defaults
     * lists them. */
    /* on = 1: hold the heap still (no allocation, no collection, no object
     * changes) until on = 0, as the spec requires during a walk. Agents'
     * callbacks run in between: they may call Allocate, Deallocate, raw
     * monitors and environment-local storage only. Also around
     * GetObjectSize's heap_object_info. NULL: the VM's heap does not move
     * by itself (a VM that walks at a safe point already). */
    void (*heap_pause)(int on);
    /* Each heap root once per reference (FollowReferences without an
     * initial_object, IterateOverReachableObjects): JNI globals, system
     * classes, monitors, thread stacks (STACK_LOCAL with info.stack_local,
     * JNI_LOCAL with info.jni_local, and `thread`), threads, others. */
    void (*heap_roots)(jvmtirt_heap_ref_fn fn, void *ctx);
    /* For each object a walk visits: each reference it holds, in the spec's
     * sense of FollowReferences: its class (CLASS), each non-null reference
     * field (FIELD, with its index), array elements (ARRAY_ELEMENT, with the
     * index); a class object also its SUPERCLASS, INTERFACEs, CLASS_LOADER,
     * SIGNERS, PROTECTION_DOMAIN, resolved CONSTANT_POOL entries and non-null
     * STATIC_FIELDs. */
    void (*heap_references)(uintptr_t object, jvmtirt_heap_ref_fn fn, void *ctx);
    /* Every live object once (IterateThroughHeap, IterateOverHeap,
     * IterateOverInstancesOfClass). */
    void (*heap_objects)(jvmtirt_heap_object_fn fn, void *ctx);
    /* Fills *out for a live object (each one a walk reports, an
     * initial_object or object argument, GetObjectSize's):
     * JVMTI_ERROR_NONE, or INVALID_OBJECT for what is no object. */
    jvmtiError (*heap_object_info)(uintptr_t object, jvmtirt_heap_object *out);
    /* Each primitive field of the object (instance fields, inherited ones
     * included; for a class object, its own static fields), for each object
     * visited or iterated while the agent set primitive_field_callback.
     * NULL: that callback is never called. */
    void (*heap_primitive_fields)(uintptr_t object, jvmtirt_heap_field_fn fn, void *ctx);

    /* ---- threads, classes and objects: what the core answers from the VM's
     * records (runtime/README.md, "Threads, classes and objects")
     * GetCurrentThread, GetAllThreads and GetThreadInfo; GetClassSignature,
     * GetClassStatus, GetClassModifiers, GetSourceFileName, IsInterface and
     * IsArrayClass; GetObjectHashCode. (GetThreadState is walk_stacks'
     * state; GetObjectSize is heap_object_info's size.) Called on the
     * agent's thread inside the JVM TI call, with no lock of the core held;
     * they must not call JVM TI. NULL: the functions that need one answer
     * JVMTI_ERROR_NOT_AVAILABLE and jvmtirt_report_defaults lists them. */
    /* A local reference, for the calling thread, to the thread object of
     * the thread with that id (one the VM passed to jvmtirt_thread_start),
     * or NULL when it has none (yet, or any more: GetAllThreads leaves it
     * out; GetCurrentThread answers NULL, as in the start phase). Asked by
     * GetCurrentThread and GetThreadInfo(NULL) for the caller's id, by
     * GetAllThreads, GetAllStackTraces and GetObjectMonitorUsage for each
     * id they list, and once by jvmtirt_init on sample_thread. */
    jthread (*thread_ref)(uintptr_t thread_id);
    /* GetThreadInfo of a thread object (never NULL; it passed check_thread,
     * and may be not started or ended): fills *out, whose name must stay
     * valid until this thread's next call of thread_info. Returns
     * JVMTI_ERROR_NONE or an error for the agent. */
    jvmtiError (*thread_info)(jthread thread, jvmtirt_thread_info *out);
    /* What the core needs of a class (a jclass that passed check_class):
     * fills *out, its strings valid while the class is loaded. Returns
     * JVMTI_ERROR_NONE or INVALID_CLASS. */
    jvmtiError (*class_info)(jclass klass, jvmtirt_class_info *out);
    /* GetObjectHashCode of the object with that identity (object_id's):
     * the VM's identity hash, what Object.hashCode() answers unless
     * overridden. NULL: the core derives a hash from the identity itself
     * (stable for the object's life, as the spec asks; not what Java code
     * sees). */
    jint (*object_hash)(uintptr_t object);

    /* ---- retransformation and redefinition (config version 2; runtime/README.md,
     * "Retransformation and redefinition") ----
     * The core runs the ClassFileLoadHook chain in the spec's order, keeps
     * what a retransformation starts from (see jvmtirt_class_file_load) and
     * checks the arguments; the VM only says whether a class may change and
     * installs bytes. Both are called on the agent's thread inside
     * IsModifiableClass, RetransformClasses or RedefineClasses, under the
     * core's redefine_lock (class_modifiable also without it): they must not
     * call RetransformClasses or RedefineClasses, and may call anything else.
     * When either is NULL the three functions answer
     * JVMTI_ERROR_NOT_AVAILABLE (and jvmtirt_report_defaults lists them). */
    /* Whether the class (it passed check_class) may be changed, and what a
     * ClassFileLoadHook for it is posted with: fills *out. Asked once per
     * class of the call, before any agent is called. The core posts with
     * out->loader and out->protection_domain and gives them back through
     * release_ref once the JVM TI call returns. Returns JVMTI_ERROR_NONE or
     * an error for the agent (INVALID_CLASS). */
    jvmtiError (*class_modifiable)(jclass klass, jvmtirt_class_origin *out);
    /* Once per call whose checks and ClassFileLoadHook chains passed, with
     * every class of the call: installs new definitions of n classes, all
     * or none: defs[i].klass gets the class file defs[i].class_bytes
     * (class_byte_count bytes, owned by the core, valid during the call
     * only: copy what must stay).
     * retransform: 1 for RetransformClasses, 0 for RedefineClasses. Returns
     * JVMTI_ERROR_NONE once every class has its new definition, or the
     * error of the first class file the VM refuses (INVALID_CLASS_FORMAT,
     * NAMES_DONT_MATCH, UNSUPPORTED_REDEFINITION_*, ...) with every class
     * left as it was; the core returns that error to the agent. */
    jvmtiError (*install_classes)(jint n, const jvmtiClassDefinition *defs, int retransform);
    /* ---- the port's self-check (config version 2; runtime/README.md, "The
     * port checks itself") ----
     * Samples on which jvmtirt_init tries the identity operations above,
     * on the thread calling it, with no lock of the core held, before it
     * sets anything up; a disagreement refuses to start (jvmtirt_init
     * returns JVMTI_ERROR_ILLEGAL_ARGUMENT and prints one line naming the
     * operation). A VM whose identity operations are only half given
     * (thread_ref without thread_id, object_id without object_ref or the
     * reverse) and that gives no sample is named by jvmtirt_report_defaults.
     * The id of a thread whose thread object exists already (thread_ref
     * gives it; jvmtirt_thread_start need not have been called for it):
     * init checks thread_id(thread_ref(sample_thread)) == sample_thread
     * (with thread_id NULL: the reference's value). 0: no sample. */
    uintptr_t sample_thread;
    /* A reference to a live object, valid on the thread calling
     * jvmtirt_init: init checks that object_id gives it an identity (not
     * 0) and that object_id(object_ref(that identity)) gives the same one
     * (NULL operations as documented above). The reference object_ref
     * returns there is the calling thread's local reference: a VM that
     * calls jvmtirt_init where it cannot make one leaves this NULL. */
    jobject sample_object;

    /* ---- thread groups and agent threads (config version 2;
     * runtime/README.md, "Thread groups and agent threads") ----
     * Called on the agent's thread inside the JVM TI call, with no lock of
     * the core held; they must not call JVM TI. NULL: the functions that
     * need one answer JVMTI_ERROR_NOT_AVAILABLE and jvmtirt_report_defaults
     * lists them (they need no capability: every VM should have them). */
    /* group NULL (GetTopThreadGroups): calls visit_group once for each
     * group that has no parent. Else (GetThreadGroupChildren): calls
     * visit_thread for each thread object whose group is `group` (started
     * or not: the core keeps the live platform threads among them, and
     * leaves out the threads RunAgentThread started) and visit_group for
     * each child group. The references are local references for the calling
     * thread. A non-zero answer of a visit ends the enumeration (the core
     * ran out of memory). Returns JVMTI_ERROR_NONE, or
     * JVMTI_ERROR_INVALID_THREAD_GROUP when `group` is no thread group
     * (the core answers that for NULL itself). */
    jvmtiError (*thread_group_members)(jthreadGroup group,
                                       int (*visit_thread)(void *arg, jthread thread),
                                       int (*visit_group)(void *arg, jthreadGroup child),
                                       void *arg);
    /* GetThreadGroupInfo of a group (never NULL): fills *out. Returns
     * JVMTI_ERROR_NONE or JVMTI_ERROR_INVALID_THREAD_GROUP. */
    jvmtiError (*thread_group_info)(jthreadGroup group, jvmtirt_thread_group_info *out);
    /* RunAgentThread, after the core checked the spec's errors (thread not
     * NULL, one check_thread answers THREAD_NOT_ALIVE for and not started with
     * jvmtirt_thread_start, else INVALID_THREAD as in HotSpot 17; not virtual
     * by thread_is_virtual, else UNSUPPORTED_OPERATION; priority within
     * JVMTI_THREAD_MIN_PRIORITY .. MAX_PRIORITY): start a new daemon thread
     * bound to the thread object `thread`, at `priority`, in no thread group.
     * On the new thread the VM attaches it, calls jvmtirt_thread_start for it
     * (and posts ThreadStart when enabled), then calls body(jni, ctx) with that
     * thread's JNIEnv, once: body runs the agent's function and returns when it
     * does; then the VM posts ThreadEnd, calls jvmtirt_thread_end and detaches
     * it. Returns JVMTI_ERROR_NONE once the new thread has called
     * jvmtirt_thread_start (the spec: started when RunAgentThread returns), or
     * an error for the agent (then body must never be called: the core frees
     * ctx). `thread` is the agent's reference: make a global one before the new
     * thread uses it. body is called with no lock held; the references it makes
     * are the new thread's, freed when the VM detaches it. */
    jvmtiError (*start_agent_thread)(jthread thread, jint priority,
                                     void (*body)(JNIEnv *jni, void *ctx), void *ctx);
    /* ---- locals and frames (config version 2; runtime/README.md, "Locals and
     * frames") ----
     * Get/SetLocal{Int,Long,Float,Double,Object} and GetLocalInstance over
     * frame_slot; PopFrame and ForceEarlyReturn* over frame_return. The
     * core checks the thread (the caller, or one it holds suspended:
     * THREAD_NOT_SUSPENDED otherwise), the depth, the slot and the types;
     * the VM only describes a frame and reads, writes or unwinds it. Both
     * are called on the agent's thread inside the JVM TI call, UNDER
     * rt.lock (the core's main lock, which also serializes suspend and
     * resume: a suspended thread stays suspended from the check to the
     * end of the operation, even while another thread calls ResumeThread).
     * So, as suspend_thread: they must not call JVM TI or jvmtirt_
     * functions, nor take a lock the VM holds while calling them. NULL:
     * the functions over it answer JVMTI_ERROR_NOT_AVAILABLE (and
     * jvmtirt_report_defaults lists them; their capability is withdrawn). */
    /* The frame at s->depth (0: the top; native frames count) of the
     * thread with that id, for the eleven local functions. mode
     * JVMTIRT_FRAME_DESCRIBE: fill s->method, s->location, s->is_native,
     * s->is_static, s->max_locals and, for slot s->slot, s->tag; return
     * NO_MORE_FRAMES when there is no such frame (or OPAQUE_FRAME for a
     * frame the VM cannot show). JVMTIRT_FRAME_READ: store the value of the
     * local in s->slot, of kind s->type, in s->value (a long or double
     * spans s->slot and s->slot + 1; an object as a new local reference
     * for the calling thread, which the agent owns, or NULL);
     * JVMTIRT_FRAME_WRITE: store s->value there (s->value.l is the agent's
     * reference: the VM keeps the object, not the reference). READ and
     * WRITE come only after a DESCRIBE of the same frame in the same call
     * whose checks passed; READ of slot 0 of a native method's frame is
     * GetLocalInstance's. */
    jvmtiError (*frame_slot)(uintptr_t thread_id, int mode, jvmtirt_frame_slot *s);
    /* The declared type of slot at location in method, from its local variable
     * table, asked between frame_slot's DESCRIBE and its action
     * (jvmtirt_class_local_type is a ready one): JVMTI_ERROR_NONE and the first
     * character of the variable's type signature in *type ('Z', 'B', 'C', 'S',
     * 'I', 'J', 'F', 'D', 'L' or '['); JVMTI_ERROR_INVALID_SLOT when the method
     * has a table and no variable lives in that slot there;
     * JVMTI_ERROR_ABSENT_INFORMATION when the method has no table (the core
     * then checks s->tag). Same thread and lock as frame_slot. NULL: no method
     * has a table (only the tags are checked). */
    jvmtiError (*local_type)(jmethodID method, jlocation location, jint slot, char *type);
    /* The top frame of the thread with that id. mode
     * JVMTIRT_FRAME_DESCRIBE: fill r->frames (how many frames the stack
     * holds, counting at most 2), r->top_native, r->caller_native and
     * r->result (the first character of the top method's return type:
     * 'V', 'Z', 'B', 'C', 'S', 'I', 'J', 'F', 'D', 'L' or '[').
     * JVMTIRT_FRAME_POP (PopFrame): remove the top frame, releasing the
     * monitors its method held, so the caller re-executes its invoke when
     * the thread runs again.
     * JVMTIRT_FRAME_RETURN (ForceEarlyReturn*): make the top frame return
     * r->value (kind r->type, 'V' for none) when the thread runs again;
     * for an object, TYPE_MISMATCH when r->value.l (the agent's reference,
     * or NULL) cannot be assigned to the method's result type (the core
     * checks only the kinds). POP and RETURN come only after a DESCRIBE in
     * the same call whose checks passed; no event is posted for either. */
    jvmtiError (*frame_return)(uintptr_t thread_id, int mode, jvmtirt_frame_return *r);
    /* ---- metadata (config version 2; runtime/README.md, "Metadata") ----
     * The class, method and field functions are the core's, over what the
     * VM handed over with jvmtirt_class_define or jvmtirt_class_describe. */
    /* A local reference, for the calling thread, to the class with that
     * identity (class_id's; a class handed over and not unloaded):
     * GetMethodDeclaringClass and GetFieldDeclaringClass. Called on the
     * agent's thread with no lock of the core held; must not call JVM TI.
     * NULL: the identity is the jclass (VMs whose references are stable). */
    jclass (*class_ref)(uintptr_t class_id);
    /* A local reference, for the calling thread, to the class or interface with
     * that internal name ("java/lang/Runnable") as the defining loader of
     * `from` sees it, or NULL if none is loaded: GetImplementedInterfaces, for
     * each superinterface of a class handed over (loaded before the class was
     * prepared; a NULL answer makes the call JVMTI_ERROR_INTERNAL and the core
     * gives back those it got). Same thread and lock rules as class_ref. NULL:
     * GetImplementedInterfaces answers NOT_AVAILABLE (and
     * jvmtirt_report_defaults lists it). */
    jclass (*class_by_name)(jclass from, const char *name);

    /* ---- a thread's state (config version 2) ---- */
    /* GetThreadState's answer for the thread with that id (config.thread_id's;
     * any thread the VM ever made, alive or not): what walk_stacks would put
     * in its states[] (0 not started, JVMTI_THREAD_STATE_TERMINATED ended),
     * without sampling a stack, so GetThreadState costs this read and the
     * core's checks. Called on the agent's thread with no lock of the core
     * held; must not call JVM TI. NULL: GetThreadState asks
     * walk_stacks, stopped before the first frame. */
    jint (*thread_state)(uintptr_t thread_id);

    /* ---- local references (config version 2; runtime/README.md, "The JNI
     * contract") ----
     * The core is done with a reference an operation handed it and does
     * not pass on to the agent: a member GetThreadGroupChildren leaves out
     * (and GetTopThreadGroups' threads), the current thread's object
     * GetThreadInfo(NULL) asked for, the loader and protection domain of a
     * class once its IsModifiableClass, RetransformClasses or
     * RedefineClasses returns, what a call that fails after the operation
     * was asked had gathered (classes, modules, monitors, interfaces,
     * threads, GetThreadInfo's group and loader), and jvmtirt_init's
     * samples; never one the agent got or passed in. Free it as JNI
     * DeleteLocalRef would (a VM that handed out a reference it must keep,
     * a global one, ignores it). Called on the thread the reference was
     * made for, with no lock of the core held; must not call JVM TI.
     * Never called with NULL. NULL operation: those references stay in the
     * calling thread's local frame until its native method returns (so a
     * long-running agent thread calling these functions in a loop grows
     * its frame by the dropped references of each call). */
    void (*release_ref)(jobject ref);

    /* ---- Java monitors (config version 2; runtime/README.md, "Java
     * monitors") ----
     * GetOwnedMonitorInfo, GetOwnedMonitorStackDepthInfo,
     * GetCurrentContendedMonitor and GetObjectMonitorUsage: the core resolves
     * the thread (any live thread: the spec asks neither the caller nor a
     * suspended one), lays out what the agent Deallocates and turns thread
     * ids into thread objects; the VM reports what a thread holds or waits
     * for, sampled at one moment (the thread stopped, or the VM holding what
     * its threads take to enter and leave monitors). Called on the agent's
     * thread inside the JVM TI call with no lock of the core held; they must
     * not call JVM TI. NULL: the functions over it answer
     * JVMTI_ERROR_NOT_AVAILABLE, jvmtirt_report_defaults lists them and
     * their capability is withdrawn. */
    /* Each monitor the thread with that id owns, once however many times it
     * entered it: visit(arg, monitor, depth), monitor a new local reference
     * for the calling thread (the agent's, or given back through
     * release_ref), depth that of the most recent frame holding it (0: the
     * top frame; -1 when the VM cannot tell, e.g. JNI MonitorEnter). A
     * non-zero answer of visit ends the walk (the core ran out of memory).
     * Returns JVMTI_ERROR_NONE, or an error for the agent (THREAD_NOT_ALIVE:
     * the thread ended meanwhile). */
    jvmtiError (*owned_monitors)(uintptr_t thread_id,
                                 int (*visit)(void *arg, jobject monitor, jint depth), void *arg);
    /* The object whose monitor the thread with that id waits to enter, or
     * to enter again after Object.wait (as the VM's release reads the spec:
     * JDK 17's HotSpot also names the object of a wait not yet notified), in
     * *monitor as a new local reference for the calling thread (the
     * agent's, or given back through release_ref when the call fails), or
     * NULL. Returns JVMTI_ERROR_NONE or an error for the agent. */
    jvmtiError (*contended_monitor)(uintptr_t thread_id, jobject *monitor);
    /* The monitor of `object` (the agent's reference, never NULL): *owner
     * the id (thread_id's) of the thread owning it, 0 for none, and
     * *entry_count how many times it entered it; visit(arg, 0, id) for each
     * thread waiting to own it (to enter, or to enter again once notified),
     * visit(arg, 1, id) for each thread waiting in Object.wait to be
     * notified. A non-zero answer of visit ends the enumeration. The core
     * leaves virtual threads out (thread_is_virtual: the spec's platform
     * threads only) and makes each thread object with thread_ref. Returns
     * JVMTI_ERROR_NONE or INVALID_OBJECT. */
    jvmtiError (*monitor_usage)(jobject object, uintptr_t *owner, jint *entry_count,
                                int (*visit)(void *arg, int notify, uintptr_t thread_id),
                                void *arg);

    /* ---- modules (config version 2; runtime/README.md, "Modules") ----
     * GetAllModules, GetNamedModule, AddModuleReads, AddModuleExports,
     * AddModuleOpens, AddModuleUses, AddModuleProvides and
     * IsModifiableModule: the core makes the spec's checks in HotSpot's
     * order and leaves out what the spec makes a no-op; the VM enumerates,
     * describes and updates. Called on the agent's thread inside the JVM TI
     * call with no lock of the core held; they must not call JVM TI (they
     * may run Java code of the VM's own, as HotSpot's updates do). NULL: the
     * functions over it answer JVMTI_ERROR_NOT_AVAILABLE (and
     * jvmtirt_report_defaults lists them: they need no capability). */
    /* Calls visit(arg, module) once per module loaded, the unnamed module of
     * each class loader included; module a new local reference for the
     * calling thread (the agent's, or given back through release_ref when
     * the call fails). A non-zero answer of visit ends the walk (the core ran
     * out of memory). Returns JVMTI_ERROR_NONE or an error for the call. */
    jvmtiError (*each_module)(int (*visit)(void *arg, jobject module), void *arg);
    /* GetNamedModule: in *module (a new local reference, as each_module's,
     * or NULL) the named module defined to class_loader (NULL: the
     * bootstrap loader) that contains package (internal form, "java/lang"). ILLEGAL_ARGUMENT when
     * class_loader is not NULL and no class loader object. */
    jvmtiError (*named_module)(jobject class_loader, const char *package, jobject *module);
    /* What the core checks of a module (the agent's reference, never NULL), for
     * each module an update names and for IsModifiableModule: fills *out
     * (package: the package an update names, or NULL). Returns JVMTI_ERROR_NONE
     * or INVALID_MODULE for what is no module object. */
    jvmtiError (*module_info)(jobject module, const char *package, jvmtirt_module_info *out);
    /* Changes a named, modifiable module, once the core's checks passed:
     * kind JVMTIRT_MODULE_READS (other: the module to read),
     * JVMTIRT_MODULE_EXPORTS / _OPENS (package, which belongs to module;
     * other: the module it is exported or opened to), JVMTIRT_MODULE_USES
     * (service) or JVMTIRT_MODULE_PROVIDES (service, impl). The references
     * are the agent's, valid during the call. Returns JVMTI_ERROR_NONE or an
     * error for the agent. */
    jvmtiError (*module_update)(int kind, jobject module, jobject other, const char *package,
                                jclass service, jclass impl);
} jvmtirt_config;

#define JVMTIRT_CONFIG_INIT {.size = sizeof(jvmtirt_config), .version = JVMTIRT_CONFIG_VERSION}

/* Sets up the core: the phase becomes OnLoad. Copies the config (the
 * first config->size bytes). Also reads JVMTI_TRACE / JVMTI_TRACE_FILE
 * (see jvmtigen_trace.h): when JVMTI_TRACE is set, environments get the
 * tracing function table. Returns JVMTI_ERROR_NONE, or (with a message on
 * stderr, and the core left unset) JVMTI_ERROR_ILLEGAL_ARGUMENT for a size
 * or version it does not know or identity operations that disagree on the
 * config's samples, JVMTI_ERROR_NOT_AVAILABLE when config->strict and
 * functions are missing, JVMTI_ERROR_WRONG_PHASE when the core is set up
 * already (a second call without jvmtirt_shutdown between).
 * Until it succeeds (and again after jvmtirt_shutdown) the VM's calls that
 * need the core set up are refused with a line on stderr: jvmtirt_get_env
 * answers JNI_ERR, jvmtirt_property_define and the extension registries
 * JVMTI_ERROR_WRONG_PHASE, jvmtirt_set_phase and jvmtirt_thread_start do
 * nothing. */
jvmtiError jvmtirt_init(const jvmtirt_config *config);
/* Frees every environment, monitor, thread record and property. Only once
 * no thread can call JVM TI any more: agents' own threads may go on
 * calling after Agent_OnUnload, so a VM that cannot stop them leaves the
 * core to the process's end (runtime/README.md, "Teardown"). */
void jvmtirt_shutdown(void);

/* ---- the VM's functions (port.c) ----
 * Writes one line to out (if not NULL) for every capability withdrawn at
 * init because its functions are all at their defaults and for every
 * function the VM left at its NOT_AVAILABLE default that an agent can reach
 * (it needs no capability, or a potential one). Returns the number of such
 * functions that need no capability. */
int jvmtirt_report_defaults(FILE *out);

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
 * config.thread_id); kind: JVMTIRT_JAVA_THREAD or JVMTIRT_VM_THREAD.
 * The first call also tells the trampolines that the VM now has threads. */
void jvmtirt_thread_start(uintptr_t id, jvmtirt_thread_kind kind);
/* Drops the thread's per-thread event settings and frame-pop requests; it
 * becomes unattached. */
void jvmtirt_thread_end(void);
/* The VM's id of the calling thread, or 0 if it never started. */
uintptr_t jvmtirt_current_thread_id(void);
/* For a jthread parameter the trampolines pass on unchecked (the spec's
 * impl="noconvert": jvmtigen_impl.h says "NOT checked" above each such
 * function): JVMTI_ERROR_NONE and the VM's id of the thread in *id_out (if
 * not NULL), or the error to return. NULL is the calling thread where
 * null_is_current (the spec's null="current"; JVMTI_ERROR_UNATTACHED_THREAD
 * if it never started), else JVMTI_ERROR_INVALID_THREAD; any other value
 * goes through config.check_thread (INVALID_THREAD, THREAD_NOT_ALIVE), then
 * config.thread_id, and must be a started thread that has not ended
 * (THREAD_NOT_ALIVE). Any thread; takes rt's lock briefly. */
jvmtiError jvmtirt_resolve_thread(jvmtiEnv *env, jthread thread, int null_is_current,
                                  uintptr_t *id_out);
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

/* ---- frames ---- */

/* On the thread whose frame (armed through config.frame_pop_arm) pops:
 * posts FramePop to the environments that asked for that frame (and still
 * have the event enabled), then forgets their requests. thread: that
 * thread's jthread; frame: the key config.frame_at gave. */
void jvmtirt_frame_popped(JNIEnv *jni, jthread thread, jmethodID method,
                          jboolean was_popped_by_exception, uintptr_t frame);
/* ---- metadata (runtime/README.md, "Metadata") ----
 * The VM hands each class over once, before its ClassPrepare is posted
 * (and before any of its method or field IDs reaches an agent), on any
 * thread, holding no lock that a JVM TI call could wait for (the core
 * takes its metadata lock, a leaf). The class is named by its jclass,
 * mapped through config.class_id; the core keeps no reference, only the
 * identity (config.class_ref makes one when an agent asks). Handing a
 * class over again replaces what the core had. */

/* Checks that bytes[0..len) is a class file the core can read (JVMS 4:
 * magic, constant pool, members, the attributes the core reads, nothing
 * after the end) and counts its methods and fields. Returns
 * JVMTI_ERROR_NONE, or JVMTI_ERROR_INVALID_CLASS_FORMAT with a one-line
 * reason in why (if why_size > 0: "byte 123: ..."). Keeps nothing. */
jvmtiError jvmtirt_class_check(const unsigned char *bytes, jint len, jint *n_methods,
                               jint *n_fields, char *why, size_t why_size);
/* The class klass was defined from bytes (the bytes the VM defined it
 * from: the end of the ClassFileLoadHook chain). method_ids[i] is the
 * VM's jmethodID of the class file's i-th method, field_ids[i] its
 * jfieldID of the i-th field (the counts jvmtirt_class_check gives).
 * The core reads and copies what it answers from (the bytes are not
 * kept). JVMTI_ERROR_INVALID_CLASS_FORMAT (the core keeps nothing; the
 * reason from jvmtirt_class_check), NULL_POINTER, OUT_OF_MEMORY. */
jvmtiError jvmtirt_class_define(jclass klass, const unsigned char *bytes, jint len,
                                const jmethodID *method_ids, const jfieldID *field_ids);
/* The same for a class without class-file bytes (built in, generated):
 * desc, copied. ILLEGAL_ARGUMENT for a negative count or a member without
 * name or signature. */
jvmtiError jvmtirt_class_describe(jclass klass, const jvmtirt_class_desc *desc);
/* A ready config.local_type for a VM whose methods' local variable tables
 * are the ones it handed over (jvmtirt_class_define, _describe): the
 * declared type of the variable in slot at location;
 * JVMTI_ERROR_INVALID_SLOT where the method's table has none there,
 * JVMTI_ERROR_ABSENT_INFORMATION for a method without a table (or one not
 * handed over). */
jvmtiError jvmtirt_class_local_type(jmethodID method, jlocation location, jint slot, char *type);
/* The class is unloaded (or its IDs are no longer valid): the core forgets
 * it and its method IDs (they answer INVALID_METHODID). Same rules. */
void jvmtirt_class_unload(jclass klass);
/* The native method prefixes, in the order a VM applies them when it
 * resolves a native method (runtime/README.md, "Native method prefixes"):
 * environments that cannot retransform classes first, then those that can,
 * creation order within each; each environment's prefixes in the order it
 * gave them. One malloc'd block (free() it once); *count gets how many;
 * NULL with *count = 0 when there are none (or out of memory). */
char **jvmtirt_native_method_prefixes(jint *count);

/* ---- classes: loading, for retransformation (runtime/README.md,
 * "Retransformation and redefinition") ----
 * The VM defines a class from a class file in three steps:
 *   kept = jvmtirt_class_file_load(jni, loader, name, pd, len, bytes,
 *                                  &new_len, &new_bytes);
 *   define the class from new_bytes (new_len), or from bytes if new_bytes
 *   stayed NULL; free new_bytes with jvmtirt_post_deallocate;
 *   jvmtirt_class_defined(klass, kept);  (klass NULL: the definition failed)
 * jvmtirt_class_file_load posts ClassFileLoadHook (class_being_redefined
 * NULL) first to the environments without can_retransform_classes, then
 * to those with it (the same order as jvmtirt_post_ClassFileLoadHook), and
 * copies what the first group handed to the second: the bytes a later
 * RetransformClasses restarts from. It copies nothing (and returns NULL)
 * when no environment can ever hold can_retransform_classes (not in
 * config.potential) or out of memory: such a class is not retransformable
 * (RetransformClasses answers UNMODIFIABLE_CLASS for it). On the loading
 * thread, no lock held; the core's own lock is held only to copy. The
 * VM's bytes stay the VM's; *new_class_data is set as by
 * jvmtirt_post_ClassFileLoadHook. Cost per class kept: the first group's
 * output (class_data_len bytes when it changed nothing), the name, and
 * about 40 bytes. */
jvmtirt_class_file *jvmtirt_class_file_load(JNIEnv *jni, jobject loader, const char *name,
                                            jobject protection_domain, jint class_data_len,
                                            const unsigned char *class_data,
                                            jint *new_class_data_len,
                                            unsigned char **new_class_data);
/* Gives kept (may be NULL) to the class just defined from it, keyed by the
 * class's identity (config.object_id, or the jclass value when NULL), or,
 * with klass NULL, frees it. Any thread, no lock held. */
void jvmtirt_class_defined(jclass klass, jvmtirt_class_file *kept);
/* The class with that identity was unloaded: the core frees what it kept
 * for it (jvmtirt_shutdown frees the rest). Any thread, no lock held; not
 * during a RetransformClasses or RedefineClasses of that class (the agent
 * holds a reference to it then). */
void jvmtirt_class_unloaded(uintptr_t class_id);

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
    long env_slots;         /* environment slots allocated: live, disposed or free */
    long env_slot_bytes;    /* the memory they hold: kept until jvmtirt_shutdown */
} jvmtirt_stats;
void jvmtirt_get_stats(jvmtirt_stats *out);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* JVMTIRT_H */
