/* jvmtigen_hooks.h: what the generated trampolines read of the core.
 *
 * The trampolines (jvmtigen_entry.c, jvmtigen_trace.c) check everything the
 * spec lets them check before they call an implementation function:
 *
 *   - phase, environment validity and capabilities are read inline from the
 *     core's state (a global phase and the head of every environment), so
 *     a live-phase call costs a few loads and compares;
 *   - the calling thread's kind is a thread-local that jvmtirt_thread_start
 *     and jvmtirt_thread_end set;
 *   - checks only the VM can answer (is this jthread a live thread? this
 *     jclass a class?) call through jvmtigen_vm, which jvmtirt_init fills
 *     from the config's check_thread, check_class, ... (jvmtirt.h); unset
 *     ones accept any non-NULL handle (NULL is rejected before a check is
 *     called).
 *
 * A VM does not call anything here: it includes this header through
 * jvmtirt.h. Each check is a JVMTIGEN_* macro defined only where the
 * compile line did not define it first: the core's own build of the
 * trampolines does so for one (runtime/README.md, "The port"). */
#ifndef JVMTIGEN_HOOKS_H
#define JVMTIGEN_HOOKS_H

#include "jvmti.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- portability ---- */
#if defined(__GNUC__) || defined(__clang__)
#define JVMTIGEN_LIKELY(x) __builtin_expect(!!(x), 1)
#define JVMTIGEN_UNLIKELY(x) __builtin_expect(!!(x), 0)
/* initial-exec: a thread-local read is one instruction, not a call to
 * __tls_get_addr, also in the shared library (which a VM links, or loads
 * early enough for glibc's static TLS reserve). */
#define JVMTIGEN_TLS __thread __attribute__((tls_model("initial-exec")))
#define JVMTIGEN_LOAD_RELAXED(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define JVMTIGEN_STORE_RELAXED(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#else
#define JVMTIGEN_LIKELY(x) (x)
#define JVMTIGEN_UNLIKELY(x) (x)
#if defined(_MSC_VER)
#define JVMTIGEN_TLS __declspec(thread)
#else
#define JVMTIGEN_TLS _Thread_local
#endif
#define JVMTIGEN_LOAD_RELAXED(p) (*(volatile const int *)(p))
#define JVMTIGEN_STORE_RELAXED(p, v) (*(volatile int *)(p) = (v))
#endif

/* ---- the environment as the trampolines see it ----
 * Every jvmtiEnv the runtime hands out points at a struct that begins with
 * this head. `magic` is JVMTIGEN_ENV_MAGIC while the environment is valid and
 * something else once it is disposed. */
typedef struct jvmtigen_env_head {
    const struct jvmtiInterface_1_ *functions; /* what jvmtiEnv points to */
    int magic;
    jvmtiCapabilities capabilities;            /* the ones it possesses */
} jvmtigen_env_head;

#define JVMTIGEN_ENV_MAGIC 0x4A564D54 /* "JVMT" */

#define JVMTIGEN_ENV_HEAD(env) ((const jvmtigen_env_head *)(const void *)(env))

#ifndef JVMTIGEN_ENV_VALID
#define JVMTIGEN_ENV_VALID(env) \
    ((env) != NULL && JVMTIGEN_LOAD_RELAXED(&JVMTIGEN_ENV_HEAD(env)->magic) == JVMTIGEN_ENV_MAGIC)
#endif

/* An environment's capabilities change (AddCapabilities on one thread)
 * while calls on other threads test them: both sides go word by word with
 * relaxed atomics, so a test sees each word either before or after. */
#if defined(__GNUC__) || defined(__clang__)
typedef unsigned int __attribute__((may_alias)) jvmtigen_cap_word;
#else
typedef unsigned int jvmtigen_cap_word;
#endif
#define JVMTIGEN_CAP_WORDS (sizeof(jvmtiCapabilities) / sizeof(jvmtigen_cap_word))

static inline jvmtiCapabilities jvmtigen_capabilities_load(const jvmtiCapabilities *from)
{
    jvmtiCapabilities c;
    const jvmtigen_cap_word *src = (const jvmtigen_cap_word *)(const void *)from;
    jvmtigen_cap_word *dst = (jvmtigen_cap_word *)(void *)&c;
    for (unsigned i = 0; i < JVMTIGEN_CAP_WORDS; i++)
        dst[i] = (jvmtigen_cap_word)JVMTIGEN_LOAD_RELAXED(&src[i]);
    return c;
}

static inline void jvmtigen_capabilities_store(jvmtiCapabilities *to, const jvmtiCapabilities *c)
{
    jvmtigen_cap_word *dst = (jvmtigen_cap_word *)(void *)to;
    const jvmtigen_cap_word *src = (const jvmtigen_cap_word *)(const void *)c;
    for (unsigned i = 0; i < JVMTIGEN_CAP_WORDS; i++)
        JVMTIGEN_STORE_RELAXED(&dst[i], src[i]);
}

/* cap is a field name of jvmtiCapabilities. */
#ifndef JVMTIGEN_HAS_CAPABILITY
#define JVMTIGEN_HAS_CAPABILITY(env, cap) \
    (jvmtigen_capabilities_load(&JVMTIGEN_ENV_HEAD(env)->capabilities).cap != 0)
#endif

/* ---- the phase ---- */
extern int jvmtigen_phase_now; /* a jvmtiPhase; JVMTI_PHASE_ONLOAD at start */

#ifndef JVMTIGEN_PHASE
#define JVMTIGEN_PHASE(env) ((jvmtiPhase)JVMTIGEN_LOAD_RELAXED(&jvmtigen_phase_now))
#endif

/* ---- the calling thread ---- */
/* What a VM passes to jvmtirt_thread_start (UNATTACHED, VM_THREAD or
 * JAVA_THREAD); the numbers are part of the ABI. */
typedef enum jvmtirt_thread_kind {
    JVMTIRT_THREAD_UNKNOWN = 0, /* this thread never said (the thread-local's default) */
    JVMTIRT_UNATTACHED = 2,     /* a native thread the VM does not know */
    JVMTIRT_VM_THREAD = 3,      /* one of the VM's own threads (compiler, GC, ...) */
    JVMTIRT_JAVA_THREAD = 4     /* a Java thread, or a native one attached through JNI */
} jvmtirt_thread_kind;

/* Not a kind a VM passes: what an unknown thread is taken for while the
 * VM has no threads yet (early OnLoad), where the trampolines allow what
 * needs a Java thread later. */
#define JVMTIGEN_NO_THREADS ((jvmtirt_thread_kind)1)

extern JVMTIGEN_TLS int jvmtigen_thread_kind_tls;
extern int jvmtigen_vm_has_threads;

static inline jvmtirt_thread_kind jvmtigen_current_thread_kind(void)
{
    int k = jvmtigen_thread_kind_tls;
    if (JVMTIGEN_LIKELY(k != JVMTIRT_THREAD_UNKNOWN))
        return (jvmtirt_thread_kind)k;
    return JVMTIGEN_LOAD_RELAXED(&jvmtigen_vm_has_threads) ? JVMTIRT_UNATTACHED
                                                          : JVMTIGEN_NO_THREADS;
}

#ifndef JVMTIGEN_THREAD_KIND
#define JVMTIGEN_THREAD_KIND() jvmtigen_current_thread_kind()
#endif

/* ---- checks only the VM can make ----
 * The config's operations of the same names (jvmtirt.h says what each
 * answers); each returns JVMTI_ERROR_NONE or the error the trampoline
 * returns. The handle is never NULL when one is called. */
typedef struct jvmtigen_vm_hooks {
    jvmtiError (*check_thread)(jvmtiEnv *env, jthread thread);
    jvmtiError (*check_class)(jvmtiEnv *env, jclass klass, int of_member);
    jvmtiError (*check_method)(jvmtiEnv *env, jmethodID method);
    jboolean (*method_is_native)(jvmtiEnv *env, jmethodID method);
    jvmtiError (*check_field)(jvmtiEnv *env, jclass klass, jfieldID field);
    jvmtiError (*check_monitor)(jvmtiEnv *env, jrawMonitorID monitor); /* the core's own */
} jvmtigen_vm_hooks;

extern jvmtigen_vm_hooks jvmtigen_vm;

#ifndef JVMTIGEN_CHECK_THREAD
#define JVMTIGEN_CHECK_THREAD(env, t) jvmtigen_vm.check_thread((env), (t))
#endif
#ifndef JVMTIGEN_CHECK_CLASS
#define JVMTIGEN_CHECK_CLASS(env, k, of_member) jvmtigen_vm.check_class((env), (k), (of_member))
#endif
#ifndef JVMTIGEN_CHECK_METHOD
#define JVMTIGEN_CHECK_METHOD(env, m) jvmtigen_vm.check_method((env), (m))
#endif
#ifndef JVMTIGEN_METHOD_IS_NATIVE
#define JVMTIGEN_METHOD_IS_NATIVE(env, m) jvmtigen_vm.method_is_native((env), (m))
#endif
#ifndef JVMTIGEN_CHECK_FIELD
#define JVMTIGEN_CHECK_FIELD(env, k, f) jvmtigen_vm.check_field((env), (k), (f))
#endif
#ifndef JVMTIGEN_CHECK_MONITOR
#define JVMTIGEN_CHECK_MONITOR(env, m) jvmtigen_vm.check_monitor((env), (m))
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* JVMTIGEN_HOOKS_H */
