# Sourced by tests/security/test.sh. A base type's <definition> goes into
# jvmti.h as written: anything but declarations of a type is refused at the
# base type's line, and nothing is written. The first case is the attack
# itself: a function with a constructor attribute that every program
# including the header would run at start-up.
INC=$(jni_include)
injection() { # NAME DEFINITION
    local name=$1 d err status
    d=$(scratch "sec-def-$name")
    sed -e "s|<definition>typedef jobject jthread;</definition>|<definition>$2</definition>|" \
        -e "s|"../../../spec/jvmti.dtd"|"$PWD/spec/jvmti.dtd"|" \
        tests/checks/fixtures/valid.xml >"$d/$name.xml"
    err=$(timeout 30 "$JVMTIGEN" -o "$d/out" "$d/$name.xml" 2>&1 >/dev/null)
    status=$?
    if [ "$status" -eq 1 ] && [ ! -e "$d/out" ] &&
        grep -q "^$d/$name.xml:143: error: base type 'jthread': its <definition> must be C declarations" <<<"$err"; then
        ok "security: a base type's definition with $name is refused"
    else
        not_ok "security: a base type's definition with $name: status $status, expected 1 and an error at line 143"
        printf '%s\n' "$err" | head -5
        # Show what the injection does when it gets through.
        if [ "$name" = constructor ] && [ -f "$d/out/jvmti.h" ]; then
            printf '#include "jvmti.h"\nint main(void) { return 0; }\n' >"$d/main.c"
            cc -I"$d/out" -I"$INC" -I"$INC/linux" -o "$d/main" "$d/main.c" 2>&1 | head -3 && "$d/main"
        fi
    fi
}
injection constructor 'typedef jobject jthread; __attribute__((constructor)) static void jthread_init(void) { puts("INJECTED"); };'
injection function-body 'typedef jobject jthread; void jthread_run(void) { };'
injection attribute 'typedef jobject jthread __attribute__((aligned(64)));'
injection declspec 'typedef __declspec(dllexport) jobject jthread;'
injection c23-attribute 'typedef jobject jthread [[deprecated]];'
injection digraph-attribute 'typedef jobject jthread \&lt;:\&lt;:deprecated:\&gt;:\&gt;;'
injection asm 'typedef jobject jthread; int jthread_x asm("x");'
injection pragma '_Pragma("GCC poison printf") typedef jobject jthread;'
injection object 'typedef jobject jthread; int jthread_count;'
injection initialised 'typedef jobject jthread; struct jthread_s { int a; } jthread_v = { 1 };'
injection statement-expression 'typedef jobject jthread[({ 1; })];'
injection static-object 'struct S { int a; }; typedef jobject jthread; static struct S jthread_s;'
injection struct-with-object 'struct S { int a; } jthread_s; typedef jobject jthread;'

# What the specs hold and other plain declarations of a type still pass
# (and compile, where a jni.h is installed).
accepted() { # NAME DEFINITION
    local d compile=true
    [ -f "$INC/jni.h" ] || compile=false
    d=$(scratch "sec-def-$1")
    sed -e "s|<definition>typedef jobject jthread;</definition>|<definition>$2</definition>|" \
        -e "s|"../../../spec/jvmti.dtd"|"$PWD/spec/jvmti.dtd"|" \
        tests/checks/fixtures/valid.xml >"$d/$1.xml"
    check "security: a base type's definition with $1 is accepted and compiles" \
        bash -c "'$JVMTIGEN' -q -o '$d/out' '$d/$1.xml' && { ! $compile || { printf '#include \"jvmti.h\"\nint main(void) { return 0; }\n' >'$d/m.c' && cc -Wall -Wextra -Werror -I'$d/out' -I'$INC' -I'$INC/linux' -c -o '$d/m.o' '$d/m.c'; }; }"
}
accepted struct-and-pointer 'struct _jthread; typedef struct _jthread *jthread;'
accepted struct-body 'struct _jthread { int a; struct { long b; } c; }; typedef struct _jthread jthread;'
accepted enum-values 'enum jthread_e { JT_A = 1, JT_B = (2 \&lt;\&lt; 3) }; typedef enum jthread_e jthread;'
accepted function-pointer 'typedef void (*jthread)(int, char *);'
accepted array 'typedef int jthread[sizeof(int) * 2];'
