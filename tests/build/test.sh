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
# The compiler make check itself runs with has just built the whole tree
# with the same flags (check-build, -Werror in WARN): the same compile in a
# scratch folder would prove nothing more, and took half of this suite.
same_cc() { [ "$(readlink -f "$(command -v "${CC:-cc}")")" = "$(readlink -f "$(command -v "$1")")" ]; }
for cc in gcc clang; do
    need_tool "build: with $cc" $cc || continue
    if same_cc $cc; then
        skip "build: with $cc: make check's own build (CC=${CC:-cc}, the same flags) compiled gen/, runtime/, host/ and check/"
        continue
    fi
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

# Another SPEC (older than the last run, at another path) and other
# JVMTIGEN_FLAGS generate again, with no `rm -rf out` between: the stamp
# once kept the outputs of the spec before (the release jvmti.h states
# tells which spec and flags made it).
own_dirs regen
gen_in() { # MAKE-ARGS...: generates in the scratch build, prints jvmti.h's release
    make -s SANITIZE="${SANITIZE:-}" "${dirs[@]}" "$@" generate >>"$own.log" 2>&1 &&
        sed -n 's|.*JVMTI_VERSION = .*/\* version: \(.*\) \*/|\1|p' "$own/out/jvmti.h"
}
check "build: make generates from spec/jvmti.xml (25.0.0)" test "$(gen_in)" = 25.0.0
if need_refs "build: make SPEC=... generates again" jdk17; then
    old=$own/old/jvmti.xml
    mkdir -p "$own/old" && cp "$SHARED_SPECS/jdk17/jvmti.xml" "$old" && touch -d '2001-01-01' "$old"
    check "build: ... then make SPEC=JDK 17's spec, older than the last run, generates again (17.0.0)" \
        test "$(gen_in SPEC="$old")" = 17.0.0
    check "build: ... then make with the spec before generates again (25.0.0)" test "$(gen_in)" = 25.0.0
fi
check "build: ... then a changed JVMTIGEN_FLAGS (--jvmti-version=11) generates again (11.0.0)" \
    test "$(gen_in JVMTIGEN_FLAGS="--templates $PWD/templates --jvmti-version=11")" = 11.0.0
check "build: ... and the flags before again (25.0.0)" test "$(gen_in)" = 25.0.0

check "build: bin/, lib/ and out/, which the other suites use, are as they were" \
    diff <(echo "$before") <(shared_state)
