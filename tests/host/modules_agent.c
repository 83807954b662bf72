/* modules_agent.c: an ordinary agent (built against the JDK's own jvmti.h)
 * that lists and updates modules in jvmti-host (host/modules.c: java.base,
 * named, with java/lang, and the unnamed module), in VMInit. Each update the
 * core passes on, the host prints ("jvmti-host: module ..."); the ones the
 * spec makes no-ops and the refused ones print nothing. One line per result:
 * "modules: what: answer". */
#include <stdio.h>
#include <string.h>

#include "jvmti.h"
#include "../agentkit.h"

static jvmtiEnv *jvmti;

static void say(const char *what, jvmtiError e)
{
    printf("modules: %s: %d\n", what, (int)e);
    fflush(stdout);
}

static void JNICALL on_vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread)
{
    (void)env;
    jobject base = NULL, none = (jobject)&jvmti, unnamed = NULL;
    say("GetNamedModule(NULL, java/lang)", (*jvmti)->GetNamedModule(jvmti, NULL, "java/lang", &base));
    say("GetNamedModule(NULL, no/such)", (*jvmti)->GetNamedModule(jvmti, NULL, "no/such", &none));
    printf("modules: ... java/lang's is %s, no/such's is %s\n", base ? "a module" : "null",
           none ? "a module" : "null");
    jobject m;
    say("GetNamedModule(a thread, java/lang)", (*jvmti)->GetNamedModule(jvmti, thread, "java/lang", &m));
    jint n = 0;
    jobject *all = NULL;
    say("GetAllModules", (*jvmti)->GetAllModules(jvmti, &n, &all));
    int has_base = 0;
    for (jint i = 0; i < n; i++) {
        if ((*jni)->IsSameObject(jni, all[i], base))
            has_base = 1;
        else
            unnamed = all[i];
    }
    printf("modules: ... %d modules, java.base among them: %d\n", (int)n, has_base);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)all);
    jboolean mod = JNI_FALSE;
    say("IsModifiableModule(java.base)", (*jvmti)->IsModifiableModule(jvmti, base, &mod));
    printf("modules: ... %d\n", (int)mod);
    mod = JNI_FALSE;
    say("IsModifiableModule(unnamed)", (*jvmti)->IsModifiableModule(jvmti, unnamed, &mod));
    printf("modules: ... %d\n", (int)mod);
    say("IsModifiableModule(a thread)", (*jvmti)->IsModifiableModule(jvmti, thread, &mod));
    jclass thread_class = (*jni)->FindClass(jni, "java/lang/Thread");
    jclass object_class = (*jni)->FindClass(jni, "java/lang/Object");
    say("AddModuleReads(java.base, unnamed)", (*jvmti)->AddModuleReads(jvmti, base, unnamed));
    say("AddModuleReads(unnamed, java.base): a no-op", (*jvmti)->AddModuleReads(jvmti, unnamed, base));
    say("AddModuleReads(java.base, a thread)", (*jvmti)->AddModuleReads(jvmti, base, thread));
    say("AddModuleExports(java.base, java/lang, unnamed)",
        (*jvmti)->AddModuleExports(jvmti, base, "java/lang", unnamed));
    say("AddModuleExports(java.base, no/such, unnamed)",
        (*jvmti)->AddModuleExports(jvmti, base, "no/such", unnamed));
    say("AddModuleOpens(java.base, java/lang, unnamed)",
        (*jvmti)->AddModuleOpens(jvmti, base, "java/lang", unnamed));
    say("AddModuleOpens(a thread, java/lang, unnamed)",
        (*jvmti)->AddModuleOpens(jvmti, thread, "java/lang", unnamed));
    say("AddModuleUses(java.base, Thread)", (*jvmti)->AddModuleUses(jvmti, base, thread_class));
    say("AddModuleProvides(java.base, Thread, Object)",
        (*jvmti)->AddModuleProvides(jvmti, base, thread_class, object_class));
    say("AddModuleUses(unnamed, Thread): a no-op", (*jvmti)->AddModuleUses(jvmti, unnamed, thread_class));
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    (void)options, (void)reserved;
    if (!(jvmti = agentkit_env(vm, JVMTI_VERSION_9)))
        return 1;
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMInit = on_vm_init;
    const jvmtiEvent enable[] = {JVMTI_EVENT_VM_INIT};
    agentkit_events(jvmti, &cb, 1, enable);
    return 0;
}
