#!/usr/bin/env bash
# The generator under valgrind: no invalid access, no leak, on every
# reference spec and on the error paths. (Skipped in sanitizer builds:
# valgrind and ASan do not mix.)
. tests/lib.sh
if [ -n "${SANITIZE:-}" ]; then skip "memcheck: sanitizer build"; exit 0; fi
need_tool "memcheck" valgrind || exit 0
probe=$(scratch vg-probe)/log
if ! valgrind -q --error-exitcode=99 "$JVMTIGEN" --version >/dev/null 2>"$probe" || [ -s "$probe" ]; then
    # e.g. valgrind 3.19 cannot read clang's DWARF 5 debug information
    skip "memcheck: valgrind cannot run $JVMTIGEN ($(grep -m1 -v '^###' "$probe"))"
    exit 0
fi

vg() { valgrind_check memcheck "$@"; }
d=$(scratch vg-out)
# --time-limit 0: under valgrind on a loaded machine the templates can pass
# the default 60 seconds, and the run then stops there with its memory
# still held (status 99: every block "still reachable"; seen at load 15).
vg "generating from spec/jvmti.xml is clean" 0 -q --time-limit 0 -o "$d/own" spec/jvmti.xml
for spec in jdk17 jdk25 mainline; do
    need_refs "memcheck: generating from $spec" "$spec" &&
        vg "generating from $spec is clean" 0 -q --time-limit 0 -o "$d/$spec" "$SHARED_SPECS/$spec/jvmti.xml"
done
vg "an invalid spec is clean" 1 -o "$d/bad" tests/security/fixtures/xxe-file.xml
vg "an expansion bomb is clean" 1 -o "$d/bomb" tests/security/fixtures/billion-laughs.xml
# The loader's own refusals: a DTD that is no regular file, a crowded tag,
# too many errors; and an output that cannot be replaced (nothing written).
h=$(scratch vg-hostile)
sed 's|"../../../spec/jvmti.dtd"|"/dev/zero"|' tests/checks/fixtures/valid.xml >"$h/dev-dtd.xml"
vg "a DTD that is no regular file is clean" 1 check "$h/dev-dtd.xml"
{ printf '<?xml version="1.0"?>\n<!DOCTYPE specification SYSTEM "%s/spec/jvmti.dtd">\n<specification label="x"' "$PWD"
  for i in $(seq 300); do printf ' a%d=""' "$i"; done; printf '/>\n'; } >"$h/crowded.xml"
vg "a crowded tag is clean" 1 check "$h/crowded.xml"
{ printf '<?xml version="1.0"?>\n<!DOCTYPE specification SYSTEM "%s/spec/jvmti.dtd">\n<specification label="x">\n' "$PWD"
  for i in $(seq 300); do printf '<a/>\n'; done; printf '</specification>\n'; } >"$h/errors.xml"
vg "giving up after 100 errors is clean" 1 check "$h/errors.xml"
# libxml2 is not built with ASan: its reads of freed input only show here.
for f in tests/fuzz/regressions/*.xml; do
    [ -e "$f" ] || continue
    "$JVMTIGEN" check "$f" >/dev/null 2>&1
    want=$?
    vg "fuzz regression $(basename "$f" .xml) is clean" "$want" check "$f"
done
mkdir -p "$h/out/jvmtigen_post.c"
vg "an output that cannot be replaced is clean" 3 -o "$h/out" tests/checks/fixtures/valid.xml
# Without JVMTIGEN_FREE_AT_EXIT a run leaves its document and model to the
# exit: still pointed to (no leak of any other kind), and more than a MiB.
# --time-limit 0 as above: at load 20 the templates passed 60 seconds and
# the run stopped half-way, its model's arena "possibly lost" (status 99).
kept=$(scratch vg-kept)
valgrind --leak-check=full --show-leak-kinds=definite,indirect,possible \
    --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 \
    --log-file="$kept/log" "$JVMTIGEN" -q --time-limit 0 -o "$kept/out" spec/jvmti.xml >/dev/null 2>&1
status=$?
reachable=$(sed -n 's/.*still reachable: \([0-9,]*\) bytes.*/\1/p' "$kept/log" | tr -d ,)
if [ "$status" -eq 0 ] && ! grep -q "lost: [1-9]" "$kept/log" && [ "${reachable:-0}" -gt 1048576 ]; then
    ok "memcheck: a default run keeps its document and model for the exit ($reachable bytes still reachable), loses nothing"
else
    not_ok "memcheck: a default run keeps its document and model for the exit, loses nothing (status $status, reachable ${reachable:-none})"
    grep -A3 "lost\|reachable" "$kept/log" | head -20
fi
for f in tests/checks/fixtures/*.expected; do
    [ -e "$f" ] || continue
    vg "the check errors of $(basename "$f" .expected) are clean" 1 -o "$d/c" "${f%.expected}.xml"
    break # one is enough here; the checks suite runs them all
done
# fill: a skeleton, a merge with every kind of warning, a refused file (the
# merge adds the stub deleted by hand).
d=$(scratch vg-fill)
vg "fill writing a skeleton is clean" 0 fill -q spec/jvmti.xml "$d/impl.c"
sed -e 's/jint depth/jlong depth/' -e '/^\/\* jvmtigen stub: GetThreadState /,/^}$/d' "$d/impl.c" >"$d/edited.c"
printf '\nint jvmti_impl_NoSuchFunction(void) { return 0; }\n' >>"$d/edited.c"
vg "fill merging (stubs, flagged signatures, unknown functions) is clean" 0 \
    fill spec/jvmti.xml "$d/edited.c"
sed -i 's/jlong depth/jint depth/' "$d/edited.c"
vg "fill taking its comment away again is clean" 0 fill -q spec/jvmti.xml "$d/edited.c"
printf 'int f(void) {\n' >"$d/bad.c"
vg "fill refusing an unbalanced file is clean" 1 fill spec/jvmti.xml "$d/bad.c"
