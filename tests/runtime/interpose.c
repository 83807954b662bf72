/* interpose.c: a VM that defines jvmti_impl_GetPhase, a function the core
 * implements itself. Linked with the static library that is a duplicate
 * definition the linker refuses; linked with libjvmtirt.so and exported
 * (default visibility) the dynamic linker would bind the core's own calls
 * to the VM's function and the core's would silently lose, so jvmtirt_init
 * refuses it, naming it. Hidden (-DINTERPOSE_HIDDEN=1, -fvisibility=hidden)
 * it is the VM's private function, and the core's GetPhase answers.
 * Expected values are written by hand. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "jvmtirt.h"

#ifndef INTERPOSE_HIDDEN
#define INTERPOSE_HIDDEN 0
#endif

static int failures;

static void expect(long got, long want, const char *desc)
{
    if (got == want)
        printf("ok - runtime: interpose: %s\n", desc);
    else {
        printf("not ok - runtime: interpose: %s (expected %ld, got %ld)\n", desc, want, got);
        failures++;
    }
    fflush(stdout);
}

/* Named as the core's own; answers a phase no VM is in. */
jvmtiError jvmti_impl_GetPhase(jvmtiEnv *env, jvmtiPhase *phase_ptr);
jvmtiError jvmti_impl_GetPhase(jvmtiEnv *env, jvmtiPhase *phase_ptr)
{
    (void)env;
    *phase_ptr = (jvmtiPhase)0;
    return JVMTI_ERROR_NONE;
}

static char thread_obj;

int main(void)
{
    jvmtirt_config c = JVMTIRT_CONFIG_INIT;
    char text[1024] = "";
    fflush(stderr);
    int saved = dup(2);
    FILE *log = tmpfile();
    if (saved < 0 || !log || dup2(fileno(log), 2) < 0) {
        printf("not ok - runtime: interpose: stderr could not be captured\n");
        return 1;
    }
    jvmtiError err = jvmtirt_init(&c);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(log);
    text[fread(text, 1, sizeof text - 1, log)] = '\0';
    fclose(log);
    if (!INTERPOSE_HIDDEN) {
        expect(err, JVMTI_ERROR_ILLEGAL_ARGUMENT,
               "shared, exported jvmti_impl_GetPhase (the core implements GetPhase): init refuses");
        expect(strstr(text, "jvmtirt: error: jvmtirt_init: jvmti_impl_GetPhase is defined outside "
                            "the core, which implements GetPhase") != NULL,
               1, "... and names it");
        expect(strchr(text, '\n') == strrchr(text, '\n'), 1, "... in one line");
        if (!strstr(text, "jvmti_impl_GetPhase"))
            fprintf(stderr, "%s", text);
        return failures != 0;
    }
    expect(err, JVMTI_ERROR_NONE, "shared, hidden jvmti_impl_GetPhase: init");
    jvmtirt_set_phase(JVMTI_PHASE_LIVE);
    jvmtirt_thread_start((uintptr_t)(void *)&thread_obj, JVMTIRT_JAVA_THREAD);
    jvmtiEnv *e = NULL;
    expect(jvmtirt_get_env((void **)&e, JVMTI_VERSION), JNI_OK, "... an environment");
    jvmtiPhase phase = (jvmtiPhase)0;
    if (e)
        expect((*e)->GetPhase(e, &phase), JVMTI_ERROR_NONE, "... GetPhase");
    expect(phase, JVMTI_PHASE_LIVE, "... answered by the core (live)");
    if (e)
        (*e)->DisposeEnvironment(e);
    jvmtirt_thread_end();
    jvmtirt_shutdown();
    return failures != 0;
}
