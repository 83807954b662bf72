/* The command line: the agents, the workers, the classes to load, the
 * program to run; an option the VM does not know goes to the test hooks
 * (hooks.h), which may take it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hooks.h"
#include "host.h"

static void usage(void)
{
    fputs("usage: jvmti-host [-agentpath:PATH[=OPTIONS]]... [-agentlib:NAME[=OPTIONS]]...\n"
          "                  [-threads:N] [-load:FILE]... [OPTION]... [-cp DIR CLASS | CLASS]\n"
          "Loads each agent (-agentlib:NAME: JAVA_HOME's lib/libNAME.so, see README.md),\n"
          "walks the VM phases, runs N threads (default 2) and\n"
          "posts VMStart, VMInit, ThreadStart, ThreadEnd and VMDeath.\n"
          "-load:FILE loads a class file once the VM is live (ClassFileLoadHook,\n"
          "ClassLoad, ClassPrepare).\n"
          "-cp DIR CLASS loads DIR/CLASS.class once the VM is live and interprets its\n"
          "main(String[]) (a subset of the JVM's instructions, host/interp.c) instead\n"
          "of the built-in Main.main chain; without -cp, CLASS is ignored.\n",
          stderr);
    const char *more = host_hooks_get()->usage;
    if (more)
        fputs(more, stderr);
}

static int parse(int argc, char **argv, host_options *o)
{
    const host_hooks *h = host_hooks_get();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "-agentpath:", 11) == 0 || strncmp(a, "-agentlib:", 10) == 0) {
            host_agent *ag = &o->agents[o->n_agents++];
            ag->by_name = a[6] == 'l';
            ag->path = strdup(strchr(a, ':') + 1);
            char *eq = strchr(ag->path, '=');
            if (eq) {
                *eq = '\0';
                ag->options = eq + 1;
            }
        } else if (strncmp(a, "-threads:", 9) == 0) {
            o->n_threads = atoi(a + 9);
            if (o->n_threads < 0 || o->n_threads > 1000)
                return 0;
        } else if (strncmp(a, "-load:", 6) == 0) {
            host_classes_add_file(a + 6);
        } else if ((strcmp(a, "-cp") == 0 || strcmp(a, "-classpath") == 0) && i + 1 < argc) {
            o->class_path = argv[++i];
        } else if (a[0] == '-') {
            if (!h->option || h->option(a) != 1)
                return 0;
        } else if (!o->main_class) {
            o->main_class = a; /* run with -cp, else ignored */
        }
    }
    return !o->class_path || o->main_class; /* -cp needs a class to run */
}

int host_options_parse(int argc, char **argv, host_options *o)
{
    *o = (host_options){calloc((size_t)argc, sizeof *o->agents), 0, 2, NULL, NULL};
    if (o->agents && parse(argc, argv, o))
        return 1;
    usage();
    for (int i = 0; o->agents && i < o->n_agents; i++)
        free(o->agents[i].path);
    free(o->agents);
    return 0;
}
