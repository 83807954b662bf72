/* Class-loader search additions: the phase rules of
 * AddToBootstrapClassLoaderSearch and AddToSystemClassLoaderSearch (the
 * trampolines allowed OnLoad and live only); the VM appends. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "classes.h"
#include "jvmtigen_impl.h"
#include "rt.h"

/* In the live phase only an existing JAR file will do: a regular file that
 * starts as a zip archive does (a local file header, or the end record of
 * an empty archive). */
static int is_jar(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    unsigned char magic[4] = {0};
    size_t got = fread(magic, 1, sizeof magic, f);
    fclose(f);
    return got == 4 && magic[0] == 'P' && magic[1] == 'K' &&
           ((magic[2] == 3 && magic[3] == 4) || (magic[2] == 5 && magic[3] == 6));
}

static jvmtiError append(int system, const char *segment)
{
    if (!rt.config.class_path_append)
        return JVMTI_ERROR_NOT_AVAILABLE;
    jvmtiPhase phase = (jvmtiPhase)jvmtigen_phase_now;
    if (phase == JVMTI_PHASE_LIVE && !is_jar(segment))
        return JVMTI_ERROR_ILLEGAL_ARGUMENT;
    return rt.config.class_path_append(system, segment, phase);
}

jvmtiError jvmti_impl_AddToBootstrapClassLoaderSearch(jvmtiEnv *env, const char *segment)
{
    (void)env;
    return append(0, segment);
}

jvmtiError jvmti_impl_AddToSystemClassLoaderSearch(jvmtiEnv *env, const char *segment)
{
    (void)env;
    return append(1, segment);
}

static const rt_need needs[] = {
    {RT_SLOT(AddToBootstrapClassLoaderSearch), {RT_OP(class_path_append)}},
    {RT_SLOT(AddToSystemClassLoaderSearch), {RT_OP(class_path_append)}},
};

const rt_area rt_area_loadersearch = {.needs = needs, .n_needs = sizeof needs / sizeof *needs};
