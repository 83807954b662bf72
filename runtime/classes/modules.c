/* Modules: GetAllModules, GetNamedModule, AddModuleReads, AddModuleExports,
 * AddModuleOpens, AddModuleUses, AddModuleProvides and IsModifiableModule
 * over the VM's each_module, named_module, module_info and module_update.
 * The core makes the spec's checks (in HotSpot's order: the module, the
 * other module, then the package) and leaves out the updates the spec
 * makes no-ops (an unnamed module; exports and opens of an open one), so
 * the VM only enumerates, describes and changes. No state. */
#include <stdlib.h>
#include <string.h>

#include "classes.h"
#include "jvmtigen_impl.h"
#include "rt.h"

static const rt_need needs[] = {
    {RT_SLOT(GetAllModules), {RT_OP(each_module)}},
    {RT_SLOT(GetNamedModule), {RT_OP(named_module)}},
    {RT_SLOT(AddModuleReads), {RT_OP(module_info), RT_OP(module_update)}},
    {RT_SLOT(AddModuleExports), {RT_OP(module_info), RT_OP(module_update)}},
    {RT_SLOT(AddModuleOpens), {RT_OP(module_info), RT_OP(module_update)}},
    {RT_SLOT(AddModuleUses), {RT_OP(module_info), RT_OP(module_update)}},
    {RT_SLOT(AddModuleProvides), {RT_OP(module_info), RT_OP(module_update)}},
    {RT_SLOT(IsModifiableModule), {RT_OP(module_info)}},
};

const rt_area rt_area_modules = {.needs = needs, .n_needs = sizeof needs / sizeof *needs};

jvmtiError jvmti_impl_GetAllModules(jvmtiEnv *env, jint *module_count_ptr, jobject **modules_ptr)
{
    if (!rt.config.each_module)
        return JVMTI_ERROR_NOT_AVAILABLE;
    rt_refs l = {0};
    jvmtiError err = rt.config.each_module(rt_refs_add, &l);
    return rt_refs_hand_over(env, &l, err, module_count_ptr, modules_ptr);
}

jvmtiError jvmti_impl_GetNamedModule(jvmtiEnv *env, jobject class_loader,
                                     const char *package_name, jobject *module_ptr)
{
    (void)env;
    if (!rt.config.named_module)
        return JVMTI_ERROR_NOT_AVAILABLE;
    jobject module = NULL;
    jvmtiError err = rt.config.named_module(class_loader, package_name, &module);
    if (err != JVMTI_ERROR_NONE) {
        rt_release_ref(module);
        return err;
    }
    *module_ptr = module;
    return JVMTI_ERROR_NONE;
}

/* module's info (package: the one the update names, or NULL):
 * INVALID_MODULE for NULL or what module_info refuses. */
static jvmtiError info_of(jobject module, const char *package, jvmtirt_module_info *out)
{
    memset(out, 0, sizeof *out);
    if (!rt.config.module_info || !rt.config.module_update)
        return JVMTI_ERROR_NOT_AVAILABLE;
    if (!module)
        return JVMTI_ERROR_INVALID_MODULE;
    return rt.config.module_info(module, package, out);
}

/* The checks every update makes, then the VM's update unless the spec
 * makes it a no-op. other: the second module (reads, exports, opens), else
 * NULL; package: exports and opens. */
static jvmtiError update(int kind, jobject module, jobject other, const char *package,
                         jclass service, jclass impl)
{
    jvmtirt_module_info m, o;
    jvmtiError err = info_of(module, package, &m);
    if (err == JVMTI_ERROR_NONE && (kind == JVMTIRT_MODULE_READS || package))
        err = info_of(other, NULL, &o);
    if (err != JVMTI_ERROR_NONE)
        return err;
    if (!m.named || (package && m.open))
        return JVMTI_ERROR_NONE; /* the spec: a no-op */
    if (package && !m.has_package)
        return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    if (!m.modifiable)
        return JVMTI_ERROR_UNMODIFIABLE_MODULE;
    return rt.config.module_update(kind, module, other, package, service, impl);
}

jvmtiError jvmti_impl_AddModuleReads(jvmtiEnv *env, jobject module, jobject to_module)
{
    (void)env;
    return update(JVMTIRT_MODULE_READS, module, to_module, NULL, NULL, NULL);
}

jvmtiError jvmti_impl_AddModuleExports(jvmtiEnv *env, jobject module, const char *pkg_name,
                                       jobject to_module)
{
    (void)env;
    return update(JVMTIRT_MODULE_EXPORTS, module, to_module, pkg_name, NULL, NULL);
}

jvmtiError jvmti_impl_AddModuleOpens(jvmtiEnv *env, jobject module, const char *pkg_name,
                                     jobject to_module)
{
    (void)env;
    return update(JVMTIRT_MODULE_OPENS, module, to_module, pkg_name, NULL, NULL);
}

jvmtiError jvmti_impl_AddModuleUses(jvmtiEnv *env, jobject module, jclass service)
{
    (void)env;
    return update(JVMTIRT_MODULE_USES, module, NULL, NULL, service, NULL);
}

jvmtiError jvmti_impl_AddModuleProvides(jvmtiEnv *env, jobject module, jclass service,
                                        jclass impl_class)
{
    (void)env;
    return update(JVMTIRT_MODULE_PROVIDES, module, NULL, NULL, service, impl_class);
}

jvmtiError jvmti_impl_IsModifiableModule(jvmtiEnv *env, jobject module,
                                         jboolean *is_modifiable_module_ptr)
{
    (void)env;
    if (!rt.config.module_info)
        return JVMTI_ERROR_NOT_AVAILABLE;
    if (!module)
        return JVMTI_ERROR_INVALID_MODULE;
    jvmtirt_module_info m;
    memset(&m, 0, sizeof m);
    jvmtiError err = rt.config.module_info(module, NULL, &m);
    if (err != JVMTI_ERROR_NONE)
        return err;
    /* The spec: always true for an unnamed module. */
    *is_modifiable_module_ptr = !m.named || m.modifiable ? JNI_TRUE : JNI_FALSE;
    return JVMTI_ERROR_NONE;
}
