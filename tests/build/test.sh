#!/usr/bin/env bash
# The generator, the runtime, the host and the checker build warning-free
# (-Wall -Wextra -Werror) with both gcc and clang, whichever one `make check` itself used; bin/ and lib/ follow
# the compiler that built last.
. tests/lib.sh
for cc in gcc clang; do
    need_tool "build: with $cc" $cc || continue
    check "build: gen/ compiles with $cc -Wall -Wextra -Werror" make -s CC=$cc objs
    check "build: runtime/, host/ and check/ compile with $cc -Wall -Wextra -Werror" make -s CC=$cc rt-objs
done

# bin/ and lib/ are shared by the compilers' builds: one linked by another
# compiler is linked again (a stamp names the last linker). Dry runs against
# a stamp of our own, so nothing here is rebuilt.
if [ -x bin/jvmtigen ] && [ -f build/linked-by-bin ]; then
    d=$(scratch build)
    variant=$(make -s --no-print-directory --eval 'print-variant: ; @echo $(VARIANT)' SANITIZE= print-variant)
    echo "$variant" >"$d/same" && touch -d '-1 hour' "$d/same"
    echo other-cc >"$d/other" && touch -d '-1 hour' "$d/other"
    check "build: bin/ linked by the other compiler is linked again" \
        bash -c "make -n SANITIZE= LINKED_BY='$d/other' bin/jvmtigen | grep -q -- '-o bin/jvmtigen '"
    check "build: ... and not when this compiler linked it" \
        bash -c "! make -n SANITIZE= LINKED_BY='$d/same' bin/jvmtigen | grep -q -- '-o bin/jvmtigen '"
else
    skip "build: bin/ is not built here (a sanitized run)"
fi
