/* members.c: unit tests of the metadata the core answers from the classes
 * the VM hands over (runtime/classes/members.c, classfile.c) through real
 * function tables: a class file assembled below (so every expected value
 * is written by hand from it) defined with jvmtirt_class_define, a class
 * described with jvmtirt_class_describe, their methods and fields, code,
 * line and local variable tables, versions, source file and debug
 * extension; the spec's errors, capabilities and phase; the class
 * unloaded and defined again; and bad bytes: every truncation and every
 * byte changed is refused (INVALID_CLASS_FORMAT) or read, never a crash. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvmtirt.h"

#define TAP_PREFIX "members: "
#include "tap.h"

#define EXPECT(got, want, ...) TAP_CHECK_EQ(got, want, __VA_ARGS__)
static int same(const char *got, const char *want) { return got && strcmp(got, want) == 0; }
#define STR_IS(got, want, ...) tap_line(same((got), (want)), __VA_ARGS__)

/* ---- a class file, assembled ---- */

static unsigned char cls[4096];
static size_t len;
static unsigned char pool[2048];
static size_t pool_len;
static unsigned pool_count = 1;
static const char *utf8s[64];

static void put(unsigned char *b, size_t *n, unsigned long v, int bytes)
{
    for (int i = bytes - 1; i >= 0; i--)
        b[(*n)++] = (unsigned char)(v >> (8 * i));
}
#define U1(v) put(cls, &len, (v), 1)
#define U2(v) put(cls, &len, (v), 2)
#define U4(v) put(cls, &len, (v), 4)

/* The index of a Utf8 entry for s (added once). */
static unsigned utf8(const char *s)
{
    for (unsigned i = 1; i < pool_count; i++)
        if (utf8s[i] && strcmp(utf8s[i], s) == 0)
            return i;
    put(pool, &pool_len, 1, 1);
    put(pool, &pool_len, strlen(s), 2);
    memcpy(pool + pool_len, s, strlen(s));
    pool_len += strlen(s);
    utf8s[pool_count] = s;
    return pool_count++;
}

static unsigned class_entry(const char *name)
{
    unsigned u = utf8(name);
    put(pool, &pool_len, 7, 1);
    put(pool, &pool_len, u, 2);
    return pool_count++;
}

/* An attribute's header; returns where its length goes (patched by end_attr). */
static size_t attr(const char *name)
{
    U2(utf8(name));
    size_t at = len;
    U4(0);
    return at;
}
static void end_attr(size_t at)
{
    size_t n = at, body = len - at - 4;
    put(cls, &n, body, 4);
}

static const unsigned char init_code[] = {0x2a, 0xb7, 0x00, 0x01, 0xb1};
static const unsigned char add_code[] = {0x1e, 0x1d, 0x85, 0x61, 0xad};

/* The members' part of the class (after super_class), into cls. */
static void members(void)
{
    U2(2); /* interfaces */
    U2(class_entry("java/lang/Runnable"));
    U2(class_entry("java/io/Serializable"));
    U2(3); /* fields */
    U2(0x0002), U2(utf8("count")), U2(utf8("I")), U2(0);
    U2(0x1018), U2(utf8("val$x")), U2(utf8("J")), U2(0); /* synthetic by its flag */
    U2(0x0001), U2(utf8("names")), U2(utf8("Ljava/util/List;")), U2(2);
    size_t a = attr("Signature");
    U2(utf8("Ljava/util/List<Ljava/lang/String;>;"));
    end_attr(a);
    a = attr("Synthetic"); /* synthetic by its attribute */
    end_attr(a);

    U2(5); /* methods */
    /* 0: public <init>()V, one line, `this` */
    U2(0x0001), U2(utf8("<init>")), U2(utf8("()V")), U2(1);
    a = attr("Code");
    U2(1), U2(1), U4(sizeof init_code);
    for (size_t i = 0; i < sizeof init_code; i++)
        U1(init_code[i]);
    U2(0); /* exception table */
    U2(2);
    size_t b = attr("LineNumberTable");
    U2(1), U2(0), U2(3);
    end_attr(b);
    b = attr("LocalVariableTable");
    U2(1), U2(0), U2(5), U2(utf8("this")), U2(utf8("LSample;")), U2(0);
    end_attr(b);
    end_attr(a);
    /* 1: public static add(JI[D)J, its lines in two tables, an unknown attribute */
    U2(0x0009), U2(utf8("add")), U2(utf8("(JI[D)J")), U2(1);
    a = attr("Code");
    U2(4), U2(5), U4(sizeof add_code);
    for (size_t i = 0; i < sizeof add_code; i++)
        U1(add_code[i]);
    U2(1), U2(0), U2(4), U2(4), U2(0); /* one handler */
    U2(3);
    b = attr("LineNumberTable");
    U2(1), U2(0), U2(10);
    end_attr(b);
    b = attr("StackMapTable"); /* skipped by its length */
    U2(0);
    end_attr(b);
    b = attr("LineNumberTable");
    U2(1), U2(3), U2(11);
    end_attr(b);
    end_attr(a);
    /* 2: public native hash()I */
    U2(0x0101), U2(utf8("hash")), U2(utf8("()I")), U2(0);
    /* 3: public abstract run()V: no code */
    U2(0x0401), U2(utf8("run")), U2(utf8("()V")), U2(0);
    /* 4: private static synthetic lambda$0(Ljava/util/List;)V, generic, typed locals */
    U2(0x100A), U2(utf8("lambda$0")), U2(utf8("(Ljava/util/List;)V")), U2(2);
    a = attr("Signature");
    U2(utf8("(Ljava/util/List<Ljava/lang/String;>;)V"));
    end_attr(a);
    a = attr("Code");
    U2(0), U2(2), U4(1), U1(0xb1), U2(0);
    U2(2);
    b = attr("LocalVariableTable");
    U2(2), U2(0), U2(1), U2(utf8("list")), U2(utf8("Ljava/util/List;")), U2(0);
    U2(0), U2(1), U2(utf8("n")), U2(utf8("I")), U2(1);
    end_attr(b);
    b = attr("LocalVariableTypeTable");
    U2(1), U2(0), U2(1), U2(utf8("list")), U2(utf8("Ljava/util/List<Ljava/lang/String;>;")), U2(0);
    end_attr(b);
    end_attr(a);

    U2(3); /* class attributes */
    a = attr("SourceFile");
    U2(utf8("Sample.java"));
    end_attr(a);
    a = attr("SourceDebugExtension");
    const char *sde = "SMAP\nSample.jsp\n";
    for (const char *s = sde; *s; s++)
        U1((unsigned char)*s);
    end_attr(a);
    a = attr("Deprecated");
    end_attr(a);
}

/* Assembles Sample (version 61.3) into cls/len: the members first (so the
 * pool is complete), then the header and pool in front of them. */
static void assemble(void)
{
    static unsigned char body[2048];
    pool_len = 0, pool_count = 1;
    memset(utf8s, 0, sizeof utf8s);
    unsigned this_class = class_entry("Sample"), super = class_entry("java/lang/Object");
    len = 0;
    members();
    size_t body_len = len;
    memcpy(body, cls, body_len);
    len = 0;
    U4(0xCAFEBABE), U2(3), U2(61), U2(pool_count);
    memcpy(cls + len, pool, pool_len);
    len += pool_len;
    U2(0x0021), U2(this_class), U2(super);
    memcpy(cls + len, body, body_len);
    len += body_len;
}

/* ---- the VM ---- */

/* Class objects are these; their identities (class_id) are index + 1, so
 * that the core must map both ways. */
enum { SAMPLE, DESCRIBED, UNPREPARED, ARRAY, UNKNOWN, RUNNABLE, SERIALIZABLE, N_CLASSES };
static char class_objs[N_CLASSES];
#define K(i) ((jclass)(void *)&class_objs[i])
static uintptr_t class_id(jclass k) { return (uintptr_t)((char *)(void *)k - class_objs) + 1; }
static int class_ref_calls;
static jclass class_ref(uintptr_t id)
{
    class_ref_calls++;
    return K(id - 1);
}

/* Resolves by name as Sample's loader would; counts its calls. */
static int by_name_calls;
static jclass class_by_name(jclass from, const char *name)
{
    by_name_calls++;
    if (from != K(SAMPLE))
        return NULL;
    return strcmp(name, "java/lang/Runnable") == 0     ? K(RUNNABLE)
           : strcmp(name, "java/io/Serializable") == 0 ? K(SERIALIZABLE)
                                                       : NULL;
}

static jvmtiError class_info(jclass k, jvmtirt_class_info *out)
{
    static const char *const sigs[] = {
        "LSample;",  "LDescribed;",          "LUnprepared;",          "[I",
        "LUnknown;", "Ljava/lang/Runnable;", "Ljava/io/Serializable;"};
    int i = (int)(class_id(k) - 1);
    out->signature = sigs[i];
    out->modifiers = 0x21;
    out->status = i == UNPREPARED ? JVMTI_CLASS_STATUS_VERIFIED
                                  : JVMTI_CLASS_STATUS_VERIFIED | JVMTI_CLASS_STATUS_PREPARED;
    out->source_file = i == DESCRIBED ? "FromInfo.java" : NULL;
    return JVMTI_ERROR_NONE;
}

/* Method and field IDs: addresses in these. */
static char method_objs[32], field_objs[32];
#define M(i) ((jmethodID)(void *)&method_objs[i])
#define F(i) ((jfieldID)(void *)&field_objs[i])

static void vm_start(void)
{
    jvmtirt_config c = JVMTIRT_CONFIG_INIT;
    c.class_id = class_id;
    c.class_ref = class_ref;
    c.class_info = class_info;
    c.class_by_name = class_by_name;
    c.potential.can_get_synthetic_attribute = 1;
    c.potential.can_get_line_numbers = 1;
    c.potential.can_access_local_variables = 1;
    c.potential.can_get_bytecodes = 1;
    c.potential.can_get_source_file_name = 1;
    c.potential.can_get_source_debug_extension = 1;
    c.potential.can_get_constant_pool = 1;
    if (jvmtirt_init(&c) != JVMTI_ERROR_NONE)
        tap_line(0, "jvmtirt_init refused the config");
}

static jvmtiEnv *env_new(int with_caps)
{
    jvmtiEnv *e = NULL;
    jvmtirt_get_env((void **)&e, JVMTI_VERSION_1_2);
    jvmtiCapabilities caps = {0};
    if (with_caps) {
        (*e)->GetPotentialCapabilities(e, &caps);
        EXPECT((*e)->AddCapabilities(e, &caps), JVMTI_ERROR_NONE,
               "the metadata capabilities are offered (the core's functions)");
        EXPECT(caps.can_get_line_numbers && caps.can_access_local_variables &&
                   caps.can_get_bytecodes && caps.can_get_synthetic_attribute &&
                   caps.can_get_source_debug_extension && caps.can_get_constant_pool,
               1, "... line numbers, locals, bytecodes, synthetic, debug extension, constant pool");
    }
    return e;
}

static void dealloc(jvmtiEnv *e, void *p) { (*e)->Deallocate(e, (unsigned char *)p); }

/* ---- sections ---- */

static void section_define(jvmtiEnv *e)
{
    jint nm = -1, nf = -1;
    char why[128];
    EXPECT(jvmtirt_class_check(cls, (jint)len, &nm, &nf, why, sizeof why), JVMTI_ERROR_NONE,
           "jvmtirt_class_check reads the assembled class");
    EXPECT(nm * 10 + nf, 53, "... 5 methods, 3 fields");
    const jmethodID mids[] = {M(0), M(1), M(2), M(3), M(4)};
    const jfieldID fids[] = {F(0), F(1), F(2)};
    EXPECT(jvmtirt_class_define(K(SAMPLE), cls, (jint)len, NULL, fids), JVMTI_ERROR_NULL_POINTER,
           "jvmtirt_class_define without method IDs: NULL_POINTER");
    EXPECT(jvmtirt_class_define(K(SAMPLE), cls, (jint)len, mids, fids), JVMTI_ERROR_NONE,
           "jvmtirt_class_define");
    memset(cls, 0, len); /* the core keeps its own copies */

    jint n = -1;
    jmethodID *ms = NULL;
    EXPECT((*e)->GetClassMethods(e, K(SAMPLE), &n, &ms), JVMTI_ERROR_NONE, "GetClassMethods");
    EXPECT(n == 5 && ms[0] == M(0) && ms[2] == M(2) && ms[4] == M(4), 1,
           "... the 5 IDs in the class file's order");
    dealloc(e, ms);
    jfieldID *fs = NULL;
    EXPECT((*e)->GetClassFields(e, K(SAMPLE), &n, &fs), JVMTI_ERROR_NONE, "GetClassFields");
    EXPECT(n == 3 && fs[0] == F(0) && fs[2] == F(2), 1, "... the 3 IDs in order");
    dealloc(e, fs);
    EXPECT((*e)->GetClassMethods(e, K(ARRAY), &n, &ms), JVMTI_ERROR_NONE,
           "GetClassMethods of an array class (never handed over)");
    EXPECT(n, 0, "... no methods");
    EXPECT((*e)->GetClassMethods(e, K(UNKNOWN), &n, &ms), JVMTI_ERROR_CLASS_NOT_PREPARED,
           "GetClassMethods of a class never handed over: CLASS_NOT_PREPARED");

    char *name = NULL, *sig = NULL, *gen = (char *)"x";
    EXPECT((*e)->GetMethodName(e, M(1), &name, &sig, &gen), JVMTI_ERROR_NONE, "GetMethodName(add)");
    STR_IS(name, "add", "... name add");
    STR_IS(sig, "(JI[D)J", "... signature (JI[D)J");
    EXPECT(gen == NULL, 1, "... no generic signature: NULL");
    dealloc(e, name), dealloc(e, sig);
    EXPECT((*e)->GetMethodName(e, M(4), NULL, NULL, &gen), JVMTI_ERROR_NONE,
           "GetMethodName(lambda$0) with only the generic pointer");
    STR_IS(gen, "(Ljava/util/List<Ljava/lang/String;>;)V", "... its Signature attribute");
    dealloc(e, gen);
    EXPECT((*e)->GetMethodName(e, M(9), &name, NULL, NULL), JVMTI_ERROR_INVALID_METHODID,
           "GetMethodName of an ID no class has: INVALID_METHODID");

    jclass k = NULL;
    class_ref_calls = 0;
    EXPECT((*e)->GetMethodDeclaringClass(e, M(3), &k), JVMTI_ERROR_NONE, "GetMethodDeclaringClass");
    EXPECT(k == K(SAMPLE) && class_ref_calls == 1, 1, "... Sample, through config.class_ref");
    jint mods = -1;
    EXPECT((*e)->GetMethodModifiers(e, M(4), &mods), JVMTI_ERROR_NONE, "GetMethodModifiers");
    EXPECT(mods, 0x100A, "... private static synthetic");
    jboolean b = 9;
    (*e)->IsMethodNative(e, M(2), &b);
    EXPECT(b, JNI_TRUE, "IsMethodNative(hash): true");
    (*e)->IsMethodNative(e, M(1), &b);
    EXPECT(b, JNI_FALSE, "IsMethodNative(add): false");
    (*e)->IsMethodSynthetic(e, M(4), &b);
    EXPECT(b, JNI_TRUE, "IsMethodSynthetic(lambda$0): true (ACC_SYNTHETIC)");
    (*e)->IsMethodSynthetic(e, M(0), &b);
    EXPECT(b, JNI_FALSE, "IsMethodSynthetic(<init>): false");
    EXPECT((*e)->IsMethodObsolete(e, M(0), &b), JVMTI_ERROR_NONE, "IsMethodObsolete");
    EXPECT(b, JNI_FALSE, "... false");

    jint v = -1;
    (*e)->GetMaxLocals(e, M(1), &v);
    EXPECT(v, 5, "GetMaxLocals(add): the Code attribute's 5");
    (*e)->GetArgumentsSize(e, M(1), &v);
    EXPECT(v, 4, "GetArgumentsSize(add (JI[D)J, static): long 2 + int 1 + array 1");
    (*e)->GetArgumentsSize(e, M(0), &v);
    EXPECT(v, 1, "GetArgumentsSize(<init>()V): this");
    EXPECT((*e)->GetMaxLocals(e, M(2), &v), JVMTI_ERROR_NATIVE_METHOD,
           "GetMaxLocals of a native method: NATIVE_METHOD (the core tells the trampoline)");
    jvmtiLineNumberEntry *lines = NULL;
    EXPECT((*e)->GetLineNumberTable(e, M(2), &n, &lines), JVMTI_ERROR_NATIVE_METHOD,
           "GetLineNumberTable of a native method: NATIVE_METHOD");

    EXPECT((*e)->GetLineNumberTable(e, M(1), &n, &lines), JVMTI_ERROR_NONE,
           "GetLineNumberTable(add)");
    EXPECT(n == 2 && lines[0].start_location == 0 && lines[0].line_number == 10 &&
               lines[1].start_location == 3 && lines[1].line_number == 11,
           1, "... both tables' entries: 0->10, 3->11");
    dealloc(e, lines);
    EXPECT((*e)->GetLineNumberTable(e, M(3), &n, &lines), JVMTI_ERROR_ABSENT_INFORMATION,
           "GetLineNumberTable(run, no code): ABSENT_INFORMATION");
    jvmtiLocalVariableEntry *locals = NULL;
    EXPECT((*e)->GetLocalVariableTable(e, M(4), &n, &locals), JVMTI_ERROR_NONE,
           "GetLocalVariableTable(lambda$0)");
    if (n == 2) {
        STR_IS(locals[0].name, "list", "... list");
        STR_IS(locals[0].generic_signature, "Ljava/util/List<Ljava/lang/String;>;",
               "... its generic signature from the LocalVariableTypeTable");
        EXPECT(locals[1].slot * 100 + locals[1].length * 10 + (locals[1].generic_signature == NULL),
               111, "... n: slot 1, length 1, no generic signature");
        /* config.local_type from the same table (the host's) */
        char type = 0;
        EXPECT(jvmtirt_class_local_type(M(4), locals[0].start_location, 0, &type), JVMTI_ERROR_NONE,
               "jvmtirt_class_local_type(lambda$0, list's start, 0): NONE");
        EXPECT(type, 'L', "... its type's first character");
        EXPECT(jvmtirt_class_local_type(M(4), locals[1].start_location, 1, &type), JVMTI_ERROR_NONE,
               "jvmtirt_class_local_type(lambda$0, n's start, 1): NONE");
        EXPECT(type, locals[1].signature[0], "... n's type");
        EXPECT(jvmtirt_class_local_type(M(4), locals[1].start_location + 1, 1, &type),
               JVMTI_ERROR_INVALID_SLOT, "... past n's range: INVALID_SLOT");
        EXPECT(jvmtirt_class_local_type(M(4), locals[0].start_location, 7, &type),
               JVMTI_ERROR_INVALID_SLOT, "... a slot no variable has: INVALID_SLOT");
        EXPECT(jvmtirt_class_local_type(M(1), 0, 0, &type), JVMTI_ERROR_ABSENT_INFORMATION,
               "jvmtirt_class_local_type(add, no table): ABSENT_INFORMATION");
        EXPECT(jvmtirt_class_local_type((jmethodID)(uintptr_t)0x7777, 0, 0, &type),
               JVMTI_ERROR_ABSENT_INFORMATION, "... a method not handed over: ABSENT_INFORMATION");
        for (jint i = 0; i < n; i++)
            dealloc(e, locals[i].name), dealloc(e, locals[i].signature),
                dealloc(e, locals[i].generic_signature);
    } else {
        EXPECT(n, 2, "... 2 entries");
    }
    dealloc(e, locals);
    n = -1;
    EXPECT((*e)->GetLocalVariableTable(e, M(1), &n, &locals), JVMTI_ERROR_NONE,
           "GetLocalVariableTable(add, no table while other methods have one): NONE (the "
           "spec's ABSENT_INFORMATION is the class's, as HotSpot answers)");
    EXPECT(n, 0, "... no entries");

    jlocation start = 7, end = 7;
    (*e)->GetMethodLocation(e, M(0), &start, &end);
    EXPECT(start * 10 + end, 4, "GetMethodLocation(<init>): 0 to 4");
    (*e)->GetMethodLocation(e, M(3), &start, &end);
    EXPECT(start == -1 && end == -1, 1, "GetMethodLocation(run, no code): -1, -1 (as HotSpot)");
    unsigned char *code = NULL;
    EXPECT((*e)->GetBytecodes(e, M(1), &n, &code), JVMTI_ERROR_NONE, "GetBytecodes(add)");
    EXPECT(n == (jint)sizeof add_code && memcmp(code, add_code, sizeof add_code) == 0, 1,
           "... its 5 bytes");
    dealloc(e, code);

    jint minor = -1, major = -1;
    EXPECT((*e)->GetClassVersionNumbers(e, K(SAMPLE), &minor, &major), JVMTI_ERROR_NONE,
           "GetClassVersionNumbers");
    EXPECT(major * 100 + minor, 6103, "... 61.3");
    EXPECT((*e)->GetClassVersionNumbers(e, K(ARRAY), &minor, &major),
           JVMTI_ERROR_ABSENT_INFORMATION,
           "GetClassVersionNumbers of an array class: ABSENT_INFORMATION");
    jclass *ifaces = NULL;
    by_name_calls = 0;
    EXPECT((*e)->GetImplementedInterfaces(e, K(SAMPLE), &n, &ifaces), JVMTI_ERROR_NONE,
           "GetImplementedInterfaces");
    EXPECT(n == 2 && ifaces[0] == K(RUNNABLE) && ifaces[1] == K(SERIALIZABLE) && by_name_calls == 2,
           1, "... Runnable, Serializable, in order, each resolved by config.class_by_name");
    dealloc(e, ifaces);
    EXPECT((*e)->GetImplementedInterfaces(e, K(ARRAY), &n, &ifaces), JVMTI_ERROR_NONE,
           "GetImplementedInterfaces of an array class");
    EXPECT(n, 0, "... none");
    EXPECT((*e)->GetImplementedInterfaces(e, K(UNKNOWN), &n, &ifaces),
           JVMTI_ERROR_CLASS_NOT_PREPARED,
           "GetImplementedInterfaces of a class never handed over: CLASS_NOT_PREPARED");
    jint pool_n = -1, pool_bytes = -1;
    unsigned char *cp = NULL;
    EXPECT((*e)->GetConstantPool(e, K(SAMPLE), &pool_n, &pool_bytes, &cp), JVMTI_ERROR_NONE,
           "GetConstantPool");
    EXPECT(pool_n == (jint)pool_count && pool_bytes == (jint)pool_len &&
               memcmp(cp, pool, pool_len) == 0,
           1, "... the class file's pool: its count (%u) and its %zu bytes", pool_count, pool_len);
    dealloc(e, cp);
    EXPECT((*e)->GetConstantPool(e, K(ARRAY), &pool_n, &pool_bytes, &cp),
           JVMTI_ERROR_ABSENT_INFORMATION, "GetConstantPool of an array class: ABSENT_INFORMATION");
    char *s = NULL;
    EXPECT((*e)->GetSourceFileName(e, K(SAMPLE), &s), JVMTI_ERROR_NONE, "GetSourceFileName");
    STR_IS(s, "Sample.java", "... the class file's SourceFile");
    dealloc(e, s);
    EXPECT((*e)->GetSourceDebugExtension(e, K(SAMPLE), &s), JVMTI_ERROR_NONE,
           "GetSourceDebugExtension");
    STR_IS(s, "SMAP\nSample.jsp\n", "... its bytes");
    dealloc(e, s);

    EXPECT((*e)->GetFieldName(e, K(SAMPLE), F(2), &name, &sig, &gen), JVMTI_ERROR_NONE,
           "GetFieldName(names)");
    STR_IS(name, "names", "... names");
    STR_IS(gen, "Ljava/util/List<Ljava/lang/String;>;", "... its generic signature");
    dealloc(e, name), dealloc(e, sig), dealloc(e, gen);
    EXPECT((*e)->GetFieldName(e, K(DESCRIBED), F(2), &name, NULL, NULL),
           JVMTI_ERROR_INVALID_FIELDID,
           "GetFieldName with a class that does not declare the field: INVALID_FIELDID");
    (*e)->GetFieldModifiers(e, K(SAMPLE), F(1), &mods);
    EXPECT(mods, 0x1018, "GetFieldModifiers(val$x): static final synthetic");
    (*e)->IsFieldSynthetic(e, K(SAMPLE), F(1), &b);
    EXPECT(b, JNI_TRUE, "IsFieldSynthetic(val$x): true (the flag)");
    (*e)->IsFieldSynthetic(e, K(SAMPLE), F(2), &b);
    EXPECT(b, JNI_TRUE, "IsFieldSynthetic(names): true (the attribute)");
    (*e)->IsFieldSynthetic(e, K(SAMPLE), F(0), &b);
    EXPECT(b, JNI_FALSE, "IsFieldSynthetic(count): false");
    k = NULL;
    EXPECT((*e)->GetFieldDeclaringClass(e, K(SAMPLE), F(0), &k), JVMTI_ERROR_NONE,
           "GetFieldDeclaringClass");
    EXPECT(k == K(SAMPLE), 1, "... Sample");
}

static void section_describe(jvmtiEnv *e)
{
    static const jvmtiLineNumberEntry lines[] = {{0, 40}};
    static const unsigned char code[] = {0xb1};
    jvmtirt_method_desc ms[] = {
        {M(7), "go", "(D)V", NULL, 0x0001, JNI_FALSE, 3, code, 1, lines, 1, NULL, -1},
    };
    jvmtirt_field_desc fs[] = {{F(7), "size", "I", NULL, 0x0004, JNI_FALSE}};
    jvmtirt_class_desc d = {.methods = ms, .n_methods = 1, .fields = fs, .n_fields = 1};
    ms[0].name = NULL;
    EXPECT(jvmtirt_class_describe(K(DESCRIBED), &d), JVMTI_ERROR_ILLEGAL_ARGUMENT,
           "jvmtirt_class_describe of a method without a name: ILLEGAL_ARGUMENT");
    static const char *const lost[] = {"java/lang/Lost"};
    d.interfaces = lost;
    d.n_interfaces = 1;
    ms[0].name = "go";
    EXPECT(jvmtirt_class_describe(K(DESCRIBED), &d), JVMTI_ERROR_NONE,
           "a described class whose interface the VM cannot resolve");
    jint k_n;
    jclass *k_ifaces = NULL;
    EXPECT((*e)->GetImplementedInterfaces(e, K(DESCRIBED), &k_n, &k_ifaces), JVMTI_ERROR_INTERNAL,
           "... GetImplementedInterfaces: INTERNAL (the VM broke the port's contract)");
    d.n_interfaces = 0;
    ms[0].name = "go";
    EXPECT(jvmtirt_class_describe(K(DESCRIBED), &d), JVMTI_ERROR_NONE, "jvmtirt_class_describe");
    ms[0].name = "changed"; /* copied */
    char *name = NULL;
    (*e)->GetMethodName(e, M(7), &name, NULL, NULL);
    STR_IS(name, "go", "... GetMethodName: the core's copy");
    dealloc(e, name);
    jint v = -1;
    (*e)->GetArgumentsSize(e, M(7), &v);
    EXPECT(v, 3, "... GetArgumentsSize(go(D)V): this + double");
    jvmtiLineNumberEntry *t = NULL;
    (*e)->GetLineNumberTable(e, M(7), &v, &t);
    EXPECT(v == 1 && t[0].line_number == 40, 1, "... its line table");
    dealloc(e, t);
    jvmtiLocalVariableEntry *locals = NULL;
    EXPECT((*e)->GetLocalVariableTable(e, M(7), &v, &locals), JVMTI_ERROR_ABSENT_INFORMATION,
           "... GetLocalVariableTable, no method of the class has one: ABSENT_INFORMATION");
    jint minor, major;
    EXPECT((*e)->GetClassVersionNumbers(e, K(DESCRIBED), &minor, &major),
           JVMTI_ERROR_ABSENT_INFORMATION, "... no version given: ABSENT_INFORMATION");
    char *s = NULL;
    EXPECT((*e)->GetSourceFileName(e, K(DESCRIBED), &s), JVMTI_ERROR_ABSENT_INFORMATION,
           "... no source file given: ABSENT_INFORMATION (the description, not class_info)");
    EXPECT((*e)->GetSourceDebugExtension(e, K(DESCRIBED), &s), JVMTI_ERROR_ABSENT_INFORMATION,
           "... no debug extension: ABSENT_INFORMATION");
    jint pool_n, pool_bytes;
    unsigned char *cp;
    EXPECT((*e)->GetConstantPool(e, K(DESCRIBED), &pool_n, &pool_bytes, &cp),
           JVMTI_ERROR_ABSENT_INFORMATION, "... no constant pool given: ABSENT_INFORMATION");
    jint n;
    jmethodID *m = NULL;
    EXPECT(jvmtirt_class_describe(K(UNPREPARED), &(jvmtirt_class_desc){0}), JVMTI_ERROR_NONE,
           "a class described before it is prepared");
    EXPECT((*e)->GetClassMethods(e, K(UNPREPARED), &n, &m), JVMTI_ERROR_CLASS_NOT_PREPARED,
           "... GetClassMethods: CLASS_NOT_PREPARED (class_info's status)");
}

/* A VM that gives one ID to two methods of a class: the first keeps it
 * (the core must not mistake the second for a method of another class and
 * free the class it is building). */
static void section_same_id(jvmtiEnv *e)
{
    jvmtirt_method_desc ms[] = {
        {.id = M(20), .name = "first", .signature = "()V", .n_lines = -1, .n_locals = -1},
        {.id = M(20), .name = "second", .signature = "()V", .n_lines = -1, .n_locals = -1},
    };
    jvmtirt_class_desc d = {.methods = ms, .n_methods = 2};
    EXPECT(jvmtirt_class_describe(K(UNPREPARED), &d), JVMTI_ERROR_NONE,
           "a class whose two methods have one ID: described");
    char *name = NULL;
    EXPECT((*e)->GetMethodName(e, M(20), &name, NULL, NULL), JVMTI_ERROR_NONE, "... GetMethodName");
    STR_IS(name, "first", "... the first method keeps the ID");
    dealloc(e, name);
    jvmtirt_class_unload(K(UNPREPARED));
    EXPECT((*e)->GetMethodName(e, M(20), &name, NULL, NULL), JVMTI_ERROR_INVALID_METHODID,
           "... unloaded: INVALID_METHODID");
}

static void section_unload(jvmtiEnv *e)
{
    char *name = NULL;
    jvmtirt_class_unload(K(DESCRIBED));
    EXPECT((*e)->GetMethodName(e, M(7), &name, NULL, NULL), JVMTI_ERROR_INVALID_METHODID,
           "after jvmtirt_class_unload: its method IDs are INVALID_METHODID");
    jint n;
    jmethodID *m = NULL;
    EXPECT((*e)->GetClassMethods(e, K(DESCRIBED), &n, &m), JVMTI_ERROR_CLASS_NOT_PREPARED,
           "... GetClassMethods: CLASS_NOT_PREPARED");
    /* Defined again with other IDs: the old ones go. */
    assemble();
    const jmethodID mids[] = {M(10), M(11), M(12), M(13), M(14)};
    const jfieldID fids[] = {F(10), F(11), F(12)};
    EXPECT(jvmtirt_class_define(K(SAMPLE), cls, (jint)len, mids, fids), JVMTI_ERROR_NONE,
           "Sample defined again, other IDs");
    EXPECT((*e)->GetMethodName(e, M(1), &name, NULL, NULL), JVMTI_ERROR_INVALID_METHODID,
           "... an old ID: INVALID_METHODID");
    EXPECT((*e)->GetMethodName(e, M(11), &name, NULL, NULL), JVMTI_ERROR_NONE, "... a new one");
    STR_IS(name, "add", "... add");
    dealloc(e, name);
}

static void section_rules(void)
{
    jvmtiEnv *e = env_new(0);
    jboolean b;
    EXPECT((*e)->IsMethodSynthetic(e, M(14), &b), JVMTI_ERROR_MUST_POSSESS_CAPABILITY,
           "IsMethodSynthetic without can_get_synthetic_attribute: MUST_POSSESS_CAPABILITY");
    jint n;
    unsigned char *code;
    EXPECT((*e)->GetBytecodes(e, M(11), &n, &code), JVMTI_ERROR_MUST_POSSESS_CAPABILITY,
           "GetBytecodes without can_get_bytecodes: MUST_POSSESS_CAPABILITY");
    jint bytes;
    EXPECT((*e)->GetConstantPool(e, K(SAMPLE), &n, &bytes, &code),
           JVMTI_ERROR_MUST_POSSESS_CAPABILITY,
           "GetConstantPool without can_get_constant_pool: MUST_POSSESS_CAPABILITY");
    EXPECT((*e)->GetMethodName(e, M(11), NULL, NULL, NULL), JVMTI_ERROR_NONE,
           "GetMethodName with three NULL pointers: nothing to do");
    (*e)->DisposeEnvironment(e);
}

/* Defining and unloading racing the answers: a reader on a thread of its
 * own asks while the main thread hands Sample over and takes it back; each
 * answer is either the class's (checked) or its absence, never another's
 * nor a crash (and clean under SANITIZE=thread). */
static jvmtiEnv *race_env;
static int race_stop, race_bad;
static long race_found, race_absent;

static void *race_reader(void *arg)
{
    (void)arg;
    jvmtiEnv *e = race_env;
    jvmtirt_thread_start(2, JVMTIRT_JAVA_THREAD);
    while (!__atomic_load_n(&race_stop, __ATOMIC_ACQUIRE)) {
        char *name = NULL;
        jvmtiError err = (*e)->GetMethodName(e, M(11), &name, NULL, NULL);
        if (err == JVMTI_ERROR_NONE) {
            __atomic_fetch_add(&race_found, 1, __ATOMIC_RELAXED);
            race_bad += !same(name, "add");
            dealloc(e, name);
        } else {
            race_absent++;
            race_bad += err != JVMTI_ERROR_INVALID_METHODID;
        }
        jint n = 0;
        jmethodID *ms = NULL;
        err = (*e)->GetClassMethods(e, K(SAMPLE), &n, &ms);
        if (err == JVMTI_ERROR_NONE) {
            race_bad += n != 5 || ms[1] != M(11);
            dealloc(e, ms);
        } else {
            race_bad += err != JVMTI_ERROR_CLASS_NOT_PREPARED;
        }
        jvmtiLocalVariableEntry *locals = NULL;
        err = (*e)->GetLocalVariableTable(e, M(14), &n, &locals);
        if (err == JVMTI_ERROR_NONE) {
            race_bad += n != 2 || !same(locals[0].name, "list");
            for (jint i = 0; i < n; i++)
                dealloc(e, locals[i].name), dealloc(e, locals[i].signature),
                    dealloc(e, locals[i].generic_signature);
            dealloc(e, locals);
        } else {
            race_bad += err != JVMTI_ERROR_INVALID_METHODID;
        }
    }
    jvmtirt_thread_end();
    return NULL;
}

static void section_race(void)
{
    race_env = env_new(0);
    jvmtiCapabilities caps = {0};
    caps.can_access_local_variables = 1;
    (*race_env)->AddCapabilities(race_env, &caps);
    assemble();
    const jmethodID mids[] = {M(10), M(11), M(12), M(13), M(14)};
    const jfieldID fids[] = {F(10), F(11), F(12)};
    pthread_t t;
    pthread_create(&t, NULL, race_reader, NULL);
    int rounds = 0, refused = 0;
    while (rounds < 2000 ||
           (__atomic_load_n(&race_found, __ATOMIC_RELAXED) == 0 && rounds < 200000)) {
        refused += jvmtirt_class_define(K(SAMPLE), cls, (jint)len, mids, fids) != JVMTI_ERROR_NONE;
        if (rounds++ % 2)
            jvmtirt_class_unload(K(SAMPLE));
    }
    __atomic_store_n(&race_stop, 1, __ATOMIC_RELEASE);
    pthread_join(t, NULL);
    EXPECT(refused, 0, "race: %d defines and unloads of Sample", rounds);
    EXPECT(race_bad, 0,
           "... a reader meanwhile got Sample's answers or their absence only "
           "(%ld found, %ld absent)",
           race_found, race_absent);
    (*race_env)->DisposeEnvironment(race_env);
}

/* Bad bytes: every prefix, and every byte set to 0x00 and to 0xFF. */
static void section_bad_bytes(void)
{
    assemble();
    static unsigned char bad[4096];
    char why[160];
    long refused = 0, read_ok = 0, other = 0;
    for (size_t n = 0; n < len; n++) {
        jvmtiError err = jvmtirt_class_check(cls, (jint)n, NULL, NULL, why, sizeof why);
        refused += err == JVMTI_ERROR_INVALID_CLASS_FORMAT;
        other += err != JVMTI_ERROR_INVALID_CLASS_FORMAT;
    }
    EXPECT(other, 0, "every one of the %zu truncations: INVALID_CLASS_FORMAT", len);
    refused = 0, other = 0;
    for (size_t i = 0; i < len; i++)
        for (int v = 0; v < 2; v++) {
            memcpy(bad, cls, len);
            bad[i] = v ? 0xFF : 0x00;
            jvmtiError err = jvmtirt_class_check(bad, (jint)len, NULL, NULL, why, sizeof why);
            refused += err == JVMTI_ERROR_INVALID_CLASS_FORMAT;
            read_ok += err == JVMTI_ERROR_NONE;
            other += err != JVMTI_ERROR_INVALID_CLASS_FORMAT && err != JVMTI_ERROR_NONE;
        }
    EXPECT(other, 0, "every byte changed: read or INVALID_CLASS_FORMAT (%ld refused, %ld read)",
           refused, read_ok);
    EXPECT(jvmtirt_class_check(cls, (jint)len + 1, NULL, NULL, why, sizeof why),
           JVMTI_ERROR_INVALID_CLASS_FORMAT, "a byte after the end: refused");
    char want[64];
    snprintf(want, sizeof want, "byte %zu: 1 bytes after the class file's end", len);
    STR_IS(why, want, "... why: %s", why);
    memcpy(bad, cls, len);
    bad[0] = 0xCB;
    jvmtirt_class_check(bad, (jint)len, NULL, NULL, why, sizeof why);
    STR_IS(why, "byte 0: not a class file (no 0xCAFEBABE)", "no magic: %s", why);
    EXPECT(jvmtirt_class_define(K(UNKNOWN), bad, (jint)len, NULL, NULL),
           JVMTI_ERROR_INVALID_CLASS_FORMAT,
           "jvmtirt_class_define of bad bytes: INVALID_CLASS_FORMAT");
    jvmtiEnv *e = env_new(0);
    jint n;
    jmethodID *m;
    EXPECT((*e)->GetClassMethods(e, K(UNKNOWN), &n, &m), JVMTI_ERROR_CLASS_NOT_PREPARED,
           "... and nothing kept of it");
    (*e)->DisposeEnvironment(e);
}

/* Class files javac wrote (the fuzzer's seeds, tests/fuzz/corpus-classfile):
 * Seed.java there declares 5 methods (<init>, hash, run, add and the
 * lambda's lambda$new$0) and 4 fields (count, LIMIT, names, f). */
static void section_javac(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/Seed.class", dir);
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("skip - runtime: members: no %s\n", path);
        return;
    }
    static unsigned char b[8192];
    size_t n = fread(b, 1, sizeof b, f);
    fclose(f);
    jint nm = -1, nf = -1;
    char why[160] = "";
    EXPECT(jvmtirt_class_check(b, (jint)n, &nm, &nf, why, sizeof why), JVMTI_ERROR_NONE,
           "javac's Seed.class is read%s%s", *why ? ": " : "", why);
    EXPECT(nm * 10 + nf, 54, "... 5 methods, 4 fields");
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    section_javac(argc > 1 ? argv[1] : "tests/fuzz/corpus-classfile");
    assemble();
    vm_start();
    jvmtiEnv *e = NULL;
    jvmtirt_get_env((void **)&e, JVMTI_VERSION_1_2);
    char *name = NULL;
    EXPECT((*e)->GetMethodName(e, M(0), &name, NULL, NULL), JVMTI_ERROR_WRONG_PHASE,
           "GetMethodName in the OnLoad phase: WRONG_PHASE");
    (*e)->DisposeEnvironment(e);
    jvmtirt_set_phase(JVMTI_PHASE_PRIMORDIAL);
    jvmtirt_thread_start(1, JVMTIRT_JAVA_THREAD);
    jvmtirt_set_phase(JVMTI_PHASE_START);
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    e = env_new(1);
    section_define(e);
    section_describe(e);
    section_same_id(e);
    section_unload(e);
    (*e)->DisposeEnvironment(e);
    section_rules();
    section_race();
    section_bad_bytes();
    jvmtirt_thread_end();
    jvmtirt_shutdown();
    return tap_failures ? 1 : 0;
}
