#!/usr/bin/env bash
# make install / make uninstall into a temporary DESTDIR:
#   - every file in its place: jvmtigen, jvmtigen.1, the templates, the spec
#     and its DTD, libjvmtirt static and shared (soname libjvmtirt.so.0,
#     symlinks), its headers, the pkg-config files, jvmti-host, jvmti.html,
#     the man3 pages and the runtime's README;
#   - the man page is clean roff, names the binary's version, and documents
#     every option --help lists; jvmtirt(3) is clean roff and names every
#     function jvmtirt.h declares; the installed runtime.md has no relative
#     link;
#   - prog.c, built with `pkg-config --cflags --libs jvmtirt` against the
#     installed files only, runs: shared (found through LD_LIBRARY_PATH, and
#     through the pc file's rpath), and static with `pkg-config --static`;
#   - the installed jvmtigen renders the docs with the installed templates,
#     also after the installed tree is moved elsewhere, and not with a
#     PREFIX/templates that is not its own; without a SPEC, generate, fill
#     and model read the installed spec; the installed jvmti-host runs;
#   - the example (the reference VM's sources with a Makefile, under
#     share/jvmtigen/examples/jvmti-host) builds with pkg-config against the
#     installed files and runs an agent;
#   - make uninstall leaves no file behind, nor jvmtigen's own directories.
# Uses what `make check` passes: CC, SANITIZE, PREFIX, RT_OUT, RT_SPEC,
# JNI_INCLUDE, MAKE.
. tests/lib.sh

CC=${CC:-cc}
PREFIX=${PREFIX:-/usr/local}
MAKE=${MAKE:-make}
JNI_INCLUDE=$(jni_include)
root=$PWD
d=$(scratch install)
dest=$d/dest
inst=$dest$PREFIX

# The same variables as the build under test, so install rebuilds nothing;
# not the parent make's jobserver (this runs outside it).
makevars=(CC="$CC" SANITIZE="${SANITIZE:-}" PREFIX="$PREFIX")
[ -n "${RT_OUT:-}" ] && makevars+=(OUT="$RT_OUT")
[ -n "${RT_SPEC:-}" ] && makevars+=(SPEC="$RT_SPEC")
run_make() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$MAKE" --no-print-directory "$@" "${makevars[@]}"; }

# A JDK's own libjdwp.so loads in a host (its libjvm.so and libjava.so
# placeholders found beside the program, host/placeholders/README.md) and
# its Agent_OnLoad runs: it prints its help, or, on a core of another JVM TI
# release, refuses the version, in its own words. Without the placeholders
# dlopen fails on libjvm.so.
jdwp_loads() { # WHAT HOST
    local jdwp=${JNI_INCLUDE%/include}/lib/libjdwp.so out
    if [ ! -f "$jdwp" ]; then
        skip "$1 loads the JDK's libjdwp.so: no $jdwp"; return
    fi
    out=$("$2" -agentpath:"$jdwp"=help -threads:0 2>&1)
    if grep -q -e 'jdwp native library' -e 'JDWP Agent Library' <<<"$out" &&
        ! grep -q 'cannot open shared object' <<<"$out"; then
        ok "$1 loads the JDK's libjdwp.so, which runs its Agent_OnLoad"
    else
        not_ok "$1 loads the JDK's libjdwp.so"; printf '%s\n' "$out" | head -5
    fi
}

if run_make install DESTDIR="$dest" >"$d/install.log" 2>&1; then
    ok "install: make install DESTDIR=... PREFIX=$PREFIX"
else
    not_ok "install: make install DESTDIR=... PREFIX=$PREFIX"; tail -20 "$d/install.log"
    exit 0
fi
if grep -q -e '-o build/' -e ' -c ' "$d/install.log"; then
    not_ok "install: make install compiled something (the build was not up to date?)"
    grep -e ' -c ' -e '-o build/' "$d/install.log" | head -5
else
    ok "install: make install builds nothing after make"
fi

# ---- what is where ----
want=(bin/jvmtigen bin/jvmti-host share/man/man1/jvmtigen.1 share/man/man3/jvmtirt.3 lib/libjvmtirt.a lib/pkgconfig/jvmtirt.pc
      lib/pkgconfig/jvmtirt-lib.pc lib/jvmti-host/libjvm.so lib/jvmti-host/libjava.so
      share/jvmtigen/jvmti.xml share/jvmtigen/jvmti.dtd
      share/doc/jvmtigen/jvmti.html share/doc/jvmtigen/runtime.md
      share/man/man3/jvmti.3 share/man/man3/GetThreadState.3 share/man/man3/VMInit.3
      share/man/man3/jvmtiThreadInfo.3 share/man/man3/jvmtiCapabilities.3 share/man/man3/jvmtiError.3
      include/jvmtigen/jvmtirt.h include/jvmtigen/jvmti.h include/jvmtigen/jvmtigen_post.h
      include/jvmtigen/jvmtigen_impl.h include/jvmtigen/jvmtigen_tables.h
      include/jvmtigen/jvmtigen_hooks.h include/jvmtigen/jvmtigen_post_support.h
      include/jvmtigen/jvmtigen_trace.h)
for t in templates/*.xsl; do want+=("share/jvmtigen/$t"); done
missing=()
for f in "${want[@]}"; do [ -f "$inst/$f" ] || missing+=("$f"); done
[ "${#missing[@]}" -eq 0 ] && ok "install: ${#want[@]} files in place under PREFIX" ||
    not_ok "install: missing under PREFIX: ${missing[*]}"
[ -x "$inst/bin/jvmtigen" ] && ok "install: bin/jvmtigen is executable" ||
    not_ok "install: bin/jvmtigen is not executable"
check "install: the installed headers are the ones built with" \
    bash -c "cmp '$root/${RT_OUT:-out}/jvmti.h' '$inst/include/jvmtigen/jvmti.h' && cmp '$root/runtime/include/jvmtirt.h' '$inst/include/jvmtigen/jvmtirt.h'"
check "install: no internal header of the runtime is installed" test ! -e "$inst/include/jvmtigen/rt.h"
check "install: the spec, its DTD, jvmti.html and the runtime's README are the tree's" \
    bash -c "cmp '$root/spec/jvmti.xml' '$inst/share/jvmtigen/jvmti.xml' && cmp '$root/spec/jvmti.dtd' '$inst/share/jvmtigen/jvmti.dtd' \
             && cmp '$root/${RT_OUT:-out}/jvmti.html' '$inst/share/doc/jvmtigen/jvmti.html' \
             && cmp '$root/runtime/README.md' '$inst/share/doc/jvmtigen/runtime.md'"
n_man3=$(ls "$root/${RT_OUT:-out}/man/man3" | wc -l)
check "install: every man3 page of the spec ($n_man3)" \
    bash -c "cd '$root/${RT_OUT:-out}/man/man3' && for f in *.3; do cmp -s \"\$f\" '$inst/share/man/man3/'\"\$f\" || exit 1; done"

so_real=$(cd "$inst/lib" && ls libjvmtirt.so.*.*.* 2>/dev/null)
if [ -n "$so_real" ] && [ -f "$inst/lib/$so_real" ] && [ ! -L "$inst/lib/$so_real" ] &&
   [ "$(readlink "$inst/lib/libjvmtirt.so.0")" = "$so_real" ] &&
   [ "$(readlink "$inst/lib/libjvmtirt.so")" = "libjvmtirt.so.0" ]; then
    ok "install: $so_real, with libjvmtirt.so.0 and libjvmtirt.so linking to it"
else
    not_ok "install: the shared library and its symlinks"; ls -l "$inst/lib"
fi
soname=$(readelf -d "$inst/lib/libjvmtirt.so" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libjvmtirt.so.0 ] && ok "install: the shared library's soname is libjvmtirt.so.0" ||
    not_ok "install: the shared library's soname is '$soname', not libjvmtirt.so.0"

# ---- the man pages ----
# man_page PAGE WIDTH SECTION...: groff -ww is silent on PAGE, and man -l
# renders it (into $text, for the caller's checks) with every SECTION.
# Returns 1 when man is missing.
man_page() {
    local page=$1 width=$2 name s missing=()
    name=$(basename "$page")
    shift 2
    if need_tool "install: groff -man -ww -z on $name" groff; then
        warnings=$(groff -man -ww -z "$page" 2>&1)
        [ -z "$warnings" ] && ok "install: groff -man -ww -z is silent on $name" ||
            { not_ok "install: groff warns about $name"; head -10 <<<"$warnings"; }
    fi
    need_tool "install: man -l $name" man || return 1
    text=$(MANWIDTH=$width man -l "$page" 2>&1)
    for s in "$@"; do grep -q "^$s\$" <<<"$text" || missing+=("$s"); done
    [ "${#missing[@]}" -eq 0 ] && ok "install: man -l renders $name with its sections" ||
        not_ok "install: man -l $name lacks sections: ${missing[*]}"
}
man1=$inst/share/man/man1/jvmtigen.1
if man_page "$man1" 80 NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS "EXIT STATUS" FILES EXAMPLES "SEE ALSO"; then
    opts=$("$JVMTIGEN" --help | grep -o -- '--[a-z][a-z-]*\|-M[A-Z]' | sort -u)
    undocumented=()
    for o in $opts; do grep -q -- "^ *$o\b\|, $o\b\|^ *$o," <<<"$text" || undocumented+=("$o"); done
    [ "${#undocumented[@]}" -eq 0 ] && ok "install: jvmtigen.1 describes every option of --help ($(wc -w <<<"$opts"))" ||
        not_ok "install: jvmtigen.1 does not describe: ${undocumented[*]}"
    cmds=$("$JVMTIGEN" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
    undocumented=()
    for c in $cmds; do grep -q "^       $c\( \|\$\)" <<<"$text" || undocumented+=("$c"); done
    [ -n "$cmds" ] && [ "${#undocumented[@]}" -eq 0 ] &&
        ok "install: jvmtigen.1 has an entry for every command of --help ($(wc -w <<<"$cmds"))" ||
        not_ok "install: jvmtigen.1 lacks commands: ${undocumented[*]} (of: $cmds)"
fi
version=$("$JVMTIGEN" --version | awk '{ print $2 }')
grep -q "^\.TH JVMTIGEN 1 [0-9-]* \"jvmtigen $version\"" "$man1" &&
    ok "install: jvmtigen.1 is the page of jvmtigen $version" ||
    not_ok "install: jvmtigen.1's .TH does not name jvmtigen $version"

# jvmtirt(3): the runtime's interface, written by hand: it must render
# without a warning, and name every function jvmtirt.h and the posting
# support declare (a function added to the header without the page fails).
man3=$inst/share/man/man3/jvmtirt.3
check "install: jvmtirt.3 is docs/jvmtirt.3" cmp "$root/docs/jvmtirt.3" "$man3"
if man_page "$man3" 200 NAME LIBRARY SYNOPSIS DESCRIPTION FUNCTIONS "LOCAL REFERENCES" \
       "THREAD SAFETY" FILES EXAMPLES "SEE ALSO"; then
    fns=$(grep -hoE '^[a-zA-Z][a-zA-Z_ *]*[ *]jvmtirt_[a-z_]+\(' "$inst/include/jvmtigen/jvmtirt.h" \
              "$inst/include/jvmtigen/jvmtigen_post_support.h" | grep -oE 'jvmtirt_[a-z_]+\($' | sort -u)
    undocumented=()
    for f in $fns; do grep -qF "$f" <<<"$text" || undocumented+=("${f%(}"); done
    [ -n "$fns" ] && [ "${#undocumented[@]}" -eq 0 ] &&
        ok "install: jvmtirt.3's synopsis has every function of jvmtirt.h ($(wc -w <<<"$fns"))" ||
        not_ok "install: jvmtirt.3 lacks: ${undocumented[*]}"
fi
grep -q "^\.TH JVMTIRT 3 [0-9-]* \"jvmtigen $version\"" "$man3" &&
    ok "install: jvmtirt.3 is the page of jvmtigen $version" ||
    not_ok "install: jvmtirt.3's .TH does not name jvmtigen $version"
# The runtime's README is installed alone (runtime.md): a relative link in
# it would point at nothing.
links=$(grep -oE '\]\([^)]*\)' "$inst/share/doc/jvmtigen/runtime.md" | grep -vE '^\]\((https?:|#)' || true)
[ -z "$links" ] && ok "install: runtime.md links to nothing that is not installed" ||
    not_ok "install: runtime.md links to paths not installed: $(tr '\n' ' ' <<<"$links")"

# ---- a program built against the installed files only ----
if need_tool "install: a program built with pkg-config" pkg-config; then
    export PKG_CONFIG_LIBDIR=$inst/lib/pkgconfig PKG_CONFIG_PATH= PKG_CONFIG_SYSROOT_DIR=$dest
    cflags=$(pkg-config --cflags jvmtirt | sed 's/ *$//')
    libs=$(pkg-config --libs jvmtirt | sed 's/ *$//')
    if [ "$cflags" = "-I$inst/include/jvmtigen" ] && [ "$libs" = "-L$inst/lib -ljvmtirt -Wl,-Bdynamic" ]; then
        ok "install: pkg-config --cflags --libs jvmtirt: $cflags $libs"
    else
        not_ok "install: pkg-config --cflags --libs jvmtirt gave '$cflags' '$libs'"
    fi
    check "install: pkg-config --modversion jvmtirt is $version" \
        test "$(pkg-config --modversion jvmtirt)" = "$version"
    san=()
    [ -n "${SANITIZE:-}" ] && san=(-fsanitize="$SANITIZE" -fno-omit-frame-pointer)
    # Compiled away from the source tree: only the installed headers and the
    # JDK's (for jni.h) can be found.
    b=$d/build
    mkdir -p "$b"
    cp tests/install/prog.c "$b/"
    flags=(-std=c11 -Wall -Wextra -Werror "${san[@]}" $cflags -I"$JNI_INCLUDE" -I"$JNI_INCLUDE/linux")
    if (cd "$b" && $CC "${flags[@]}" -o prog-shared prog.c $libs) >"$d/cc.log" 2>&1; then
        ok "install: prog.c builds against the shared library"
        needed=$(readelf -d "$b/prog-shared" | sed -n 's/.*(NEEDED).*\[\(libjvmtirt[^]]*\)\]/\1/p')
        [ "$needed" = libjvmtirt.so.0 ] && ok "install: the program needs libjvmtirt.so.0" ||
            not_ok "install: the program needs '$needed', not libjvmtirt.so.0"
        # Its own lines count: what it checked through the function table.
        if out=$(LD_LIBRARY_PATH=$inst/lib "$b/prog-shared" 2>&1); then
            printf '%s\n' "$out"
            ok "install: the program runs with the installed shared library"
        else
            printf '%s\n' "$out" | head -20
            not_ok "install: the program fails with the installed shared library"
        fi
        resolved=$(LD_LIBRARY_PATH=$inst/lib ldd "$b/prog-shared" | awk '$1 == "libjvmtirt.so.0" { print $3 }')
        [ "$resolved" = "$inst/lib/libjvmtirt.so.0" ] && ok "install: libjvmtirt.so.0 resolves to the installed one" ||
            not_ok "install: libjvmtirt.so.0 resolves to '$resolved'"
    else
        not_ok "install: prog.c does not build against the shared library"; head -20 "$d/cc.log"
    fi
    # The run-time path hint: the pc file's rpath, for the prefix where the
    # files really are (here: below DESTDIR), and no LD_LIBRARY_PATH.
    rpath=$(pkg-config --define-variable=prefix="$inst" --variable=rpath jvmtirt)
    if [ "$rpath" = "-Wl,-rpath,$inst/lib" ] &&
       (cd "$b" && $CC "${flags[@]}" -o prog-rpath prog.c $libs $rpath) >"$d/cc-rpath.log" 2>&1; then
        resolved=$(env -u LD_LIBRARY_PATH ldd "$b/prog-rpath" | awk '$1 == "libjvmtirt.so.0" { print $3 }')
        [ "$resolved" = "$inst/lib/libjvmtirt.so.0" ] &&
            ok "install: linked with \$(pkg-config --variable=rpath jvmtirt), it finds the library without LD_LIBRARY_PATH" ||
            not_ok "install: with the rpath hint libjvmtirt.so.0 resolves to '$resolved'"
        check "install: ... and runs" env -u LD_LIBRARY_PATH "$b/prog-rpath"
    else
        not_ok "install: the rpath hint ('$rpath') does not link"; head -10 "$d/cc-rpath.log"
    fi
    # Static: pkg-config --static links the archive though the shared
    # library is installed beside it.
    static_libs=$(pkg-config --static --libs jvmtirt | sed 's/ *$//')
    if (cd "$b" && $CC "${flags[@]}" -o prog-static prog.c $static_libs) >"$d/cc-static.log" 2>&1; then
        ok "install: prog.c builds against the static library ($static_libs)"
        if readelf -d "$b/prog-static" | grep -q 'NEEDED.*libjvmtirt'; then
            not_ok "install: the static program still needs libjvmtirt.so"
        else
            ok "install: the static program does not need libjvmtirt.so"
        fi
        if out=$("$b/prog-static" 2>&1); then
            ok "install: the statically linked program runs"
        else
            not_ok "install: the statically linked program fails"; printf '%s\n' "$out" | grep -v '^ok' | head -10
        fi
    else
        not_ok "install: prog.c does not build against the static library"; head -20 "$d/cc-static.log"
    fi

    # The installed example: the reference VM's sources and a Makefile that
    # builds them with pkg-config, copied out and built as a VM engineer would.
    ex=$inst/share/jvmtigen/examples/jvmti-host
    check "install: the example (host sources, README.md, Makefile) is installed" \
        test -f "$ex/Makefile" -a -f "$ex/README.md" -a -f "$ex/host.h" -a -f "$ex/stacks.c"
    rm -rf "$d/example" && cp -r "$ex" "$d/example"
    san_flags=()
    [ -n "${SANITIZE:-}" ] && san_flags=(-fsanitize="$SANITIZE" -fno-omit-frame-pointer)
    if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$MAKE" -C "$d/example" CC="$CC" \
        JAVA_HOME="${JNI_INCLUDE%/include}" CFLAGS="-O1 -g ${san_flags[*]}" \
        LDFLAGS="${san_flags[*]}" >"$d/example.log" 2>&1; then
        ok "install: the installed example builds with its Makefile (pkg-config jvmtirt)"
        agent_flags=(-std=c11 -shared -fPIC "${san_flags[@]}" -I"$JNI_INCLUDE" -I"$JNI_INCLUDE/linux")
        if "$CC" "${agent_flags[@]}" -o "$d/example/stacks_agent.so" "$root/tests/host/stacks_agent.c" \
            >"$d/example-agent.log" 2>&1; then
            out=$("$d/example/jvmti-host" -agentpath:"$d/example/stacks_agent.so" -threads:1 2>&1)
            check "install: the example runs an agent: its worker's stack at the breakpoint" \
                grep -qx 'stacks: Breakpoint: GetStackTrace(current, 0, 5): 2: getName@1 run@2' <<<"$out"
            jdwp_loads "install: the example" "$d/example/jvmti-host"
            "$d/example/jvmti-host" -threads:0 -heap:1 >/dev/null 2>&1
            status=$?
            check "install: the example is the reference VM alone, without host/scaffold/: no soak.c, and -heap:1 is a usage error (exit 2, got $status)" \
                test "$status" = 2 -a ! -e "$d/example/soak.c" -a -f "$d/example/hooks.h"
        else
            not_ok "install: the agent for the example does not build"; head -10 "$d/example-agent.log"
        fi
    else
        not_ok "install: the installed example does not build"; tail -20 "$d/example.log"
    fi
    unset PKG_CONFIG_LIBDIR PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
fi

# ---- the installed jvmtigen finds the installed templates ----
spec=$root/${RT_SPEC:-spec/jvmti.xml}
templates_used() { # DEPFILE: the directories of the .xsl files it lists
    grep -o '[^ ]*\.xsl' "$1" | xargs -n1 dirname | sort -u
}
run_installed() { # BIN OUTDIR
    (cd "$d" && "$1" -q -MD -o "$2" "$spec") >"$d/gen.log" 2>&1
}
renders_with() { # BIN OUTDIR TEMPLATES DESC: BIN writes the docs with TEMPLATES
    local used
    if ! run_installed "$1" "$2" || [ ! -s "$2/jvmti.html" ] || [ ! -s "$2/man/man3/GetThreadState.3" ]; then
        not_ok "install: $4 (it does not generate the docs)"; head -10 "$d/gen.log"; return 1
    fi
    used=$(templates_used "$2/jvmtigen.d")
    [ "$used" = "$3" ] && ok "install: $4" || not_ok "install: $4 (it used templates from '$used')"
}
renders_with "$inst/bin/jvmtigen" "$d/gen1" "$inst/share/jvmtigen/templates" \
    "the installed jvmtigen renders the docs with PREFIX/share/jvmtigen/templates"
mkdir -p "$d/elsewhere"
cp -a "$inst" "$d/elsewhere/opt"
if renders_with "$d/elsewhere/opt/bin/jvmtigen" "$d/gen2" "$d/elsewhere/opt/share/jvmtigen/templates" \
    "moved elsewhere as a whole, it uses the templates beside it"; then
    cmp -s "$d/gen1/jvmti.html" "$d/gen2/jvmti.html" && ok "install: the same page both times" ||
        not_ok "install: the moved jvmtigen wrote another page"
fi
# Alone (no templates beside it), it falls back on the directory it was
# built for; unless that exists on this machine, the error names it.
mkdir -p "$d/alone/bin"
cp "$inst/bin/jvmtigen" "$d/alone/bin/"
if [ -d "$PREFIX/share/jvmtigen/templates" ]; then
    skip "install: $PREFIX/share/jvmtigen/templates exists here; the fallback is not tested"
else
    run_installed "$d/alone/bin/jvmtigen" "$d/gen3"
    status=$?
    if [ "$status" -eq 3 ] && grep -q "^$PREFIX/share/jvmtigen/templates/[a-z]*\.xsl: error: " "$d/gen.log" &&
       [ ! -e "$d/gen3" ]; then
        ok "install: without templates beside it, it looks in $PREFIX/share/jvmtigen/templates (exit 3, nothing written)"
    else
        not_ok "install: alone, status $status (wanted 3 naming $PREFIX/share/jvmtigen/templates)"; head -5 "$d/gen.log"
    fi
fi

# Not PREFIX/templates, which is not jvmtigen's (a broken one stands there).
mkdir -p "$inst/templates"
printf 'not a stylesheet\n' >"$inst/templates/html.xsl"
cp "$inst/templates/html.xsl" "$inst/templates/man.xsl"
renders_with "$inst/bin/jvmtigen" "$d/gen4" "$inst/share/jvmtigen/templates" \
    "a PREFIX/templates beside share/ does not replace the installed templates"
rm -r "$inst/templates"

# Without a SPEC: the installed spec (from the installed tree only).
e=$d/nospec
mkdir -p "$e"
(cd "$e" && "$inst/bin/jvmtigen" -q -MD -o gen) >"$d/nospec.log" 2>&1
check "install: generate without a SPEC reads PREFIX/share/jvmtigen/jvmti.xml" \
    bash -c "cmp '$e/gen/jvmti.h' '$inst/include/jvmtigen/jvmti.h' && grep -q ' $inst/share/jvmtigen/jvmti.xml' '$e/gen/jvmtigen.d' \
             && grep -q ' $inst/share/jvmtigen/jvmti.dtd' '$e/gen/jvmtigen.d'"
(cd "$e" && "$inst/bin/jvmtigen" fill impl.c) >"$d/nospec-fill.log" 2>&1
check "install: fill FILE without a SPEC starts the file from the installed spec" \
    bash -c "grep -q 'from jvmti.xml (JVM TI 25.0.0)' '$e/impl.c' && grep -q '^jvmti_impl_GetThreadState(' '$e/impl.c'"
check "install: model without a SPEC prints the installed spec's model" \
    bash -c "cd '$e' && '$inst/bin/jvmtigen' model | grep -q '\"GetThreadState\"'"
(cd "$e" && "$inst/bin/jvmtigen" fill jvmti.xml) >"$d/nospec-xml.log" 2>&1
check "install: fill NAME.xml alone is still a usage error (a spec without FILE), and writes nothing" \
    bash -c "grep -q 'fill needs a FILE after the SPEC' '$d/nospec-xml.log' && [ ! -e '$e/jvmti.xml' ]"
check "install: a bare jvmtigen is still a usage error" \
    bash -c "cd '$e' && '$inst/bin/jvmtigen' 2>&1 >/dev/null | grep -q 'no spec given'"
(cd "$e" && "$d/elsewhere/opt/bin/jvmtigen" -q -MD -o gen2) >"$d/nospec2.log" 2>&1
check "install: moved elsewhere, it reads the spec beside it" \
    grep -q " $d/elsewhere/opt/share/jvmtigen/jvmti.xml" "$e/gen2/jvmtigen.d"

# The installed jvmti-host and man3 pages.
check "install: the installed jvmti-host runs (no agent, no threads)" "$inst/bin/jvmti-host" -threads:0
jdwp_loads "install: the installed jvmti-host" "$inst/bin/jvmti-host"
if need_tool "install: the installed man3 pages read" man; then
    check "install: the installed man3 page of GetThreadState reads" \
        bash -c "MANWIDTH=80 man -l '$inst/share/man/man3/GetThreadState.3' 2>/dev/null | grep -q 'GetThreadState'"
    check "install: the installed pages of a type, the capabilities and the errors read" \
        bash -c "MANWIDTH=80 man -l '$inst/share/man/man3/jvmtiThreadInfo.3' 2>/dev/null | grep -q 'is_daemon' &&
                 MANWIDTH=80 man -l '$inst/share/man/man3/jvmtiCapabilities.3' 2>/dev/null | grep -q 'can_suspend' &&
                 MANWIDTH=80 man -l '$inst/share/man/man3/jvmtiError.3' 2>/dev/null | grep -q 'JVMTI_ERROR_INVALID_THREAD'"
fi

# ---- make uninstall ----
if run_make uninstall DESTDIR="$dest" >"$d/uninstall.log" 2>&1; then
    ok "install: make uninstall"
else
    not_ok "install: make uninstall"; tail -10 "$d/uninstall.log"
fi
left=$(cd "$dest" && find . ! -type d | sort)
[ -z "$left" ] && ok "install: make uninstall leaves no file or link" ||
    { not_ok "install: make uninstall leaves files behind"; head -20 <<<"$left"; }
[ ! -e "$inst/share/jvmtigen" ] && [ ! -e "$inst/include/jvmtigen" ] &&
    ok "install: share/jvmtigen and include/jvmtigen are gone" ||
    not_ok "install: share/jvmtigen or include/jvmtigen is still there"
check "install: a second make uninstall is harmless" run_make uninstall DESTDIR="$dest"
. tests/install/spaces.sh
