#!/usr/bin/env bash
# Output discipline: same input, same bytes; unchanged content keeps its
# timestamp (so make rebuilds nothing); no temporary files left behind.
. tests/lib.sh
SPEC=spec/jvmti.xml

d=$(scratch out-det)
"$JVMTIGEN" -q -o "$d/a" "$SPEC" && "$JVMTIGEN" -q -o "$d/b" "$SPEC"
check "output: two runs write identical bytes" diff -r "$d/a" "$d/b"
LC_ALL=tr_TR.UTF-8 TZ=Asia/Tokyo "$JVMTIGEN" -q -o "$d/c" "$SPEC" 2>/dev/null
check "output: locale and time zone change nothing" diff -r "$d/a" "$d/c"
check "output: no dates in the output" bash -c "! grep -Erq '20[0-9]{2}-[0-9]{2}-[0-9]{2}|[0-9]{2}:[0-9]{2}:[0-9]{2}' '$d/a'"

before=$(stat -c %y "$d"/a/* "$d"/a/man/man3/*)
sleep 1.1
"$JVMTIGEN" -q -o "$d/a" "$SPEC"
check "output: regenerating unchanged content keeps the file's timestamp" \
    test "$before" = "$(stat -c %y "$d"/a/* "$d"/a/man/man3/*)"
"$JVMTIGEN" -q -o "$d/a" --jvmti-version 26 "$SPEC"
check "output: changed content replaces the file" grep -q '(26 \* 0x10000)' "$d/a/jvmti.h"
check "output: the outputs and nothing else (no temporary files left behind)" \
    test "$(ls -A "$d/a" | tr '\n' ' ')" = "jvmti.h jvmti.html jvmticheck_forward.c jvmtigen_defaults.c jvmtigen_entry.c jvmtigen_impl.h jvmtigen_post.c jvmtigen_post.h jvmtigen_tables.c jvmtigen_tables.h man "

# The Makefile's generation step: a second make does nothing.
d=$(scratch out-make)
if make -s SPEC="$SPEC" OUT="$d" JVMTIGEN_FLAGS= generate >/dev/null 2>&1 && [ -f "$d/jvmti.h" ]; then
    ok "output: make generates out/ from SPEC"
    check "output: a second make has nothing to do" make -q SPEC="$SPEC" OUT="$d" generate
else
    not_ok "output: make generates out/ from SPEC"
fi
check "output: make without spec/jvmti.xml says how to proceed" \
    bash -c "make -s SPEC=no/such/spec.xml generate | grep -q 'make SPEC=path/to/jvmti.xml'"

# After a complete build (make check builds everything before the tests),
# make has nothing to do: -q says so, -n prints nothing, and a plain make
# starts no process at all (make runs $(shell ...) and recipes through
# SHELL, here one that writes down each use).
if [ -z "${MAKE:-}" ]; then
    skip "output: make -q / -n / no-op make (run through make check, which builds everything first)"
else
    d=$(scratch out-noop)
    printf '#!/bin/sh\necho "$*" >>"%s/shells"\nexec /bin/sh "$@"\n' "$d" >"$d/sh"
    chmod +x "$d/sh"
    check "output: make -q finds nothing to do after a complete build" make -q all
    check "output: make -n prints nothing after a complete build" test -z "$(make -s -n --no-print-directory all 2>&1)"
    make SHELL="$d/sh" all >/dev/null 2>&1
    check "output: a no-op make starts no shell ($(cat "$d/shells" 2>/dev/null | wc -l) started)" test ! -s "$d/shells"
fi
