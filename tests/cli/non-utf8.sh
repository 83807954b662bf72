# Sourced by tests/cli/test.sh. File names are bytes; jvmti.html, the man
# pages and diff --json are UTF-8. A spec or output directory whose name is
# not UTF-8 (a stray byte, an overlong form, a surrogate, a cut sequence)
# still gives valid outputs: each bad byte is U+FFFD there.
d=$(scratch cli-non-utf8)
need_tool "cli: non-UTF-8 file names" python3 || return 0
utf8_case() { # DESC NAME-BYTES (printf format)
    local desc=$1 name out
    name=$(printf "$2")
    out="$d/$(printf 'out\376')-$desc"
    sed "s|\"../../../spec/jvmti.dtd\"|\"$PWD/spec/jvmti.dtd\"|" tests/checks/fixtures/valid.xml >"$d/$name"
    local why=
    "$JVMTIGEN" -q -o "$out" "$d/$name" || why="generate failed"
    [ -z "$why" ] && { "$JVMTIGEN" diff --json "$d/$name" "$d/$name" >"$d/diff-$desc.json" || why="diff --json failed"; }
    [ -z "$why" ] && why=$(python3 - "$out/jvmti.html" "$out/man/man3/jvmti.3" "$d/diff-$desc.json" <<'PY'
import json, sys
html, man, diff = (open(p, "rb").read() for p in sys.argv[1:4])
try:
    page = html.decode("utf-8")
    man.decode("utf-8")
    j = json.loads(diff.decode("utf-8"))
except (UnicodeDecodeError, ValueError) as e:
    print("not UTF-8 or not JSON: %s" % e)
    sys.exit(0)
if "\ufffd" not in page or "\ufffd" not in json.dumps(j, ensure_ascii=False):
    print("no U+FFFD where the name's bad bytes were")
PY
)
    if [ -z "$why" ]; then ok "cli: a spec named with $desc gives UTF-8 jvmti.html, man pages and diff --json"
    else not_ok "cli: a spec named with $desc: $why"; fi
}
utf8_case "a stray byte" 'sp\377ec.xml'
utf8_case "an overlong form" 'sp\300\257ec.xml'
utf8_case "a surrogate" 'sp\355\240\200ec.xml'
utf8_case "a cut sequence" 'sp\342\202.xml'
