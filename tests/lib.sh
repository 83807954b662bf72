# Helpers for test suites. Source it: . tests/lib.sh
# Prints TAP-like lines that tests/run-all counts.

JVMTIGEN="${JVMTIGEN:-bin/jvmtigen}"
SHARED_SPECS="${SHARED_SPECS:-../shared/spec}"
TESTS_TMP="${TESTS_TMP:-$(mktemp -d)}"

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; }
skip() { echo "skip - $*"; }

# check DESCRIPTION COMMAND...: ok if the command succeeds; its output is
# shown only when it fails.
check() {
    local desc=$1; shift
    local out
    if out=$("$@" 2>&1); then ok "$desc"; else not_ok "$desc"; printf '%s\n' "$out" | head -40; fi
}

# A fresh scratch directory under the run's temp dir.
scratch() { mktemp -d "$TESTS_TMP/$1.XXXXXX"; }

# run_gen OUTVAR_STDERR EXPECTED_STATUS ARGS...: runs jvmtigen, captures
# stderr into $GEN_ERR and the status into $GEN_STATUS.
run_gen() {
    GEN_ERR=$("$JVMTIGEN" "$@" 2>&1 >/dev/null)
    GEN_STATUS=$?
}

# valgrind_check LABEL DESC EXPECTED_STATUS ARGS...: runs jvmtigen ARGS under
# valgrind (leaks are errors); ok when it exits as expected with an empty log.
valgrind_check() {
    local label=$1 desc=$2 want=$3 log status; shift 3
    log=$(scratch vg)/log
    valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all \
        --error-exitcode=99 --log-file="$log" "$JVMTIGEN" "$@" >/dev/null 2>&1
    status=$?
    if [ "$status" -eq "$want" ] && [ ! -s "$log" ]; then ok "$label: $desc"
    else not_ok "$label: $desc (status $status, wanted $want)"; head -30 "$log"; fi
}
