#!/usr/bin/env bash
# gen/'s C is laid out as the top-level .clang-format says: clang-format 14
# changes nothing in gen/*.c, gen/*/*.c and gen/*/*.h (tables fenced with
# "clang-format off" stay as written). Also that a mis-formatted copy of one
# of them is found, so the check can fail. Skipped without clang-format 14:
# other versions lay some lines out otherwise (CLANG_FORMAT names another
# binary, clang-format-14 say).
. tests/lib.sh

cf=${CLANG_FORMAT:-clang-format}
need_tool "format" "$cf" || exit 0
version=$("$cf" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
if [ "$version" != 14 ]; then
    skip "format: $cf is version ${version:-unknown}, the style is tuned for 14 (set CLANG_FORMAT=clang-format-14)"
    exit 0
fi
style="file:$PWD/.clang-format"

# Prints each of FILES... that clang-format would change; false if any.
unformatted() {
    local f bad=0
    for f; do
        if ! "$cf" --style="$style" "$f" | cmp -s "$f" -; then
            echo "$f: clang-format would change it (see: $cf --style=file -n $f)"
            bad=1
        fi
    done
    return $bad
}

files=(gen/*.c gen/*/*.c gen/*/*.h)
check "format: gen/'s ${#files[@]} C files are as .clang-format lays them out" \
    unformatted "${files[@]}"

d=$(scratch format)
cp gen/c/emit.c "$d/good.c"
# One hand-made slip: a declaration indented by 2 instead of 4.
sed 's/^    const char \*custom = /  const char *custom = /' gen/c/emit.c >"$d/bad.c"
check "format: a copy of gen/c/emit.c passes" unformatted "$d/good.c"
out=$(unformatted "$d/bad.c")
check "format: the copy with one line indented by 2 is found" \
    test "$out" = "$d/bad.c: clang-format would change it (see: $cf --style=file -n $d/bad.c)"
check "format: the slip is really in the copy" bash -c "! cmp -s '$d/good.c' '$d/bad.c'"
