/* libFuzzer target: the spec loader (libxml2 with jvmtigen's guarded
 * entity loader, DTD validation), the model builder and the model checks,
 * on one buffer. Nothing is written. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Vec deps = {0};
    xmlDocPtr doc = NULL;
    Spec *spec = NULL;
    int errors = fuzz_load(data, size, &doc, &spec, &deps);
    fuzz_end(doc, spec, &deps, errors);
    return 0;
}
