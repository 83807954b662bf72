/* An agent that prints the JVM TI version its VM reports, read by the jdks
 * suite: GetVersionNumber in an environment of JVMTI_VERSION_1_0 (every
 * release accepts it), and GetEnv of the release after the VM's refused. */
#include <stdio.h>

#include "jvmti.h"

#include "../agentkit.h"

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    (void)options, (void)reserved;
    jvmtiEnv *env = agentkit_env(vm, JVMTI_VERSION_1_0);
    if (!env) {
        puts("version-agent: GetEnv(JVMTI_VERSION_1_0) failed");
        return JNI_ERR;
    }
    jint version = 0;
    jvmtiError err = (*env)->GetVersionNumber(env, &version);
    void *later = NULL;
    jint next = (jint)((version & ~0xffff) + 0x10000); /* the next feature release */
    jint rc = (*vm)->GetEnv(vm, &later, next);
    printf("version-agent: GetVersionNumber error %d version 0x%x; GetEnv(0x%x) %s\n", (int)err,
           (unsigned)version, (unsigned)next, rc == JNI_EVERSION ? "refused" : "accepted");
    fflush(stdout);
    return JNI_OK;
}
