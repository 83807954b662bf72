/* A program of a project that embeds jvmtigen in its build: it includes the
 * generated jvmti.h and links the generated jvmtigen_tables.c, so it changes
 * when the spec does. Prints facts the test compares with the spec. */
#include <stdio.h>

#include "jvmti.h"
#include "jvmtigen_tables.h"

int main(void)
{
    printf("version 0x%08x\n", (unsigned)JVMTI_VERSION);
    printf("%d %s\n", (int)JVMTI_ERROR_INVALID_THREAD, jvmtigen_error_name(JVMTI_ERROR_INVALID_THREAD));
    printf("can_tag_objects is capability %d\n", jvmtigen_capability_bit("can_tag_objects"));
    return 0;
}
