#!/usr/bin/env bash
# The harness itself: tests/tap turns a suite's lines into TAP (numbered,
# "# SKIP", the plan last, '#' escaped, a silent non-zero exit made a
# failure) and prove runs a suite through it, on fixture suites whose
# expected TAP is written out by hand below.
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
if command -v prove >/dev/null; then
    check "harness: prove -e tests/tap passes a good suite" prove -e tests/tap "$d/good/test.sh"
    check "harness: ... and fails a bad one and a silent one" \
        bash -c '! prove -e tests/tap "$1" && ! prove -e tests/tap "$2"' _ "$d/bad/test.sh" "$d/silent/test.sh"
else
    skip "harness: prove is not installed (perl)"
fi
