/* A placeholder for a JDK's own libjvm.so and libjava.so (built twice,
 * once under each name): a JDK's agents (libjdwp.so) name both as needed
 * libraries, which a JVM has loaded already. jvmti-host loads these first
 * (host/javahome.c), so the dynamic linker finds a library of each name
 * and the agent loads. The one symbol: JDK 25's libjdwp.so asks
 * JVM_IsStaticallyLinked (versioned SUNWprivate_1.1, libjvm.map) whether
 * the JDK is one static executable; the host is not. */
#include "jni.h"

JNIEXPORT jboolean JNICALL JVM_IsStaticallyLinked(void);

JNIEXPORT jboolean JNICALL JVM_IsStaticallyLinked(void) { return JNI_FALSE; }
