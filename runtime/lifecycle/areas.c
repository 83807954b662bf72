/* The table of areas: each area's hooks (base/rt.h's rt_area), in the order
 * the lifecycle calls them. Shutdown frees the frames areas' requests
 * first, as they were set, and the raw monitors last. A new area adds its
 * line here and nowhere else. */
#include "classes.h"
#include "envs.h"
#include "lifecycle.h"
#include "objects.h"
#include "threads.h"

const rt_area *const rt_areas[] = {
    &rt_area_breakpoints,    /* threads/ */
    &rt_area_framepops,      /* threads/ */
    &rt_area_locals,         /* threads/ */
    &rt_area_prefixes,       /* classes/ */
    &rt_area_jnitable,       /* classes/ */
    &rt_area_loadersearch,   /* classes/ */
    &rt_area_tags,           /* objects/ */
    &rt_area_thread_storage, /* threads/ */
    &rt_area_heap,           /* objects/ */
    &rt_area_objectinfo,     /* objects/ */
    &rt_area_stacks,         /* threads/ */
    &rt_area_threadinfo,     /* threads/ */
    &rt_area_suspend,        /* threads/ */
    &rt_area_groups,         /* threads/ */
    &rt_area_javamonitors,   /* threads/ */
    &rt_area_classes,        /* classes/ */
    &rt_area_classinfo,      /* classes/ */
    &rt_area_redefine,       /* classes/ */
    &rt_area_members,        /* classes/ */
    &rt_area_modules,        /* classes/ */
    &rt_area_props,          /* envs/ */
    &rt_area_monitor,        /* threads/ */
    NULL,
};
