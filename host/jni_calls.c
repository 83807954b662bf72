/* JNI calls into "Java": the host has no bytecode to run, so a method an
 * agent calls through JNI runs the C body this file gives it, if any:
 *
 *   java/lang/Thread.<init>(ThreadGroup, String)   a thread object's group and name
 *   java/lang/Thread.setDaemon(boolean)            (agent threads are daemons already)
 *   java/lang/System.getProperty(String)           the core's system properties
 *
 * (what libjdwp calls as it starts: tests/jdb). Any other method returns
 * 0 / NULL and does nothing, after a warning naming it (once). NewObject
 * makes a java/lang/Thread (groups.c) or java/lang/Object (objects.c) and
 * runs the constructor's body. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "jni_parts.h"

typedef jvalue (*body_fn)(JNIEnv *env, jobject self, const jvalue *args);

static jvalue thread_init(JNIEnv *env, jobject self, const jvalue *args)
{
    (void)env;
    host_thread *t = host_thread_of(self);
    const char *name = host_string_utf(args[1].l);
    if (t && !t->jni) /* not started yet: its facts are still the constructor's */
        host_thread_construct(t, args[0].l, name);
    return (jvalue){0};
}

static jvalue thread_set_daemon(JNIEnv *env, jobject self, const jvalue *args)
{
    (void)env, (void)self, (void)args;
    return (jvalue){0};
}

static jvalue system_get_property(JNIEnv *env, jobject self, const jvalue *args)
{
    (void)env, (void)self;
    const char *key = host_string_utf(args[0].l);
    const char *value = key ? jvmtirt_property_value(key) : NULL;
    return (jvalue){.l = value ? host_string_new(value, strlen(value)) : NULL};
}

static const struct {
    const char *class_name, *name, *signature;
    body_fn fn;
} bodies[] = {
    {"java/lang/Thread", "<init>", "(Ljava/lang/ThreadGroup;Ljava/lang/String;)V", thread_init},
    {"java/lang/Thread", "setDaemon", "(Z)V", thread_set_daemon},
    {"java/lang/System", "getProperty", "(Ljava/lang/String;)Ljava/lang/String;",
     system_get_property},
};

static jvalue call(JNIEnv *env, jobject self, jmethodID id, const jvalue *args)
{
    const host_member *m = (const host_member *)(const void *)id;
    if (!m || m->obj.kind != HOST_METHOD)
        return (jvalue){0};
    const char *class_name = host_member_class(m)->name;
    for (size_t i = 0; i < sizeof bodies / sizeof *bodies; i++)
        if (strcmp(bodies[i].class_name, class_name) == 0 && strcmp(bodies[i].name, m->name) == 0 &&
            strcmp(bodies[i].signature, m->signature) == 0)
            return bodies[i].fn(env, self, args);
    static int said;
    if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
        fprintf(stderr, "jvmti-host: JNI called %s.%s%s, which the host cannot run (it returns 0)\n",
                class_name, m->name, m->signature);
    return (jvalue){0};
}

/* The arguments of a ... or va_list call, by the method's descriptor (the
 * C promotions: int for the small types, double for float). */
#define MAX_ARGS 8
static void unpack(jmethodID id, va_list ap, jvalue *out)
{
    const host_member *m = (const host_member *)(const void *)id;
    memset(out, 0, MAX_ARGS * sizeof *out);
    if (!m || m->obj.kind != HOST_METHOD)
        return;
    const char *p = strchr(m->signature, '(');
    for (int n = 0; p && *++p && *p != ')' && n < MAX_ARGS; n++) {
        switch (*p) {
        case 'Z': out[n].z = (jboolean)va_arg(ap, int); break;
        case 'B': out[n].b = (jbyte)va_arg(ap, int); break;
        case 'C': out[n].c = (jchar)va_arg(ap, int); break;
        case 'S': out[n].s = (jshort)va_arg(ap, int); break;
        case 'I': out[n].i = va_arg(ap, jint); break;
        case 'J': out[n].j = va_arg(ap, jlong); break;
        case 'F': out[n].f = (jfloat)va_arg(ap, double); break;
        case 'D': out[n].d = va_arg(ap, double); break;
        default: /* L...; or an array */
            while (*p == '[')
                p++;
            if (*p == 'L')
                p = strchr(p, ';');
            out[n].l = va_arg(ap, jobject);
        }
    }
}

/* Call<Type>Method, ...V and ...A; CallStatic<Type>Method has the same C
 * type (a jclass is a jobject), the class standing for the receiver. */
#define CALLS(Type, type, member)                                                                 \
    static type JNICALL call_##Type##_a(JNIEnv *env, jobject obj, jmethodID id, const jvalue *a) \
    {                                                                                             \
        return call(env, obj, id, a).member;                                                      \
    }                                                                                             \
    static type JNICALL call_##Type##_v(JNIEnv *env, jobject obj, jmethodID id, va_list ap)     \
    {                                                                                             \
        jvalue args[MAX_ARGS];                                                                    \
        unpack(id, ap, args);                                                                     \
        return call(env, obj, id, args).member;                                                   \
    }                                                                                             \
    static type JNICALL call_##Type(JNIEnv *env, jobject obj, jmethodID id, ...)                 \
    {                                                                                             \
        va_list ap;                                                                               \
        va_start(ap, id);                                                                         \
        type r = call_##Type##_v(env, obj, id, ap);                                               \
        va_end(ap);                                                                               \
        return r;                                                                                 \
    }
CALLS(Object, jobject, l)
CALLS(Boolean, jboolean, z)
CALLS(Byte, jbyte, b)
CALLS(Char, jchar, c)
CALLS(Short, jshort, s)
CALLS(Int, jint, i)
CALLS(Long, jlong, j)
CALLS(Float, jfloat, f)
CALLS(Double, jdouble, d)

static void JNICALL call_Void_a(JNIEnv *env, jobject obj, jmethodID id, const jvalue *args)
{
    (void)call(env, obj, id, args);
}

static void JNICALL call_Void_v(JNIEnv *env, jobject obj, jmethodID id, va_list ap)
{
    jvalue args[MAX_ARGS];
    unpack(id, ap, args);
    (void)call(env, obj, id, args);
}

static void JNICALL call_Void(JNIEnv *env, jobject obj, jmethodID id, ...)
{
    va_list ap;
    va_start(ap, id);
    call_Void_v(env, obj, id, ap);
    va_end(ap);
}

/* An object of clazz, then its constructor's body. */
static jobject JNICALL new_object_a(JNIEnv *env, jclass clazz, jmethodID id, const jvalue *args)
{
    jobject obj = (*env)->AllocObject(env, clazz);
    if (obj)
        (void)call(env, obj, id, args);
    return obj;
}

static jobject JNICALL new_object_v(JNIEnv *env, jclass clazz, jmethodID id, va_list ap)
{
    jvalue args[MAX_ARGS];
    unpack(id, ap, args);
    return new_object_a(env, clazz, id, args);
}

static jobject JNICALL new_object(JNIEnv *env, jclass clazz, jmethodID id, ...)
{
    va_list ap;
    va_start(ap, id);
    jobject obj = new_object_v(env, clazz, id, ap);
    va_end(ap);
    return obj;
}

#define FILL(Type)                                                                                \
    t->Call##Type##Method = call_##Type, t->Call##Type##MethodV = call_##Type##_v,                \
    t->Call##Type##MethodA = call_##Type##_a, t->CallStatic##Type##Method = call_##Type,          \
    t->CallStatic##Type##MethodV = call_##Type##_v, t->CallStatic##Type##MethodA = call_##Type##_a

void host_jni_calls_fill(struct JNINativeInterface_ *t)
{
    FILL(Object);
    FILL(Boolean);
    FILL(Byte);
    FILL(Char);
    FILL(Short);
    FILL(Int);
    FILL(Long);
    FILL(Float);
    FILL(Double);
    FILL(Void);
    t->NewObject = new_object;
    t->NewObjectV = new_object_v;
    t->NewObjectA = new_object_a;
}
