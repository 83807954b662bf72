/* Six class functions over one operation, config.class_info:
 * GetClassSignature, GetClassStatus, GetClassModifiers, GetSourceFileName,
 * IsInterface and IsArrayClass. The VM describes the class once; the core
 * copies the strings into memory the agent Deallocates and tells array and
 * primitive classes by their signature, answering for them what the spec
 * (and Class.getModifiers) fixes whatever the VM. */
#include <string.h>

#include "classes.h"
#include "jvmtigen_impl.h"
#include "rt.h"

static const rt_need needs[] = {
    {RT_SLOT(GetClassSignature), {RT_OP(class_info)}},
    {RT_SLOT(GetClassStatus), {RT_OP(class_info)}},
    {RT_SLOT(GetClassModifiers), {RT_OP(class_info)}},
    {RT_SLOT(GetSourceFileName), {RT_OP(class_info)}},
    {RT_SLOT(IsInterface), {RT_OP(class_info)}},
    {RT_SLOT(IsArrayClass), {RT_OP(class_info)}},
};

const rt_area rt_area_classinfo = {.needs = needs, .n_needs = sizeof needs / sizeof *needs};

#define ACC_PUBLIC 0x0001
#define ACC_FINAL 0x0010
#define ACC_INTERFACE 0x0200
#define ACC_ABSTRACT 0x0400

static jvmtiError describe(jclass klass, jvmtirt_class_info *out)
{
    if (!rt.config.class_info)
        return JVMTI_ERROR_NOT_AVAILABLE;
    memset(out, 0, sizeof *out);
    jvmtiError err = rt.config.class_info(klass, out);
    if (err == JVMTI_ERROR_NONE && (!out->signature || !out->signature[0]))
        err = JVMTI_ERROR_INTERNAL; /* the VM broke the port's contract */
    return err;
}

static int is_array(const jvmtirt_class_info *c) { return c->signature[0] == '['; }

/* A primitive class (int.class, void.class) is named by one letter. */
static int is_primitive(const jvmtirt_class_info *c)
{
    return c->signature[1] == '\0' && strchr("ZBCSIJFDV", c->signature[0]) != NULL;
}

/* A copy the agent frees with Deallocate; NULL stays NULL. */
static jvmtiError copy_out(jvmtiEnv *env, const char *s, char **out)
{
    if (!out)
        return JVMTI_ERROR_NONE;
    if (!s) {
        *out = NULL;
        return JVMTI_ERROR_NONE;
    }
    size_t n = strlen(s) + 1;
    unsigned char *mem = NULL;
    jvmtiError err = jvmti_impl_Allocate(env, (jlong)n, &mem);
    if (err == JVMTI_ERROR_NONE) {
        memcpy(mem, s, n);
        *out = (char *)mem;
    }
    return err;
}

jvmtiError jvmti_impl_GetClassSignature(jvmtiEnv *env, jclass klass, char **signature_ptr,
                                        char **generic_ptr)
{
    jvmtirt_class_info c;
    jvmtiError err = describe(klass, &c);
    if (err != JVMTI_ERROR_NONE)
        return err;
    /* Either pointer may be NULL (the agent does not want that string). */
    char *signature = NULL;
    err = copy_out(env, c.signature, signature_ptr ? &signature : NULL);
    if (err == JVMTI_ERROR_NONE)
        err = copy_out(env, c.generic, generic_ptr);
    if (err != JVMTI_ERROR_NONE) {
        jvmti_impl_Deallocate(env, (unsigned char *)signature);
        return err;
    }
    if (signature_ptr)
        *signature_ptr = signature;
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_GetClassStatus(jvmtiEnv *env, jclass klass, jint *status_ptr)
{
    (void)env;
    jvmtirt_class_info c;
    jvmtiError err = describe(klass, &c);
    if (err != JVMTI_ERROR_NONE)
        return err;
    if (is_primitive(&c))
        *status_ptr = JVMTI_CLASS_STATUS_PRIMITIVE;
    else if (is_array(&c))
        *status_ptr = JVMTI_CLASS_STATUS_ARRAY;
    else
        *status_ptr = c.status & (JVMTI_CLASS_STATUS_VERIFIED | JVMTI_CLASS_STATUS_PREPARED |
                                  JVMTI_CLASS_STATUS_INITIALIZED | JVMTI_CLASS_STATUS_ERROR);
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_GetClassModifiers(jvmtiEnv *env, jclass klass, jint *modifiers_ptr)
{
    (void)env;
    jvmtirt_class_info c;
    jvmtiError err = describe(klass, &c);
    if (err != JVMTI_ERROR_NONE)
        return err;
    /* Class.getModifiers() of a primitive class: public, final, abstract. */
    *modifiers_ptr = is_primitive(&c) ? ACC_PUBLIC | ACC_FINAL | ACC_ABSTRACT : c.modifiers;
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_GetSourceFileName(jvmtiEnv *env, jclass klass, char **source_name_ptr)
{
    jvmtirt_class_info c;
    jvmtiError err;
    /* A class handed over with its class file (members.c) says it itself. */
    if (rt_meta_source_file(env, klass, source_name_ptr, &err))
        return err;
    err = describe(klass, &c);
    if (err != JVMTI_ERROR_NONE)
        return err;
    /* Array and primitive classes have no class file to name a source. */
    if (!c.source_file || is_array(&c) || is_primitive(&c))
        return JVMTI_ERROR_ABSENT_INFORMATION;
    return copy_out(env, c.source_file, source_name_ptr);
}

jvmtiError jvmti_impl_IsInterface(jvmtiEnv *env, jclass klass, jboolean *is_interface_ptr)
{
    (void)env;
    jvmtirt_class_info c;
    jvmtiError err = describe(klass, &c);
    if (err != JVMTI_ERROR_NONE)
        return err;
    *is_interface_ptr = !is_array(&c) && !is_primitive(&c) && (c.modifiers & ACC_INTERFACE)
                            ? JNI_TRUE
                            : JNI_FALSE;
    return JVMTI_ERROR_NONE;
}

jvmtiError jvmti_impl_IsArrayClass(jvmtiEnv *env, jclass klass, jboolean *is_array_class_ptr)
{
    (void)env;
    jvmtirt_class_info c;
    jvmtiError err = describe(klass, &c);
    if (err != JVMTI_ERROR_NONE)
        return err;
    *is_array_class_ptr = is_array(&c) ? JNI_TRUE : JNI_FALSE;
    return JVMTI_ERROR_NONE;
}
