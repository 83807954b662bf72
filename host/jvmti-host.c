/* jvmti-host: plays the VM around jvmtigen's runtime core, to run real
 * JVM TI agents and to show how a VM wires the core in:
 *
 *   jvmtirt_init        what the VM can do (capabilities, hooks)
 *   JavaVM->GetEnv      -> jvmtirt_get_env for JVMTI versions
 *   the phases          OnLoad, primordial, start, live, dead
 *   threads             jvmtirt_thread_start / _end on each thread
 *   events              jvmtirt_post_VMStart(...) and friends
 *
 * usage: jvmti-host [-agentpath:PATH[=OPTIONS]]... [-agentlib:NAME[=OPTIONS]]...
 *                   [-threads:N] [-all-capabilities] [-heap:N]
 *                   [-soak:SECONDS] [-work:SECONDS] [-load:FILE]... [-dump-classes:DIR]
 *                   [-cp DIR CLASS | CLASS]
 * With -cp, DIR/CLASS.class is loaded and its main(String[]) interpreted
 * (interp.c); without it CLASS is accepted like java's main class and
 * ignored, and the main thread runs a built-in chain (stacks.c). -soak
 * keeps the threads posting events for that long (soak.c);
 * -work has each thread run "Java code" for that long, with safe points
 * where a suspended thread stops (suspend.c). */
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "jvmtigen_impl.h"
#include "jvmtigen_post.h"
#include "jvmtigen_tables.h"
#include "jvmtirt.h"

/* ---- objects ---- */

/* Access flags as javac writes them (0x1 public, 0x10 final, 0x20 super);
 * Main and ConfChain as tests/conformance/Main.java declares them. */
host_class host_classes[] = {
    {{HOST_CLASS}, "java/lang/Object", "Ljava/lang/Object;", 0x21, "Object.java"},
    {{HOST_CLASS}, "java/lang/Class", "Ljava/lang/Class;", 0x31, "Class.java"},
    {{HOST_CLASS}, "java/lang/String", "Ljava/lang/String;", 0x31, "String.java"},
    {{HOST_CLASS}, "java/lang/Thread", "Ljava/lang/Thread;", 0x21, "Thread.java"},
    {{HOST_CLASS}, "Main", "LMain;", 0x21, "Main.java"},
    {{HOST_CLASS}, "ConfChain", "LConfChain;", 0x20, "Main.java"}, /* stacks.c */
    /* what libjdwp looks up as it starts (jni_calls.c, tests/jdb) */
    {{HOST_CLASS}, "java/lang/ThreadGroup", "Ljava/lang/ThreadGroup;", 0x21, "ThreadGroup.java"},
    {{HOST_CLASS}, "java/lang/ClassLoader", "Ljava/lang/ClassLoader;", 0x421, "ClassLoader.java"},
    {{HOST_CLASS}, "java/lang/System", "Ljava/lang/System;", 0x31, "System.java"},
    {{HOST_CLASS}, "java/util/Properties", "Ljava/util/Properties;", 0x21, "Properties.java"},
};
const int host_n_classes = (int)(sizeof host_classes / sizeof *host_classes);

/* A few members, so that agents can hold real method and field IDs (there
 * is no bytecode behind them). class_index: in host_classes above; a
 * method's locals (max_locals, is_static: stacks.c). */
host_member host_members[] = {
    /* modifiers as JDK 17's classes declare them */
    {{HOST_METHOD}, 0, "toString", "()Ljava/lang/String;", 0x0001, NULL, 1, 0}, /* public */
    {{HOST_METHOD}, 0, "hashCode", "()I", 0x0101, NULL, 1, 0},                   /* public native */
    {{HOST_METHOD}, 3, "getName", "()Ljava/lang/String;", 0x0011, NULL, 1, 0},  /* public final */
    {{HOST_METHOD}, 3, "run", "()V", 0x0001, NULL, 2, 0}, /* this, and i: the instruction it is at */
    {{HOST_FIELD}, 3, "name", "Ljava/lang/String;", 0x0042, NULL, 0, 0}, /* private volatile */
    {{HOST_FIELD}, 3, "priority", "I", 0x0002, NULL, 0, 0},              /* private */
    /* the call chain the main thread runs (stacks.c), as in tests/conformance/Main.java */
    {{HOST_METHOD}, 4, "main", "([Ljava/lang/String;)V", 0x0029, NULL, 1, 1}, /* public static synchronized (monitors.c); args: null */
    {{HOST_METHOD}, 5, "a", "()V", 0x0008, NULL, 0, 1},                       /* static */
    {{HOST_METHOD}, 5, "b", "()V", 0x0008, NULL, 0, 1},
    {{HOST_METHOD}, 5, "c", "()V", 0x0008, NULL, 0, 1},
    /* run by JNI calls (jni_calls.c); setProperty only looked up */
    {{HOST_METHOD}, 3, "<init>", "(Ljava/lang/ThreadGroup;Ljava/lang/String;)V", 0x0001, NULL, 3, 0},
    {{HOST_METHOD}, 3, "setDaemon", "(Z)V", 0x0011, NULL, 2, 0},         /* public final */
    {{HOST_METHOD}, 3, "resume", "()V", 0x0011, NULL, 1, 0},             /* JDK 17's libjdwp */
    {{HOST_METHOD}, 8, "getProperty", "(Ljava/lang/String;)Ljava/lang/String;", 0x0009, NULL, 1, 1},
    {{HOST_METHOD}, 9, "setProperty", "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/Object;",
     0x0021, NULL, 3, 0},                                                    /* public synchronized */
};
const int host_n_members = (int)(sizeof host_members / sizeof *host_members);

static JVMTIGEN_TLS host_thread *current;

JNIEnv *host_current_jni(void) { return current ? (JNIEnv *)&current->jni : NULL; }

host_thread *host_thread_of(jobject ref)
{
    host_object *o = (host_object *)ref;
    return o && o->kind == HOST_THREAD ? (host_thread *)o : NULL;
}

host_thread *host_thread_of_env(JNIEnv *jni)
{
    return (host_thread *)(void *)((char *)jni - offsetof(host_thread, jni));
}

static jthread jthread_of(host_thread *t) { return (jthread)&t->obj; }

void host_thread_begin(host_thread *t, const char *name, int post)
{
    if (t->obj.kind != HOST_THREAD) /* set already where others may read it */
        t->obj.kind = HOST_THREAD;
    t->jni = host_jni_functions();
    host_frames_thread_begin(t);
    host_stacks_thread_begin(t);
    if (name != t->name) /* a worker's name is set already: copying it onto itself emptied it */
        snprintf(t->name, sizeof t->name, "%s", name);
    __atomic_store_n(&t->alive, 1, __ATOMIC_RELEASE);
    current = t;
    jvmtirt_thread_start((uintptr_t)t, JVMTIRT_JAVA_THREAD);
    if (post)
        jvmtirt_post_ThreadStart((JNIEnv *)&t->jni, jthread_of(t));
}

void host_thread_finish(host_thread *t, int post)
{
    if (post)
        jvmtirt_post_ThreadEnd((JNIEnv *)&t->jni, jthread_of(t));
    jvmtirt_thread_end();
    host_frames_thread_end(t);
    host_stacks_thread_end(t);
    __atomic_store_n(&t->alive, 0, __ATOMIC_RELEASE);
    current = NULL;
}

/* ---- the VM hooks: which handles are real ---- */

static jvmtiError check_thread(jvmtiEnv *env, jthread thread)
{
    (void)env;
    host_thread *t = host_thread_of(thread);
    if (!t)
        return JVMTI_ERROR_INVALID_THREAD;
    return __atomic_load_n(&t->alive, __ATOMIC_ACQUIRE) ? JVMTI_ERROR_NONE
                                                        : JVMTI_ERROR_THREAD_NOT_ALIVE;
}

static jvmtiError check_class(jvmtiEnv *env, jclass klass, int of_member)
{
    (void)env, (void)of_member;
    return ((host_object *)klass)->kind == HOST_CLASS ? JVMTI_ERROR_NONE
                                                      : JVMTI_ERROR_INVALID_CLASS;
}

static host_member *member_of(const void *id, host_kind kind)
{
    const host_object *o = id;
    return o && o->kind == kind ? (host_member *)(uintptr_t)id : NULL;
}

static jvmtiError check_method(jvmtiEnv *env, jmethodID method)
{
    (void)env;
    return member_of(method, HOST_METHOD) ? JVMTI_ERROR_NONE : JVMTI_ERROR_INVALID_METHODID;
}

/* A field ID is valid with the class that declares it. */
static jvmtiError check_field(jvmtiEnv *env, jclass klass, jfieldID field)
{
    (void)env;
    host_member *f = member_of(field, HOST_FIELD);
    return f && (!klass || (jclass)&host_member_class(f)->obj == klass)
               ? JVMTI_ERROR_NONE
               : JVMTI_ERROR_INVALID_FIELDID;
}

static uintptr_t thread_id(jthread thread) { return (uintptr_t)host_thread_of(thread); }

/* The core's GetCurrentThread and GetAllThreads ask for the thread object
 * of an id: ids are host_thread addresses, and thread objects live until
 * the process ends. */
static jthread thread_ref(uintptr_t id) { return jthread_of((host_thread *)id); }

/* GetThreadInfo's facts. The main thread and the workers are in group
 * main at Java's default priority, 5; an agent thread is a daemon in no
 * group, at the priority RunAgentThread gave (groups.c). The host has no
 * class loaders (NULL). */
static jvmtiError thread_info(jthread thread, jvmtirt_thread_info *out)
{
    host_thread *t = host_thread_of(thread);
    out->name = t->name;
    out->priority = t->agent_priority ? t->agent_priority : 5;
    out->is_daemon = t->agent_priority ? JNI_TRUE : JNI_FALSE;
    out->thread_group = host_thread_group_of(t);
    return JVMTI_ERROR_NONE;
}

/* ---- the JavaVM ---- */

static jint JNICALL get_env(JavaVM *vm, void **penv, jint version)
{
    (void)vm;
    if ((version & JVMTI_VERSION_MASK_INTERFACE_TYPE) == JVMTI_VERSION_INTERFACE_JVMTI)
        return jvmtirt_get_env(penv, version);
    /* JNI: a thread that is not attached learns that first (as in HotSpot,
     * whatever the version). */
    *penv = NULL;
    if (!host_current_jni())
        return JNI_EDETACHED;
    switch (version) {
    case JNI_VERSION_1_1: case JNI_VERSION_1_2: case JNI_VERSION_1_4: case JNI_VERSION_1_6:
    case JNI_VERSION_1_8: case JNI_VERSION_9: case JNI_VERSION_10:
        *penv = host_current_jni();
        return JNI_OK;
    }
    return JNI_EVERSION;
}

static jint JNICALL destroy_vm(JavaVM *vm)
{
    (void)vm;
    return JNI_ERR; /* the host decides when it ends */
}

/* Threads attached through JNI: their objects live until the host exits
 * (agents may keep references), on this list. */
static host_thread *attached;
static pthread_mutex_t attached_lock = PTHREAD_MUTEX_INITIALIZER;

static jint JNICALL attach(JavaVM *vm, void **penv, void *args)
{
    (void)vm, (void)args;
    if (!current) {
        host_thread *t = calloc(1, sizeof *t);
        if (!t)
            return JNI_ENOMEM;
        pthread_mutex_lock(&attached_lock);
        t->next_attached = attached;
        attached = t;
        pthread_mutex_unlock(&attached_lock);
        host_thread_begin(t, "attached", 1);
    }
    *penv = host_current_jni();
    return JNI_OK;
}

static jint JNICALL detach(JavaVM *vm)
{
    (void)vm;
    if (current)
        host_thread_finish(current, 1);
    return JNI_OK;
}

static const struct JNIInvokeInterface_ invoke = {
    .DestroyJavaVM = destroy_vm,
    .AttachCurrentThread = attach,
    .DetachCurrentThread = detach,
    .GetEnv = get_env,
    .AttachCurrentThreadAsDaemon = attach,
};
JavaVM host_vm = &invoke;

/* ---- agents ---- */

typedef jint (JNICALL *agent_onload_fn)(JavaVM *, char *, void *);
typedef void (JNICALL *agent_onunload_fn)(JavaVM *);

typedef struct agent {
    char *path, *options;
    int by_name; /* -agentlib: path is the library's NAME */
    char *arg;   /* -agentlib: NAME's buffer, which options point into */
    void *handle;
} agent;

static int load_agent(agent *a)
{
    if (a->by_name) { /* -agentlib:NAME: the JDK's library of that name (javahome.c) */
        char *path = host_agentlib_path(a->path);
        if (!path)
            return 0;
        a->arg = a->path; /* NAME, and the options after it */
        a->path = path;
    }
    a->handle = dlopen(a->path, RTLD_NOW | RTLD_LOCAL);
    if (!a->handle) {
        fprintf(stderr, "jvmti-host: cannot load agent %s: %s\n", a->path, dlerror());
        return 0;
    }
    agent_onload_fn onload = (agent_onload_fn)(uintptr_t)dlsym(a->handle, "Agent_OnLoad");
    if (!onload) {
        fprintf(stderr, "jvmti-host: %s has no Agent_OnLoad\n", a->path);
        return 0;
    }
    jint rc = onload(&host_vm, a->options, NULL);
    if (rc != JNI_OK) {
        fprintf(stderr, "jvmti-host: Agent_OnLoad of %s returned %d\n", a->path, (int)rc);
        return 0;
    }
    return 1;
}

/* Calls Agent_OnUnload; the library stays loaded (as in HotSpot): the
 * agent's own threads may still be running its code. */
static void unload_agent(agent *a)
{
    agent_onunload_fn onunload =
        (agent_onunload_fn)(uintptr_t)dlsym(a->handle, "Agent_OnUnload");
    if (onunload)
        onunload(&host_vm);
}

/* ---- the program's threads ---- */

static double soak_seconds;  /* -soak: 0 = no soak */
static double java_seconds;  /* -work: each worker's "Java code" (suspend.c) */
static int workers_running;  /* atomic */

static int workers_busy(void) { return __atomic_load_n(&workers_running, __ATOMIC_ACQUIRE) > 0; }

static void *thread_main(void *arg)
{
    host_thread *t = arg;
    host_thread_begin(t, t->name, 1);
    /* A thread's "work": a few calls that agents can observe, or under
     * -soak events in a loop. */
    if (soak_seconds > 0)
        host_soak_work(t);
    else
        host_frames_run(t);
    if (java_seconds > 0)
        host_run_java(t, java_seconds);
    host_thread_finish(t, 1);
    __atomic_sub_fetch(&workers_running, 1, __ATOMIC_RELEASE);
    return NULL;
}

static void usage(void)
{
    fputs("usage: jvmti-host [-agentpath:PATH[=OPTIONS]]... [-agentlib:NAME[=OPTIONS]]...\n"
          "                  [-threads:N] [-all-capabilities]\n"
          "                  [-soak:SECONDS] [-work:SECONDS] [-load:FILE]... [-dump-classes:DIR]\n"
          "                  [-heap:N] [-cp DIR CLASS | CLASS]\n"
          "Loads each agent (-agentlib:NAME: JAVA_HOME's lib/libNAME.so, see README.md),\n"
          "walks the VM phases, runs N threads (default 2) and\n"
          "posts VMStart, VMInit, ThreadStart, ThreadEnd and VMDeath.\n"
          "-all-capabilities offers every capability (the functions the host does\n"
          "not implement still answer NOT_AVAILABLE once their checks pass).\n"
          "With -soak the threads post ClassLoad, ClassPrepare, DataDumpRequest and\n"
          "garbage collection events for that many seconds, and the host checks that\n"
          "the core's memory returns to where it was.\n"
          "With -work each thread runs \"Java code\" for that many seconds, stopping\n"
          "at its safe points while an agent has it suspended.\n"
          "-load:FILE loads a class file once the VM is live (ClassFileLoadHook,\n"
          "ClassLoad, ClassPrepare); -dump-classes:DIR writes the bytes each class\n"
          "was defined with, after the agents' changes, to DIR/NAME.class.\n"
          "-heap:N builds the heap model (a HeapRoot holding N HeapNodes, an int[]\n"
          "and a String) before VMInit, for the heap walks.\n"
          "-cp DIR CLASS loads DIR/CLASS.class once the VM is live and interprets its\n"
          "main(String[]) (a subset of the JVM's instructions, host/interp.c) instead\n"
          "of the built-in Main.main chain; without -cp, CLASS is ignored.\n",
          stderr);
}

/* What agents may still reach while the process ends: the agents (their
 * options), the thread objects, the core. See the end of main. */
static agent *agents;
static host_thread main_thread;
static host_thread *workers;
static int n_workers;

void host_threads_each(int (*fn)(void *arg, jthread thread), void *arg)
{
    if (fn(arg, jthread_of(&main_thread)))
        return;
    for (int i = 0; i < n_workers; i++)
        if (fn(arg, jthread_of(&workers[i])))
            return;
}

int main(int argc, char **argv)
{
    agents = calloc((size_t)argc, sizeof *agents);
    int n_agents = 0, n_threads = 2, all_capabilities = 0;
    long heap_nodes = 0; /* -heap:N (host/heap.c) */
    const char *class_path = NULL, *main_class = NULL; /* -cp DIR CLASS (host/interp.c) */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "-agentpath:", 11) == 0 || strncmp(a, "-agentlib:", 10) == 0) {
            agent *ag = &agents[n_agents++];
            ag->by_name = a[6] == 'l';
            ag->path = strdup(strchr(a, ':') + 1);
            char *eq = strchr(ag->path, '=');
            if (eq) {
                *eq = '\0';
                ag->options = eq + 1;
            }
        } else if (strncmp(a, "-soak:", 6) == 0) {
            char *end;
            soak_seconds = strtod(a + 6, &end);
            if (*end || !(soak_seconds > 0 && soak_seconds <= 3600)) {
                n_threads = -1;
                break;
            }
        } else if (strncmp(a, "-work:", 6) == 0) {
            char *end;
            java_seconds = strtod(a + 6, &end);
            if (*end || !(java_seconds > 0 && java_seconds <= 3600)) {
                n_threads = -1;
                break;
            }
        } else if (strncmp(a, "-threads:", 9) == 0) {
            n_threads = atoi(a + 9);
            if (n_threads < 0 || n_threads > 1000)
                break;
        } else if (strncmp(a, "-load:", 6) == 0) {
            host_classes_add_file(a + 6);
        } else if (strncmp(a, "-dump-classes:", 14) == 0) {
            host_classes_dump_to(a + 14);
        } else if (strncmp(a, "-heap:", 6) == 0) {
            char *end;
            heap_nodes = strtol(a + 6, &end, 10);
            if (*end || heap_nodes < 1 || heap_nodes > 100000000) {
                n_threads = -1;
                break;
            }
        } else if (strcmp(a, "-all-capabilities") == 0) {
            all_capabilities = 1;
        } else if ((strcmp(a, "-cp") == 0 || strcmp(a, "-classpath") == 0) && i + 1 < argc) {
            class_path = argv[++i];
        } else if (a[0] == '-') {
            n_threads = -1;
            break;
        } else if (!main_class) {
            main_class = a; /* run with -cp, else ignored */
        }
    }
    if (class_path && !main_class)
        n_threads = -1; /* -cp without a class to run */
    if (n_threads < 0 || n_threads > 1000) {
        usage();
        for (int i = 0; i < n_agents; i++)
            free(agents[i].path);
        free(agents);
        return 2;
    }

    /* The port: what the VM can do, its checks, its functions. */
    jvmtirt_impl_table impls = JVMTIRT_IMPL_TABLE_INIT;
    jvmtirt_config config = JVMTIRT_CONFIG_INIT;
    impls.ForceGarbageCollection = host_force_gc;          /* host/objects.c */
    config.impls = &impls;
    config.thread_id = thread_id;
    config.thread_ref = thread_ref;                        /* GetCurrentThread, GetAllThreads */
    config.thread_info = thread_info;
    config.class_info = host_class_info;                   /* host/classes.c */
    config.class_modifiable = host_class_modifiable;       /* RetransformClasses, RedefineClasses */
    config.install_classes = host_install_classes;
    config.potential.can_retransform_classes = 1;
    config.potential.can_redefine_classes = 1;
    config.class_by_name = host_class_by_name;             /* GetImplementedInterfaces */
    config.check_thread = check_thread;
    config.check_class = check_class;
    config.check_method = check_method;
    /* method_is_native: the core's, from the modifiers handed over (classes.c) */
    config.check_field = check_field;
    config.potential.can_get_current_thread_cpu_time = 1;
    config.potential.can_generate_compiled_method_load_events = 1;
    config.potential.can_signal_thread = 1;
    config.onload_only.can_signal_thread = 1;
    config.potential.can_generate_garbage_collection_events = 1;
    config.potential.can_tag_objects = 1;                  /* host/objects.c */
    config.potential.can_get_thread_cpu_time = 1;
    config.potential.can_suspend = 1;                      /* host/suspend.c */
    config.potential.can_get_source_file_name = 1;         /* the core's, over class_info */
    config.potential.can_access_local_variables = 1;       /* the core's, over frame_slot (stacks.c) */
    config.potential.can_pop_frame = 1;                    /* and frame_return: the main chain's */
    config.potential.can_force_early_return = 1;
    config.local_type = jvmtirt_class_local_type;          /* the declared types: the core's tables */
    config.potential.can_get_line_numbers = 1;             /* the core's, from the class files */
    config.potential.can_get_bytecodes = 1;
    config.suspend_thread = host_suspend_thread;
    config.resume_thread = host_resume_thread;
    config.potential.can_generate_object_free_events = 1;
    /* The rest of what libjdwp cannot start without (tests/jdb): the core's
     * metadata answers the debug extension and the class file's order of
     * methods; single steps and method entries and exits are posted by every
     * moving frame (frames.c); exceptions and monitor events never happen
     * in the host's programs (see README.md). */
    config.potential.can_get_source_debug_extension = 1;
    config.potential.can_maintain_original_method_order = 1;
    config.potential.can_get_constant_pool = 1;
    config.potential.can_get_synthetic_attribute = 1;
    config.potential.can_generate_single_step_events = 1;
    config.potential.can_generate_exception_events = 1;
    config.potential.can_generate_method_entry_events = 1;
    config.potential.can_generate_method_exit_events = 1;
    config.potential.can_generate_monitor_events = 1;
#ifdef JVMTIGEN_HAS_can_support_virtual_threads /* JVM TI 21 on */
    /* The host has no virtual threads: SuspendAllVirtualThreads and
     * ResumeAllVirtualThreads act on none (no thread_is_virtual), and
     * VirtualThreadStart and VirtualThreadEnd, which may be enabled, never
     * come; JDK 25's libjdwp asks for it. */
    config.potential.can_support_virtual_threads = 1;
#endif
    config.object_ref = host_object_ref;
    /* The samples jvmtirt_init tries thread_id/thread_ref and the object
     * identity on: the main thread, whose object exists before it starts. */
    main_thread.obj.kind = HOST_THREAD;
    config.sample_thread = (uintptr_t)&main_thread;
    config.sample_object = jthread_of(&main_thread);
    host_frames_configure(&config);
    host_stacks_configure(&config);                        /* host/stacks.c */
    host_monitors_configure(&config);                      /* host/monitors.c */
    host_modules_configure(&config);                       /* host/modules.c */
    host_heap_configure(&config);                          /* host/heap.c */
    host_groups_configure(&config);                        /* host/groups.c */
    if (all_capabilities) {
        for (int b = 0; b < JVMTIRT_CAPABILITY_COUNT; b++)
            jvmtirt_capability_set(&config.potential, b, 1);
        config.offer_defaults = 1; /* see usage(): reaching the checks */
    }
    if (jvmtirt_init(&config) != JVMTI_ERROR_NONE || !host_classes_describe())
        return 1;
    host_extensions_setup();
    if (soak_seconds > 0)
        host_soak_setup(soak_seconds);
    jvmtirt_property_define("java.vm.name", "jvmti-host", 0);
    jvmtirt_property_define("java.vm.vendor", "jvmtigen", 0);
    jvmtirt_property_define("java.class.path", ".", 1);
    host_java_home_setup(); /* java.home, sun.boot.library.path, ... (javahome.c) */
    if (n_agents > 0)
        host_jdk_placeholders_load(); /* libjdwp.so needs libjvm.so and libjava.so */

    /* OnLoad: agents start before the VM has any thread. */
    int rc = 0;
    for (int i = 0; i < n_agents; i++)
        if (!load_agent(&agents[i])) {
            rc = 1;
            n_agents = i + (agents[i].handle != NULL);
            break;
        }

    int main_started = 0;
    /* Thread objects outlive their threads: agents may keep references. */
    workers = calloc((size_t)n_threads + 1, sizeof *workers);
    n_workers = workers ? n_threads : 0;
    /* Thread objects before any agent can list them (group main). */
    for (int i = 0; i < n_workers; i++)
        workers[i].obj.kind = HOST_THREAD;
    if (rc == 0) {
        jvmtirt_set_phase(JVMTI_PHASE_PRIMORDIAL);
        host_thread_begin(&main_thread, "main", 0);
        main_started = 1;
        JNIEnv *jni = host_current_jni();
        jvmtirt_set_phase(JVMTI_PHASE_START);
        jvmtirt_post_VMStart(jni);
        jvmtirt_set_phase(JVMTI_PHASE_LIVE);
        if (heap_nodes > 0 && !host_heap_build(heap_nodes, &main_thread)) {
            fprintf(stderr, "jvmti-host: -heap:%ld: out of memory\n", heap_nodes);
            rc = 1;
        }
        jvmtirt_post_VMInit(jni, jthread_of(&main_thread));
        if (!host_classes_load(jni, jthread_of(&main_thread)))
            rc = 1;
        if (class_path) { /* a real program: CLASS.main's bytecodes (host/interp.c) */
            /* The launcher's Java code before the main class loads: a safe
             * point, where a thread an agent suspended in VMInit (libjdwp's
             * suspend=y) waits to be resumed, as in HotSpot. */
            host_safepoint(&main_thread);
            if (!host_interp_main(&main_thread, class_path, main_class))
                rc = 1;
        } else {
            host_stacks_run_main(&main_thread); /* Main.main: a -> b -> c */
        }
        host_extensions_post_main_returned(jni, jthread_of(&main_thread));

        pthread_t *ids = calloc((size_t)n_threads + 1, sizeof *ids);
        if (soak_seconds > 0)
            host_soak_begin();
        __atomic_store_n(&workers_running, n_threads, __ATOMIC_RELEASE);
        for (int i = 0; i < n_threads; i++) {
            snprintf(workers[i].name, sizeof workers[i].name, "worker-%d", i);
            workers[i].index = i;
            pthread_create(&ids[i], NULL, thread_main, &workers[i]);
        }
        if (soak_seconds > 0)
            host_soak_watch(workers_busy);
        for (int i = 0; i < n_threads; i++)
            pthread_join(ids[i], NULL);
        free(ids);

        jvmtirt_post_VMDeath(jni);
        if (soak_seconds > 0 && host_soak_end(n_threads) > 0)
            rc = 1;
        jvmtirt_set_phase(JVMTI_PHASE_DEAD);
    }
    /* Agent_OnUnload runs on the main thread, still attached (as in a JVM,
     * where the thread that ends the VM calls it). */
    for (int i = 0; i < n_agents; i++)
        if (agents[i].handle)
            unload_agent(&agents[i]);
    if (main_started)
        host_thread_finish(&main_thread, 0);
    /* Teardown. Agents' own threads may still be calling JVM TI, and
     * running their code, after Agent_OnUnload: as a JVM does, the host
     * leaves the agents loaded and the core, the thread objects and the
     * agents' options in place until the process is gone, so that such a
     * call meets the dead phase (JVMTI_ERROR_WRONG_PHASE for a function not
     * allowed in it), never freed memory or unmapped code. A VM that has
     * stopped every thread that could call in may call jvmtirt_shutdown. */
    return rc;
}
