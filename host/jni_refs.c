/* JNI references: a reference is the object's address, so every kind
 * (local, global, weak) is the object itself; a heap object (objects.c: a
 * plain object or a string) counts them, and is collected when none is
 * left. Local frames are bookkeeping only: the host does not free a
 * frame's locals when it is popped (they stay counted until deleted,
 * tests/conformance/differences.md). */
#include "jni_parts.h"

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

static jboolean JNICALL is_same_object(JNIEnv *env, jobject a, jobject b)
{
    (void)env;
    return a == b;
}

/* Room for locals is never short; a negative capacity is refused, as JNI says. */
static jint JNICALL ensure_local_capacity(JNIEnv *env, jint capacity)
{
    (void)env;
    return capacity >= 0 ? JNI_OK : JNI_ERR;
}

/* The result outlives the frame: it is handed back as the caller's local. */
static jobject JNICALL pop_local_frame(JNIEnv *env, jobject result)
{
    (void)env;
    return result;
}

static jobjectRefType JNICALL get_object_ref_type(JNIEnv *env, jobject obj)
{
    (void)env;
    return obj ? JNILocalRefType : JNIInvalidRefType; /* the host does not tell them apart */
}

void host_jni_refs_fill(struct JNINativeInterface_ *t)
{
    t->NewGlobalRef = new_ref;
    t->NewLocalRef = new_ref;
    t->NewWeakGlobalRef = new_ref;
    t->DeleteGlobalRef = delete_ref;
    t->DeleteLocalRef = delete_ref;
    t->DeleteWeakGlobalRef = delete_ref;
    t->IsSameObject = is_same_object;
    t->EnsureLocalCapacity = ensure_local_capacity;
    t->PushLocalFrame = ensure_local_capacity;
    t->PopLocalFrame = pop_local_frame;
    t->GetObjectRefType = get_object_ref_type;
}
