/* The parts of the host's JNI table (jni.c builds it): each fills the
 * slots of what it holds, and what the others share. */
#ifndef JVMTI_HOST_JNI_PARTS_H
#define JVMTI_HOST_JNI_PARTS_H

#include "host.h"

void host_jni_refs_fill(struct JNINativeInterface_ *t);    /* jni_refs.c */
void host_jni_strings_fill(struct JNINativeInterface_ *t); /* jni_strings.c */
void host_jni_classes_fill(struct JNINativeInterface_ *t); /* jni_classes.c */
void host_jni_calls_fill(struct JNINativeInterface_ *t);   /* jni_calls.c */

/* Strings (jni_strings.c; host_string_new, which makes one, is in
 * host.h): the modified UTF-8 of one (NULL when str is not a string). */
const char *host_string_utf(jobject str);
/* Classes (jni_classes.c): one of the host's by its internal name (NULL
 * if none), and an object's class. */
jclass host_find_class(const char *name);
jclass host_object_class(jobject obj);

#endif
