# Sourced by tests/bench/run: jvmtigen on the bench's spec made 1, 4, 8
# and 16 times as large (tests/bench/scale-spec.py: every function and event
# written N times, numbered on), all outputs, a whole process each: its CPU
# time (best of BENCH_SCALE_RUNS), the bytes it wrote, its peak resident
# size (tests/bench/cputime.c). Linear: the CPU time per output byte the
# same at every size.
#   scale_bench SPEC TMPDIR
scale_bench() {
    local spec="$1" d="$2/scale" gen="${JVMTIGEN:-bin/jvmtigen}" clock="${BENCH_CPUTIME:?}"
    if ! command -v python3 >/dev/null; then
        echo "bench: scale: not measured: needs python3 (tests/bench/scale-spec.py)"
        return 0
    fi
    mkdir -p "$d"
    local n runs="${BENCH_SCALE_RUNS:-3}" c w rss best best_rss bytes spec_bytes per per1=""
    for n in ${BENCH_SCALES:-1 4 8 16}; do
        python3 tests/bench/scale-spec.py "$n" "$spec" >"$d/spec-$n.xml"
        spec_bytes=$(stat -c %s "$d/spec-$n.xml")
        best="" best_rss=""
        for _ in $(seq "$runs"); do
            rm -rf "$d/out"
            if ! "$clock" "$d/clock" "$gen" -q -o "$d/out" "$d/spec-$n.xml" 2>"$d/err"; then
                echo "bench: scale: x$n: jvmtigen failed: $(head -1 "$d/err") ($(wc -l <"$d/err") lines)"
                continue 2
            fi
            read -r c w rss <"$d/clock"
            if [ -z "$best" ] || ((c < best)); then best=$c; fi
            if [ -z "$best_rss" ] || ((rss < best_rss)); then best_rss=$rss; fi
        done
        bytes=$(find "$d/out" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
        per=$(awk -v c="$best" -v b="$bytes" 'BEGIN { printf "%.2f", c / b }')
        [ -n "$per1" ] || per1=$per
        awk -v n="$n" -v s="$spec_bytes" -v c="$best" -v b="$bytes" -v r="$best_rss" -v p="$per" -v p1="$per1" -v k="$runs" 'BEGIN {
            printf "bench: scale: spec x%d (%.1f MB): all outputs cpu %.0f ms (best of %d), %.1f MB written, %.1f ns per output byte (%.2fx x1'"'"'s; 1.0: linear), peak RSS %.0f MB (%.0fx the spec)\n",
                n, s / 1e6, c / 1e6, k, b / 1e6, p, p / p1, r / 1024, r * 1024 / s }'
    done
}
