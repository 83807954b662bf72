/* Defaults behind jvmtigen_hooks.h: the phase, the calling thread's kind,
 * and VM hooks that accept every handle until a VM installs its own. */
#include "hooks.h"

int jvmtigen_phase_now = JVMTI_PHASE_ONLOAD;
JVMTIGEN_TLS int jvmtigen_thread_kind_tls;
int jvmtigen_vm_has_threads;

void jvmtigen_set_phase(jvmtiPhase phase) { JVMTIGEN_STORE_RELAXED(&jvmtigen_phase_now, (int)phase); }

void jvmtigen_thread_attached(jvmtirt_thread_kind kind) { jvmtigen_thread_kind_tls = (int)kind; }

void jvmtigen_vm_threads_started(void) { JVMTIGEN_STORE_RELAXED(&jvmtigen_vm_has_threads, 1); }

static jvmtiError accept_thread(jvmtiEnv *env, jthread thread)
{
    (void)env, (void)thread;
    return JVMTI_ERROR_NONE;
}

static jvmtiError accept_class(jvmtiEnv *env, jclass klass, int of_member)
{
    (void)env, (void)klass, (void)of_member;
    return JVMTI_ERROR_NONE;
}

static jvmtiError accept_method(jvmtiEnv *env, jmethodID method)
{
    (void)env, (void)method;
    return JVMTI_ERROR_NONE;
}

static jboolean never_native(jvmtiEnv *env, jmethodID method)
{
    (void)env, (void)method;
    return JNI_FALSE;
}

static jvmtiError accept_field(jvmtiEnv *env, jclass klass, jfieldID field)
{
    (void)env, (void)klass, (void)field;
    return JVMTI_ERROR_NONE;
}

static jvmtiError accept_monitor(jvmtiEnv *env, jrawMonitorID monitor)
{
    (void)env, (void)monitor;
    return JVMTI_ERROR_NONE;
}

#define DEFAULT_HOOKS \
    {accept_thread, accept_class, accept_method, never_native, accept_field, accept_monitor}

static jvmtigen_vm_hooks defaults = DEFAULT_HOOKS;
jvmtigen_vm_hooks jvmtigen_vm = DEFAULT_HOOKS;

void jvmtigen_set_vm_hooks(const jvmtigen_vm_hooks *h)
{
#define TAKE(member) jvmtigen_vm.member = h && h->member ? h->member : defaults.member
    TAKE(check_thread);
    TAKE(check_class);
    TAKE(check_method);
    TAKE(method_is_native);
    TAKE(check_field);
    TAKE(check_monitor);
#undef TAKE
}

void jvmtigen_set_default_vm_hooks(const jvmtigen_vm_hooks *h)
{
#define SWAP(member)                                            \
    if (h->member) {                                            \
        if (jvmtigen_vm.member == defaults.member)              \
            jvmtigen_vm.member = h->member;                     \
        defaults.member = h->member;                            \
    }
    SWAP(check_thread);
    SWAP(check_class);
    SWAP(check_method);
    SWAP(method_is_native);
    SWAP(check_field);
    SWAP(check_monitor);
#undef SWAP
}
