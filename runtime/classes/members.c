/* Metadata in the core (issue 32): the classes the VM handed over
 * (jvmtirt_class_define from class-file bytes, jvmtirt_class_describe
 * from a description) and the class, method and field functions answered
 * from them. A class is kept by its identity (config.class_id), a method
 * by its jmethodID, a field by its class and jfieldID. meta_lock (a leaf
 * of base/rt.h's order) guards both tables: the functions read under it
 * and copy what they answer into the agent's memory before it is let go;
 * the VM's operations (class_info, class_ref) are called outside it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classes.h"
#include "classfile.h"
#include "jvmtigen_impl.h"
#include "rt.h"

#define ACC_STATIC 0x0008
#define ACC_NATIVE 0x0100
/* The flags GetMethodModifiers and GetFieldModifiers answer: the class
 * file's, less what Java's reflection has no modifier for. */
#define METHOD_MODIFIERS                                                                           \
    0x1DFF /* public ... synchronized, bridge, varargs, native, abstract, strict, synthetic */
#define FIELD_MODIFIERS 0x50DF /* public ... final, volatile, transient, synthetic, enum */

typedef struct meta_class meta_class;

/* A method's entry in the method table (one per method, in its class). */
typedef struct meta_mref {
    jmethodID id;
    meta_class *klass;
    jint index;
    struct meta_mref *next;
} meta_mref;

struct meta_class {
    uintptr_t id;
    jvmtirt_class_desc d; /* the copies below */
    jvmtirt_method_desc *methods;
    jvmtirt_field_desc *fields;
    meta_mref *mrefs;
    /* Some method has a LocalVariableTable: the spec words
     * ABSENT_INFORMATION about the class's information, so the class's
     * other methods answer an empty table (as HotSpot does). */
    int has_locals;
    rt_classfile own; /* every copy's memory (its blocks) */
    meta_class *next;
};

static pthread_rwlock_t meta_lock = PTHREAD_RWLOCK_INITIALIZER;
static meta_class **class_table; /* chained by next, class_buckets long */
static meta_mref **method_table; /* chained by next, method_buckets long */
static size_t class_buckets, n_classes, method_buckets, n_mrefs;

static size_t mix(uintptr_t key, size_t buckets)
{
    uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 32) & (buckets - 1);
}

static uintptr_t class_id(jclass klass)
{
    return rt.config.class_id ? rt.config.class_id(klass) : (uintptr_t)klass;
}

/* ---- the tables (under meta_lock) ---- */

static meta_class *find_class(uintptr_t id)
{
    if (!class_buckets)
        return NULL;
    meta_class *c = class_table[mix(id, class_buckets)];
    while (c && c->id != id)
        c = c->next;
    return c;
}

static meta_mref *find_method(jmethodID id)
{
    if (!method_buckets)
        return NULL;
    meta_mref *m = method_table[mix((uintptr_t)id, method_buckets)];
    while (m && m->id != id)
        m = m->next;
    return m;
}

/* Doubles a chained table when it holds more entries than buckets. */
#define GROW(table, buckets, count, type, key)                                                     \
    do {                                                                                           \
        if ((count) < (buckets))                                                                   \
            break;                                                                                 \
        size_t nb = (buckets) ? 2 * (buckets) : 64;                                                \
        type **t = calloc(nb, sizeof *t);                                                          \
        if (!t)                                                                                    \
            break; /* chains just get longer */                                                    \
        for (size_t i = 0; i < (buckets); i++)                                                     \
            for (type *e = (table)[i], *next; e; e = next) {                                       \
                next = e->next;                                                                    \
                size_t h = mix((uintptr_t)e->key, nb);                                             \
                e->next = t[h];                                                                    \
                t[h] = e;                                                                          \
            }                                                                                      \
        free(table);                                                                               \
        (table) = t;                                                                               \
        (buckets) = nb;                                                                            \
    } while (0)

static void unlink_class(meta_class *c)
{
    for (meta_class **p = &class_table[mix(c->id, class_buckets)]; *p; p = &(*p)->next)
        if (*p == c) {
            *p = c->next;
            n_classes--;
            break;
        }
    for (jint i = 0; i < c->d.n_methods; i++)
        for (meta_mref **p = &method_table[mix((uintptr_t)c->mrefs[i].id, method_buckets)]; *p;
             p = &(*p)->next)
            if (*p == &c->mrefs[i]) {
                *p = c->mrefs[i].next;
                n_mrefs--;
                break;
            }
}

static void free_class(meta_class *c)
{
    if (!c)
        return;
    free(c->mrefs);
    rt_classfile_free(&c->own);
    free(c);
}

/* Inserts c (its methods too), replacing what had its identity and any
 * method that had one of its IDs. 0: out of memory (nothing changed). */
static int insert(meta_class *c)
{
    GROW(class_table, class_buckets, n_classes, meta_class, id);
    GROW(method_table, method_buckets, n_mrefs, meta_mref, id);
    if (!class_buckets || (c->d.n_methods && !method_buckets))
        return 0;
    meta_class *old = find_class(c->id);
    if (old) {
        unlink_class(old);
        free_class(old);
    }
    for (jint i = 0; i < c->d.n_methods; i++) {
        meta_mref *m = find_method(c->mrefs[i].id);
        if (m && m->klass == c)
            continue; /* one ID for two of c's methods: the first keeps it */
        if (m) {      /* the VM reused an ID: the newest class has it */
            meta_class *other = m->klass;
            unlink_class(other);
            free_class(other);
        }
        size_t h = mix((uintptr_t)c->mrefs[i].id, method_buckets);
        c->mrefs[i].next = method_table[h];
        method_table[h] = &c->mrefs[i];
        n_mrefs++;
    }
    size_t h = mix(c->id, class_buckets);
    c->next = class_table[h];
    class_table[h] = c;
    n_classes++;
    return 1;
}

/* ---- copying a description ---- */

static void *own(meta_class *c, const void *src, size_t n, int *ok)
{
    if (!src || !*ok)
        return NULL;
    rt_classfile *o = &c->own;
    if (o->n_blocks == o->cap_blocks) {
        size_t cap = o->cap_blocks ? 2 * o->cap_blocks : 16;
        void **grown = realloc(o->blocks, cap * sizeof *grown);
        if (!grown) {
            *ok = 0;
            return NULL;
        }
        o->blocks = grown;
        o->cap_blocks = cap;
    }
    void *p = malloc(n ? n : 1);
    if (!p) {
        *ok = 0;
        return NULL;
    }
    memcpy(p, src, n);
    o->blocks[o->n_blocks++] = p;
    return p;
}

static char *own_str(meta_class *c, const char *s, int *ok)
{
    return s ? own(c, s, strlen(s) + 1, ok) : NULL;
}

/* A deep copy of d, or NULL (out of memory). */
static meta_class *copy_desc(uintptr_t id, const jvmtirt_class_desc *d)
{
    meta_class *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    int ok = 1;
    c->id = id;
    c->d = *d;
    c->d.source_file = own_str(c, d->source_file, &ok);
    c->d.source_debug_extension = own_str(c, d->source_debug_extension, &ok);
    const char **interfaces =
        d->n_interfaces > 0 ? own(c, d->interfaces, (size_t)d->n_interfaces * sizeof(char *), &ok)
                            : NULL;
    for (jint i = 0; ok && i < d->n_interfaces; i++)
        interfaces[i] = own_str(c, interfaces[i], &ok);
    c->d.interfaces = interfaces;
    c->d.n_interfaces = interfaces ? d->n_interfaces : 0;
    c->d.constant_pool = d->constant_pool_bytes > 0
                             ? own(c, d->constant_pool, (size_t)d->constant_pool_bytes, &ok)
                             : NULL;
    c->methods = own(c, d->methods, (size_t)d->n_methods * sizeof *d->methods, &ok);
    c->fields = own(c, d->fields, (size_t)d->n_fields * sizeof *d->fields, &ok);
    c->mrefs = calloc(d->n_methods ? (size_t)d->n_methods : 1, sizeof *c->mrefs);
    ok &= c->mrefs != NULL;
    for (jint i = 0; ok && i < d->n_methods; i++) {
        jvmtirt_method_desc *m = &c->methods[i];
        m->name = own_str(c, m->name, &ok);
        m->signature = own_str(c, m->signature, &ok);
        m->generic = own_str(c, m->generic, &ok);
        m->code = own(c, m->code, (size_t)m->code_length, &ok);
        if (!m->code)
            m->code_length = 0;
        m->lines =
            m->n_lines > 0 ? own(c, m->lines, (size_t)m->n_lines * sizeof *m->lines, &ok) : NULL;
        jvmtiLocalVariableEntry *locals =
            m->n_locals > 0 ? own(c, m->locals, (size_t)m->n_locals * sizeof *m->locals, &ok)
                            : NULL;
        for (jint k = 0; ok && k < m->n_locals; k++) {
            locals[k].name = own_str(c, locals[k].name, &ok);
            locals[k].signature = own_str(c, locals[k].signature, &ok);
            locals[k].generic_signature = own_str(c, locals[k].generic_signature, &ok);
        }
        m->locals = locals;
        c->has_locals |= m->n_locals >= 0;
        c->mrefs[i] = (meta_mref){m->id, c, i, NULL};
    }
    for (jint i = 0; ok && i < d->n_fields; i++) {
        jvmtirt_field_desc *f = &c->fields[i];
        f->name = own_str(c, f->name, &ok);
        f->signature = own_str(c, f->signature, &ok);
        f->generic = own_str(c, f->generic, &ok);
    }
    c->d.methods = c->methods;
    c->d.fields = c->fields;
    if (!ok) {
        free_class(c);
        return NULL;
    }
    return c;
}

static jvmtiError store(jclass klass, const jvmtirt_class_desc *d)
{
    meta_class *c = copy_desc(class_id(klass), d);
    if (!c)
        return JVMTI_ERROR_OUT_OF_MEMORY;
    pthread_rwlock_wrlock(&meta_lock);
    int ok = insert(c);
    pthread_rwlock_unlock(&meta_lock);
    if (!ok) {
        free_class(c);
        return JVMTI_ERROR_OUT_OF_MEMORY;
    }
    return JVMTI_ERROR_NONE;
}

/* ---- the VM's calls ---- */

jvmtiError jvmtirt_class_check(const unsigned char *bytes, jint len, jint *n_methods,
                               jint *n_fields, char *why, size_t why_size)
{
    rt_classfile cf;
    jvmtiError err = len < 0 ? JVMTI_ERROR_INVALID_CLASS_FORMAT
                             : rt_classfile_read(bytes, (size_t)len, &cf, why, why_size);
    if (len < 0 && why && why_size)
        snprintf(why, why_size, "a negative length (%d)", (int)len);
    if (err != JVMTI_ERROR_NONE)
        return err;
    if (n_methods)
        *n_methods = cf.desc.n_methods;
    if (n_fields)
        *n_fields = cf.desc.n_fields;
    rt_classfile_free(&cf);
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmtirt_class_define(jclass klass, const unsigned char *bytes, jint len,
                                const jmethodID *method_ids, const jfieldID *field_ids)
{
    rt_classfile cf;
    if (len < 0)
        return JVMTI_ERROR_INVALID_CLASS_FORMAT;
    jvmtiError err = rt_classfile_read(bytes, (size_t)len, &cf, NULL, 0);
    if (err != JVMTI_ERROR_NONE)
        return err;
    if ((cf.desc.n_methods && !method_ids) || (cf.desc.n_fields && !field_ids)) {
        rt_classfile_free(&cf);
        return JVMTI_ERROR_NULL_POINTER;
    }
    for (jint i = 0; i < cf.desc.n_methods; i++)
        cf.methods[i].id = method_ids[i];
    for (jint i = 0; i < cf.desc.n_fields; i++)
        cf.fields[i].id = field_ids[i];
    err = store(klass, &cf.desc);
    rt_classfile_free(&cf);
    return err;
}

jvmtiError jvmtirt_class_describe(jclass klass, const jvmtirt_class_desc *desc)
{
    if (!desc)
        return JVMTI_ERROR_NULL_POINTER;
    if (desc->n_methods < 0 || desc->n_fields < 0 || (desc->n_methods && !desc->methods) ||
        (desc->n_fields && !desc->fields) || desc->constant_pool_bytes < 0 ||
        (desc->constant_pool_bytes && !desc->constant_pool) || desc->n_interfaces < 0 ||
        (desc->n_interfaces && !desc->interfaces))
        return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    for (jint i = 0; i < desc->n_interfaces; i++)
        if (!desc->interfaces[i])
            return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    for (jint i = 0; i < desc->n_methods; i++) {
        const jvmtirt_method_desc *m = &desc->methods[i];
        if (!m->name || !m->signature || m->code_length < 0 || (m->code_length && !m->code) ||
            (m->n_lines > 0 && !m->lines) || (m->n_locals > 0 && !m->locals))
            return JVMTI_ERROR_ILLEGAL_ARGUMENT;
        for (jint k = 0; k < m->n_locals; k++)
            if (!m->locals[k].name || !m->locals[k].signature)
                return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    }
    for (jint i = 0; i < desc->n_fields; i++)
        if (!desc->fields[i].name || !desc->fields[i].signature)
            return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    return store(klass, desc);
}

void jvmtirt_class_unload(jclass klass)
{
    uintptr_t id = class_id(klass);
    pthread_rwlock_wrlock(&meta_lock);
    meta_class *c = find_class(id);
    if (c)
        unlink_class(c);
    pthread_rwlock_unlock(&meta_lock);
    free_class(c);
}

/* ---- answering ---- */

/* A copy the agent Deallocates (n bytes of src); NULL src: *out = NULL. */
static jvmtiError give(jvmtiEnv *env, const void *src, size_t n, void *out)
{
    unsigned char *mem = NULL;
    jvmtiError err = src ? jvmti_impl_Allocate(env, (jlong)n, &mem) : JVMTI_ERROR_NONE;
    if (err == JVMTI_ERROR_NONE && mem)
        memcpy(mem, src, n);
    if (err == JVMTI_ERROR_NONE)
        memcpy(out, &mem, sizeof mem);
    return err;
}

static jvmtiError give_str(jvmtiEnv *env, const char *s, char **out)
{
    return give(env, s, s ? strlen(s) + 1 : 0, out);
}

/* Frees what give_str handed out when a later copy failed. */
static void take_back(jvmtiEnv *env, char **p)
{
    if (p && *p) {
        jvmti_impl_Deallocate(env, (unsigned char *)*p);
        *p = NULL;
    }
}

/* GetMethodName and GetFieldName: copies of the three strings, each only
 * where its pointer is not NULL; on a failure nothing is handed out. */
static jvmtiError give_names(jvmtiEnv *env, const char *const src[3], char **out[3])
{
    char *copy[3] = {NULL, NULL, NULL};
    jvmtiError err = JVMTI_ERROR_NONE;
    for (int i = 0; i < 3 && err == JVMTI_ERROR_NONE; i++)
        if (out[i])
            err = give_str(env, src[i], &copy[i]);
    for (int i = 0; i < 3; i++) {
        if (err != JVMTI_ERROR_NONE)
            take_back(env, &copy[i]);
        else if (out[i])
            *out[i] = copy[i];
    }
    return err;
}

/* Arrays and primitive classes have no members; another class not handed
 * over (or not yet prepared, per class_info) is CLASS_NOT_PREPARED. */
static jvmtiError no_record(jclass klass, int *memberless)
{
    *memberless = 0;
    jvmtirt_class_info info;
    memset(&info, 0, sizeof info);
    if (rt.config.class_info && rt.config.class_info(klass, &info) == JVMTI_ERROR_NONE &&
        info.signature && (info.signature[0] == '[' || info.signature[1] == '\0')) {
        *memberless = 1;
        return JVMTI_ERROR_NONE;
    }
    return JVMTI_ERROR_CLASS_NOT_PREPARED;
}

static int prepared(jclass klass)
{
    jvmtirt_class_info info;
    memset(&info, 0, sizeof info);
    return !rt.config.class_info || rt.config.class_info(klass, &info) != JVMTI_ERROR_NONE ||
           (info.status & (JVMTI_CLASS_STATUS_PREPARED | JVMTI_CLASS_STATUS_ERROR));
}

/* GetClassMethods and GetClassFields: one array of IDs. */
static jvmtiError members(jvmtiEnv *env, jclass klass, int methods, jint *count_ptr, void **out)
{
    if (!prepared(klass))
        return JVMTI_ERROR_CLASS_NOT_PREPARED;
    uintptr_t id = class_id(klass);
    pthread_rwlock_rdlock(&meta_lock);
    meta_class *c = find_class(id);
    jvmtiError err = JVMTI_ERROR_NONE;
    if (c) {
        jint n = methods ? c->d.n_methods : c->d.n_fields;
        size_t size = methods ? sizeof(jmethodID) : sizeof(jfieldID);
        unsigned char *mem = NULL;
        err = jvmti_impl_Allocate(env, (jlong)n * (jlong)size, &mem);
        for (jint i = 0; err == JVMTI_ERROR_NONE && i < n; i++) {
            if (methods)
                memcpy(mem + (size_t)i * size, &c->methods[i].id, size);
            else
                memcpy(mem + (size_t)i * size, &c->fields[i].id, size);
        }
        if (err == JVMTI_ERROR_NONE) {
            *count_ptr = n;
            *out = mem;
        }
    }
    pthread_rwlock_unlock(&meta_lock);
    if (c)
        return err;
    int memberless;
    err = no_record(klass, &memberless);
    if (err == JVMTI_ERROR_NONE) {
        *count_ptr = 0;
        *out = NULL;
    }
    return err;
}

jvmtiError jvmti_impl_GetClassMethods(jvmtiEnv *env, jclass klass, jint *method_count_ptr,
                                      jmethodID **methods_ptr)
{
    return members(env, klass, 1, method_count_ptr, (void **)methods_ptr);
}

jvmtiError jvmti_impl_GetClassFields(jvmtiEnv *env, jclass klass, jint *field_count_ptr,
                                     jfieldID **fields_ptr)
{
    return members(env, klass, 0, field_count_ptr, (void **)fields_ptr);
}

/* The method's record, read-locked: NULL (and the lock not held) for an
 * ID the core was not given. */
static const jvmtirt_method_desc *method_of(jmethodID id, const meta_class **owner)
{
    pthread_rwlock_rdlock(&meta_lock);
    meta_mref *m = find_method(id);
    if (!m) {
        pthread_rwlock_unlock(&meta_lock);
        return NULL;
    }
    if (owner)
        *owner = m->klass;
    return &m->klass->methods[m->index];
}

static const jvmtirt_method_desc *method(jmethodID id) { return method_of(id, NULL); }

static void done(void) { pthread_rwlock_unlock(&meta_lock); }

/* Whether a method the core was given is native: the trampolines' check
 * for the functions that refuse native methods, when the VM gave none. */
static jboolean method_is_native(jvmtiEnv *env, jmethodID id)
{
    (void)env;
    const jvmtirt_method_desc *m = method(id);
    if (!m)
        return JNI_FALSE;
    jboolean native = (m->modifiers & ACC_NATIVE) ? JNI_TRUE : JNI_FALSE;
    done();
    return native;
}

jvmtiError jvmti_impl_GetMethodName(jvmtiEnv *env, jmethodID id, char **name_ptr,
                                    char **signature_ptr, char **generic_ptr)
{
    const jvmtirt_method_desc *m = method(id);
    if (!m)
        return JVMTI_ERROR_INVALID_METHODID;
    jvmtiError err = give_names(env, (const char *const[3]){m->name, m->signature, m->generic},
                                (char **[3]){name_ptr, signature_ptr, generic_ptr});
    done();
    return err;
}

static jclass class_ref(uintptr_t id)
{
    return rt.config.class_ref ? rt.config.class_ref(id) : (jclass)id;
}

jvmtiError jvmti_impl_GetMethodDeclaringClass(jvmtiEnv *env, jmethodID id,
                                              jclass *declaring_class_ptr)
{
    (void)env;
    const meta_class *owner;
    if (!method_of(id, &owner))
        return JVMTI_ERROR_INVALID_METHODID;
    uintptr_t klass = owner->id;
    done();
    *declaring_class_ptr = class_ref(klass);
    return JVMTI_ERROR_NONE;
}

/* The method's int-valued facts, read under the lock. */
enum { M_MODIFIERS, M_NATIVE, M_SYNTHETIC, M_MAX_LOCALS, M_ARGS_SIZE };

/* The slots its parameters take (long and double two), and `this`. */
static jint arguments_size(const jvmtirt_method_desc *m)
{
    jint n = (m->modifiers & ACC_STATIC) ? 0 : 1;
    const char *s = m->signature;
    if (*s++ != '(')
        return n;
    while (*s && *s != ')') {
        int array = 0;
        while (*s == '[') {
            array = 1;
            s++;
        }
        n += !array && (*s == 'J' || *s == 'D') ? 2 : 1;
        if (*s == 'L')
            while (*s && *s != ';')
                s++;
        if (*s)
            s++;
    }
    return n;
}

static jvmtiError method_int(jmethodID id, int what, jint *out)
{
    const jvmtirt_method_desc *m = method(id);
    if (!m)
        return JVMTI_ERROR_INVALID_METHODID;
    switch (what) {
    case M_MODIFIERS: *out = m->modifiers & METHOD_MODIFIERS; break;
    case M_NATIVE: *out = (m->modifiers & ACC_NATIVE) != 0; break;
    case M_SYNTHETIC: *out = m->synthetic != 0; break;
    case M_MAX_LOCALS: *out = m->max_locals; break;
    default: *out = arguments_size(m); break;
    }
    done();
    return JVMTI_ERROR_NONE;
}

static jvmtiError method_bool(jmethodID id, int what, jboolean *out)
{
    jint v;
    jvmtiError err = method_int(id, what, &v);
    if (err == JVMTI_ERROR_NONE)
        *out = v ? JNI_TRUE : JNI_FALSE;
    return err;
}

jvmtiError jvmti_impl_GetMethodModifiers(jvmtiEnv *env, jmethodID id, jint *modifiers_ptr)
{
    (void)env;
    return method_int(id, M_MODIFIERS, modifiers_ptr);
}

jvmtiError jvmti_impl_IsMethodNative(jvmtiEnv *env, jmethodID id, jboolean *is_native_ptr)
{
    (void)env;
    return method_bool(id, M_NATIVE, is_native_ptr);
}

jvmtiError jvmti_impl_IsMethodSynthetic(jvmtiEnv *env, jmethodID id, jboolean *is_synthetic_ptr)
{
    (void)env;
    return method_bool(id, M_SYNTHETIC, is_synthetic_ptr);
}

/* The core keeps no redefined versions: a method it knows is current. */
jvmtiError jvmti_impl_IsMethodObsolete(jvmtiEnv *env, jmethodID id, jboolean *is_obsolete_ptr)
{
    (void)env;
    if (!method(id))
        return JVMTI_ERROR_INVALID_METHODID;
    done();
    *is_obsolete_ptr = JNI_FALSE;
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_GetMaxLocals(jvmtiEnv *env, jmethodID id, jint *max_ptr)
{
    (void)env;
    return method_int(id, M_MAX_LOCALS, max_ptr);
}

jvmtiError jvmti_impl_GetArgumentsSize(jvmtiEnv *env, jmethodID id, jint *size_ptr)
{
    (void)env;
    return method_int(id, M_ARGS_SIZE, size_ptr);
}

/* As HotSpot: a method without code starts and ends at -1. */
jvmtiError jvmti_impl_GetMethodLocation(jvmtiEnv *env, jmethodID id, jlocation *start_location_ptr,
                                        jlocation *end_location_ptr)
{
    (void)env;
    const jvmtirt_method_desc *m = method(id);
    if (!m)
        return JVMTI_ERROR_INVALID_METHODID;
    *start_location_ptr = m->code_length > 0 ? 0 : -1;
    *end_location_ptr = (jlocation)m->code_length - 1;
    done();
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_GetBytecodes(jvmtiEnv *env, jmethodID id, jint *bytecode_count_ptr,
                                   unsigned char **bytecodes_ptr)
{
    const jvmtirt_method_desc *m = method(id);
    if (!m)
        return JVMTI_ERROR_INVALID_METHODID;
    unsigned char *mem = NULL;
    jint n = m->code_length;
    jvmtiError err = jvmti_impl_Allocate(env, n, &mem);
    if (err == JVMTI_ERROR_NONE && n)
        memcpy(mem, m->code, (size_t)n);
    done();
    if (err == JVMTI_ERROR_NONE) {
        *bytecode_count_ptr = n;
        *bytecodes_ptr = mem;
    }
    return err;
}

jvmtiError jvmti_impl_GetLineNumberTable(jvmtiEnv *env, jmethodID id, jint *entry_count_ptr,
                                         jvmtiLineNumberEntry **table_ptr)
{
    const jvmtirt_method_desc *m = method(id);
    if (!m)
        return JVMTI_ERROR_INVALID_METHODID;
    jvmtiError err = JVMTI_ERROR_ABSENT_INFORMATION;
    jint n = m->n_lines;
    jvmtiLineNumberEntry *table = NULL;
    if (n >= 0) {
        err = jvmti_impl_Allocate(env, (jlong)n * (jlong)sizeof *table, (unsigned char **)&table);
        if (err == JVMTI_ERROR_NONE && n)
            memcpy(table, m->lines, (size_t)n * sizeof *table);
    }
    done();
    if (err == JVMTI_ERROR_NONE) {
        *entry_count_ptr = n;
        *table_ptr = table;
    }
    return err;
}

jvmtiError jvmti_impl_GetLocalVariableTable(jvmtiEnv *env, jmethodID id, jint *entry_count_ptr,
                                            jvmtiLocalVariableEntry **table_ptr)
{
    const meta_class *owner;
    const jvmtirt_method_desc *m = method_of(id, &owner);
    if (!m)
        return JVMTI_ERROR_INVALID_METHODID;
    jint n = m->n_locals;
    if (n < 0 && !owner->has_locals) {
        done();
        return JVMTI_ERROR_ABSENT_INFORMATION;
    }
    n = n < 0 ? 0 : n;
    jvmtiLocalVariableEntry *table = NULL;
    jvmtiError err =
        jvmti_impl_Allocate(env, (jlong)n * (jlong)sizeof *table, (unsigned char **)&table);
    jint k = 0; /* entries whose strings were copied */
    for (; err == JVMTI_ERROR_NONE && k < n; k++) {
        const jvmtiLocalVariableEntry *e = &m->locals[k];
        table[k] = *e;
        table[k].name = table[k].signature = table[k].generic_signature = NULL;
        err = give_str(env, e->name, &table[k].name);
        if (err == JVMTI_ERROR_NONE)
            err = give_str(env, e->signature, &table[k].signature);
        if (err == JVMTI_ERROR_NONE)
            err = give_str(env, e->generic_signature, &table[k].generic_signature);
        if (err != JVMTI_ERROR_NONE)
            k++; /* its strings given so far are taken back below */
    }
    done();
    if (err != JVMTI_ERROR_NONE) {
        for (jint i = 0; table && i < k; i++) {
            take_back(env, &table[i].name);
            take_back(env, &table[i].signature);
            take_back(env, &table[i].generic_signature);
        }
        jvmti_impl_Deallocate(env, (unsigned char *)table);
        return err;
    }
    *entry_count_ptr = n;
    *table_ptr = table;
    return JVMTI_ERROR_NONE;
}

/* config.local_type from the tables handed over, for a VM that keeps no
 * tables of its own: the variable living in slot at location (its range
 * is [start_location, start_location + length)). Under the caller's
 * rt.lock; meta_lock is a leaf below it. */
jvmtiError jvmtirt_class_local_type(jmethodID id, jlocation location, jint slot, char *type)
{
    const jvmtirt_method_desc *m = method(id);
    if (!m)
        return JVMTI_ERROR_ABSENT_INFORMATION; /* not a method handed over */
    jvmtiError err = m->n_locals < 0 ? JVMTI_ERROR_ABSENT_INFORMATION : JVMTI_ERROR_INVALID_SLOT;
    for (jint k = 0; k < m->n_locals; k++) {
        const jvmtiLocalVariableEntry *e = &m->locals[k];
        if (e->slot == slot && location >= e->start_location &&
            location < e->start_location + e->length) {
            *type = e->signature[0];
            err = JVMTI_ERROR_NONE;
            break;
        }
    }
    done();
    return err;
}

/* ---- fields (by their class and ID) ---- */

/* The field's record, read-locked; NULL (lock not held) if unknown. */
static const jvmtirt_field_desc *field(jclass klass, jfieldID id, uintptr_t *klass_id)
{
    uintptr_t cid = class_id(klass);
    pthread_rwlock_rdlock(&meta_lock);
    meta_class *c = find_class(cid);
    for (jint i = 0; c && i < c->d.n_fields; i++)
        if (c->fields[i].id == id) {
            if (klass_id)
                *klass_id = cid;
            return &c->fields[i];
        }
    pthread_rwlock_unlock(&meta_lock);
    return NULL;
}

jvmtiError jvmti_impl_GetFieldName(jvmtiEnv *env, jclass klass, jfieldID id, char **name_ptr,
                                   char **signature_ptr, char **generic_ptr)
{
    const jvmtirt_field_desc *f = field(klass, id, NULL);
    if (!f)
        return JVMTI_ERROR_INVALID_FIELDID;
    jvmtiError err = give_names(env, (const char *const[3]){f->name, f->signature, f->generic},
                                (char **[3]){name_ptr, signature_ptr, generic_ptr});
    done();
    return err;
}

jvmtiError jvmti_impl_GetFieldDeclaringClass(jvmtiEnv *env, jclass klass, jfieldID id,
                                             jclass *declaring_class_ptr)
{
    (void)env;
    uintptr_t cid;
    if (!field(klass, id, &cid))
        return JVMTI_ERROR_INVALID_FIELDID;
    done();
    *declaring_class_ptr = class_ref(cid);
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_GetFieldModifiers(jvmtiEnv *env, jclass klass, jfieldID id,
                                        jint *modifiers_ptr)
{
    (void)env;
    const jvmtirt_field_desc *f = field(klass, id, NULL);
    if (!f)
        return JVMTI_ERROR_INVALID_FIELDID;
    *modifiers_ptr = f->modifiers & FIELD_MODIFIERS;
    done();
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_IsFieldSynthetic(jvmtiEnv *env, jclass klass, jfieldID id,
                                       jboolean *is_synthetic_ptr)
{
    (void)env;
    const jvmtirt_field_desc *f = field(klass, id, NULL);
    if (!f)
        return JVMTI_ERROR_INVALID_FIELDID;
    *is_synthetic_ptr = f->synthetic ? JNI_TRUE : JNI_FALSE;
    done();
    return JVMTI_ERROR_NONE;
}

/* ---- the class file's own facts ---- */

jvmtiError jvmti_impl_GetClassVersionNumbers(jvmtiEnv *env, jclass klass, jint *minor_version_ptr,
                                             jint *major_version_ptr)
{
    (void)env;
    uintptr_t id = class_id(klass);
    pthread_rwlock_rdlock(&meta_lock);
    meta_class *c = find_class(id);
    jvmtiError err = JVMTI_ERROR_ABSENT_INFORMATION; /* arrays, primitives, unknown */
    if (c && c->d.major_version) {
        *minor_version_ptr = c->d.minor_version;
        *major_version_ptr = c->d.major_version;
        err = JVMTI_ERROR_NONE;
    }
    pthread_rwlock_unlock(&meta_lock);
    return err;
}

jvmtiError jvmti_impl_GetSourceDebugExtension(jvmtiEnv *env, jclass klass,
                                              char **source_debug_extension_ptr)
{
    uintptr_t id = class_id(klass);
    pthread_rwlock_rdlock(&meta_lock);
    meta_class *c = find_class(id);
    jvmtiError err = c && c->d.source_debug_extension
                         ? give_str(env, c->d.source_debug_extension, source_debug_extension_ptr)
                         : JVMTI_ERROR_ABSENT_INFORMATION;
    pthread_rwlock_unlock(&meta_lock);
    return err;
}

/* The names are copied under the lock, then resolved by the VM outside it. */
jvmtiError jvmti_impl_GetImplementedInterfaces(jvmtiEnv *env, jclass klass,
                                               jint *interface_count_ptr, jclass **interfaces_ptr)
{
    if (!rt.config.class_by_name)
        return JVMTI_ERROR_NOT_AVAILABLE;
    if (!prepared(klass))
        return JVMTI_ERROR_CLASS_NOT_PREPARED;
    uintptr_t id = class_id(klass);
    pthread_rwlock_rdlock(&meta_lock);
    meta_class *c = find_class(id);
    jint n = c ? c->d.n_interfaces : 0;
    char **names = c ? calloc(n ? (size_t)n : 1, sizeof *names) : NULL;
    int ok = names != NULL;
    for (jint i = 0; ok && i < n; i++)
        ok = (names[i] = strdup(c->d.interfaces[i])) != NULL;
    pthread_rwlock_unlock(&meta_lock);
    jvmtiError err = JVMTI_ERROR_NONE;
    if (!c) {
        int memberless;
        err = no_record(klass, &memberless); /* arrays, primitives: none */
        n = 0;
    } else if (!ok) {
        err = JVMTI_ERROR_OUT_OF_MEMORY;
    }
    jclass *out = NULL;
    if (err == JVMTI_ERROR_NONE)
        err = jvmti_impl_Allocate(env, (jlong)n * (jlong)sizeof *out, (unsigned char **)&out);
    for (jint i = 0; err == JVMTI_ERROR_NONE && i < n; i++)
        if (!(out[i] = rt.config.class_by_name(klass, names[i])))
            err = JVMTI_ERROR_INTERNAL; /* the VM lost a superinterface */
    for (jint i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
    if (err != JVMTI_ERROR_NONE) {
        for (jint i = 0; out && i < n && out[i]; i++)
            rt_release_ref(out[i]); /* those resolved before the VM lost one */
        jvmti_impl_Deallocate(env, (unsigned char *)out);
        return err;
    }
    *interface_count_ptr = n;
    *interfaces_ptr = out;
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_GetConstantPool(jvmtiEnv *env, jclass klass, jint *constant_pool_count_ptr,
                                      jint *constant_pool_byte_count_ptr,
                                      unsigned char **constant_pool_bytes_ptr)
{
    uintptr_t id = class_id(klass);
    pthread_rwlock_rdlock(&meta_lock);
    meta_class *c = find_class(id);
    jvmtiError err = JVMTI_ERROR_ABSENT_INFORMATION; /* arrays, primitives, no pool given */
    unsigned char *copy = NULL;
    if (c && c->d.constant_pool) {
        err = give(env, c->d.constant_pool, (size_t)c->d.constant_pool_bytes, &copy);
        if (err == JVMTI_ERROR_NONE) {
            *constant_pool_count_ptr = c->d.constant_pool_count;
            *constant_pool_byte_count_ptr = c->d.constant_pool_bytes;
            *constant_pool_bytes_ptr = copy;
        }
    }
    pthread_rwlock_unlock(&meta_lock);
    return err;
}

int rt_meta_source_file(jvmtiEnv *env, jclass klass, char **out, jvmtiError *err)
{
    uintptr_t id = class_id(klass);
    pthread_rwlock_rdlock(&meta_lock);
    meta_class *c = find_class(id);
    if (c)
        *err = c->d.source_file ? give_str(env, c->d.source_file, out)
                                : JVMTI_ERROR_ABSENT_INFORMATION;
    pthread_rwlock_unlock(&meta_lock);
    return c != NULL;
}

/* ---- the area ---- */

static void started(void)
{
    jvmtigen_vm_hooks h = {0};
    h.method_is_native = method_is_native;
    jvmtigen_set_default_vm_hooks(&h);
}

static void shutdown_meta(void)
{
    pthread_rwlock_wrlock(&meta_lock);
    for (size_t i = 0; i < class_buckets; i++)
        for (meta_class *c = class_table[i], *next; c; c = next) {
            next = c->next;
            free_class(c);
        }
    free(class_table);
    free(method_table);
    class_table = NULL;
    method_table = NULL;
    class_buckets = n_classes = method_buckets = n_mrefs = 0;
    pthread_rwlock_unlock(&meta_lock);
}

static const rt_need needs[] = {
    {RT_SLOT(GetImplementedInterfaces), {RT_OP(class_by_name)}},
};

const rt_area rt_area_members = {.started = started,
                                 .shutdown = shutdown_meta,
                                 .needs = needs,
                                 .n_needs = sizeof needs / sizeof *needs};
