/* Classes from class files: `-load:FILE` reads a class file; once the VM is
 * live the main thread hands its bytes to jvmtirt_class_file_load (the core
 * runs the ClassFileLoadHook chain, keeps what retransformations start from
 * and hands back the last replacement), checks that what it got back is
 * still a class file of the same class, "defines" it and posts ClassLoad
 * and ClassPrepare. Such a class is modifiable: RetransformClasses and
 * RedefineClasses (the core's) install new bytes through
 * install_classes, which checks them the same way; the host's own
 * classes have no class file and are not modifiable. The bytes each class
 * is defined with, or has installed, go to the class_bytes test hook
 * (hooks.h: -dump-classes writes them out). Here too the class operations
 * of the port: class_info, class_by_name, each_class. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hooks.h"
#include "host.h"
#include "jvmtigen_impl.h"
#include "jvmtigen_post.h"

typedef struct loaded_class {
    host_class klass; /* first: the jclass points here */
    host_member *members; /* its methods, then its fields: their IDs */
    char *super_name;     /* its class file's superclass; NULL: none */
    unsigned char *bytes; /* what it was defined from (the interpreter runs them) */
    size_t len;
    struct loaded_class *next;
} loaded_class;

static char **files;
static int n_files;
static loaded_class *loaded;

static int is_loaded(const host_class *c);

void host_classes_add_file(const char *path)
{
    char **grown = realloc(files, (size_t)(n_files + 1) * sizeof *files);
    if (!grown)
        return;
    files = grown;
    files[n_files++] = strdup(path);
}

static unsigned u2(const unsigned char *p) { return (unsigned)p[0] << 8 | p[1]; }

size_t host_class_file_pool(const unsigned char *b, size_t n, unsigned count, size_t *at)
{
    size_t p = 10;
    for (unsigned i = 1; i < count; i++) {
        if (p > n || n - p < 3) /* every entry is at least 3 bytes */
            return 0;
        at[i] = p;
        switch (b[p]) {
        case 1: p += 3 + u2(b + p + 1); break; /* Utf8 */
        case 7: case 8: case 16: case 19: case 20: p += 3; break;
        case 15: p += 4; break;
        case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18: p += 5; break;
        case 5: case 6: p += 9; i++; break; /* takes two entries */
        default: return 0;
        }
    }
    return p;
}

/* The internal name of the Class entry `index` of a class file's pool, as
 * a new string; NULL if there is none. */
static char *class_entry_name(const unsigned char *b, size_t n, unsigned count, const size_t *at,
                              unsigned index)
{
    if (index == 0 || index >= count || b[at[index]] != 7)
        return NULL;
    unsigned utf = u2(b + at[index] + 1);
    if (utf == 0 || utf >= count || b[at[utf]] != 1)
        return NULL;
    size_t len = u2(b + at[utf] + 1);
    return at[utf] + 3 + len > n ? NULL : strndup((const char *)b + at[utf] + 3, len);
}

/* The internal name of the class a class file defines (this_class), as a
 * new string, or NULL if the bytes are not a class file; its access_flags
 * in *access and its superclass's name (a new string; NULL for none) in
 * *super (each if not NULL). Walks the constant pool only as far as it
 * must (JVMS 4.1, 4.4). */
static char *class_file_name(const unsigned char *b, size_t n, unsigned *access, char **super)
{
    if (n < 10 || b[0] != 0xCA || b[1] != 0xFE || b[2] != 0xBA || b[3] != 0xBE)
        return NULL;
    unsigned count = u2(b + 8);
    size_t *at = calloc(count ? count : 1, sizeof *at); /* offset of entry i */
    if (!at)
        return NULL;
    size_t p = host_class_file_pool(b, n, count, at);
    char *name = NULL;
    if (p != 0 && p + 6 <= n) {
        if (access)
            *access = u2(b + p);
        name = class_entry_name(b, n, count, at, u2(b + p + 2));
        if (name && super)
            *super = class_entry_name(b, n, count, at, u2(b + p + 4));
    }
    free(at);
    return name;
}

static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            unsigned char *grown = realloc(buf, cap = cap ? 2 * cap : 4096);
            if (!grown)
                break;
            buf = grown;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

/* The core reads the class file itself (jvmtirt_class_define): the host
 * only makes an ID for each method and field, in the class file's order.
 * 0 with a message if the core refuses the bytes. */
static int define(const char *path, loaded_class *c, const unsigned char *b, size_t n)
{
    jint n_methods = 0, n_fields = 0;
    char why[200];
    jvmtiError err = jvmtirt_class_check(b, (jint)n, &n_methods, &n_fields, why, sizeof why);
    if (err != JVMTI_ERROR_NONE) {
        fprintf(stderr, "jvmti-host: %s: cannot read the class file: %s\n", path, why);
        return 0;
    }
    int total = n_methods + n_fields;
    c->members = calloc(total ? (size_t)total : 1, sizeof *c->members);
    jmethodID *mids = calloc(n_methods ? (size_t)n_methods : 1, sizeof *mids);
    jfieldID *fids = calloc(n_fields ? (size_t)n_fields : 1, sizeof *fids);
    err = JVMTI_ERROR_OUT_OF_MEMORY;
    if (c->members && mids && fids) {
        for (int i = 0; i < total; i++) {
            host_member *m = &c->members[i];
            *m = (host_member){{i < n_methods ? HOST_METHOD : HOST_FIELD}, -1, NULL, NULL, 0,
                               &c->klass, 0, 0, 0};
            if (i < n_methods)
                mids[i] = (jmethodID)m;
            else
                fids[i - n_methods] = (jfieldID)m;
        }
        err = jvmtirt_class_define((jclass)&c->klass.obj, b, (jint)n, mids, fids);
    }
    free(mids);
    free(fids);
    if (err != JVMTI_ERROR_NONE)
        fprintf(stderr, "jvmti-host: %s: the core refused the class (error %d)\n", path, (int)err);
    return err == JVMTI_ERROR_NONE;
}

/* Loads one class; returns NULL with a message if it cannot. defined (if
 * not NULL) is called once the class is defined, before ClassLoad. */
static loaded_class *load_one(JNIEnv *jni, jthread thread, const char *path,
                              int (*on_defined)(jclass klass, void *arg), void *arg)
{
    size_t len = 0;
    unsigned char *bytes = read_file(path, &len);
    char *name = bytes ? class_file_name(bytes, len, NULL, NULL) : NULL;
    if (!name) {
        fprintf(stderr, "jvmti-host: %s: %s\n", path,
                bytes ? "not a class file" : strerror(errno));
        free(bytes);
        return NULL;
    }
    /* The VM's outputs start as "unchanged": the core stores into them
     * only when an environment replaced the bytes. */
    jint new_len = (jint)len;
    unsigned char *new_bytes = NULL;
    jvmtirt_class_file *kept = jvmtirt_class_file_load(jni, NULL, name, NULL, (jint)len, bytes,
                                                       &new_len, &new_bytes);
    const unsigned char *defined = new_bytes ? new_bytes : bytes;
    size_t defined_len = new_bytes ? (size_t)new_len : len;
    unsigned access = 0;
    char *super = NULL;
    char *new_name = new_len >= 0 ? class_file_name(defined, defined_len, &access, &super) : NULL;
    int ok = new_name && strcmp(new_name, name) == 0;
    if (!ok)
        fprintf(stderr, "jvmti-host: %s: the agents' bytes are not a class file of %s\n", path,
                name);
    else if (host_hooks_get()->class_bytes)
        host_hooks_get()->class_bytes(name, defined, defined_len);
    free(new_name);
    loaded_class *c = ok ? calloc(1, sizeof *c) : NULL;
    char *signature = ok ? malloc(strlen(name) + 3) : NULL;
    if (c && signature) {
        sprintf(signature, "L%s;", name);
        c->klass.obj.kind = HOST_CLASS;
        c->klass.name = name;
        c->klass.signature = signature;
        /* A top-level class's modifiers are its class file's access_flags. */
        c->klass.modifiers = (jint)access;
        c->super_name = super; /* JNI's GetSuperclass (jni_classes.c) */
        super = NULL;
    }
    free(super);
    ok = c && signature && define(path, c, defined, defined_len);
    if (ok && (c->bytes = malloc(defined_len)) != NULL) {
        memcpy(c->bytes, defined, defined_len);
        c->len = defined_len;
    }
    ok = ok && c->bytes;
    jvmtirt_post_deallocate(new_bytes); /* the last agent's buffer is the VM's to free */
    free(bytes);
    if (!ok) {
        jvmtirt_class_defined(NULL, kept);
        if (c) {
            free(c->members);
            free(c->super_name);
        }
        free(c);
        free(signature);
        free(name);
        return NULL;
    }
    c->next = loaded;
    __atomic_store_n(&loaded, c, __ATOMIC_RELEASE); /* each_loaded may be walking */
    jclass klass = (jclass)&c->klass.obj;
    jvmtirt_class_defined(klass, kept);
    if (on_defined && !on_defined(klass, arg))
        return NULL; /* the class stays loaded: the core has its IDs */
    jvmtirt_post_ClassLoad(jni, thread, klass);
    jvmtirt_post_ClassPrepare(jni, thread, klass);
    return c;
}

jclass host_class_load_file(JNIEnv *jni, jthread thread, const char *path,
                           int (*defined)(jclass klass, void *arg), void *arg)
{
    loaded_class *c = load_one(jni, thread, path, defined, arg);
    return c ? (jclass)&c->klass.obj : NULL;
}

const unsigned char *host_class_bytes(jclass klass, size_t *len, host_member **members)
{
    const loaded_class *c = (const loaded_class *)(const void *)klass;
    *len = c->len;
    *members = c->members;
    return c->bytes;
}

const char *host_class_super_name(jclass klass)
{
    const host_class *c = (const host_class *)(const void *)klass;
    return is_loaded(c) ? ((const loaded_class *)(const void *)klass)->super_name : NULL;
}

int host_classes_load(JNIEnv *jni, jobject thread)
{
    int ok = 1;
    for (int i = 0; i < n_files; i++)
        ok &= load_one(jni, thread, files[i], NULL, NULL) != NULL;
    return ok;
}

/* config.class_by_name: every class of the host is the bootstrap loader's,
 * so `from` does not matter: the built-in ones, the -load'ed ones, the
 * test hooks' (the heap model's). */
jclass host_class_by_name(jclass from, const char *name)
{
    (void)from;
    for (int i = 0; i < host_n_classes; i++)
        if (strcmp(host_classes[i].name, name) == 0)
            return (jclass)&host_classes[i].obj;
    for (loaded_class *l = __atomic_load_n(&loaded, __ATOMIC_ACQUIRE); l; l = l->next)
        if (strcmp(l->klass.name, name) == 0)
            return (jclass)&l->klass.obj;
    const host_hooks *h = host_hooks_get();
    return h->class_by_name ? h->class_by_name(name) : NULL;
}

/* The host's classes are loaded, linked and initialized from the start;
 * a -load'ed class is prepared (ClassPrepare was posted) and never
 * initialized: there is no code to run. A loaded class's source file is
 * the core's to answer, from the class file (jvmtirt_class_define). */
static jvmtiError class_info(jclass klass, jvmtirt_class_info *out)
{
    const host_class *c = (const host_class *)(void *)klass;
    int loaded_here = is_loaded(c);
    out->signature = c->signature;
    out->generic = NULL;
    out->modifiers = c->modifiers;
    out->status = loaded_here ? JVMTI_CLASS_STATUS_VERIFIED | JVMTI_CLASS_STATUS_PREPARED
                              : JVMTI_CLASS_STATUS_VERIFIED | JVMTI_CLASS_STATUS_PREPARED |
                                    JVMTI_CLASS_STATUS_INITIALIZED;
    out->source_file = c->source_file;
    return JVMTI_ERROR_NONE;
}

static int is_loaded(const host_class *c)
{
    for (loaded_class *l = __atomic_load_n(&loaded, __ATOMIC_ACQUIRE); l; l = l->next)
        if (&l->klass == c)
            return 1;
    return 0;
}

/* config.class_modifiable: the -load'ed classes, by every environment. */
static jvmtiError class_modifiable(jclass klass, jvmtirt_class_origin *out)
{
    out->modifiable = is_loaded((const host_class *)(void *)klass) ? JVMTIRT_MODIFIABLE
                                                                   : JVMTIRT_UNMODIFIABLE;
    out->jni = host_current_jni();
    out->loader = NULL; /* the host has the bootstrap loader only */
    out->protection_domain = NULL;
    return JVMTI_ERROR_NONE;
}

/* config.install_classes: every class file must be one of the class it
 * replaces (INVALID_CLASS_FORMAT, NAMES_DONT_MATCH), else nothing changes.
 * The host keeps no bytes of its own: "installing" hands the new
 * definition to the class_bytes test hook (-dump-classes writes it out). */
static jvmtiError install_classes(jint n, const jvmtiClassDefinition *defs, int retransform)
{
    (void)retransform;
    for (jint i = 0; i < n; i++) {
        const host_class *c = (const host_class *)(void *)defs[i].klass;
        char *name =
            class_file_name(defs[i].class_bytes, (size_t)defs[i].class_byte_count, NULL, NULL);
        jvmtiError err = !name                         ? JVMTI_ERROR_INVALID_CLASS_FORMAT
                         : strcmp(name, c->name) != 0 ? JVMTI_ERROR_NAMES_DONT_MATCH
                                                       : JVMTI_ERROR_NONE;
        free(name);
        if (err != JVMTI_ERROR_NONE)
            return err;
    }
    const host_hooks *h = host_hooks_get();
    for (jint i = 0; i < n && h->class_bytes; i++)
        h->class_bytes(((const host_class *)(void *)defs[i].klass)->name, defs[i].class_bytes,
                       (size_t)defs[i].class_byte_count);
    return JVMTI_ERROR_NONE;
}

/* Every class of the host is the bootstrap loader's (the host has no class
 * loader objects): GetClassLoaderClasses(NULL) lists them all, any other
 * loader none. The host has no hidden classes and no array classes. */
static jvmtiError each_class(jobject initiating_loader, int all,
                             int (*visit)(void *arg, jclass klass), void *arg)
{
    if (!all && initiating_loader)
        return JVMTI_ERROR_NONE;
    for (int i = 0; i < host_n_classes; i++)
        if (visit(arg, (jclass)&host_classes[i].obj))
            return JVMTI_ERROR_NONE;
    /* the -load'ed ones, newest first; agents' threads may call while the
     * main thread loads */
    for (loaded_class *c = __atomic_load_n(&loaded, __ATOMIC_ACQUIRE); c; c = c->next)
        if (visit(arg, (jclass)&c->klass.obj))
            break;
    return JVMTI_ERROR_NONE;
}

/* Which handles are real classes, methods and fields: a class, a method
 * or a field is its address, told by its kind. */
static jvmtiError check_class(jvmtiEnv *env, jclass klass, int of_member)
{
    (void)env, (void)of_member;
    return ((host_object *)klass)->kind == HOST_CLASS ? JVMTI_ERROR_NONE
                                                      : JVMTI_ERROR_INVALID_CLASS;
}

static host_member *member_of(const void *id, host_kind kind)
{
    const host_object *o = id;
    return o && o->kind == kind ? (host_member *)(uintptr_t)id : NULL;
}

static jvmtiError check_method(jvmtiEnv *env, jmethodID method)
{
    (void)env;
    return member_of(method, HOST_METHOD) ? JVMTI_ERROR_NONE : JVMTI_ERROR_INVALID_METHODID;
}

/* A field ID is valid with the class that declares it. */
static jvmtiError check_field(jvmtiEnv *env, jclass klass, jfieldID field)
{
    (void)env;
    host_member *f = member_of(field, HOST_FIELD);
    return f && (!klass || (jclass)&host_member_class(f)->obj == klass)
               ? JVMTI_ERROR_NONE
               : JVMTI_ERROR_INVALID_FIELDID;
}

void host_classes_configure(jvmtirt_config *c)
{
    c->check_class = check_class;
    c->check_method = check_method;
    /* method_is_native: the core's, from the modifiers handed over */
    c->check_field = check_field;
    c->class_info = class_info;
    c->class_modifiable = class_modifiable; /* RetransformClasses, RedefineClasses */
    c->install_classes = install_classes;
    c->potential.can_retransform_classes = 1;
    c->potential.can_redefine_classes = 1;
    c->class_by_name = host_class_by_name;       /* GetImplementedInterfaces */
    c->each_class = each_class;
}
