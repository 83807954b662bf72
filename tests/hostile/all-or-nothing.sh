# Sourced by tests/hostile/test.sh: the output directory holds the previous
# complete set or the new one, never a mix, whatever fails or stops a run:
# a rename that fails (an LD_PRELOAD library, interpose.c, makes the Nth
# fail), a signal while the files are written or renamed, a run killed
# outright before (its leftovers), two runs of different specs at once.
aon=$(scratch hostile-aon)
SPEC_A=tests/checks/fixtures/valid.xml            # the base set (hostile_setup)
SPEC_B=tests/security/fixtures/internal-ok.xml    # another set: other pages, other text
if ! cc -shared -fPIC -o "$aon/interpose.so" tests/hostile/interpose.c -ldl 2>"$aon/cc.log"; then
    skip "hostile: all or nothing (cannot build tests/hostile/interpose.c: $(head -1 "$aon/cc.log"))"
    return 0 2>/dev/null || exit 0
fi
"$JVMTIGEN" -q -o "$aon/A" "$SPEC_A" && "$JVMTIGEN" -q -o "$aon/B" "$SPEC_B" ||
    { not_ok "hostile: all or nothing: cannot generate the two sets"; return 0 2>/dev/null || exit 0; }
files_of() { (cd "$1" && find . -type f ! -name notes.txt -exec cksum {} + | sort); }
state_of() { (cd "$1" && find . -type f -printf '%p %s %m %T@\n' | sort && find . -type f -exec cksum {} + | sort); }
# a run of SPEC_B over a copy of the base set, with the environment given
# (and the command AON_WRAP before it, if set); a CPU limit, no wall-clock
# one (tests/lib.sh's hostile_run says why)
AON_WRAP=()
aon_run() { # ENV...
    AON_OUT=$(scratch hostile-aon-run)/out
    cp -a "$HOSTILE_BASE" "$AON_OUT"
    AON_BEFORE=$(state_of "$AON_OUT")
    AON_ERR=$("${AON_WRAP[@]}" "$CPU_LIMIT_TOOL" "${HOSTILE_CPU_LIMIT:-60}" env LD_PRELOAD="$aon/interpose.so" ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "$@" "$JVMTIGEN" --time-limit 0 -o "$AON_OUT" "$SPEC_B" 2>&1 >/dev/null </dev/null)
    AON_STATUS=$?
}
n_files=$(find "$aon/B" -type f | wc -l)
for n in 1 2 $((n_files / 2)) $((n_files - 1)) "$n_files"; do
    aon_run JVMTIGEN_FAIL_RENAME=$n
    why=
    [ "$AON_STATUS" = 3 ] || why="exit status $AON_STATUS, expected 3"
    [ -z "$why" ] && [ "$(state_of "$AON_OUT")" != "$AON_BEFORE" ] &&
        why="the directory changed: $(diff <(echo "$AON_BEFORE") <(state_of "$AON_OUT") | grep -c '^>') lines differ"
    [ -z "$why" ] && [ -n "$(find "$AON_OUT" -name '.*')" ] && why="temporary files left: $(find "$AON_OUT" -name '.*' | head -2)"
    if [ -z "$why" ]; then ok "hostile: rename $n of $n_files fails: the previous set is back, untouched (exit 3)"
    else not_ok "hostile: rename $n of $n_files fails: $why"; printf '%s\n' "$AON_ERR" | head -3; fi
done

# SIGTERM at the 2nd rename: the renames finish, then the signal; the set is
# the new one. SIGINT while the temporary files are written: none is left,
# the set is the old one.
for n in 2 $((n_files - 1)); do
    aon_run JVMTIGEN_SIGNAL=15 JVMTIGEN_SIGNAL_AT_RENAME=$n
    why=
    [ "$AON_STATUS" = 143 ] || why="exit status $AON_STATUS, expected 143 (SIGTERM)"
    [ -z "$why" ] && [ "$(files_of "$aon/B")" != "$(files_of "$AON_OUT")" ] && why="the directory is not the new set"
    [ -z "$why" ] && [ -n "$(find "$AON_OUT" -name '.*')" ] && why="files left: $(find "$AON_OUT" -name '.*' | head -2)"
    if [ -z "$why" ]; then ok "hostile: SIGTERM at rename $n: the renames finish first, the set is the new one"
    else not_ok "hostile: SIGTERM at rename $n: $why"; fi
done
# The third case inherits SIGINT ignored, as a background job of a
# non-interactive shell does (`make check &`): the signal sent must still
# have its default action (interpose.c resets it).
for n in 1 $((n_files / 2)) 1-ignored; do
    AON_WRAP=()
    [ "$n" = 1-ignored ] && AON_WRAP=(bash -c 'trap "" INT; exec "$@"' sigint-ignored)
    aon_run JVMTIGEN_SIGNAL=2 JVMTIGEN_SIGNAL_AT_MKSTEMP=${n%-ignored}
    AON_WRAP=()
    [ "$n" = 1-ignored ] && n="1, SIGINT ignored by the caller"
    why=
    [ "$AON_STATUS" = 130 ] || why="exit status $AON_STATUS, expected 130 (SIGINT)"
    [ -z "$why" ] && [ "$(state_of "$AON_OUT")" != "$AON_BEFORE" ] && why="the directory changed"
    [ -z "$why" ] && [ -n "$(find "$AON_OUT" -name '.*')" ] && why="temporary files left: $(find "$AON_OUT" -name '.*' | wc -l)"
    if [ -z "$why" ]; then ok "hostile: SIGINT while writing temporary file $n: none left, the old set untouched"
    else not_ok "hostile: SIGINT while writing temporary file $n: $why"; fi
done

# A caller that ignores SIGINT on purpose (and leaves it ignored: the
# interposer keeps the disposition): the signal stops nothing, the run
# finishes with the new set. It used to stop with exit 3, the ignored
# signal seen pending while held.
AON_WRAP=(bash -c 'trap "" INT; exec "$@"' sigint-ignored)
aon_run JVMTIGEN_SIGNAL=2 JVMTIGEN_SIGNAL_AT_MKSTEMP=1 JVMTIGEN_SIGNAL_INHERIT=1
AON_WRAP=()
why=
[ "$AON_STATUS" = 0 ] || why="exit status $AON_STATUS, expected 0: $(head -1 <<<"$AON_ERR")"
[ -z "$why" ] && [ "$(files_of "$aon/B")" != "$(files_of "$AON_OUT")" ] && why="the directory is not the new set"
[ -z "$why" ] && [ -n "$(find "$AON_OUT" -name '.*')" ] && why="files left: $(find "$AON_OUT" -name '.*' | head -2)"
if [ -z "$why" ]; then ok "hostile: SIGINT ignored by the caller, sent while writing: the run carries on, the set is the new one"
else not_ok "hostile: SIGINT ignored by the caller, sent while writing: $why"; fi

# What a run killed outright leaves (named as ours) goes at the next run;
# a file of the user's that merely starts with a dot stays.
d=$(scratch hostile-leftovers)/out
cp -a "$HOSTILE_BASE" "$d"
touch "$d/.jvmti.h.jvmtigen-tmp.Ab3xYz" "$d/.jvmti.h.jvmtigen-old.q1w2e3" "$d/man/man3/.Paint.3.jvmtigen-tmp.zzzzzz" \
    "$d/.jvmti.h.mine" "$d/.x.jvmtigen-tmp.toolongname"
"$JVMTIGEN" -q -o "$d" "$SPEC_A"
check "hostile: the leftovers of a killed run are removed by the next, and nothing else" \
    bash -c "[ -z \"\$(find '$d' -name '*.jvmtigen-*.??????')\" ] && [ -e '$d/.jvmti.h.mine' ] && [ -e '$d/.x.jvmtigen-tmp.toolongname' ]"

# Two runs of different specs into one directory at once, many times: each
# ends 0 and the directory is one complete set.
mixed=0 failed=0
for i in $(seq 1 12); do
    d=$(scratch hostile-race)/out
    cpu_limited "$JVMTIGEN" -q --time-limit 0 -o "$d" "$SPEC_A" & p1=$!
    cpu_limited "$JVMTIGEN" -q --time-limit 0 -o "$d" "$SPEC_B" & p2=$!
    wait $p1 || failed=$((failed + 1))
    wait $p2 || failed=$((failed + 1))
    s=$(files_of "$d")
    [ "$s" = "$(files_of "$aon/A")" ] || [ "$s" = "$(files_of "$aon/B")" ] || mixed=$((mixed + 1))
done
if [ $mixed = 0 ] && [ $failed = 0 ]; then ok "hostile: two writers at once, 12 times: one complete set each time, every run exit 0"
else not_ok "hostile: two writers at once, 12 times: $mixed mixed directories, $failed failed runs"; fi

# The process rendering jvmti.html killed: an internal failure (exit 3),
# not an invalid spec (exit 1); nothing replaced. JVMTIGEN_JOBS=2: the
# default renders in one process, and there would be no helper to kill.
aon_run JVMTIGEN_JOBS=2 JVMTIGEN_SIGNAL_CHILD=9
if [ "$AON_STATUS" = 3 ] && [ "$(state_of "$AON_OUT")" = "$AON_BEFORE" ] &&
    grep -q "the process rendering jvmti.html died (signal 9)" <<<"$AON_ERR"; then
    ok "hostile: a killed docs helper is exit 3, and nothing is replaced"
else not_ok "hostile: a killed docs helper: exit $AON_STATUS, expected 3"; printf '%s\n' "$AON_ERR" | head -3; fi
