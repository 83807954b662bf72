/* Extension functions and events through the checker. The VM's extension
 * functions take the VM's environment and its extension events hand their
 * callbacks the VM's environment, so neither may reach the agent as is:
 * GetExtensionFunctions gives the agent one entry of the checker's per
 * function, which checks the arguments as the function's jvmtiParamInfo
 * describes them and calls the VM's function with the real environment;
 * SetExtensionEventCallback gives the VM one entry of the checker's per
 * environment and event, which calls the agent's callback with its own
 * (checking) environment. Both kinds are variadic, and their arguments are
 * known only at run time: libffi builds the entries (closures) and makes
 * the calls (ffi_call on a variadic call interface). Entries live as long
 * as the process: the agent or the VM may keep their addresses. */
#include <ffi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvmticheck.h"
#include "jvmtigen_trace.h"

/* The type an argument of this kind and base type has in a variadic call
 * (default promotions: small integers to int, float to double). */
static ffi_type *arg_type(const jvmtiParamInfo *p)
{
    if (p->kind != JVMTI_KIND_IN)
        return &ffi_type_pointer;
    switch (p->base_type) {
    case JVMTI_TYPE_JBYTE:
    case JVMTI_TYPE_JSHORT:
    case JVMTI_TYPE_JINT:
    case JVMTI_TYPE_CCHAR: return &ffi_type_sint32;
    case JVMTI_TYPE_JCHAR:
    case JVMTI_TYPE_JBOOLEAN: return &ffi_type_uint32;
    case JVMTI_TYPE_JLONG: return &ffi_type_sint64;
    case JVMTI_TYPE_JFLOAT:
    case JVMTI_TYPE_JDOUBLE: return &ffi_type_double;
    case JVMTI_TYPE_JVALUE: return &ffi_type_uint64; /* an 8-byte union: one integer register */
    default: return &ffi_type_pointer;               /* handles, JNIEnv *, void * */
    }
}

/* More parameters than this: no entry (the VM's function is handed out
 * unchecked, the event goes unwrapped); the calls' argument arrays stay on
 * the stack. */
#define MAX_PARAMS 32

/* What a function or an event takes: the environment, then its params. */
typedef struct ext_sig {
    ffi_cif cif;
    ffi_type **types;
    jint n;                 /* params */
    jvmtiParamInfo *params; /* the checker's copy: name (escaped), kind, type, null_ok */
    char *id;               /* escaped: it goes into lines as it is */
} ext_sig;

/* The VM's names, as they may appear in a finding or trace line. */
static char *escaped_dup(const char *name)
{
    char buf[256];
    return strdup(jvmticheck_escape(buf, sizeof buf, name ? name : "?"));
}

static int sig_init(ext_sig *s, const char *id, jint n, const jvmtiParamInfo *params, ffi_type *ret)
{
    memset(s, 0, sizeof *s);
    if (n > MAX_PARAMS)
        return 0;
    s->n = n < 0 ? 0 : n;
    s->id = escaped_dup(id);
    s->types = calloc((size_t)s->n + 1, sizeof *s->types);
    s->params = calloc((size_t)s->n + 1, sizeof *s->params);
    if (!s->id || !s->types || !s->params)
        return 0;
    s->types[0] = &ffi_type_pointer;
    for (jint i = 0; i < s->n; i++) {
        s->params[i] = params[i];
        s->params[i].name = escaped_dup(params[i].name);
        if (!s->params[i].name)
            return 0;
        s->types[i + 1] = arg_type(&params[i]);
    }
    return ffi_prep_cif_var(&s->cif, FFI_DEFAULT_ABI, 1, (unsigned)s->n + 1, ret, s->types) == FFI_OK;
}

/* ---- functions ---- */
typedef struct ext_fn {
    jvmtiExtensionFunction real;
    ext_sig sig;
    ffi_closure *closure;
    jvmtiExtensionFunction entry;
    struct ext_fn *next;
} ext_fn;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static ext_fn *fns; /* under lock */

/* A traced call's arguments, in JVM TI's trace line format: values by
 * their promoted type, strings (const char * in) as text, the rest as
 * pointers. */
static void trace_args(jvmtigen_trace_call *tc, jvmtiEnv *env, const ext_sig *s, void **args)
{
    jvmtigen_trace_begin(tc, env, s->id);
    for (jint i = 0; i < s->n; i++) {
        const jvmtiParamInfo *p = &s->params[i];
        void *a = args[i + 1];
        if (p->kind == JVMTI_KIND_IN_PTR && p->base_type == JVMTI_TYPE_CCHAR) {
            jvmtigen_trace_str(tc, p->name, *(const char **)a);
            continue;
        }
        ffi_type *t = s->types[i + 1];
        if (t == &ffi_type_sint32)
            jvmtigen_trace_int(tc, p->name, *(int32_t *)a);
        else if (t == &ffi_type_uint32)
            jvmtigen_trace_int(tc, p->name, *(uint32_t *)a);
        else if (t == &ffi_type_sint64)
            jvmtigen_trace_int(tc, p->name, *(int64_t *)a);
        else if (t == &ffi_type_double)
            jvmtigen_trace_double(tc, p->name, *(double *)a);
        else if (t == &ffi_type_uint64)
            jvmtigen_trace_int(tc, p->name, (jlong) * (uint64_t *)a);
        else
            jvmtigen_trace_ptr(tc, p->name, *(void **)a);
    }
    jvmtigen_trace_call_start(tc);
}

/* After a call that succeeded, the values it stored through scalar
 * out-pointers, as the generated trace lines show them (*name=value). */
static void trace_outs(jvmtigen_trace_call *tc, const ext_sig *s, void **args)
{
    for (jint i = 0; i < s->n; i++) {
        const jvmtiParamInfo *p = &s->params[i];
        void *out = *(void **)args[i + 1];
        if (p->kind != JVMTI_KIND_OUT || !out)
            continue;
        char name[136];
        snprintf(name, sizeof name, "*%s", p->name);
        switch (p->base_type) {
        case JVMTI_TYPE_JINT: jvmtigen_trace_int(tc, name, *(jint *)out); break;
        case JVMTI_TYPE_JLONG: jvmtigen_trace_int(tc, name, *(jlong *)out); break;
        case JVMTI_TYPE_JBOOLEAN: jvmtigen_trace_bool(tc, name, *(jboolean *)out); break;
        case JVMTI_TYPE_JFLOAT: jvmtigen_trace_double(tc, name, *(jfloat *)out); break;
        case JVMTI_TYPE_JDOUBLE: jvmtigen_trace_double(tc, name, *(jdouble *)out); break;
        default: break; /* handles and buffers: the pointer was shown */
        }
    }
}

/* An out-pointer (every kind but IN) the spec of the function says must
 * not be NULL: the first such NULL is the finding, as for the others. */
static void fn_entry(ffi_cif *cif, void *ret, void **args, void *data)
{
    (void)cif;
    ext_fn *f = data;
    jvmtiEnv *env = *(jvmtiEnv **)args[0];
    if (!jvmticheck_env_valid(env)) {
        jvmticheck_broke(env, f->sig.id, "env", "must be a valid environment", JVMTI_ERROR_INVALID_ENVIRONMENT);
        *(ffi_sarg *)ret = JVMTI_ERROR_INVALID_ENVIRONMENT;
        return;
    }
    for (jint i = 0; i < f->sig.n; i++) {
        const jvmtiParamInfo *p = &f->sig.params[i];
        if (p->kind != JVMTI_KIND_IN && !p->null_ok && *(void **)args[i + 1] == NULL) {
            jvmticheck_broke(env, f->sig.id, p->name, "must not be NULL", JVMTI_ERROR_NULL_POINTER);
            break;
        }
    }
    jvmtiEnv *real = JVMTICHECK_REAL(env);
    void *fwd[MAX_PARAMS + 1];
    fwd[0] = &real;
    for (jint i = 0; i < f->sig.n; i++)
        fwd[i + 1] = args[i + 1];
    jvmtigen_trace_call tc;
    int traced = jvmticheck_trace_selected(f->sig.id);
    if (traced)
        trace_args(&tc, env, &f->sig, args);
    ffi_sarg r = 0;
    ffi_call(&f->sig.cif, FFI_FN(f->real), &r, fwd);
    *(ffi_sarg *)ret = r;
    if (traced) {
        jvmtigen_trace_result(&tc, (jvmtiError)r);
        if (r == JVMTI_ERROR_NONE)
            trace_outs(&tc, &f->sig, args);
        jvmtigen_trace_end(&tc);
    }
}

/* The checker's entry for the VM's function (one per function, made on
 * first sight); the VM's own when one cannot be made. */
static jvmtiExtensionFunction fn_entry_of(const jvmtiExtensionFunctionInfo *info)
{
    pthread_mutex_lock(&lock);
    ext_fn *f = fns;
    while (f && f->real != info->func)
        f = f->next;
    if (!f && (f = calloc(1, sizeof *f)) != NULL) {
        void *code = NULL;
        f->real = info->func;
        f->closure = ffi_closure_alloc(sizeof(ffi_closure), &code);
        if (f->closure && sig_init(&f->sig, info->id, info->param_count, info->params, &ffi_type_sint) &&
            ffi_prep_closure_loc(f->closure, &f->sig.cif, fn_entry, f, code) == FFI_OK) {
            f->entry = (jvmtiExtensionFunction)code;
            f->next = fns;
            fns = f;
        } else {
            f = NULL; /* left as it is: a few bytes, once */
        }
    }
    pthread_mutex_unlock(&lock);
    return f ? f->entry : info->func;
}

static void own(jvmtiEnv *env, const void *mem)
{
    jvmticheck_owned(env, "GetExtensionFunctions", mem);
}

/* Replaces the generated forwarder: the same buffers are recorded (the
 * array, and its strings and arrays, all the agent's to Deallocate). */
jvmtiError jvmticheck_forward_GetExtensionFunctions(jvmtiEnv *env, jint *extension_count_ptr,
                                                    jvmtiExtensionFunctionInfo **extensions);
jvmtiError jvmticheck_forward_GetExtensionFunctions(jvmtiEnv *env, jint *extension_count_ptr,
                                                    jvmtiExtensionFunctionInfo **extensions)
{
    jvmtiEnv *real = JVMTICHECK_REAL(env);
    jvmtiError err = (*real)->GetExtensionFunctions(real, extension_count_ptr, extensions);
    if (err != JVMTI_ERROR_NONE || !extensions || !*extensions || !extension_count_ptr)
        return err;
    own(env, *extensions);
    for (jint i = 0; i < *extension_count_ptr; i++) {
        jvmtiExtensionFunctionInfo *x = &(*extensions)[i];
        own(env, x->id);
        own(env, x->short_description);
        own(env, x->params);
        for (jint j = 0; x->params && j < x->param_count; j++)
            own(env, x->params[j].name);
        own(env, x->errors);
        if (x->func)
            x->func = fn_entry_of(x);
    }
    return err;
}

/* ---- events ---- */
typedef struct ext_ev {
    jvmticheck_env *env; /* the agent's */
    jint index;
    jvmtiExtensionEvent callback; /* the agent's; atomic */
    ext_sig sig;
    ffi_closure *closure;
    jvmtiExtensionEvent entry;
    struct ext_ev *next;
} ext_ev;

static ext_ev *evs; /* under lock */

static void ev_entry(ffi_cif *cif, void *ret, void **args, void *data)
{
    (void)cif;
    (void)ret;
    ext_ev *v = data;
    jvmtiExtensionEvent cb = __atomic_load_n(&v->callback, __ATOMIC_ACQUIRE);
    if (!cb)
        return;
    jvmtiEnv *mine = (jvmtiEnv *)(void *)v->env;
    void *fwd[MAX_PARAMS + 1];
    fwd[0] = &mine;
    for (jint i = 0; i < v->sig.n; i++)
        fwd[i + 1] = args[i + 1];
    jvmticheck_event_call c;
    jvmticheck_event_begin(&c, v->env, v->sig.id);
    ffi_call(&v->sig.cif, FFI_FN(cb), NULL, fwd);
    jvmticheck_event_end(&c);
}

/* The event's description, asked of the VM. */
static int event_info(jvmtiEnv *real, jint index, ext_sig *sig)
{
    jint n = 0;
    jvmtiExtensionEventInfo *list = NULL;
    int found = 0;
    if ((*real)->GetExtensionEvents(real, &n, &list) != JVMTI_ERROR_NONE || !list)
        return 0;
    for (jint i = 0; i < n; i++) {
        jvmtiExtensionEventInfo *x = &list[i];
        if (x->extension_event_index == index && !found)
            found = sig_init(sig, x->id, x->param_count, x->params, &ffi_type_void);
        for (jint j = 0; x->params && j < x->param_count; j++)
            (*real)->Deallocate(real, (unsigned char *)x->params[j].name);
        (*real)->Deallocate(real, (unsigned char *)x->params);
        (*real)->Deallocate(real, (unsigned char *)x->id);
        (*real)->Deallocate(real, (unsigned char *)x->short_description);
    }
    (*real)->Deallocate(real, (unsigned char *)list);
    return found;
}

/* The record of (env, index), made on first use; NULL for an index the VM
 * does not know (its own error then stands) or when out of memory. */
static ext_ev *event_of(jvmticheck_env *e, jint index)
{
    pthread_mutex_lock(&lock);
    ext_ev *v = evs;
    while (v && !(v->env == e && v->index == index))
        v = v->next;
    if (!v && (v = calloc(1, sizeof *v)) != NULL) {
        void *code = NULL;
        v->env = e;
        v->index = index;
        v->closure = ffi_closure_alloc(sizeof(ffi_closure), &code);
        if (v->closure && event_info(e->real, index, &v->sig) &&
            ffi_prep_closure_loc(v->closure, &v->sig.cif, ev_entry, v, code) == FFI_OK) {
            v->entry = (jvmtiExtensionEvent)code;
            v->next = evs;
            evs = v;
        } else {
            v = NULL;
        }
    }
    pthread_mutex_unlock(&lock);
    return v;
}

jvmtiError jvmticheck_forward_SetExtensionEventCallback(jvmtiEnv *env, jint extension_event_index,
                                                        jvmtiExtensionEvent callback);
jvmtiError jvmticheck_forward_SetExtensionEventCallback(jvmtiEnv *env, jint extension_event_index,
                                                        jvmtiExtensionEvent callback)
{
    jvmticheck_env *e = (jvmticheck_env *)(void *)env;
    ext_ev *v = event_of(e, extension_event_index);
    if (!v) /* not an event of the VM's: its error, unchanged */
        return (*e->real)->SetExtensionEventCallback(e->real, extension_event_index, callback);
    /* Stored before the VM has the entry (an event may come at once), put
     * back if the VM refuses. */
    jvmtiExtensionEvent before = __atomic_exchange_n(&v->callback, callback, __ATOMIC_ACQ_REL);
    jvmtiError err = (*e->real)->SetExtensionEventCallback(e->real, extension_event_index,
                                                           callback ? v->entry : NULL);
    if (err != JVMTI_ERROR_NONE)
        __atomic_store_n(&v->callback, before, __ATOMIC_RELEASE);
    return err;
}
