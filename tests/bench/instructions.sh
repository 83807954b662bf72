# Sourced by tests/bench/run: issue 19's cost goals as instruction counts,
# each on its own line with its goal beside it.
#   instruction_goals SPEC TMPDIR
# The HTML page and the man pages are told apart inside one JVMTIGEN_JOBS=1
# run by callgrind's inclusive cost of render_html and render_man (so the
# counts need valgrind even where perf works); the C outputs are a
# --no-docs run, the parse is `xmllint --noout --valid`, and OpenJDK 17's
# pipeline is its five xsltproc transforms (../shared/anchors/openjdk17-xsl,
# README there) on the JDK 17 spec against one jvmtigen run on it.

# Instructions of a command run under callgrind (its output file is kept
# as $cg for inclusive_of).
count() {
    cg="$1"; shift
    valgrind --tool=callgrind --callgrind-out-file="$cg" "$@" >/dev/null 2>&1 || return 1
    awk '/^(summary|totals):/ { print $2; exit }' "$cg"
}

# Inclusive instructions of function $2 in callgrind file $1.
inclusive_of() {
    callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null |
        awk -v f=":$2 " 'index($0, f) { gsub(",", "", $1); print $1; exit }'
}

ratio_line() { # label, numerator, denominator, goal text
    awk -v l="$1" -v a="$2" -v b="$3" -v g="$4" 'BEGIN {
        printf "bench: %s %.2fx (%.0fM / %.0fM instructions) (%s)\n", l, a / b, a / 1e6, b / 1e6, g }'
}

instruction_goals() {
    local spec="$1" d="$2/ir" gen="${JVMTIGEN:-bin/jvmtigen}"
    mkdir -p "$d"
    if ! command -v valgrind >/dev/null || ! command -v callgrind_annotate >/dev/null; then
        echo "bench: instructions not counted: needs valgrind (callgrind)"
        return 0
    fi
    echo "bench: instructions counted by valgrind --tool=callgrind (perf stat's instruction counter is not used: the docs' share needs callgrind's per-function costs)"
    local parse c all html man
    parse=$(count "$d/parse" xmllint --noout --valid "$spec")
    c=$(count "$d/c" "$gen" -q --no-docs -o "$d/c.out" "$spec")
    all=$(JVMTIGEN_JOBS=1 count "$d/all" "$gen" -q -o "$d/all.out" "$spec")
    html=$(inclusive_of "$d/all" render_html)
    man=$(inclusive_of "$d/all" render_man)
    if [ -z "$parse" ] || [ -z "$c" ] || [ -z "$all" ] || [ -z "$html" ] || [ -z "$man" ]; then
        echo "bench: instructions not counted: a run under callgrind failed"
        return 0
    fi
    awk -v p="$parse" -v a="$all" 'BEGIN { printf "bench: instructions: validated parse %.0fM, all outputs in one process %.0fM\n", p / 1e6, a / 1e6 }'
    ratio_line "C outputs / validated parse" "$c" "$parse" "goal: at most 1.3x"
    ratio_line "HTML page / validated parse" "$html" "$parse" "goal: at most 3x"
    # What libxslt costs at least: copying a tree through templates into
    # HTML, the spec's (tests/bench/copy.xsl; its parse, unvalidated,
    # included), and one the size of the page (jvmti.html read back as
    # HTML, that parse taken off).
    local copy page_copy page_parse
    if command -v xsltproc >/dev/null; then
        copy=$(count "$d/copy" xsltproc --nonet --novalid -o "$d/copy.html" tests/bench/copy.xsl "$spec")
        page_copy=$(count "$d/pcopy" xsltproc --html --nonet -o "$d/pcopy.html" tests/bench/copy.xsl "$d/all.out/jvmti.html")
        page_parse=$(count "$d/pparse" xmllint --html --noout "$d/all.out/jvmti.html")
    fi
    if [ -n "$copy" ] && [ -n "$page_copy" ] && [ -n "$page_parse" ]; then
        ratio_line "floor: libxslt copying the spec into HTML / validated parse" "$copy" "$parse" "the issue took it for about 2x"
        awk -v h="$html" -v c="$page_copy" -v p="$page_parse" -v b="$parse" 'BEGIN {
            printf "bench: floor: libxslt copying a tree the size of jvmti.html into HTML %.0fM instructions (%.2fx a validated parse); the page costs %.2fx that\n", (c - p) / 1e6, (c - p) / b, h / (c - p) }'
    fi
    ratio_line "man pages / HTML page" "$man" "$html" "goal: at most 0.5x"
    jdk_goal "$d"
}

# OpenJDK 17's five transforms against jvmtigen, all outputs, on the JDK 17
# spec: instructions (one run each) and wall time (best of BENCH_JDK_RUNS).
jdk_goal() {
    local d="$1" gen="${JVMTIGEN:-bin/jvmtigen}"
    local xsl="${OPENJDK17_XSL:-../shared/anchors/openjdk17-xsl}" spec17="${SPEC17_BENCH:-../shared/spec/jdk17/jvmti.xml}"
    if [ ! -f "$xsl/jvmti.xsl" ] || [ ! -f "$spec17" ]; then
        echo "bench: OpenJDK 17's stylesheets not compared: needs $xsl (its README) and $spec17"
        return 0
    fi
    if ! command -v xsltproc >/dev/null; then
        echo "bench: OpenJDK 17's stylesheets not compared: needs xsltproc (apt-get install xsltproc)"
        return 0
    fi
    local j="$d/jdk" jdk=0 n ours
    mkdir -p "$j"
    # The JDK build's five transforms (the README's table).
    five() {
        local v=(--stringparam majorversion 17)
        xsltproc "${v[@]}" -o "$j/jvmti.h" "$xsl/jvmtiH.xsl" "$spec17" &&
        xsltproc "${v[@]}" --stringparam interface jvmti -o "$j/jvmtiEnter.cpp" "$xsl/jvmtiEnter.xsl" "$spec17" &&
        xsltproc "${v[@]}" --stringparam interface jvmti --stringparam trace Trace \
            -o "$j/jvmtiEnterTrace.cpp" "$xsl/jvmtiEnter.xsl" "$spec17" &&
        xsltproc "${v[@]}" -o "$j/jvmtiEnv.hpp" "$xsl/jvmtiHpp.xsl" "$spec17" &&
        xsltproc "${v[@]}" -o "$j/jvmti.html" "$xsl/jvmti.xsl" "$spec17"
    }
    local t
    for t in h e t hpp html; do
        case $t in
        h) n=$(count "$j/cg.$t" xsltproc --stringparam majorversion 17 -o "$j/x" "$xsl/jvmtiH.xsl" "$spec17") ;;
        e) n=$(count "$j/cg.$t" xsltproc --stringparam majorversion 17 --stringparam interface jvmti -o "$j/x" "$xsl/jvmtiEnter.xsl" "$spec17") ;;
        t) n=$(count "$j/cg.$t" xsltproc --stringparam majorversion 17 --stringparam interface jvmti --stringparam trace Trace -o "$j/x" "$xsl/jvmtiEnter.xsl" "$spec17") ;;
        hpp) n=$(count "$j/cg.$t" xsltproc --stringparam majorversion 17 -o "$j/x" "$xsl/jvmtiHpp.xsl" "$spec17") ;;
        html) n=$(count "$j/cg.$t" xsltproc --stringparam majorversion 17 -o "$j/x" "$xsl/jvmti.xsl" "$spec17") ;;
        esac
        [ -n "$n" ] || { echo "bench: OpenJDK 17's stylesheets not compared: xsltproc failed on $t"; return 0; }
        jdk=$((jdk + n))
    done
    ours=$(JVMTIGEN_JOBS=1 count "$j/cg.ours" "$gen" -q -o "$j/ours" "$spec17")
    [ -n "$ours" ] || { echo "bench: OpenJDK 17's stylesheets not compared: jvmtigen failed on $spec17"; return 0; }
    awk -v a="$jdk" -v b="$ours" 'BEGIN {
        printf "bench: OpenJDK 17 stylesheets / jvmtigen, JDK 17 spec, all outputs %.2fx faster (%.0fM / %.0fM instructions, jvmtigen in one process) (goal: at least 3x)\n", a / b, a / 1e6, b / 1e6 }'
    local runs="${BENCH_JDK_RUNS:-5}" best_jdk=999999999999 best_ours=999999999999 best_huge=999999999999 t0 t1 t2 t3
    for _ in $(seq "$runs"); do
        t0=$(date +%s%N); five || { echo "bench: OpenJDK 17's stylesheets failed"; return 0; }
        t1=$(date +%s%N); rm -rf "$j/ours"; "$gen" -q -o "$j/ours" "$spec17"; t2=$(date +%s%N)
        # xsltproc with its heap in huge pages, as jvmtigen's is (gen/base/heap.c)
        GLIBC_TUNABLES=glibc.malloc.hugetlb=1 five; t3=$(date +%s%N)
        (( t1 - t0 < best_jdk )) && best_jdk=$((t1 - t0))
        (( t2 - t1 < best_ours )) && best_ours=$((t2 - t1))
        (( t3 - t2 < best_huge )) && best_huge=$((t3 - t2))
    done
    awk -v a="$best_jdk" -v b="$best_ours" -v h="$best_huge" -v n="$runs" 'BEGIN {
        printf "bench: wall: OpenJDK 17 stylesheets %.0f ms, jvmtigen (default mode) %.0f ms: %.2fx faster (best of %d; goal: at least 3x)\n", a / 1e6, b / 1e6, a / b, n
        printf "bench: wall: (for scale: the stylesheets with the heap of xsltproc in huge pages too, GLIBC_TUNABLES=glibc.malloc.hugetlb=1, %.0f ms: %.2fx)\n", h / 1e6, h / b }'
}
