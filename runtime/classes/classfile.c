/* The class-file reader (JVMS 4) behind jvmtirt_class_define: the constant
 * pool, the access flags, the fields and methods with their Signature and
 * Synthetic attributes, a method's Code (max_locals, the bytecodes, its
 * LineNumberTable, LocalVariableTable and LocalVariableTypeTable), and the
 * class's SourceFile and SourceDebugExtension. Other attributes are
 * skipped by their length. Every read goes through `need`, which refuses
 * to pass the end of the bytes (or of the attribute being read), so bad
 * bytes give an error naming the offset, never a read out of bounds. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classfile.h"

#define ACC_SYNTHETIC 0x1000

enum {
    CP_UTF8 = 1,
    CP_LONG = 5,
    CP_DOUBLE = 6,
    CP_CLASS = 7,
};

typedef struct reader {
    const unsigned char *b;
    size_t pos, end; /* end: of the bytes, or of the attribute being read */
    unsigned cp_count;
    size_t *cp_at; /* offset of each constant pool entry's tag, 0: none */
    rt_classfile *cf;
    char *why;
    size_t why_size;
    jvmtiError err;
} reader;

static void fail(reader *r, const char *fmt, ...)
{
    if (r->err != JVMTI_ERROR_NONE)
        return; /* the first reason is the one to tell */
    r->err = JVMTI_ERROR_INVALID_CLASS_FORMAT;
    if (r->why && r->why_size) {
        int k = snprintf(r->why, r->why_size, "byte %zu: ", r->pos);
        if (k >= 0 && (size_t)k < r->why_size) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(r->why + k, r->why_size - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
}

/* 1 if n more bytes can be read at pos (else fails, once). */
static int need(reader *r, size_t n, const char *what)
{
    if (r->err != JVMTI_ERROR_NONE)
        return 0;
    if (n > r->end - r->pos) {
        fail(r, "%s runs past the end (%zu bytes left, %zu needed)", what, r->end - r->pos, n);
        return 0;
    }
    return 1;
}

static unsigned u1(reader *r, const char *what) { return need(r, 1, what) ? r->b[r->pos++] : 0; }

static unsigned u2(reader *r, const char *what)
{
    if (!need(r, 2, what))
        return 0;
    unsigned v = (unsigned)r->b[r->pos] << 8 | r->b[r->pos + 1];
    r->pos += 2;
    return v;
}

static unsigned long u4(reader *r, const char *what)
{
    if (!need(r, 4, what))
        return 0;
    const unsigned char *p = r->b + r->pos;
    r->pos += 4;
    return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 | (unsigned long)p[2] << 8 | p[3];
}

static void *keep(reader *r, void *p)
{
    rt_classfile *cf = r->cf;
    if (p && cf->n_blocks == cf->cap_blocks) {
        size_t cap = cf->cap_blocks ? 2 * cf->cap_blocks : 16;
        void **grown = realloc(cf->blocks, cap * sizeof *grown);
        if (!grown) {
            free(p);
            p = NULL;
        } else {
            cf->blocks = grown;
            cf->cap_blocks = cap;
        }
    }
    if (!p) {
        if (r->err == JVMTI_ERROR_NONE)
            r->err = JVMTI_ERROR_OUT_OF_MEMORY;
        return NULL;
    }
    cf->blocks[cf->n_blocks++] = p;
    return p;
}

static void *alloc(reader *r, size_t n, size_t size)
{
    return r->err == JVMTI_ERROR_NONE ? keep(r, calloc(n ? n : 1, size)) : NULL;
}

/* The constant pool entry at index, if it has that tag; its offset past
 * the tag. 0 (and a failure) otherwise. */
static size_t entry(reader *r, unsigned index, unsigned tag, const char *what)
{
    if (r->err != JVMTI_ERROR_NONE)
        return 0;
    if (index == 0 || index >= r->cp_count || !r->cp_at[index] || r->b[r->cp_at[index]] != tag) {
        fail(r, "%s: constant pool index %u is not a %s", what, index,
             tag == CP_UTF8 ? "Utf8 entry" : "Class entry");
        return 0;
    }
    return r->cp_at[index] + 1;
}

/* A Utf8 entry as a NUL-ended string the reader owns. */
static const char *utf8(reader *r, unsigned index, const char *what)
{
    size_t at = entry(r, index, CP_UTF8, what);
    if (!at)
        return NULL;
    size_t n = (size_t)r->b[at] << 8 | r->b[at + 1]; /* checked by read_pool */
    char *s = alloc(r, n + 1, 1);
    if (s)
        memcpy(s, r->b + at + 2, n);
    return s;
}

static const char *utf8_at(reader *r, const char *what) { return utf8(r, u2(r, what), what); }

static void read_pool(reader *r)
{
    r->cp_count = u2(r, "constant_pool_count");
    r->cp_at = calloc(r->cp_count ? r->cp_count : 1, sizeof *r->cp_at);
    if (!r->cp_at) {
        r->err = JVMTI_ERROR_OUT_OF_MEMORY;
        return;
    }
    for (unsigned i = 1; i < r->cp_count && r->err == JVMTI_ERROR_NONE; i++) {
        size_t at = r->pos;
        unsigned tag = u1(r, "a constant pool tag");
        size_t size;
        switch (tag) {
        case CP_UTF8:
            size =
                2 + (need(r, 2, "a Utf8 entry") ? (size_t)r->b[r->pos] << 8 | r->b[r->pos + 1] : 0);
            break;
        case 7:
        case 8:
        case 16:
        case 19:
        case 20: size = 2; break; /* Class, String, MethodType, Module, Package */
        case 15: size = 3; break; /* MethodHandle */
        case 3:
        case 4:
        case 9:
        case 10:
        case 11:
        case 12:
        case 17:
        case 18: size = 4; break;
        case CP_LONG:
        case CP_DOUBLE: size = 8; break;
        default:
            r->pos = at;
            fail(r, "constant pool entry %u has the unknown tag %u", i, tag);
            return;
        }
        if (!need(r, size, "a constant pool entry"))
            return;
        r->cp_at[i] = at;
        r->pos += size;
        if (tag == CP_LONG || tag == CP_DOUBLE)
            i++; /* takes two entries; the second is unusable */
    }
}

/* Calls one(r, name, end) for each attribute of a count-prefixed list,
 * with r->end set to the attribute's end; checks that one read it all
 * (when it read it: returned 1) and skips it otherwise. */
static void each_attribute(reader *r, int (*one)(reader *, const char *, void *), void *arg)
{
    unsigned count = u2(r, "attributes_count");
    size_t outer = r->end;
    for (unsigned i = 0; i < count && r->err == JVMTI_ERROR_NONE; i++) {
        const char *name = utf8_at(r, "an attribute's name");
        unsigned long len = u4(r, "attribute_length");
        if (!name || !need(r, len, name))
            return;
        size_t end = r->pos + len;
        r->end = end;
        if (one(r, name, arg) && r->err == JVMTI_ERROR_NONE && r->pos != end)
            fail(r, "%s: %zu bytes of its length are left unread", name, end - r->pos);
        r->end = outer;
        r->pos = end;
    }
}

typedef struct member_attrs {
    const char **generic;
    jboolean *synthetic;
    jvmtirt_method_desc *method; /* NULL for a field */
    /* line and local tables, grown as Code's attributes come */
    jvmtiLineNumberEntry *lines;
    jvmtiLocalVariableEntry *locals;
} member_attrs;

/* Appends count entries of size to *table (of *n), the reader owning it. */
static void *grow(reader *r, void *table, jint n, unsigned count, size_t size)
{
    char *p = alloc(r, (size_t)n + count, size);
    if (p && n > 0)
        memcpy(p, table, (size_t)n * size);
    return p;
}

static int code_attribute(reader *r, const char *name, void *arg)
{
    member_attrs *m = arg;
    jvmtirt_method_desc *d = m->method;
    if (strcmp(name, "LineNumberTable") == 0) {
        unsigned count = u2(r, name);
        jint n = d->n_lines < 0 ? 0 : d->n_lines;
        if (!need(r, (size_t)count * 4, name) ||
            !(m->lines = grow(r, m->lines, n, count, sizeof *m->lines)))
            return 1;
        for (unsigned i = 0; i < count; i++) {
            m->lines[n + (jint)i].start_location = u2(r, name);
            m->lines[n + (jint)i].line_number = (jint)u2(r, name);
        }
        d->lines = m->lines;
        d->n_lines = n + (jint)count;
        return 1;
    }
    int typed = strcmp(name, "LocalVariableTypeTable") == 0;
    if (typed || strcmp(name, "LocalVariableTable") == 0) {
        unsigned count = u2(r, name);
        if (!need(r, (size_t)count * 10, name))
            return 1;
        jint n = d->n_locals < 0 ? 0 : d->n_locals;
        if (!typed && !(m->locals = grow(r, m->locals, n, count, sizeof *m->locals)))
            return 1;
        for (unsigned i = 0; i < count && r->err == JVMTI_ERROR_NONE; i++) {
            jlocation start = u2(r, name);
            jint length = (jint)u2(r, name);
            const char *var = utf8_at(r, name);
            const char *sig = utf8_at(r, name);
            jint slot = (jint)u2(r, name);
            if (r->err != JVMTI_ERROR_NONE)
                return 1;
            if (!typed) {
                m->locals[n + (jint)i] =
                    (jvmtiLocalVariableEntry){start, length, (char *)var, (char *)sig, NULL, slot};
                continue;
            }
            /* The type table names the same variables: match by slot and start. */
            for (jint k = 0; k < d->n_locals; k++)
                if (m->locals[k].slot == slot && m->locals[k].start_location == start)
                    m->locals[k].generic_signature = (char *)sig;
        }
        if (!typed) {
            d->locals = m->locals;
            d->n_locals = n + (jint)count;
        }
        return 1;
    }
    return 0;
}

static int member_attribute(reader *r, const char *name, void *arg)
{
    member_attrs *m = arg;
    if (strcmp(name, "Synthetic") == 0) {
        *m->synthetic = JNI_TRUE;
        return 1;
    }
    if (strcmp(name, "Signature") == 0) {
        *m->generic = utf8_at(r, name);
        return 1;
    }
    if (!m->method || strcmp(name, "Code") != 0)
        return 0;
    jvmtirt_method_desc *d = m->method;
    if (d->code) {
        fail(r, "a second Code attribute");
        return 1;
    }
    u2(r, "max_stack");
    d->max_locals = (jint)u2(r, "max_locals");
    unsigned long len = u4(r, "code_length");
    if (r->err == JVMTI_ERROR_NONE && (len == 0 || len >= 65536)) {
        fail(r, "code_length %lu is not in 1..65535", len);
        return 1;
    }
    if (!need(r, len, "code"))
        return 1;
    d->code = r->b + r->pos; /* copied by the caller; the bytes outlive the read */
    d->code_length = (jint)len;
    r->pos += len;
    unsigned handlers = u2(r, "exception_table_length");
    if (need(r, (size_t)handlers * 8, "exception_table"))
        r->pos += (size_t)handlers * 8;
    each_attribute(r, code_attribute, m);
    return 1;
}

static int class_attribute(reader *r, const char *name, void *arg)
{
    (void)arg;
    jvmtirt_class_desc *c = &r->cf->desc;
    if (strcmp(name, "SourceFile") == 0) {
        c->source_file = utf8_at(r, name);
        return 1;
    }
    if (strcmp(name, "SourceDebugExtension") == 0) {
        size_t n = r->end - r->pos;
        char *s = alloc(r, n + 1, 1);
        if (s)
            memcpy(s, r->b + r->pos, n);
        c->source_debug_extension = s;
        r->pos += n;
        return 1;
    }
    return 0;
}

static void read_members(reader *r, int methods)
{
    const char *what = methods ? "methods_count" : "fields_count";
    unsigned count = u2(r, what);
    /* Each member takes at least 8 bytes: refuse a count the bytes cannot hold. */
    if (!need(r, (size_t)count * 8, what))
        return;
    if (methods) {
        r->cf->methods = alloc(r, count, sizeof *r->cf->methods);
        r->cf->desc.n_methods = (jint)count;
    } else {
        r->cf->fields = alloc(r, count, sizeof *r->cf->fields);
        r->cf->desc.n_fields = (jint)count;
    }
    for (unsigned i = 0; i < count && r->err == JVMTI_ERROR_NONE; i++) {
        jint access = (jint)u2(r, "access_flags");
        const char *name = utf8_at(r, "a member's name");
        const char *sig = utf8_at(r, "a member's descriptor");
        member_attrs m = {0};
        if (methods) {
            jvmtirt_method_desc *d = &r->cf->methods[i];
            *d = (jvmtirt_method_desc){
                .name = name, .signature = sig, .modifiers = access, .n_lines = -1, .n_locals = -1};
            m = (member_attrs){&d->generic, &d->synthetic, d, NULL, NULL};
        } else {
            jvmtirt_field_desc *d = &r->cf->fields[i];
            *d = (jvmtirt_field_desc){.name = name, .signature = sig, .modifiers = access};
            m = (member_attrs){&d->generic, &d->synthetic, NULL, NULL, NULL};
        }
        each_attribute(r, member_attribute, &m);
        if (access & ACC_SYNTHETIC)
            *m.synthetic = JNI_TRUE;
    }
}

/* The code was pointed at in the bytes; the caller's bytes may go away. */
static void copy_code(reader *r)
{
    for (jint i = 0; i < r->cf->desc.n_methods && r->err == JVMTI_ERROR_NONE; i++) {
        jvmtirt_method_desc *d = &r->cf->methods[i];
        if (!d->code)
            continue;
        unsigned char *copy = alloc(r, (size_t)d->code_length, 1);
        if (copy)
            memcpy(copy, d->code, (size_t)d->code_length);
        d->code = copy;
    }
}

jvmtiError rt_classfile_read(const unsigned char *bytes, size_t len, rt_classfile *cf, char *why,
                             size_t why_size)
{
    memset(cf, 0, sizeof *cf);
    if (why && why_size)
        why[0] = '\0';
    reader r = {.b = bytes, .end = len, .cf = cf, .why = why, .why_size = why_size};
    if (!bytes) {
        fail(&r, "no bytes");
        return r.err;
    }
    if (u4(&r, "magic") != 0xCAFEBABEul && r.err == JVMTI_ERROR_NONE) {
        r.pos = 0;
        fail(&r, "not a class file (no 0xCAFEBABE)");
    }
    cf->desc.minor_version = (jint)u2(&r, "minor_version");
    cf->desc.major_version = (jint)u2(&r, "major_version");
    size_t pool_at = r.pos + 2;
    read_pool(&r);
    if (r.err == JVMTI_ERROR_NONE) {
        cf->desc.constant_pool_count = (jint)r.cp_count;
        cf->desc.constant_pool_bytes = (jint)(r.pos - pool_at);
        unsigned char *pool = alloc(&r, r.pos - pool_at, 1);
        if (pool)
            memcpy(pool, bytes + pool_at, r.pos - pool_at);
        cf->desc.constant_pool = pool;
    }
    u2(&r, "access_flags");
    entry(&r, u2(&r, "this_class"), CP_CLASS, "this_class");
    unsigned super = u2(&r, "super_class");
    if (super)
        entry(&r, super, CP_CLASS, "super_class");
    unsigned interfaces = u2(&r, "interfaces_count");
    const char **names = need(&r, (size_t)interfaces * 2, "interfaces")
                             ? alloc(&r, interfaces, sizeof *names)
                             : NULL;
    for (unsigned i = 0; i < interfaces && r.err == JVMTI_ERROR_NONE; i++) {
        size_t at = entry(&r, u2(&r, "interfaces"), CP_CLASS, "interfaces");
        if (at)
            names[i] = utf8(&r, (unsigned)r.b[at] << 8 | r.b[at + 1], "an interface's name");
    }
    cf->desc.interfaces = names;
    cf->desc.n_interfaces = names ? (jint)interfaces : 0;
    read_members(&r, 0);
    read_members(&r, 1);
    each_attribute(&r, class_attribute, NULL);
    if (r.err == JVMTI_ERROR_NONE && r.pos != len)
        fail(&r, "%zu bytes after the class file's end", len - r.pos);
    copy_code(&r);
    free(r.cp_at);
    cf->desc.methods = cf->methods;
    cf->desc.fields = cf->fields;
    if (r.err != JVMTI_ERROR_NONE)
        rt_classfile_free(cf);
    return r.err;
}

void rt_classfile_free(rt_classfile *cf)
{
    for (size_t i = 0; i < cf->n_blocks; i++)
        free(cf->blocks[i]);
    free(cf->blocks);
    memset(cf, 0, sizeof *cf);
}
