/* jvmti-host: a small program that plays the VM around jvmtigen's runtime
 * core, to run real JVM TI agents. Its "Java objects" are C structs with a
 * kind; references are their addresses. What each file offers the others,
 * by file, lowest layer first (tests/structure/host-layers). */
#ifndef JVMTI_HOST_H
#define JVMTI_HOST_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "jni.h"
#include "jvmtirt.h"

typedef enum host_kind {
    HOST_THREAD = 0x54485244,
    HOST_CLASS,
    HOST_STRING,
    HOST_METHOD,
    HOST_FIELD,
    HOST_OBJECT,  /* a plain java/lang/Object (objects.c) */
    HOST_INSTANCE, /* an object the test scaffolding made (scaffold/heap_model.c) */
    HOST_THREAD_GROUP, /* groups.c */
    HOST_STREAM,       /* System.out, a java/io/PrintStream (interp.c) */
    HOST_MODULE        /* a java/lang/Module (modules.c) */
} host_kind;

typedef struct host_object {
    host_kind kind;
} host_object;

typedef struct host_class {
    host_object obj;
    const char *name; /* "java/lang/Thread" */
    /* what the core's class functions read (config.class_info, classes.c) */
    const char *signature;   /* "Ljava/lang/Thread;", "[I" */
    jint modifiers;          /* access flags, as GetClassModifiers answers */
    const char *source_file; /* NULL: none known */
} host_class;

/* A method or field of one of the host's classes: a jmethodID or jfieldID
 * is its address. */
typedef struct host_member {
    host_object obj; /* HOST_METHOD or HOST_FIELD */
    int class_index; /* in host_classes; -1: a -load'ed class's (owner) */
    const char *name, *signature;
    jint modifiers;  /* as the class file says; handed to the core (classes.c) */
    const host_class *owner; /* a -load'ed class's member: its class */
    int max_locals, is_static; /* methods: their locals (an instance method's slot 0 is this) */
    jlocation code_length; /* a method's instructions: a built-in one's (builtins.c), a
                            * class file's bytes of code once the interpreter read them
                            * (interp.c); 0: none */
} host_member;

#define HOST_MAX_LOCALS 16 /* the interpreter refuses a method needing more */

/* The class that declares m. */
const host_class *host_member_class(const host_member *m);
/* Whether method m is native (ACC_NATIVE among its modifiers). */
static inline int host_is_native(const host_member *m) { return (m->modifiers & 0x0100) != 0; }

/* A frame of a thread's stack (stacks.c): the method and the instruction
 * it is at (its call, in a caller's frame; -1 in a native method). */
typedef struct host_frame {
    host_member *method;
    jlocation at;
    /* its locals: values and what each holds ('I', 'L'; 0: unset) */
    jvalue locals[HOST_MAX_LOCALS];
    char tags[HOST_MAX_LOCALS];
} host_frame;
#define HOST_MAX_FRAMES 32 /* the interpreter stops a program calling deeper */

/* A thread, and the JNIEnv it uses. */
typedef struct host_thread {
    host_object obj;
    const struct JNINativeInterface_ *jni; /* &jni is the thread's JNIEnv* */
    jthrowable pending;                   /* the "exception" JNI calls report */
    char name[32];
    int alive;                            /* started and not ended */
    int index;
    int agent_priority;                   /* an agent thread's (groups.c); 0: none */
    jthreadGroup group;                   /* its constructor's (jni_calls.c); NULL: the default */
    pthread_t pthread;
    struct host_thread *next_attached; /* attached through JNI: the host's list */
    /* suspension (suspend.c), under its lock; suspended also read atomically */
    int suspended, parked, in_java;
    /* its stack, top last (stacks.c): under the stacks' lock */
    host_frame frames[HOST_MAX_FRAMES];
    int height;
    /* PopFrame and ForceEarlyReturn (stacks.c), under the stacks' lock:
     * unwindable while the main chain's interpreter is at an instruction
     * (where its Breakpoint is posted); unwind, what the core asked for
     * (JVMTIRT_FRAME_POP or _RETURN, 0: nothing), done at the step's end */
    int unwindable, unwind;
    /* a thread object made by the interpreter's `new` of a class extending
     * java/lang/Thread (interp.c): that class; NULL: java/lang/Thread */
    const host_class *klass;
} host_thread;

/* ---- threads.c: the calling thread, and the VM's own threads ---- */

static inline host_thread *host_thread_of(jobject ref) /* NULL if not a thread */
{
    host_object *o = (host_object *)ref;
    return o && o->kind == HOST_THREAD ? (host_thread *)o : NULL;
}
static inline host_thread *host_thread_of_env(JNIEnv *jni)
{
    return (host_thread *)(void *)((char *)jni - offsetof(host_thread, jni));
}
static inline jthread host_jthread(host_thread *t) { return (jthread)&t->obj; }
/* The JNIEnv of the calling thread, or NULL if it is not attached; set
 * and cleared as a thread begins and finishes (lifecycle.c). */
JNIEnv *host_current_jni(void);
host_thread *host_current(void);
void host_current_set(host_thread *t);
/* The main thread, and the n workers (-threads:N) made once, before an
 * agent can list them (their objects outlive them: agents keep references). */
extern host_thread host_main_thread;
int host_workers_make(int n);
host_thread *host_worker(int i);
int host_n_workers(void);
/* Calls fn with the main thread's and each worker's thread object (the
 * members of group main) until it answers non-zero. */
void host_threads_each(int (*fn)(void *arg, jthread thread), void *arg);

/* ---- builtins.c: the classes and members the VM starts with ---- */

extern host_class host_classes[];
extern const int host_n_classes;
extern host_member host_members[];
extern const int host_n_members;
/* The class that declares m. */
const host_class *host_member_class(const host_member *m);
/* A built-in method or field by name (NULL: none). */
host_member *host_member_named(const char *name);
/* Hands the built-in classes (host_classes and their host_members) to the
 * core's metadata, described (they have no class file); 0 if it refused.
 * Once, after jvmtirt_init, before the agents can see a class. */
int host_classes_describe(void);
/* Hands one member-less class over (the scaffolding's heap model's). */
int host_class_describe_empty(host_class *c);

/* ---- objects.c: the heap ---- */

/* Plain objects made by JNI AllocObject and strings, counted references
 * (local and global alike; other kinds of objects ignore them), the core's
 * object_ref operation, a collector of the unreferenced ones (all = 1:
 * every object, at exit; returns how many it freed). */
jobject host_object_new(void);
/* A java/lang/String of len bytes of modified UTF-8 in the same heap
 * (host_string_new), and its text (NULL: not a string). */
jobject host_object_new_string(const char *text, size_t len);
const char *host_object_text(jobject ref);
void host_ref_add(jobject ref);
void host_ref_drop(jobject ref);
jobject host_object_ref(uintptr_t id);
/* ForceGarbageCollection, the VM function the port registers. */
jvmtiError host_force_gc(jvmtiEnv *env);
/* For the heap walks (heap.c): hold the heap still (on = 1: the collector
 * and AllocObject wait until on = 0), and each plain object (only those a
 * JNI reference holds: referenced_only), called while it is held. */
void host_heap_hold(int on);
void host_plain_each(int referenced_only, int (*fn)(void *ctx, uintptr_t id), void *ctx);

/* ---- suspend.c: suspension and safe points ---- */

/* The core's operations, and the safe points: a move of a thread's stack
 * runs between move_begin (which stops while the thread is suspended) and
 * move_end; host_safepoint is one outside a move. A thread between
 * java_enter and java_leave runs "Java code" (it counts as running, not as
 * stopped, for SuspendThread) and must pass host_safepoint often. */
jvmtiError host_suspend_thread(uintptr_t id, int is_current);
jvmtiError host_resume_thread(uintptr_t id);
void host_move_begin(host_thread *t);
void host_move_end(void);
void host_safepoint(host_thread *t);
void host_java_enter(host_thread *t);
void host_java_leave(host_thread *t);

/* ---- javahome.c, extensions.c, modules.c ---- */

/* java.home and what comes from it: the properties a JDK's agents read
 * (java.home, sun.boot.library.path, ...), defined once after
 * jvmtirt_init; the file -agentlib:NAME loads (malloc'ed; NULL with a
 * message when there is none); and the placeholders of the JDK's own
 * libraries, loaded before any agent where they are installed. */
void host_java_home_setup(void);
char *host_agentlib_path(const char *name);
void host_jdk_placeholders_load(void);
/* The extension function and event every run has: registered before
 * agents load; the event posted when Main.main returns. */
void host_extensions_setup(void);
void host_extensions_post_main_returned(JNIEnv *jni, jthread thread);
/* Modules: the core's each_module, named_module, module_info and
 * module_update over two modules, java.base (named: java/lang) and the
 * unnamed module; each update is printed ("jvmti-host: module ..."). */
void host_modules_configure(jvmtirt_config *c);

/* ---- stacks.c: each thread's stack ---- */

/* The core's walk_stacks, thread_state, frame_slot and frame_return,
 * added to the config by configure; thread_begin / _end reset a thread's
 * stack; push, at and pop are how a thread's "interpreter" moves its own
 * stack (each a safe point). */
void host_stacks_configure(jvmtirt_config *c);
void host_stacks_thread_begin(host_thread *t);
void host_stacks_thread_end(host_thread *t);
void host_stack_push(host_thread *t, host_member *m);
void host_stack_at(host_thread *t, jlocation at);
void host_stack_pop(host_thread *t);
/* The top frame's local in slot (the interpreter's store). */
void host_stack_store(host_thread *t, int slot, char tag, jvalue value);
/* Frame `depth` of a thread that is the caller or suspended (0: top): the
 * method, and the frame's height as its key; NO_MORE_FRAMES. */
jvmtiError host_stack_frame(const host_thread *t, jint depth, host_member **method, jint *height);
/* PopFrame and ForceEarlyReturn: whether t's top frame can be unwound now
 * (the built-in chain at an instruction, programs.c), and what the core
 * asked for meanwhile (JVMTIRT_FRAME_POP or _RETURN; 0: nothing), taken. */
void host_stack_unwindable(host_thread *t, int on);
int host_stack_take_unwind(host_thread *t);

/* ---- classes.c: classes from class files ---- */

/* The core's class operations (class_info, class_modifiable,
 * install_classes, class_by_name, each_class) and the capabilities to
 * retransform and redefine classes, added to the config. */
void host_classes_configure(jvmtirt_config *c);
/* -load:FILE: class files to load once the VM is live, each posting
 * ClassFileLoadHook, ClassLoad and ClassPrepare on the calling thread
 * (returns 0 if one could not be loaded); the classes are freed at exit. */
void host_classes_add_file(const char *path);
int host_classes_load(JNIEnv *jni, jobject thread);
/* config.class_by_name: a class of the host by its internal name, or NULL. */
jclass host_class_by_name(jclass from, const char *name);
/* A class file's constant pool (JVMS 4.4), count entries from offset 10
 * of the n bytes b: the offset of each entry's tag in at[1] to
 * at[count - 1] (the second slot of a long or double left as it was), and
 * the offset just past the pool; 0 when the bytes end inside it or hold an
 * unknown tag. */
size_t host_class_file_pool(const unsigned char *b, size_t n, unsigned count, size_t *at);
/* One class file loaded as -load does: the class, or NULL with a message;
 * defined(klass, arg), if not NULL, runs once the class is defined, before
 * ClassLoad and ClassPrepare (0: stop there). The bytes it was defined
 * from and its members (methods first, in the class file's order) are
 * kept until exit. */
jclass host_class_load_file(JNIEnv *jni, jthread thread, const char *path,
                            int (*defined)(jclass klass, void *arg), void *arg);
const unsigned char *host_class_bytes(jclass klass, size_t *len, host_member **members);
/* A -load'ed class's superclass as its class file names it; NULL for the
 * others (java/lang/Object's subclasses, as jni_classes.c has it). */
const char *host_class_super_name(jclass klass);

/* ---- groups.c, monitors.c, heap.c: more of the core's operations ---- */

/* Thread groups and the thread objects JNI makes: the core's
 * thread_group_members and thread_group_info; a thread's group; a new
 * java/lang/Thread (JNI AllocObject); Thread(ThreadGroup, String): its
 * group and name, before it starts. */
void host_groups_configure(jvmtirt_config *c);
jthreadGroup host_thread_group_of(host_thread *t);
jobject host_thread_new(void);
void host_thread_construct(host_thread *t, jthreadGroup group, const char *name);
/* Java monitors: the core's owned_monitors, contended_monitor and
 * monitor_usage over the stacks (Main.main holds class Main's monitor,
 * Thread.run its thread's), and their capabilities; after
 * host_stacks_configure (it reads the stack walk). */
void host_monitors_configure(jvmtirt_config *c);
/* The heap walks: the core's heap operations over the VM's objects. */
void host_heap_configure(jvmtirt_config *c);

/* ---- frames.c: breakpoints, field watches, frame pops, the JNI table ---- */

/* configure adds the area's capabilities and operations to the core's
 * config (own: the VM's JNI table, until an agent sets another);
 * thread_begin and _end keep the threads whose JNIEnv follows
 * SetJNIFunctionTable. The interpreters' moves: a call (the frame pushed,
 * then MethodEntry), before the instruction at of m (SingleStep, then
 * Breakpoint when armed), a read (value NULL) or write of field f
 * (FieldAccess, FieldModification when watched) and a return of value
 * (MethodExit, then FramePop when armed, then the frame popped;
 * host_frames_return: no value). */
void host_frames_configure(jvmtirt_config *c, const struct JNINativeInterface_ *own);
void host_frames_thread_begin(host_thread *t);
void host_frames_thread_end(host_thread *t);
void host_frames_enter(host_thread *t, host_member *m);
void host_frames_step(host_thread *t, host_member *m, jlocation at);
void host_frames_field(host_thread *t, host_member *m, jlocation at, host_member *f,
                       const jvalue *value);
void host_frames_return(host_thread *t);
void host_frames_return_value(host_thread *t, jvalue value);

/* ---- programs.c: what the VM runs without -cp ---- */

/* The main thread's program once the VM is live: Main.main calls
 * ConfChain.a, which calls b, which calls c (each call at location 0, as
 * javac compiles tests/conformance/Main.java); a worker's: Thread.run. */
void host_programs_main(host_thread *t);
void host_programs_worker(host_thread *t);

/* ---- lifecycle.c: a thread's life ---- */

/* The core's thread operations (thread_id, thread_ref, thread_info, the
 * checks, start_agent_thread) added to the config. begin makes t a running
 * VM thread on the calling OS thread and posts ThreadStart (post = 1);
 * finish posts ThreadEnd (post = 1) and ends it. workers_run runs the
 * workers (host_workers_make), each on a thread of its own, to their end. */
void host_threads_configure(jvmtirt_config *c);
void host_thread_begin(host_thread *t, const char *name, int post);
void host_thread_finish(host_thread *t, int post);
void host_workers_run(void);

/* ---- javavm.c, jni.c: the invocation interface and JNI ---- */

extern JavaVM host_vm;
/* The JNI function table (jni.c, from jni_*.c). */
const struct JNINativeInterface_ *host_jni_functions(void);
/* A String of len bytes of modified UTF-8 (jni_strings.c), holding the
 * one reference it comes with: ldc's constants (interp.c, kept for the
 * run) and NewStringUTF. NULL when out of memory. */
jstring host_string_new(const char *utf, size_t len);

/* ---- interp.c: -cp DIR CLASS ---- */

/* Loads DIR/CLASS.class as -load does and interprets its main(String[])
 * on t; 0 with a message on stderr if the class cannot be loaded or the
 * program stops outside the subset. */
int host_interp_main(host_thread *t, const char *dir, const char *class_name);

/* ---- agents.c, options.c, port.c: start-up ---- */

/* The command line: the agents, -threads:N (the workers), -load files,
 * -cp DIR CLASS; 0 after the usage message for a bad one. */
typedef struct host_agent {
    char *path, *options; /* -agentpath:PATH=OPTIONS */
    int by_name;          /* -agentlib: path is the library's NAME */
    char *arg;            /* -agentlib: NAME's buffer, which options point into */
    void *handle;         /* dlopen's, once loaded */
} host_agent;
typedef struct host_options {
    host_agent *agents;
    int n_agents, n_threads;
    const char *class_path, *main_class; /* -cp DIR CLASS (interp.c); NULL: none */
} host_options;
int host_options_parse(int argc, char **argv, host_options *o);
/* The port: jvmtirt_init with what this VM can do and how the core asks
 * it; then the built-in classes, the extensions and the properties. 0 if
 * the core refused. */
int host_port_init(void);
/* OnLoad: each agent's Agent_OnLoad in command-line order (0 at the first
 * that fails, with a message); Agent_OnUnload of each that loaded. */
int host_agents_load(host_agent *agents, int n);
void host_agents_unload(void);

#endif
