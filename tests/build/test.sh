#!/usr/bin/env bash
# The generator builds warning-free (-Wall -Wextra -Werror) with both gcc
# and clang, whichever one `make check` itself used.
. tests/lib.sh
for cc in gcc clang; do
    if ! command -v $cc >/dev/null; then not_ok "build: $cc is not installed"; continue; fi
    check "build: gen/ compiles with $cc -Wall -Wextra -Werror" make -s CC=$cc objs
done
