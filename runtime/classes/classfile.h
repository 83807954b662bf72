/* classfile.h: the core's class-file reader (classfile.c). It reads only
 * what the metadata functions answer (members.c) into a jvmtirt_class_desc
 * whose strings and tables the reader owns; every offset and index is
 * checked against the bytes, so bad bytes are an error, never a read past
 * the end. */
#ifndef JVMTIRT_CLASSFILE_H
#define JVMTIRT_CLASSFILE_H

#include <stddef.h>

#include "jvmtirt.h"

typedef struct rt_classfile {
    jvmtirt_class_desc desc;      /* methods and fields: the arrays below */
    jvmtirt_method_desc *methods; /* the IDs left 0 for the caller to fill */
    jvmtirt_field_desc *fields;
    void **blocks; /* everything else the reader allocated */
    size_t n_blocks, cap_blocks;
} rt_classfile;

/* Reads bytes[0..len) into *cf (zeroed first). JVMTI_ERROR_NONE, or
 * INVALID_CLASS_FORMAT with "byte N: reason" in why, or OUT_OF_MEMORY;
 * on error nothing is left to free. */
jvmtiError rt_classfile_read(const unsigned char *bytes, size_t len, rt_classfile *cf, char *why,
                             size_t why_size);
void rt_classfile_free(rt_classfile *cf);

#endif
