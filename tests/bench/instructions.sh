# Sourced by tests/bench/run: issue 19's cost goals as instruction counts,
# each on its own line with its goal beside it.
#   instruction_goals SPEC TMPDIR
# Whole processes throughout: the C outputs are a --no-docs run, the HTML
# page the difference of a run making the C outputs and jvmti.html (a
# man.xsl making no page, BENCH_NO_MAN from run) to that, the man pages
# the difference of a default run to that one; the parse is `xmllint
# --noout --valid`, and OpenJDK 17's pipeline is its five xsltproc
# transforms (../shared/anchors/openjdk17-xsl, README there) on the JDK 17
# spec against jvmtigen making the same outputs. Callgrind (not perf)
# because the floor for the page needs per-function costs.

# Instructions of a command run under callgrind (its output file is kept
# as $cg for inclusive_of). jvmtigen runs here with --time-limit 0: under
# callgrind on a loaded machine its templates took longer than the default
# 60 seconds, and the run stopped with exit 1.
count() {
    cg="$1"; shift
    # nothing printed when the command fails: the caller says so (a failing
    # status would end make bench here, under set -e)
    valgrind --tool=callgrind --callgrind-out-file="$cg" "$@" >/dev/null 2>&1 || return 0
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

# label, numerator, denominator, the most the ratio may be, what was
# measured: the ratio line, saying whether the goal is met.
goal_line() {
    awk -v l="$1" -v a="$2" -v b="$3" -v m="$4" -v w="$5" 'BEGIN {
        printf "bench: %s %.2fx (%.0fM / %.0fM instructions) (%sgoal: at most %sx: %s)\n", l, a / b, a / 1e6, b / 1e6, w == "" ? "" : w "; ", m, a / b <= m ? "met" : "NOT met" }'
}

instruction_goals() {
    local spec="$1" d="$2/ir" gen="${JVMTIGEN:-bin/jvmtigen}"
    mkdir -p "$d"
    if ! command -v valgrind >/dev/null || ! command -v callgrind_annotate >/dev/null; then
        echo "bench: instructions not counted: needs valgrind (callgrind)"
        return 0
    fi
    echo "bench: instructions counted by valgrind --tool=callgrind, one run each (not perf stat: the floor for the page needs per-function costs)"
    local parse c all page html man render
    parse=$(count "$d/parse" xmllint --noout --valid "$spec")
    c=$(count "$d/c" "$gen" -q --time-limit 0 --no-docs -o "$d/c.out" "$spec")
    all=$(count "$d/all" "$gen" -q --time-limit 0 -o "$d/all.out" "$spec")
    page=$(count "$d/page" "$gen" -q --time-limit 0 --templates "${BENCH_NO_MAN:?}" -o "$d/page.out" "$spec")
    render=$(inclusive_of "$d/all" render_html)
    if [ -z "$parse" ] || [ -z "$c" ] || [ -z "$all" ] || [ -z "$page" ] || [ -z "$render" ]; then
        echo "bench: instructions not counted: a run under callgrind failed"
        return 0
    fi
    html=$((page - c)) man=$((all - page))
    awk -v p="$parse" -v a="$all" 'BEGIN { printf "bench: instructions: validated parse %.0fM, all outputs (default: one process) %.0fM\n", p / 1e6, a / 1e6 }'
    goal_line "C outputs / validated parse" "$c" "$parse" 1.3 ""
    goal_line "all outputs / validated parse" "$all" "$parse" 7 "a default run: headers, C, jvmti.html and the man pages, issue 37"
    goal_line "HTML page / validated parse" "$html" "$parse" 3 "the page: C outputs and jvmti.html minus C outputs only, whole processes"
    # What libxslt costs at least: copying a tree through templates into
    # HTML, the spec's (tests/bench/copy.xsl; its parse, unvalidated,
    # included), and one the size of the page (jvmti.html read back as
    # HTML), set against the page in its two parts: the transformation
    # (xsltproc's xsltRunStylesheetUser less the serialization it calls;
    # render_html less its serialization in jvmtigen) and the HTML
    # serialization (xsltSaveResultToFilename; save_html, jvmtigen's own,
    # gen/docs/htmlsave.c).
    local copy="" page_copy="" page_apply="" page_save="" html_save=""
    if command -v xsltproc >/dev/null; then
        copy=$(count "$d/copy" xsltproc --nonet --novalid -o "$d/copy.html" tests/bench/copy.xsl "$spec")
        page_copy=$(count "$d/pcopy" xsltproc --html --nonet -o "$d/pcopy.html" tests/bench/copy.xsl "$d/all.out/jvmti.html")
        page_apply=$(inclusive_of "$d/pcopy" xsltRunStylesheetUser)
        page_save=$(inclusive_of "$d/pcopy" xsltSaveResultToFilename)
        [ -n "$page_apply" ] && [ -n "$page_save" ] && page_apply=$((page_apply - page_save))
        html_save=$(inclusive_of "$d/all" save_html)
    fi
    if [ -n "$copy" ]; then
        ratio_line "floor: libxslt copying the spec into HTML / validated parse" "$copy" "$parse" "the issue took it for about 2x"
    fi
    if [ -n "$page_apply" ] && [ -n "$page_save" ] && [ -n "$html_save" ]; then
        awk -v h="$render" -v hs="$html_save" -v a="$page_apply" -v s="$page_save" 'BEGIN {
            printf "bench: floor: libxslt copying a tree the size of jvmti.html: transformation %.0fM, HTML serialization %.0fM instructions; the page: transformation %.0fM (%.2fx that), serialization %.0fM (%.2fx that)\n", a / 1e6, s / 1e6, (h - hs) / 1e6, (h - hs) / a, hs / 1e6, hs / s }'
    else
        echo "bench: floor for the page not counted: xsltproc's or the page's functions not found in callgrind's output"
    fi
    goal_line "man pages / HTML page" "$man" "$html" 0.5 "the man pages: all outputs minus C outputs and jvmti.html"
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
    # jvmtigen making what the JDK's build makes (the C outputs and
    # jvmti.html: man.xsl making no page, BENCH_NO_MAN from run), and
    # everything (its man pages too, which the JDK does not make).
    local same="" pages
    ours=$(count "$j/cg.ours" "$gen" -q --time-limit 0 -o "$j/ours" "$spec17")
    [ -n "$ours" ] || { echo "bench: OpenJDK 17's stylesheets not compared: jvmtigen failed on $spec17"; return 0; }
    pages=$(find "$j/ours" -name '*.3' | wc -l)
    if [ -n "${BENCH_NO_MAN:-}" ]; then
        same=$(count "$j/cg.same" "$gen" -q --time-limit 0 --templates "$BENCH_NO_MAN" -o "$j/same" "$spec17")
    fi
    if [ -n "$same" ]; then
        awk -v a="$jdk" -v b="$same" 'BEGIN {
            printf "bench: OpenJDK 17 stylesheets / jvmtigen, JDK 17 spec, the same outputs (headers, entry code, jvmti.html; no man pages) %.2fx fewer instructions (%.0fM / %.0fM) (goal: at least 3x)\n", a / b, a / 1e6, b / 1e6 }'
    fi
    awk -v a="$jdk" -v b="$ours" -v m="$pages" 'BEGIN {
        printf "bench: (for scale: jvmtigen making its %d man pages as well, which the JDK does not: %.2fx, %.0fM / %.0fM instructions)\n", m, a / b, a / 1e6, b / 1e6 }'
    # CPU time of whole processes (tests/bench/cputime.c; the five
    # transforms as one shell running them), best of BENCH_JDK_RUNS.
    local clock="${BENCH_CPUTIME:-}"
    [ -x "$clock" ] || { echo "bench: OpenJDK 17's stylesheets not timed: no cputime"; return 0; }
    declare -f five >"$j/five.sh"
    echo five >>"$j/five.sh"
    local runs="${BENCH_JDK_RUNS:-5}" best_jdk="" best_huge="" best_same="" best_all="" c w
    keep() { read -r c w _ <"$j/clock"; if [ -z "${!1}" ] || (( c < ${!1} )); then printf -v "$1" %s "$c"; fi; }
    for _ in $(seq "$runs"); do
        rm -rf "$j/same" "$j/ours"
        j=$j xsl=$xsl spec17=$spec17 "$clock" "$j/clock" bash "$j/five.sh" ||
            { echo "bench: OpenJDK 17's stylesheets failed"; return 0; }
        keep best_jdk
        # xsltproc with its heap in huge pages, as jvmtigen's is (gen/base/heap.c)
        j=$j xsl=$xsl spec17=$spec17 GLIBC_TUNABLES=glibc.malloc.hugetlb=1 "$clock" "$j/clock" bash "$j/five.sh" || return 0
        keep best_huge
        if [ -n "${BENCH_NO_MAN:-}" ]; then
            "$clock" "$j/clock" "$gen" -q --templates "$BENCH_NO_MAN" -o "$j/same" "$spec17" || return 0
            keep best_same
        fi
        "$clock" "$j/clock" "$gen" -q -o "$j/ours" "$spec17" || return 0
        keep best_all
    done
    awk -v a="$best_jdk" -v s="$best_same" -v o="$best_all" -v h="$best_huge" -v n="$runs" -v m="$pages" 'BEGIN {
        if (s > 0)
            printf "bench: cpu: OpenJDK 17 stylesheets %.0f ms, jvmtigen (default mode, the same outputs) %.0f ms: %.2fx faster (whole processes, user + system, best of %d; goal: at least 3x)\n", a / 1e6, s / 1e6, a / s, n
        printf "bench: cpu: (for scale: jvmtigen with its %d man pages %.0f ms: %.2fx; the stylesheets with the heap of xsltproc in huge pages too, GLIBC_TUNABLES=glibc.malloc.hugetlb=1, %.0f ms)\n", m, o / 1e6, a / o, h / 1e6 }'
}
