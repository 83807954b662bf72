/* ns per call of the runtime core linked as a static library, no VM and no
 * agent: through the function table an agent uses, GetPhase,
 * GetEnvironmentLocalStorage, its NULL-pointer error,
 * Allocate+Deallocate, posting an event that nobody enabled (ClassLoad,
 * and ClassFileLoadHook with its chained out-parameters) and one that one
 * environment enabled (a trivial callback), SetTag and GetTag over
 * 100000 tagged objects (32-byte objects, as a heap lays them out), and
 * GetObjectsWithTags finding all of them. The thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID), best of several rounds; an empty loop is
 * measured alongside and subtracted from the first cases.
 *
 * Nothing here is set against HotSpot: the objects are addresses in an
 * array, not a VM's. The core against HotSpot is the conformance agent's
 * timings in jvmti-host and HotSpot, the same calls in one run (make bench
 * prints both). SetTag and GetTag are timed as that agent times them, for
 * scale: the same loop (the object read from an array of references, the
 * result dropped), nothing subtracted, best of 15 rounds of ITERS/15
 * calls, SetTag's rounds before GetTag's. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "jvmtigen_post.h"
#include "jvmtirt.h"

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static volatile long delivered;
static void JNICALL on_class_prepare(jvmtiEnv *e, JNIEnv *j, jthread t, jclass k)
{
    (void)e, (void)j, (void)t, (void)k;
    delivered++;
}

enum { EMPTY, PHASE, ELS, NULLPTR, ALLOC, POST_OFF, POST_HOOK_OFF, POST_ON, N_CASES };
static const char *const names[N_CASES] = {
    "empty loop", "GetPhase", "GetEnvironmentLocalStorage", "GetEnvLocalStorage(NULL)",
    "Allocate+Deallocate", "post, event disabled", "ClassFileLoadHook disabled",
    "post, event enabled",
};

#define N_OBJECTS 100000
static char (*heap)[32]; /* the objects: a reference is an address in it */
#define OBJECT(i) ((jobject)(void *)heap[(i) % N_OBJECTS])
static jobject *refs; /* OBJECT(i), as the agent holds its objects */

/* ns per call of n SetTag (what 0) or GetTag (1) calls, timed as the
 * conformance agent times them (its time_tags). */
static double time_tags(jvmtiEnv *env, int what, long n)
{
    jlong t;
    double t0 = now_ns();
    switch (what) {
    case 0:
        for (long i = 0; i < n; i++)
            (*env)->SetTag(env, refs[i % N_OBJECTS], (jlong)i + 1);
        break;
    case 1:
        for (long i = 0; i < n; i++)
            (*env)->GetTag(env, refs[i % N_OBJECTS], &t);
        break;
    }
    return (now_ns() - t0) / (double)n;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 20000000L;
    int rounds = argc > 2 ? atoi(argv[2]) : 7;
    long tag_iters = argc > 3 ? atol(argv[3]) : 5000000L; /* the agent's ITERS */
    jvmtirt_config config = JVMTIRT_CONFIG_INIT;
    config.potential.can_tag_objects = 1;
    jvmtirt_init(&config);
    jvmtiEnv *env, *env2;
    if (jvmtirt_get_env((void **)&env, JVMTI_VERSION) != JNI_OK ||
        jvmtirt_get_env((void **)&env2, JVMTI_VERSION) != JNI_OK)
        return 1;
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtirt_thread_start(1, JVMTIRT_JAVA_THREAD);
    jvmtiEventCallbacks cb = {0};
    cb.ClassPrepare = on_class_prepare;
    (*env2)->SetEventCallbacks(env2, &cb, (jint)sizeof cb);
    (*env2)->SetEventNotificationMode(env2, JVMTI_ENABLE, JVMTI_EVENT_CLASS_PREPARE, NULL);
    jvmtiCapabilities tagging = {0};
    tagging.can_tag_objects = 1;
    heap = calloc(N_OBJECTS, sizeof *heap);
    refs = calloc(N_OBJECTS, sizeof *refs);
    if (!heap || !refs || (*env)->AddCapabilities(env, &tagging) != JVMTI_ERROR_NONE)
        return 1;
    for (long i = 0; i < N_OBJECTS; i++)
        refs[i] = OBJECT(i);
    for (long i = 0; i < N_OBJECTS; i++)
        (*env)->SetTag(env, OBJECT(i), 1);

    /* Each timed operation must do what it says before it is timed. */
    jvmtiPhase phase;
    void *data;
    unsigned char *mem;
    if ((*env)->GetPhase(env, &phase) != JVMTI_ERROR_NONE || phase != JVMTI_PHASE_LIVE ||
        (*env)->GetEnvironmentLocalStorage(env, NULL) != JVMTI_ERROR_NULL_POINTER ||
        (*env)->Allocate(env, 64, &mem) != JVMTI_ERROR_NONE ||
        (*env)->Deallocate(env, mem) != JVMTI_ERROR_NONE) {
        fprintf(stderr, "bench: the runtime does not behave\n");
        return 1;
    }
    jvmtirt_post_ClassPrepare(NULL, NULL, NULL);
    jvmtirt_post_ClassLoad(NULL, NULL, NULL);
    if (delivered != 1) {
        fprintf(stderr, "bench: posting does not behave (%ld deliveries)\n", delivered);
        return 1;
    }

    double best[N_CASES];
    for (int c = 0; c < N_CASES; c++)
        best[c] = 1e300;
    volatile int acc = 0;
    for (int r = 0; r < rounds; r++) {
        for (int c = 0; c < N_CASES; c++) {
            long m = c == ALLOC || c == POST_ON ? n / 4 : n;
            double t0 = now_ns();
            switch (c) {
            case EMPTY:
                for (long i = 0; i < m; i++)
                    __asm__ volatile("" ::: "memory");
                break;
            case PHASE:
                for (long i = 0; i < m; i++)
                    acc += (*env)->GetPhase(env, &phase);
                break;
            case ELS:
                for (long i = 0; i < m; i++)
                    acc += (*env)->GetEnvironmentLocalStorage(env, &data);
                break;
            case NULLPTR:
                for (long i = 0; i < m; i++)
                    acc += (*env)->GetEnvironmentLocalStorage(env, NULL);
                break;
            case ALLOC:
                for (long i = 0; i < m; i++) {
                    acc += (*env)->Allocate(env, 64, &mem);
                    acc += (*env)->Deallocate(env, mem);
                }
                break;
            case POST_OFF:
                for (long i = 0; i < m; i++) {
                    jvmtirt_post_ClassLoad(NULL, NULL, NULL);
                    __asm__ volatile("" ::: "memory");
                }
                break;
            case POST_HOOK_OFF: {
                jint new_len = 0;
                unsigned char *new_data = NULL;
                for (long i = 0; i < m; i++) {
                    jvmtirt_post_ClassFileLoadHook(NULL, NULL, NULL, "C", NULL, 1,
                                                    (const unsigned char *)"C", &new_len,
                                                    &new_data);
                    __asm__ volatile("" ::: "memory");
                }
                acc += new_data != NULL;
                break;
            }
            case POST_ON:
                for (long i = 0; i < m; i++)
                    jvmtirt_post_ClassPrepare(NULL, NULL, NULL);
                break;
            }
            double per = (now_ns() - t0) / (double)m;
            if (per < best[c])
                best[c] = per;
        }
    }
    for (int c = 1; c < N_CASES; c++) {
        double ns = best[c] - best[EMPTY];
        if (ns < 0)
            ns = 0;
        printf("bench: core (static library, no VM) %-28s %7.2f ns/call (thread CPU, best of %d, "
               "empty loop subtracted)\n",
               names[c], ns, rounds);
    }
    static const char *const tag_names[] = {"SetTag (100k objects)", "GetTag (100k objects)"};
    for (int w = 0; w < 2; w++) {
        double tag_best = 1e300;
        for (int r = 0; r < 15; r++) {
            double ns = time_tags(env, w, tag_iters / 15 > 0 ? tag_iters / 15 : 1);
            if (ns < tag_best)
                tag_best = ns;
        }
        printf("bench: core (static library, no VM) %-28s %7.2f ns/call (32-byte fake objects; "
               "thread CPU, best of 15, nothing subtracted)\n",
               tag_names[w], tag_best);
    }
    /* GetObjectsWithTags finding all 100000 objects (one tag). */
    for (long i = 0; i < N_OBJECTS; i++)
        (*env)->SetTag(env, OBJECT(i), 7);
    jlong want = 7;
    double gowt = 1e300;
    for (int r = 0; r < rounds; r++) {
        jint count = 0;
        jobject *objs;
        jlong *tags;
        double t0 = now_ns();
        acc += (*env)->GetObjectsWithTags(env, 1, &want, &count, &objs, &tags);
        double ns = now_ns() - t0;
        (*env)->Deallocate(env, (unsigned char *)objs);
        (*env)->Deallocate(env, (unsigned char *)tags);
        if (count != N_OBJECTS) {
            fprintf(stderr, "bench: GetObjectsWithTags found %d objects\n", (int)count);
            return 1;
        }
        if (ns < gowt)
            gowt = ns;
    }
    printf("bench: core (static library, no VM) %-28s %7.2f ms/call (%.2f ns/object; thread CPU, "
           "best of %d)\n",
           "GetObjectsWithTags (100k)", gowt / 1e6, gowt / N_OBJECTS, rounds);
    free(refs);
    free(heap);
    jvmtirt_thread_end();
    jvmtirt_shutdown();
    return acc == 12345 ? 2 : 0;
}
