/* Stack traces over the VM's one stack walk (config.walk_stacks):
 * GetStackTrace, GetFrameCount, GetFrameLocation, GetThreadListStackTraces
 * and GetAllStackTraces. The core does the spec's arithmetic (start depths
 * counting from either end, max_frame_count, the errors) and the layout of
 * the jvmtiStackInfo arrays; the VM only reports frames, top down. */
#include <stdlib.h>
#include <string.h>

#include "jvmtigen_impl.h"
#include "rt.h"
#include "threads.h"

/* The frames of up to n threads, gathered by one walk. */
typedef struct walk {
    jint n;
    jint limit;            /* frames kept per thread; < 0: all of them */
    int count_all;         /* go on counting past limit (GetFrameCount) */
    jint *count;           /* n: frames seen per thread (all, even past limit) */
    jint *kept;            /* n: frames stored */
    jvmtiFrameInfo **frames; /* n growable buffers */
    jint *cap;
    int oom;
} walk;

static int visit(void *arg, jint index, jmethodID method, jlocation location)
{
    walk *w = arg;
    if (index < 0 || index >= w->n)
        return 1;
    w->count[index]++;
    if (w->limit >= 0 && w->kept[index] >= w->limit)
        return !w->count_all; /* enough for this thread */
    if (w->kept[index] == w->cap[index]) {
        jint cap = w->cap[index] ? w->cap[index] * 2 : 16;
        jvmtiFrameInfo *f = realloc(w->frames[index], (size_t)cap * sizeof *f);
        if (!f) {
            w->oom = 1;
            return 1;
        }
        w->frames[index] = f;
        w->cap[index] = cap;
    }
    w->frames[index][w->kept[index]++] = (jvmtiFrameInfo){method, location};
    return 0;
}

static void walk_free(walk *w)
{
    for (jint i = 0; w->frames && i < w->n; i++)
        free(w->frames[i]);
    free(w->frames);
    free(w->count);
    free(w->kept);
    free(w->cap);
}

/* Walks the threads ids[0..n) keeping up to limit frames each (< 0: all);
 * states (n) gets their states. */
static jvmtiError walk_run(walk *w, const uintptr_t *ids, jint n, jint limit, int count_all,
                           jint *states)
{
    memset(w, 0, sizeof *w);
    w->n = n;
    w->limit = limit;
    w->count_all = count_all;
    size_t k = n > 0 ? (size_t)n : 1;
    w->count = calloc(k, sizeof *w->count);
    w->kept = calloc(k, sizeof *w->kept);
    w->cap = calloc(k, sizeof *w->cap);
    w->frames = calloc(k, sizeof *w->frames);
    if (!w->count || !w->kept || !w->cap || !w->frames)
        return JVMTI_ERROR_OUT_OF_MEMORY;
    for (jint i = 0; i < n; i++)
        states[i] = 0;
    jvmtiError err = rt.config.walk_stacks(ids, n, states, visit, w);
    if (err == JVMTI_ERROR_NONE && w->oom)
        err = JVMTI_ERROR_OUT_OF_MEMORY;
    return err;
}

/* The walk of one jthread argument (NULL: the calling thread): NONE, the
 * thread's error, or THREAD_NOT_ALIVE if it ended before the walk. *w is
 * for walk_free whatever the answer. */
static jvmtiError walk_thread(walk *w, jvmtiEnv *env, jthread thread, jint limit, int count_all)
{
    memset(w, 0, sizeof *w);
    if (!rt.config.walk_stacks)
        return JVMTI_ERROR_NOT_AVAILABLE;
    uintptr_t id;
    jvmtiError err = jvmtirt_resolve_thread(env, thread, 1, &id);
    if (err != JVMTI_ERROR_NONE)
        return err;
    jint state = 0;
    err = walk_run(w, &id, 1, limit, count_all, &state);
    if (err == JVMTI_ERROR_NONE && !(state & JVMTI_THREAD_STATE_ALIVE))
        err = JVMTI_ERROR_THREAD_NOT_ALIVE;
    return err;
}

/* GetAllStackTraces takes its threads from GetAllThreads, which needs
 * thread_ref. */
static const rt_need needs[] = {
    {RT_SLOT(GetStackTrace), {RT_OP(walk_stacks)}},
    {RT_SLOT(GetFrameCount), {RT_OP(walk_stacks)}},
    {RT_SLOT(GetFrameLocation), {RT_OP(walk_stacks)}},
    {RT_SLOT(GetThreadListStackTraces), {RT_OP(walk_stacks)}},
    {RT_SLOT(GetAllStackTraces), {RT_OP(walk_stacks), RT_OP(thread_ref)}},
};

const rt_area rt_area_stacks = {.needs = needs, .n_needs = sizeof needs / sizeof *needs};

jvmtiError jvmti_impl_GetStackTrace(jvmtiEnv *env, jthread thread, jint start_depth,
                                    jint max_frame_count, jvmtiFrameInfo *frame_buffer,
                                    jint *count_ptr)
{
    /* From the top only start_depth + max_frame_count frames matter (one
     * more frame tells that start_depth is inside the stack); from the
     * bottom the whole stack does. */
    jint limit = -1;
    if (start_depth >= 0 && (jlong)start_depth + max_frame_count < INT32_MAX)
        limit = start_depth + (max_frame_count > 0 ? max_frame_count : 1);
    walk w;
    jvmtiError err = walk_thread(&w, env, thread, limit, 0);
    if (err == JVMTI_ERROR_NONE) {
        jint depth = w.count[0];
        /* The spec: start_depth positive and >= the depth, or negative and
         * below -depth, is ILLEGAL_ARGUMENT; 0 is fine on an empty stack. */
        jint first = start_depth >= 0 ? start_depth : depth + start_depth;
        if ((start_depth > 0 && start_depth >= depth) || (start_depth < 0 && first < 0)) {
            err = JVMTI_ERROR_ILLEGAL_ARGUMENT;
        } else {
            jint n = w.kept[0] - first;
            if (n > max_frame_count)
                n = max_frame_count;
            if (n < 0)
                n = 0;
            if (n > 0)
                memcpy(frame_buffer, w.frames[0] + first, (size_t)n * sizeof *frame_buffer);
            *count_ptr = n;
        }
    }
    walk_free(&w);
    return err;
}

jvmtiError jvmti_impl_GetFrameCount(jvmtiEnv *env, jthread thread, jint *count_ptr)
{
    walk w;
    jvmtiError err = walk_thread(&w, env, thread, 0, 1); /* count them, keep none */
    if (err == JVMTI_ERROR_NONE)
        *count_ptr = w.count[0];
    walk_free(&w);
    return err;
}

jvmtiError jvmti_impl_GetFrameLocation(jvmtiEnv *env, jthread thread, jint depth,
                                       jmethodID *method_ptr, jlocation *location_ptr)
{
    walk w;
    jvmtiError err = walk_thread(&w, env, thread, depth < INT32_MAX ? depth + 1 : -1, 0);
    if (err == JVMTI_ERROR_NONE) {
        if (depth >= w.kept[0]) {
            err = JVMTI_ERROR_NO_MORE_FRAMES;
        } else {
            *method_ptr = w.frames[0][depth].method;
            *location_ptr = w.frames[0][depth].location;
        }
    }
    walk_free(&w);
    return err;
}

/* The jvmtiStackInfo array of n threads and, after it in the same block,
 * their frame buffers: what the agent frees with one Deallocate. */
static jvmtiError stack_infos(jvmtiEnv *env, const jthread *threads, const uintptr_t *ids,
                              jint n, jint max_frame_count, jvmtiStackInfo **out)
{
    walk w;
    jint *states = calloc(n > 0 ? (size_t)n : 1, sizeof *states);
    jvmtiError err = states ? walk_run(&w, ids, n, max_frame_count, 0, states)
                            : JVMTI_ERROR_OUT_OF_MEMORY;
    if (err == JVMTI_ERROR_NONE) {
        size_t frames = 0;
        for (jint i = 0; i < n; i++)
            frames += (size_t)w.kept[i];
        size_t bytes = (size_t)n * sizeof(jvmtiStackInfo) + frames * sizeof(jvmtiFrameInfo);
        unsigned char *block = NULL;
        if (bytes > 0)
            err = jvmti_impl_Allocate(env, (jlong)bytes, &block);
        if (err == JVMTI_ERROR_NONE) {
            jvmtiStackInfo *info = (jvmtiStackInfo *)(void *)block;
            jvmtiFrameInfo *f = (jvmtiFrameInfo *)(void *)(block + (size_t)n * sizeof *info);
            for (jint i = 0; i < n; i++) {
                info[i].thread = threads[i];
                info[i].state = states[i];
                info[i].frame_buffer = f;
                info[i].frame_count = w.kept[i];
                if (w.kept[i] > 0)
                    memcpy(f, w.frames[i], (size_t)w.kept[i] * sizeof *f);
                f += w.kept[i];
            }
            *out = info;
        }
    }
    if (states)
        walk_free(&w);
    free(states);
    return err;
}

jvmtiError jvmti_impl_GetThreadListStackTraces(jvmtiEnv *env, jint thread_count,
                                               const jthread *thread_list, jint max_frame_count,
                                               jvmtiStackInfo **stack_info_ptr)
{
    if (!rt.config.walk_stacks)
        return JVMTI_ERROR_NOT_AVAILABLE;
    uintptr_t *ids = calloc(thread_count > 0 ? (size_t)thread_count : 1, sizeof *ids);
    if (!ids)
        return JVMTI_ERROR_OUT_OF_MEMORY;
    jvmtiError err = JVMTI_ERROR_NONE;
    /* A thread not started or ended is no error: its stack is empty and its
     * state says why. Only what is not a thread at all is. */
    for (jint i = 0; i < thread_count && err == JVMTI_ERROR_NONE; i++) {
        if (!thread_list[i]) {
            err = JVMTI_ERROR_INVALID_THREAD;
            break;
        }
        if (rt.config.check_thread &&
            rt.config.check_thread(env, thread_list[i]) == JVMTI_ERROR_INVALID_THREAD)
            err = JVMTI_ERROR_INVALID_THREAD;
        else
            ids[i] = rt.config.thread_id ? rt.config.thread_id(thread_list[i])
                                         : (uintptr_t)thread_list[i];
    }
    if (err == JVMTI_ERROR_NONE)
        err = stack_infos(env, thread_list, ids, thread_count, max_frame_count, stack_info_ptr);
    free(ids);
    return err;
}

jvmtiError jvmti_impl_GetAllStackTraces(jvmtiEnv *env, jint max_frame_count,
                                        jvmtiStackInfo **stack_info_ptr, jint *thread_count_ptr)
{
    if (!rt.config.walk_stacks)
        return JVMTI_ERROR_NOT_AVAILABLE;
    /* The live platform threads, as GetAllThreads lists them. */
    /* Their ids are the registry's: read back through config.thread_id, a
     * VM whose thread_id and thread_ref disagree had its walk wait for
     * threads it never had. */
    jint n = 0;
    jthread *threads = NULL;
    uintptr_t *ids = NULL;
    jvmtiError err = rt_all_threads(env, &n, &threads, &ids);
    if (err != JVMTI_ERROR_NONE)
        return err;
    err = stack_infos(env, threads, ids, n, max_frame_count, stack_info_ptr);
    if (err == JVMTI_ERROR_NONE)
        *thread_count_ptr = n;
    for (jint i = 0; err != JVMTI_ERROR_NONE && i < n; i++)
        rt_release_ref(threads[i]); /* the agent got none of them */
    free(ids);
    jvmti_impl_Deallocate(env, (unsigned char *)threads);
    return err;
}
