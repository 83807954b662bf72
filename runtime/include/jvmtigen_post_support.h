/* jvmtigen_post_support.h: what the generated posting functions
 * (out/jvmtigen_post.h, .c) need from the runtime core.
 *
 * jvmtigen_events_on has bit (event - JVMTI_MIN_EVENT_TYPE_VAL) set while
 * some environment both enabled the event (globally or for a thread) and
 * set a callback for it; the core recomputes it whenever either changes.
 * A posting site tests it with one relaxed load and a branch.
 *
 * The cursor walks the environments in creation order and stops at each
 * one that wants the event on the event's thread (a jthread; NULL: the
 * calling thread), with its callback in c.callback. It stops at none when
 * the current phase is not one the event may be sent in (the spec's phase
 * of the event, jvmtigen_events[].phase). ClassFileLoadHook goes first to
 * the environments without can_retransform_classes, then to those with it
 * (creation order within each group); only to the latter while the calling
 * thread is retransforming (jvmtirt_post_set_retransforming), and in the
 * primordial phase only to environments with both
 * can_generate_early_class_hook_events and can_generate_all_class_hook_events.
 * Environments disposed meanwhile are skipped; none is freed while a cursor
 * is open. */
#ifndef JVMTIGEN_POST_SUPPORT_H
#define JVMTIGEN_POST_SUPPORT_H

#include <stdint.h>

#include "jvmti.h"
#include "jvmtigen_hooks.h"

#ifdef __cplusplus
extern "C" {
#endif

#if JVMTI_MAX_EVENT_TYPE_VAL - JVMTI_MIN_EVENT_TYPE_VAL >= 64
#error "jvmtigen's runtime keeps one 64-bit word of events; this spec has more"
#endif

extern uint64_t jvmtigen_events_on;

#define JVMTIGEN_EVENT_BIT(event) ((uint64_t)1 << ((int)(event) - JVMTI_MIN_EVENT_TYPE_VAL))
#define JVMTIGEN_EVENT_ON(event) \
    ((__atomic_load_n(&jvmtigen_events_on, __ATOMIC_RELAXED) & JVMTIGEN_EVENT_BIT(event)) != 0)

typedef void (JNICALL *jvmtigen_callback)(void);

typedef struct jvmtigen_post_cursor {
    jvmtigen_callback callback; /* of the environment just returned */
    void *env;                  /* internal */
    uint64_t bit;
    int index;
    int epoch;                  /* internal: the grace period it counts in */
    int pass;                   /* internal: ClassFileLoadHook's group */
    jthread thread;             /* the event's thread; NULL: the calling one */
    uintptr_t thread_id;        /* internal: its VM id, once resolved */
    int thread_state;           /* internal: 0 unresolved, 1 calling, 2 other */
} jvmtigen_post_cursor;

jvmtiEnv *jvmtigen_post_first(jvmtigen_post_cursor *c, jvmtiEvent event, jthread thread);
jvmtiEnv *jvmtigen_post_next(jvmtigen_post_cursor *c);
void jvmtigen_post_done(jvmtigen_post_cursor *c);

/* Frees a buffer an agent allocated with Allocate: a ClassFileLoadHook
 * buffer another environment replaced, or the final one the VM got. */
void jvmtirt_post_deallocate(void *mem);

/* The VM says whether the calling thread is posting ClassFileLoadHook for
 * RetransformClasses (1) or not (0, the default): a retransformation goes
 * only to environments with can_retransform_classes. */
void jvmtirt_post_set_retransforming(int on);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* JVMTIGEN_POST_SUPPORT_H */
