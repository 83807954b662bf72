#!/usr/bin/env bash
# The documentation: jvmti.html and the man pages, rendered once per spec
# (spec/jvmti.xml; jdk17, jdk25, mainline when ../shared/spec has them; and a small fixture
# with every kind of markup) and checked from every side: anchors and links,
# the JDK 17 page's ids, the Nu Html Checker, groff, man, a real browser;
# then --templates, broken templates, stale pages, the depfile.
. tests/lib.sh
FIXTURE=tests/docs/fixtures/small.xml
# The JDK 17 page of openjdk-17-doc: where dpkg says the package put it,
# else where Debian's releases put it (bookworm: under the JRE's doc folder).
JDK17_HTML_PLACES=(/usr/share/doc/openjdk-17-jre-headless/specs/jvmti.html
                   /usr/share/doc/openjdk-17-doc/specs/jvmti.html
                   /usr/share/doc/openjdk-17-doc/api/specs/jvmti.html
                   /usr/lib/jvm/java-17-openjdk-*/docs/specs/jvmti.html)
JDK17_HTML=$(dpkg -L openjdk-17-doc 2>/dev/null | grep -m1 '/specs/jvmti\.html$')
if [ -z "$JDK17_HTML" ]; then
    for f in "${JDK17_HTML_PLACES[@]}"; do [ -f "$f" ] && { JDK17_HTML=$f; break; }; done
fi
VNU=tests/docs/node_modules/vnu-jar/build/dist/vnu.jar
SHOTS=build/docs-screenshots
root=$(scratch docs)

# ---- render each spec once; every check below reads these ----
# own: spec/jvmti.xml (JDK 25's facts in the project's words), always here.
specs=(own)
for name in jdk17 jdk25 mainline; do
    need_refs "docs: the $name page and man pages" "$name" && specs+=("$name")
done
specs+=(small)
spec_file() {
    case $1 in
    own) echo spec/jvmti.xml ;;
    small) echo "$FIXTURE" ;;
    *) echo "$SHARED_SPECS/$1/jvmti.xml" ;;
    esac
}
for name in "${specs[@]}"; do
    check "docs: $name renders" "$JVMTIGEN" -q -o "$root/$name" "$(spec_file "$name")"
done

ids_of() { grep -o ' id="[^"]*"' "$1" | sed 's/^ id="//; s/"$//'; }

for name in "${specs[@]}"; do
    page="$root/$name/jvmti.html"
    [ -f "$page" ] || continue
    ids_of "$page" | sort >"$root/$name.ids"
    dups=$(uniq -d "$root/$name.ids")
    check "docs: $name: every id on the page is unique" test -z "$dups"
    sort -u "$root/$name.ids" >"$root/$name.uids"
    dangling=$(grep -o 'href="#[^"]*"' "$page" | sed 's/^href="#//; s/"$//' | sort -u |
               comm -23 - "$root/$name.uids")
    if [ -z "$dangling" ]; then ok "docs: $name: every internal link resolves"
    else not_ok "docs: $name: every internal link resolves"; head -20 <<<"$dangling"; fi
    check "docs: $name: the page is HTML5 (doctype, lang, one h1)" \
        bash -c "head -c 16 '$page' | grep -q '^<!DOCTYPE html>' && grep -q '<html lang=\"en\">' '$page' \
                 && [ \$(grep -o '<h1' '$page' | wc -l) -eq 1 ]"
    # A capability row with nothing to say about the capability would have
    # its effect cell empty: the capability's own description stands in.
    check "docs: $name: every capability a function or event lists shows its effect" \
        bash -c "! grep -q 'href=\"#jvmtiCapabilities\.[a-z_]*\"><code>[a-z_]*</code></a></th><td></td>' '$page'"
    check "docs: $name: nothing elided and no open issue is shown" \
        bash -c "! grep -q 'ElidedFunction\|An open issue is not shown\|Nor is this' '$page'"
done

# Facts on each page against the spec's XML, which facts.py reads on its own
# (errors each function can return, parameter tables, thread filters, event
# phases and parameters, the event capabilities, the error index); for
# jdk17 also every error the JDK's own page lists. (own is spec/jvmti.xml.)
need_tool "docs: the facts on each page against the spec's XML (facts.py)" python3 &&
    for name in "${specs[@]}"; do
        page="$root/$name/jvmti.html"
        [ -f "$page" ] || continue
        jdk_page=""
        [ "$name" = jdk17 ] && [ -f "$JDK17_HTML" ] && jdk_page=$JDK17_HTML
        python3 tests/docs/facts.py "$(spec_file "$name")" "$page" "$jdk_page" "docs: $name" "$root/$name/man/man3"
        [ $? -le 1 ] || not_ok "docs: $name: facts.py ran to the end"
    done

# Every id of the JDK's own page exists on ours (from our spec, and from
# JDK 17's where it is here), so deep links keep working.
# (Not in dpkg -L openjdk-17-doc, nor at any of JDK17_HTML_PLACES: lacking.)
if [ -z "$JDK17_HTML" ]; then
    lack "docs: the ids of the JDK 17 page on ours" jvmti.html
else
    ids_of "$JDK17_HTML" | sort -u >"$root/jdk-page.ids"
    n=$(wc -l <"$root/jdk-page.ids")
    for name in own jdk17; do
        [ -f "$root/$name.uids" ] || continue
        missing=$(comm -23 "$root/jdk-page.ids" "$root/$name.uids")
        if [ -z "$missing" ] && [ "$n" -gt 1000 ]; then ok "docs: $name: all $n ids of the JDK 17 jvmti.html ($JDK17_HTML) are on ours"
        else not_ok "docs: $name: all ids of the JDK 17 jvmti.html ($n) are on ours ($(grep -c . <<<"$missing") missing)"
             head -20 <<<"$missing"; fi
    done
fi

# What the fixture must show: markup of every kind, rendered.
small="$root/small/jvmti.html"
# <space/> is a no-break space: its two bytes in UTF-8, whatever the locale
# (a fresh Debian machine has none, and grep's . is then one byte).
nbsp=$(printf '\302\240')
check "docs: small: prose markup is rendered (code, lists, tables, examples, links)" \
    bash -c "grep -q '<code>code${nbsp}with a space</code>' '$small' && grep -q '<ul class=\"circle\">' '$small' \
             && grep -q '<dl><dt>term</dt>' '$small' && grep -q '<td class=\"centered\">2</td>' '$small' \
             && grep -q '<pre class=\"example\">' '$small' && grep -q 'href=\"#jvmtiWidget.size\"' '$small' \
             && grep -q 'href=\"#GetWidget.kind\"' '$small' && grep -q 'href=\"https://example.org/\"' '$small' \
             && grep -q 'jvms-4.html#jvms-4.4' '$small' && grep -q 'Rationale' '$small'"
check "docs: small: a function shows its prototype from jvmti.h's code, phase, position and since badge" \
    bash -c "grep -q 'GetWidget(jvmtiEnv\* env,' '$small' && grep -q 'jvmtiWidget\\*</span>\|<a href=\"#jvmtiWidget\">jvmtiWidget</a>\*' '$small' \
             && grep -q 'in the start or the live phase' '$small' && grep -q 'class=\"since\"' '$small'"
check "docs: small: parameter checks become error rows (NULL, min, thread, capability)" \
    bash -c "grep -q '<code>widget_ptr</code></a> is NULL' '$small' && grep -q 'is less than 0' '$small' \
             && grep -q 'is not a thread object' '$small' && grep -q 'JVMTI_ERROR_THREAD_NOT_ALIVE' '$small' \
             && grep -q 'does not possess the capability' '$small'"
check "docs: small: cross-indexes (capability users, functions returning an error)" \
    bash -c "grep -q 'Required by</span> <a href=\"#GetWidget\">' '$small' && grep -q 'Used by</span> <a href=\"#GetWidget\">' '$small' \
             && grep -q 'Returned by</span> <a href=\"#GetWidget\">' '$small'"
check "docs: small: the function table lists reserved slots" grep -q '<i>reserved</i>' "$root/small/jvmti.html"

# The Nu Html Checker: zero errors, every page in one run. (A sanitizer
# run checks the generator, not the page again: the plain run did.)
if [ -n "${SANITIZE:-}" ]; then
    skip "docs: HTML validation: done by the plain run, not again under SANITIZE=$SANITIZE"
elif ! need_tool "docs: HTML validation" java; then
    :
elif [ ! -f "$VNU" ]; then
    lack "docs: HTML validation" vnu-jar "npm: cd tests/docs && npm ci"
else
    pages=()
    for name in "${specs[@]}"; do [ -f "$root/$name/jvmti.html" ] && pages+=("$root/$name/jvmti.html"); done
    # (-XX:TieredStopAtLevel=1: the JIT's quick tier only, half the
    # processor time of the default for these five pages, 9 s against 17)
    if out=$(java -XX:TieredStopAtLevel=1 -jar "$VNU" --errors-only "${pages[@]}" 2>&1); then
        ok "docs: vnu reports no error on ${#pages[@]} pages (${specs[*]})"
    else
        not_ok "docs: vnu reports no error"; head -30 <<<"$out"
    fi
fi

# ---- man pages ----
function_ids() { xmllint --xpath '/specification/functionsection/category/function/@id' "$1" 2>/dev/null |
                 sed 's/ id="\([^"]*\)"/\1\n/g' | sed '/^$/d'; }
event_ids() { xmllint --xpath '/specification/eventsection/event/@id' "$1" 2>/dev/null |
              sed 's/ id="\([^"]*\)"/\1\n/g' | sed '/^$/d'; }
# Structs, unions, callbacks, constant groups and the capabilities.
type_ids() { xmllint --xpath '//typedef[not(ancestor::elide)]/@id|//uniontypedef[not(ancestor::elide)]/@id|//category/callback/@id|//constants[not(ancestor::elide)]/@id|//capabilitiestypedef/@id' "$1" 2>/dev/null |
             sed 's/ id="\([^"]*\)"/\1\n/g' | sed '/^$/d'; }
for name in "${specs[@]}"; do
    dir="$root/$name/man/man3"
    [ -d "$dir" ] || { not_ok "docs: $name: man pages written"; continue; }
    spec=$(spec_file "$name")
    { function_ids "$spec"; event_ids "$spec"; type_ids "$spec"; echo jvmtiError; echo jvmti; } |
        sed 's/$/.3/' | sort >"$root/$name.want"
    (cd "$dir" && ls) | sort >"$root/$name.have"
    # (The spec's items come from xmllint.)
    need_tool "docs: $name: the man pages against the spec's items" xmllint &&
        check "docs: $name: one man page per function, event and type, jvmtiError.3 and jvmti.3 ($(wc -l <"$root/$name.want") pages)" \
            diff "$root/$name.want" "$root/$name.have"
    # groff once over all the pages (a warning names its page and line; one
    # groff per page cost 30 ms of processor time each, 30 s a run): the
    # same as page by page, since a page uses only man's macros and .nf,
    # .fi, .nh, .ad and .br (no definitions, registers or conditionals
    # that could reach the next page) and each starts afresh with .TH;
    # a page with any other request fails here, to be looked at.
    if need_tool "docs: $name: groff -man -ww -z" groff; then
        other=$(grep -HnE "^[.'][[:space:]]*[A-Za-z]" "$dir"/*.3 |
                grep -vE ":[0-9]+:\.(TH|SH|SS|PP|TP|IP|RS|RE|B|I|BR|IR|nf|fi|nh|ad|br)( |\$)" | head -5)
        noisy=$(groff -man -ww -z "$dir"/*.3 2>&1)
        if [ -z "$noisy" ] && [ -z "$other" ]; then ok "docs: $name: groff -man -ww -z prints nothing for any page"
        else not_ok "docs: $name: groff -man -ww -z prints nothing for any page"; head -20 <<<"$noisy"
             [ -z "$other" ] || printf 'a request other than man macros, .nf, .fi, .nh, .ad and .br:\n%s\n' "$other"; fi
    fi
    command -v xmllint >/dev/null || continue
    # Each page's sections by its kind (one awk for all the pages): a
    # function's, an event's, a callback's, a constant group's, the
    # capabilities', a type's fields; NAME, SYNOPSIS, DESCRIPTION and SEE
    # ALSO on every page.
    ids_of_kind() { xmllint --xpath "$1" "$spec" 2>/dev/null | sed 's/ id="\([^"]*\)"/\1\n/g' | sed '/^$/d'; }
    function_ids "$spec" >"$root/$name.fns"
    event_ids "$spec" >"$root/$name.evs"
    ids_of_kind '//category/callback/@id' >"$root/$name.cbs"
    ids_of_kind '//constants/@id' >"$root/$name.consts"
    # (awk's first four arguments are the lists, the pages follow)
    lacking=$(awk '
        BEGIN {
            split("PARAMETERS|CAPABILITIES|RETURN VALUE|ERRORS;PARAMETERS|CAPABILITIES;PARAMETERS;CONSTANTS", extra, ";")
            for (i = 1; i <= 4; i++)  # the first list naming an id gives its kind
                while ((getline id <ARGV[i]) > 0) if (!(id in kind)) kind[id] = extra[i]
            for (a = 5; a < ARGC; a++) {
                f = ARGV[a]; base = f; sub(/.*\//, "", base); sub(/\.3$/, "", base)
                split("", have)
                while ((getline line <f) > 0)
                    if (line ~ /^\.SH /) { s = substr(line, 5); sub(/^"/, "", s); sub(/"$/, "", s); have[s] = 1 }
                close(f)
                sections = "NAME|SYNOPSIS|DESCRIPTION"
                if (base in kind) sections = sections "|" kind[base]
                else if (base == "jvmtiCapabilities") sections = sections "|CAPABILITIES"
                else if (base != "jvmti" && base != "jvmtiError") sections = sections "|FIELDS"
                m = split(sections "|SEE ALSO", wanted, "|")
                for (i = 1; i <= m; i++) if (!(wanted[i] in have)) print f " lacks " wanted[i]
            }
            exit
        }' "$root/$name.fns" "$root/$name.evs" "$root/$name.cbs" "$root/$name.consts" "$dir"/*.3)
    if [ -z "$lacking" ]; then ok "docs: $name: every man page has its sections"
    else not_ok "docs: $name: every man page has its sections"; head -10 <<<"$lacking"; fi
done
d="$root/small/man/man3"
if need_tool "docs: man -l" man; then
    text=$(MANWIDTH=200 man -l "$d/jvmti.3" 2>&1; MANWIDTH=200 man -l "$d/GetWidget.3" 2>&1)
    check "docs: small: roff keeps backslashes, dots and apostrophes as text" \
        bash -c "grep -q 'a backslash \\\\n and a line that .starts with a dot, and one that .starts with an apostrophe' <<<\"\$1\" \
                 && grep -q '^ *\\.y = \"\\\\n\";' <<<\"\$1\" && grep -q 'The widget is \\\\not there' <<<\"\$1\"" _ "$text"
    page=$(MANWIDTH=80 man -l "$d/GetWidget.3" 2>&1)
    check "docs: man -l shows a page readably (prototype, parameters, errors)" \
        bash -c "grep -q '^       GetWidget(jvmtiEnv\* env,' <<<\"\$1\" && grep -q '^       names_ptr (char\*\*)' <<<\"\$1\" \
                 && grep -q '^       JVMTI_ERROR_ILLEGAL_ARGUMENT' <<<\"\$1\" && ! grep -q '\\\\f' <<<\"\$1\"" _ "$page"
    check "docs: an event's page shows its callback prototype" \
        bash -c "MANWIDTH=80 man -l '$d/Tick.3' 2>&1 | grep -q 'void JNICALL'"
fi

# The man pages installed on a MANPATH of their own and indexed by mandb:
# whatis knows every page, by the summary of its NAME line (a function's and
# an event's is the first sentence of its description: facts.py), and
# apropos finds a function by the words of that summary.
if [ -d "$root/own/man/man3" ] && need_tool "docs: whatis and apropos on the man pages" mandb whatis apropos; then
    mp=$(scratch manpath)
    mkdir -p "$mp/man" && cp -r "$root/own/man/man3" "$mp/man/"
    if mandb -q "$mp/man" >"$mp/mandb.log" 2>&1; then
        n=$(ls "$mp/man/man3" | wc -l)
        known=$(cd "$mp/man/man3" && for f in *.3; do echo "${f%.3}"; done |
                MANPATH="$mp/man" xargs whatis -s 3 2>/dev/null | grep -c ' (3) *- ')
        check "docs: whatis knows each of the $n man pages by its NAME line" test "$known" -eq "$n"
        check "docs: whatis GetThreadState gives its summary" \
            bash -c "MANPATH='$mp/man' whatis GetThreadState | grep -qx 'GetThreadState (3) *- Reports the state of a thread as a set of bit flags'"
        check "docs: apropos finds GetThreadState by its summary's words" \
            bash -c "MANPATH='$mp/man' apropos -s 3 -a 'state' 'thread' 'flags' | grep -q '^GetThreadState (3)'"
        check "docs: apropos finds FollowReferences by what it does" \
            bash -c "MANPATH='$mp/man' apropos -s 3 'graph of objects' | grep -q '^FollowReferences (3)'"
    else
        not_ok "docs: mandb indexes the man pages"; head -5 "$mp/mandb.log"
    fi
fi

# A double quote in a label reaches macro lines (.SS in jvmti(3), .SH in
# jvmtiError(3)): escaped (\(dq) it shows as written; raw, groff took it
# for the argument's quotes and dropped it. A backslash in the .SH one
# stays one (an upper-cased \e would be \E).
if need_tool "docs: double quotes and backslashes in labels on macro lines" man; then
    quoted="$root/quoted"
    sed -e 's|<category id="widgets" label="Widgets">|<category id="widgets" label="Widgets \&quot;and\&quot; gadgets">|' \
        -e 's|label="Function errors"|label="Function \&quot;specific\&quot; \\errors"|' \
        -e "s|\.\./\.\./\.\./spec/jvmti.dtd|$PWD/spec/jvmti.dtd|" "$FIXTURE" >"$quoted.xml"
    if "$JVMTIGEN" -q -o "$quoted" "$quoted.xml" 2>"$quoted.err"; then
        text=$(MANWIDTH=200 man -l "$quoted/man/man3/jvmti.3" "$quoted/man/man3/jvmtiError.3" 2>&1)
        check "docs: a label's double quotes and backslash shown as written on .SS and .SH lines" \
            bash -c 'grep -q "^   Widgets \"and\" gadgets\$" <<<"$1" && grep -q "^FUNCTION \"SPECIFIC\" \\\\ERRORS\$" <<<"$1"' _ "$text"
    else
        not_ok "docs: a spec with quotes in labels renders"; head -5 "$quoted.err"
    fi
fi

# Man pages as man shows them at 80 columns split no identifier of the spec
# with a hyphen (man.xsl turns hyphenation off; tests/docs/hyphens.py).
if need_tool "docs: no identifier hyphenated at a line end" groff python3; then
    for name in "${specs[@]}"; do
        [ -d "$root/$name/man/man3" ] || continue
        python3 tests/docs/hyphens.py "$(spec_file "$name")" "docs: $name" "$root/$name/man/man3"/*.3
    done
fi
# The pages' cross-references: jvmti(3) lists every other page, and every
# page a SEE ALSO names exists.
for name in "${specs[@]}"; do
    dir="$root/$name/man/man3"
    [ -f "$dir/jvmti.3" ] || continue
    # (the pages less jvmti.3 against its `.BR NAME (3)` lines, with or without a comma)
    unlisted=$(cd "$dir" && comm -23 <(ls -- *.3 | grep -vx jvmti.3 | LC_ALL=C sort) \
               <(sed -n 's/^\.BR \([^ ]*\) (3),\{0,1\}$/\1.3/p' jvmti.3 | LC_ALL=C sort -u))
    check "docs: $name: jvmti(3) lists every other page ($(ls "$dir" | wc -l) pages)" test -z "$unlisted"
    dangling=$(cd "$dir" && sed -n '/^\.SH "\{0,1\}SEE ALSO/,/^\.SH/s/^\.BR \([A-Za-z0-9_]*\) (3).*/\1/p' *.3 |
               sort -u | while read -r p; do [ -f "$p.3" ] || echo "$p"; done)
    check "docs: $name: every page a SEE ALSO names exists" test -z "$dangling"
done

# The docs' C comes from the code that writes jvmti.h: every event typedef
# in the man pages is in the header, line for line.
if [ -f "$root/own/jvmti.h" ] && need_tool "docs: own: the prototypes of the man pages and the page against jvmti.h" python3; then
    mism="" n=0
    # (each page's block, then one python3 for them all: the pages whose
    # block is not in the header)
    for f in "$root/own/man/man3"/*.3; do
        block=$(sed -n '/^typedef void (JNICALL \*jvmtiEvent/,/);$/p' "$f")
        [ -z "$block" ] && continue
        n=$((n + 1))
        printf '%s\0%s\0' "$f" "$block"
    done >"$root/own.typedefs"
    mism=$(python3 - "$root/own/jvmti.h" "$root/own.typedefs" <<'PY'
import sys
header = open(sys.argv[1]).read()
parts = open(sys.argv[2]).read().split('\0')[:-1]
for f, block in zip(parts[::2], parts[1::2]):
    if block not in header:
        print(f)
PY
) || mism+=" (python3 failed)"
    check "docs: own: the $n event typedefs of the man pages are jvmti.h's, character for character" \
        bash -c "[ -z '$mism' ] && [ $n -gt 30 ]"
    html_proto=$(python3 - "$root/own/jvmti.html" <<'PY'
import html, re, sys
page = open(sys.argv[1]).read()
m = re.search(r'id="GetThreadState".*?<pre class="synopsis"><code>(.*?)</code>', page, re.S)
print(html.unescape(re.sub(r'<[^>]+>', '', m.group(1))) if m else "")
PY
)
    check "docs: own: a function's prototype on the page has jvmti.h's parameter types" \
        bash -c "[ \"\$1\" = 'jvmtiError
GetThreadState(jvmtiEnv* env,
            jthread thread,
            jint* thread_state_ptr)' ] && grep -q 'jvmtiError (JNICALL \*GetThreadState) (jvmtiEnv\* env,' '$root/own/jvmti.h'" _ "$html_proto"
fi

# Every prototype the page and the man pages show is jvmti.h's, token for
# token (white space aside): functions, event handlers and typedefs,
# callbacks (tests/docs/prototypes.py reads the header on its own).
command -v python3 >/dev/null && for name in "${specs[@]}"; do
    [ -f "$root/$name/jvmti.h" ] || continue
    python3 tests/docs/prototypes.py "$root/$name/jvmti.h" "$root/$name/jvmti.html" \
        "$root/$name/man/man3" "docs: $name"
done
# ... because the docs call the header's own layout code: a jvmtigen whose
# emit_header.c writes the environment parameter differently shows the
# difference in the docs too. The mutant is linked from this build's other
# objects (so it is skipped under a sanitizer, whose link differs).
mutant_objs=build/$(basename "${CC:-cc}")/obj
if [ -n "${SANITIZE:-}" ]; then
    skip "docs: header layout mutant: done by the plain run, not again under SANITIZE=$SANITIZE"
elif ! need_tool "docs: header layout mutant" python3; then
    :
elif [ "$JVMTIGEN" != bin/jvmtigen ] || [ ! -f "$mutant_objs/c/emit_header.o" ]; then
    skip "docs: header layout mutant: needs bin/jvmtigen's objects in $mutant_objs"
else
    m=$(scratch docs-mutant)
    sed -e 's/jvmtiEnv\* env"/jvmtiEnv* const env"/' -e 's/jvmtiEnv \*jvmti_env"/jvmtiEnv *const jvmti_env"/' \
        gen/c/emit_header.c >"$m/emit_header.c"
    # The objects of the generator's sources (as the Makefile lists them),
    # but the header's.
    objs=$(ls gen/*.c gen/*/*.c | grep -vx gen/c/emit_header.c | sed "s|^gen/\(.*\)\.c\$|$mutant_objs/\1.o|")
    if ${CC:-cc} -std=c11 -D_POSIX_C_SOURCE=200809L -O0 -Igen $(pkg-config --cflags libxslt) \
           -c -o "$m/emit_header.o" "$m/emit_header.c" &&
       ${CC:-cc} -o "$m/jvmtigen" "$m/emit_header.o" $objs $(pkg-config --libs libxslt) &&
       "$m/jvmtigen" -q --templates templates -o "$m/out" spec/jvmti.xml; then
        check "docs: the mutant's jvmti.h has its own layout (the mutation took)" \
            bash -c "grep -q 'jvmtiEnv\* const env' '$m/out/jvmti.h' && grep -q 'jvmtiEnv \*const jvmti_env' '$m/out/jvmti.h'"
        python3 tests/docs/prototypes.py "$m/out/jvmti.h" "$m/out/jvmti.html" "$m/out/man/man3" \
            "docs: header layout mutant"
    else
        not_ok "docs: header layout mutant: could not be built or run"
    fi
fi

# ---- the browser ----
if [ -n "${SANITIZE:-}" ]; then
    skip "docs: browser: done by the plain run, not again under SANITIZE=$SANITIZE"
elif ! need_tool "docs: browser" node; then :
elif [ ! -d tests/docs/node_modules/playwright-core ]; then lack "docs: browser" playwright-core "npm: cd tests/docs && npm ci"
elif [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then lack "docs: browser" chromium
else
    mkdir -p "$SHOTS"
    "$JVMTIGEN" model spec/jvmti.xml >"$root/own.json"
    timeout 240 node tests/docs/browser.mjs "$root/own/jvmti.html" "$SHOTS" "$root/own.json" 2>&1
    # Jumps and Back: 8 fixed items and 50 picked with a fixed seed.
    timeout 300 node tests/docs/jumps.mjs "$root/own/jvmti.html" 50 2>&1 ||
        [ $? -eq 1 ] || not_ok "docs: jumps: the browser run ended"
    # Search against results written by hand from spec/jvmti.xml.
    timeout 240 node tests/docs/search.mjs "$root/own/jvmti.html" 2>&1 ||
        [ $? -eq 1 ] || not_ok "docs: search: the browser run ended"
    # The contents sidebar: where you are, types, capabilities, errors.
    timeout 240 node tests/docs/contents.mjs "$root/own/jvmti.html" 2>&1 ||
        [ $? -eq 1 ] || not_ok "docs: contents: the browser run ended"
    # Wide screens: no table scrolls sideways at 1920 px (the JDK 17 spec's
    # page too, where it is: two of its tables did).
    wide=("$root/own/jvmti.html")
    [ -f "$root/jdk17/jvmti.html" ] && wide+=("$root/jdk17/jvmti.html")
    timeout 240 node tests/docs/wide.mjs "${wide[@]}" 2>&1 ||
        [ $? -eq 1 ] || not_ok "docs: wide: the browser run ended"
    # A 375 px phone: the summary tables as label and value rows, the
    # identifiers broken only between words.
    timeout 240 node tests/docs/phone.mjs "$root/own/jvmti.html" "$SHOTS" 2>&1 ||
        [ $? -eq 1 ] || not_ok "docs: phone: the browser run ended"
    # Printed to A4: the JDK 17 spec's page against the JDK's own page where
    # both are here, else our own page alone.
    if [ -f "$root/jdk17/jvmti.html" ] && [ -n "$JDK17_HTML" ]; then
        timeout 300 node tests/docs/print.mjs "$root/jdk17/jvmti.html" "$JDK17_HTML" 2>&1
    else
        # (need_refs said so for the JDK 17 spec, and the ids' check for the page.)
        [ -n "$JDK17_HTML" ] || lack "docs: print: pages against the JDK's own page" jvmti.html
        [ -f "$root/jdk17/jvmti.html" ] || skip "docs: print: pages against the JDK's own page (needs $SHARED_SPECS/jdk17/jvmti.xml)"
        timeout 300 node tests/docs/print.mjs "$root/own/jvmti.html" 2>&1
    fi || [ $? -eq 1 ] || not_ok "docs: print: the browser run ended"
fi

# ---- options and discipline ----
d=$(scratch docs-opts)
"$JVMTIGEN" -q --no-docs -o "$d/nodocs" "$FIXTURE"
# jvmti.html renders in a forked helper with JVMTIGEN_JOBS=2 while the man
# pages render here; the same run in one process (the default, measured
# faster idle and loaded: gen/docs/helper.c) writes the same bytes.
JVMTIGEN_JOBS=1 "$JVMTIGEN" -q -o "$d/one-process" "$FIXTURE"
JVMTIGEN_JOBS=2 "$JVMTIGEN" -q -o "$d/two-processes" "$FIXTURE"
check "docs: rendering in a helper process and in one process give the same files" \
    diff -r "$d/one-process" "$d/two-processes"
if need_tool "docs: the helper process, counted by strace" strace; then
    forks() { strace -f -e trace=clone,clone3,fork,vfork -o "$d/strace" "$JVMTIGEN" -q -o "$d/forks" "$FIXTURE" >/dev/null 2>&1
              grep -c 'clone\|fork' "$d/strace"; }
    two=$(JVMTIGEN_JOBS=2 forks) one=$(JVMTIGEN_JOBS=1 forks) default=$(unset JVMTIGEN_JOBS; forks)
    if [ -n "${SANITIZE:-}" ]; then
        # a sanitizer's runtime clones a process of its own (LeakSanitizer
        # stops the world that way at exit): the helper is the difference
        check "docs: JVMTIGEN_JOBS=2 forks the helper ($two clones), JVMTIGEN_JOBS=1 does not ($one, the $SANITIZE runtime's)" \
            test "$two" -gt "$one"
        check "docs: by default no helper is forked ($default clones, as JVMTIGEN_JOBS=1's $one)" \
            test "$default" -eq "$one"
    else
        check "docs: JVMTIGEN_JOBS=2 forks the helper ($two), JVMTIGEN_JOBS=1 does not ($one)" \
            test "$two" -ge 1 -a "$one" -eq 0
        check "docs: by default no helper is forked ($default forks; one process is faster idle and loaded)" \
            test "$default" -eq 0
    fi
fi
check "docs: --no-docs writes the C outputs only" \
    bash -c "[ -f '$d/nodocs/jvmti.h' ] && [ ! -e '$d/nodocs/jvmti.html' ] && [ ! -e '$d/nodocs/man' ]"

mkdir -p "$d/tpl"
cat >"$d/tpl/html.xsl" <<'EOF'
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:jg="urn:jvmtigen">
  <xsl:output method="text"/>
  <xsl:param name="version"/>
  <xsl:template match="/">my page <xsl:value-of select="$version"/>: <xsl:value-of select="jg:prototype('Dispose')"/></xsl:template>
</xsl:stylesheet>
EOF
cat >"$d/tpl/man.xsl" <<'EOF'
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:template match="/"><pages><page name="only.3">.\" Generated by jvmtigen
.TH only 3
</page></pages></xsl:template>
</xsl:stylesheet>
EOF
"$JVMTIGEN" -q --templates "$d/tpl" -MD -o "$d/custom" "$FIXTURE"
check "docs: --templates DIR uses the user's templates, with parameters and extension functions" \
    bash -c "[ \"\$(cat '$d/custom/jvmti.html')\" = \"my page 2.0.0: jvmtiError
Dispose(jvmtiEnv* env)\" ] && [ \"\$(ls '$d/custom/man/man3')\" = only.3 ]"
# jg:fill: each %X by the value after X, by nothing for an X not given and
# for a % at the end; X any one character; a value missing is an error.
mkdir -p "$d/fill" "$d/fill-bad"
cp "$d/tpl/man.xsl" "$d/fill/man.xsl"
cp "$d/tpl/man.xsl" "$d/fill-bad/man.xsl"
cat >"$d/fill/html.xsl" <<'EOF'
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:jg="urn:jvmtigen">
  <xsl:output method="text" encoding="UTF-8"/>
  <xsl:template match="/">[<xsl:value-of select="jg:fill('%p is %x less than %m; %é!%', 'p', 'A', 'm', 'B', 'é', 'E')"/>][<xsl:value-of select="jg:fill('no placeholder')"/>]</xsl:template>
</xsl:stylesheet>
EOF
sed "s/jg:fill('no placeholder')/jg:fill('x', 'p')/" "$d/fill/html.xsl" >"$d/fill-bad/html.xsl"
"$JVMTIGEN" -q --templates "$d/fill" -o "$d/fill-out" "$FIXTURE"
check "docs: jg:fill replaces each %X by the value after X, by nothing where X has none" \
    bash -c "[ \"\$(cat '$d/fill-out/jvmti.html')\" = '[A is  less than B; E!][no placeholder]' ]"
check "docs: jg:fill with a value missing is an error" \
    bash -c "! '$JVMTIGEN' -q --templates '$d/fill-bad' -o '$d/fill-bad-out' '$FIXTURE' 2>'$d/fill-bad.err' && grep -q 'error' '$d/fill-bad.err'"
# The cross-reference functions (gen/docs/crossref.c) answer as the
# xsl:key declarations they replaced did: libxslt's key() and the function,
# side by side in fixtures/crossref/html.xsl, on every id, since, version
# and struct or enum text of each spec (and of crossref/odd.xml: elided
# items, an id given twice, change versions of every form).
for name in "${specs[@]}" odd; do
    s=$(spec_file "$name")
    [ "$name" = odd ] && s=tests/docs/fixtures/crossref/odd.xml
    rm -rf "$d/xref"
    "$JVMTIGEN" -q --templates tests/docs/fixtures/crossref -o "$d/xref" "$s"
    check "docs: $name: jg:anchor and its kin answer as the keys they replaced ($(tail -n 1 "$d/xref/jvmti.html" 2>/dev/null))" \
        bash -c "grep -q '^compared [1-9]' '$d/xref/jvmti.html' && ! grep differs '$d/xref/jvmti.html'"
done
# ... and their edge cases, against answers written by hand: an elided
# function, event, typedef or callback found by none but jg:anchor's
# typedef (the key matched typedef anywhere), an unknown id, an id given
# twice, change versions without a dot or a number; a spec with no
# capability field, type or change (bare.xml) finds nothing.
for s in odd bare; do
    rm -rf "$d/xref-$s"
    "$JVMTIGEN" -q --jvmti-version 2.0.0 --templates tests/docs/fixtures/crossref/edges \
        -o "$d/xref-$s" "tests/docs/fixtures/crossref/$s.xml"
done
cat >"$d/xref-odd.expected" <<'EOF'
anchor GetWidget: GetWidget
anchor ElidedFunction:
anchor Gone:
anchor no-such-id:
anchor twice: Once Twice
anchor jvmtiElidedStruct: jvmtiElidedStruct
capability-field can_paint_widgets: can_paint_widgets
capability-field nope:
required can_get_widgets: GetWidget Tick
capability can_paint_widgets: GetWidget
required can_paint_widgets:
type-users jvmtiWidget: widget_ptr widget
type-users jvmtiWidgetKind: kind
type-page every struct and enum: jvmtiWidget jvmtiWidgetKind
type-page jvmtiElidedStruct jvmtiElidedCallback:
type-pages: jvmtiWidget jvmtiWidgetKind jvmtiWidgetCallback
release-changes 2.0: 2 January 2026 3 January 2026
release-changes .: 4 January 2026 5 January 2026
release-changes 9: 8 January 2026
release-changes 2:
EOF
sed 's/:.*/:/' "$d/xref-odd.expected" >"$d/xref-bare.expected"
for s in odd bare; do
    check "docs: crossref/$s.xml: the cross-reference functions' edge cases" \
        diff "$d/xref-$s.expected" "$d/xref-$s/jvmti.html"
done
# jg:search-index: the search list's entries, in the page's order, each
# with the facts its line shows (written by hand for the fixture, with an
# entry point's introduction and the one all _L entry points share added,
# and a since of 1.0, which no entry shows).
mkdir -p "$d/search"
cp "$d/tpl/man.xsl" "$d/search/man.xsl"
cat >"$d/search/html.xsl" <<'EOF'
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:jg="urn:jvmtigen">
  <xsl:output method="text" encoding="UTF-8"/>
  <xsl:template match="/"><xsl:for-each select="jg:search-index(/specification)"><xsl:value-of select="concat(@kind, '|', @href, '|', @name, '|', @title, '|', @data-since, '|', @alias, '|', @summary)"/><xsl:text>&#10;</xsl:text></xsl:for-each>[<xsl:value-of select="count(jg:search-index(/specification/title))"/>]<xsl:text>&#10;</xsl:text></xsl:template>
</xsl:stylesheet>
EOF
sed -e "s#\"../../../spec/jvmti.dtd\"#\"$PWD/spec/jvmti.dtd\"#" \
    -e 's#<function id="Dispose" num="1"#& since="1.0"#' \
    -e 's#<functionsection label="Functions">#<intro id="onload" label="  Loading\n  an agent "/><intro id="entryPoint" label="Names"/>&#' \
    "$FIXTURE" >"$d/search.xml"
"$JVMTIGEN" -q --templates "$d/search" -o "$d/search-out" "$d/search.xml"
cat >"$d/search.want" <<'EOF'
function|GetWidget|GetWidget|Get Widget|2||Gets a widget of kind for thread
function|Dispose|Dispose|Dispose|||Ends it all
event|Tick|Tick|Tick|2|JVMTI_EVENT_TICK|A tick, for widget
entry point|onload|Agent_OnLoad|Loading an agent|||
entry point|entryPoint|Agent_OnLoad_L|Names|||
entry point|entryPoint|Agent_OnAttach_L|Names|||
entry point|entryPoint|Agent_OnUnload_L|Names|||
constant|JVMTI_VERSION_1|JVMTI_VERSION_1|JVM TI version|||0x30010000
constant|JVMTI_VERSION_1_0|JVMTI_VERSION_1_0|JVM TI version|||0x30010000
constant|JVMTI_VERSION_1_1|JVMTI_VERSION_1_1|JVM TI version|1.1||0x30010100
constant|JVMTI_VERSION_1_2|JVMTI_VERSION_1_2|JVM TI version|1.2||0x30010200
constant|JVMTI_VERSION|JVMTI_VERSION|JVM TI version|||0x30020000
constant|JVMTI_WIDGET_ROUND|JVMTI_WIDGET_ROUND|Widget kinds|||Round
constant|JVMTI_WIDGET_SQUARE|JVMTI_WIDGET_SQUARE|Widget kinds|||Square
error|JVMTI_ERROR_NONE|JVMTI_ERROR_NONE|0|||No error
error|JVMTI_ERROR_NULL_POINTER|JVMTI_ERROR_NULL_POINTER|100|||A NULL pointer
error|JVMTI_ERROR_INVALID_THREAD|JVMTI_ERROR_INVALID_THREAD|10|||Not a thread
error|JVMTI_ERROR_THREAD_NOT_ALIVE|JVMTI_ERROR_THREAD_NOT_ALIVE|15|||Not alive
error|JVMTI_ERROR_ILLEGAL_ARGUMENT|JVMTI_ERROR_ILLEGAL_ARGUMENT|103|||Illegal argument
error|JVMTI_ERROR_MUST_POSSESS_CAPABILITY|JVMTI_ERROR_MUST_POSSESS_CAPABILITY|99|||Missing capability
constants|jvmtiWidgetKind|jvmtiWidgetKind|Widget kinds|2||
type|jvmtiWidget|jvmtiWidget|A widget|2||A widget
field|jvmtiWidget.size|jvmtiWidget.size||||Its size
field|jvmtiWidget.name|jvmtiWidget.name||||Its name
type|jvmtiCapabilities|jvmtiCapabilities|The capabilities|||
capability|jvmtiCapabilities.can_get_widgets|jvmtiCapabilities.can_get_widgets||||Can get widgets
capability|jvmtiCapabilities.can_paint_widgets|jvmtiCapabilities.can_paint_widgets||2||Can paint them
callback|jvmtiWidgetCallback|jvmtiWidgetCallback|Widget callback|2||Called for a widget
type|jint|jint|JNI types|||An int
type|jthread|jthread|JNI types|||A thread
type|eventCallbacks|jvmtiEventCallbacks|Our types|||Callbacks
[0]
EOF
check "docs: jg:search-index lists the search entries in the page's order, with their facts" \
    diff "$d/search.want" "$d/search-out/jvmti.html"
# <jg:search-list/>: the page's search list lines, in the page's markup
# (a few of the fixture's above, written by hand).
mkdir -p "$d/search-list"
cp "$d/tpl/man.xsl" "$d/search-list/man.xsl"
cat >"$d/search-list/html.xsl" <<'EOF'
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:jg="urn:jvmtigen" extension-element-prefixes="jg">
  <xsl:output method="html" encoding="UTF-8" indent="no"/>
  <xsl:template match="/"><ul><jg:search-list/></ul></xsl:template>
</xsl:stylesheet>
EOF
"$JVMTIGEN" -q --templates "$d/search-list" -o "$d/search-list-out" "$d/search.xml"
check "docs: <jg:search-list/> writes the search list's lines" \
    bash -c "f='$d/search-list-out/jvmti.html'
        [ \$(grep -o '<li ' \"\$f\" | wc -l) = 31 ] &&
        grep -qF '<ul><li data-kind=\"function\" data-since=\"2\"><a href=\"#GetWidget\"><code>GetWidget</code> <span class=\"kind\">function</span> <span class=\"title\">Get Widget</span> <span class=\"since\">since 2</span> <span class=\"sum\">Gets a widget of kind for thread</span></a></li><li data-kind=\"function\"><a href=\"#Dispose\">' \"\$f\" &&
        grep -qF '<li data-kind=\"event\" data-since=\"2\"><a href=\"#Tick\"><code>Tick</code> <span class=\"kind\">event</span> <span class=\"title\">Tick</span> <span class=\"since\">since 2</span> <span class=\"sum\"><code>JVMTI_EVENT_TICK</code> · A tick, for widget</span></a></li>' \"\$f\" &&
        grep -qF '<li data-kind=\"entry point\"><a href=\"#onload\"><code>Agent_OnLoad</code> <span class=\"kind\">entry point</span> <span class=\"title\">Loading an agent</span></a></li>' \"\$f\" &&
        grep -qF '<li data-kind=\"field\"><a href=\"#jvmtiWidget.size\"><code>jvmtiWidget.size</code> <span class=\"kind\">field</span> <span class=\"sum\">Its size</span></a></li>' \"\$f\" &&
        grep -qF '<li data-kind=\"type\"><a href=\"#eventCallbacks\"><code>jvmtiEventCallbacks</code> <span class=\"kind\">type</span> <span class=\"title\">Our types</span> <span class=\"sum\">Callbacks</span></a></li></ul>' \"\$f\""
# jg:says-parts: an error's sentence in parts: text, the parameter, the
# type, the class where there is one, the minimum as text, nothing for any
# other %X and for a % at the end (the sentences of the fixture's GetWidget
# and two made up, read with document('')).
mkdir -p "$d/says"
cp "$d/tpl/man.xsl" "$d/says/man.xsl"
cat >"$d/says/html.xsl" <<'EOF'
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:jg="urn:jvmtigen" xmlns:x="urn:x">
  <xsl:output method="text" encoding="UTF-8"/>
  <x:e says="%p of %c at %m; %q%t%" param="a" class="C" type="T" min="3"/>
  <x:e says="%c%m%%p"/>
  <xsl:template match="/">
    <xsl:for-each select="jg:errors('GetWidget')[@says]|document('')/*/x:e">
      <xsl:for-each select="jg:says-parts(.)">[<xsl:value-of select="concat(name(), ':', ., @param, @type, @class)"/>]</xsl:for-each>
      <xsl:text>&#10;</xsl:text>
    </xsl:for-each>
  </xsl:template>
</xsl:stylesheet>
EOF
"$JVMTIGEN" -q --templates "$d/says" -o "$d/says-out" "$FIXTURE"
cat >"$d/says.want" <<'EOF'
[p:thread][s: is not a thread object.]
[p:thread][s: is not alive: not started yet, or already terminated.]
[p:kind][s: is not one of the values of ][t:jvmtiWidgetKind][s:.]
[p:depth][s: is less than ][s:0][s:.]
[p:widget_ptr][s: is NULL.]
[p:names_ptr][s: is NULL.]
[p:count_ptr][s: is NULL.]
[p:a][s: of ][c:C][s: at ][s:3][s:; ][t:T]
[s:p]
EOF
check "docs: jg:says-parts splits an error's sentence at its placeholders" \
    diff "$d/says.want" "$d/says-out/jvmti.html"
# jg:release: the release a change's version belongs to, as since
# attributes name it.
mkdir -p "$d/release"
cp "$d/tpl/man.xsl" "$d/release/man.xsl"
cat >"$d/release/html.xsl" <<'EOF'
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:jg="urn:jvmtigen">
  <xsl:output method="text" encoding="UTF-8"/>
  <xsl:template match="/">[<xsl:value-of select="jg:release('11.0.0')"/>][<xsl:value-of select="jg:release('1.1.47')"/>][<xsl:value-of select="jg:release('v40')"/>][<xsl:value-of select="jg:release('1.2')"/>][<xsl:value-of select="jg:release('09.1.0')"/>][<xsl:value-of select="jg:release('.5.6')"/>][<xsl:value-of select="jg:release(' 9.x.y')"/>][<xsl:value-of select="jg:release('8a.1.2')"/>]</xsl:template>
</xsl:stylesheet>
EOF
"$JVMTIGEN" -q --templates "$d/release" -o "$d/release-out" "$FIXTURE"
check "docs: jg:release names a version's release (the major number from 9 on, else major.minor)" \
    bash -c "[ \"\$(cat '$d/release-out/jvmti.html')\" = '[11][1.1][][1.][09][][ 9][8a.1]' ]"
# <jg:param-error-rows/>: a row for each error a parameter of the function
# can cause, its sentence marked up (the fixture's GetWidget, written by
# hand: the thread's two, the enum's type linked, the minimum as text).
mkdir -p "$d/error-rows"
cp "$d/tpl/man.xsl" "$d/error-rows/man.xsl"
cat >"$d/error-rows/html.xsl" <<'EOF'
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:jg="urn:jvmtigen" extension-element-prefixes="jg">
  <xsl:output method="html" encoding="UTF-8" indent="no"/>
  <xsl:template match="/"><table><xsl:for-each select="//function"><jg:param-error-rows/></xsl:for-each></table></xsl:template>
</xsl:stylesheet>
EOF
"$JVMTIGEN" -q --templates "$d/error-rows" -o "$d/error-rows-out" "$FIXTURE"
printf '%s' '<table>' \
    '<tr><th scope="row"><a href="#JVMTI_ERROR_INVALID_THREAD"><code>JVMTI_ERROR_INVALID_THREAD</code></a></th><td><a href="#GetWidget.thread"><code>thread</code></a> is not a thread object.</td></tr>' \
    '<tr><th scope="row"><a href="#JVMTI_ERROR_THREAD_NOT_ALIVE"><code>JVMTI_ERROR_THREAD_NOT_ALIVE</code></a></th><td><a href="#GetWidget.thread"><code>thread</code></a> is not alive: not started yet, or already terminated.</td></tr>' \
    '<tr><th scope="row"><a href="#JVMTI_ERROR_ILLEGAL_ARGUMENT"><code>JVMTI_ERROR_ILLEGAL_ARGUMENT</code></a></th><td><a href="#GetWidget.kind"><code>kind</code></a> is not one of the values of <a href="#jvmtiWidgetKind"><code>jvmtiWidgetKind</code></a>.</td></tr>' \
    '<tr><th scope="row"><a href="#JVMTI_ERROR_ILLEGAL_ARGUMENT"><code>JVMTI_ERROR_ILLEGAL_ARGUMENT</code></a></th><td><a href="#GetWidget.depth"><code>depth</code></a> is less than 0.</td></tr>' \
    '<tr><th scope="row"><a href="#JVMTI_ERROR_NULL_POINTER"><code>JVMTI_ERROR_NULL_POINTER</code></a></th><td><a href="#GetWidget.widget_ptr"><code>widget_ptr</code></a> is NULL.</td></tr>' \
    '<tr><th scope="row"><a href="#JVMTI_ERROR_NULL_POINTER"><code>JVMTI_ERROR_NULL_POINTER</code></a></th><td><a href="#GetWidget.names_ptr"><code>names_ptr</code></a> is NULL.</td></tr>' \
    '<tr><th scope="row"><a href="#JVMTI_ERROR_NULL_POINTER"><code>JVMTI_ERROR_NULL_POINTER</code></a></th><td><a href="#GetWidget.count_ptr"><code>count_ptr</code></a> is NULL.</td></tr>' \
    '</table>' >"$d/error-rows.want"
echo >>"$d/error-rows.want"
check "docs: <jg:param-error-rows/> writes a row for each error of each parameter" \
    cmp "$d/error-rows.want" "$d/error-rows-out/jvmti.html"
# The man pages' fact sections written in C (gen/docs/manroff.c), against
# what the fixture's spec says, written out here by hand: GetWidget's
# capability and parameter errors (jg:man-errors), "" for an unknown id;
# the SYNOPSIS of a function, an event and a callback (jg:man-synopsis);
# SEE ALSO's lines, in the node-set's order, "" without an id (jg:man-refs).
mkdir -p "$d/manroff"
cp "$d/tpl/man.xsl" "$d/manroff/man.xsl"
cat >"$d/manroff/html.xsl" <<'EOF'
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:jg="urn:jvmtigen">
  <xsl:output method="text" encoding="UTF-8"/>
  <xsl:template match="/">[<xsl:value-of select="jg:man-errors('GetWidget')"/>][<xsl:value-of select="jg:man-errors('Nope')"/>]
<xsl:for-each select="//function[@id = 'GetWidget'] | //event | //callback">[<xsl:value-of select="jg:man-synopsis(.)"/>]</xsl:for-each>
[<xsl:value-of select="jg:man-refs(//category/function | //event | /specification)"/>][<xsl:value-of select="jg:man-refs(/..)"/>]</xsl:template>
</xsl:stylesheet>
EOF
"$JVMTIGEN" -q --templates "$d/manroff" -o "$d/manroff-out" "$FIXTURE"
cat >"$d/manroff.want" <<'EOF'
[.TP
.B JVMTI_ERROR_MUST_POSSESS_CAPABILITY
The environment does not possess the capability \fBcan_get_widgets\fP.
.TP
.B JVMTI_ERROR_INVALID_THREAD
\fIthread\fP is not a thread object.
.TP
.B JVMTI_ERROR_THREAD_NOT_ALIVE
\fIthread\fP is not alive: not started yet, or already terminated.
.TP
.B JVMTI_ERROR_ILLEGAL_ARGUMENT
\fIkind\fP is not one of the values of \fBjvmtiWidgetKind\fP.
.TP
.B JVMTI_ERROR_ILLEGAL_ARGUMENT
\fIdepth\fP is less than 0.
.TP
.B JVMTI_ERROR_NULL_POINTER
\fIwidget_ptr\fP is NULL.
.TP
.B JVMTI_ERROR_NULL_POINTER
\fInames_ptr\fP is NULL.
.TP
.B JVMTI_ERROR_NULL_POINTER
\fIcount_ptr\fP is NULL.
][]
[jvmtiError
GetWidget(jvmtiEnv* env,
            jthread thread,
            jvmtiWidgetKind kind,
            jint depth,
            jvmtiWidget* widget_ptr,
            char** names_ptr,
            jint* count_ptr)
.PP
jvmtiError err = (*env)->GetWidget(env, thread, kind, depth, widget_ptr,
    names_ptr, count_ptr);
.fi
.PP
start or live phase; not callback-safe; needs can_get_widgets; since 2.
][typedef jint (JNICALL *jvmtiWidgetCallback)
    (const jvmtiWidget* widget);
.fi
][typedef void (JNICALL *jvmtiEventTick)
    (jvmtiEnv *jvmti_env,
     jint widget);
.PP
void JNICALL
Tick(jvmtiEnv *jvmti_env,
            jint widget)
.fi
]
[.BR  (3),
.BR GetWidget (3),
.BR Dispose (3),
.BR Tick (3),
][]
EOF
check "docs: jg:man-errors writes a function's capability and parameter errors in roff, \"\" for an unknown id; jg:man-synopsis a function's, an event's and a callback's SYNOPSIS; jg:man-refs SEE ALSO's lines" \
    bash -c "[ \"\$(cat '$d/manroff-out/jvmti.html')\" = \"\$(cat '$d/manroff.want')\" ]"
# <jg:roff/> (gen/docs/roff.c): the context node's text as jg:roff-text
# renders it (white space collapsed, a blank kept at either end, \ and "
# escaped), written between the literal text around it in order: an
# element, text nodes, a verbatim block's element.
mkdir -p "$d/roffelem"
cp "$d/tpl/man.xsl" "$d/roffelem/man.xsl"
cat >"$d/roffelem/html.xsl" <<'EOF'
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:jg="urn:jvmtigen"
                extension-element-prefixes="jg">
  <xsl:output method="text" encoding="UTF-8"/>
  <xsl:template match="/">[<xsl:for-each select="/specification/title | //errors/error/text() | //example/text()"><jg:roff/>|</xsl:for-each>]<xsl:for-each select="//example"><jg:roff/></xsl:for-each></xsl:template>
</xsl:stylesheet>
EOF
"$JVMTIGEN" -q --templates "$d/roffelem" -o "$d/roffelem-out" "$FIXTURE"
check "docs: <jg:roff/> writes the context node's text as jg:roff-text does, in order with the text around it" \
    bash -c "[ \"\$(cat '$d/roffelem-out/jvmti.html')\" = '[Small Tool Interface| if (x) { .y = \\(dq\\en\\(dq; } |The widget is \\enot there.|] if (x) { .y = \\(dq\\en\\(dq; } ' ]"
# A parameter's or field's head, type note and local-reference note
# (jg:man-member, jg:man-type-note, jg:man-reference-note) on
# spec/jvmti.xml's members of each kind of type, against the sentences its
# types call for, written out by hand.
mkdir -p "$d/manmember"
cp "$d/tpl/man.xsl" "$d/manmember/man.xsl"
cat >"$d/manmember/html.xsl" <<'EOF'
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:jg="urn:jvmtigen">
  <xsl:output method="text" encoding="UTF-8"/>
  <xsl:template match="/">
    <xsl:for-each select="//function[@id = 'GetAllThreads']/parameters/param[@id = 'threads_ptr'] |
                          //typedef[@id = 'jvmtiThreadInfo']/field[@id = 'thread_group' or @id = 'priority'] |
                          //function[@id = 'GetStackTrace']/parameters/param[@id = 'thread' or @id = 'frame_buffer'] |
                          //function[@id = 'GetClassLoader']/parameters/param[@id = 'classloader_ptr'] |
                          //event[@id = 'ClassFileLoadHook']/parameters/param[@id = 'jni_env' or starts-with(@id, 'class_data') or starts-with(@id, 'new_')]">
      <xsl:value-of select="concat('[', jg:man-member(.), '|', jg:man-type-note(.), '|', jg:man-reference-note(.), ']&#10;')"/>
    </xsl:for-each>
    <xsl:value-of select="concat('[', jg:man-member(/nothing), jg:man-type-note(/nothing), jg:man-reference-note(/specification), ']')"/>
  </xsl:template>
</xsl:stylesheet>
EOF
"$JVMTIGEN" -q --templates "$d/manmember" -o "$d/manmember-out" spec/jvmti.xml
cat >"$d/manmember.want" <<'EOF'
[.TP
.IR "threads_ptr" " (jthread**)"
| On return, points to a newly allocated array; free it with \fBDeallocate\fP(3).| The references in it are JNI local references, which the agent manages (DeleteLocalRef, or NewGlobalRef to keep them).]
[.TP
.IR "priority" " (jint)"
||]
[.TP
.IR "thread_group" " (jthreadGroup)"
|| A JNI local reference, which the agent manages (DeleteLocalRef, or NewGlobalRef to keep it).]
[.TP
.IR "thread" " (jthread)"
| NULL stands for the current thread.|]
[.TP
.IR "frame_buffer" " (jvmtiFrameInfo*)"
| An array the agent allocates, which the function fills in.|]
[.TP
.IR "classloader_ptr" " (jobject*)"
| The function stores its result there.| The result is a JNI local reference, which the agent manages (DeleteLocalRef, or NewGlobalRef to keep it).]
[.TP
.IR "jni_env" " (JNIEnv*)"
||]
[.TP
.IR "class_data_len" " (jint)"
||]
[.TP
.IR "class_data" " (const unsigned char*)"
| An array that belongs to the VM: do not modify or free it.|]
[.TP
.IR "new_class_data_len" " (jint*)"
| Points to storage the VM provides; the callback may store a new value there.|]
[.TP
.IR "new_class_data" " (unsigned char**)"
| Where the callback may store a pointer to a new array, which the agent allocates with \fBAllocate\fP(3); the VM takes it over and frees it with \fBDeallocate\fP(3).|]
[]
EOF
check "docs: jg:man-member, jg:man-type-note and jg:man-reference-note write each kind of member's facts in roff, \"\" for no node" \
    bash -c "[ \"\$(cat '$d/manmember-out/jvmti.html')\" = \"\$(cat '$d/manmember.want')\" ]"
check "docs: the depfile lists the templates and the docs outputs" \
    bash -c "grep -q '$d/tpl/html.xsl' '$d/custom/jvmtigen.d' && grep -q '$d/tpl/man.xsl' '$d/custom/jvmtigen.d' \
             && grep -q '$d/custom/man/man3/only.3' '$d/custom/jvmtigen.d'"
# jvmti.html is serialized by jvmtigen itself (gen/docs/htmlsave.c): the
# same bytes as libxslt's serializer (xsltproc) for a page with every case
# the page can hold, and for one with a case left to libxslt.
if need_tool "docs: the page's serialization against xsltproc's" xsltproc; then
    for s in "$FIXTURE" tests/checks/fixtures/valid.xml; do
        "$JVMTIGEN" -q --templates tests/docs/fixtures/serialize -o "$d/ser" "$s" &&
            xsltproc --nonet -o "$d/ser.html" tests/docs/fixtures/serialize/html.xsl "$s"
        check "docs: $(basename "$s"): the page's bytes are those of libxslt's serializer" \
            cmp "$d/ser/jvmti.html" "$d/ser.html"
        rm -rf "$d/ser" "$d/ser.html"
    done
fi
"$JVMTIGEN" -q -MD -o "$d/default" "$FIXTURE"
check "docs: the depfile lists every template file read (includes too)" \
    bash -c "grep -q 'templates/html.xsl' '$d/default/jvmtigen.d' && grep -q 'templates/common.xsl' '$d/default/jvmtigen.d' \
             && grep -q 'templates/man-prose.xsl' '$d/default/jvmtigen.d'"

# Stale pages: jvmtigen's own go, anyone else's stay.
cp "$d/default/man/man3/Dispose.3" "$d/default/man/man3/Removed.3"
printf '.TH MINE 3\n' >"$d/default/man/man3/Mine.3"
run_gen -v -o "$d/default" "$FIXTURE"
check "docs: a page jvmtigen wrote for a function that is gone is removed" \
    bash -c "[ ! -e '$d/default/man/man3/Removed.3' ] && grep -q 'removed $d/default/man/man3/Removed.3' <<<\"\$1\"" _ "$GEN_ERR"
check "docs: a man page jvmtigen did not write is kept" test -f "$d/default/man/man3/Mine.3"
check "docs: unchanged docs are left alone (-v says unchanged)" \
    bash -c "grep -q 'unchanged $d/default/jvmti.html' <<<\"\$1\" && grep -q 'unchanged $d/default/man/man3/GetWidget.3' <<<\"\$1\"" _ "$GEN_ERR"

# A spec is input like any other: only http, https and mailto URLs (and
# paths into the JDK's docs) become links; javascript:, data: and file: do
# not, however they are spelled.
sed -e 's|<externallink id="https://example.org/">an external page</externallink>,|&\
    <externallink id="javascript:alert(1)//://">a</externallink>, <externallink id="JavaScript:alert(2)"/>,\
    <externallink id=" data:text/html,x">b</externallink>, <externallink id="file:///etc/passwd"/>,\
    <externallink id="HTTP://example.org/caps">c</externallink>, <externallink id="mailto:x@example.org">d</externallink>,|' \
    -e "s|\.\./\.\./\.\./spec/jvmti.dtd|$PWD/spec/jvmti.dtd|" "$FIXTURE" >"$d/links.xml"
run_gen -o "$d/links" "$d/links.xml"
check "docs: links of other schemes than http, https and mailto are not made links" \
    bash -c "[ \$(grep -c 'alert(1)' '$d/links.xml') -eq 1 ] && grep -q 'JavaScript:alert(2)' '$d/links/jvmti.html' \
             && ! grep -Eiq 'href=\"[[:space:]]*(javascript|data|file):' '$d/links/jvmti.html' \
             && grep -q 'href=\"HTTP://example.org/caps\"' '$d/links/jvmti.html' \
             && grep -q 'href=\"mailto:x@example.org\"' '$d/links/jvmti.html' \
             && grep -q 'href=\"https://example.org/\"' '$d/links/jvmti.html'"

# Spec text at the start of a man page line, or in a request's arguments,
# cannot make a request of its own: a leading dot or apostrophe is guarded,
# a newline (a character reference in an attribute) is a blank.
sed -e 's|<synopsis>Get Widget</synopsis>|<synopsis>'"'"'so /etc/passwd</synopsis>|' \
    -e 's|<constants id="jvmtiWidgetKind" label="Widget kinds"|<constants id="jvmtiWidgetKind" label=".so /etc/passwd"|' \
    -e 's|<category id="widgets" label="Widgets">|<category id="widgets" label="W\&#10;.so /etc/passwd">|' \
    -e 's|<event label="Tick"|<event label="\&#10;.so /etc/passwd"|' \
    -e "s|\.\./\.\./\.\./spec/jvmti.dtd|$PWD/spec/jvmti.dtd|" "$FIXTURE" >"$d/requests.xml"
run_gen -o "$d/requests" "$d/requests.xml"
check "docs: spec text makes no roff request of its own (synopsis, labels, a newline in an attribute)" \
    bash -c "[ \$(grep -c 'so /etc/passwd' '$d/requests.xml') -eq 4 ] && [ \$(cat '$d/requests/man/man3/'*.3 | grep -c 'so /etc/passwd') -ge 4 ] \
             && ! grep -q \"^[.']so\" '$d/requests/man/man3/'*.3"

# The same for every attribute and every element's text the DTD declares
# (roff_requests.py): payloads in spec/jvmti.xml, one run of check each,
# then all that pass in one spec, its man pages read by groff and man.
if command -v python3 >/dev/null; then
    python3 tests/docs/roff_requests.py "$JVMTIGEN" spec/jvmti.dtd spec/jvmti.xml "$(scratch roff)"
else
    skip "docs: roff: every attribute and element of the DTD (needs python3)"
fi

# Broken templates: FILE:LINE: error, a failing status, nothing written.
status_is() { # DESC WANT PATTERN ARGS...
    local desc=$1 want=$2 pattern=$3; shift 3
    run_gen "$@"
    if [ "$GEN_STATUS" -eq "$want" ] && grep -q -- "$pattern" <<<"$GEN_ERR"; then ok "docs: $desc"
    else not_ok "docs: $desc (status $GEN_STATUS, wanted $want)"; printf '%s\n' "$GEN_ERR" | head -10; fi
}
status_is "a missing template directory is an I/O error (3)" 3 "$d/none/html.xsl: error: cannot read template" \
    --templates "$d/none" -o "$d/out-missing" "$FIXTURE"
check "docs: ... and writes nothing" test ! -e "$d/out-missing"
mkdir -p "$d/broken"
cp "$d/tpl/man.xsl" "$d/broken/man.xsl"
printf '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">\n<xsl:template match="/">\n<p>\n</xsl:template>\n</xsl:stylesheet>\n' >"$d/broken/html.xsl"
status_is "a template that is not well-formed is FILE:LINE: error (1)" 1 "^$d/broken/html.xsl:[0-9]*: error: " \
    --templates "$d/broken" -o "$d/out-broken" "$FIXTURE"
check "docs: ... and writes nothing, not even the C outputs" test ! -e "$d/out-broken"
printf '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">\n<xsl:template match="/">\n<xsl:value-of select="count(("/>\n</xsl:template>\n</xsl:stylesheet>\n' >"$d/broken/html.xsl"
status_is "a bad XPath expression is FILE:LINE: error (1)" 1 "^$d/broken/html.xsl:3: error: " \
    --templates "$d/broken" -o "$d/out-broken" "$FIXTURE"
printf '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">\n<xsl:template match="/">\n<xsl:message terminate="yes">stop here</xsl:message>\n</xsl:template>\n</xsl:stylesheet>\n' >"$d/broken/html.xsl"
JVMTIGEN_JOBS=2 status_is "a template that stops the transformation is an error (1)" 1 "stop here" \
    --templates "$d/broken" -o "$d/out-broken" "$FIXTURE"
check "docs: ... said once (the page renders in a helper process), nothing written" \
    bash -c "[ \$(grep -c 'stop here' <<<\"\$1\") -eq 1 ] && [ ! -e '$d/out-broken' ]" _ "$GEN_ERR"
# A missing named template is an error at each call: once per function
# here, but said once (it was hundreds of equal lines), on the page and on
# the man pages alike.
printf '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">\n<xsl:template match="/"><html><xsl:for-each select="//function">\n<xsl:call-template name="no-such"/></xsl:for-each></html></xsl:template>\n</xsl:stylesheet>\n' >"$d/broken/html.xsl"
sed 's/<html>/<pages>/; s,</html>,</pages>,' "$d/broken/html.xsl" >"$d/broken/man.xsl"
status_is "a call of a missing named template is FILE:LINE: error (1)" 1 \
    "^$d/broken/html.xsl:3: error: .*no-such.* not found" --templates "$d/broken" -o "$d/out-broken" "$FIXTURE"
check "docs: ... said once for each template though called for every function, nothing written" \
    bash -c "[ \$(grep -c 'html.xsl:3: error: .*no-such' <<<\"\$1\") -eq 1 ] && [ \$(grep -c 'man.xsl:3: error: .*no-such' <<<\"\$1\") -eq 1 ] \
             && [ \$(grep -c '<function' '$FIXTURE') -gt 1 ] && [ ! -e '$d/out-broken' ]" _ "$GEN_ERR"
cp "$d/tpl/html.xsl" "$d/broken/html.xsl"
printf '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">\n<xsl:template match="/"><pages><page name="../escape.3">x</page></pages></xsl:template>\n</xsl:stylesheet>\n' >"$d/broken/man.xsl"
status_is "a man page name that is not a plain file name is refused" 1 "is not <page name" \
    --templates "$d/broken" -o "$d/out-broken" "$FIXTURE"
check "docs: ... and nothing is written" test ! -e "$d/out-broken"
printf '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:exsl="http://exslt.org/common" extension-element-prefixes="exsl">\n<xsl:template match="/"><exsl:document href="%s/written.txt" method="text">x</exsl:document><pages/></xsl:template>\n</xsl:stylesheet>\n' "$d" >"$d/broken/man.xsl"
run_gen --templates "$d/broken" -o "$d/out-write" "$FIXTURE"
check "docs: templates cannot write files of their own" test ! -e "$d/written.txt"
