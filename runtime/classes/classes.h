/* classes.h: the classes and metadata area (classes.c, classinfo.c,
 * prefixes.c, jnitable.c, loadersearch.c, redefine.c): the areas' hooks for the
 * lifecycle's table. Locks: base/rt.h. */
#ifndef JVMTIRT_CLASSES_H
#define JVMTIRT_CLASSES_H

#include "rt.h"

extern const rt_area rt_area_classes, rt_area_classinfo, rt_area_prefixes, rt_area_jnitable,
    rt_area_loadersearch, rt_area_redefine;

#endif
