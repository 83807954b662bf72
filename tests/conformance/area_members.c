/* The members area: the method, field and class-file metadata the core
 * answers from the classes a VM hands over (runtime/classes/members.c).
 * In VMInit, java/lang/Thread's getName() and name through the method and
 * field functions (the host describes its built-in classes: no code, so
 * only names, signatures, modifiers and declaring classes are compared);
 * at ClassPrepare of ConfMarked (javac -g; the host defines it from the
 * bytes with jvmtirt_class_define), in an environment of its own with the
 * metadata capabilities, every method's facts, code, tables and the
 * class file's version, source file, debug extension and constant pool
 * (as mark()'s ldc sees it). Methods are printed sorted by name: HotSpot's
 * order is its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

void conf_area_members(int stage, const conf_area_env *a);

static jvmtiEnv *own; /* the ClassPrepare environment */

static void method_cases(jvmtiEnv *e, jmethodID m, const char *who)
{
    char id[128];
    jint v = -1;
    jboolean b = 9;
    jvmtiError err = (*e)->GetMethodModifiers(e, m, &v);
    snprintf(id, sizeof id, "members.%s.modifiers", who);
    conf_say(id, "%s 0x%x", conf_err_name(err), (unsigned)v);
    err = (*e)->IsMethodNative(e, m, &b);
    snprintf(id, sizeof id, "members.%s.native", who);
    conf_say(id, "%s %d", conf_err_name(err), (int)b);
    err = (*e)->IsMethodObsolete(e, m, &b);
    snprintf(id, sizeof id, "members.%s.obsolete", who);
    conf_say(id, "%s %d", conf_err_name(err), (int)b);
    err = (*e)->IsMethodSynthetic(e, m, &b);
    snprintf(id, sizeof id, "members.%s.synthetic", who);
    conf_say(id, "%s %d", conf_err_name(err), (int)b);
    char *name = NULL, *sig = NULL, *gen = NULL;
    err = (*e)->GetMethodName(e, m, &name, &sig, &gen);
    snprintf(id, sizeof id, "members.%s.name", who);
    conf_say(id, "%s %s %s %s", conf_err_name(err), name ? name : "-", sig ? sig : "-",
             gen ? gen : "NULL");
    (*e)->Deallocate(e, (unsigned char *)name);
    (*e)->Deallocate(e, (unsigned char *)sig);
    (*e)->Deallocate(e, (unsigned char *)gen);
}

/* The facts that need the method's code (ConfMarked's methods only). */
static void code_cases(jvmtiEnv *e, jmethodID m, const char *who)
{
    char id[128], out[1024];
    jint v = -1, n = 0;
    jvmtiError err = (*e)->GetMaxLocals(e, m, &v);
    snprintf(id, sizeof id, "members.%s.max-locals", who);
    conf_say(id, "%s %d", conf_err_name(err), (int)v);
    err = (*e)->GetArgumentsSize(e, m, &v);
    snprintf(id, sizeof id, "members.%s.arguments-size", who);
    conf_say(id, "%s %d", conf_err_name(err), (int)v);
    jlocation start = -2, end = -2;
    err = (*e)->GetMethodLocation(e, m, &start, &end);
    snprintf(id, sizeof id, "members.%s.location", who);
    conf_say(id, "%s %lld %lld", conf_err_name(err), (long long)start, (long long)end);

    jvmtiLineNumberEntry *lines = NULL;
    err = (*e)->GetLineNumberTable(e, m, &n, &lines);
    size_t k = 0;
    out[0] = '\0';
    for (jint i = 0; err == JVMTI_ERROR_NONE && i < n && k < sizeof out - 32; i++)
        k += (size_t)snprintf(out + k, sizeof out - k, " %lld:%d",
                              (long long)lines[i].start_location, (int)lines[i].line_number);
    snprintf(id, sizeof id, "members.%s.lines", who);
    conf_say(id, "%s%s", conf_err_name(err), out);
    (*e)->Deallocate(e, (unsigned char *)lines);

    jvmtiLocalVariableEntry *locals = NULL;
    err = (*e)->GetLocalVariableTable(e, m, &n, &locals);
    k = 0;
    out[0] = '\0';
    for (jint i = 0; err == JVMTI_ERROR_NONE && i < n; i++) {
        if (k < sizeof out - 200)
            k += (size_t)snprintf(
                out + k, sizeof out - k, " %s:%s:%s:%d:%lld:%d", locals[i].name,
                locals[i].signature,
                locals[i].generic_signature ? locals[i].generic_signature : "NULL",
                (int)locals[i].slot, (long long)locals[i].start_location, (int)locals[i].length);
        (*e)->Deallocate(e, (unsigned char *)locals[i].name);
        (*e)->Deallocate(e, (unsigned char *)locals[i].signature);
        (*e)->Deallocate(e, (unsigned char *)locals[i].generic_signature);
    }
    snprintf(id, sizeof id, "members.%s.locals", who);
    conf_say(id, "%s%s", conf_err_name(err), out);
    (*e)->Deallocate(e, (unsigned char *)locals);

    unsigned char *code = NULL;
    err = (*e)->GetBytecodes(e, m, &n, &code);
    k = 0;
    out[0] = '\0';
    for (jint i = 0; err == JVMTI_ERROR_NONE && i < n && k < sizeof out - 4; i++)
        k += (size_t)snprintf(out + k, sizeof out - k, "%02x", code[i]);
    snprintf(id, sizeof id, "members.%s.bytecodes", who);
    conf_say(id, "%s %d %s", conf_err_name(err), err == JVMTI_ERROR_NONE ? (int)n : -1, out);
    (*e)->Deallocate(e, (unsigned char *)code);
}

/* The offset of constant pool entry `want` in pool (count entries + 1, n
 * bytes), or -1. The entry sizes are the class file's (JVMS 4.4). */
static long pool_entry(const unsigned char *pool, jint count, jint n, unsigned want)
{
    long at = 0;
    for (unsigned i = 1; i < (unsigned)count && at < n; i++) {
        if (i == want)
            return at;
        unsigned tag = pool[at];
        long size = tag == 1               ? 3 + (pool[at + 1] << 8 | pool[at + 2])
                    : tag == 5 || tag == 6 ? 9
                    : tag == 7 || tag == 8 || tag == 16 || tag == 19 || tag == 20 ? 3
                    : tag == 15                                                   ? 4
                                                                                  : 5;
        at += size;
        if (tag == 5 || tag == 6)
            i++;
    }
    return -1;
}

/* GetConstantPool agrees with GetBytecodes (what the spec guarantees,
 * whatever pool a VM returns): mark()'s ldc operand names a String entry
 * of the pool, whose text is the marker the class was defined with. */
static void pool_case(jvmtiEnv *e, jclass k, jmethodID mark)
{
    jint count = 0, n = 0, code_n = 0;
    unsigned char *pool = NULL, *code = NULL;
    jvmtiError err = (*e)->GetConstantPool(e, k, &count, &n, &pool);
    if (err == JVMTI_ERROR_NONE)
        err = (*e)->GetBytecodes(e, mark, &code_n, &code);
    char text[64] = "-";
    if (err == JVMTI_ERROR_NONE && code_n >= 2 && code[0] == 0x12 /* ldc */) {
        long s = pool_entry(pool, count, n, code[1]);
        long u = s >= 0 && pool[s] == 8 ? pool_entry(pool, count, n, pool[s + 1] << 8 | pool[s + 2])
                                        : -1;
        if (u >= 0 && pool[u] == 1) {
            int len = pool[u + 1] << 8 | pool[u + 2];
            snprintf(text, sizeof text, "String %.*s", len < 40 ? len : 40,
                     (const char *)pool + u + 3);
        }
    }
    conf_say("members.ConfMarked.constant-pool.ldc", "%s %s", conf_err_name(err), text);
    (*e)->Deallocate(e, pool);
    (*e)->Deallocate(e, code);
}

static int by_name(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

static void class_cases(jvmtiEnv *e, JNIEnv *jni, jclass k)
{
    jint n = 0;
    jmethodID *ms = NULL;
    jvmtiError err = (*e)->GetClassMethods(e, k, &n, &ms);
    char *names[16];
    jint named = 0;
    for (jint i = 0; err == JVMTI_ERROR_NONE && i < n && named < 16; i++) {
        char *name = NULL, *sig = NULL;
        if ((*e)->GetMethodName(e, ms[i], &name, &sig, NULL) != JVMTI_ERROR_NONE)
            continue;
        names[named] = malloc(strlen(name) + strlen(sig) + 2);
        if (names[named])
            sprintf(names[named++], "%s%s", name, sig);
        (*e)->Deallocate(e, (unsigned char *)name);
        (*e)->Deallocate(e, (unsigned char *)sig);
    }
    qsort(names, (size_t)named, sizeof *names, by_name);
    char list[512] = "";
    for (jint i = 0; i < named; i++) {
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, " %s", names[i]);
    }
    conf_say("members.ConfMarked.methods", "%s %d%s", conf_err_name(err), (int)n, list);
    for (jint i = 0; err == JVMTI_ERROR_NONE && i < n; i++) {
        char *name = NULL;
        if ((*e)->GetMethodName(e, ms[i], &name, NULL, NULL) != JVMTI_ERROR_NONE)
            continue;
        char who[64];
        snprintf(who, sizeof who, "ConfMarked.%s", strcmp(name, "<init>") == 0 ? "init" : name);
        method_cases(e, ms[i], who);
        code_cases(e, ms[i], who);
        if (strcmp(name, "mark") == 0)
            pool_case(e, k, ms[i]);
        jclass d = NULL;
        jvmtiError derr = (*e)->GetMethodDeclaringClass(e, ms[i], &d);
        char id[96];
        snprintf(id, sizeof id, "members.%s.declaring-class", who);
        conf_say(id, "%s %s", conf_err_name(derr),
                 d && (*jni)->IsSameObject(jni, d, k) ? "ConfMarked" : "other");
        (*e)->Deallocate(e, (unsigned char *)name);
    }
    for (jint i = 0; i < named; i++)
        free(names[i]);
    (*e)->Deallocate(e, (unsigned char *)ms);

    jfieldID *fs = NULL;
    err = (*e)->GetClassFields(e, k, &n, &fs);
    conf_say("members.ConfMarked.fields", "%s %d", conf_err_name(err), (int)n);
    (*e)->Deallocate(e, (unsigned char *)fs);
    jclass *ifaces = NULL;
    err = (*e)->GetImplementedInterfaces(e, k, &n, &ifaces);
    conf_say("members.ConfMarked.interfaces", "%s %d", conf_err_name(err), (int)n);
    (*e)->Deallocate(e, (unsigned char *)ifaces);
    jint minor = -1, major = -1;
    err = (*e)->GetClassVersionNumbers(e, k, &minor, &major);
    conf_say("members.ConfMarked.version", "%s %d.%d", conf_err_name(err), (int)major, (int)minor);
    char *s = NULL;
    err = (*e)->GetSourceFileName(e, k, &s);
    conf_say("members.ConfMarked.source-file", "%s %s", conf_err_name(err), s ? s : "-");
    (*e)->Deallocate(e, (unsigned char *)s);
    s = NULL;
    err = (*e)->GetSourceDebugExtension(e, k, &s);
    conf_say("members.ConfMarked.source-debug-extension", "%s", conf_err_name(err));
    (*e)->Deallocate(e, (unsigned char *)s);
}

static void JNICALL class_prepare(jvmtiEnv *e, JNIEnv *jni, jthread thread, jclass k)
{
    (void)thread;
    char *sig = NULL;
    if ((*e)->GetClassSignature(e, k, &sig, NULL) == JVMTI_ERROR_NONE && sig &&
        strcmp(sig, "LConfMarked;") == 0)
        class_cases(e, jni, k);
    (*e)->Deallocate(e, (unsigned char *)sig);
}

static void onload(JavaVM *vm)
{
    if (!(own = agentkit_env(vm, JVMTI_VERSION_1_2)))
        return;
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    caps.can_get_line_numbers = 1;
    caps.can_access_local_variables = 1;
    caps.can_get_bytecodes = 1;
    caps.can_get_synthetic_attribute = 1;
    caps.can_get_source_file_name = 1;
    caps.can_get_source_debug_extension = 1;
    caps.can_get_constant_pool = 1;
    jvmtiError err = (*own)->AddCapabilities(own, &caps);
    conf_say("members.setup.capabilities", "%s", conf_err_name(err));
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.ClassPrepare = class_prepare;
    agentkit_events(own, &cb, 1, (jvmtiEvent[]){JVMTI_EVENT_CLASS_PREPARE});
}

static void live(const conf_area_env *a)
{
    const conf_ctx *c = a->ctx;
    jvmtiEnv *e = a->full;
    JNIEnv *jni = a->jni;
    if (!c->method || !c->field || !c->klass)
        return;
    method_cases(e, c->method, "Thread.getName");
    jclass d = NULL;
    jvmtiError err = (*e)->GetMethodDeclaringClass(e, c->method, &d);
    conf_say("members.Thread.getName.declaring-class", "%s %s", conf_err_name(err),
             d && (*jni)->IsSameObject(jni, d, c->klass) ? "Thread" : "other");
    char *name = NULL, *sig = NULL, *gen = NULL;
    err = (*e)->GetFieldName(e, c->klass, c->field, &name, &sig, &gen);
    conf_say("members.Thread.name.name", "%s %s %s %s", conf_err_name(err), name ? name : "-",
             sig ? sig : "-", gen ? gen : "NULL");
    (*e)->Deallocate(e, (unsigned char *)name);
    (*e)->Deallocate(e, (unsigned char *)sig);
    (*e)->Deallocate(e, (unsigned char *)gen);
    jint mods = -1;
    err = (*e)->GetFieldModifiers(e, c->klass, c->field, &mods);
    conf_say("members.Thread.name.modifiers", "%s 0x%x", conf_err_name(err), (unsigned)mods);
    jboolean b = 9;
    err = (*e)->IsFieldSynthetic(e, c->klass, c->field, &b);
    conf_say("members.Thread.name.synthetic", "%s %d", conf_err_name(err), (int)b);
    d = NULL;
    err = (*e)->GetFieldDeclaringClass(e, c->klass, c->field, &d);
    conf_say("members.Thread.name.declaring-class", "%s %s", conf_err_name(err),
             d && (*jni)->IsSameObject(jni, d, c->klass) ? "Thread" : "other");
}

void conf_area_members(int stage, const conf_area_env *a)
{
    if (stage == CONF_ONLOAD)
        onload(a->vm);
    else if (stage == CONF_LIVE && a->ctx)
        live(a);
}
