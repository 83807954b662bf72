/* java.home: the JDK whose agents -agentlib names and whose properties
 * those agents read. It is $JAVA_HOME when set, else the JDK the host was
 * built against (HOST_JAVA_HOME, from the Makefile's JNI_INCLUDE). */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host.h"

#ifndef HOST_JAVA_HOME
#define HOST_JAVA_HOME "/usr/lib/jvm/default-java"
#endif

static const char *java_home(void)
{
    const char *env = getenv("JAVA_HOME");
    return env && *env ? env : HOST_JAVA_HOME;
}

/* What libjdwp reads as it starts: the folder of the JDK's native
 * libraries (where it finds its transport, libdt_socket.so), the
 * separators, the working directory, the release (JVM TI's, from the spec
 * the host was built from). Fixed once the VM starts. */
void host_java_home_setup(void)
{
    char buf[PATH_MAX + 8];
    jvmtirt_property_define("java.home", java_home(), 0);
    snprintf(buf, sizeof buf, "%s/lib", java_home());
    jvmtirt_property_define("sun.boot.library.path", buf, 0);
    snprintf(buf, sizeof buf, "%d", (JVMTI_VERSION >> 16) & 0xff);
    jvmtirt_property_define("java.version", buf, 0);
    jvmtirt_property_define("java.vm.info", "the jvmtigen reference VM", 0);
    jvmtirt_property_define("path.separator", ":", 0);
    jvmtirt_property_define("file.separator", "/", 0);
    jvmtirt_property_define("line.separator", "\n", 0);
    if (getcwd(buf, sizeof buf))
        jvmtirt_property_define("user.dir", buf, 0);
}

/* As a JVM looks for -agentlib:NAME: the JDK's lib/libNAME.so, else
 * libNAME.so wherever dlopen looks (LD_LIBRARY_PATH, the system's). */
char *host_agentlib_path(const char *name)
{
    size_t n = strlen(java_home()) + strlen(name) + 16;
    char *path = malloc(n);
    if (!path) {
        fputs("jvmti-host: out of memory\n", stderr);
        return NULL;
    }
    snprintf(path, n, "%s/lib/lib%s.so", java_home(), name);
    if (access(path, R_OK) != 0)
        snprintf(path, n, "lib%s.so", name);
    return path;
}

/* host/placeholders/README.md: from HOST_PLACEHOLDER_DIR, relative to the
 * executable's folder (../lib/jvmti-host for bin/jvmti-host, built and
 * installed; the installed example's Makefile builds them in its own
 * placeholders/); where they are not there, an agent that needs them fails
 * to load with dlopen's message. */
#ifndef HOST_PLACEHOLDER_DIR
#define HOST_PLACEHOLDER_DIR "../lib/jvmti-host"
#endif
void host_jdk_placeholders_load(void)
{
    char exe[PATH_MAX], path[PATH_MAX + 64];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return;
    *slash = '\0';
    static const char *const names[] = {"libjvm.so", "libjava.so"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(path, sizeof path, "%s/" HOST_PLACEHOLDER_DIR "/%s", exe, names[i]);
        (void)dlopen(path, RTLD_NOW | RTLD_LOCAL); /* kept: the agents need it until the end */
    }
}
