# Helpers for test suites. Source it: . tests/lib.sh
# Prints TAP-like lines that tests/run-all counts.

JVMTIGEN="${JVMTIGEN:-bin/jvmtigen}"
# The reference specs (OpenJDK's jdk17/, jdk25/, mainline/jvmti.xml) are not
# part of the project: checks that need one skip when it is missing.
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

# need_refs WHAT NAME...: true when every named reference spec is there;
# otherwise one skip line saying what WHAT needs and how to provide it.
need_refs() {
    local what=$1 name; shift
    for name; do
        [ -f "$SHARED_SPECS/$name/jvmti.xml" ] && continue
        skip "$what (needs $SHARED_SPECS/$name/jvmti.xml: set SHARED_SPECS to a folder holding jdk17/, jdk25/ and mainline/jvmti.xml, or put them in ../shared/spec)"
        return 1
    done
}

# ---- tools (deps/debian.txt says which Debian package gives each) ----

# The list, by a name that still holds after a suite's cd.
DEPS_LIST=${DEPS_LIST:-$PWD/deps/debian.txt}

# deps_package NAME: the package deps/debian.txt lists NAME under (a
# command, or one of the list's other names: jni.h, -m32, ...).
deps_package() {
    awk -v n="$1" '{ sub(/#.*/, "") } { for (i = 3; i <= NF; i++) if ($i == n) { print $2; exit } }' \
        "$DEPS_LIST"
}

# lack LABEL NAME [HOW]: LABEL cannot run without NAME. One line,
#   skip - LABEL: needs NAME (Debian: PACKAGE)
# (HOW instead of the package for what no Debian package gives); under
# STRICT=1 (CI) it is `not ok`, so that a run never passes by skipping.
# tests/run-all sums these lines up.
lack() {
    local how=${3:-} line
    [ -n "$how" ] || how="Debian: $(deps_package "$2")"
    [ "$how" != "Debian: " ] || how="not in deps/debian.txt"
    line="$1: needs $2 ($how)"
    if [ "${STRICT:-0}" = 1 ]; then not_ok "$line"; else skip "$line"; fi
}

# need_tool LABEL COMMAND...: true when every COMMAND is on PATH; else
# false, lack naming the first that is not: `need_tool ... || exit 0`.
need_tool() {
    local label=$1 t
    shift
    for t; do command -v "$t" >/dev/null 2>&1 || { lack "$label" "$t"; return 1; }; done
}

# with_tool TOOL check DESC ARGS...: the check (or any command whose first
# argument is its description) when TOOL is on PATH; else one lack line
# for it. Stdin passes through (a here-document for python3 -).
with_tool() {
    local tool=$1
    shift
    if command -v "$tool" >/dev/null 2>&1; then "$@"; else lack "$2" "$tool"; fi
}

# jni_include (tests/jni.sh): where jni.h is.
. tests/jni.sh

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
# JVMTIGEN_FREE_AT_EXIT=1: what a run keeps for the exit is freed as well,
# so every allocation must be given back.
valgrind_check() {
    local label=$1 desc=$2 want=$3 log status; shift 3
    log=$(scratch vg)/log
    JVMTIGEN_FREE_AT_EXIT=1 valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all \
        --error-exitcode=99 --log-file="$log" "$JVMTIGEN" "$@" >/dev/null 2>&1
    status=$?
    if [ "$status" -eq "$want" ] && [ ! -s "$log" ]; then ok "$label: $desc"
    else not_ok "$label: $desc (status $status, wanted $want)"; head -30 "$log"; fi
}

# ---- hostile input (tests/hostile, tests/security) ----

# hostile_setup: a complete set of generated outputs and a file of the
# user's, all with an old timestamp; each hostile run starts from a copy.
hostile_setup() {
    cpu_limit_tool || return 1
    HOSTILE_BASE=$(scratch hostile-base)
    "$JVMTIGEN" -q -o "$HOSTILE_BASE" tests/checks/fixtures/valid.xml || return 1
    printf 'mine\n' >"$HOSTILE_BASE/notes.txt"
    touch -d '2001-02-03 04:05:06' "$HOSTILE_BASE"/*
}

# dir_state DIR: the names, kinds, sizes, modes, mtimes and checksums of
# everything in DIR.
dir_state() {
    (cd "$1" && find . -mindepth 1 -printf '%p %y %s %m %T@\n' | sort &&
        find . -type f -exec cksum {} + | sort)
}

# cpu_limit_tool: builds tests/cpu-limit.c into $CPU_LIMIT_TOOL (once a
# run; hostile_setup does). cpu_limited COMMAND...: COMMAND with at most
# HOSTILE_CPU_LIMIT seconds (60) of processor time per process (exit 152
# or 137 past it, 124 when it uses none for CPU_LIMIT_IDLE seconds: blocked).
CPU_LIMIT_SRC=$PWD/tests/cpu-limit.c # by a name that holds after a cd
CPU_LIMIT_TOOL=$TESTS_TMP/cpu-limit
cpu_limit_tool() {
    [ -x "$CPU_LIMIT_TOOL" ] ||
        "${CC:-cc}" -std=c11 -O2 -Wall -Wextra -Werror -o "$CPU_LIMIT_TOOL" "$CPU_LIMIT_SRC"
}
cpu_limited() { "$CPU_LIMIT_TOOL" "${HOSTILE_CPU_LIMIT:-60}" "$@"; }

# hostile_run FILE [ARGS...]: runs `jvmtigen -o DIR ARGS FILE` (stdin
# closed) on a fresh copy of the base outputs. Sets H_STATUS, H_ERR (its
# stderr), H_OUT (DIR) and H_WHY: empty, or what is wrong whatever the
# input: a hang, a signal, a line of stderr that is not a diagnostic
# (FILE:[LINE:] error|warning|note: ...), a failed run that changed DIR, a
# successful one that left DIR incomplete or different from a second run's.
# A hang is judged by processor time, which a loaded machine does not
# stretch (under ASan at load 13 a case of 11 s of CPU took 66 s): each
# run may use HOSTILE_CPU_LIMIT seconds of CPU (default 60), or stop using
# any for CPU_LIMIT_IDLE seconds (blocked), tests/cpu-limit.c; and it runs
# with --time-limit 0, the generator's own limit being wall time, unless
# ARGS give a --time-limit (a case about that limit: the last one given
# counts).
hostile_run() {
    local file=$1 before after line fresh f
    shift
    H_OUT=$(scratch hostile)/out
    cp -a "$HOSTILE_BASE" "$H_OUT"
    before=$(dir_state "$H_OUT")
    H_ERR=$(cpu_limited "$JVMTIGEN" -o "$H_OUT" --time-limit 0 "$@" "$file" 2>&1 >/dev/null </dev/null)
    H_STATUS=$?
    H_WHY=
    case $H_STATUS in
    124) H_WHY="blocked: no CPU used for ${CPU_LIMIT_IDLE:-120} s"; return ;;
    137 | 152) H_WHY="used more than ${HOSTILE_CPU_LIMIT:-60} s of CPU"; return ;;
    0 | 1 | 2 | 3) ;;
    *) H_WHY="exit status $H_STATUS"; [ "$H_STATUS" -gt 128 ] && H_WHY+=" (signal $((H_STATUS - 128)))"; return ;;
    esac
    while IFS= read -r line; do
        [ -z "$line" ] && continue
        [[ $line =~ ^[^[:space:]]+:([0-9]+:)?\ (error|warning|note):\  ]] && continue
        H_WHY="a line of stderr that is not a diagnostic naming a file: ${line:0:200}"
        return
    done <<<"$H_ERR"
    if [ "$H_STATUS" -ne 0 ]; then
        after=$(dir_state "$H_OUT")
        [ "$before" = "$after" ] || H_WHY="the output directory changed: $(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | head -3 | tr '\n' ' ')"
        return
    fi
    [ "$(cat "$H_OUT/notes.txt" 2>/dev/null)" = mine ] || { H_WHY="the user's file changed"; return; }
    fresh=$(scratch hostile-fresh)
    if ! cpu_limited "$JVMTIGEN" -q -o "$fresh" --time-limit 0 "$@" "$file" </dev/null >/dev/null 2>&1; then
        H_WHY="a second run failed"; return
    fi
    for f in "$HOSTILE_BASE"/*; do
        f=${f##*/}
        [ "$f" = notes.txt ] && continue
        if [ -d "$HOSTILE_BASE/$f" ]; then # man/: every page
            diff -rq "$fresh/$f" "$H_OUT/$f" >/dev/null 2>&1
        else
            cmp -s "$fresh/$f" "$H_OUT/$f"
        fi || { H_WHY="$f is missing, incomplete or differs from a second run's"; return; }
    done
    [ -z "$(find "$H_OUT" -name '.*' -type f)" ] || { H_WHY="a temporary file was left behind"; return; }
    # Spec text goes into comments: a line ending in a backslash (which C
    # joins to the next before finding comments) or a trigraph could let
    # it out; the generated C has neither.
    f=$(grep -lE '\\[[:space:]]*$|\?\?[=/()!<>'"'"'-]' "$H_OUT"/*.c "$H_OUT"/*.h 2>/dev/null | head -1)
    [ -z "$f" ] || H_WHY="${f##*/} has a line-ending backslash or a trigraph"
}

# ---- builds shared between suites (tests/jdks, tests/jdb) ----

# shared_build NAME SPEC FLAGS TARGET...: the core, the host and the
# checker built from SPEC with the generator flags FLAGS (make's TARGETs,
# its BINDIR, LIBDIR, OUT, ... all in one folder) in
# build/shared-builds/NAME-HASH, HASH of what the build depends on beyond
# the tree (the spec's path and bytes, FLAGS, CC, SANITIZE, jni.h's
# folder): a suite that needs the build another suite makes (jdks and jdb:
# JDK 17's spec) reuses it instead of building it again. Sets SHARED_BUILD
# (the folder) and SHARED_BUILD_DIRS (make's variables for it); make's
# output goes to $SHARED_BUILD.log. Suites running at once take turns
# under an exclusive lock (flock): the first builds, the next finds
# nothing to do (make -q) and makes nothing, so no make ever writes to the
# folder while a suite reads it. False when make fails.
# The caller holds a shared lock on $SHARED_BUILD.use until it exits (the
# build is in use); $SHARED_BUILD.use's time is the build's last use. Each
# call prunes the others (shared_builds_prune).
shared_build() {
    local name=$1 spec=$2 flags=$3 key fd ufd gfd status=0
    shift 3
    key=$( { realpath "$spec" && cat "$spec" &&
             printf '\n%s\n' "$flags" "${CC:-cc}" "${SANITIZE:-}" "${JNI_INCLUDE:-}"; } | sha256sum | cut -c1-16)
    SHARED_BUILD=$PWD/build/shared-builds/$name-$key
    SHARED_BUILD_DIRS=(BINDIR="$SHARED_BUILD/bin" LIBDIR="$SHARED_BUILD/lib" OUT="$SHARED_BUILD/out"
        RTDIR="$SHARED_BUILD/rt" CHECKDIR="$SHARED_BUILD/check" LINKED_BY="$SHARED_BUILD/linked-by"
        SPEC="$spec" JVMTIGEN_FLAGS="$flags")
    mkdir -p "$SHARED_BUILD" || return 1
    # Under the folder's lock: this build marked in use (never waits: only
    # a pruner, holding this lock, locks a .use exclusively), then the rest
    # pruned. The .use lock stays until this shell exits.
    exec {gfd}>>"${SHARED_BUILD%/*}/.lock" && flock -x "$gfd" || return 1
    exec {ufd}>>"$SHARED_BUILD.use" && flock -s "$ufd" && touch "$SHARED_BUILD.use" || { exec {gfd}>&-; return 1; }
    shared_builds_prune "${SHARED_BUILD%/*}"
    exec {gfd}>&-
    exec {fd}>>"$SHARED_BUILD.lock" || return 1
    flock -x "$fd"
    local mk=(make -s CC="${CC:-cc}" SANITIZE="${SANITIZE:-}" "${SHARED_BUILD_DIRS[@]}" "$@")
    "${mk[@]}" -q >/dev/null 2>&1 || { "${mk[@]}" -j2 >"$SHARED_BUILD.log" 2>&1 || status=$?; }
    exec {fd}>&-
    return $status
}

# shared_builds_prune DIR: removes the builds of DIR that no suite is using
# (no lock on their .use) and that are either unused for
# SHARED_BUILDS_DAYS days (default 14) or beyond the SHARED_BUILDS_KEEP
# (default 8) last used; each is 25 to 50 MB, and every CC, SANITIZE or
# spec path makes its own. Called under DIR/.lock, which every user of a
# build takes to mark it in use, so none can start using one being removed.
# A build in use stays, whatever its age and rank.
shared_builds_prune() {
    local dir=$1 keep=${SHARED_BUILDS_KEEP:-8} days=${SHARED_BUILDS_DAYS:-14} rank=0 t b pfd
    while read -r t b; do
        rank=$((rank + 1))
        [ "$rank" -le "$keep" ] && [ "$t" -ge "$(($(date +%s) - days * 86400))" ] && continue
        exec {pfd}>>"$b.use" || continue
        if flock -x -n "$pfd"; then rm -rf "$b" "$b.log" "$b.lock" "$b.use"; fi
        exec {pfd}>&-
    done < <(for b in "$dir"/*/; do
        b=${b%/}
        [ -d "$b" ] || continue
        # the last use; a build made before .use existed: its folder's time
        if [ -e "$b.use" ]; then stat -c '%Y' "$b.use"; else stat -c '%Y' "$b"; fi | tr '\n' ' '
        printf '%s\n' "$b"
    done | sort -k1,1nr -k2)
}
