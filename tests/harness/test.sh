#!/usr/bin/env bash
# The harness itself: tests/tap turns a suite's lines into TAP (numbered,
# "# SKIP", the plan last, '#' escaped, a silent non-zero exit made a
# failure) and prove runs a suite through it, on fixture suites whose
# expected TAP is written out by hand below; run-all's EXCEPT and times
# files, and tests/fuzz/run's FUZZ_JOBS on fake targets.
. tests/lib.sh

d=$(scratch harness)
mkdir -p "$d/good" "$d/bad" "$d/silent"
cat >"$d/good/test.sh" <<'SUITE'
echo "ok - good: one"
echo "a line of context"
echo "skip - good: no tool here"
echo "ok - good: issue #12 fixed"
SUITE
cat >"$d/bad/test.sh" <<'SUITE'
echo "ok - bad: one"
echo "not ok - bad: two"
exit 1
SUITE
cat >"$d/silent/test.sh" <<'SUITE'
echo "ok - silent: one"
exit 3
SUITE

check "harness: tests/tap numbers the lines, skips as # SKIP, the plan last, '#' escaped" \
    diff <(printf '%s\n' 'ok 1 - good: one' '# a line of context' 'ok 2 # SKIP good: no tool here' \
        'ok 3 - good: issue \#12 fixed' '1..3') <(tests/tap "$d/good/test.sh")
check "harness: a failure stays one 'not ok' (no extra line for its exit status)" \
    diff <(printf '%s\n' 'ok 1 - bad: one' 'not ok 2 - bad: two' '1..2') <(tests/tap "$d/bad/test.sh")
check "harness: a suite that exits non-zero without a 'not ok' gets one" \
    diff <(printf '%s\n' 'ok 1 - silent: one' 'not ok 2 - silent: suite exited with status 3' '1..2') \
        <(tests/tap "$d/silent/test.sh")
if need_tool "harness: prove -e tests/tap" prove; then
    check "harness: prove -e tests/tap passes a good suite" prove -e tests/tap "$d/good/test.sh"
    check "harness: ... and fails a bad one and a silent one" \
        bash -c '! prove -e tests/tap "$1" && ! prove -e tests/tap "$2"' _ "$d/bad/test.sh" "$d/silent/test.sh"
fi

# ---- a missing tool (lib.sh's lack and need_tool, deps/debian.txt) ----
# A PATH with bash and nothing else: python3 and valgrind are missing.
nopath=$d/nopath
mkdir -p "$nopath"
for t in bash awk sed mktemp; do ln -s "$(command -v $t)" "$nopath/$t"; done
tool_lines() { PATH=$nopath STRICT=$1 bash -c '. tests/lib.sh
    need_tool "x: needs both" bash python3 || echo "(false)"
    need_tool "x: has bash" bash && echo "(true)"
    lack "x: a page" jvmti.html
    lack "x: node packages" vnu-jar "npm: cd tests/docs && npm ci"
    with_tool valgrind check "x: under valgrind" false
    cd / && lack "x: after a cd" python3'; }
check "harness: need_tool, lack and with_tool skip naming the tool and its Debian package from deps/debian.txt" \
    diff <(printf '%s\n' 'skip - x: needs both: needs python3 (Debian: python3)' '(false)' '(true)' \
        'skip - x: a page: needs jvmti.html (Debian: openjdk-17-doc)' \
        'skip - x: node packages: needs vnu-jar (npm: cd tests/docs && npm ci)' \
        'skip - x: under valgrind: needs valgrind (Debian: valgrind)' \
        'skip - x: after a cd: needs python3 (Debian: python3)') <(tool_lines 0)
check "harness: ... and under STRICT=1 each is a failure" \
    diff <(tool_lines 0 | sed 's/^skip - /not ok - /') <(tool_lines 1)
# Every tool a suite names literally is in the list (else its skip line
# would name no package).
unlisted=$(grep -ohE '(need_tool|with_tool) "[^"]*"( [a-z][a-z0-9+.-]*)+|with_tool [a-z][a-z0-9+.-]* ' $(ls tests/*/*.sh | grep -vx tests/harness/test.sh) |
    sed -E 's/^need_tool "[^"]*"//; s/^with_tool //' | tr ' ' '\n' | sed '/^$/d' | sort -u |
    while read -r t; do [ -n "$(deps_package "$t")" ] || echo "$t"; done)
check "harness: every tool the suites name is in deps/debian.txt" test -z "$unlisted"
[ -z "$unlisted" ] || echo "# not listed: $unlisted"

# run-all ends with the tools missed and the one command that installs
# them, in a copy of the harness with two suites of its own.
r=$d/run-all
mkdir -p "$r/tests/a" "$r/tests/b" "$r/deps"
cp tests/run-all tests/lib.sh tests/jni.sh "$r/tests/" && cp deps/debian.txt "$r/deps/"
printf '. tests/lib.sh\nok "a: one"\nlack "a: two" valgrind\nlack "a: three" python3\n' >"$r/tests/a/test.sh"
printf '. tests/lib.sh\nok "b: one"\nlack "b: two" python3\nlack "b: js" vnu-jar "npm: cd tests/docs && npm ci"\n' >"$r/tests/b/test.sh"
runall_tail() { env -u ONLY STRICT=$1 SHARED_SPECS="$d/none" "$r/tests/run-all" | tail -n 3; }
check "harness: run-all's last lines: the tools missed, with their packages, and make deps" \
    diff <(printf '%s\n' 'skipped for want of: python3 (python3), valgrind (valgrind), vnu-jar (cd tests/docs && npm ci)' \
        'to install it all: make deps (deps/debian.txt lists the packages; npm ci in tests/docs for the node ones)' \
        '2 passed, 0 failed, 4 skipped') <(runall_tail 0)
check "harness: ... and under STRICT=1 they failed, and so does the run" \
    bash -c '[ "$(sed -n 1p <<<"$1")" = "failed for want of: python3 (python3), valgrind (valgrind), vnu-jar (cd tests/docs && npm ci)" ] &&
             [ "$(sed -n 3p <<<"$1")" = "2 passed, 4 failed, 0 skipped" ] &&
             ! env -u ONLY STRICT=1 SHARED_SPECS="$2" "$3" >/dev/null' _ "$(runall_tail 1)" "$d/none" "$r/tests/run-all"

check "harness: run-all EXCEPT=b leaves suite b out" \
    test "$(env -u ONLY STRICT=0 EXCEPT=b SHARED_SPECS="$d/none" "$r/tests/run-all" | tail -n 1)" = "1 passed, 0 failed, 2 skipped"
# A run without the reference specs keeps its suites' times apart from the
# plain run's, whose order the next plain or sanitized run follows.
# (Under SANITIZE the key names the sanitizers first.)
key=${SANITIZE:+san-${SANITIZE//,/-}-}refs-0
check "harness: ... and a run without the reference specs keeps its times in build/suite-times-$key only" \
    bash -c '[ -s "$1/build/suite-times-$2" ] && [ ! -e "$1/build/suite-times" ]' _ "$r" "$key"

# tests/fuzz/run, FUZZ_JOBS=2: each target's lines together and in the
# order given, and a target that fails fails the run (fake targets).
f=$d/fuzz
mkdir -p "$f"
printf '#!/bin/sh\nsleep 1\n' >"$f/slow_fuzz"
printf '#!/bin/sh\necho "==1== ERROR: boom"; exit 1\n' >"$f/bad_fuzz"
printf '#!/bin/sh\n' >"$f/quick_fuzz"
chmod +x "$f"/*_fuzz
fuzz_lines() { FUZZ_DIR="$f/dir" FUZZ_SECONDS=1 FUZZ_JOBS=2 tests/fuzz/run "$@" 2>&1 | grep -v 'over all runs' | grep -E '^fuzz: [a-z]+: (a regression|[?0-9])' | cut -d: -f2; }
check "harness: tests/fuzz/run FUZZ_JOBS=2 prints each target's lines in the order given" \
    diff <(printf '%s\n' ' slow' ' slow' ' quick' ' quick') <(fuzz_lines "$f/slow_fuzz" "$f/quick_fuzz")
check "harness: ... and a failing target fails the run" \
    bash -c '! FUZZ_DIR="$1/dir" FUZZ_SECONDS=1 FUZZ_JOBS=2 tests/fuzz/run "$1/quick_fuzz" "$1/bad_fuzz" >/dev/null 2>&1' _ "$f"

# tests/cpu-limit.c (hostile_run's limit, tests/lib.sh): a command that
# spins is stopped by its CPU time (152, SIGXCPU), one blocked for good by
# using none (124), and an exit status passes through.
check "harness: tests/cpu-limit.c builds" cpu_limit_tool
check "harness: cpu-limit stops a loop at its CPU limit (exit 152)" \
    bash -c '"$1" 1 bash -c "while :; do :; done"; [ $? = 152 ]' _ "$CPU_LIMIT_TOOL"
check "harness: ... stops a command that uses no CPU for CPU_LIMIT_IDLE seconds (exit 124)" \
    bash -c 'CPU_LIMIT_IDLE=2 "$1" 60 sleep 600 2>/dev/null; [ $? = 124 ]' _ "$CPU_LIMIT_TOOL"
check "harness: ... and passes an exit status on" bash -c '"$1" 5 sh -c "exit 7"; [ $? = 7 ]' _ "$CPU_LIMIT_TOOL"

. tests/harness/shared-builds.sh

# The README says what deps/debian.txt says: its install line names the
# build packages, its Needs paragraph every package.
build_pkgs=$(awk '{ sub(/#.*/, "") } $1 == "build" { printf "%s%s", sep, $2; sep = " " }' deps/debian.txt)
check "harness: the README's install line is deps/debian.txt's build packages ($build_pkgs)" \
    grep -qxF "sudo apt-get install --no-install-recommends $build_pkgs" README.md
needs=$(sed -n '/^Needs (/,/^$/p' README.md | tr '`;,()\n' '      ' | tr -s ' ' '\n')
unnamed=$(awk '{ sub(/#.*/, "") } NF { print $2 }' deps/debian.txt |
    while read -r p; do grep -qxF -- "$p" <<<"$needs" || echo "$p"; done)
check "harness: the README's Needs paragraph names every package of deps/debian.txt" test -z "$unnamed"
[ -z "$unnamed" ] || echo "# not named: $unnamed"
