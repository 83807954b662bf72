/* ClassFileLoadHook chaining (included by agent.c): three more environments
 * transform class ConfMarked, which Main loads (HotSpot) or the host loads
 * with -load (run). X and Y lack can_retransform_classes, P (created between
 * them) has it; each puts its letter in the first free slot of the marker
 * "JVMTIGEN_CONF" + "___" in the class file. Cases: what each environment
 * saw (cflh.seen.L), whether it was called at all for the class
 * (cflh.calls.L, counted at ClassPrepare), and the marker in the class the
 * VM defined (cflh.final: Main prints it in HotSpot, run reads the host's
 * -dump-classes copy). The spec's answer: X, then Y, then P, each on the
 * previous one's bytes, so "XYP". Then, at ClassPrepare, P retransforms the
 * class (cflh.retransform): only P is called again (cflh.retransform.seen.L
 * for each environment called, with class_being_redefined set), and it
 * starts from X and Y's load-time output, "XY_", not from the original
 * "___" (HotSpot 17 does so; the core keeps those bytes for it). */

#define CONF_MARK "JVMTIGEN_CONF"
#define CONF_MARK_LEN 16 /* with its three slots */

static jvmtiEnv *chain_envs[3];
static const char chain_letters[3] = {'X', 'P', 'Y'};
static int chain_calls[3];
static int chain_retransforming; /* P's RetransformClasses is under way */

static int chain_index(jvmtiEnv *env)
{
    for (int i = 0; i < 3; i++)
        if (chain_envs[i] == env)
            return i;
    return -1;
}

static void JNICALL chain_hook(jvmtiEnv *env, JNIEnv *jni, jclass being_redefined,
                               jobject loader, const char *name, jobject pd, jint len,
                               const unsigned char *data, jint *new_len,
                               unsigned char **new_data)
{
    (void)jni, (void)loader, (void)pd;
    int i = chain_index(env);
    if (i < 0 || !name || strcmp(name, "ConfMarked") != 0)
        return;
    if (!being_redefined)
        chain_calls[i]++;
    const unsigned char *m = NULL;
    for (jint k = 0; !m && k + CONF_MARK_LEN <= len; k++)
        if (memcmp(data + k, CONF_MARK, strlen(CONF_MARK)) == 0)
            m = data + k;
    char id[48];
    if (being_redefined)
        snprintf(id, sizeof id, "cflh.retransform.seen.%c%s", chain_letters[i],
                 chain_retransforming ? "" : ".unexpected");
    else
        snprintf(id, sizeof id, "cflh.seen.%c", chain_letters[i]);
    if (!m) {
        say(id, "no-mark");
        return;
    }
    say(id, "%.*s", CONF_MARK_LEN, (const char *)m);
    unsigned char *out = NULL;
    if ((*env)->Allocate(env, len, &out) != JVMTI_ERROR_NONE)
        return;
    memcpy(out, data, (size_t)len);
    unsigned char *slot = memchr(out + (m - data) + strlen(CONF_MARK), '_', 3);
    if (slot)
        *slot = (unsigned char)chain_letters[i];
    *new_data = out;
    *new_len = len;
}

static void JNICALL chain_prepare(jvmtiEnv *env, JNIEnv *jni, jthread thread, jclass klass)
{
    (void)jni, (void)thread;
    int i = chain_index(env);
    char *sig = NULL;
    if (i < 0 || (*env)->GetClassSignature(env, klass, &sig, NULL) != JVMTI_ERROR_NONE)
        return;
    if (sig && strcmp(sig, "LConfMarked;") == 0) {
        char id[32];
        snprintf(id, sizeof id, "cflh.calls.%c", chain_letters[i]);
        say(id, "%d", chain_calls[i]);
        if (chain_letters[i] == 'P') {
            chain_retransforming = 1;
            result("cflh.retransform", (*env)->RetransformClasses(env, 1, &klass));
            chain_retransforming = 0;
        }
    }
    (*env)->Deallocate(env, (unsigned char *)sig);
}

/* In Agent_OnLoad: the three environments, in the order X, P, Y. */
static void chain_onload(void)
{
    for (int i = 0; i < 3; i++) {
        if (!(chain_envs[i] = agentkit_env(vm, JVMTI_VERSION_11))) {
            say("cflh.setup", "GetEnv failed");
            return;
        }
        if (chain_letters[i] == 'P') {
            jvmtiCapabilities caps;
            memset(&caps, 0, sizeof caps);
            caps.can_retransform_classes = 1;
            result("cflh.setup.retransform", (*chain_envs[i])->AddCapabilities(chain_envs[i], &caps));
        }
        jvmtiEventCallbacks cb;
        memset(&cb, 0, sizeof cb);
        cb.ClassFileLoadHook = chain_hook;
        cb.ClassPrepare = chain_prepare;
        agentkit_events(chain_envs[i], &cb, 2,
                        (jvmtiEvent[]){JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, JVMTI_EVENT_CLASS_PREPARE});
    }
}
