/* System properties (VM-provided, agent-settable during OnLoad) and the
 * registries of extension functions and events (VM-filled). Everything
 * handed to an agent is a fresh allocation it frees with Deallocate. */
#include <stdlib.h>
#include <string.h>

#include "envs.h"
#include "jvmtigen_impl.h"
#include "rt.h"

static rt_property *find_property(const char *name)
{
    for (rt_property *p = rt.properties; p; p = p->next)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

jvmtiError jvmtirt_property_define(const char *name, const char *value, int writable)
{
    if (!rt_ready("jvmtirt_property_define"))
        return JVMTI_ERROR_WRONG_PHASE;
    jvmtiError err = JVMTI_ERROR_NONE;
    pthread_mutex_lock(&rt.lock);
    rt_property *p = find_property(name);
    char *v = rt_strdup(value ? value : "");
    if (!v) {
        err = JVMTI_ERROR_OUT_OF_MEMORY;
    } else if (p) {
        free(p->value);
        p->value = v;
        p->writable = writable;
    } else if (!(p = calloc(1, sizeof *p)) || !(p->name = rt_strdup(name))) {
        free(p);
        free(v);
        err = JVMTI_ERROR_OUT_OF_MEMORY;
    } else {
        p->value = v;
        p->writable = writable;
        rt_property **tail = &rt.properties; /* keep the VM's order */
        while (*tail)
            tail = &(*tail)->next;
        *tail = p;
    }
    pthread_mutex_unlock(&rt.lock);
    return err;
}

const char *jvmtirt_property_value(const char *name)
{
    pthread_mutex_lock(&rt.lock);
    rt_property *p = find_property(name);
    pthread_mutex_unlock(&rt.lock);
    return p ? p->value : NULL;
}

jvmtiError jvmti_impl_GetSystemProperties(jvmtiEnv *env, jint *count_ptr, char ***property_ptr)
{
    (void)env;
    pthread_mutex_lock(&rt.lock);
    jint n = 0;
    for (rt_property *p = rt.properties; p; p = p->next)
        n++;
    char **names = malloc((size_t)(n ? n : 1) * sizeof *names);
    jint i = 0;
    for (rt_property *p = rt.properties; names && p; p = p->next, i++) {
        if (!(names[i] = rt_strdup(p->name))) {
            while (i > 0)
                free(names[--i]);
            free(names);
            names = NULL;
        }
    }
    pthread_mutex_unlock(&rt.lock);
    if (!names)
        return JVMTI_ERROR_OUT_OF_MEMORY;
    *count_ptr = n;
    *property_ptr = names;
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_GetSystemProperty(jvmtiEnv *env, const char *property, char **value_ptr)
{
    (void)env;
    jvmtiError err = JVMTI_ERROR_NOT_AVAILABLE;
    pthread_mutex_lock(&rt.lock);
    rt_property *p = find_property(property);
    if (p) {
        *value_ptr = rt_strdup(p->value);
        err = *value_ptr ? JVMTI_ERROR_NONE : JVMTI_ERROR_OUT_OF_MEMORY;
    }
    pthread_mutex_unlock(&rt.lock);
    return err;
}

jvmtiError jvmti_impl_SetSystemProperty(jvmtiEnv *env, const char *property, const char *value_ptr)
{
    (void)env;
    jvmtiError err = JVMTI_ERROR_NOT_AVAILABLE;
    pthread_mutex_lock(&rt.lock);
    rt_property *p = find_property(property);
    if (p && p->writable) {
        err = JVMTI_ERROR_NONE;
        if (value_ptr) { /* NULL only asks whether it is writable */
            char *v = rt_strdup(value_ptr);
            if (v) {
                free(p->value);
                p->value = v;
            } else {
                err = JVMTI_ERROR_OUT_OF_MEMORY;
            }
        }
    }
    pthread_mutex_unlock(&rt.lock);
    return err;
}

/* ---- extensions ---- */

static void free_params(jvmtiParamInfo *params, jint n)
{
    for (jint i = 0; params && i < n; i++)
        free(params[i].name);
    free(params);
}

/* Deep copies: strings, the parameter array and its names, the errors. */
static int copy_params(jvmtiParamInfo **dst, const jvmtiParamInfo *src, jint n)
{
    *dst = NULL;
    if (n <= 0)
        return 1;
    jvmtiParamInfo *p = calloc((size_t)n, sizeof *p);
    if (!p)
        return 0;
    for (jint i = 0; i < n; i++) {
        p[i] = src[i];
        if (!(p[i].name = rt_strdup(src[i].name ? src[i].name : ""))) {
            free_params(p, i);
            return 0;
        }
    }
    *dst = p;
    return 1;
}

static int copy_errors(jvmtiError **dst, const jvmtiError *src, jint n)
{
    *dst = NULL;
    if (n <= 0)
        return 1;
    if (!(*dst = malloc((size_t)n * sizeof **dst)))
        return 0;
    memcpy(*dst, src, (size_t)n * sizeof **dst);
    return 1;
}

static void free_function_info(jvmtiExtensionFunctionInfo *f)
{
    free(f->id);
    free(f->short_description);
    free_params(f->params, f->param_count);
    free(f->errors);
}

static int copy_function_info(jvmtiExtensionFunctionInfo *d, const jvmtiExtensionFunctionInfo *s)
{
    memset(d, 0, sizeof *d);
    d->func = s->func;
    d->param_count = s->param_count > 0 ? s->param_count : 0;
    d->error_count = s->error_count > 0 ? s->error_count : 0;
    if ((d->id = rt_strdup(s->id)) && (d->short_description = rt_strdup(s->short_description)) &&
        copy_params(&d->params, s->params, d->param_count) &&
        copy_errors(&d->errors, s->errors, d->error_count))
        return 1;
    free_function_info(d);
    return 0;
}

static void free_event_info(jvmtiExtensionEventInfo *e)
{
    free(e->id);
    free(e->short_description);
    free_params(e->params, e->param_count);
}

static int copy_event_info(jvmtiExtensionEventInfo *d, const jvmtiExtensionEventInfo *s)
{
    memset(d, 0, sizeof *d);
    d->extension_event_index = s->extension_event_index;
    d->param_count = s->param_count > 0 ? s->param_count : 0;
    if ((d->id = rt_strdup(s->id)) && (d->short_description = rt_strdup(s->short_description)) &&
        copy_params(&d->params, s->params, d->param_count))
        return 1;
    free_event_info(d);
    return 0;
}

jvmtiError jvmtirt_extension_function_add(const jvmtiExtensionFunctionInfo *info)
{
    if (!rt_ready("jvmtirt_extension_function_add"))
        return JVMTI_ERROR_WRONG_PHASE;
    jvmtiError err = JVMTI_ERROR_NONE;
    pthread_mutex_lock(&rt.lock);
    jvmtiExtensionFunctionInfo *grown = NULL;
    if (rt.ext_frozen)
        err = JVMTI_ERROR_WRONG_PHASE; /* environments already exist */
    else if (!(grown = realloc(rt.ext_functions, (size_t)(rt.n_ext_functions + 1) * sizeof *grown)))
        err = JVMTI_ERROR_OUT_OF_MEMORY;
    else if (!copy_function_info(&(rt.ext_functions = grown)[rt.n_ext_functions], info))
        err = JVMTI_ERROR_OUT_OF_MEMORY;
    else
        rt.n_ext_functions++;
    pthread_mutex_unlock(&rt.lock);
    return err;
}

jvmtiError jvmtirt_extension_event_add(const jvmtiExtensionEventInfo *info)
{
    if (!rt_ready("jvmtirt_extension_event_add"))
        return JVMTI_ERROR_WRONG_PHASE;
    jvmtiError err = JVMTI_ERROR_NONE;
    pthread_mutex_lock(&rt.lock);
    jvmtiExtensionEventInfo *grown = NULL;
    if (rt.ext_frozen)
        err = JVMTI_ERROR_WRONG_PHASE;
    else if (!(grown = realloc(rt.ext_events, (size_t)(rt.n_ext_events + 1) * sizeof *grown)))
        err = JVMTI_ERROR_OUT_OF_MEMORY;
    else if (!copy_event_info(&(rt.ext_events = grown)[rt.n_ext_events], info))
        err = JVMTI_ERROR_OUT_OF_MEMORY;
    else
        STORE(&rt.n_ext_events, rt.n_ext_events + 1);
    pthread_mutex_unlock(&rt.lock);
    return err;
}

jvmtiError jvmti_impl_GetExtensionFunctions(jvmtiEnv *env, jint *extension_count_ptr,
                                            jvmtiExtensionFunctionInfo **extensions)
{
    (void)env;
    jint n = rt.n_ext_functions; /* frozen once environments exist */
    jvmtiExtensionFunctionInfo *out = calloc((size_t)(n ? n : 1), sizeof *out);
    if (!out)
        return JVMTI_ERROR_OUT_OF_MEMORY;
    for (jint i = 0; i < n; i++) {
        if (!copy_function_info(&out[i], &rt.ext_functions[i])) {
            while (i > 0)
                free_function_info(&out[--i]);
            free(out);
            return JVMTI_ERROR_OUT_OF_MEMORY;
        }
    }
    *extension_count_ptr = n;
    *extensions = out;
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_GetExtensionEvents(jvmtiEnv *env, jint *extension_count_ptr,
                                         jvmtiExtensionEventInfo **extensions)
{
    (void)env;
    jint n = rt.n_ext_events;
    jvmtiExtensionEventInfo *out = calloc((size_t)(n ? n : 1), sizeof *out);
    if (!out)
        return JVMTI_ERROR_OUT_OF_MEMORY;
    for (jint i = 0; i < n; i++) {
        if (!copy_event_info(&out[i], &rt.ext_events[i])) {
            while (i > 0)
                free_event_info(&out[--i]);
            free(out);
            return JVMTI_ERROR_OUT_OF_MEMORY;
        }
    }
    *extension_count_ptr = n;
    *extensions = out;
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_SetExtensionEventCallback(jvmtiEnv *env, jint extension_event_index,
                                                jvmtiExtensionEvent callback)
{
    rt_env *e = rt_env_of(env);
    for (jint i = 0; i < rt.n_ext_events; i++) {
        if (rt.ext_events[i].extension_event_index == extension_event_index) {
            STORE(&e->ext_callbacks[i], callback);
            return JVMTI_ERROR_NONE;
        }
    }
    return JVMTI_ERROR_ILLEGAL_ARGUMENT;
}

static void shutdown(void)
{
    for (rt_property *p = rt.properties, *next; p; p = next) {
        next = p->next;
        free(p->name);
        free(p->value);
        free(p);
    }
    rt.properties = NULL;
    for (jint i = 0; i < rt.n_ext_functions; i++)
        free_function_info(&rt.ext_functions[i]);
    free(rt.ext_functions);
    rt.ext_functions = NULL;
    rt.n_ext_functions = 0;
    for (jint i = 0; i < rt.n_ext_events; i++)
        free_event_info(&rt.ext_events[i]);
    free(rt.ext_events);
    rt.ext_events = NULL;
    rt.n_ext_events = 0;
    rt.ext_frozen = 0;
}

const rt_area rt_area_props = {.shutdown = shutdown};
