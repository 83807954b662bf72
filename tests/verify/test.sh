#!/usr/bin/env bash
# jvmtigen --verify: the output directory against what the spec generates.
#   - up to date: exit 0, nothing printed;
#   - an edited file: exit 4, and exactly the hunks `diff -u` prints;
#   - missing files, stale man pages, a missing directory, --no-docs;
#   - GNU patch applies the whole report and makes the directory current;
#   - a file shuffled line by line: quick, and the report still applies;
#   - the directory is never modified (content and timestamps);
#   - invalid specs, unreadable files, usage errors; valgrind.
. tests/lib.sh
d=$(scratch verify)
SPEC=$PWD/spec/jvmti.xml
cd "$d" || exit 1
case $JVMTIGEN in /*) ;; *) JVMTIGEN=$OLDPWD/$JVMTIGEN ;; esac

"$JVMTIGEN" -q -o out "$SPEC"
"$JVMTIGEN" -q -o fresh "$SPEC" # a second copy, never edited: what diff -u compares with
snapshot() { # the directory's files with sizes, times and checksums
    (cd "$1" && find . -type f -printf '%p %s %T@\n' | sort && find . -type f -exec md5sum {} + | sort)
}

run_verify() { # ARGS...: sets OUT, ERR, STATUS
    OUT=$("$JVMTIGEN" --verify "$@" 2>"$d/err")
    STATUS=$?
    ERR=$(cat "$d/err")
}

# ---- up to date ----
before=$(snapshot out)
run_verify -o out "$SPEC"
[ "$STATUS" -eq 0 ] && [ -z "$OUT" ] && [ -z "$ERR" ] &&
    ok "verify: an up-to-date directory: exit 0, nothing on stdout or stderr" ||
    not_ok "verify: up to date gave status $STATUS, stdout '${OUT:0:200}', stderr '$ERR'"
run_verify -v -o out "$SPEC"
n_files=$(find out -type f | wc -l)
[ "$STATUS" -eq 0 ] && [ "$(grep -c '^jvmtigen: up to date ' <<<"$ERR")" -eq "$n_files" ] &&
    ok "verify: -v names each of the $n_files files as up to date" ||
    not_ok "verify: -v said: $(head -3 <<<"$ERR")"
[ "$(snapshot out)" = "$before" ] && ok "verify: the up-to-date directory is untouched" ||
    not_ok "verify: verifying an up-to-date directory changed it"

# ---- one edited file: the hunks diff -u prints ----
sed -i 's/^    JVMTI_ERROR_NONE = 0,$/    JVMTI_ERROR_NONE = 0, \/* edited *\//' out/jvmti.h
run_verify -o out "$SPEC"
want=$(diff -u out/jvmti.h fresh/jvmti.h | tail -n +3)
headers=$(grep -c '^--- \|^+++ ' <<<"$OUT")
if [ "$STATUS" -eq 4 ] && [ "$(head -2 <<<"$OUT")" = $'--- out/jvmti.h\n+++ out/jvmti.h\t(generated)' ] &&
   [ "$headers" -eq 2 ] && [ "$(tail -n +3 <<<"$OUT")" = "$want" ] && [ -n "$want" ]; then
    ok "verify: one edited line: exit 4, a diff of jvmti.h only, hunks as diff -u prints them"
else
    not_ok "verify: one edited line (status $STATUS)"; diff <(echo "$want") <(tail -n +3 <<<"$OUT") | head -20
fi
grep -q "^jvmtigen: 1 of $n_files files in out differ from what .*jvmti.xml generates$" <<<"$ERR" &&
    ok "verify: stderr counts the files that differ" || not_ok "verify: stderr said '$ERR'"
run_verify -q -o out "$SPEC"
[ "$STATUS" -eq 4 ] && [ -z "$ERR" ] && [ -n "$OUT" ] && ok "verify: -q keeps the diff and the status, drops the count" ||
    not_ok "verify: -q gave status $STATUS, stderr '$ERR'"

# Several edits in one file: a changed line, a deleted one, two added far
# apart; the same hunks as diff -u.
awk 'NR == 40 { print "/* added */" } NR == 100 { next } NR == 500 { $0 = $0 " /* changed */" }
     { print } NR == 2000 { print "/* added too */" }' fresh/jvmtigen_entry.c > out/jvmtigen_entry.c
run_verify -o out "$SPEC"
got=$(awk '/^--- out\/jvmtigen_entry.c/ { p = 1; next } /^--- / { p = 0 } p' <<<"$OUT" | tail -n +2)
want=$(diff -u out/jvmtigen_entry.c fresh/jvmtigen_entry.c | tail -n +3)
[ "$STATUS" -eq 4 ] && [ "$got" = "$want" ] && [ "$(grep -c '^@@' <<<"$got")" -ge 3 ] &&
    ok "verify: four edits in jvmtigen_entry.c: the hunks of diff -u ($(grep -c '^@@' <<<"$got"))" ||
    { not_ok "verify: four edits in jvmtigen_entry.c"; diff <(echo "$want") <(echo "$got") | head -20; }

# ---- missing and stale files ----
rm out/man/man3/GetPhase.3 out/jvmti.html
sed '1!d' fresh/man/man3/GetTag.3 > out/man/man3/OldFunction.3          # jvmtigen's mark: stale
printf '.TH MINE 3\nNot generated.\n' > out/man/man3/Mine.3              # someone else's: left alone
run_verify -o out "$SPEC"
missing_ok=$(grep -c $'^--- out/man/man3/GetPhase.3\t(missing)$\|^--- out/jvmti.html\t(missing)$' <<<"$OUT")
if [ "$STATUS" -eq 4 ] && [ "$missing_ok" -eq 2 ] &&
   grep -q '^@@ -0,0 +1,[0-9]* @@$' <<<"$OUT" &&
   grep -q $'^+++ out/man/man3/OldFunction.3\t(removed)$' <<<"$OUT" && ! grep -q 'Mine.3' <<<"$OUT" &&
   grep -q "^jvmtigen: 5 of $((n_files + 1)) files in out differ" <<<"$ERR"; then
    ok "verify: missing files, a stale man page of jvmtigen's (not another's): reported, counted"
else
    not_ok "verify: missing and stale files (status $STATUS)"; grep '^---\|^+++' <<<"$OUT"; echo "$ERR"
fi

# GNU patch applies the report: the directory becomes what the spec
# generates (checked by a verify that finds nothing, and by diff -r).
cp -a out patched
(cd patched && "$JVMTIGEN" --verify -o . "$SPEC" > ../report.diff 2>/dev/null)
if ! need_tool "verify: patch -p0 applies the report" patch; then
    :
elif (cd patched && patch -s -p0 -E < ../report.diff) >"$d/patch.log" 2>&1 &&
   rm -f patched/man/man3/Mine.3 && diff -r patched fresh >/dev/null &&
   "$JVMTIGEN" --verify -o patched "$SPEC" >/dev/null 2>&1; then
    ok "verify: patch -p0 applies the report and the directory is up to date"
else
    not_ok "verify: the report does not patch the directory into the generated one"; head -10 "$d/patch.log"
fi

# --no-docs compares the C outputs only.
run_verify --no-docs -o out "$SPEC"
[ "$STATUS" -eq 4 ] && ! grep -q 'man3\|jvmti.html' <<<"$OUT" && grep -q '^--- out/jvmti.h' <<<"$OUT" &&
    ok "verify: --no-docs leaves the docs out" || not_ok "verify: --no-docs (status $STATUS)"
cp fresh/jvmti.h fresh/jvmtigen_entry.c out/
run_verify --no-docs -o out "$SPEC"
[ "$STATUS" -eq 0 ] && [ -z "$OUT" ] && ok "verify: --no-docs: exit 0 once the C outputs are current" ||
    not_ok "verify: --no-docs on current C outputs gave $STATUS"

# ---- the directory is never modified ----
rm -rf out && cp -a fresh out && before=$(snapshot out)
sed -i '5s/$/ x/' out/jvmtigen_post.c && touch -d @1000000000 out/jvmtigen_post.c
rm out/man/man3/Allocate.3
mid=$(snapshot out)
for args in "-o out" "-v -o out" "--no-docs -o out" "-q -o out"; do run_verify $args "$SPEC"; done
[ "$(snapshot out)" = "$mid" ] && [ -z "$(find out -name '.*' -type f)" ] &&
    ok "verify: four runs later the directory is as it was: files, sizes, times, contents" ||
    not_ok "verify: the directory changed"
run_verify -o nothere "$SPEC"
[ "$STATUS" -eq 4 ] && [ ! -e nothere ] && [ "$(grep -c $'\t(missing)$' <<<"$OUT")" -eq "$n_files" ] &&
    ok "verify: a missing directory: every file missing, and the directory is not created" ||
    not_ok "verify: a missing directory (status $STATUS, $(grep -c $'\t(missing)$' <<<"$OUT") missing of $n_files, $(ls -d nothere 2>&1))"

# ---- a shuffled file: quick, and still a correct diff ----
rm -rf out && cp -a fresh out
shuf --random-source=<(yes) fresh/jvmti.html > out/jvmti.html
# Quick by CPU time, the run's own (user + system, from the shell's
# children's times): a wall clock bound failed on a loaded machine.
# (times must run in this shell: a pipeline's or $(...)'s subshell has no
# children.) children_cpu_ms VAR: VAR = the children's CPU time so far, ms.
children_cpu_ms() {
    times >"$d/times"
    printf -v "$1" '%s' "$(tail -1 "$d/times" |
        awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, t, "m"); s += t[1] * 60 + t[2] } printf "%d", s * 1000 }')"
}
children_cpu_ms start
run_verify -o out "$SPEC"
children_cpu_ms end
ms=$((end - start))
cp out/jvmti.html shuffled.html
awk '/^--- out\/jvmti.html/ { p = 1 } /^--- out\/man/ { p = 0 } p' <<<"$OUT" > html.diff
if ! need_tool "verify: the shuffled jvmti.html patched back" patch; then
    :
elif [ "$STATUS" -eq 4 ] && [ "$ms" -lt 10000 ] && patch -s shuffled.html < html.diff &&
   cmp -s shuffled.html fresh/jvmti.html; then
    ok "verify: jvmti.html shuffled line by line ($(wc -l < fresh/jvmti.html) lines): ${ms} ms of CPU, and patch turns it back"
else
    not_ok "verify: the shuffled jvmti.html (status $STATUS, ${ms} ms of CPU)"
fi

# ---- errors ----
rm -rf out && cp -a fresh out && rm out/jvmti.h && mkdir out/jvmti.h
run_verify -o out "$SPEC"
[ "$STATUS" -eq 3 ] && grep -q "^out/jvmti.h: error: cannot compare: not a regular file$" <<<"$ERR" &&
    ok "verify: a directory where a file should be: exit 3, FILE: error:" ||
    not_ok "verify: a directory in place of jvmti.h gave $STATUS: $ERR"
run_verify -o out "$OLDPWD/tests/checks/fixtures/bad_id_function.xml"
[ "$STATUS" -eq 1 ] && [ -z "$OUT" ] && grep -q 'bad_id_function.xml:[0-9]*: error: ' <<<"$ERR" &&
    ok "verify: an invalid spec: exit 1, its errors, no diff" || not_ok "verify: an invalid spec gave $STATUS"
usage() { # DESC PATTERN ARGS...
    local desc=$1 pattern=$2; shift 2
    "$JVMTIGEN" "$@" >/dev/null 2>"$d/err"
    local status=$?
    [ "$status" -eq 2 ] && grep -q -- "$pattern" "$d/err" && ok "verify: $desc" ||
        { not_ok "verify: $desc (status $status)"; cat "$d/err"; }
}
usage "--verify with -MD is a usage error" "no --depfile or -MD" --verify -MD -o out "$SPEC"
usage "check --verify is a usage error" "check takes no --verify" check --verify "$SPEC"
usage "fill --verify is a usage error" "unknown option '--verify'" fill --verify "$SPEC" x.c

# ---- valgrind ----
if [ -n "${SANITIZE:-}" ]; then
    skip "verify: valgrind (a sanitizer build)"
elif ! need_tool "verify: valgrind" valgrind; then
    :
elif valgrind -q "$JVMTIGEN" --version >/dev/null 2>&1; then
    rm -rf out && cp -a fresh out
    sed -i '3d' out/jvmtigen_tables.c && rm out/man/man3/GetTag.3 && cp fresh/man/man3/GetPhase.3 out/man/man3/Old.3
    valgrind_check "verify" "differences, a missing file, a stale page under valgrind" 4 --verify -o out "$SPEC"
else
    skip "verify: valgrind cannot run $JVMTIGEN"
fi
