/* modules.c: unit tests of the module functions (runtime/classes/modules.c)
 * through real function tables: GetAllModules and GetNamedModule over a
 * VM's enumeration and lookup; the AddModule* updates checked in the spec's
 * terms (INVALID_MODULE for either module, ILLEGAL_ARGUMENT for a package
 * not in the module, UNMODIFIABLE_MODULE), made no-ops where the spec says
 * (an unnamed module; exports and opens of an open module) and otherwise
 * handed to the VM once; IsModifiableModule true for an unnamed module
 * whatever the VM says; a VM without the operations (NOT_AVAILABLE,
 * reported) or built before them. This program plays the VM; expected
 * values are written by hand from the spec and the model below. */
#define _POSIX_C_SOURCE 200809L

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "jvmtigen_tables.h"
#include "jvmtirt.h"

#define TAP_PREFIX "modules: "
#include "tap.h"
#include "defaults.h"

#define EXPECT(got, want, ...) TAP_CHECK_EQ(got, want, __VA_ARGS__)

/* NAMED (package p/a), OPEN (an open module, p/o), FIXED (unmodifiable,
 * p/f), UNNAMED (the VM says it is not modifiable: the core answers true). */
enum { NAMED, OPEN, FIXED, UNNAMED, N_MODULES };
static const char *const packages[N_MODULES] = {"p/a", "p/o", "p/f", NULL};
static char module_objs[N_MODULES], loader_obj, not_a_module, a_class, another_class;
#define M(i) ((jobject)(void *)&module_objs[i])

static int module_no(jobject o)
{
    char *p = (char *)(void *)o;
    return p >= module_objs && p < module_objs + N_MODULES ? (int)(p - module_objs) : -1;
}

static jvmtiError each_module(int (*visit)(void *, jobject), void *arg)
{
    for (int i = 0; i < N_MODULES; i++)
        if (visit(arg, M(i)))
            break;
    return JVMTI_ERROR_NONE;
}

static jvmtiError named_module(jobject loader, const char *package, jobject *module)
{
    if (loader && loader != (jobject)(void *)&loader_obj)
        return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    *module = NULL;
    for (int i = 0; i < N_MODULES; i++)
        if (packages[i] && strcmp(packages[i], package) == 0 && !loader)
            *module = M(i);
    return JVMTI_ERROR_NONE;
}

static jvmtiError module_info(jobject module, const char *package, jvmtirt_module_info *out)
{
    int m = module_no(module);
    if (m < 0)
        return JVMTI_ERROR_INVALID_MODULE;
    out->named = m != UNNAMED;
    out->open = m == OPEN;
    out->modifiable = m != FIXED && m != UNNAMED;
    out->has_package = package && packages[m] && strcmp(package, packages[m]) == 0;
    return JVMTI_ERROR_NONE;
}

/* What the VM was asked to do: how often, and the last request. */
static struct {
    int calls, kind;
    jobject module, other;
    const char *package;
    jclass service, impl;
} last;

static jvmtiError module_update(int kind, jobject module, jobject other, const char *package,
                                jclass service, jclass impl)
{
    last.calls++;
    last.kind = kind;
    last.module = module;
    last.other = other;
    last.package = package;
    last.service = service;
    last.impl = impl;
    return JVMTI_ERROR_NONE;
}

static void core_up(size_t size, int with_ops)
{
    jvmtirt_config c = JVMTIRT_CONFIG_INIT;
    c.size = size;
    if (with_ops) {
        c.each_module = each_module;
        c.named_module = named_module;
        c.module_info = module_info;
        c.module_update = module_update;
    }
    if (jvmtirt_init(&c) != JVMTI_ERROR_NONE)
        tap_line(0, "jvmtirt_init refused the config");
    jvmtirt_set_phase(JVMTI_PHASE_PRIMORDIAL);
    jvmtirt_thread_start((uintptr_t)&loader_obj, JVMTIRT_JAVA_THREAD); /* any id will do */
    jvmtirt_set_phase(JVMTI_PHASE_START);
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
}

static void core_down(void)
{
    jvmtirt_thread_end();
    jvmtirt_set_phase(JVMTI_PHASE_DEAD);
    jvmtirt_shutdown();
}

static jvmtiEnv *new_env(void)
{
    jvmtiEnv *e = NULL;
    jvmtirt_get_env((void **)&e, JVMTI_VERSION);
    return e;
}

/* Calls the VM did not get since the last look. */
static int updates(void)
{
    int n = last.calls;
    last.calls = 0;
    return n;
}

static void section_lists(jvmtiEnv *e)
{
    jint n = -1;
    jobject *all = NULL;
    EXPECT((*e)->GetAllModules(e, &n, &all), JVMTI_ERROR_NONE, "GetAllModules");
    EXPECT(n == N_MODULES && all[0] == M(NAMED) && all[3] == M(UNNAMED), 1,
           "... the four, the unnamed one included, in the VM's order");
    (*e)->Deallocate(e, (unsigned char *)all);
    jobject m = NULL;
    EXPECT((*e)->GetNamedModule(e, NULL, "p/o", &m), JVMTI_ERROR_NONE, "GetNamedModule(NULL, p/o)");
    EXPECT(m == M(OPEN), 1, "... the open module");
    m = M(NAMED);
    EXPECT((*e)->GetNamedModule(e, (jobject)(void *)&loader_obj, "p/o", &m), JVMTI_ERROR_NONE,
           "GetNamedModule of another loader");
    EXPECT(m == NULL, 1, "... none there: NULL");
    EXPECT((*e)->GetNamedModule(e, (jobject)(void *)&not_a_module, "p/o", &m),
           JVMTI_ERROR_ILLEGAL_ARGUMENT, "GetNamedModule of no class loader: the VM's ILLEGAL_ARGUMENT");
}

static void section_modifiable(jvmtiEnv *e)
{
    jboolean b = JNI_FALSE;
    EXPECT((*e)->IsModifiableModule(e, M(NAMED), &b) == JVMTI_ERROR_NONE && b, 1,
           "IsModifiableModule(named): true");
    b = JNI_TRUE;
    EXPECT((*e)->IsModifiableModule(e, M(FIXED), &b) == JVMTI_ERROR_NONE && !b, 1,
           "IsModifiableModule(fixed): false");
    b = JNI_FALSE;
    EXPECT((*e)->IsModifiableModule(e, M(UNNAMED), &b) == JVMTI_ERROR_NONE && b, 1,
           "IsModifiableModule(unnamed): true, whatever the VM says (the spec)");
    EXPECT((*e)->IsModifiableModule(e, (jobject)(void *)&not_a_module, &b),
           JVMTI_ERROR_INVALID_MODULE, "IsModifiableModule(no module): INVALID_MODULE");
}

static void section_updates(jvmtiEnv *e)
{
    jobject nm = (jobject)(void *)&not_a_module;
    jclass svc = (jclass)(void *)&a_class, impl = (jclass)(void *)&another_class;
    updates();
    EXPECT((*e)->AddModuleReads(e, M(NAMED), M(UNNAMED)), JVMTI_ERROR_NONE, "AddModuleReads(named, unnamed)");
    EXPECT(updates() == 1 && last.kind == JVMTIRT_MODULE_READS && last.module == M(NAMED) &&
               last.other == M(UNNAMED) && !last.package,
           1, "... handed to the VM once, as READS");
    EXPECT((*e)->AddModuleReads(e, M(UNNAMED), M(NAMED)), JVMTI_ERROR_NONE,
           "AddModuleReads(unnamed, named)");
    EXPECT(updates(), 0, "... a no-op: the VM is not asked");
    EXPECT((*e)->AddModuleReads(e, nm, M(NAMED)), JVMTI_ERROR_INVALID_MODULE,
           "AddModuleReads(no module, named): INVALID_MODULE");
    EXPECT((*e)->AddModuleReads(e, M(UNNAMED), nm), JVMTI_ERROR_INVALID_MODULE,
           "AddModuleReads(unnamed, no module): INVALID_MODULE, though a no-op otherwise");
    EXPECT((*e)->AddModuleReads(e, M(FIXED), M(NAMED)), JVMTI_ERROR_UNMODIFIABLE_MODULE,
           "AddModuleReads(fixed, named): UNMODIFIABLE_MODULE");
    EXPECT(updates(), 0, "... none of those reached the VM");

    EXPECT((*e)->AddModuleExports(e, M(NAMED), "p/a", M(UNNAMED)), JVMTI_ERROR_NONE,
           "AddModuleExports(named, p/a, unnamed)");
    EXPECT(updates() == 1 && last.kind == JVMTIRT_MODULE_EXPORTS && last.package &&
               strcmp(last.package, "p/a") == 0 && last.other == M(UNNAMED),
           1, "... handed to the VM as EXPORTS of p/a");
    EXPECT((*e)->AddModuleExports(e, M(NAMED), "p/x", M(UNNAMED)), JVMTI_ERROR_ILLEGAL_ARGUMENT,
           "AddModuleExports of a package not in the module: ILLEGAL_ARGUMENT");
    EXPECT((*e)->AddModuleExports(e, M(NAMED), "p/a", nm), JVMTI_ERROR_INVALID_MODULE,
           "AddModuleExports to no module: INVALID_MODULE");
    EXPECT((*e)->AddModuleExports(e, M(FIXED), "p/f", M(NAMED)), JVMTI_ERROR_UNMODIFIABLE_MODULE,
           "AddModuleExports(fixed, p/f): UNMODIFIABLE_MODULE");
    EXPECT((*e)->AddModuleExports(e, M(OPEN), "p/o", M(NAMED)), JVMTI_ERROR_NONE,
           "AddModuleExports(open, p/o): a no-op");
    EXPECT((*e)->AddModuleOpens(e, M(UNNAMED), "p/x", M(NAMED)), JVMTI_ERROR_NONE,
           "AddModuleOpens(unnamed, p/x): a no-op");
    EXPECT(updates(), 0, "... none of those reached the VM");
    EXPECT((*e)->AddModuleOpens(e, M(NAMED), "p/a", M(OPEN)), JVMTI_ERROR_NONE,
           "AddModuleOpens(named, p/a, open)");
    EXPECT(updates() == 1 && last.kind == JVMTIRT_MODULE_OPENS && last.other == M(OPEN), 1,
           "... handed to the VM as OPENS");

    EXPECT((*e)->AddModuleUses(e, M(NAMED), svc), JVMTI_ERROR_NONE, "AddModuleUses(named, a class)");
    EXPECT(updates() == 1 && last.kind == JVMTIRT_MODULE_USES && last.service == svc && !last.impl, 1,
           "... handed to the VM as USES");
    EXPECT((*e)->AddModuleProvides(e, M(NAMED), svc, impl), JVMTI_ERROR_NONE,
           "AddModuleProvides(named, a class, another)");
    EXPECT(updates() == 1 && last.kind == JVMTIRT_MODULE_PROVIDES && last.service == svc &&
               last.impl == impl,
           1, "... handed to the VM as PROVIDES");
    EXPECT((*e)->AddModuleUses(e, M(UNNAMED), svc), JVMTI_ERROR_NONE, "AddModuleUses(unnamed): a no-op");
    EXPECT((*e)->AddModuleProvides(e, nm, svc, impl), JVMTI_ERROR_INVALID_MODULE,
           "AddModuleProvides(no module): INVALID_MODULE");
    EXPECT((*e)->AddModuleUses(e, M(FIXED), svc), JVMTI_ERROR_UNMODIFIABLE_MODULE,
           "AddModuleUses(fixed): UNMODIFIABLE_MODULE");
    EXPECT(updates(), 0, "... none of those reached the VM");
}

int main(void)
{
    core_up(sizeof(jvmtirt_config), 1);
    jvmtiEnv *e = new_env();
    section_lists(e);
    section_modifiable(e);
    section_updates(e);
    (*e)->DisposeEnvironment(e);
    core_down();

    core_up(sizeof(jvmtirt_config), 0);
    e = new_env();
    jint n;
    jobject *all;
    EXPECT((*e)->GetAllModules(e, &n, &all), JVMTI_ERROR_NOT_AVAILABLE,
           "no operations: GetAllModules answers NOT_AVAILABLE");
    EXPECT((*e)->AddModuleReads(e, M(NAMED), M(UNNAMED)), JVMTI_ERROR_NOT_AVAILABLE,
           "... AddModuleReads too");
    EXPECT(defaults_reported("function GetAllModules answers", "config.each_module") &&
               defaults_reported("function AddModuleExports answers", "config.module_info") &&
               defaults_reported("function IsModifiableModule answers", "config.module_info"),
           1, "... and jvmtirt_report_defaults names them, with their operations");
    (*e)->DisposeEnvironment(e);
    core_down();

    core_up(offsetof(jvmtirt_config, each_module), 1);
    e = new_env();
    jobject m;
    EXPECT((*e)->GetNamedModule(e, NULL, "p/a", &m), JVMTI_ERROR_NOT_AVAILABLE,
           "a config built before the operations: GetNamedModule answers NOT_AVAILABLE");
    (*e)->DisposeEnvironment(e);
    core_down();
    return tap_failures ? 1 : 0;
}
