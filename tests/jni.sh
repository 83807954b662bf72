# Sourced by tests/lib.sh and by the scripts that do not source it
# (tests/trampolines/coverage).

# jni_include: prints the directory holding jni.h, the one way every suite
# finds it: JNI_INCLUDE (make check passes the Makefile's choice), else the
# Makefile's own order ($JAVA_HOME/include, Debian's OpenJDK 17, then any
# JDK under /usr/lib/jvm). Prints nothing and fails when there is none.
jni_include() {
    local d
    for d in "${JNI_INCLUDE:-}" ${JAVA_HOME:+"$JAVA_HOME/include"} /usr/lib/jvm/java-17-openjdk-*/include /usr/lib/jvm/*/include; do
        if [ -n "$d" ] && [ -f "$d/jni.h" ]; then
            echo "$d"
            return 0
        fi
    done
    return 1
}
