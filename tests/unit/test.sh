#!/usr/bin/env bash
# Runs the C unit tests that `make check` built next to the generator.
. tests/lib.sh
UNITS="${UNITS:-$(dirname "$JVMTIGEN")/../test-units}"
[ -x "$UNITS" ] || UNITS=build/$(basename "${CC:-cc}")/test-units
if [ ! -x "$UNITS" ]; then not_ok "unit: no test binary (run make check)"; exit 0; fi
"$UNITS"
