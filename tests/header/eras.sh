# Sourced by tests/header/test.sh (uses its tokens, compare_with and the JDK
# header paths): each release's jvmti.h written in that release's style, as
# docs/cli.md tables it (struct tags, the minor version's spelling, the named
# version constants).
ERAS=tests/header/fixtures

# The parts of a header the styles touch: the version constants (the first
# enum), and the pre-declarations through jvmtiCapabilities.
version_part() { awk '/^enum \{$/ { on = 1 } on { print } on && /^\};$/ { exit }' "$1"; }
types_part() { sed -n '/Pre-Declarations/,/} jvmtiCapabilities;/p' "$1"; }

# eras.xml as VERSION against fragments written by hand from the JDK headers.
era_fixture() { # VERSION TYPES-FRAGMENT [VERSION-FRAGMENT]
    local v=$1 types=$2 vers=${3:-} d
    d=$(scratch "era-$v")
    if ! "$JVMTIGEN" -q --no-docs -o "$d" --jvmti-version "$v" "$ERAS/eras.xml"; then
        not_ok "header: eras.xml as $v: generation failed"; return
    fi
    types_part "$d/jvmti.h" > "$d/types.h"
    check "header: eras.xml as $v: the types are $(basename "$types" .h | sed 's/eras-types-//'), token for token" \
        diff <(tokens "$ERAS/$types") <(tokens "$d/types.h")
    if [ -n "$vers" ]; then
        version_part "$d/jvmti.h" > "$d/version.h"
        check "header: eras.xml as $v: the version constants, token for token" \
            diff <(tokens "$ERAS/$vers") <(tokens "$d/version.h")
    fi
}
era_fixture 1.2.1 eras-types-tagged.h eras-version-1.2.1.h
era_fixture 11 eras-types-tagged.h eras-version-11.h
era_fixture 13 eras-types-tagged.h eras-version-13.h
era_fixture 15.0.2 eras-types-tagged.h
era_fixture 16 eras-types-plain.h
era_fixture 17 eras-types-plain.h eras-version-17.h

# Why the tags matter: C++ mangles the tag into a symbol's name, so an agent
# built against the 11 header must find _jvmtiLamp in it, the 17 one jvmtiLamp.
if ! command -v g++ >/dev/null || ! command -v nm >/dev/null; then
    skip "header: the struct tag in C++ symbol names (needs g++ and nm)"
else
    for pair in 11:_Z4lampP10_jvmtiLamp 17:_Z4lampP9jvmtiLamp; do
        v=${pair%%:*} sym=${pair#*:}
        d=$(scratch "era-mangle-$v")
        "$JVMTIGEN" -q --no-docs -o "$d" --jvmti-version "$v" "$ERAS/eras.xml"
        printf '#include "jvmti.h"\nvoid lamp(jvmtiLamp *l) { (void)l; }\n' > "$d/lamp.cc"
        check "header: eras.xml as $v: C++ names the lamp function $sym" \
            bash -c "g++ -isystem '$JNI_INC' -isystem '$JNI_INC/linux' -I'$d' -c '$d/lamp.cc' -o '$d/lamp.o' \
                     && nm '$d/lamp.o' | grep -qw '$sym'"
    done
fi

# The JDK 17 spec as an older release against the JDK 17 header with that
# release's style put in by hand (sed), token for token and byte for byte
# below the banner: the spec's facts are 17's, only the style moves.
era_edit() { # VERSION TAGGED(0/1) < JDK 17 header > header of VERSION
    local v=$1 tagged=$2 minor='( 0 * 0x100)'
    case $v in 11) minor='(0 * 0x100)' ;; esac
    sed -e "s|(17 \* 0x10000) + ( 0 \* 0x100) + 0  /\* version: 17.0.0 \*/|($v * 0x10000) + $minor + 0  /* version: $v.0.0 */|" |
        if [ "$tagged" = 1 ]; then
            sed -e 's/^\(struct\|union\) \(jvmti[A-Za-z]*\)\( {\|;\)$/\1 _\2\3/' \
                -e 's/^typedef \(struct\|union\) \(jvmti[A-Za-z]*\) \2;$/typedef \1 _\2 \2;/'
        else cat; fi
}
if ! need_refs "header: jdk17 in the styles of 11, 13 and 16" jdk17; then :
elif [ ! -f "$JDK17_H" ]; then
    not_ok "header: jdk17 in older styles: needs $JDK17_H (openjdk-17-jdk-headless)"
else
    for era in 11:1 13:1 16:0; do
        v=${era%%:*} tagged=${era#*:}
        d=$(scratch "era-jdk17-$v")
        era_edit "$v" "$tagged" < "$JDK17_H" > "$d/expected.h"
        # 22 structs and unions, three lines each, when tagged (_jvmtiEnv
        # is tagged in every release).
        check "header: jdk17 as $v: the hand edit tagged $((66 * tagged)) lines and wrote the $v version line" \
            bash -c "[ \$(diff '$JDK17_H' '$d/expected.h' | grep -Ec '^> (typedef )?(struct|union) _jvmti') -eq $((66 * tagged)) ] \
                     && grep -qF '($v * 0x10000)' '$d/expected.h'"
        compare_with "jdk17-as-$v" "$SHARED_SPECS/jdk17/jvmti.xml" "$v" "$d/expected.h" \
            "JDK 17's jvmti.h in $v's style"
    done
fi

# Any other JDK's own header on this machine: compared when ../shared/spec
# has that release's spec, else skipped saying so. 17 and 25 are above.
seen=
for h in /usr/lib/jvm/*/include/jvmti.h; do
    [ -f "$h" ] || continue
    rel=$(sed -n 's/.*JVMTI_VERSION = 0x30000000 + (\([0-9]*\) \* 0x10000).*/\1/p' "$h")
    [ "$rel" = 1 ] && rel=8 # JDK 8 is JVM TI 1.2
    case " 17 25 $seen " in *" $rel "*) continue ;; esac
    [ -n "$rel" ] || continue
    seen="$seen $rel"
    if [ -f "$SHARED_SPECS/jdk$rel/jvmti.xml" ]; then
        compare_with "jdk$rel" "$SHARED_SPECS/jdk$rel/jvmti.xml" "$rel" "$h"
    else
        skip "header: JDK $rel's own $h: no jdk$rel spec in $SHARED_SPECS to generate from"
    fi
done
for rel in 8 11 13 16; do
    case " $seen " in *" $rel "*) continue ;; esac
    skip "header: JDK $rel's own jvmti.h: none under /usr/lib/jvm (the eras.xml and jdk17 checks above stand in)"
done
