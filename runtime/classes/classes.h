/* classes.h: the classes and metadata area (classes.c, classinfo.c,
 * members.c, classfile.c, prefixes.c, jnitable.c, loadersearch.c, redefine.c): the areas' hooks for the
 * lifecycle's table. Locks: base/rt.h. */
#ifndef JVMTIRT_CLASSES_H
#define JVMTIRT_CLASSES_H

#include "rt.h"

extern const rt_area rt_area_classes, rt_area_classinfo, rt_area_prefixes, rt_area_jnitable,
    rt_area_loadersearch, rt_area_redefine, rt_area_members, rt_area_modules;

/* GetSourceFileName of a class handed over (members.c): 1 and *err set
 * (the name copied to *out) if the core has the class, 0 if not. */
int rt_meta_source_file(jvmtiEnv *env, jclass klass, char **out, jvmtiError *err);

#endif
