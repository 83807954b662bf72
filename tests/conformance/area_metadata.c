/* The metadata area: what the core answers from the VM's records
 * (runtime/threads/threadinfo.c, classes/classinfo.c, objects/objectinfo.c) about the VMInit thread,
 * java/lang/Thread, int[] and an object, in the live phase. Only what both
 * VMs must agree on is printed: the calling thread among GetAllThreads' (not
 * their number: HotSpot has threads of its own), the thread's state without
 * JVMTI_THREAD_STATE_IN_NATIVE (HotSpot reports an agent's callback as
 * native code; the host has no such notion), an object's size as "positive"
 * and its hash as stable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

void conf_area_metadata(int stage, const conf_area_env *a);

static void class_cases(jvmtiEnv *e, JNIEnv *jni, jclass k, const char *name)
{
    char id[96];
    char *sig = NULL, *gen = NULL;
    jvmtiError err = (*e)->GetClassSignature(e, k, &sig, &gen);
    snprintf(id, sizeof id, "metadata.class.%s.signature", name);
    conf_say(id, "%s %s %s", conf_err_name(err), err == JVMTI_ERROR_NONE && sig ? sig : "-",
             gen ? gen : "NULL");
    (*e)->Deallocate(e, (unsigned char *)sig);
    (*e)->Deallocate(e, (unsigned char *)gen);
    snprintf(id, sizeof id, "metadata.class.%s.signature-no-pointers", name);
    conf_result(id, (*e)->GetClassSignature(e, k, NULL, NULL));
    jint status = -1, modifiers = -1;
    jboolean is_interface = 9, is_array = 9;
    err = (*e)->GetClassStatus(e, k, &status);
    snprintf(id, sizeof id, "metadata.class.%s.status", name);
    conf_say(id, "%s 0x%x", conf_err_name(err), (unsigned)status);
    err = (*e)->GetClassModifiers(e, k, &modifiers);
    snprintf(id, sizeof id, "metadata.class.%s.modifiers", name);
    conf_say(id, "%s 0x%x", conf_err_name(err), (unsigned)modifiers);
    err = (*e)->IsInterface(e, k, &is_interface);
    snprintf(id, sizeof id, "metadata.class.%s.interface", name);
    conf_say(id, "%s %d", conf_err_name(err), (int)is_interface);
    err = (*e)->IsArrayClass(e, k, &is_array);
    snprintf(id, sizeof id, "metadata.class.%s.array", name);
    conf_say(id, "%s %d", conf_err_name(err), (int)is_array);
    char *src = NULL;
    err = (*e)->GetSourceFileName(e, k, &src);
    snprintf(id, sizeof id, "metadata.class.%s.source-file", name);
    conf_say(id, "%s %s", conf_err_name(err), err == JVMTI_ERROR_NONE && src ? src : "-");
    (*e)->Deallocate(e, (unsigned char *)src);
    (void)jni;
}

void conf_area_metadata(int stage, const conf_area_env *a)
{
    if (stage != CONF_LIVE)
        return;
    jvmtiEnv *e = a->full;
    JNIEnv *jni = a->jni;
    const conf_ctx *c = a->ctx;

    jthread t = NULL;
    jvmtiError err = (*e)->GetCurrentThread(e, &t);
    conf_say("metadata.current-thread", "%s %s", conf_err_name(err),
             t && (*jni)->IsSameObject(jni, t, c->thread) ? "VMInit's thread" : "another");

    jint n = 0;
    jthread *all = NULL;
    err = (*e)->GetAllThreads(e, &n, &all);
    int found = 0;
    for (jint i = 0; err == JVMTI_ERROR_NONE && i < n; i++)
        found += (*jni)->IsSameObject(jni, all[i], c->thread);
    conf_say("metadata.all-threads", "%s, the VMInit thread listed %d time(s)", conf_err_name(err),
             found);
    (*e)->Deallocate(e, (unsigned char *)all);

    jvmtiThreadInfo info;
    memset(&info, 0, sizeof info);
    err = (*e)->GetThreadInfo(e, NULL, &info);
    conf_say("metadata.thread-info.current", "%s name %s priority %d daemon %d",
             conf_err_name(err), info.name ? info.name : "-", (int)info.priority,
             (int)info.is_daemon);
    (*e)->Deallocate(e, (unsigned char *)info.name);

    jint state = -1;
    err = (*e)->GetThreadState(e, NULL, &state);
    conf_say("metadata.thread-state.current", "%s 0x%x", conf_err_name(err),
             (unsigned)(state & ~JVMTI_THREAD_STATE_IN_NATIVE));
    err = (*e)->GetThreadState(e, c->thread, &state);
    conf_say("metadata.thread-state.named", "%s 0x%x", conf_err_name(err),
             (unsigned)(state & ~JVMTI_THREAD_STATE_IN_NATIVE));
    conf_result("metadata.thread-state.a-class", (*e)->GetThreadState(e, (jthread)c->klass, &state));

    class_cases(e, jni, c->klass, "Thread");
    jclass ints = (*jni)->FindClass(jni, "[I");
    if (ints)
        class_cases(e, jni, ints, "int-array");
    else
        conf_say("metadata.class.int-array.signature", "SKIP no int[] class");
    jint status;
    conf_result("metadata.class.a-thread.status", (*e)->GetClassStatus(e, (jclass)c->thread, &status));

    jlong size = -1;
    err = (*e)->GetObjectSize(e, c->object, &size);
    conf_say("metadata.object-size.thread", "%s %s", conf_err_name(err),
             size > 0 ? "positive" : "not positive");
    jint h1 = 0, h2 = 1;
    jobject again = (*jni)->NewLocalRef(jni, c->object);
    jvmtiError e1 = (*e)->GetObjectHashCode(e, c->object, &h1);
    jvmtiError e2 = (*e)->GetObjectHashCode(e, again, &h2);
    conf_say("metadata.hash-code.two-references", "%s %s %s", conf_err_name(e1), conf_err_name(e2),
             h1 == h2 ? "the same" : "different");
    (*jni)->DeleteLocalRef(jni, again);
}
