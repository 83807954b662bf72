/* JNI classes and their members: FindClass over every class the host has
 * (its own, the -load'ed ones, the test hooks'), an object's class (a
 * thread object's may be the interpreted program's, extending
 * java/lang/Thread), the hierarchy (a -load'ed class's superclass is its
 * class file's; every other class but java/lang/Object extends
 * java/lang/Object; no interfaces), method and field IDs, AllocObject. */
#include <string.h>

#include "hooks.h"
#include "jni_parts.h"

#define ACC_STATIC 0x0008

jclass host_find_class(const char *name) { return name ? host_class_by_name(NULL, name) : NULL; }

/* A class the host lacks answers NULL with no exception pending (HotSpot
 * throws NoClassDefFoundError: the host has no exception objects). */
static jclass JNICALL find_class(JNIEnv *env, const char *name)
{
    (void)env;
    return host_find_class(name);
}

jclass host_object_class(jobject obj)
{
    if (!obj)
        return NULL;
    switch (((host_object *)obj)->kind) {
    case HOST_THREAD: { /* the program's own class, if its `new` made it (interp.c) */
        const host_class *k = host_thread_of(obj)->klass;
        return k ? (jclass)&k->obj : host_find_class("java/lang/Thread");
    }
    case HOST_CLASS: return host_find_class("java/lang/Class");
    case HOST_STRING: return host_find_class("java/lang/String");
    case HOST_OBJECT: return host_find_class("java/lang/Object");
    case HOST_THREAD_GROUP: return host_find_class("java/lang/ThreadGroup");
    case HOST_INSTANCE: /* the test hooks' (the heap model's) */
        return host_hooks_get()->class_of ? host_hooks_get()->class_of(obj) : NULL;
    case HOST_METHOD: case HOST_FIELD: break; /* IDs, not objects */
    case HOST_STREAM: break; /* no java/io/PrintStream class (interp.c's System.out) */
    case HOST_MODULE: break; /* nor java/lang/Module (modules.c) */
    }
    return NULL;
}

static jclass JNICALL get_object_class(JNIEnv *env, jobject obj)
{
    (void)env;
    return host_object_class(obj);
}

static int is_class(jclass c) { return c && ((host_object *)c)->kind == HOST_CLASS; }

static jclass superclass(jclass sub)
{
    jclass object = host_find_class("java/lang/Object");
    if (!is_class(sub) || sub == object)
        return NULL;
    const char *name = host_class_super_name(sub);
    jclass super = name ? host_find_class(name) : NULL;
    return super ? super : object;
}

static jclass JNICALL get_superclass(JNIEnv *env, jclass sub)
{
    (void)env;
    return superclass(sub);
}

static jboolean JNICALL is_assignable_from(JNIEnv *env, jclass sub, jclass sup)
{
    (void)env;
    int depth = 0; /* bounded: class files naming each other as superclass */
    for (jclass c = sub; is_class(c) && depth < 64; c = superclass(c), depth++)
        if (c == sup)
            return JNI_TRUE;
    return JNI_FALSE;
}

/* NULL is an instance of every class, as JNI says. */
static jboolean JNICALL is_instance_of(JNIEnv *env, jobject obj, jclass clazz)
{
    return !obj || is_assignable_from(env, host_object_class(obj), clazz);
}

/* The members the host's own classes declare (builtins.c): kind, and
 * whether static; GetMethodID finds an instance method (or constructor)
 * of the class or of java/lang/Object, GetStaticMethodID a static one. */
static void *find_member(jclass clazz, const char *name, const char *sig, host_kind kind,
                         int is_static)
{
    jclass object = host_find_class("java/lang/Object");
    for (int i = 0; clazz && name && sig && i < host_n_members; i++) {
        host_member *m = &host_members[i];
        jclass owner = (jclass)&host_classes[m->class_index].obj;
        if (m->obj.kind == kind && !(m->modifiers & ACC_STATIC) == !is_static &&
            (owner == clazz || (!is_static && owner == object && strcmp(name, "<init>") != 0)) &&
            strcmp(m->name, name) == 0 && strcmp(m->signature, sig) == 0)
            return m;
    }
    return NULL;
}

static jmethodID JNICALL get_method_id(JNIEnv *env, jclass clazz, const char *name,
                                       const char *sig)
{
    (void)env;
    return (jmethodID)find_member(clazz, name, sig, HOST_METHOD, 0);
}

static jmethodID JNICALL get_static_method_id(JNIEnv *env, jclass clazz, const char *name,
                                              const char *sig)
{
    (void)env;
    return (jmethodID)find_member(clazz, name, sig, HOST_METHOD, 1);
}

static jfieldID JNICALL get_field_id(JNIEnv *env, jclass clazz, const char *name, const char *sig)
{
    (void)env;
    return (jfieldID)find_member(clazz, name, sig, HOST_FIELD, 0);
}

/* Only java/lang/Object and java/lang/Thread can be made without a
 * constructor: a new Thread object is one an agent can hand to
 * RunAgentThread (lifecycle.c). */
static jobject JNICALL alloc_object(JNIEnv *env, jclass clazz)
{
    (void)env;
    if (clazz && clazz == host_find_class("java/lang/Thread"))
        return host_thread_new();
    return clazz && clazz == host_find_class("java/lang/Object") ? host_object_new() : NULL;
}

#ifdef JNI_VERSION_21 /* a jni.h of JDK 21 on: the slot IsVirtualThread */
/* The host has no virtual threads: every object answers false (JDK 25's
 * libjdwp asks of each thread it meets). */
static jboolean JNICALL is_virtual_thread(JNIEnv *env, jobject obj)
{
    (void)env;
    (void)obj;
    return JNI_FALSE;
}
#endif

void host_jni_classes_fill(struct JNINativeInterface_ *t)
{
#ifdef JNI_VERSION_21
    t->IsVirtualThread = is_virtual_thread;
#endif
    t->FindClass = find_class;
    t->GetObjectClass = get_object_class;
    t->GetSuperclass = get_superclass;
    t->IsAssignableFrom = is_assignable_from;
    t->IsInstanceOf = is_instance_of;
    t->GetMethodID = get_method_id;
    t->GetStaticMethodID = get_static_method_id;
    t->GetFieldID = get_field_id;
    t->AllocObject = alloc_object;
}
