#!/usr/bin/env bash
# The generator, the runtime, the host and the checker build warning-free
# (-Wall -Wextra -Werror) with both gcc and clang, whichever one `make check`
# itself used; bin/ and lib/ follow the compiler that linked last; and none
# of it touches the build the other suites are using.
. tests/lib.sh
# What the other suites use, as it is now (paths, sizes, times).
shared_state() { ls -l --time-style=+%s.%N bin lib out 2>/dev/null; }
before=$(shared_state)
# Every make here works in a scratch folder of its own (BINDIR, LIBDIR,
# OUT, the objects made from OUT, the linker's stamp; the generator told
# where the templates are):
# bin/, lib/ and out/ are in use by the suites that run beside this one, and
# this suite once linked bin/jvmtigen again under them (a dry run still
# remakes the generation stamp make includes, and with it the generator).
own_dirs() { # NAME: the make variables of a scratch build named NAME
    local o
    o=$(scratch "build-$1")
    dirs=(BINDIR="$o/bin" LIBDIR="$o/lib" OUT="$o/out" RTDIR="$o/rt" CHECKDIR="$o/check" LINKED_BY="$o/linked-by"
          JVMTIGEN_FLAGS="--templates $PWD/templates")
    own=$o
}
for cc in gcc clang; do
    need_tool "build: with $cc" $cc || continue
    own_dirs "$cc"
    check "build: gen/ compiles with $cc -Wall -Wextra -Werror" make -s CC=$cc "${dirs[@]}" objs
    check "build: runtime/, host/ and check/ compile with $cc -Wall -Wextra -Werror" \
        make -s CC=$cc "${dirs[@]}" rt-objs
done

# bin/ and lib/ are shared by the compilers' builds: one linked by another
# compiler is linked again (a stamp names the last linker). Dry runs in a
# scratch build whose generator is up to date, against stamps of our own.
if [ -x bin/jvmtigen ]; then
    own_dirs links
    variant=$(make -s --no-print-directory --eval 'print-variant: ; @echo $(VARIANT)' SANITIZE= print-variant)
    make -s SANITIZE= "${dirs[@]}" "$own/bin/jvmtigen" generate >"$own.log" 2>&1 ||
        { not_ok "build: a scratch build for the linker's stamp"; tail -5 "$own.log"; }
    echo "$variant" >"$own/same" && touch -d '-1 hour' "$own/same"
    echo other-cc >"$own/other" && touch -d '-1 hour' "$own/other"
    links_again() { # STAMP: whether make would link the scratch jvmtigen again
        make -n SANITIZE= "${dirs[@]}" LINKED_BY="$1" "$own/bin/jvmtigen" | grep -q -- "-o $own/bin/jvmtigen "
    }
    check "build: bin/ linked by the other compiler is linked again" links_again "$own/other"
    stays() { ! links_again "$1"; }
    check "build: ... and not when this compiler linked it" stays "$own/same"
else
    skip "build: bin/ is not built here (a sanitized run)"
fi

check "build: bin/, lib/ and out/, which the other suites use, are as they were" \
    diff <(echo "$before") <(shared_state)
