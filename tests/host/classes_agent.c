/* An ordinary JVM TI agent (built against the JDK's jvmti.h) with two
 * environments, A and B, that both transform classes in ClassFileLoadHook:
 * each replaces the first '_' of the marker "JVMTIGEN_MARK" + "__" in the
 * class file with its letter, in a new buffer from Allocate. It prints what
 * each environment saw, so a test can check the chain (B sees A's output,
 * or the other way round) and the order; and ClassLoad and ClassPrepare for
 * the classes it saw with a marker or named in its options.
 *
 * Options: a comma-separated list; "retransform=A" (or B) gives that
 * environment can_retransform_classes (which moves it after the other);
 * "watch=NAME" also reports class NAME (internal form), transformed or not. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvmti.h"
#include "../agentkit.h"

#define MARK "JVMTIGEN_MARK"
#define MARK_LEN 15 /* MARK and its two slots */

static char watched[8][128];
static int n_watched;

static void say(jvmtiEnv *env, const char *fmt, const char *a, const char *b)
{
    void *letter = NULL;
    (*env)->GetEnvironmentLocalStorage(env, &letter);
    printf("%c: ", (char)(intptr_t)letter);
    printf(fmt, a, b);
    printf("\n");
    fflush(stdout);
}

static int is_watched(const char *name)
{
    for (int i = 0; i < n_watched; i++)
        if (name && strcmp(watched[i], name) == 0)
            return 1;
    return 0;
}

static const unsigned char *find_mark(const unsigned char *data, jint len)
{
    for (jint i = 0; i + MARK_LEN <= len; i++)
        if (memcmp(data + i, MARK, strlen(MARK)) == 0)
            return data + i;
    return NULL;
}

static void JNICALL class_file_load_hook(jvmtiEnv *env, JNIEnv *jni, jclass being_redefined,
                                         jobject loader, const char *name, jobject pd,
                                         jint len, const unsigned char *data, jint *new_len,
                                         unsigned char **new_data)
{
    (void)jni, (void)being_redefined, (void)loader, (void)pd;
    const unsigned char *m = find_mark(data, len);
    if (!m) {
        if (is_watched(name))
            say(env, "ClassFileLoadHook %s: no mark%s", name, "");
        return;
    }
    char seen[MARK_LEN + 1];
    memcpy(seen, m, MARK_LEN);
    seen[MARK_LEN] = '\0';
    say(env, "ClassFileLoadHook %s: saw %s", name, seen);
    if (n_watched < 8 && !is_watched(name))
        snprintf(watched[n_watched++], sizeof watched[0], "%s", name);
    unsigned char *out = NULL;
    if ((*env)->Allocate(env, len, &out) != JVMTI_ERROR_NONE)
        return;
    memcpy(out, data, (size_t)len);
    unsigned char *slot = memchr(out + (m - data) + strlen(MARK), '_', 2);
    void *letter = NULL;
    (*env)->GetEnvironmentLocalStorage(env, &letter);
    if (slot)
        *slot = (unsigned char)(intptr_t)letter;
    *new_data = out;
    *new_len = len;
}

static void report_class(jvmtiEnv *env, const char *event, jclass klass)
{
    char *sig = NULL;
    if ((*env)->GetClassSignature(env, klass, &sig, NULL) != JVMTI_ERROR_NONE || !sig)
        return;
    size_t n = strlen(sig);
    if (n > 2 && sig[0] == 'L') {
        sig[n - 1] = '\0';
        if (is_watched(sig + 1))
            say(env, "%s %s", event, sig + 1);
    }
    (*env)->Deallocate(env, (unsigned char *)sig);
}

static void JNICALL class_load(jvmtiEnv *env, JNIEnv *jni, jthread thread, jclass klass)
{
    (void)jni, (void)thread;
    report_class(env, "ClassLoad", klass);
}

static void JNICALL class_prepare(jvmtiEnv *env, JNIEnv *jni, jthread thread, jclass klass)
{
    (void)jni, (void)thread;
    report_class(env, "ClassPrepare", klass);
}

static int make_env(JavaVM *vm, char letter, int retransform)
{
    jvmtiEnv *env = NULL;
    if (!(env = agentkit_env(vm, JVMTI_VERSION_1_2)))
        return 0;
    (*env)->SetEnvironmentLocalStorage(env, (const void *)(intptr_t)letter);
    if (retransform) {
        jvmtiCapabilities caps;
        memset(&caps, 0, sizeof caps);
        caps.can_retransform_classes = 1;
        if ((*env)->AddCapabilities(env, &caps) != JVMTI_ERROR_NONE) {
            fprintf(stderr, "classes_agent: can_retransform_classes refused\n");
            return 0;
        }
    }
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.ClassFileLoadHook = class_file_load_hook;
    cb.ClassLoad = class_load;
    cb.ClassPrepare = class_prepare;
    const jvmtiEvent enable[] = {JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, JVMTI_EVENT_CLASS_LOAD,
                                 JVMTI_EVENT_CLASS_PREPARE};
    agentkit_events(env, &cb, 3, enable);
    return 1;
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    (void)reserved;
    char retransform = 0;
    char opts[512];
    snprintf(opts, sizeof opts, "%s", options ? options : "");
    for (char *o = strtok(opts, ","); o; o = strtok(NULL, ",")) {
        if (strncmp(o, "retransform=", 12) == 0)
            retransform = o[12];
        else if (strncmp(o, "watch=", 6) == 0 && n_watched < 8)
            snprintf(watched[n_watched++], sizeof watched[0], "%s", o + 6);
    }
    return make_env(vm, 'A', retransform == 'A') && make_env(vm, 'B', retransform == 'B')
               ? JNI_OK
               : JNI_ERR;
}
