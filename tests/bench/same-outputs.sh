#!/bin/bash
# tests/bench/same-outputs.sh OLD_JVMTIGEN OLD_TEMPLATES [NEW_JVMTIGEN [NEW_TEMPLATES]]
# Whether a change to the generator or its templates left every output
# byte-identical: each reference spec in ../shared/spec and every *.xml
# under tests/ run through the old and the new jvmtigen (default: bin/jvmtigen
# and templates/), their exit status, messages and every output file
# compared. Prints each spec that differs and a count; exit 1 if any does.
# Make the old ones first, e.g.: git worktree add /tmp/old main && make -C
# /tmp/old, then tests/bench/same-outputs.sh /tmp/old/bin/jvmtigen /tmp/old/templates
set -u
old=${1:?old jvmtigen} ot=${2:?old templates} new=${3:-bin/jvmtigen} nt=${4:-templates}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0 bad=0 docs=0
for s in ../shared/spec/*/jvmti.xml $(find tests -name '*.xml' | sort); do
    [ -f "$s" ] || continue
    n=$((n + 1))
    d="$work/$n"
    mkdir -p "$d"
    "$old" -q --time-limit 0 --templates "$ot" -o "$d/a" "$s" >"$d/a.log" 2>&1
    ra=$?
    "$new" -q --time-limit 0 --templates "$nt" -o "$d/b" "$s" >"$d/b.log" 2>&1
    rb=$?
    # the templates' folder appears in messages about them
    sed -i "s#$ot#TEMPLATES#g" "$d/a.log"
    sed -i "s#$nt#TEMPLATES#g" "$d/b.log"
    if [ "$ra" != "$rb" ] || ! cmp -s "$d/a.log" "$d/b.log" ||
        { { [ -e "$d/a" ] || [ -e "$d/b" ]; } && ! diff -r "$d/a" "$d/b" >/dev/null 2>&1; }; then
        echo "differs: $s (exit $ra, $rb)"
        bad=$((bad + 1))
    elif [ -f "$d/a/jvmti.html" ]; then
        docs=$((docs + 1))
    fi
    rm -rf "$d"
done
echo "same-outputs: $n specs ($docs with docs), $bad differ"
[ "$bad" = 0 ]
