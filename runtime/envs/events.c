/* Events: callbacks, enabling globally and per thread, the "enabled
 * anywhere" word the posting sites test, and the cursor the generated
 * posting functions walk environments with. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "envs.h"
#include "jvmtigen_impl.h"
#include "rt.h"

uint64_t jvmtigen_events_on;

static int event_index(jvmtiEvent ev) { return (int)ev - JVMTI_MIN_EVENT_TYPE_VAL; }

static const jvmtigen_event_info *valid_event(jvmtiEvent ev)
{
    const jvmtigen_event_info *info = jvmtigen_event(ev);
    return info && info->name ? info : NULL;
}

void rt_events_recompute(void)
{
    uint64_t on = 0;
    for (rt_env *e = rt.envs; e; e = e->next) {
        uint64_t per_thread = 0;
        for (rt_thread *t = rt.threads; t; t = t->next)
            for (rt_thread_events *n = t->events; n; n = n->next)
                if (n->env == e)
                    per_thread |= LOAD(&n->mask);
        STORE(&e->thread_mask, per_thread);
        on |= LOAD(&e->callback_mask) & (LOAD(&e->global_mask) | per_thread);
    }
    STORE(&jvmtigen_events_on, on);
    if (rt.config.events_changed)
        rt.config.events_changed();
}

jvmtiError jvmti_impl_SetEventCallbacks(jvmtiEnv *env, const jvmtiEventCallbacks *callbacks,
                                        jint size_of_callbacks)
{
    rt_env *e = rt_env_of(env);
    /* A shorter struct (from an older jvmti.h) sets the slots it has; the
     * rest, like everything when callbacks is NULL, is cleared. */
    jvmtigen_callback slots[RT_EVENTS];
    memset(slots, 0, sizeof slots);
    if (callbacks) {
        size_t n = (size_t)size_of_callbacks;
        if (n > sizeof *callbacks)
            n = sizeof *callbacks;
        memcpy(slots, callbacks, n - n % sizeof(jvmtigen_callback));
    }
    uint64_t mask = 0;
    pthread_mutex_lock(&rt.lock);
    for (int i = 0; i < RT_EVENTS; i++) {
        if (!valid_event((jvmtiEvent)(i + JVMTI_MIN_EVENT_TYPE_VAL)))
            slots[i] = NULL; /* reserved slots hold nothing */
        STORE(&e->callbacks[i], slots[i]);
        if (slots[i])
            mask |= (uint64_t)1 << i;
    }
    STORE(&e->callback_mask, mask);
    rt_events_recompute();
    pthread_mutex_unlock(&rt.lock);
    return JVMTI_ERROR_NONE;
}

static rt_thread_events *thread_events(rt_thread *t, rt_env *e, int create)
{
    for (rt_thread_events *n = t->events; n; n = n->next)
        if (n->env == e)
            return n;
    if (!create)
        return NULL;
    rt_thread_events *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    n->env = e;
    n->next = t->events;
    STORE(&t->events, n); /* the thread reads its list without the lock */
    return n;
}

/* The checks, in the order HotSpot makes them (the spec gives none): the
 * thread, if one is given; the event type; thread-level control of a
 * global-only event; the mode; the capability, when enabling. */
jvmtiError jvmti_impl_SetEventNotificationMode(jvmtiEnv *env, jvmtiEventMode mode,
                                               jvmtiEvent event_type, jthread event_thread,
                                               ...)
{
    rt_env *e = rt_env_of(env);
    if (event_thread) {
        jvmtiError err = JVMTIGEN_CHECK_THREAD(env, event_thread);
        if (err != JVMTI_ERROR_NONE)
            return err;
    }
    const jvmtigen_event_info *info = valid_event(event_type);
    if (!info)
        return JVMTI_ERROR_INVALID_EVENT_TYPE;
    if (event_thread && !info->per_thread)
        return JVMTI_ERROR_ILLEGAL_ARGUMENT; /* a global-only event */
    if (mode != JVMTI_ENABLE && mode != JVMTI_DISABLE)
        return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    jvmtiCapabilities held = jvmtigen_capabilities_load(&e->head.capabilities);
    if (mode == JVMTI_ENABLE && info->capability >= 0 &&
        !jvmtirt_capability_get(&held, info->capability))
        return JVMTI_ERROR_MUST_POSSESS_CAPABILITY;
    uint64_t bit = (uint64_t)1 << event_index(event_type);
    uintptr_t tid = 0;
    if (event_thread)
        tid = rt.config.thread_id ? rt.config.thread_id(event_thread) : (uintptr_t)event_thread;
    jvmtiError err = JVMTI_ERROR_NONE;
    pthread_mutex_lock(&rt.lock);
    if (!event_thread) {
        uint64_t m = LOAD(&e->global_mask);
        STORE(&e->global_mask, mode == JVMTI_ENABLE ? m | bit : m & ~bit);
    } else {
        rt_thread *t = rt_thread_find(tid);
        rt_thread_events *n = t ? thread_events(t, e, mode == JVMTI_ENABLE) : NULL;
        if (!t)
            err = JVMTI_ERROR_THREAD_NOT_ALIVE; /* the VM said live, but it has ended */
        else if (n)
            STORE(&n->mask, mode == JVMTI_ENABLE ? LOAD(&n->mask) | bit : LOAD(&n->mask) & ~bit);
        else if (mode == JVMTI_ENABLE)
            err = JVMTI_ERROR_OUT_OF_MEMORY;
    }
    rt_events_recompute();
    pthread_mutex_unlock(&rt.lock);
    return err;
}

jvmtiError jvmti_impl_GenerateEvents(jvmtiEnv *env, jvmtiEvent event_type)
{
    if (event_type == JVMTI_EVENT_COMPILED_METHOD_LOAD) {
        if (!JVMTIGEN_HAS_CAPABILITY(env, can_generate_compiled_method_load_events))
            return JVMTI_ERROR_MUST_POSSESS_CAPABILITY;
    } else if (event_type != JVMTI_EVENT_DYNAMIC_CODE_GENERATED) {
        return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    }
    return rt.config.generate_events ? rt.config.generate_events(env, event_type)
                                     : JVMTI_ERROR_NONE;
}

int jvmtirt_event_enabled(jvmtiEvent event)
{
    return valid_event(event) && JVMTIGEN_EVENT_ON(event);
}

/* Whether e wants the event (bit) on thread t (NULL: a thread the core does
 * not know): it has a callback, and enabled the event globally or for t.
 * Lock-free: t's list is read the way its own thread reads it. */
static int env_wants(rt_env *e, uint64_t bit, rt_thread *t)
{
    if (!(LOAD(&e->callback_mask) & bit))
        return 0;
    if (LOAD(&e->global_mask) & bit)
        return 1;
    if (!t || !(LOAD(&e->thread_mask) & bit))
        return 0;
    for (rt_thread_events *n = LOAD(&t->events); n; n = LOAD(&n->next))
        if (n->env == e)
            return (LOAD(&n->mask) & bit) != 0;
    return 0;
}

int jvmtirt_event_enabled_for_thread(jvmtiEvent event, uintptr_t thread_id)
{
    if (!jvmtirt_event_enabled(event))
        return 0;
    uint64_t bit = (uint64_t)1 << event_index(event);
    int on = 0;
    pthread_mutex_lock(&rt.lock);
    rt_thread *t = rt_thread_find(thread_id);
    for (rt_env *e = rt.envs; e && !on; e = e->next)
        on = env_wants(e, bit, t);
    pthread_mutex_unlock(&rt.lock);
    return on;
}

/* ---- the posting cursor ---- */

/* While a walk is open no disposed environment it may reach is freed
 * (rt_walk_begin, rt_walk_end: see base/base.c). */

/* Which groups of ClassFileLoadHook the calling thread's next posts reach
 * (RT_HOOK_BOTH, _INCAPABLE, _CAPABLE): set by the VM for a
 * retransformation (jvmtirt_post_set_retransforming), and by the core while
 * it runs the two halves of the chain apart (classes/redefine.c). */
static JVMTIGEN_TLS int hook_groups;

void jvmtirt_post_set_retransforming(int on) { hook_groups = on ? RT_HOOK_CAPABLE : RT_HOOK_BOTH; }

int rt_class_hook_groups(int groups)
{
    int was = hook_groups;
    hook_groups = groups;
    return was;
}

void jvmtirt_post_deallocate(void *mem) { jvmti_impl_Deallocate(NULL, mem); }

/* Whether e enabled the event for a thread other than the calling one. Its
 * record may go away at any time (jvmtirt_thread_end), so it is read under
 * the lock; only per-thread enabling of an event posted for another thread
 * comes here. */
static int other_thread_wants(rt_env *e, const jvmtigen_post_cursor *c)
{
    int on = 0;
    pthread_mutex_lock(&rt.lock);
    rt_thread *t = rt_thread_find(c->thread_id);
    for (rt_thread_events *n = t ? t->events : NULL; n; n = n->next)
        if (n->env == e)
            on = (LOAD(&n->mask) & c->bit) != 0;
    pthread_mutex_unlock(&rt.lock);
    return on;
}

/* env_wants for the event's thread, resolved on first need: most posts
 * never ask (global enabling), and the calling thread needs no lock. */
static int cursor_wants(rt_env *e, jvmtigen_post_cursor *c)
{
    uint64_t bit = c->bit;
    if (!(LOAD(&e->callback_mask) & bit))
        return 0;
    if (LOAD(&e->global_mask) & bit)
        return 1;
    if (!(LOAD(&e->thread_mask) & bit))
        return 0;
    if (c->thread_state == 0) {
        c->thread_state = 1;
        if (c->thread) {
            c->thread_id = rt.config.thread_id ? rt.config.thread_id(c->thread)
                                               : (uintptr_t)c->thread;
            if (!rt_self || rt_self->id != c->thread_id)
                c->thread_state = 2;
        }
    }
    return c->thread_state == 1 ? env_wants(e, bit, rt_self) : other_thread_wants(e, c);
}

/* ClassFileLoadHook's groups (c->pass: 0 without can_retransform_classes,
 * 1 with it) and its early-phase rule. */
static int class_hook_skips(rt_env *e, const jvmtigen_post_cursor *c)
{
    jvmtiCapabilities held = jvmtigen_capabilities_load(&e->head.capabilities);
    if ((held.can_retransform_classes != 0) != (c->pass == 1))
        return 1;
    return JVMTIGEN_PHASE(NULL) == JVMTI_PHASE_PRIMORDIAL &&
           !(held.can_generate_early_class_hook_events && held.can_generate_all_class_hook_events);
}

static jvmtiEnv *advance(jvmtigen_post_cursor *c, rt_env *e)
{
    for (;;) {
        for (; e; e = LOAD_SC(&e->next)) {
            if (LOAD(&e->disposed) || (c->pass >= 0 && class_hook_skips(e, c)) ||
                !cursor_wants(e, c))
                continue;
            jvmtigen_callback cb = LOAD(&e->callbacks[c->index]);
            if (!cb)
                continue;
            c->env = e;
            c->callback = cb;
            return (jvmtiEnv *)e;
        }
        if (c->pass != 0 || hook_groups == RT_HOOK_INCAPABLE)
            break;
        c->pass = 1; /* the second group of ClassFileLoadHook */
        e = LOAD_SC(&rt.envs);
    }
    c->env = NULL;
    c->callback = NULL;
    return NULL;
}

/* VMStart, VMInit and VMDeath mark the phases: the VM posting one outside
 * its phase (VMInit before jvmtirt_set_phase(LIVE)) is the VM's mistake,
 * and an agent that enabled it would wait for it forever. Said once per
 * event on stderr (other events are simply not sent outside their phases:
 * a ClassLoad of the primordial phase is no mistake). Only an event some
 * environment enabled gets here. */
static void out_of_phase(jvmtiEvent event, jvmtiPhase now)
{
    static int said[3]; /* atomic */
    int k = event == JVMTI_EVENT_VM_START  ? 0
            : event == JVMTI_EVENT_VM_INIT ? 1
            : event == JVMTI_EVENT_VM_DEATH ? 2
                                            : -1;
    static const char *const names[] = {"VMStart", "VMInit", "VMDeath"};
    static const char *const wanted[] = {"the start phase", "the live phase", "the live phase"};
    if (k < 0 || __atomic_exchange_n(&said[k], 1, __ATOMIC_RELAXED))
        return;
    const char *phase = now == JVMTI_PHASE_ONLOAD       ? "OnLoad"
                        : now == JVMTI_PHASE_PRIMORDIAL ? "primordial"
                        : now == JVMTI_PHASE_START      ? "start"
                        : now == JVMTI_PHASE_LIVE       ? "live"
                                                        : "dead";
    fprintf(stderr, "jvmtirt: error: jvmtirt_post_%s in the %s phase: %s is sent only in %s "
                    "(jvmtirt_set_phase first); no environment got it\n",
            names[k], phase, names[k], wanted[k]);
}

jvmtiEnv *jvmtigen_post_first(jvmtigen_post_cursor *c, jvmtiEvent event, jthread thread)
{
    c->epoch = rt_walk_begin();
    c->index = event_index(event);
    c->bit = (uint64_t)1 << c->index;
    c->thread = thread;
    c->thread_id = 0;
    c->thread_state = 0;
    c->pass = event != JVMTI_EVENT_CLASS_FILE_LOAD_HOOK ? -1
              : hook_groups == RT_HOOK_CAPABLE  ? 1
                                                : 0;
    c->env = NULL;
    c->callback = NULL;
    /* Outside the event's phases nobody gets it (the tables know them). An
     * event of any phase is sent whenever agent code can run on one: not
     * in OnLoad, and not once the VM is dead. */
    const jvmtigen_event_info *info = valid_event(event);
    jvmtiPhase now = JVMTIGEN_PHASE(NULL);
    if (!info || !jvmtigen_phase_allows(info->phase, now) || now == JVMTI_PHASE_ONLOAD ||
        now == JVMTI_PHASE_DEAD) {
        if (info)
            out_of_phase(event, now);
        return NULL;
    }
    return advance(c, LOAD_SC(&rt.envs));
}

jvmtiEnv *jvmtigen_post_next(jvmtigen_post_cursor *c)
{
    return c->env ? advance(c, LOAD_SC(&((rt_env *)c->env)->next)) : NULL;
}

void jvmtigen_post_done(jvmtigen_post_cursor *c) { rt_walk_end(c->epoch); }

void jvmtirt_extension_event_each(jint index,
                                  int (*fn)(jvmtiEnv *env, jvmtiExtensionEvent callback, void *arg),
                                  void *arg)
{
    if (index < 0)
        return;
    int epoch = rt_walk_begin();
    jint slot = -1;
    for (jint i = 0; i < LOAD(&rt.n_ext_events); i++)
        if (rt.ext_events[i].extension_event_index == index)
            slot = i;
    for (rt_env *e = LOAD_SC(&rt.envs); slot >= 0 && e; e = LOAD_SC(&e->next)) {
        if (LOAD(&e->disposed) || !e->ext_callbacks)
            continue;
        jvmtiExtensionEvent cb = LOAD(&e->ext_callbacks[slot]);
        if (cb && fn((jvmtiEnv *)e, cb, arg))
            break;
    }
    rt_walk_end(epoch);
}
