/* RetransformClasses, RedefineClasses and IsModifiableClass over two
 * operations of the VM (config.class_modifiable, config.install_classes),
 * and the load-time half that makes retransformation possible:
 * jvmtirt_class_file_load runs the ClassFileLoadHook chain in its two
 * groups apart and keeps what the first (the environments without
 * can_retransform_classes) handed to the second. A retransformation
 * restarts from those bytes and calls the second group only, so the first
 * group's load-time work is kept, as the spec orders (and HotSpot 17 does:
 * the capable environment sees the incapable one's output). A redefinition
 * runs both groups over the new bytes and keeps the first group's output in
 * place of the load's. */
#include <stdlib.h>
#include <string.h>

#include "classes.h"
#include "envs.h"
#include "jvmtigen_impl.h"
#include "jvmtigen_post.h"
#include "rt.h"

static const rt_need needs[] = {
    {RT_SLOT(IsModifiableClass), {RT_OP(class_modifiable)}},
    {RT_SLOT(RetransformClasses), {RT_OP(class_modifiable), RT_OP(install_classes)}},
    {RT_SLOT(RedefineClasses), {RT_OP(class_modifiable), RT_OP(install_classes)}},
};

/* What a retransformation starts from, for one class. */
struct jvmtirt_class_file {
    uintptr_t id;                    /* the class's identity, once defined */
    struct jvmtirt_class_file *next; /* its bucket's chain */
    char *name;                      /* points into bytes, past len; NULL: none */
    jint len;
    unsigned char bytes[]; /* len bytes, then the name */
};

/* The kept class files by class identity: a chained table that doubles
 * when it holds twice as many entries as buckets. Under kept_lock (an
 * area's lock, base/rt.h), held only to find, link or unlink. */
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static jvmtirt_class_file **buckets;
static size_t n_buckets, n_kept;

/* Serializes retransformations and redefinitions, from the first check to
 * the install, so that two of them never install over each other's chain.
 * Held while agents' ClassFileLoadHook callbacks run: recursive, so one of
 * them may retransform or redefine in turn (base/rt.h: it comes before
 * every other lock of the core). */
static pthread_mutex_t redefine_lock;
static pthread_once_t redefine_once = PTHREAD_ONCE_INIT;

static void redefine_lock_init(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&redefine_lock, &a);
    pthread_mutexattr_destroy(&a);
}

static void started(void) { pthread_once(&redefine_once, redefine_lock_init); }

static size_t bucket_of(uintptr_t id)
{
    return (size_t)((id >> 3) * 0x9E3779B97F4A7C15u) % n_buckets;
}

static void shutdown_kept(void)
{
    pthread_mutex_lock(&kept_lock);
    for (size_t i = 0; i < n_buckets; i++)
        for (jvmtirt_class_file *k = buckets[i], *next; k; k = next) {
            next = k->next;
            free(k);
        }
    free(buckets);
    buckets = NULL;
    n_buckets = n_kept = 0;
    pthread_mutex_unlock(&kept_lock);
}

const rt_area rt_area_redefine = {
    .started = started,
    .shutdown = shutdown_kept,
    .needs = needs,
    .n_needs = sizeof needs / sizeof *needs,
};

static uintptr_t class_id(jclass klass)
{
    return rt.config.object_id ? rt.config.object_id(klass) : (uintptr_t)klass;
}

/* Whether this core ever needs the bytes a retransformation starts from. */
static int keeps_class_files(void) { return rt.config.potential.can_retransform_classes != 0; }

static jvmtirt_class_file *kept_new(const char *name, const unsigned char *bytes, jint len)
{
    size_t name_len = name ? strlen(name) + 1 : 0;
    jvmtirt_class_file *k = malloc(sizeof *k + (size_t)len + name_len);
    if (!k)
        return NULL;
    k->id = 0;
    k->next = NULL;
    k->len = len;
    if (len > 0) /* an empty class file may come as NULL */
        memcpy(k->bytes, bytes, (size_t)len);
    k->name = name ? memcpy(k->bytes + len, name, name_len) : NULL;
    return k;
}

/* Under kept_lock: the entry of id, by its link. */
static jvmtirt_class_file **kept_find(uintptr_t id)
{
    if (!n_buckets)
        return NULL;
    jvmtirt_class_file **at = &buckets[bucket_of(id)];
    while (*at && (*at)->id != id)
        at = &(*at)->next;
    return *at ? at : NULL;
}

/* Under kept_lock: k becomes the entry of its id, replacing (and freeing)
 * the one before. 0: out of memory, k not linked. */
static int kept_put(jvmtirt_class_file *k)
{
    jvmtirt_class_file **old = kept_find(k->id);
    if (old) {
        k->next = (*old)->next;
        free(*old);
        *old = k;
        return 1;
    }
    if (n_kept >= 2 * n_buckets) {
        size_t n = n_buckets ? 2 * n_buckets : 256;
        jvmtirt_class_file **grown = calloc(n, sizeof *grown);
        if (!grown)
            return 0;
        jvmtirt_class_file **was = buckets;
        size_t n_was = n_buckets;
        buckets = grown;
        n_buckets = n;
        for (size_t i = 0; i < n_was; i++)
            for (jvmtirt_class_file *e = was[i], *next; e; e = next) {
                next = e->next;
                e->next = buckets[bucket_of(e->id)];
                buckets[bucket_of(e->id)] = e;
            }
        free(was);
    }
    k->next = buckets[bucket_of(k->id)];
    buckets[bucket_of(k->id)] = k;
    n_kept++;
    return 1;
}

/* One group's part of the chain over (in, in_len): the bytes it hands on
 * in *out / *out_len, an agent's buffer, or NULL when it changed nothing. */
static void run_group(int group, JNIEnv *jni, jclass redefined, jobject loader, const char *name,
                      jobject pd, jint in_len, const unsigned char *in, jint *out_len,
                      unsigned char **out)
{
    *out_len = in_len;
    *out = NULL;
    int was = rt_class_hook_groups(group); /* this may be a chain inside another's hook */
    jvmtirt_post_ClassFileLoadHook(jni, redefined, loader, name, pd, in_len, in, out_len, out);
    rt_class_hook_groups(was);
}

/* Both groups over (len, data), class_being_redefined `redefined`: the
 * first group's output copied into *kept when keep (NULL out of memory),
 * and the chain's end, an agent's buffer or NULL when nobody changed the
 * class, in *out / *out_len. */
static void run_both(JNIEnv *jni, jclass redefined, jobject loader, const char *name, jobject pd,
                     jint len, const unsigned char *data, int keep, jvmtirt_class_file **kept,
                     jint *out_len, unsigned char **out)
{
    jint mid_len;
    unsigned char *mid;
    run_group(RT_HOOK_INCAPABLE, jni, redefined, loader, name, pd, len, data, &mid_len, &mid);
    const unsigned char *in = mid ? mid : data;
    jint in_len = mid ? mid_len : len;
    *kept = keep && in_len >= 0 ? kept_new(name, in, in_len) : NULL;
    run_group(RT_HOOK_CAPABLE, jni, redefined, loader, name, pd, in_len, in, out_len, out);
    if (*out)
        jvmtirt_post_deallocate(mid);
    else {
        *out = mid;
        *out_len = mid_len;
    }
}

jvmtirt_class_file *jvmtirt_class_file_load(JNIEnv *jni, jobject loader, const char *name,
                                            jobject pd, jint len, const unsigned char *data,
                                            jint *new_len, unsigned char **new_data)
{
    jvmtirt_class_file *kept;
    jint out_len;
    unsigned char *out;
    run_both(jni, NULL, loader, name, pd, len, data, keeps_class_files(), &kept, &out_len, &out);
    if (out && new_data) {
        *new_data = out;
        if (new_len)
            *new_len = out_len;
    } else
        jvmtirt_post_deallocate(out);
    return kept;
}

void jvmtirt_class_defined(jclass klass, jvmtirt_class_file *kept)
{
    if (!kept)
        return;
    if (!klass) {
        free(kept);
        return;
    }
    kept->id = class_id(klass);
    pthread_mutex_lock(&kept_lock);
    int linked = kept_put(kept);
    pthread_mutex_unlock(&kept_lock);
    if (!linked)
        free(kept); /* out of memory: the class is not retransformable */
}

void jvmtirt_class_unloaded(uintptr_t id)
{
    pthread_mutex_lock(&kept_lock);
    jvmtirt_class_file **at = kept_find(id);
    jvmtirt_class_file *k = at ? *at : NULL;
    if (k) {
        *at = k->next;
        n_kept--;
    }
    pthread_mutex_unlock(&kept_lock);
    free(k);
}

/* A copy of what the class's retransformations start from, or NULL (none
 * kept, or out of memory). */
static jvmtirt_class_file *kept_copy(jclass klass)
{
    uintptr_t id = class_id(klass);
    pthread_mutex_lock(&kept_lock);
    jvmtirt_class_file **at = kept_find(id);
    jvmtirt_class_file *copy = at ? kept_new((*at)->name, (*at)->bytes, (*at)->len) : NULL;
    pthread_mutex_unlock(&kept_lock);
    if (copy)
        copy->id = id;
    return copy;
}

/* The internal name of a class as class_info's signature gives it
 * ("Lp/C;" -> "p/C"), malloc'd; NULL without class_info. */
static char *class_name(jclass klass)
{
    jvmtirt_class_info c = {0};
    if (!rt.config.class_info || rt.config.class_info(klass, &c) != JVMTI_ERROR_NONE ||
        !c.signature || c.signature[0] != 'L')
        return NULL;
    char *name = rt_strdup(c.signature + 1);
    if (name && name[0])
        name[strlen(name) - 1] = '\0';
    return name;
}

/* Whether env may change the class: INVALID_CLASS, UNMODIFIABLE_CLASS or
 * NONE, with what a post for it needs in *o. any: the env's
 * can_retransform_any_class or can_redefine_any_class. */
static jvmtiError check_one(jvmtiEnv *env, jclass klass, int any, jvmtirt_class_origin *o)
{
    memset(o, 0, sizeof *o);
    if (!klass)
        return JVMTI_ERROR_INVALID_CLASS;
    jvmtiError err =
        rt.config.check_class ? rt.config.check_class(env, klass, 0) : JVMTI_ERROR_NONE;
    if (err == JVMTI_ERROR_NONE)
        err = rt.config.class_modifiable(klass, o);
    if (err == JVMTI_ERROR_NONE &&
        !(o->modifiable == JVMTIRT_MODIFIABLE || (o->modifiable == JVMTIRT_MODIFIABLE_ANY && any)))
        err = JVMTI_ERROR_UNMODIFIABLE_CLASS;
    return err;
}

jvmtiError jvmti_impl_IsModifiableClass(jvmtiEnv *env, jclass klass,
                                        jboolean *is_modifiable_class_ptr)
{
    if (!rt.config.class_modifiable || !rt.config.install_classes)
        return JVMTI_ERROR_NOT_AVAILABLE;
    jvmtiCapabilities held = jvmtigen_capabilities_load(&rt_env_of(env)->head.capabilities);
    jvmtirt_class_origin o;
    /* Either capability makes a class of JVMTIRT_MODIFIABLE_ANY modifiable
     * (by the function it goes with). */
    jvmtiError err =
        check_one(env, klass, held.can_retransform_any_class || held.can_redefine_any_class, &o);
    rt_release_ref(o.loader);
    rt_release_ref(o.protection_domain);
    if (err != JVMTI_ERROR_NONE && err != JVMTI_ERROR_UNMODIFIABLE_CLASS)
        return err;
    *is_modifiable_class_ptr = err == JVMTI_ERROR_NONE ? JNI_TRUE : JNI_FALSE;
    return JVMTI_ERROR_NONE;
}

/* One class's new definition while a call is under way: the bytes handed
 * to install_classes (an agent's buffer or our own), and for a
 * redefinition what the class's retransformations will start from. */
typedef struct pending {
    unsigned char *agent_bytes; /* freed with jvmtirt_post_deallocate */
    jvmtirt_class_file *own;    /* freed with free */
    jvmtirt_class_file *kept;   /* redefinition: replaces the class's entry */
    jvmtirt_class_origin origin;
} pending;

static void pending_free(pending *p, jint n)
{
    for (jint i = 0; p && i < n; i++) {
        jvmtirt_post_deallocate(p[i].agent_bytes);
        rt_release_ref(p[i].origin.loader);
        rt_release_ref(p[i].origin.protection_domain);
        free(p[i].own);
        free(p[i].kept);
    }
    free(p);
}

/* A RetransformClasses or RedefineClasses of n classes starts: its two
 * arrays, and redefine_lock taken. OUT_OF_MEMORY, or NOT_AVAILABLE without
 * the VM's operations, and nothing taken. */
static jvmtiError call_begin(jint n, jvmtiClassDefinition **defs, pending **p)
{
    if (!rt.config.class_modifiable || !rt.config.install_classes)
        return JVMTI_ERROR_NOT_AVAILABLE;
    *defs = calloc(n ? (size_t)n : 1, sizeof **defs);
    *p = calloc(n ? (size_t)n : 1, sizeof **p);
    if (!*defs || !*p) {
        free(*defs);
        free(*p);
        return JVMTI_ERROR_OUT_OF_MEMORY;
    }
    pthread_mutex_lock(&redefine_lock);
    return JVMTI_ERROR_NONE;
}

/* ... and ends: if the checks and chains went well (err), the definitions
 * go to the VM, and on its success a redefinition's kept bytes replace the
 * load's. Frees everything, lets redefine_lock go. */
static jvmtiError call_end(jvmtiError err, jint n, jvmtiClassDefinition *defs, pending *p,
                           int retransform)
{
    if (err == JVMTI_ERROR_NONE)
        err = rt.config.install_classes(n, defs, retransform);
    if (err == JVMTI_ERROR_NONE && !retransform) {
        pthread_mutex_lock(&kept_lock);
        for (jint i = 0; i < n; i++)
            if (p[i].kept && kept_put(p[i].kept))
                p[i].kept = NULL;
        pthread_mutex_unlock(&kept_lock);
    }
    pending_free(p, n);
    free(defs);
    pthread_mutex_unlock(&redefine_lock);
    return err;
}

jvmtiError jvmti_impl_RetransformClasses(jvmtiEnv *env, jint class_count, const jclass *classes)
{
    jvmtiClassDefinition *defs;
    pending *p;
    jvmtiError err = call_begin(class_count, &defs, &p);
    if (err != JVMTI_ERROR_NONE)
        return err;
    jvmtiCapabilities held = jvmtigen_capabilities_load(&rt_env_of(env)->head.capabilities);
    /* Every class is checked before any agent sees a byte. */
    for (jint i = 0; i < class_count && err == JVMTI_ERROR_NONE; i++) {
        err = check_one(env, classes[i], held.can_retransform_any_class, &p[i].origin);
        /* The first group's output at the last load or redefinition; a
         * class the core never saw the bytes of cannot be retransformed. */
        if (err == JVMTI_ERROR_NONE && !(p[i].own = kept_copy(classes[i])))
            err = JVMTI_ERROR_UNMODIFIABLE_CLASS;
    }
    for (jint i = 0; i < class_count && err == JVMTI_ERROR_NONE; i++) {
        const jvmtirt_class_origin *o = &p[i].origin;
        jint len;
        run_group(RT_HOOK_CAPABLE, o->jni, classes[i], o->loader, p[i].own->name,
                  o->protection_domain, p[i].own->len, p[i].own->bytes, &len, &p[i].agent_bytes);
        defs[i].klass = classes[i];
        defs[i].class_byte_count = p[i].agent_bytes ? len : p[i].own->len;
        defs[i].class_bytes = p[i].agent_bytes ? p[i].agent_bytes : p[i].own->bytes;
    }
    return call_end(err, class_count, defs, p, 1);
}

jvmtiError jvmti_impl_RedefineClasses(jvmtiEnv *env, jint class_count,
                                      const jvmtiClassDefinition *class_definitions)
{
    jvmtiClassDefinition *defs;
    pending *p;
    jvmtiError err = call_begin(class_count, &defs, &p);
    if (err != JVMTI_ERROR_NONE)
        return err;
    jvmtiCapabilities held = jvmtigen_capabilities_load(&rt_env_of(env)->head.capabilities);
    /* Every argument is checked before any agent sees a byte. */
    for (jint i = 0; i < class_count && err == JVMTI_ERROR_NONE; i++) {
        const jvmtiClassDefinition *d = &class_definitions[i];
        err = check_one(env, d->klass, held.can_redefine_any_class, &p[i].origin);
        if (err == JVMTI_ERROR_NONE && !d->class_bytes)
            err = JVMTI_ERROR_NULL_POINTER;
        if (err == JVMTI_ERROR_NONE && d->class_byte_count < 0)
            err = JVMTI_ERROR_INVALID_CLASS_FORMAT; /* no class file has a negative length */
    }
    int keep = keeps_class_files();
    for (jint i = 0; i < class_count && err == JVMTI_ERROR_NONE; i++) {
        const jvmtiClassDefinition *d = &class_definitions[i];
        const jvmtirt_class_origin *o = &p[i].origin;
        /* The name the class was loaded with, else its signature's. */
        jvmtirt_class_file *was = kept_copy(d->klass);
        char *name = was ? NULL : class_name(d->klass);
        jint len;
        /* Both groups, over the new bytes; the first group's output is what
         * later retransformations start from, once the VM installed them. */
        run_both(o->jni, d->klass, o->loader, was ? was->name : name, o->protection_domain,
                 d->class_byte_count, d->class_bytes, keep, &p[i].kept, &len, &p[i].agent_bytes);
        free(was);
        free(name);
        if (keep && !p[i].kept)
            err = JVMTI_ERROR_OUT_OF_MEMORY;
        else if (p[i].kept)
            p[i].kept->id = class_id(d->klass);
        defs[i].klass = d->klass;
        defs[i].class_byte_count = p[i].agent_bytes ? len : d->class_byte_count;
        defs[i].class_bytes = p[i].agent_bytes ? p[i].agent_bytes : d->class_bytes;
    }
    return call_end(err, class_count, defs, p, 0);
}
