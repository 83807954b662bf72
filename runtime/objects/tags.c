/* Object tags: SetTag, GetTag, GetObjectsWithTags, and ObjectFree when the
 * VM reports dead objects (jvmtirt_objects_freed).
 *
 * Each environment has its own map from an object's identity (a uintptr_t
 * the VM gives through config.object_id, or the reference's own value) to
 * its tag. The map is split into RT_TAG_SHARDS shards by the identity's
 * hash, each an open-addressing table (linear probing, deletion by
 * shifting back, no tombstones). A shard holds nothing but keys and tags,
 * so a lookup touches one or two cache lines.
 *
 * Writers (SetTag, removal, the GC's notification) take the shard's spin
 * lock: held for a probe and a store, an uncontended one is one atomic
 * exchange and a plain store, where a mutex is two atomic operations and
 * two library calls. Replacing a tag is a probe and a store; only a new
 * entry checks alignment and load.
 *
 * That exchange is a third of an uncontended SetTag, and most agents tag
 * from one thread at a time; so each shard starts biased to the thread
 * that created the map (where membarrier(2) is available): that thread
 * enters with plain stores and a compiler barrier (it marks itself
 * `owner_busy`, then checks that it still owns the shard). The first other
 * writer revokes the bias for good: under the spin lock it clears `owner`,
 * has every running thread of the process pass a full barrier
 * (MEMBARRIER_CMD_PRIVATE_EXPEDITED), then waits for `owner_busy` to be
 * 0. The barrier is what makes the owner's unfenced store-then-load safe
 * (Dekker's pattern with one heavy side): either the owner's mark is seen
 * by the revoker, or the owner sees `owner` cleared and takes the lock.
 * A revocation costs a system call (microseconds), at most once per shard
 * and environment.
 *
 * GetTag takes no lock: an atomic read-modify-write costs as much as the
 * rest of the call. It reads the shard's sequence count, the table, the
 * slots, and the count again, retrying if it changed: the count is odd
 * while a removal moves entries back (the only change that can hide a key
 * from a reader). A new entry is written tag first, key last (release), so
 * a reader that sees the key sees its tag; a replaced tag is one atomic
 * store. A table that grows or is rebuilt is copied into a new one, which
 * is then published: the old one is not changed again, and a reader still
 * in it sees a moment before the copy. Old tables are kept on the new one's
 * `retired` list and freed with the map (with the environment, once no
 * posting cursor can see it): a reader cannot be told apart from a plain
 * caller, and making readers announce themselves to a grace period (as
 * posting cursors do, base/base.c) costs the atomic operations the lock-free
 * read saves. What is kept is less than the table in use (each growth
 * doubles it), plus one table of the same size per change of alignment
 * (at most RT_TAG_MAX_SHIFT per shard).
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
 * environment (its env_freed hook, from base/base.c), which happens only once no
 * posting cursor can see it: the GC notification walks environments with
 * a cursor, so it never touches a freed map. */
#define _GNU_SOURCE /* syscall */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "jvmtigen_impl.h"
#include "objects.h"
#include "rt.h"

#define RT_TAG_SHARDS 64
#define RT_TAG_MIN_CAP 16

#define RELAXED_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define RELAXED_LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)

typedef struct rt_tag_slot {
    uintptr_t key; /* 0: empty (no object has identity 0); written last */
    jlong tag;     /* never 0 in a used slot */
} rt_tag_slot;

#define RT_TAG_BLOCK_BITS 10 /* 1 KiB of identities place together */
#define RT_TAG_MAX_SHIFT 6   /* coarser alignments count as 64 */

/* Slots are written only under the shard's lock, with atomic stores, and
 * read by GetTag with atomic loads. */
typedef struct rt_tag_table {
    size_t cap;                    /* a power of two */
    unsigned shift;                /* log2 of the alignment of every key held */
    struct rt_tag_table *retired;  /* the table this one replaced, kept */
    rt_tag_slot slots[] __attribute__((aligned(64))); /* four to a cache line */
} rt_tag_table;

typedef struct rt_tag_shard {
    int lock;            /* spin_lock: every writer but the owner */
    int owner_busy;      /* atomic, written by the owner: it is in the shard */
    const void *owner;   /* atomic: the thread the shard is biased to; NULL once revoked */
    unsigned seq;        /* atomic: odd while a removal moves entries */
    rt_tag_table *table; /* atomic: NULL before the first insert */
    size_t count;        /* under the lock */
} __attribute__((aligned(64))) rt_tag_shard; /* one per cache line: no false sharing */

struct rt_tag_map {
    rt_tag_shard shards[RT_TAG_SHARDS];
};

/* Waiting for a shard: a few pauses, then the CPU is given away (a shard
 * being rebuilt may take a while). */
static inline void spin_wait(unsigned tries)
{
    if (tries >= 64)
        sched_yield();
#if defined(__x86_64__) || defined(__i386__)
    else
        __builtin_ia32_pause();
#endif
}

static inline void spin_lock(int *l)
{
    for (unsigned tries = 0;; tries++) {
        if (!RELAXED_LOAD(l) && !__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
            return;
        spin_wait(tries);
    }
}

static inline void spin_unlock(int *l) { __atomic_store_n(l, 0, __ATOMIC_RELEASE); }

/* The calling thread, as a shard's owner. */
static JVMTIGEN_TLS char this_thread;

/* Whether shards may be biased: membarrier(2) is there and this process
 * registered for its expedited barrier (once; 0 unknown, 1 yes, 2 no). */
static int bias_state;

static int bias_available(void)
{
    int st = RELAXED_LOAD(&bias_state);
    if (st == 0) {
#if defined(__linux__) && defined(SYS_membarrier)
        st = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0 ? 1 : 2;
#else
        st = 2;
#endif
        RELAXED_STORE(&bias_state, st);
    }
    return st == 1;
}

/* Every running thread of the process passes a full memory barrier. Only
 * called once bias_available() said yes. */
static void heavy_barrier(void)
{
#if defined(__linux__) && defined(SYS_membarrier)
    if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0)
        return;
    /* The registration belongs to the address space while bias_state is
     * only a variable: should they ever disagree (a child of fork(2)),
     * register again (allowed at any time) and retry. */
    if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0 &&
        syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0)
        return;
#endif
    abort(); /* a bias without the barrier is unsafe */
}

/* Ends the shard's bias, under its spin lock: afterwards the owner takes
 * the lock like everyone else. */
static void unbias(rt_tag_shard *s)
{
    STORE_SC(&s->owner, (const void *)NULL);
    heavy_barrier();
    for (unsigned tries = 0; LOAD(&s->owner_busy); tries++)
        spin_wait(tries);
}

/* Enters the shard as its only writer; returns what shard_unlock needs:
 * 1 when the owner entered without the spin lock. */
static inline int shard_lock(rt_tag_shard *s)
{
    const void *me = &this_thread;
    if (RELAXED_LOAD(&s->owner) == me) {
        RELAXED_STORE(&s->owner_busy, 1);
        /* No fence here: a revoker's heavy_barrier stands for it. */
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        if (RELAXED_LOAD(&s->owner) == me)
            return 1;
        STORE(&s->owner_busy, 0);
    }
    spin_lock(&s->lock);
    if (RELAXED_LOAD(&s->owner))
        unbias(s);
    return 0;
}

static inline void shard_unlock(rt_tag_shard *s, int biased)
{
    if (biased)
        STORE(&s->owner_busy, 0);
    else
        spin_unlock(&s->lock);
}

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
static inline size_t home(const rt_tag_table *t, uintptr_t key, uint64_t h)
{
    size_t offset = (key & (((uintptr_t)1 << RT_TAG_BLOCK_BITS) - 1)) >> t->shift;
    return ((size_t)h + offset) & (t->cap - 1);
}

/* The slot holding key, or the empty slot where it would go. Under the
 * shard's lock (writers are the only ones that change slots). */
static size_t probe(const rt_tag_table *t, uintptr_t key, uint64_t h)
{
    size_t mask = t->cap - 1, i = home(t, key, h);
    while (t->slots[i].key != 0 && t->slots[i].key != key)
        i = (i + 1) & mask;
    return i;
}

/* Rebuilds the shard's table with cap slots and the given key alignment
 * into a new table, published when complete. */
static int rehash(rt_tag_shard *s, size_t cap, unsigned shift)
{
    size_t bytes = sizeof(rt_tag_table) + cap * sizeof(rt_tag_slot); /* a multiple of 64 */
    rt_tag_table *t = aligned_alloc(64, bytes);
    if (!t)
        return 0;
    memset(t, 0, bytes);
    rt_tag_table *old = s->table;
    t->cap = cap;
    t->shift = shift;
    t->retired = old;
    for (size_t i = 0; old && i < old->cap; i++)
        if (old->slots[i].key != 0)
            t->slots[probe(t, old->slots[i].key, mix(old->slots[i].key))] = old->slots[i];
    STORE(&s->table, t);
    return 1;
}

static int grow(rt_tag_shard *s)
{
    rt_tag_table *t = s->table;
    return rehash(s, t ? t->cap * 2 : RT_TAG_MIN_CAP, t ? t->shift : RT_TAG_MAX_SHIFT);
}

/* Makes the shard's alignment admit key (a key less aligned than all
 * before it: the table is rebuilt, at most RT_TAG_MAX_SHIFT times). */
static int admit(rt_tag_shard *s, uintptr_t key)
{
    unsigned tz = (unsigned)__builtin_ctzll((unsigned long long)key);
    return tz >= s->table->shift || rehash(s, s->table->cap, tz);
}

/* Empties slot i and moves later entries of its run back, so that every
 * entry stays reachable from its home slot without tombstones. Readers see
 * the sequence count odd meanwhile. */
static void remove_at(rt_tag_shard *s, size_t i)
{
    rt_tag_table *t = s->table;
    size_t mask = t->cap - 1, j = i;
    RELAXED_STORE(&s->seq, s->seq + 1);
    for (;;) {
        j = (j + 1) & mask;
        if (t->slots[j].key == 0)
            break;
        size_t h = home(t, t->slots[j].key, mix(t->slots[j].key));
        /* j's entry may move to i if its home is not in (i, j] cyclically */
        if (i <= j ? (h <= i || h > j) : (h <= i && h > j)) {
            STORE(&t->slots[i].tag, t->slots[j].tag);
            STORE(&t->slots[i].key, t->slots[j].key);
            i = j;
        }
    }
    STORE(&t->slots[i].key, (uintptr_t)0);
    STORE(&t->slots[i].tag, (jlong)0);
    STORE(&s->seq, s->seq + 1);
    s->count--;
}

/* Takes key out of the map; returns its tag (0 if it had none). */
static jlong take(struct rt_tag_map *m, uintptr_t key)
{
    uint64_t h = mix(key);
    rt_tag_shard *s = shard_of(m, h);
    jlong tag = 0;
    int biased = shard_lock(s);
    if (s->count != 0) {
        size_t i = probe(s->table, key, h);
        if (s->table->slots[i].key == key) {
            tag = s->table->slots[i].tag;
            remove_at(s, i);
        }
    }
    shard_unlock(s, biased);
    return tag;
}

static struct rt_tag_map *map_new(void)
{
    struct rt_tag_map *m = aligned_alloc(64, sizeof *m);
    if (!m)
        return NULL;
    memset(m, 0, sizeof *m); /* every lock free, every shard empty */
    if (bias_available())
        for (int i = 0; i < RT_TAG_SHARDS; i++)
            m->shards[i].owner = &this_thread;
    return m;
}

static void map_free(struct rt_tag_map *m)
{
    for (int i = 0; i < RT_TAG_SHARDS; i++)
        for (rt_tag_table *t = m->shards[i].table, *next; t; t = next) {
            next = t->retired;
            free(t);
        }
    free(m);
}

/* Creates the environment's map unless another thread just did; returns
 * the map (NULL: out of memory). */
static struct rt_tag_map *map_create(rt_env *e)
{
    struct rt_tag_map *m = NULL;
    struct rt_tag_map *fresh = map_new();
    if (!fresh)
        return NULL;
    if (__atomic_compare_exchange_n(&e->tags, &m, fresh, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return fresh;
    map_free(fresh); /* another thread's first SetTag won: m is its map */
    return m;
}

/* The environment's map, created on first need (NULL: out of memory). */
static inline struct rt_tag_map *map_of(rt_env *e)
{
    struct rt_tag_map *m = LOAD(&e->tags);
    return m ? m : map_create(e);
}

static void env_freed(rt_env *e)
{
    if (e->tags)
        map_free(e->tags);
    e->tags = NULL;
}

const rt_area rt_area_tags = {.env_freed = env_freed};

/* rt_object_identity; inlined into SetTag and GetTag. */
static inline uintptr_t identity(jobject object)
{
    if (!object)
        return 0;
    return rt.config.object_id ? rt.config.object_id(object) : (uintptr_t)object;
}

uintptr_t rt_object_identity(jobject object) { return identity(object); }

/* A new entry for key (not in the shard) with tag: room made first. */
static jvmtiError insert(rt_tag_shard *s, uintptr_t key, uint64_t h, jlong tag)
{
    if ((!s->table && !grow(s)) || !admit(s, key))
        return JVMTI_ERROR_OUT_OF_MEMORY;
    /* keep the load at most 3/4 */
    if ((s->count + 1) * 4 > s->table->cap * 3 && !grow(s))
        return JVMTI_ERROR_OUT_OF_MEMORY;
    rt_tag_slot *slot = &s->table->slots[probe(s->table, key, h)];
    RELAXED_STORE(&slot->tag, tag);
    STORE(&slot->key, key); /* a reader that sees the key sees the tag */
    s->count++;
    return JVMTI_ERROR_NONE;
}

/* rt_tag_put; inlined into SetTag (a call is a fair share of its cost). */
static inline jvmtiError put(rt_env *e, uintptr_t key, jlong tag)
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
    int biased = shard_lock(s);
    rt_tag_table *t = s->table;
    /* A key less aligned than the table's is not in it: probing from any
     * slot ends at an empty one, and insert admits it. */
    rt_tag_slot *slot = t ? &t->slots[probe(t, key, h)] : NULL;
    if (slot && slot->key == key)
        RELAXED_STORE(&slot->tag, tag); /* replaced: nothing moves */
    else
        err = insert(s, key, h, tag);
    shard_unlock(s, biased);
    return err;
}

/* rt_tag_get, lock-free (see the head of this file); inlined into GetTag. */
static inline jlong get(rt_env *e, uintptr_t key)
{
    struct rt_tag_map *m = LOAD(&e->tags);
    if (!m || !key)
        return 0;
    uint64_t h = mix(key);
    rt_tag_shard *s = shard_of(m, h);
    for (unsigned tries = 0;; tries++) {
        unsigned seq = LOAD(&s->seq);
        rt_tag_table *t = LOAD(&s->table);
        if (!t)
            return 0;
        if (!(seq & 1)) {
            jlong tag = 0;
            size_t mask = t->cap - 1, i = home(t, key, h);
            /* at most cap steps: a table changing under the reader is
             * caught by the count below */
            for (size_t n = 0; n <= mask; n++, i = (i + 1) & mask) {
                uintptr_t k = LOAD(&t->slots[i].key);
                if (k == key) {
                    tag = LOAD(&t->slots[i].tag);
                    break;
                }
                if (k == 0)
                    break;
            }
            /* the loads above are acquires: this one comes after them */
            if (RELAXED_LOAD(&s->seq) == seq)
                return tag;
        }
        spin_wait(tries);
    }
}

jvmtiError rt_tag_put(rt_env *e, uintptr_t key, jlong tag) { return put(e, key, tag); }

jlong rt_tag_get(rt_env *e, uintptr_t key) { return get(e, key); }

jvmtiError jvmti_impl_SetTag(jvmtiEnv *env, jobject object, jlong tag)
{
    uintptr_t key = identity(object);
    if (key == 0)
        return JVMTI_ERROR_INVALID_OBJECT;
    return put(rt_env_of(env), key, tag);
}

jvmtiError jvmti_impl_GetTag(jvmtiEnv *env, jobject object, jlong *tag_ptr)
{
    uintptr_t key = identity(object);
    if (key == 0)
        return JVMTI_ERROR_INVALID_OBJECT;
    *tag_ptr = get(rt_env_of(env), key);
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
        int biased = shard_lock(s);
        rt_tag_table *t = s->table;
        for (size_t i = 0; t && i < t->cap; i++) {
            if (t->slots[i].key == 0 || !wanted(sorted, tag_count, t->slots[i].tag))
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
            found[n++] = t->slots[i];
        }
        shard_unlock(s, biased);
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
