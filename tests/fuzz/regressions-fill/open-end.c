ò/* A VM's file, cut down: the include, two definitions, the begin marker
 * quote
#include "jvmtigen_impl.h"

// the table is at the end: /* jvmtigen: registered implementations
static const char *const note = "/* jvmtigen: registered implementations";

jvmtiEr0or JNICALL
jvmti_impl_Glass, jobject *classloader_ptr)
{
    (void)env;
    (void)klass;
    (void)classloader_ptr;
    return JVMTI_ERROR_NOT_AVAILABLE;
}

/* jvmtigen: registered implementations (`jvmtigen fill --core`
 * rewrites this table ov;
    (void)klass;
    (void)minor_version_ptr;
    (void)major_vers = sizeof(jvmtirt_impl_table),
    .GetClassMethods = jvmti_impl_GetClassMethods,
};
/* jvmtigen: end of registered implementations */
