/* Object tags: SetTag, GetTag, GetObjectsWithTags, and ObjectFree when the
 * VM reports dead objects (jvmtirt_objects_freed).
 *
 * Each environment has its own map from an object's identity (a uintptr_t
 * the VM gives through config.object_id, or the reference's own value) to
 * its tag. The map is split into RT_TAG_SHARDS shards by the identity's
 * hash, each an open-addressing table (linear probing, deletion by
 * shifting back, no tombstones) under its own lock: calls on different
 * objects from many threads rarely meet, and one call costs one
 * uncontended lock. It is a spin lock (held for a probe and a store; an
 * uncontended one is one atomic exchange and a plain store, where a mutex
 * is two atomic operations and two library calls). A shard holds nothing
 * but keys and tags, so a lookup touches one or two cache lines.
 *
 * Placement keeps neighbours together: the identity's 1 KiB block chooses
 * the shard and a hashed offset in its table, and the offset within the
 * block (in units of the shard's key alignment, the trailing zeros common
 * to its keys) is added to it. Objects that sit together in the heap, and
 * are tagged or looked up together (a pass in allocation order), share
 * cache lines of the table instead of costing a miss each; blocks are
 * scattered, so regularly spaced objects do not pile onto one slot. A VM
 * whose identities are serial numbers gets alignment 1 and consecutive
 * slots.
 *
 * Lifetime: the map is created by the environment's first SetTag (by
 * compare-and-swap, so two first calls race safely) and freed with the
 * environment (rt_objects_env_freed, from env.c), which happens only once no
 * posting cursor can see it: the GC notification walks environments with
 * a cursor, so it never touches a freed map. */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "jvmtigen_impl.h"
#include "rt.h"

#define RT_TAG_SHARDS 64
#define RT_TAG_MIN_CAP 16

typedef struct rt_tag_slot {
    uintptr_t key; /* 0: empty (no object has identity 0) */
    jlong tag;     /* never 0 in a used slot */
} rt_tag_slot;

#define RT_TAG_BLOCK_BITS 10 /* 1 KiB of identities place together */
#define RT_TAG_MAX_SHIFT 6   /* coarser alignments count as 64 */

typedef struct rt_tag_shard {
    int lock; /* spin_lock */
    rt_tag_slot *slots;
    size_t cap;     /* a power of two, or 0 before the first insert */
    size_t count;
    unsigned shift; /* log2 of the alignment of every key held */
} __attribute__((aligned(64))) rt_tag_shard; /* one per cache line: no false sharing */

struct rt_tag_map {
    rt_tag_shard shards[RT_TAG_SHARDS];
};

/* A shard's lock. Held briefly, except while a shard is rebuilt: after a
 * few tries a waiter gives its CPU away rather than spin on. */
static inline void spin_lock(int *l)
{
    for (unsigned tries = 0;; tries++) {
        if (!__atomic_load_n(l, __ATOMIC_RELAXED) && !__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
            return;
        if (tries >= 64)
            sched_yield();
#if defined(__x86_64__) || defined(__i386__)
        else
            __builtin_ia32_pause();
#endif
    }
}

static inline void spin_unlock(int *l) { __atomic_store_n(l, 0, __ATOMIC_RELEASE); }

/* The hash of the key's block. */
static inline uint64_t mix(uintptr_t key)
{
    uint64_t h = (uint64_t)(key >> RT_TAG_BLOCK_BITS) * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}

/* The block's top hash bits choose the shard. */
static inline rt_tag_shard *shard_of(struct rt_tag_map *m, uint64_t h)
{
    return &m->shards[h >> 58];
}

/* The key's home slot: its block's place plus its offset in the block. */
static inline size_t home(const rt_tag_shard *s, uintptr_t key, uint64_t h)
{
    size_t offset = (key & (((uintptr_t)1 << RT_TAG_BLOCK_BITS) - 1)) >> s->shift;
    return ((size_t)h + offset) & (s->cap - 1);
}

/* The slot holding key, or the empty slot where it would go. */
static size_t probe(const rt_tag_shard *s, uintptr_t key, uint64_t h)
{
    size_t mask = s->cap - 1, i = home(s, key, h);
    while (s->slots[i].key != 0 && s->slots[i].key != key)
        i = (i + 1) & mask;
    return i;
}

/* Rebuilds the table with cap slots and the given key alignment. */
static int rehash(rt_tag_shard *s, size_t cap, unsigned shift)
{
    rt_tag_slot *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return 0;
    rt_tag_slot *old = s->slots;
    size_t old_cap = s->cap;
    s->slots = slots;
    s->cap = cap;
    s->shift = shift;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].key != 0)
            slots[probe(s, old[i].key, mix(old[i].key))] = old[i];
    free(old);
    return 1;
}

static int grow(rt_tag_shard *s)
{
    return rehash(s, s->cap ? s->cap * 2 : RT_TAG_MIN_CAP, s->cap ? s->shift : RT_TAG_MAX_SHIFT);
}

/* Makes the shard's alignment admit key (a key less aligned than all
 * before it: the table is rebuilt, at most RT_TAG_MAX_SHIFT times). */
static int admit(rt_tag_shard *s, uintptr_t key)
{
    unsigned tz = (unsigned)__builtin_ctzll((unsigned long long)key);
    return tz >= s->shift || rehash(s, s->cap, tz);
}

/* Empties slot i and moves later entries of its run back, so that every
 * entry stays reachable from its home slot without tombstones. */
static void remove_at(rt_tag_shard *s, size_t i)
{
    size_t mask = s->cap - 1, j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (s->slots[j].key == 0)
            break;
        size_t h = home(s, s->slots[j].key, mix(s->slots[j].key));
        /* j's entry may move to i if its home is not in (i, j] cyclically */
        if (i <= j ? (h <= i || h > j) : (h <= i && h > j)) {
            s->slots[i] = s->slots[j];
            i = j;
        }
    }
    s->slots[i].key = 0;
    s->slots[i].tag = 0;
    s->count--;
}

/* Takes key out of the map; returns its tag (0 if it had none). */
static jlong take(struct rt_tag_map *m, uintptr_t key)
{
    uint64_t h = mix(key);
    rt_tag_shard *s = shard_of(m, h);
    jlong tag = 0;
    spin_lock(&s->lock);
    if (s->count != 0) {
        size_t i = probe(s, key, h);
        if (s->slots[i].key == key) {
            tag = s->slots[i].tag;
            remove_at(s, i);
        }
    }
    spin_unlock(&s->lock);
    return tag;
}

static struct rt_tag_map *map_new(void)
{
    struct rt_tag_map *m = aligned_alloc(64, sizeof *m);
    if (!m)
        return NULL;
    memset(m, 0, sizeof *m); /* every lock free, every shard empty */
    return m;
}

static void map_free(struct rt_tag_map *m)
{
    for (int i = 0; i < RT_TAG_SHARDS; i++)
        free(m->shards[i].slots);
    free(m);
}

/* The environment's map, created on first need (NULL: out of memory). */
static struct rt_tag_map *map_of(rt_env *e)
{
    struct rt_tag_map *m = LOAD(&e->tags);
    if (m)
        return m;
    struct rt_tag_map *fresh = map_new();
    if (!fresh)
        return NULL;
    if (__atomic_compare_exchange_n(&e->tags, &m, fresh, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return fresh;
    map_free(fresh); /* another thread's first SetTag won: m is its map */
    return m;
}

void rt_objects_env_freed(rt_env *e)
{
    if (e->tags)
        map_free(e->tags);
    e->tags = NULL;
    rt_tls_env_freed(e);
}

uintptr_t rt_object_identity(jobject object)
{
    if (!object)
        return 0;
    return rt.config.object_id ? rt.config.object_id(object) : (uintptr_t)object;
}

jvmtiError rt_tag_put(rt_env *e, uintptr_t key, jlong tag)
{
    if (tag == 0) { /* a zero tag is no tag */
        struct rt_tag_map *m = LOAD(&e->tags);
        if (m)
            take(m, key);
        return JVMTI_ERROR_NONE;
    }
    struct rt_tag_map *m = map_of(e);
    if (!m)
        return JVMTI_ERROR_OUT_OF_MEMORY;
    uint64_t h = mix(key);
    rt_tag_shard *s = shard_of(m, h);
    jvmtiError err = JVMTI_ERROR_NONE;
    spin_lock(&s->lock);
    if ((s->cap == 0 && !grow(s)) || !admit(s, key)) {
        err = JVMTI_ERROR_OUT_OF_MEMORY;
    } else {
        size_t i = probe(s, key, h);
        if (s->slots[i].key != key) {
            /* a new entry: keep the load at most 3/4 */
            if ((s->count + 1) * 4 > s->cap * 3) {
                if (!grow(s)) {
                    err = JVMTI_ERROR_OUT_OF_MEMORY;
                    goto out;
                }
                i = probe(s, key, h);
            }
            s->slots[i].key = key;
            s->count++;
        }
        s->slots[i].tag = tag;
    }
out:
    spin_unlock(&s->lock);
    return err;
}

jlong rt_tag_get(rt_env *e, uintptr_t key)
{
    struct rt_tag_map *m = LOAD(&e->tags);
    jlong tag = 0;
    if (m && key) {
        uint64_t h = mix(key);
        rt_tag_shard *s = shard_of(m, h);
        spin_lock(&s->lock);
        if (s->count != 0)
            tag = s->slots[probe(s, key, h)].tag; /* 0 in an empty slot */
        spin_unlock(&s->lock);
    }
    return tag;
}

jvmtiError jvmti_impl_SetTag(jvmtiEnv *env, jobject object, jlong tag)
{
    uintptr_t key = rt_object_identity(object);
    if (key == 0)
        return JVMTI_ERROR_INVALID_OBJECT;
    return rt_tag_put(rt_env_of(env), key, tag);
}

jvmtiError jvmti_impl_GetTag(jvmtiEnv *env, jobject object, jlong *tag_ptr)
{
    uintptr_t key = rt_object_identity(object);
    if (key == 0)
        return JVMTI_ERROR_INVALID_OBJECT;
    *tag_ptr = rt_tag_get(rt_env_of(env), key);
    return JVMTI_ERROR_NONE;
}

static int cmp_jlong(const void *a, const void *b)
{
    jlong x = *(const jlong *)a, y = *(const jlong *)b;
    return (x > y) - (x < y);
}

/* Whether tag is one of the n sorted wanted tags. */
static int wanted(const jlong *sorted, jint n, jlong tag)
{
    if (n <= 8) {
        for (jint i = 0; i < n; i++)
            if (sorted[i] == tag)
                return 1;
        return 0;
    }
    return bsearch(&tag, sorted, (size_t)n, sizeof *sorted, cmp_jlong) != NULL;
}

jvmtiError jvmti_impl_GetObjectsWithTags(jvmtiEnv *env, jint tag_count, const jlong *tags,
                                         jint *count_ptr, jobject **object_result_ptr,
                                         jlong **tag_result_ptr)
{
    for (jint i = 0; i < tag_count; i++)
        if (tags[i] == 0)
            return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    jlong *sorted = NULL;
    if (tag_count > 0) {
        sorted = malloc((size_t)tag_count * sizeof *sorted);
        if (!sorted)
            return JVMTI_ERROR_OUT_OF_MEMORY;
        memcpy(sorted, tags, (size_t)tag_count * sizeof *sorted);
        qsort(sorted, (size_t)tag_count, sizeof *sorted, cmp_jlong);
    }
    /* Collected shard by shard under each shard's lock; the VM's references
     * are made afterwards, with no lock of the core held. */
    rt_tag_slot *found = NULL;
    size_t n = 0, cap = 0;
    jvmtiError err = JVMTI_ERROR_NONE;
    struct rt_tag_map *m = LOAD(&rt_env_of(env)->tags);
    for (int k = 0; m && tag_count > 0 && k < RT_TAG_SHARDS && !err; k++) {
        rt_tag_shard *s = &m->shards[k];
        spin_lock(&s->lock);
        for (size_t i = 0; i < s->cap; i++) {
            if (s->slots[i].key == 0 || !wanted(sorted, tag_count, s->slots[i].tag))
                continue;
            if (n == cap) {
                size_t c = cap ? cap * 2 : 64;
                rt_tag_slot *f = realloc(found, c * sizeof *f);
                if (!f) {
                    err = JVMTI_ERROR_OUT_OF_MEMORY;
                    break;
                }
                found = f;
                cap = c;
            }
            found[n++] = s->slots[i];
        }
        spin_unlock(&s->lock);
    }
    free(sorted);
    if (!err && n > (size_t)INT32_MAX)
        err = JVMTI_ERROR_OUT_OF_MEMORY;
    jobject *objects = NULL;
    jlong *result_tags = NULL;
    jlong bytes_o = (jlong)(n * sizeof *objects), bytes_t = (jlong)(n * sizeof *result_tags);
    if (!err && object_result_ptr)
        err = jvmti_impl_Allocate(env, bytes_o, (unsigned char **)(void *)&objects);
    if (!err && tag_result_ptr)
        err = jvmti_impl_Allocate(env, bytes_t, (unsigned char **)(void *)&result_tags);
    if (err) {
        jvmti_impl_Deallocate(env, (unsigned char *)objects);
        free(found);
        return err;
    }
    for (size_t i = 0; i < n; i++) {
        if (objects)
            objects[i] = rt.config.object_ref ? rt.config.object_ref(found[i].key)
                                              : (jobject)found[i].key;
        if (result_tags)
            result_tags[i] = found[i].tag;
    }
    free(found);
    *count_ptr = (jint)n;
    if (object_result_ptr)
        *object_result_ptr = objects;
    if (tag_result_ptr)
        *tag_result_ptr = result_tags;
    return JVMTI_ERROR_NONE;
}

/* ObjectFree goes to an environment that has a callback for it and enabled
 * it; it has no thread, so only global enabling counts. */
static jvmtiEventObjectFree object_free_callback(rt_env *e)
{
    uint64_t bit = (uint64_t)1 << (JVMTI_EVENT_OBJECT_FREE - JVMTI_MIN_EVENT_TYPE_VAL);
    if (!(LOAD(&e->callback_mask) & LOAD(&e->global_mask) & bit))
        return NULL;
    jvmtigen_callback cb = LOAD(&e->callbacks[JVMTI_EVENT_OBJECT_FREE - JVMTI_MIN_EVENT_TYPE_VAL]);
    return (jvmtiEventObjectFree)(void (*)(void))cb;
}

void jvmtirt_objects_freed(const uintptr_t *ids, size_t n)
{
    if (n == 0)
        return;
    int live = jvmtigen_phase_allows(jvmtigen_event(JVMTI_EVENT_OBJECT_FREE)->phase,
                                     JVMTIGEN_PHASE(NULL));
    int cursor = rt_walk_begin();
    for (rt_env *e = LOAD_SC(&rt.envs); e; e = LOAD_SC(&e->next)) {
        struct rt_tag_map *m = LOAD(&e->tags);
        if (!m || LOAD(&e->disposed))
            continue;
        for (size_t i = 0; i < n; i++) {
            jlong tag = ids[i] ? take(m, ids[i]) : 0;
            if (tag == 0 || !live)
                continue;
            /* read for each object: a callback may change the callbacks */
            jvmtiEventObjectFree cb = object_free_callback(e);
            if (cb && !LOAD(&e->disposed))
                cb((jvmtiEnv *)e, tag);
        }
    }
    rt_walk_end(cursor);
}
