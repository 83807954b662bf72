/* jvmti-host -soak:SECONDS: the VM kept busy for a bounded time, to soak
 * the runtime core under a real agent (tests/host/soak_agent.c).
 *
 * Each of the -threads:N worker threads posts events in a loop until the
 * time is up: ClassLoad and ClassPrepare (on itself), and now and then
 * DataDumpRequest and a GarbageCollectionStart/Finish pair. The main thread
 * samples the core's statistics and the bytes allocated meanwhile. The
 * agent does the rest (environments created and disposed, events toggled,
 * raw monitors contended) and checks what it is delivered.
 *
 * Two extension functions let the agent judge a delivery against its own
 * toggling: jvmtigen.host.Clock ticks a clock shared with the host and
 * returns the new time; jvmtigen.host.PostStart returns the time the
 * calling thread's current post began (read from the same clock just
 * before the post). A callback whose post began after its event was
 * disabled, or after its environment was disposed, is a late delivery.
 *
 * Memory: allocated bytes (glibc's mallinfo2 with a single arena, or the
 * sanitizer's allocator count) and the core's statistics are taken once
 * the agent is set up (after VMInit) and again after VMDeath, when the
 * agent has stopped its threads: they must be back where they were. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jvmtigen_post.h"
#include "jvmtirt.h"
#include "scaffold.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define HOST_SANITIZER_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define HOST_SANITIZER_ALLOCATOR 1
#endif
#endif
#ifdef HOST_SANITIZER_ALLOCATOR
/* The sanitizers' allocators count (their runtimes export it; gcc ships no
 * header declaring it). */
size_t __sanitizer_get_current_allocated_bytes(void);
static size_t allocated_bytes(void) { return __sanitizer_get_current_allocated_bytes(); }
static void single_arena(void) {}
#else
#include <malloc.h>
static size_t allocated_bytes(void) { return mallinfo2().uordblks; }
/* mallinfo2 sees the main arena only: keep every thread's allocations there. */
static void single_arena(void) { mallopt(M_ARENA_MAX, 1); }
#endif

enum { SOAK_CLASS_LOAD, SOAK_CLASS_PREPARE, SOAK_DATA_DUMP, SOAK_GC_START, SOAK_GC_FINISH,
       SOAK_EVENTS };
static const char *const soak_event_names[SOAK_EVENTS] = {
    "ClassLoad", "ClassPrepare", "DataDumpRequest", "GarbageCollectionStart",
    "GarbageCollectionFinish",
};

static double soak_seconds;
static long long soak_deadline_ns;
static jlong soak_clock;                      /* atomic */
static JVMTIGEN_TLS jlong post_started;       /* 0 outside a post */
static long soak_posts[SOAK_EVENTS];          /* atomic */
static size_t base_bytes, max_bytes;
static jvmtirt_stats base_stats;
static long max_pending, max_envs;
static long pending_samples[1 << 16], n_samples; /* the backlog every 10 ms */

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}
static int failures;

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static jlong tick(void) { return __atomic_add_fetch(&soak_clock, 1, __ATOMIC_SEQ_CST); }

static jvmtiError JNICALL ext_clock(jvmtiEnv *env, ...)
{
    va_list ap;
    va_start(ap, env);
    jlong *now_ptr = va_arg(ap, jlong *);
    va_end(ap);
    if (!now_ptr)
        return JVMTI_ERROR_NULL_POINTER;
    *now_ptr = tick();
    return JVMTI_ERROR_NONE;
}

static jvmtiError JNICALL ext_post_start(jvmtiEnv *env, ...)
{
    va_list ap;
    va_start(ap, env);
    jlong *start_ptr = va_arg(ap, jlong *);
    va_end(ap);
    if (!start_ptr)
        return JVMTI_ERROR_NULL_POINTER;
    *start_ptr = post_started;
    return JVMTI_ERROR_NONE;
}

static void line(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s - jvmti-host: soak: ", ok ? "ok" : "not ok");
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
    va_end(ap);
    failures += !ok;
}

int soak_option(const char *arg)
{
    char *end;
    soak_seconds = strtod(arg, &end);
    return !*end && soak_seconds > 0 && soak_seconds <= 3600;
}

int soak_on(void) { return soak_seconds > 0; }

void soak_setup(void)
{
    single_arena();
    static jvmtiParamInfo out_param = {"value_ptr", JVMTI_KIND_OUT, JVMTI_TYPE_JLONG, JNI_FALSE};
    jvmtiExtensionFunctionInfo info = {ext_clock, "jvmtigen.host.Clock",
                                       "Ticks the host's soak clock; the new time",
                                       1, &out_param, 0, NULL};
    jvmtirt_extension_function_add(&info);
    info.func = ext_post_start;
    info.id = "jvmtigen.host.PostStart";
    info.short_description = "When the calling thread's current post began (soak clock; 0: none)";
    jvmtirt_extension_function_add(&info);
}

void soak_begin(void)
{
    jvmtirt_get_stats(&base_stats);
    base_bytes = max_bytes = allocated_bytes();
    max_pending = 0;
    max_envs = base_stats.environments;
    __atomic_store_n(&soak_deadline_ns, now_ns() + (long long)(soak_seconds * 1e9),
                     __ATOMIC_SEQ_CST);
}

static void post(int which, JNIEnv *jni, jthread thread, jclass klass, long *counts)
{
    post_started = tick();
    switch (which) {
    case SOAK_CLASS_LOAD: jvmtirt_post_ClassLoad(jni, thread, klass); break;
    case SOAK_CLASS_PREPARE: jvmtirt_post_ClassPrepare(jni, thread, klass); break;
    case SOAK_DATA_DUMP: jvmtirt_post_DataDumpRequest(); break;
    case SOAK_GC_START: jvmtirt_post_GarbageCollectionStart(); break;
    case SOAK_GC_FINISH: jvmtirt_post_GarbageCollectionFinish(); break;
    }
    post_started = 0;
    counts[which]++;
}

void soak_work(host_thread *t)
{
    JNIEnv *jni = (JNIEnv *)&t->jni;
    jthread self = (jthread)&t->obj;
    long counts[SOAK_EVENTS] = {0};
    long long deadline = __atomic_load_n(&soak_deadline_ns, __ATOMIC_SEQ_CST);
    for (unsigned i = 0; (i & 63) || now_ns() < deadline; i++) {
        jclass klass = (jclass)&host_classes[i % (unsigned)host_n_classes].obj;
        post(SOAK_CLASS_LOAD, jni, self, klass, counts);
        post(SOAK_CLASS_PREPARE, jni, self, klass, counts);
        if (i % 16 == 0)
            post(SOAK_DATA_DUMP, jni, self, klass, counts);
        if (i % 32 == 0) {
            post(SOAK_GC_START, jni, self, klass, counts);
            post(SOAK_GC_FINISH, jni, self, klass, counts);
        }
    }
    for (int e = 0; e < SOAK_EVENTS; e++)
        __atomic_add_fetch(&soak_posts[e], counts[e], __ATOMIC_RELAXED);
}

void soak_watch(int (*running)(void))
{
    while (running()) {
        jvmtirt_stats s;
        jvmtirt_get_stats(&s);
        if (s.pending_disposal > max_pending)
            max_pending = s.pending_disposal;
        if (n_samples < (long)(sizeof pending_samples / sizeof *pending_samples))
            pending_samples[n_samples++] = s.pending_disposal;
        if (s.environments > max_envs)
            max_envs = s.environments;
        size_t b = allocated_bytes();
        if (b > max_bytes)
            max_bytes = b;
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

int soak_end(void)
{
    int n_threads = host_n_workers();
    jvmtirt_stats s;
    jvmtirt_get_stats(&s);
    size_t bytes = allocated_bytes();
    long total = 0;
    printf("jvmti-host: soak: posted");
    for (int e = 0; e < SOAK_EVENTS; e++) {
        printf(" %s=%ld", soak_event_names[e], soak_posts[e]);
        total += soak_posts[e];
    }
    printf("\n");
    line(total > 0, "%d threads posted %ld events in %.1f s", n_threads, total, soak_seconds);
    line(s.environments == base_stats.environments,
         "environments back to the baseline (%ld; %ld at most during the run)",
         s.environments, max_envs);
    /* Disposed environments are reclaimed while events keep coming, not
     * only once posting pauses. When reclaiming waited for a moment with no
     * post at all, the backlog, sampled every 10 ms, only grew between the
     * rare pauses (a median in the thousands, peaks of 10,000-28,000 in 3 s
     * with six threads posting); reclaimed during the run, it falls between
     * many pairs of samples. Its size is the disposals made during the
     * longest post under way, so it grows with the machine's load (a median
     * of 1,248 under load 20): what is judged is that it falls, in at least
     * one sample in ten, and is 0 at the end. */
    long median = 0, falls = 0;
    for (long i = 1; i < n_samples; i++)
        falls += pending_samples[i] < pending_samples[i - 1];
    if (n_samples) {
        qsort(pending_samples, (size_t)n_samples, sizeof *pending_samples, cmp_long);
        median = pending_samples[n_samples / 2];
    }
    line(s.pending_disposal == 0 && n_samples > 1 && falls * 10 >= n_samples,
         "disposed environments reclaimed during the run (the backlog fell in %ld of %ld samples; "
         "median %ld, at most %ld, %ld at the end)",
         falls, n_samples, median, max_pending, s.pending_disposal);
    line(s.raw_monitors == base_stats.raw_monitors, "raw monitors back to the baseline (%ld)",
         s.raw_monitors);
    line(s.threads <= base_stats.threads, "thread records back to the baseline (%ld, was %ld)",
         s.threads, base_stats.threads);
    /* A little slack for what the C library keeps (stdio buffers), and the
     * environment slots the core keeps for reuse (never unmapped, so that a
     * stale jvmtiEnv* is detected: their number is the most environments
     * alive or awaiting reclamation at once), each in its own malloc chunk
     * (a header and rounding: up to 16 bytes more than the slot). */
    size_t slots = (size_t)(s.env_slot_bytes - base_stats.env_slot_bytes) +
                   16 * (size_t)(s.env_slots - base_stats.env_slots);
    line(bytes <= base_bytes + 64 * 1024 + slots,
         "allocated memory back to the baseline (%zu bytes, was %zu, %zu in %ld environment slots "
         "kept; at most %zu during the run)",
         bytes, base_bytes, slots, s.env_slots - base_stats.env_slots, max_bytes);
    return failures;
}
