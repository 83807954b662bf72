/* The host's heap: plain java/lang/Object instances made by JNI AllocObject
 * and the strings JNI makes (jni_strings.c, their text after the object),
 * kept alive by their references, and a collector that frees the ones no
 * reference holds and tells the core (jvmtirt_objects_freed), which posts
 * ObjectFree for the tagged ones.
 *
 * A reference is the object's address (so the core's default identity, the
 * reference's value, is right: the host gives no object_id operation). The
 * host has no stack frames: every reference counts, local or global, until
 * JNI deletes it. The collector runs when an agent calls
 * ForceGarbageCollection, and at exit. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "jvmtigen_impl.h"
#include "jvmtigen_post.h"
#include "jvmtirt.h"

typedef struct host_plain {
    host_object obj; /* HOST_OBJECT, HOST_STRING */
    long refs;       /* under heap_lock */
    struct host_plain *next;
    char text[];     /* a string's modified UTF-8 */
} host_plain;

static pthread_mutex_t heap_lock = PTHREAD_MUTEX_INITIALIZER;
static host_plain *heap;

static host_plain *plain_of(jobject ref)
{
    host_object *o = (host_object *)ref;
    return o && (o->kind == HOST_OBJECT || o->kind == HOST_STRING) ? (host_plain *)o : NULL;
}

jobject host_object_new(void) { return host_object_new_string(NULL, 0); }

jobject host_object_new_string(const char *text, size_t len)
{
    size_t n = text ? len + 1 : 0;
    host_plain *p = calloc(1, sizeof *p + n);
    if (!p)
        return NULL;
    p->obj.kind = text ? HOST_STRING : HOST_OBJECT;
    if (text)
        memcpy(p->text, text, len); /* calloc wrote the terminating NUL */
    p->refs = 1; /* the local reference AllocObject returns */
    pthread_mutex_lock(&heap_lock);
    p->next = heap;
    heap = p;
    pthread_mutex_unlock(&heap_lock);
    return (jobject)&p->obj;
}

const char *host_object_text(jobject ref)
{
    host_object *o = (host_object *)ref;
    return o && o->kind == HOST_STRING ? ((host_plain *)o)->text : NULL;
}

void host_ref_add(jobject ref)
{
    host_plain *p = plain_of(ref);
    if (!p)
        return; /* threads, classes, strings live as long as the host */
    pthread_mutex_lock(&heap_lock);
    p->refs++;
    pthread_mutex_unlock(&heap_lock);
}

void host_ref_drop(jobject ref)
{
    host_plain *p = plain_of(ref);
    if (!p)
        return;
    pthread_mutex_lock(&heap_lock);
    if (p->refs > 0)
        p->refs--;
    pthread_mutex_unlock(&heap_lock);
}

/* The core's object_ref operation: GetObjectsWithTags' local references. */
jobject host_object_ref(uintptr_t id)
{
    host_ref_add((jobject)id);
    return (jobject)id;
}

/* Frees every object no reference holds. The core hears of them before
 * their memory can be reused. (At exit nothing is freed: host/README.md.) */
static void collect(void)
{
    pthread_mutex_lock(&heap_lock);
    host_plain *dead = NULL;
    for (host_plain **link = &heap; *link;) {
        host_plain *p = *link;
        if (p->refs == 0) {
            *link = p->next;
            p->next = dead;
            dead = p;
        } else {
            link = &p->next;
        }
    }
    pthread_mutex_unlock(&heap_lock);
    int n = 0;
    for (host_plain *p = dead; p; p = p->next)
        n++;
    uintptr_t *ids = n ? malloc((size_t)n * sizeof *ids) : NULL;
    int i = 0;
    for (host_plain *p = dead; p && ids; p = p->next)
        ids[i++] = (uintptr_t)&p->obj;
    if (ids) {
        jvmtirt_objects_freed(ids, (size_t)n);
    } else { /* no memory for the batch: one by one */
        for (host_plain *p = dead; p; p = p->next) {
            uintptr_t id = (uintptr_t)&p->obj;
            jvmtirt_objects_freed(&id, 1);
        }
    }
    free(ids);
    for (host_plain *p = dead, *next; p; p = next) {
        next = p->next;
        free(p);
    }
}

/* ForceGarbageCollection: the VM function (registered in the host's
 * jvmtirt_impl_table), with the events around it. */
jvmtiError host_force_gc(jvmtiEnv *env)
{
    (void)env;
    jvmtirt_post_GarbageCollectionStart();
    collect();
    jvmtirt_post_GarbageCollectionFinish();
    return JVMTI_ERROR_NONE;
}

/* The heap walks' pause: the walking thread holds heap_lock from
 * heap_pause(1) to heap_pause(0), so no collection or allocation happens
 * in between (during a walk the spec wants the heap frozen). */
void host_heap_hold(int on)
{
    if (on)
        pthread_mutex_lock(&heap_lock);
    else
        pthread_mutex_unlock(&heap_lock);
}

void host_plain_each(int referenced_only, int (*fn)(void *ctx, uintptr_t id), void *ctx)
{
    for (host_plain *p = heap; p; p = p->next)
        if ((!referenced_only || p->refs > 0) && fn(ctx, (uintptr_t)&p->obj))
            return;
}
