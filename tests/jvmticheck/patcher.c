/* An agent that patches its own function table, as profilers do to hook
 * RetransformClasses and RedefineClasses: it writes hooks into the table
 * its environment points to, each counting its calls and calling the
 * entry it replaced. Options:
 *   patch  patch RetransformClasses, RedefineClasses and GetThreadState in
 *          Agent_OnLoad, then make the calls below at VMInit
 *   plain  make the same calls on an unpatched table (a second agent: the
 *          first one's patch must not reach it)
 * At VMInit: RetransformClasses and RedefineClasses of no class,
 * GetThreadState, then GetThreadState with a NULL out-pointer (through the
 * hook when patched: the entry the hook calls must still find it). At
 * unload: how often each hook ran. Built a second time as libplain.so
 * (-DAGENT='"plain"'). */
#include <stdio.h>
#include <string.h>

#include <jvmti.h>

#include "../agentkit.h"

#ifndef AGENT
#define AGENT "patcher"
#endif
/* The hooks and callers are exported and not inlined, so the checker's
 * findings name them as the callers. */
#define NAMED __attribute__((noinline, visibility("default")))

static jvmtiEnv *jvmti;
static int patched;
static volatile int calls_retransform, calls_redefine, calls_state;

static jvmtiError(JNICALL *orig_retransform)(jvmtiEnv *, jint, const jclass *);
static jvmtiError(JNICALL *orig_redefine)(jvmtiEnv *, jint, const jvmtiClassDefinition *);
static jvmtiError(JNICALL *orig_state)(jvmtiEnv *, jthread, jint *);

/* Each hook counts after the call, so the call is not a tail call and the
 * hook is the frame that made it. */
NAMED jvmtiError JNICALL hook_RetransformClasses(jvmtiEnv *env, jint n, const jclass *classes);
NAMED jvmtiError JNICALL hook_RetransformClasses(jvmtiEnv *env, jint n, const jclass *classes)
{
    jvmtiError err = orig_retransform(env, n, classes);
    calls_retransform++;
    return err;
}

NAMED jvmtiError JNICALL hook_RedefineClasses(jvmtiEnv *env, jint n, const jvmtiClassDefinition *defs);
NAMED jvmtiError JNICALL hook_RedefineClasses(jvmtiEnv *env, jint n, const jvmtiClassDefinition *defs)
{
    jvmtiError err = orig_redefine(env, n, defs);
    calls_redefine++;
    return err;
}

NAMED jvmtiError JNICALL hook_GetThreadState(jvmtiEnv *env, jthread thread, jint *state);
NAMED jvmtiError JNICALL hook_GetThreadState(jvmtiEnv *env, jthread thread, jint *state)
{
    jvmtiError err = orig_state(env, thread, state);
    calls_state++;
    return err;
}

/* The table is the environment's (jvmtiEnv is a pointer to it, declared
 * const in C; agents cast that away). */
static void patch(void)
{
    jvmtiInterface_1 *table = (jvmtiInterface_1 *)(void *)*jvmti;
    orig_retransform = table->RetransformClasses;
    orig_redefine = table->RedefineClasses;
    orig_state = table->GetThreadState;
    table->RetransformClasses = hook_RetransformClasses;
    table->RedefineClasses = hook_RedefineClasses;
    table->GetThreadState = hook_GetThreadState;
    patched = 1;
    printf(AGENT ": patched RetransformClasses, RedefineClasses, GetThreadState\n");
    fflush(stdout);
}

NAMED void null_call(jthread thread);
NAMED void null_call(jthread thread)
{
    jvmtiError err = (*jvmti)->GetThreadState(jvmti, thread, NULL);
    printf(AGENT ": GetThreadState(NULL) returned %d\n", (int)err);
}

NAMED void JNICALL on_vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread);
NAMED void JNICALL on_vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)env;
    (void)jni;
    jclass none[1] = {NULL};
    jvmtiClassDefinition no_defs[1];
    jint state = 0;
    memset(no_defs, 0, sizeof no_defs);
    printf(AGENT ": RetransformClasses of no class returned %d\n",
           (int)(*jvmti)->RetransformClasses(jvmti, 0, none));
    printf(AGENT ": RedefineClasses of no class returned %d\n",
           (int)(*jvmti)->RedefineClasses(jvmti, 0, no_defs));
    jvmtiError err = (*jvmti)->GetThreadState(jvmti, thread, &state);
    printf(AGENT ": GetThreadState returned %d, alive %d\n", (int)err,
           (state & JVMTI_THREAD_STATE_ALIVE) != 0);
    null_call(thread);
    fflush(stdout);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    (void)reserved;
    if (!(jvmti = agentkit_env(vm, JVMTI_VERSION_1_2)))
        return JNI_ERR;
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    caps.can_retransform_classes = 1;
    caps.can_redefine_classes = 1;
    agentkit_add_potential(jvmti, &caps);
    if (options && strcmp(options, "patch") == 0)
        patch();
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMInit = on_vm_init;
    if (agentkit_events(jvmti, &cb, 1, (jvmtiEvent[]){JVMTI_EVENT_VM_INIT}) != JVMTI_ERROR_NONE)
        return JNI_ERR;
    return JNI_OK;
}

JNIEXPORT void JNICALL Agent_OnUnload(JavaVM *vm)
{
    (void)vm;
    printf(AGENT ": hooks ran: RetransformClasses %d, RedefineClasses %d, GetThreadState %d\n",
           calls_retransform, calls_redefine, calls_state);
    fflush(stdout);
}
