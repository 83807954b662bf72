/* An agent, built against JDK 17's jvmti.h, that asks for versions and
 * calls slots its header calls reserved, as an agent built for a newer
 * JDK (or a stray pointer) would. Options, run in Agent_OnLoad:
 *   newer     GetEnv for JVM TI 21 (0x30150000) and for the header's
 *             version, then slot 118 (SuspendAllVirtualThreads since 21);
 *             then SetEventCallbacks with JVM TI 25's longer struct:
 *             VMInit, VirtualThreadStart and VirtualThreadEnd set
 *   reserved  slot 1, reserved in every version
 *   absent    slot 67 (ClearAllFramePops since 25) and slot 118: through
 *             a checker built from a newer spec than the VM's
 * Each call's answer is printed. */
#include <stdio.h>
#include <string.h>

#include <jvmti.h>

#define NAMED __attribute__((noinline, visibility("default")))

static jvmtiEnv *jvmti;

/* The slot's own signature (ClearAllFramePops(env, thread),
 * SuspendAllVirtualThreads(env, count, list)). */
typedef jvmtiError(JNICALL *one_arg)(jvmtiEnv *, jthread);
typedef jvmtiError(JNICALL *two_args)(jvmtiEnv *, jint, const jthread *);

NAMED void call_slot_1(void);
NAMED void call_slot_1(void)
{
    jvmtiError err = ((one_arg)(*jvmti)->reserved1)(jvmti, NULL);
    printf("slots: slot 1 returned %d\n", (int)err);
}

NAMED void call_slot_67(void);
NAMED void call_slot_67(void)
{
    jvmtiError err = ((one_arg)(*jvmti)->reserved67)(jvmti, NULL);
    printf("slots: slot 67 returned %d\n", (int)err);
}

NAMED void call_slot_118(void);
NAMED void call_slot_118(void)
{
    jvmtiError err = ((two_args)(*jvmti)->reserved118)(jvmti, 0, NULL);
    printf("slots: slot 118 returned %d\n", (int)err);
}

static void JNICALL on_vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)env;
    (void)jni;
    (void)thread;
    printf("slots: VMInit\n");
    fflush(stdout);
}

static void JNICALL on_virtual_thread(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)env;
    (void)jni;
    (void)thread;
}

/* JVM TI 25's jvmtiEventCallbacks: events 50 (VMInit) to 88, 87 and 88
 * being VirtualThreadStart and VirtualThreadEnd (JDK 17's ends at 86). */
NAMED void set_newer_callbacks(void);
NAMED void set_newer_callbacks(void)
{
    void (*cb[39])(void);
    memset(cb, 0, sizeof cb);
    cb[0] = (void (*)(void))on_vm_init;
    cb[37] = cb[38] = (void (*)(void))on_virtual_thread;
    jvmtiError err = (*jvmti)->SetEventCallbacks(jvmti, (const jvmtiEventCallbacks *)(void *)cb,
                                                 (jint)sizeof cb);
    printf("slots: SetEventCallbacks of JVM TI 25's struct returned %d\n", (int)err);
    (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    (void)reserved;
    const char *what = options ? options : "";
    void *env = NULL;
    if (strcmp(what, "newer") == 0) {
        jint r = (*vm)->GetEnv(vm, &env, 0x30150000);
        printf("slots: GetEnv(JVM TI 21) returned %d, %s\n", (int)r, env ? "an environment" : "NULL");
    }
    jint r = (*vm)->GetEnv(vm, (void **)&jvmti, JVMTI_VERSION);
    printf("slots: GetEnv(JVM TI %d) returned %d\n",
           (JVMTI_VERSION & JVMTI_VERSION_MASK_MAJOR) >> JVMTI_VERSION_SHIFT_MAJOR, (int)r);
    fflush(stdout);
    if (r != JNI_OK)
        return JNI_ERR;
    if (strcmp(what, "reserved") == 0)
        call_slot_1();
    if (strcmp(what, "absent") == 0)
        call_slot_67();
    if (strcmp(what, "newer") == 0 || strcmp(what, "absent") == 0)
        call_slot_118();
    if (strcmp(what, "newer") == 0)
        set_newer_callbacks();
    fflush(stdout);
    return JNI_OK;
}
