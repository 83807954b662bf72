#!/usr/bin/env bash
# The project's Markdown (README.md, docs/*.md, every folder's README):
# each relative link resolves to a file of the tree, and each #anchor to a
# heading of its target (tests/links/links.py). Also that links.py finds a
# broken link and a broken anchor in a fixture, so the check can fail.
. tests/lib.sh

need_tool "links" python3 || exit 0
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t mds < <(git ls-files '*.md' | grep -v node_modules)
else
    mapfile -t mds < <(find . -name '*.md' -not -path '*/node_modules/*' -not -path './build/*' -not -path './out/*' | sed 's|^\./||' | sort)
fi
check "links: ${#mds[@]} Markdown files, every relative link and anchor resolves" \
    python3 tests/links/links.py "${mds[@]}"
check "links: the README links to the command line's reference (docs/cli.md, build.md, model.md)" \
    bash -c 'grep -q "](docs/cli.md)" README.md && grep -q "](docs/build.md)" README.md && grep -q "](docs/model.md)" README.md'

d=$(scratch links)
printf '# Title\n\n## A `code` heading: here\n\n[ok](#title) [ok2](#a-code-heading-here) [ok3](b.md)\n' >"$d/a.md"
printf 'x\n' >"$d/b.md"
printf '[gone](missing.md) [bad anchor](a.md#nowhere)\n```\n[in code](ignored.md)\n```\n' >"$d/c.md"
check "links: a fixture's good links pass" python3 tests/links/links.py "$d/a.md"
out=$(python3 tests/links/links.py "$d/c.md")
check "links: a missing file and a missing heading are found, a fenced block is not read" \
    test "$out" = "BAD $d/c.md:1: missing.md (no such file)
BAD $d/c.md:1: a.md#nowhere (no heading #nowhere)"
