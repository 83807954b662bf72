/* Who passes what to whom through a parameter or field, and what a JNI
 * reference in it is: facts of the model that `jvmtigen model` prints
 * ("direction", "reference", a struct's owner) and the docs state (the
 * local-reference notes), from one place. */
#ifndef JVMTIGEN_REFS_H
#define JVMTIGEN_REFS_H

#include <stdbool.h>

#include "model/model.h"

/* Where a parameter or field sits: what its direction and references mean
 * depend on who calls whom. */
typedef enum RefSite {
    SITE_FUNCTION, /* the agent calls the VM */
    SITE_CALLBACK, /* the VM calls the agent: events, heap callbacks */
    SITE_FIELD_IN, /* a field of a struct only ever passed in to functions */
    SITE_FIELD     /* a field of a struct the VM fills or hands to the agent */
} RefSite;

/* How a struct is passed (struct_uses): who owns its memory and the
 * references in its fields. */
enum {
    USE_IN = 1,           /* a function takes one in (inptr, inbuf) */
    USE_OUT = 2,          /* a function fills the caller's (outptr, outbuf) */
    USE_VM = 4,           /* a function passes it otherwise (the VM's memory) */
    USE_CALLBACK = 8,     /* a callback hands one to the agent */
    USE_IN_UNPASSED = 16, /* a field of a struct nothing passes */
};
/* Every way struct id is passed: directly, or inside a struct (its fields
 * go where it goes), up to 16 levels out. */
unsigned struct_uses(const Spec *s, const char *id);

/* The site of struct id's fields: only ever passed in, the references in
 * them are the caller's; else the VM's. */
RefSite field_site(const Spec *s, const char *id);

/* In a callback, an outptr nothing can be written through is a value the
 * VM passes in: an environment (JNIEnv*, jvmtiEnv*) or a void*. */
bool passed_in_value(const Type *t, RefSite site);

/* Whether the callee writes through it ("direction": "out"). */
bool writes_out(const Type *t, RefSite site);

/* What a JNI reference in it (a jobject, jclass, jthread or jthreadGroup,
 * itself or the elements it points to) is: "caller" (passed in, stays the
 * caller's), "local" (a new local reference of the calling thread, for the
 * agent to delete or keep as a global one), "callback-local" (valid until
 * the callback returns); NULL where it holds none. */
const char *reference_of(const Type *t, RefSite site);

#endif
