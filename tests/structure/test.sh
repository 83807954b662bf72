#!/usr/bin/env bash
# runtime/'s and host/'s layers (tests/structure/structure.py): a graph of its files from
# calls (nm of lib/libjvmtirt.a: a member's undefined symbols resolved to the
# member that defines them) and includes; no loop of files, and no arrow from
# a lower layer to a higher one as tests/structure/layers declares them. Also
# that the tool finds a loop, an upward call, an upward include and a file
# without a layer in fixtures, so the check can fail.
. tests/lib.sh

command -v python3 >/dev/null || { skip "structure: no python3"; exit 0; }
command -v nm >/dev/null || { skip "structure: no nm (binutils)"; exit 0; }
lib=${RT_LIB:-lib/libjvmtirt.a}
cc=${CC:-cc}
tool=tests/structure/structure.py

if [ -f "$lib" ]; then
    check "structure: runtime/ has no loop of files and no call or include from a lower layer to a higher one (tests/structure/layers)" \
        python3 "$tool" --check --list --lib "$lib" --layers tests/structure/layers
else
    skip "structure: runtime/'s layers (needs $lib: make)"
fi

# host/: the reference VM and its test scaffolding (host/scaffold/), read
# from make's objects (build/VARIANT/rt/host-NAME.o); placeholders/ is not
# part of jvmti-host.
objdir=${RT_OBJDIR:-build/$(basename "$cc")/rt}
host_objs=("$objdir"/host-*.o)
if [ -f "${host_objs[0]}" ]; then
    check "structure: host/ has no loop of files and no call or include from a lower layer to a higher one (tests/structure/host-layers)" \
        python3 "$tool" --check --list --root host --objects "${host_objs[@]}" --prefix host- \
        --exclude placeholders --layers tests/structure/host-layers
else
    skip "structure: host/'s layers (needs $objdir/host-*.o: make)"
fi

# host/README.md's figures, within 10%: the reference VM's lines (host/'s
# .c and .h files, scaffold/ and placeholders/ aside) and those of main and
# the port (jvmti-host.c, port.c).
near() { # CLAIMED ACTUAL: within 10%
    [ -n "$1" ] && [ $((10 * ($2 - $1))) -le "$1" ] && [ $((10 * ($1 - $2))) -le "$1" ]
}
readme=$(tr '\n' ' ' <host/README.md)
claim_vm=$(sed -n 's/.*is this folder: about \([0-9,]*\) lines of C.*/\1/p' <<<"$readme" | tr -d ,)
claim_wiring=$(sed -n 's/.*the wiring of the core, are about \([0-9,]*\) lines.*/\1/p' <<<"$readme" | tr -d ,)
lines_vm=$(cat host/*.c host/*.h | wc -l)
lines_wiring=$(cat host/jvmti-host.c host/port.c | wc -l)
check "structure: host/README.md's figure of the reference VM (about ${claim_vm:-?} lines) is within 10% of host/*.c and *.h ($lines_vm lines)" \
    near "$claim_vm" "$lines_vm"
check "structure: host/README.md's figure of main and the port (about ${claim_wiring:-?} lines) is within 10% of jvmti-host.c and port.c ($lines_wiring lines)" \
    near "$claim_wiring" "$lines_wiring"

# Fixtures: f/low/a.c calls f/high/b.c (upward), b.c calls a.c (a loop of
# two), f/low/c.h includes f/high/d.h (upward), f/stray.c has no layer.
d=$(scratch structure)
mkdir -p "$d/f/low" "$d/f/high"
printf 'int b(void);\nint a(void);\nint a(void) { return b(); }\n' >"$d/f/low/a.c"
printf 'int a(void);\nint b(void);\nint b(void) { return 1; }\nint b2(void);\nint b2(void) { return a(); }\n' >"$d/f/high/b.c"
printf '#include "d.h"\n' >"$d/f/low/c.h"
printf '/* d */\n' >"$d/f/high/d.h"
printf 'int stray(void);\nint stray(void) { return 0; }\n' >"$d/f/stray.c"
printf 'low 1\nhigh 2\n' >"$d/layers"
built=1
for f in low/a high/b stray; do
    "$cc" -c -o "$d/$(basename $f).o" "$d/f/$f.c" || built=0
done
if [ "$built" = 1 ] && ar rcs "$d/lib.a" "$d/a.o" "$d/b.o" "$d/stray.o"; then
    out=$(python3 "$tool" --check --list --root "$d/f" --lib "$d/lib.a" --layers "$d/layers")
    status=$?
    check "structure: a fixture's loop of two files, its upward call and include and its file without a layer are found (exit 1)" \
        test "$status:$out" = "1:files: 5 (3 .c, 2 .h)
arrows: 3 (2 with calls, 1 with includes)
loops: 1 (files: 2)
layers: 2 declared ($d/layers)
upward arrows: 2
files without a layer: stray.c
loop of 2: high/b.c low/a.c
up: low/a.c -> high/b.c (layer 1 -> 2): b
up: low/c.h -> high/d.h (layer 1 -> 2): include"
    # The same from objects built one by one (--objects, --prefix), a folder
    # of sources that are not part of the program left out (--exclude).
    mkdir -p "$d/objs" "$d/f/other" && printf 'int other(void);\n' >"$d/f/other/o.c"
    for f in a b stray; do cp "$d/$f.o" "$d/objs/pre-$f.o"; done
    out=$(python3 "$tool" --check --root "$d/f" --objects "$d"/objs/pre-*.o --prefix pre- \
        --exclude other --layers "$d/layers")
    status=$?
    check "structure: the same fixture read from its objects (--objects, --prefix; --exclude leaves a folder out) fails the same way" \
        test "$status:$(head -3 <<<"$out")" = "1:files: 5 (3 .c, 2 .h)
arrows: 3 (2 with calls, 1 with includes)
loops: 1 (files: 2)"
    rm -r "$d/f/other"
    printf 'low 1\nhigh 2\n. 0\n' >"$d/layers-all"
    printf 'int a(void);\nint a(void) { return 0; }\n' >"$d/f/low/a.c"
    printf '/* c */\n' >"$d/f/low/c.h"
    "$cc" -c -o "$d/a.o" "$d/f/low/a.c" && ar rcs "$d/lib.a" "$d/a.o"
    check "structure: the same fixture with only downward arrows (b.c calls a.c) and every file in a layer passes" \
        python3 "$tool" --check --root "$d/f" --lib "$d/lib.a" --layers "$d/layers-all"
else
    not_ok "structure: the fixture did not compile with $cc"
fi
