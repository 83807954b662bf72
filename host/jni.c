/* The host's JNI: enough for agents' usual calls from event callbacks
 * (version, classes by name, instance methods and fields of those classes,
 * references, strings, exceptions, the JavaVM).
 * Every other slot points at one function that says it is unsupported and
 * returns 0 (NULL, JNI_FALSE, JNI_OK): a safe failure for the pointer- and
 * integer-returning functions agents call; nothing is executed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"

static host_thread *self_of(JNIEnv *env) { return host_thread_of_env(env); }

static jint JNICALL get_version(JNIEnv *env)
{
    (void)env;
    return JNI_VERSION_10;
}

/* A NULL name or string finds or makes nothing (HotSpot returns NULL too). */
static jclass JNICALL find_class(JNIEnv *env, const char *name)
{
    (void)env;
    for (int i = 0; name && i < host_n_classes; i++)
        if (strcmp(host_classes[i].name, name) == 0)
            return (jclass)&host_classes[i].obj;
    return host_heap_find_class(name);
}

static jclass JNICALL get_object_class(JNIEnv *env, jobject obj)
{
    if (!obj)
        return NULL;
    switch (((host_object *)obj)->kind) {
    case HOST_THREAD: return find_class(env, "java/lang/Thread");
    case HOST_CLASS: return find_class(env, "java/lang/Class");
    case HOST_STRING: return find_class(env, "java/lang/String");
    case HOST_OBJECT: return find_class(env, "java/lang/Object");
    case HOST_INSTANCE: return host_heap_class_of(obj);
    case HOST_METHOD: case HOST_FIELD: break; /* IDs, not objects */
    case HOST_THREAD_GROUP: break; /* the host has no java/lang/ThreadGroup class */
    case HOST_STREAM: break;       /* nor java/io/PrintStream (interp.c's System.out) */
    case HOST_MODULE: break;       /* nor java/lang/Module (modules.c) */
    }
    return NULL;
}

/* The members the host's classes declare (jvmti-host.c), by kind. */
static void *find_member(jclass clazz, const char *name, const char *sig, host_kind kind)
{
    for (int i = 0; clazz && name && sig && i < host_n_members; i++) {
        host_member *m = &host_members[i];
        if (m->obj.kind == kind && (jclass)&host_classes[m->class_index].obj == clazz &&
            strcmp(m->name, name) == 0 && strcmp(m->signature, sig) == 0)
            return m;
    }
    return NULL;
}

static jmethodID JNICALL get_method_id(JNIEnv *env, jclass clazz, const char *name,
                                       const char *sig)
{
    (void)env;
    return (jmethodID)find_member(clazz, name, sig, HOST_METHOD);
}

static jfieldID JNICALL get_field_id(JNIEnv *env, jclass clazz, const char *name, const char *sig)
{
    (void)env;
    return (jfieldID)find_member(clazz, name, sig, HOST_FIELD);
}

/* References are the objects; a plain object (objects.c) counts them. */
static jobject JNICALL new_ref(JNIEnv *env, jobject obj)
{
    (void)env;
    host_ref_add(obj);
    return obj;
}

static void JNICALL delete_ref(JNIEnv *env, jobject obj)
{
    (void)env;
    host_ref_drop(obj);
}

/* Only java/lang/Object and java/lang/Thread can be instantiated (there
 * are no constructors): a new Thread object is one an agent can hand to
 * RunAgentThread (groups.c). */
static jobject JNICALL alloc_object(JNIEnv *env, jclass clazz)
{
    if (clazz && clazz == find_class(env, "java/lang/Thread"))
        return host_thread_new();
    return clazz && clazz == find_class(env, "java/lang/Object") ? host_object_new() : NULL;
}

static jboolean JNICALL is_same_object(JNIEnv *env, jobject a, jobject b)
{
    (void)env;
    return a == b;
}

static jint JNICALL ensure_local_capacity(JNIEnv *env, jint capacity)
{
    (void)env;
    return capacity >= 0 ? JNI_OK : JNI_ERR;
}

static jobject JNICALL pop_local_frame(JNIEnv *env, jobject result)
{
    (void)env;
    return result;
}

static jboolean JNICALL exception_check(JNIEnv *env) { return self_of(env)->pending != NULL; }
static jthrowable JNICALL exception_occurred(JNIEnv *env) { return self_of(env)->pending; }
static void JNICALL exception_clear(JNIEnv *env) { self_of(env)->pending = NULL; }
static void JNICALL exception_describe(JNIEnv *env)
{
    if (self_of(env)->pending)
        fputs("jvmti-host: (an exception is pending)\n", stderr);
}

static void JNICALL fatal_error(JNIEnv *env, const char *msg)
{
    (void)env;
    fprintf(stderr, "jvmti-host: FatalError: %s\n", msg ? msg : "");
    exit(1);
}

/* Strings are immutable C strings in a host object. */
typedef struct host_string {
    host_object obj;
    char text[];
} host_string;

jstring host_string_new(const char *utf, size_t len)
{
    host_string *s = malloc(sizeof *s + len + 1);
    if (!s)
        return NULL;
    s->obj.kind = HOST_STRING;
    memcpy(s->text, utf, len);
    s->text[len] = '\0';
    return (jstring)&s->obj; /* never freed: objects outlive references */
}

static jstring JNICALL new_string_utf(JNIEnv *env, const char *utf)
{
    (void)env;
    return utf ? host_string_new(utf, strlen(utf)) : NULL;
}

static const char *JNICALL get_string_utf_chars(JNIEnv *env, jstring str, jboolean *is_copy)
{
    (void)env;
    if (is_copy)
        *is_copy = JNI_FALSE;
    return str && ((host_object *)str)->kind == HOST_STRING ? ((host_string *)str)->text : NULL;
}

static void JNICALL release_string_utf_chars(JNIEnv *env, jstring str, const char *chars)
{
    (void)env, (void)str, (void)chars;
}

static jsize JNICALL get_string_utf_length(JNIEnv *env, jstring str)
{
    const char *s = get_string_utf_chars(env, str, NULL);
    return s ? (jsize)strlen(s) : 0;
}

static jint JNICALL get_java_vm(JNIEnv *env, JavaVM **vm)
{
    (void)env;
    *vm = &host_vm;
    return JNI_OK;
}

static void *JNICALL unsupported(void)
{
    static int said;
    if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
        fputs("jvmti-host: an agent called a JNI function the host does not support "
              "(it returns 0 and does nothing)\n", stderr);
    return NULL;
}

static struct JNINativeInterface_ table;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void build_table(void)
{
    /* Every slot first, by bytes: the struct is nothing but pointers. */
    void *(JNICALL *fallback)(void) = unsupported;
    for (size_t off = 0; off + sizeof fallback <= sizeof table; off += sizeof fallback)
        memcpy((char *)&table + off, &fallback, sizeof fallback);
    table.reserved0 = table.reserved1 = table.reserved2 = table.reserved3 = NULL;
    table.GetVersion = get_version;
    table.FindClass = find_class;
    table.GetObjectClass = get_object_class;
    table.GetMethodID = get_method_id;
    table.GetStaticMethodID = get_method_id; /* the host does not tell static from not */
    table.GetFieldID = get_field_id;
    table.NewGlobalRef = new_ref;
    table.NewLocalRef = new_ref;
    table.NewWeakGlobalRef = new_ref;
    table.DeleteGlobalRef = delete_ref;
    table.DeleteLocalRef = delete_ref;
    table.DeleteWeakGlobalRef = delete_ref;
    table.IsSameObject = is_same_object;
    table.AllocObject = alloc_object;
    table.EnsureLocalCapacity = ensure_local_capacity;
    table.PushLocalFrame = ensure_local_capacity;
    table.PopLocalFrame = pop_local_frame;
    table.ExceptionCheck = exception_check;
    table.ExceptionOccurred = exception_occurred;
    table.ExceptionClear = exception_clear;
    table.ExceptionDescribe = exception_describe;
    table.FatalError = fatal_error;
    table.NewStringUTF = new_string_utf;
    table.GetStringUTFChars = get_string_utf_chars;
    table.ReleaseStringUTFChars = release_string_utf_chars;
    table.GetStringUTFLength = get_string_utf_length;
    table.GetJavaVM = get_java_vm;
}

const struct JNINativeInterface_ *host_jni_functions(void)
{
    pthread_once(&once, build_table);
    return &table;
}
