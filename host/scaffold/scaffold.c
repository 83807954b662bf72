/* The test scaffolding's one table of hooks (../hooks.h), registered
 * before main runs: the options only tests need, and where each enters the
 * reference VM's life. */
#include <string.h>

#include "jvmtigen_tables.h"
#include "scaffold.h"

static int all_capabilities; /* -all-capabilities */

static int option(const char *arg)
{
    static const struct {
        const char *name;
        int (*parse)(const char *value);
    } options[] = {
        {"-soak:", soak_option},
        {"-work:", work_option},
        {"-heap:", heap_model_option},
        {"-dump-classes:", dump_option},
    };
    if (strcmp(arg, "-all-capabilities") == 0)
        return all_capabilities = 1;
    for (size_t i = 0; i < sizeof options / sizeof *options; i++) {
        size_t n = strlen(options[i].name);
        if (strncmp(arg, options[i].name, n) == 0) {
            return options[i].parse(arg + n) ? 1 : -1;
        }
    }
    return 0;
}

/* -all-capabilities: every capability potential, the ones whose functions
 * the VM does not implement too (they answer NOT_AVAILABLE once the
 * generated trampolines' checks pass: how tests/conformance reaches
 * them); the heap model around the VM's heap. */
static void configure(jvmtirt_config *c)
{
    heap_model_configure(c);
    if (!all_capabilities)
        return;
    for (int b = 0; b < JVMTIRT_CAPABILITY_COUNT; b++)
        jvmtirt_capability_set(&c->potential, b, 1);
    c->offer_defaults = 1;
}

static void initialized(void)
{
    heap_model_describe();
    if (soak_on())
        soak_setup();
}

static int live(host_thread *main_thread) { return heap_model_build(main_thread); }

static void workers_start(void)
{
    if (soak_on())
        soak_begin();
}

/* A worker's "work": its program, or under -soak events in a loop; then
 * -work's Java code. */
static void worker(host_thread *t, void (*program)(host_thread *t))
{
    if (soak_on())
        soak_work(t);
    else
        program(t);
    work_run(t);
}

static void workers_running(int (*running)(void))
{
    if (soak_on())
        soak_watch(running);
}

static int vm_death(void) { return soak_on() ? soak_end() : 0; }

static const host_hooks hooks = {
    .usage = "Test scaffolding (host/scaffold/README.md):\n"
             "-all-capabilities offers every capability (the functions the host does\n"
             "not implement still answer NOT_AVAILABLE once their checks pass).\n"
             "With -soak the threads post ClassLoad, ClassPrepare, DataDumpRequest and\n"
             "garbage collection events for that many seconds, and the host checks that\n"
             "the core's memory returns to where it was.\n"
             "With -work each thread runs \"Java code\" for that many seconds, stopping\n"
             "at its safe points while an agent has it suspended.\n"
             "-dump-classes:DIR writes the bytes each class was defined with, after the\n"
             "agents' changes, to DIR/NAME.class.\n"
             "-heap:N builds the heap model (a HeapRoot holding N HeapNodes, an int[]\n"
             "and a String) before VMInit, for the heap walks.\n",
    .option = option,
    .configure = configure,
    .initialized = initialized,
    .live = live,
    .class_bytes = dump_class,
    .class_by_name = heap_model_find_class,
    .class_of = heap_model_class_of,
    .workers_start = workers_start,
    .worker = worker,
    .workers_running = workers_running,
    .vm_death = vm_death,
};

/* Linked into bin/jvmti-host, the scaffolding is there before main runs;
 * the installed example, built without it, has no hooks. */
__attribute__((constructor)) static void register_hooks(void) { host_hooks_register(&hooks); }
