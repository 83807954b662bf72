#!/usr/bin/env bash
# make install / uninstall with a PREFIX and a DESTDIR that hold spaces and a
# quote, in a copy of the tree (its build kept, so little is rebuilt; the
# tree under test keeps its own PREFIX): nothing appears in the source tree
# but build products, every file lands under DESTDIR/PREFIX, the installed
# jvmtigen falls back on PREFIX/share/jvmtigen/templates (the compiled-in
# path), pkg-config gives flags a shell reads back as the installed paths,
# a program and the installed example (JAVA_HOME with a space too) build
# against them and run, and make uninstall leaves nothing.
# Sourced by tests/install/test.sh (its d, makevars, root, CC, MAKE,
# JNI_INCLUDE).

sp_prefix="/opt/my tools/it's"
src=$d/src
sp_dest="$d/dest dir"
sp_inst=$sp_dest$sp_prefix
mkdir -p "$src"
(cd "$root" && tar --exclude=./.git -cf - .) | (cd "$src" && tar -xf -)
sp_vars=("${makevars[@]/#PREFIX=*/PREFIX=$sp_prefix}")
sp_make() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$MAKE" --no-print-directory -C "$src" "$@" "${sp_vars[@]}"; }
listing() { (cd "$src" && find . -path ./build -prune -o -print | sort); }
before=$(listing)

if sp_make install DESTDIR="$sp_dest" >"$d/sp-install.log" 2>&1; then
    ok "install: make install PREFIX=\"$sp_prefix\" DESTDIR=\"…/dest dir\""
else
    not_ok "install: make install PREFIX=\"$sp_prefix\" DESTDIR=\"…/dest dir\""; tail -10 "$d/sp-install.log"
fi
stray=$(comm -13 <(printf '%s\n' "$before") <(listing))
[ -z "$stray" ] && ok "install: with spaces in the paths, nothing new in the source tree but build/" ||
    { not_ok "install: with spaces in the paths, new in the source tree:"; head -10 <<<"$stray" | sed 's/^/# /'; }
missing=()
for f in bin/jvmtigen bin/jvmti-host lib/libjvmtirt.a lib/libjvmtirt.so lib/libjvmticheck.so \
    lib/pkgconfig/jvmtirt.pc share/jvmtigen/jvmti.xml share/jvmtigen/templates/man.xsl \
    share/man/man1/jvmtigen.1 share/man/man3/GetThreadState.3 share/man/man7/jvmticheck.7 \
    share/doc/jvmtigen/jvmti.html include/jvmtigen/jvmti.h share/jvmtigen/examples/jvmti-host/Makefile; do
    [ -e "$sp_inst/$f" ] || missing+=("$f")
done
[ "${#missing[@]}" -eq 0 ] && ok "install: with spaces in the paths, every file under DESTDIR/PREFIX" ||
    not_ok "install: with spaces in the paths, missing under DESTDIR/PREFIX: ${missing[*]}"

# The compiled-in templates directory is PREFIX's, spaces and quote kept.
mkdir -p "$d/sp-alone/bin"
cp "$sp_inst/bin/jvmtigen" "$d/sp-alone/bin/"
(cd "$d" && "$d/sp-alone/bin/jvmtigen" -q -o "$d/sp-gen" "$root/spec/jvmti.xml") >"$d/sp-alone.log" 2>&1
status=$?
if [ "$status" -eq 3 ] && grep -qF "$sp_prefix/share/jvmtigen/templates/" "$d/sp-alone.log"; then
    ok "install: alone, the installed jvmtigen looks in \"$sp_prefix/share/jvmtigen/templates\""
else
    not_ok "install: alone, the installed jvmtigen (status $status) does not look in PREFIX's templates"
    head -3 "$d/sp-alone.log" | sed 's/^/# /'
fi

if ! command -v pkg-config >/dev/null; then
    skip "install: with spaces in the paths, pkg-config is not installed"
else
    # The files are below DESTDIR: the pc file's prefix is redefined to
    # where they are, written as a pc file writes a space or a quote.
    esc=$(printf '%s' "$sp_inst" | sed "s/[ ']/\\\\&/g")
    pc=(pkg-config --define-variable=prefix="$esc")
    export PKG_CONFIG_LIBDIR=$sp_inst/lib/pkgconfig PKG_CONFIG_PATH=
    eval "cflags=($("${pc[@]}" --cflags jvmtirt))"
    eval "libs=($("${pc[@]}" --libs jvmtirt))"
    if [ "${cflags[*]}" = "-I$sp_inst/include/jvmtigen" ] && [ "${libs[0]}" = "-L$sp_inst/lib" ]; then
        ok "install: with spaces in the paths, pkg-config's flags read back as the installed paths"
    else
        not_ok "install: with spaces in the paths, pkg-config gave: ${cflags[*]} ${libs[*]}"
    fi
    san=()
    [ -n "${SANITIZE:-}" ] && san=(-fsanitize="$SANITIZE" -fno-omit-frame-pointer)
    eval "rpath=($("${pc[@]}" --variable=rpath jvmtirt))"
    mkdir -p "$d/sp-build"
    if "$CC" -std=c11 "${san[@]}" "${cflags[@]}" -I"$JNI_INCLUDE" -I"$JNI_INCLUDE/linux" \
        -o "$d/sp-build/prog" "$root/tests/install/prog.c" "${libs[@]}" "${rpath[@]}" >"$d/sp-cc.log" 2>&1; then
        check "install: with spaces in the paths, a program built with pkg-config runs (rpath)" \
            env -u LD_LIBRARY_PATH "$d/sp-build/prog"
    else
        not_ok "install: with spaces in the paths, prog.c does not build"; head -10 "$d/sp-cc.log"
    fi
    # The installed example, with a JAVA_HOME that holds a space (its
    # PKG_CONFIG is run by a shell: the argument quoted once more).
    ln -s "${JNI_INCLUDE%/include}" "$d/java home"
    cp -r "$sp_inst/share/jvmtigen/examples/jvmti-host" "$d/sp-example"
    if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$MAKE" -C "$d/sp-example" CC="$CC" \
        PKG_CONFIG="pkg-config $(printf '%q' "--define-variable=prefix=$esc")" JAVA_HOME="$d/java home" \
        CFLAGS="-O1 ${san[*]}" LDFLAGS="${san[*]}" >"$d/sp-example.log" 2>&1; then
        check "install: with spaces in the paths, the installed example builds and runs" \
            "$d/sp-example/jvmti-host" -threads:0
    else
        not_ok "install: with spaces in the paths, the installed example does not build"
        tail -10 "$d/sp-example.log"
    fi
    unset PKG_CONFIG_LIBDIR PKG_CONFIG_PATH
fi

if sp_make uninstall DESTDIR="$sp_dest" >"$d/sp-uninstall.log" 2>&1; then
    left=$(cd "$sp_dest" && find . ! -type d | sort)
    [ -z "$left" ] && [ ! -e "$sp_inst/share/jvmtigen" ] &&
        ok "install: with spaces in the paths, make uninstall leaves nothing" ||
        { not_ok "install: with spaces in the paths, make uninstall leaves:"; head -10 <<<"$left" | sed 's/^/# /'; }
else
    not_ok "install: with spaces in the paths, make uninstall fails"; tail -10 "$d/sp-uninstall.log"
fi
rm -rf "$src"
