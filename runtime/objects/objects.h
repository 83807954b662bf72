/* objects.h: the objects and heap area (tags.c, heap.c, objectinfo.c):
 * what its files share, and their hooks for the lifecycle's table. */
#ifndef JVMTIRT_OBJECTS_H
#define JVMTIRT_OBJECTS_H

#include "rt.h"

/* The object's identity (config.object_id, or the reference's value); 0
 * for NULL or what is no object. The tag map's key (tags.c). */
uintptr_t rt_object_identity(jobject object);
/* The environment's tag of the object with that identity (0: none), and
 * setting it (0 removes it); for the heap walks. No lock held by the caller. */
jlong rt_tag_get(rt_env *e, uintptr_t key);
jvmtiError rt_tag_put(rt_env *e, uintptr_t key, jlong tag);

extern const rt_area rt_area_tags, rt_area_heap, rt_area_objectinfo;

#endif
