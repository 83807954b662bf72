#!/usr/bin/env bash
# The command line: help, version, usage errors (2), I/O errors (3), the
# check command, --jvmti-version, --banner, -MD / --depfile, -q / -v.
. tests/lib.sh
# The project's own spec: these checks need no reference spec.
OWN=spec/jvmti.xml
VALID=tests/security/fixtures/internal-ok.xml

status_is() { # DESC EXPECTED_STATUS STDERR_PATTERN ARGS...
    local desc=$1 want=$2 pattern=$3; shift 3
    run_gen "$@"
    if [ "$GEN_STATUS" -eq "$want" ] && grep -q -- "$pattern" <<<"$GEN_ERR"; then
        ok "cli: $desc"
    else
        not_ok "cli: $desc (status $GEN_STATUS, wanted $want; stderr below)"
        printf '%s\n' "$GEN_ERR"
    fi
}

check "cli: --help prints usage and exits 0" bash -c "'$JVMTIGEN' --help | grep -q '^usage: jvmtigen'"
check "cli: generate --help works too" bash -c "'$JVMTIGEN' generate --help | grep -q 'Exit status'"
check "cli: --version names jvmtigen and its libraries" \
    bash -c "'$JVMTIGEN' --version | grep -q '^jvmtigen [0-9.]* (libxml2 [0-9]*, libxslt [0-9]*)'"

status_is "no spec is a usage error" 2 "error: no spec given"
status_is "an unknown option is a usage error" 2 "unknown option '--frobnicate'" --frobnicate "$VALID"
status_is "two specs are a usage error" 2 "more than one spec" "$VALID" "$VALID"
status_is "an option without its value is a usage error" 2 "-o needs a value" "$VALID" -o
status_is "a malformed --jvmti-version is a usage error" 2 "is not MAJOR" --jvmti-version 17.x "$VALID"
status_is "a minor version above 255 is a usage error" 2 "is not MAJOR" --jvmti-version 17.256.0 "$VALID"
status_is "a missing spec is an I/O error" 3 "^nonexistent.xml: error: cannot read: No such file or directory$" nonexistent.xml
status_is "a missing --banner file is an I/O error" 3 "no-banner.txt: error: cannot read" --banner no-banner.txt "$VALID"
d=$(scratch cli-file)
touch "$d/afile"
status_is "an output directory that cannot be made is an I/O error" 3 "error: cannot create directory: Not a directory" -o "$d/afile/sub" "$VALID"

d=$(scratch cli-check)
run_gen check -o "$d/out" "$VALID"
if [ "$GEN_STATUS" -eq 0 ] && [ ! -e "$d/out" ]; then ok "cli: check validates and writes nothing"
else not_ok "cli: check validates and writes nothing (status $GEN_STATUS)"; fi

# --jvmti-version picks the named constants of that release.
d=$(scratch cli-version)
"$JVMTIGEN" -q -o "$d/v21" --jvmti-version 21 "$OWN"
"$JVMTIGEN" -q -o "$d/v12" --jvmti-version=1.2.1 "$OWN"
check "cli: version 21 names JVMTI_VERSION_19 and _21" \
    bash -c "grep -q 'JVMTI_VERSION_19  = 0x30130000,' '$d/v21/jvmti.h' && grep -q 'JVMTI_VERSION_21  = 0x30150000,' '$d/v21/jvmti.h'"
check "cli: version 1.2.1 names only the 1.x constants and encodes minor and micro as JDK 8 does" \
    bash -c "! grep -q JVMTI_VERSION_9 '$d/v12/jvmti.h' && grep -q 'JVMTI_VERSION_1_2 = 0x30010200,' '$d/v12/jvmti.h' \
             && grep -q '(1 \* 0x10000) + (2 \* 0x100) + 1  /\* version: 1.2.1 \*/' '$d/v12/jvmti.h'"

# --banner replaces the opening comment; plain text is made a comment.
d=$(scratch cli-banner)
printf 'Copyright 2026 Example VM Project.\nLicensed as you like.\n' > "$d/banner.txt"
"$JVMTIGEN" -q -o "$d/out" --banner "$d/banner.txt" "$OWN"
check "cli: --banner text becomes the opening comment" \
    bash -c "head -4 '$d/out/jvmti.h' | diff - <(printf '/*\n * Copyright 2026 Example VM Project.\n * Licensed as you like.\n */\n')"
check "cli: --banner drops the spec's copyright lines" bash -c "! grep -q 'the jvmtigen authors' '$d/out/jvmti.h'"
printf '// SPDX-License-Identifier: MIT\n' > "$d/c-banner.txt"
"$JVMTIGEN" -q -o "$d/out2" --banner "$d/c-banner.txt" "$OWN"
check "cli: a --banner that is already a comment is kept as it is" \
    bash -c "head -1 '$d/out2/jvmti.h' | grep -qx '// SPDX-License-Identifier: MIT'"

# -MD: a make rule naming the spec and its external DTD.
d=$(scratch cli-md)
"$JVMTIGEN" -q -MD -o "$d/out" "$VALID"
check "cli: -MD lists the spec and its DTD as dependencies of every output" \
    bash -c "grep -q '^$d/out/jvmti.h ' '$d/out/jvmtigen.d' && grep -q '^ $d/out/jvmtigen_entry.c ' '$d/out/jvmtigen.d' \
             && grep -q '^ $d/out/jvmtigen_defaults.c' '$d/out/jvmtigen.d' \
             && grep -q '^ $d/out/man/man3/jvmti.3' '$d/out/jvmtigen.d' \
             && grep -q ' $VALID' '$d/out/jvmtigen.d' \
             && grep -q 'spec/jvmti.dtd' '$d/out/jvmtigen.d'"
check "cli: the dependency file is valid make" make -n -f "$d/out/jvmtigen.d" "$d/out/jvmti.h"
status_is "-MT without -MD or --depfile is a usage error" 2 "-MT names the target of a depfile" -MT stamp "$VALID"
"$JVMTIGEN" -q -MD -MT "$d/stamp" -o "$d/out4" "$VALID"
check "cli: -MT makes its argument the target of the rule, instead of the outputs" \
    bash -c "grep -q '^$d/stamp: ' '$d/out4/jvmtigen.d' && ! grep -qF 'jvmti.h' '$d/out4/jvmtigen.d' && grep -q ' $VALID' '$d/out4/jvmtigen.d'"
"$JVMTIGEN" -q --depfile "$d/deps.mk" -o "$d/out3" "$VALID"
check "cli: --depfile writes the rule where asked" grep -q "^$d/out3/jvmti.h " "$d/deps.mk"

# -v says what happened; -q says nothing on success.
d=$(scratch cli-verbose)
run_gen -v -o "$d" "$VALID"
check "cli: -v reports a written file" grep -q "jvmtigen: wrote $d/jvmti.h" <<<"$GEN_ERR"
run_gen -v -o "$d" "$VALID"
check "cli: -v reports an unchanged file" grep -q "jvmtigen: unchanged $d/jvmti.h" <<<"$GEN_ERR"
run_gen -q -o "$d" "$VALID"
check "cli: -q prints nothing on success" test -z "$GEN_ERR"
# JVMTIGEN_TIMES=1 (make bench): a line per phase, in the order they ran;
# without it, nothing.
d=$(scratch cli-times)
JVMTIGEN_TIMES=1 JVMTIGEN_JOBS=1 "$JVMTIGEN" -q -o "$d/out" "$VALID" 2>"$d/err"
phases=$(sed -n 's/^jvmtigen: time: \([a-z]*\) [0-9.]* ms$/\1/p' "$d/err" | tr '\n' ' ')
check "cli: JVMTIGEN_TIMES=1 times load, templates, c, html and man, in that order ($phases)" \
    test "$phases" = "load templates c html man "
JVMTIGEN_TIMES=1 "$JVMTIGEN" -q --no-docs -o "$d/c" "$VALID" 2>"$d/err"
phases=$(sed -n 's/^jvmtigen: time: \([a-z]*\) [0-9.]* ms$/\1/p' "$d/err" | tr '\n' ' ')
check "cli: JVMTIGEN_TIMES=1 with --no-docs times load and c ($phases)" test "$phases" = "load c "
run_gen -q -o "$d/quiet" "$VALID"
check "cli: without JVMTIGEN_TIMES nothing is timed" test -z "$GEN_ERR"
. tests/cli/depfile.sh
. tests/cli/inputs.sh
. tests/cli/not-regular.sh
. tests/cli/max-errors.sh
. tests/cli/generation-needs.sh
. tests/cli/non-utf8.sh
. tests/cli/heap.sh
