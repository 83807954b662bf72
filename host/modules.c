/* Modules (runtime/README.md, "Modules"): the core's each_module,
 * named_module, module_info and module_update over the host's two modules:
 * java.base, named, holding the package java/lang (where the host's
 * java/lang classes are), and the unnamed module of the bootstrap loader
 * (Main, ConfChain). Both are modifiable; the host has no class loader
 * objects, so GetNamedModule of any loader but the bootstrap one is
 * ILLEGAL_ARGUMENT. An update changes nothing the host runs: it is printed,
 * "jvmti-host: module java.base: reads unnamed", so a test sees what the
 * core asked for. */
#include <stdio.h>
#include <string.h>

#include "host.h"

typedef struct host_module {
    host_object obj; /* HOST_MODULE */
    const char *name; /* "unnamed" for the unnamed one */
    const char *package; /* its one package, or NULL */
} host_module;

static host_module modules[] = {
    {{HOST_MODULE}, "java.base", "java/lang"},
    {{HOST_MODULE}, "unnamed", NULL},
};

static host_module *module_of(jobject ref)
{
    host_object *o = (host_object *)(void *)ref;
    return o && o->kind == HOST_MODULE ? (host_module *)o : NULL;
}

static jvmtiError each_module(int (*visit)(void *arg, jobject module), void *arg)
{
    for (size_t i = 0; i < sizeof modules / sizeof *modules; i++)
        if (visit(arg, (jobject)&modules[i].obj))
            break;
    return JVMTI_ERROR_NONE;
}

static jvmtiError named_module(jobject class_loader, const char *package, jobject *module)
{
    if (class_loader)
        return JVMTI_ERROR_ILLEGAL_ARGUMENT; /* no class loader objects here */
    *module = strcmp(package, modules[0].package) == 0 ? (jobject)&modules[0].obj : NULL;
    return JVMTI_ERROR_NONE;
}

static jvmtiError module_info(jobject module, const char *package, jvmtirt_module_info *out)
{
    host_module *m = module_of(module);
    if (!m)
        return JVMTI_ERROR_INVALID_MODULE;
    out->named = m->package != NULL;
    out->open = JNI_FALSE;
    out->modifiable = JNI_TRUE;
    out->has_package = package && m->package && strcmp(package, m->package) == 0;
    return JVMTI_ERROR_NONE;
}

static jvmtiError module_update(int kind, jobject module, jobject other, const char *package,
                                jclass service, jclass impl)
{
    static const char *const what[] = {"?", "reads", "exports", "opens", "uses", "provides"};
    const host_module *m = module_of(module), *o = module_of(other);
    printf("jvmti-host: module %s: %s", m->name, what[kind >= 1 && kind <= 5 ? kind : 0]);
    if (package)
        printf(" %s to", package);
    if (o)
        printf(" %s", o->name);
    if (service)
        printf(" %s", ((const host_class *)(void *)service)->name);
    if (impl)
        printf(" with %s", ((const host_class *)(void *)impl)->name);
    printf("\n");
    fflush(stdout);
    return JVMTI_ERROR_NONE;
}

void host_modules_configure(jvmtirt_config *c)
{
    c->each_module = each_module;
    c->named_module = named_module;
    c->module_info = module_info;
    c->module_update = module_update;
}
