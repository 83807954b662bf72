/* The classes and members the VM starts with: C structs, no class file,
 * no bytecode (the programs that run over them are programs.c's). A class
 * or a member is its address: jclass, jmethodID and jfieldID alike. They
 * are handed to the core's metadata once (host_classes_describe), after
 * jvmtirt_init, so that the core's class, method and field functions
 * answer for them as for a class file's. */
#include <stdint.h>
#include <string.h>

#include "host.h"

/* Access flags as javac writes them (0x1 public, 0x10 final, 0x20 super);
 * Main and ConfChain as tests/conformance/Main.java declares them. */
host_class host_classes[] = {
    {{HOST_CLASS}, "java/lang/Object", "Ljava/lang/Object;", 0x21, "Object.java"},
    {{HOST_CLASS}, "java/lang/Class", "Ljava/lang/Class;", 0x31, "Class.java"},
    {{HOST_CLASS}, "java/lang/String", "Ljava/lang/String;", 0x31, "String.java"},
    {{HOST_CLASS}, "java/lang/Thread", "Ljava/lang/Thread;", 0x21, "Thread.java"},
    {{HOST_CLASS}, "Main", "LMain;", 0x21, "Main.java"},
    {{HOST_CLASS}, "ConfChain", "LConfChain;", 0x20, "Main.java"}, /* programs.c */
    /* what libjdwp looks up as it starts (jni_calls.c, tests/jdb) */
    {{HOST_CLASS}, "java/lang/ThreadGroup", "Ljava/lang/ThreadGroup;", 0x21, "ThreadGroup.java"},
    {{HOST_CLASS}, "java/lang/ClassLoader", "Ljava/lang/ClassLoader;", 0x421, "ClassLoader.java"},
    {{HOST_CLASS}, "java/lang/System", "Ljava/lang/System;", 0x31, "System.java"},
    {{HOST_CLASS}, "java/util/Properties", "Ljava/util/Properties;", 0x21, "Properties.java"},
};
const int host_n_classes = (int)(sizeof host_classes / sizeof *host_classes);

/* A few members, so that agents can hold real method and field IDs (there
 * is no bytecode behind them). class_index: in host_classes above; a
 * method's locals (max_locals, is_static: stacks.c) and its instructions
 * (code_length: Thread.run's and getName's are programs.c's; the others
 * never run, but a breakpoint may be set at 0..2). */
host_member host_members[] = {
    /* modifiers as JDK 17's classes declare them */
    {{HOST_METHOD}, 0, "toString", "()Ljava/lang/String;", 0x0001, NULL, 1, 0, 3}, /* public */
    {{HOST_METHOD}, 0, "hashCode", "()I", 0x0101, NULL, 1, 0, 0},                   /* public native */
    {{HOST_METHOD}, 3, "getName", "()Ljava/lang/String;", 0x0011, NULL, 1, 0, 4},  /* public final */
    {{HOST_METHOD}, 3, "run", "()V", 0x0001, NULL, 2, 0, 8}, /* this, and i: the instruction it is at */
    {{HOST_FIELD}, 3, "name", "Ljava/lang/String;", 0x0042, NULL, 0, 0, 0}, /* private volatile */
    {{HOST_FIELD}, 3, "priority", "I", 0x0002, NULL, 0, 0, 0},              /* private */
    /* the call chain the main thread runs (programs.c), as in tests/conformance/Main.java */
    {{HOST_METHOD}, 4, "main", "([Ljava/lang/String;)V", 0x0029, NULL, 1, 1, 3}, /* public static synchronized (monitors.c); args: null */
    {{HOST_METHOD}, 5, "a", "()V", 0x0008, NULL, 0, 1, 3},                       /* static */
    {{HOST_METHOD}, 5, "b", "()V", 0x0008, NULL, 0, 1, 3},
    {{HOST_METHOD}, 5, "c", "()V", 0x0008, NULL, 0, 1, 3},
    /* run by JNI calls (jni_calls.c); setProperty only looked up */
    {{HOST_METHOD}, 3, "<init>", "(Ljava/lang/ThreadGroup;Ljava/lang/String;)V", 0x0001, NULL, 3, 0, 3},
    {{HOST_METHOD}, 3, "setDaemon", "(Z)V", 0x0011, NULL, 2, 0, 3},         /* public final */
    {{HOST_METHOD}, 3, "resume", "()V", 0x0011, NULL, 1, 0, 3},             /* JDK 17's libjdwp */
    {{HOST_METHOD}, 8, "getProperty", "(Ljava/lang/String;)Ljava/lang/String;", 0x0009, NULL, 1, 1, 3},
    {{HOST_METHOD}, 9, "setProperty", "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/Object;",
     0x0021, NULL, 3, 0, 3},                                                 /* public synchronized */
};
const int host_n_members = (int)(sizeof host_members / sizeof *host_members);

const host_class *host_member_class(const host_member *m)
{
    return m->class_index >= 0 ? &host_classes[m->class_index] : m->owner;
}

host_member *host_member_named(const char *name)
{
    for (int i = 0; i < host_n_members; i++)
        if (strcmp(host_members[i].name, name) == 0)
            return &host_members[i];
    return NULL;
}

/* The core's metadata of one built-in class: its host_members, described
 * (no class file, so no code, tables nor version). */
static int describe(host_class *k, int index)
{
    jvmtirt_method_desc methods[8];
    jvmtirt_field_desc fields[8];
    jvmtirt_class_desc d = {.source_file = k->source_file, .methods = methods, .fields = fields};
    for (int i = 0; index >= 0 && i < host_n_members; i++) {
        const host_member *m = &host_members[i];
        if (m->class_index != index)
            continue;
        if (m->obj.kind == HOST_METHOD && d.n_methods < 8)
            methods[d.n_methods++] = (jvmtirt_method_desc){
                .id = (jmethodID)(uintptr_t)m, .name = m->name, .signature = m->signature,
                .modifiers = m->modifiers, .n_lines = -1, .n_locals = -1};
        else if (m->obj.kind == HOST_FIELD && d.n_fields < 8)
            fields[d.n_fields++] = (jvmtirt_field_desc){(jfieldID)(uintptr_t)m, m->name,
                                                        m->signature, NULL, m->modifiers, 0};
    }
    return jvmtirt_class_describe((jclass)&k->obj, &d) == JVMTI_ERROR_NONE;
}

int host_classes_describe(void)
{
    int ok = 1;
    for (int i = 0; i < host_n_classes; i++)
        ok &= describe(&host_classes[i], i);
    return ok;
}

int host_class_describe_empty(host_class *c) { return describe(c, -1); }
