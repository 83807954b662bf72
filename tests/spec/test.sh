#!/usr/bin/env bash
# spec/jvmti.xml, the project's own spec: valid against spec/jvmti.dtd, every
# item described, the same facts as OpenJDK 25's spec (every generated C
# output equal below the banner; the JDK 25 header token for token where one
# is installed), and none of OpenJDK's prose (prose-check).
. tests/lib.sh

SPEC=spec/jvmti.xml
REF="$SHARED_SPECS/jdk25/jvmti.xml"
JDK25_H=/usr/lib/jvm/temurin-25-jdk-amd64/include/jvmti.h

[ -f "$SPEC" ] || { not_ok "spec: $SPEC is missing"; exit 0; }

check "spec: jvmtigen check accepts it" "$JVMTIGEN" check -q "$SPEC"
check "spec: names its own DTD, carries no inline copy" \
    grep -q '^<!DOCTYPE specification SYSTEM "jvmti.dtd">$' "$SPEC"

if need_tool "spec: xmllint --valid and the descriptions" xmllint; then
    check "spec: xmllint --valid accepts it (DTD spec/jvmti.dtd)" \
        bash -c 'cd spec && xmllint --noout --valid jvmti.xml'
    # Every item has prose: an empty or missing description is a gap.
    for xp in "//description[normalize-space(.)='']" "//constant[normalize-space(.)='']" \
              "//errorid[normalize-space(.)='']" "//intro[normalize-space(.)='']" \
              "//function[not(description)]" "//param[not(description)]" \
              "//field[not(description)]" "//event[not(description)]" \
              "//typedef[not(description)]" "//uniontypedef[not(description)]" \
              "//callback[not(description)]" "//capabilityfield[not(description)]" \
              "//basetype[not(description)]"; do
        n=$(xmllint --xpath "count($xp)" "$SPEC" 2>/dev/null)
        check "spec: no $xp (found ${n:-?})" test "${n:-x}" = 0
    done
    n=$(xmllint --xpath "count(//function)" "$SPEC" 2>/dev/null)
    check "spec: the descriptions check looked at something (${n:-0} functions)" test "${n:-0}" -gt 150
fi

if [ -f "$REF" ]; then
    mine=$(scratch own) theirs=$(scratch jdk25)
    "$JVMTIGEN" -q -o "$mine" "$SPEC" && "$JVMTIGEN" -q -o "$theirs" "$REF"
    below_banner() { sed '1,/^ \*\/$/d' "$1"; }
    for f in "$theirs"/*; do
        b=$(basename "$f")
        [ "$b" = jvmtigen.d ] && continue
        check "spec: $b from spec/jvmti.xml equals JDK 25's below the banner" \
            diff <(below_banner "$f") <(below_banner "$mine/$b")
    done
    n=$(ls "$theirs" | wc -l)
    check "spec: compared every output ($n files)" test "$n" -ge 5
else
    skip "spec: $REF not here: facts not compared"
fi

if [ -f "$JDK25_H" ]; then
    d=$(scratch own25)
    "$JVMTIGEN" -q -o "$d" --jvmti-version 25 "$SPEC"
    tokens() { gcc -fpreprocessed -dD -E -P -x c "$1" 2>/dev/null | tr -s ' \t' '\n\n' | sed '/^$/d'; }
    check "spec: jvmti.h from spec/jvmti.xml equals the JDK 25 header token for token" \
        diff <(tokens "$JDK25_H") <(tokens "$d/jvmti.h")
else
    skip "spec: no JDK 25 header on this machine ($JDK25_H)"
fi

PROSE_CHECK=../shared/tools/prose-check
if [ -f "$PROSE_CHECK" ] && [ -d "$SHARED_SPECS" ] && need_tool "spec: prose-check" python3; then
    out=$(python3 "$PROSE_CHECK" --repo "$PWD" "$PWD/$SPEC" 2>&1)
    check "spec: prose-check finds no 8-word run shared with OpenJDK in spec/jvmti.xml" \
        grep -q '^prose-check: 0 shared runs' <<<"$out"
    [[ $out == *'0 shared runs'* ]] || printf '%s\n' "$out" | head -20
    out=$(python3 "$PROSE_CHECK" --repo "$PWD" 2>&1)
    check "spec: prose-check finds none in the whole project" \
        grep -q '^prose-check: 0 shared runs' <<<"$out"
    [[ $out == *'0 shared runs'* ]] || printf '%s\n' "$out" | head -20
    # Guard: the checker finds a sentence of the reference when one is there.
    if [ -f "$REF" ]; then
        d=$(scratch prose)
        sed -n '/<function id="Allocate"/,/<\/function>/p' "$REF" > "$d/copied.txt"
        out=$(python3 "$PROSE_CHECK" --repo "$PWD" "$d/copied.txt" 2>&1)
        check "spec: prose-check does report copied text" \
            bash -c "! grep -q '^prose-check: 0 shared runs' <<<\"\$1\"" _ "$out"
    else
        skip "spec: prose-check's guard needs a reference spec ($REF is not here)"
    fi
elif [ ! -f "$PROSE_CHECK" ] || [ ! -d "$SHARED_SPECS" ]; then
    skip "spec: $PROSE_CHECK not here"
fi
