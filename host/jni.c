/* The host's JNI function table: built once from the parts, each in the
 * file named for what it holds (jni_refs.c, jni_strings.c, jni_classes.c,
 * jni_calls.c); here the version, exceptions, FatalError and the JavaVM.
 * Every slot no part fills points at one function that says it is
 * unsupported and returns 0 (NULL, JNI_FALSE, JNI_OK): a safe failure for
 * the pointer- and integer-returning functions agents call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "jni_parts.h"

static jint JNICALL get_version(JNIEnv *env)
{
    (void)env;
    return JNI_VERSION_10;
}

/* The pending "exception" is any object the host or an agent threw. */
static host_thread *self_of(JNIEnv *env) { return host_thread_of_env(env); }
static jboolean JNICALL exception_check(JNIEnv *env) { return self_of(env)->pending != NULL; }
static jthrowable JNICALL exception_occurred(JNIEnv *env) { return self_of(env)->pending; }
static void JNICALL exception_clear(JNIEnv *env) { self_of(env)->pending = NULL; }
static void JNICALL exception_describe(JNIEnv *env)
{
    if (self_of(env)->pending)
        fputs("jvmti-host: (an exception is pending)\n", stderr);
    self_of(env)->pending = NULL; /* JNI: describing clears it */
}

static jint JNICALL throw_object(JNIEnv *env, jthrowable obj)
{
    self_of(env)->pending = obj;
    return JNI_OK;
}

static void JNICALL fatal_error(JNIEnv *env, const char *msg)
{
    (void)env;
    fprintf(stderr, "jvmti-host: FatalError: %s\n", msg ? msg : "");
    exit(1);
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
    table.ExceptionCheck = exception_check;
    table.ExceptionOccurred = exception_occurred;
    table.ExceptionClear = exception_clear;
    table.ExceptionDescribe = exception_describe;
    table.Throw = throw_object;
    table.FatalError = fatal_error;
    table.GetJavaVM = get_java_vm;
    host_jni_refs_fill(&table);
    host_jni_strings_fill(&table);
    host_jni_classes_fill(&table);
    host_jni_calls_fill(&table);
}

const struct JNINativeInterface_ *host_jni_functions(void)
{
    pthread_once(&once, build_table);
    return &table;
}
