/* libFuzzer target: the runtime core's class-file reader
 * (runtime/classes/classfile.c, behind jvmtirt_class_define) on one
 * buffer. Checked beyond the sanitizers: a refusal is INVALID_CLASS_FORMAT
 * with a reason "byte N: ..." where N is within the input; a class read
 * has every member's name and descriptor, code of 1 to 65535 bytes or
 * none, and tables whose counts fit what the bytes could hold. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rt_classfile cf;
    char why[200];
    jvmtiError err = rt_classfile_read(data, size, &cf, why, sizeof why);
    if (err == JVMTI_ERROR_OUT_OF_MEMORY)
        return 0;
    if (err != JVMTI_ERROR_NONE) {
        unsigned long at;
        if (err != JVMTI_ERROR_INVALID_CLASS_FORMAT || sscanf(why, "byte %lu: ", &at) != 1 ||
            at > size || !strchr(why, ':')[1]) {
            fprintf(stderr, "classfile_fuzz: error %d, reason \"%s\"\n", (int)err, why);
            abort();
        }
        if (cf.blocks || cf.desc.n_methods)
            abort(); /* a refusal leaves nothing */
        return 0;
    }
    const jvmtirt_class_desc *d = &cf.desc;
    for (jint i = 0; i < d->n_methods; i++) {
        const jvmtirt_method_desc *m = &d->methods[i];
        if (!m->name || !m->signature ||
            (m->code && (m->code_length < 1 || m->code_length > 65535)) ||
            (!m->code && m->code_length) || m->n_lines < -1 || (size_t)(m->n_lines + 1) > size ||
            m->n_locals < -1 || (size_t)(m->n_locals + 1) > size)
            abort();
        for (jint k = 0; k < m->n_locals; k++)
            if (!m->locals[k].name || !m->locals[k].signature)
                abort();
    }
    for (jint i = 0; i < d->n_fields; i++)
        if (!d->fields[i].name || !d->fields[i].signature)
            abort();
    rt_classfile_free(&cf);
    return 0;
}
