/* Locals and frames: Get/SetLocal{Int,Long,Float,Double,Object},
 * GetLocalInstance, PopFrame and ForceEarlyReturn*, with the spec's checks
 * over the VM's frame_slot and frame_return operations (and local_type,
 * the declared types of a method's local variable table).
 *
 * Every call holds rt.lock from the thread check to the end of the VM's
 * operation. rt.lock is what suspend and resume take (suspend.c), so a
 * thread found suspended stays suspended while the VM reads or changes its
 * frame: a ResumeThread from another thread waits for the read to end
 * instead of letting the thread run under it. */
#include "jvmtigen_impl.h"
#include "rt.h"
#include "threads.h"

/* The thread (NULL: the caller where null_is_current) whose frames this
 * call may touch: the caller, or one the core holds suspended. Under
 * rt.lock. */
static jvmtiError target(jvmtiEnv *env, jthread thread, int null_is_current, uintptr_t *id)
{
    if (!thread && !null_is_current)
        return JVMTI_ERROR_INVALID_THREAD;
    rt_thread *t;
    jvmtiError err = rt_thread_of_ref(env, thread, &t);
    if (err != JVMTI_ERROR_NONE)
        return err;
    if (t != rt_self && !t->suspended)
        return JVMTI_ERROR_THREAD_NOT_SUSPENDED;
    *id = t->id;
    return JVMTI_ERROR_NONE;
}

/* The kind ('I', 'J', 'F', 'D', 'L') a type signature's first character
 * reads as, 0 for none (void, or not a type). */
static char kind_of(char c)
{
    switch (c) {
    case 'Z': case 'B': case 'C': case 'S': case 'I':
        return 'I';
    case 'J': case 'F': case 'D':
        return c;
    case 'L': case '[':
        return 'L';
    default:
        return 0;
    }
}

/* Whether s->slot of the described frame may be read or written as
 * s->type: INVALID_SLOT outside the frame's slots (a long or double takes
 * two) or where the local variable table has no variable; TYPE_MISMATCH
 * against its declared type, or without a table against the VM's tag.
 * Under rt.lock. */
static jvmtiError check_slot(const jvmtirt_frame_slot *s)
{
    int wide = s->type == 'J' || s->type == 'D';
    if (s->slot < 0 || s->slot >= s->max_locals || (wide && s->slot >= s->max_locals - 1))
        return JVMTI_ERROR_INVALID_SLOT;
    char declared = 0;
    if (rt.config.local_type) {
        jvmtiError err = rt.config.local_type(s->method, s->location, s->slot, &declared);
        if (err == JVMTI_ERROR_ABSENT_INFORMATION)
            declared = 0;
        else if (err != JVMTI_ERROR_NONE)
            return err;
        else if (!kind_of(declared))
            return JVMTI_ERROR_INTERNAL; /* the VM's table holds no type there */
    }
    char have = declared ? kind_of(declared) : s->tag;
    if (have && have != s->type)
        return JVMTI_ERROR_TYPE_MISMATCH;
    return JVMTI_ERROR_NONE;
}

/* One read or write (mode) of a local, or (instance) GetLocalInstance's
 * read of slot 0. The value goes through *value. */
static jvmtiError access_local(jvmtiEnv *env, jthread thread, jint depth, jint slot, char type,
                               int mode, int instance, jvalue *value)
{
    if (!rt.config.frame_slot)
        return JVMTI_ERROR_NOT_AVAILABLE;
    jvmtirt_frame_slot s = {.depth = depth, .slot = slot, .type = type, .value = *value};
    uintptr_t id;
    pthread_mutex_lock(&rt.lock);
    jvmtiError err = target(env, thread, 1, &id);
    if (err == JVMTI_ERROR_NONE)
        err = rt.config.frame_slot(id, JVMTIRT_FRAME_DESCRIBE, &s);
    if (err == JVMTI_ERROR_NONE) {
        if (instance)
            err = s.is_static ? JVMTI_ERROR_INVALID_SLOT : JVMTI_ERROR_NONE;
        else if (s.is_native)
            err = JVMTI_ERROR_OPAQUE_FRAME;
        else
            err = check_slot(&s);
    }
    if (err == JVMTI_ERROR_NONE)
        err = rt.config.frame_slot(id, mode, &s);
    pthread_mutex_unlock(&rt.lock);
    if (err == JVMTI_ERROR_NONE && mode == JVMTIRT_FRAME_READ)
        *value = s.value;
    return err;
}

#define GET_LOCAL(NAME, CTYPE, TYPE, MEMBER)                                                    \
    jvmtiError jvmti_impl_GetLocal##NAME(jvmtiEnv *env, jthread thread, jint depth, jint slot,    \
                                         CTYPE *value_ptr)                                        \
    {                                                                                             \
        jvalue v = {0};                                                                           \
        jvmtiError err = access_local(env, thread, depth, slot, TYPE, JVMTIRT_FRAME_READ, 0, &v); \
        if (err == JVMTI_ERROR_NONE)                                                              \
            *value_ptr = v.MEMBER;                                                                \
        return err;                                                                               \
    }                                                                                             \
    jvmtiError jvmti_impl_SetLocal##NAME(jvmtiEnv *env, jthread thread, jint depth, jint slot,    \
                                         CTYPE value)                                             \
    {                                                                                             \
        jvalue v = {.MEMBER = value};                                                             \
        return access_local(env, thread, depth, slot, TYPE, JVMTIRT_FRAME_WRITE, 0, &v);          \
    }

GET_LOCAL(Int, jint, 'I', i)
GET_LOCAL(Long, jlong, 'J', j)
GET_LOCAL(Float, jfloat, 'F', f)
GET_LOCAL(Double, jdouble, 'D', d)
GET_LOCAL(Object, jobject, 'L', l)

jvmtiError jvmti_impl_GetLocalInstance(jvmtiEnv *env, jthread thread, jint depth,
                                       jobject *value_ptr)
{
    jvalue v = {0};
    jvmtiError err = access_local(env, thread, depth, 0, 'L', JVMTIRT_FRAME_READ, 1, &v);
    if (err == JVMTI_ERROR_NONE)
        *value_ptr = v.l;
    return err;
}

/* PopFrame (type 0) or ForceEarlyReturn of a value of that kind ('V': none). */
static jvmtiError unwind(jvmtiEnv *env, jthread thread, char type, jvalue value)
{
    if (!rt.config.frame_return)
        return JVMTI_ERROR_NOT_AVAILABLE;
    jvmtirt_frame_return r = {.type = type ? type : 'V', .value = value};
    uintptr_t id;
    pthread_mutex_lock(&rt.lock);
    jvmtiError err = target(env, thread, type != 0, &id);
    if (err == JVMTI_ERROR_NONE)
        err = rt.config.frame_return(id, JVMTIRT_FRAME_DESCRIBE, &r);
    if (err == JVMTI_ERROR_NONE) {
        if (r.frames < (type ? 1 : 2))
            err = JVMTI_ERROR_NO_MORE_FRAMES;
        else if (r.top_native || (!type && r.caller_native))
            err = JVMTI_ERROR_OPAQUE_FRAME;
        else if (type && (type == 'V' ? r.result != 'V' : kind_of(r.result) != type))
            err = JVMTI_ERROR_TYPE_MISMATCH;
    }
    /* The popped frame's key, to drop its frame-pop requests: FramePop
     * does not report frames PopFrame removes. */
    uintptr_t key = 0;
    int keyed = err == JVMTI_ERROR_NONE && !type && rt.config.frame_at &&
                rt.config.frame_pop_arm && rt.config.frame_at(id, 0, &key) == JVMTI_ERROR_NONE;
    if (err == JVMTI_ERROR_NONE)
        err = rt.config.frame_return(id, type ? JVMTIRT_FRAME_RETURN : JVMTIRT_FRAME_POP, &r);
    if (err == JVMTI_ERROR_NONE && keyed)
        rt_frame_pops_forget(id, key);
    pthread_mutex_unlock(&rt.lock);
    return err;
}

jvmtiError jvmti_impl_PopFrame(jvmtiEnv *env, jthread thread)
{
    return unwind(env, thread, 0, (jvalue){0});
}

jvmtiError jvmti_impl_ForceEarlyReturnVoid(jvmtiEnv *env, jthread thread)
{
    return unwind(env, thread, 'V', (jvalue){0});
}

#define EARLY_RETURN(NAME, CTYPE, TYPE, MEMBER)                                                   \
    jvmtiError jvmti_impl_ForceEarlyReturn##NAME(jvmtiEnv *env, jthread thread, CTYPE value)      \
    {                                                                                             \
        return unwind(env, thread, TYPE, (jvalue){.MEMBER = value});                              \
    }

EARLY_RETURN(Int, jint, 'I', i)
EARLY_RETURN(Long, jlong, 'J', j)
EARLY_RETURN(Float, jfloat, 'F', f)
EARLY_RETURN(Double, jdouble, 'D', d)
EARLY_RETURN(Object, jobject, 'L', l)

#define NEEDS(NAME, OP) {RT_SLOT(NAME), {RT_OP(OP)}}
static const rt_need needs[] = {
    NEEDS(GetLocalObject, frame_slot),     NEEDS(GetLocalInt, frame_slot),
    NEEDS(GetLocalLong, frame_slot),       NEEDS(GetLocalFloat, frame_slot),
    NEEDS(GetLocalDouble, frame_slot),     NEEDS(SetLocalObject, frame_slot),
    NEEDS(SetLocalInt, frame_slot),        NEEDS(SetLocalLong, frame_slot),
    NEEDS(SetLocalFloat, frame_slot),      NEEDS(SetLocalDouble, frame_slot),
    NEEDS(GetLocalInstance, frame_slot),   NEEDS(PopFrame, frame_return),
    NEEDS(ForceEarlyReturnObject, frame_return), NEEDS(ForceEarlyReturnInt, frame_return),
    NEEDS(ForceEarlyReturnLong, frame_return),   NEEDS(ForceEarlyReturnFloat, frame_return),
    NEEDS(ForceEarlyReturnDouble, frame_return), NEEDS(ForceEarlyReturnVoid, frame_return),
};

const rt_area rt_area_locals = {.needs = needs, .n_needs = sizeof needs / sizeof *needs};
