/* The port: the VM's versioned config (jvmtirt_config) taken in, its handle
 * checks handed to the trampolines, its registered implementations handed
 * to the defaults, and what is still at a NOT_AVAILABLE default found out:
 * capabilities whose functions are all defaults are withdrawn, and a
 * strict VM refuses to start while something it offers is missing. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "jvmtigen_impl.h"
#include "lifecycle.h"
#include "rt.h"

/* The smallest config the core accepts: the header and the capabilities
 * (every VM built against version 1 has them). */
#define CONFIG_MIN_SIZE (offsetof(jvmtirt_config, offer_defaults))

int rt_port_take(jvmtirt_config *to, const jvmtirt_config *from)
{
    if (!from || from->version < 1 || from->version > JVMTIRT_CONFIG_VERSION) {
        fprintf(stderr, "jvmtirt: error: jvmtirt_init: config version %d is not one this core "
                        "knows (1..%d): start the config from JVMTIRT_CONFIG_INIT\n",
                from ? from->version : 0, JVMTIRT_CONFIG_VERSION);
        return 0;
    }
    if (from->size < CONFIG_MIN_SIZE) {
        fprintf(stderr, "jvmtirt: error: jvmtirt_init: config size %zu is smaller than any "
                        "version's (%zu): start the config from JVMTIRT_CONFIG_INIT\n",
                from->size, (size_t)CONFIG_MIN_SIZE);
        return 0;
    }
    /* Fields past the VM's size are 0 / NULL: the VM never heard of them. */
    memset(to, 0, sizeof *to);
    memcpy(to, from, from->size < sizeof *to ? from->size : sizeof *to);
    to->size = sizeof *to;
    return 1;
}

/* Appends to buf (size n) "config.OP" for each operation the core's
 * function `num` needs that the VM left NULL (an area's needs, rt_area),
 * comma-separated; returns how many it found. */
static int missing_ops(int num, char *buf, size_t n)
{
    int missing = 0;
    for (const rt_area *const *a = rt_areas; *a; a++)
        for (size_t i = 0; i < (*a)->n_needs; i++) {
            const rt_need *need = &(*a)->needs[i];
            if (need->slot != num)
                continue;
            for (size_t k = 0; k < sizeof need->ops / sizeof *need->ops && need->ops[k].name;
                 k++) {
                void (*op)(void);
                memcpy(&op, (const char *)&rt.config + need->ops[k].offset, sizeof op);
                if (op)
                    continue;
                missing++;
                size_t used = buf ? strlen(buf) : 0;
                if (buf && !strstr(buf, need->ops[k].name) && used < n)
                    snprintf(buf + used, n - used, "%sconfig.%s", used ? ", " : "",
                             need->ops[k].name);
            }
        }
    return missing;
}

/* 0: a function of the core that needs an operation of the VM it lacks. */
static int core_supplied(int num) { return missing_ops(num, NULL, 0) == 0; }

/* 1: the VM supplies the function or the core implements it (the stack,
 * class, heap, frames and metadata functions only over the VM's operations). */
static int available(int num)
{
    int supplied = jvmtigen_impl_supplied(num);
    /* -1: the core's own, which may still need an operation of the VM. */
    if (supplied < 0)
        return core_supplied(num);
    return supplied != 0;
}

/* Whether some function needs capability bit b, and all of them are defaults. */
static int capability_all_defaults(int b)
{
    int needed = 0;
    for (int n = 1; n < JVMTIGEN_FUNCTION_SLOTS; n++) {
        const jvmtigen_function_info *f = &jvmtigen_functions_info[n];
        for (int k = 0; f->name && k < f->n_required; k++) {
            if (f->required[k] != b)
                continue;
            if (available(n))
                return 0;
            needed = 1;
        }
    }
    return needed;
}

/* Whether an agent can reach the function: it needs no capability, or only
 * potential ones. */
static int reachable(const jvmtigen_function_info *f, const jvmtiCapabilities *potential)
{
    for (int k = 0; k < f->n_required; k++)
        if (!jvmtirt_capability_get(potential, f->required[k]))
            return 0;
    return 1;
}

static jvmtiCapabilities withdrawn; /* set by rt_port_apply, read by the report */

/* A function of the core that the VM also registered: its own would never
 * be called, silently. */
static void say_shadowed(const char *name)
{
    fprintf(stderr, "jvmtirt: error: jvmtirt_init: impls.%s is set, but the core implements %s "
                    "(from the config's operations, see jvmtirt.h): leave it out of the table\n",
            name, name);
}

/* A definition named jvmti_impl_NAME that took a default's place (the
 * linker saw it) without being registered: the trampolines would call it
 * by name, a second way in that a build flag (-fvisibility=hidden, a shared
 * library) silently takes away. */
static void say_unregistered(const char *name)
{
    fprintf(stderr, "jvmtirt: error: jvmtirt_init: jvmti_impl_%s is defined but is not impls.%s: "
                    "register it (impls.%s = jvmti_impl_%s, config.impls)\n",
            name, name, name, name);
}

/* The core's function in slot num resolved (by the dynamic linker) to a
 * definition in another object than the core's own: a program linked with
 * libjvmtirt.so that exports jvmti_impl_NAME for a function the core
 * implements. The core's trampolines would call the VM's, and the core's
 * would silently lose. */
static int interposed(int num)
{
    jvmtigen_fn f = jvmtigen_impl_core(num);
    Dl_info there, here;
    return f && dladdr((const void *)f, &there) && dladdr((const void *)interposed, &here) &&
           there.dli_fbase != here.dli_fbase;
}

static void say_interposed(const char *name)
{
    fprintf(stderr, "jvmtirt: error: jvmtirt_init: jvmti_impl_%s is defined outside the core, "
                    "which implements %s (from the config's operations, see jvmtirt.h): the core's "
                    "calls would reach it instead; rename it or make it hidden\n",
            name, name);
}

/* The slots where found(num) holds, each named on stderr by say: how many. */
static int refuse_each(int (*found)(int num), void (*say)(const char *name))
{
    int n = 0;
    for (int num = 1; num < JVMTIGEN_FUNCTION_SLOTS; num++) {
        const char *name = jvmtigen_functions_info[num].name;
        if (name && found(num)) {
            say(name);
            n++;
        }
    }
    return n;
}

jvmtiError rt_port_apply(jvmtirt_config *c)
{
    jvmtigen_impls_register(c->impls);
    int refused = refuse_each(jvmtigen_impl_shadowed, say_shadowed);
    refused += refuse_each(jvmtigen_impl_unregistered, say_unregistered);
    refused += refuse_each(interposed, say_interposed);
    if (refused > 0)
        return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    jvmtigen_vm_hooks h = {0};
    h.check_thread = c->check_thread;
    h.check_class = c->check_class;
    h.check_method = c->check_method;
    h.method_is_native = c->method_is_native;
    h.check_field = c->check_field;
    jvmtigen_set_vm_hooks(&h);
    memset(&withdrawn, 0, sizeof withdrawn);
    if (!c->offer_defaults)
        for (int b = 0; b < JVMTIRT_CAPABILITY_COUNT; b++)
            if (jvmtirt_capability_get(&c->potential, b) && capability_all_defaults(b)) {
                jvmtirt_capability_set(&c->potential, b, 0);
                jvmtirt_capability_set(&withdrawn, b, 1);
            }
    if (c->strict) {
        int missing = jvmtirt_report_defaults(NULL);
        int offered_missing = 0;
        for (int n = 1; n < JVMTIGEN_FUNCTION_SLOTS; n++) {
            const jvmtigen_function_info *f = &jvmtigen_functions_info[n];
            if (f->name && f->n_required > 0 && !available(n) && reachable(f, &c->potential))
                offered_missing++;
        }
        for (int b = 0; b < JVMTIRT_CAPABILITY_COUNT; b++)
            offered_missing += jvmtirt_capability_get(&withdrawn, b);
        if (missing + offered_missing > 0) {
            fprintf(stderr, "jvmtirt: error: jvmtirt_init (strict): %d function(s) that need no "
                            "capability and %d capability or function(s) offered are missing:\n",
                    missing, offered_missing);
            jvmtirt_report_defaults(stderr);
            return JVMTI_ERROR_NOT_AVAILABLE;
        }
    }
    return JVMTI_ERROR_NONE;
}

/* The operations missing for the core's functions of capability b. */
static void capability_missing_ops(int b, char *buf, size_t n)
{
    for (int num = 1; num < JVMTIGEN_FUNCTION_SLOTS; num++) {
        const jvmtigen_function_info *f = &jvmtigen_functions_info[num];
        for (int k = 0; f->name && k < f->n_required; k++)
            if (f->required[k] == b && jvmtigen_impl_supplied(num) < 0)
                missing_ops(num, buf, n);
    }
}

/* Identity operations given by half and never tried on a sample (a VM
 * that gives a sample was checked at init). */
static void identity_unverified(FILE *out)
{
    const jvmtirt_config *c = &rt.config;
    if (c->thread_ref && !c->thread_id && !c->sample_thread)
        fprintf(out, "jvmtirt: identity: config.thread_id is NULL while config.thread_ref is set: "
                     "a jthread's value is taken as its thread's id, unverified (set "
                     "config.sample_thread so that jvmtirt_init checks it)\n");
    if (!c->object_id != !c->object_ref && !c->sample_object)
        fprintf(out, "jvmtirt: identity: config.%s is NULL while config.%s is set: %s, unverified "
                     "(set config.sample_object so that jvmtirt_init checks it)\n",
                c->object_id ? "object_ref" : "object_id", c->object_id ? "object_id" : "object_ref",
                c->object_id ? "an identity is taken as the object's reference"
                             : "a reference's value is taken as the object's identity");
}

/* jvmtirt_init tries the identity operations on the VM's samples: a
 * disagreement found here would otherwise lose tags (SetTag and GetTag
 * keyed differently) or hand the VM's stack walk ids it never gave. */
jvmtiError rt_port_verify(const jvmtirt_config *c)
{
    if (c->sample_thread && c->thread_ref) {
        jthread ref = c->thread_ref(c->sample_thread);
        if (!ref) {
            fprintf(stderr, "jvmtirt: error: jvmtirt_init: config.thread_ref(0x%jx) (the "
                            "config's sample_thread) gave NULL: no thread object to check "
                            "thread_id against\n",
                    (uintmax_t)c->sample_thread);
            return JVMTI_ERROR_ILLEGAL_ARGUMENT;
        }
        uintptr_t id = c->thread_id ? c->thread_id(ref) : (uintptr_t)ref;
        if (c->release_ref)
            c->release_ref(ref);
        if (id != c->sample_thread && c->thread_id)
            fprintf(stderr, "jvmtirt: error: jvmtirt_init: config.thread_id(config.thread_ref"
                            "(0x%jx)) is 0x%jx: thread_id and thread_ref disagree on the "
                            "config's sample_thread\n",
                    (uintmax_t)c->sample_thread, (uintmax_t)id);
        else if (id != c->sample_thread)
            fprintf(stderr, "jvmtirt: error: jvmtirt_init: config.thread_id is NULL (a jthread's "
                            "value is its id), but config.thread_ref(0x%jx) is 0x%jx: set "
                            "config.thread_id\n",
                    (uintmax_t)c->sample_thread, (uintmax_t)id);
        if (id != c->sample_thread)
            return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    }
    if (!c->sample_object)
        return JVMTI_ERROR_NONE;
    uintptr_t id = c->object_id ? c->object_id(c->sample_object) : (uintptr_t)c->sample_object;
    if (!id) {
        fprintf(stderr, "jvmtirt: error: jvmtirt_init: config.object_id(sample_object) is 0: "
                        "a live object must have an identity\n");
        return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    }
    if (!c->object_ref) {
        /* The identity is taken as the reference: object_id must give the
         * reference's value (never call it on a made-up reference). */
        if (id == (uintptr_t)c->sample_object)
            return JVMTI_ERROR_NONE;
        fprintf(stderr, "jvmtirt: error: jvmtirt_init: config.object_ref is NULL (an identity is "
                        "taken as the reference), but config.object_id(sample_object 0x%jx) is "
                        "0x%jx: set config.object_ref (tags would be lost)\n",
                (uintmax_t)(uintptr_t)c->sample_object, (uintmax_t)id);
        return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    }
    jobject ref = c->object_ref(id);
    uintptr_t again = !ref ? 0 : c->object_id ? c->object_id(ref) : (uintptr_t)ref;
    if (ref && c->release_ref)
        c->release_ref(ref);
    if (again == id)
        return JVMTI_ERROR_NONE;
    if (c->object_id)
        fprintf(stderr, "jvmtirt: error: jvmtirt_init: config.object_id(config.object_ref(0x%jx)) "
                        "is 0x%jx: object_id and object_ref disagree on the config's "
                        "sample_object (tags would be lost)\n",
                (uintmax_t)id, (uintmax_t)again);
    else
        fprintf(stderr, "jvmtirt: error: jvmtirt_init: config.object_id is NULL (a reference's "
                        "value is its identity), but config.object_ref(0x%jx) is 0x%jx: set "
                        "config.object_id (tags would be lost)\n",
                (uintmax_t)id, (uintmax_t)again);
    return JVMTI_ERROR_ILLEGAL_ARGUMENT;
}

int jvmtirt_report_defaults(FILE *out)
{
    int mandatory = 0;
    for (int b = 0; b < JVMTIRT_CAPABILITY_COUNT; b++)
        if (out && jvmtirt_capability_get(&withdrawn, b)) {
            char ops[256] = "";
            capability_missing_ops(b, ops, sizeof ops);
            fprintf(out, "jvmtirt: capability %s withdrawn: none of its functions is "
                         "implemented%s%s%s\n",
                    jvmtigen_capabilities[b].name, ops[0] ? " (the core's need " : "", ops,
                    ops[0] ? ", left NULL)" : "");
        }
    if (out)
        identity_unverified(out);
    for (int n = 1; n < JVMTIGEN_FUNCTION_SLOTS; n++) {
        const jvmtigen_function_info *f = &jvmtigen_functions_info[n];
        if (!f->name || available(n) || !reachable(f, &rt.config.potential))
            continue;
        if (f->n_required == 0)
            mandatory++;
        char ops[256] = "";
        missing_ops(n, ops, sizeof ops);
        if (out)
            fprintf(out, "jvmtirt: %s %s answers JVMTI_ERROR_NOT_AVAILABLE (%s%s%s)\n",
                    f->n_required == 0 ? "function" : "optional function", f->name,
                    ops[0] ? "the core's, needs " : "not implemented", ops,
                    ops[0] ? ", left NULL" : "");
    }
    return mandatory;
}
