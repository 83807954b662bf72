/* tag_bias.c: the tag map's biased shards (runtime/objects/tags.c) under a race.
 *
 * usage: tag_bias [SECONDS]   (default 1)
 *
 * A shard is biased to the thread that created the map: that thread
 * writes it without the spin lock, and the first other writer takes the
 * bias away. Each round makes a new environment whose map the main thread
 * creates (so it owns every shard), then a second thread starts writing
 * the same shards while the main thread is still inserting, replacing and
 * removing: every shard is taken away from an owner that is busy in it.
 * Each of the two writes keys of its own, in the same 1 KiB blocks (so the
 * same shards and runs of slots), and at the end every key must hold the
 * last tag its writer gave it. Two writers inside one shard at once lose
 * keys (both take one empty slot, or one inserts into a table the other is
 * replacing): a revocation that did not wait for the owner fails here.
 * Race-free under -fsanitize=thread. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "jvmtirt.h"

#define TAP_PREFIX "tag bias: "
#include "tap.h"

#define KEYS 4096 /* per writer: 64 per shard on average, so tables grow */

typedef struct ref {
    uintptr_t id;
} ref;

static uintptr_t object_id(jobject o) { return ((ref *)(void *)o)->id; }

static ref mine[KEYS], theirs[KEYS];
static int owner_started; /* atomic: the main thread is writing this round's map */
static jvmtiEnv *round_env;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The tag key i of a writer (base 0 or 1000000) holds after pass p;
 * pass 2 removes the odd keys, pass 3 tags them again. */
static jlong tag_of(jlong base, int pass, int i)
{
    if (pass == 2 && i % 2)
        return 0;
    return base + (jlong)pass * KEYS + i + 1;
}

/* One writer's passes over its keys, from the front or from the back. */
static long write_keys(jvmtiEnv *e, ref *keys, jlong base, int backwards)
{
    long bad = 0;
    for (int pass = 0; pass < 4; pass++)
        for (int k = 0; k < KEYS; k++) {
            int i = backwards ? KEYS - 1 - k : k;
            if ((*e)->SetTag(e, (jobject)&keys[i], tag_of(base, pass, i)) != JVMTI_ERROR_NONE)
                bad++;
            if (pass == 0 && k == 64)
                __atomic_store_n(&owner_started, 1, __ATOMIC_RELEASE);
        }
    return bad;
}

static long other_bad; /* written by the other writer, read after the join */

static void *other_writer(void *arg)
{
    (void)arg;
    jvmtirt_thread_start(2, JVMTIRT_JAVA_THREAD);
    while (!__atomic_load_n(&owner_started, __ATOMIC_ACQUIRE))
        ;
    other_bad = write_keys(round_env, theirs, 1000000, 1);
    jvmtirt_thread_end();
    return NULL;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 1.0;
    for (int i = 0; i < KEYS; i++) {
        mine[i].id = ((uintptr_t)i + 1) << 10;  /* a block each: every shard */
        theirs[i].id = mine[i].id + 16;         /* the same block */
    }
    jvmtirt_config cfg = JVMTIRT_CONFIG_INIT;
    cfg.potential.can_tag_objects = 1;
    cfg.object_id = object_id;
    jvmtirt_init(&cfg);
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtirt_thread_start(1, JVMTIRT_JAVA_THREAD);
    jvmtiCapabilities caps = {0};
    caps.can_tag_objects = 1;
    long rounds = 0, errors = 0, lost = 0;
    double end = now_s() + seconds;
    do {
        void *p = NULL;
        if (jvmtirt_get_env(&p, JVMTI_VERSION) != JNI_OK || !p) {
            tap_line(0, "jvmtirt_get_env gives an environment");
            return 1;
        }
        jvmtiEnv *e = p;
        if ((*e)->AddCapabilities(e, &caps) != JVMTI_ERROR_NONE) {
            tap_line(0, "AddCapabilities(can_tag_objects)");
            return 1;
        }
        /* The main thread creates the map, so every shard is biased to it. */
        (*e)->SetTag(e, (jobject)&mine[0], tag_of(0, 0, 0));
        round_env = e;
        __atomic_store_n(&owner_started, 0, __ATOMIC_RELAXED);
        pthread_t t;
        pthread_create(&t, NULL, other_writer, NULL);
        errors += write_keys(e, mine, 0, 0);
        pthread_join(t, NULL);
        errors += other_bad;
        for (int i = 0; i < KEYS; i++) {
            jlong a = -1, b = -1;
            (*e)->GetTag(e, (jobject)&mine[i], &a);
            (*e)->GetTag(e, (jobject)&theirs[i], &b);
            lost += (a != tag_of(0, 3, i)) + (b != tag_of(1000000, 3, i));
        }
        (*e)->DisposeEnvironment(e);
        rounds++;
    } while (now_s() < end);
    TAP_CHECK_EQ(errors, 0, "every SetTag of two writers racing for biased shards succeeds "
                            "(%ld rounds)", rounds);
    TAP_CHECK_EQ(lost, 0, "every key holds its writer's last tag after the bias was taken away "
                          "from a busy owner (%ld rounds of %d keys each)", rounds, 2 * KEYS);
    jvmtirt_thread_end();
    jvmtirt_shutdown();
    return tap_failures != 0;
}
