#!/usr/bin/env bash
# Hostile input to the generator: truncated files, random byte damage,
# missing and duplicated attributes, absurd numbers, huge tables, deep
# nesting, huge text, encodings good and bad, odd files (tests/hostile/
# make-cases writes them, with fixed seeds), the inputs the fuzzers found
# (tests/fuzz/regressions), and I/O failures. Every run must end within
# the time limit (of CPU time: tests/lib.sh's hostile_run) with status 0,
# 1 or 3 and no signal; every line of stderr
# is a diagnostic naming a file (FILE:LINE: where the case says a line
# exists); a failed run leaves the output directory exactly as it was; a
# successful one leaves it complete (and jvmti.h compiling, where asked).
# External entities, the network and expansion bombs: tests/security.
. tests/lib.sh

need_tool "hostile" python3 || exit 0
hostile_setup || { not_ok "hostile: cannot generate the base outputs"; exit 0; }
CC=${CC:-cc}
INC=$(jni_include)

cases=$(scratch hostile-cases)
python3 tests/hostile/make-cases . "$cases" || { not_ok "hostile: make-cases failed"; exit 0; }

# result NAME FILE STATUSES LINE CHECK: judges the run hostile_run just made.
result() {
    local name=$1 file=$2 statuses=$3 want_line=$4 check=$5 why=$H_WHY
    if [ -z "$why" ]; then
        case " $statuses " in *" $H_STATUS "*) ;; *) why="exit status $H_STATUS, expected $statuses" ;; esac
    fi
    if [ -z "$why" ] && [ "$H_STATUS" -ne 0 ]; then
        if ! grep -q "^$file:\([0-9]*:\)\{0,1\} error: " <<<"$H_ERR"; then
            why="no error names the file"
        elif [ "$want_line" = any ] && ! grep -q "^$file:[0-9][0-9]*: error: " <<<"$H_ERR"; then
            why="no error gives a line"
        elif [ "$want_line" != any ] && [ "$want_line" != - ] &&
            ! grep -q "^$file:$want_line: error: " <<<"$H_ERR"; then
            why="no error at line $want_line"
        fi
        case $check in
        say:*) [ -z "$why" ] && ! grep -qF "${check#say:}" <<<"$H_ERR" && why="no error says '${check#say:}'" ;;
        esac
    fi
    if [ -z "$why" ] && [ "$H_STATUS" -eq 0 ]; then
        case $check in
        cc)
            if [ -f "$INC/jni.h" ] && ! "$CC" -fsyntax-only -I"$INC" -I"$INC/linux" -x c \
                "$H_OUT/jvmti.h" >"$H_OUT.cc" 2>&1; then
                why="jvmti.h does not compile: $(head -2 "$H_OUT.cc" | tr '\n' ' ')"
            fi ;;
        same:*)
            local ref=${check#same:} f
            for f in "$REF_OUTS/$ref"/*; do
                if [ -d "$f" ]; then diff -rq "$f" "$H_OUT/${f##*/}" >/dev/null 2>&1
                else cmp -s "$f" "$H_OUT/${f##*/}"; fi ||
                    { why="${f##*/} differs from the outputs of $ref"; break; }
            done ;;
        esac
    fi
    if [ -z "$why" ]; then
        ok "hostile: $name (exit $H_STATUS)"
    else
        not_ok "hostile: $name: $why"
        printf '%s\n' "$H_ERR" | head -5 | cut -c1-300 | cat -v | sed 's/^/# /'
    fi
}

# Outputs of the cases others are compared with.
REF_OUTS=$(scratch hostile-refs)
while IFS=$'\t' read -r name statuses line check args; do
    case $check in same:*) ;; *) continue ;; esac
    ref=${check#same:}
    [ -d "$REF_OUTS/$ref" ] && continue
    mkdir -p "$REF_OUTS/$ref"
    cpu_limited "$JVMTIGEN" -q --time-limit 0 -o "$REF_OUTS/$ref" "$cases/$ref.xml" || not_ok "hostile: reference $ref does not generate"
done <"$cases/manifest"

zero=0 total=0
while IFS=$'\t' read -r name statuses line check args; do
    file=$cases/$name.xml
    extra=()
    [ "$args" != - ] && extra=($args)
    hostile_run "$file" "${extra[@]}"
    result "$name" "$file" "$statuses" "$line" "$check"
    total=$((total + 1))
    [ "$H_STATUS" -eq 0 ] && zero=$((zero + 1))
done <"$cases/manifest"
# Damage must have been judged both ways: some variants stay valid.
[ "$zero" -gt 0 ] && [ "$zero" -lt "$total" ] && ok "hostile: $total generated cases, $zero of them still valid" ||
    not_ok "hostile: $total generated cases, $zero valid: the generator of cases is broken"

# ---- what the fuzzers found: never a crash, a hang or a bad diagnostic ----
for file in tests/fuzz/regressions/*.xml; do
    [ -e "$file" ] || continue
    hostile_run "$file"
    result "fuzz regression $(basename "$file" .xml)" "$file" "0 1" - -
done

# ---- I/O failures: status 3, the output directory as it was ----
valid=tests/checks/fixtures/valid.xml
hostile_run "$cases/odd"
result "a directory as the spec" "$cases/odd" 3 - -
hostile_run "$cases/no-such-spec.xml"
result "a spec that does not exist" "$cases/no-such-spec.xml" 3 - -

# --time-limit: a spec that never finishes arriving (a pipe no one writes
# to) is given up on, with a FILE: error, exit 1 and nothing written.
d=$(scratch hostile-pipe)
mkfifo "$d/spec.xml"
hostile_run "$d/spec.xml" --time-limit=1
result "a spec that is a FIFO (it would never arrive): refused unread" "$d/spec.xml" 3 - \
    "say:not a regular file"

d=$(scratch hostile-io)
: >"$d/plain-file"
err=$(cpu_limited "$JVMTIGEN" --time-limit 0 -o "$d/plain-file" "$valid" 2>&1)
status=$?
check "hostile: -o naming a plain file: exit 3 (got $status), the file untouched" \
    test "$status" = 3 -a ! -s "$d/plain-file" -a -n "$err"

# A directory where an output goes: refused before anything is written.
H_OUT=$(scratch hostile)/out
cp -a "$HOSTILE_BASE" "$H_OUT"
rm "$H_OUT/jvmtigen_post.c" && mkdir "$H_OUT/jvmtigen_post.c"
before=$(dir_state "$H_OUT")
err=$(cpu_limited "$JVMTIGEN" --time-limit 0 -o "$H_OUT" "$cases/encoding/UTF-8/spec.xml" 2>&1)
status=$?
if [ "$status" = 3 ] && [ "$before" = "$(dir_state "$H_OUT")" ] &&
    grep -q "^$H_OUT/jvmtigen_post.c: error: " <<<"$err"; then
    ok "hostile: a directory in place of an output: exit 3, nothing written"
else
    not_ok "hostile: a directory in place of an output: exit $status, or the directory changed"
    printf '%s\n' "$err" | head -5
fi

# A file size limit reached half-way: nothing replaced (no SIGXFSZ either).
H_OUT=$(scratch hostile)/out
cp -a "$HOSTILE_BASE" "$H_OUT"
before=$(dir_state "$H_OUT")
err=$(ulimit -f 40; cpu_limited "$JVMTIGEN" --time-limit 0 -o "$H_OUT" "$cases/tables/1024-functions.xml" 2>&1)
status=$?
if [ "$status" = 3 ] && [ "$before" = "$(dir_state "$H_OUT")" ] && grep -q 'File too large' <<<"$err"; then
    ok "hostile: a file size limit half-way: exit 3, nothing replaced"
else
    not_ok "hostile: a file size limit half-way: exit $status, or the directory changed"
    printf '%s\n' "$err" | head -5
fi
. tests/hostile/all-or-nothing.sh
exit 0
