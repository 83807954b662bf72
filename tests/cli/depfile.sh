# Sourced by tests/cli/test.sh: the depfile as GNU make reads it back.
# The DTD is the one file the spec names: copies of it under odd names.
depspec() { # DIR DTD-PATH: a copy of $VALID naming DTD-PATH
    python3 -c 'import re, sys
t = open(sys.argv[1]).read()
open(sys.argv[2] + "/spec.xml", "w").write(re.sub(r"SYSTEM \"[^\"]*jvmti.dtd\"", lambda m: "SYSTEM \"%s\"" % sys.argv[3], t, count=1))' "$VALID" "$1" "$2"
}
# make_sees DIR: a Makefile that includes the depfile; make -q says whether
# jvmti.h is up to date (0) or must be remade (1); 2 is make's own error.
make_q() { make -q -C "$1" -f consumer.mk "$1/out/jvmti.h" >/dev/null 2>&1; echo $?; }

# depspec and the injected name are written by python3.
if need_tool "cli: -MD: file names make cannot read refused, odd ones escaped" python3; then
    d=$(scratch cli-dep-inject)
    # A DTD whose name starts with a newline and a tab, named by a spec in the
    # same directory and both given by relative names: today's depfile ends the
    # rule's prerequisites there and the name becomes a recipe line, which a
    # consumer's make runs (`touch INJECTED`) when it builds jvmti.h.
    cp spec/jvmti.dtd "$d/"$'\n\ttouch${IFS}INJECTED;'
    python3 -c 'import re, sys
t = open(sys.argv[1]).read()
t = re.sub(r"SYSTEM \"[^\"]*jvmti.dtd\"", "SYSTEM \"\n\ttouch${IFS}INJECTED;\"", t, count=1)
open(sys.argv[2], "w").write(t)' "$VALID" "$d/spec.xml"
    cp -a "$d/spec.xml" "$d/spec.before"
    gen=$JVMTIGEN
    [[ $gen == /* ]] || gen=$PWD/$gen
    GEN_ERR=$(cd "$d" && "$gen" -MD -o out spec.xml 2>&1 >/dev/null)
    GEN_STATUS=$?
    if [ -f "$d/out/jvmtigen.d" ]; then
        printf 'include out/jvmtigen.d\n' >"$d/consumer.mk"
        rm -f "$d/out/jvmti.h"
        make -C "$d" -f consumer.mk out/jvmti.h >/dev/null 2>&1
    fi
    if [ "$GEN_STATUS" -eq 3 ] && [ ! -e "$d/out" ] && [ ! -e "$d/INJECTED" ] &&
        grep -q "^out/jvmtigen.d: error: cannot name '.*' in a make rule: make cannot read a file name with a newline" <<<"$GEN_ERR" &&
        [ "$(grep -c '' <<<"$GEN_ERR")" -eq 1 ] && cmp -s "$d/spec.xml" "$d/spec.before"; then
        ok "cli: a DTD named with a newline and a tab is refused (status 3, one line, nothing written)"
    else
        not_ok "cli: a DTD named with a newline and a tab: status $GEN_STATUS$([ -e "$d/INJECTED" ] && echo ', and make ran the recipe it injected')"
        printf '%s\n' "$GEN_ERR" | head -3
    fi
    for bad in 'semi;colon' 'equal=sign' 'paren(s)' 'back\'; do
        d=$(scratch cli-dep-bad)
        cp spec/jvmti.dtd "$d/$bad"
        depspec "$d" "$d/$bad"
        status_is "a DTD named '$bad' cannot be in a make rule: refused" 3 "cannot name '$d/${bad%\\}.*' in a make rule" \
            -MD -o "$d/out" "$d/spec.xml"
        [ -e "$d/out" ] && not_ok "cli: a DTD named '$bad': the output directory was made"
    done

    # Names make can read, escaped: make finds the very file (up to date
    # after generating, out of date once the DTD is touched).
    if need_tool "cli: -MD: make reads odd names back" make; then
        for odd in 'sp ace' 'ha#sh' 'dol$lar' 'co:lon' 'per%cent' 'st*r' 'qu?' 'br[a' 'pi|pe' 'ta	b' 'back\slash' 'back\ space' 'ti~lde'; do
            d=$(scratch cli-dep-odd)
            mkdir "$d/dir $odd"
            cp spec/jvmti.dtd "$d/dir $odd/$odd.dtd"
            touch "$d/dir $odd/other.dtd" # a wildcard left unescaped would match it too
            depspec "$d" "$d/dir $odd/$odd.dtd"
            touch -d '2001-01-01' "$d/spec.xml" "$d/dir $odd/$odd.dtd"
            "$JVMTIGEN" -q -MD -o "$d/out" "$d/spec.xml"
            printf 'include out/jvmtigen.d\n%s: ; @echo remade\n' "$d/out/jvmti.h" >"$d/consumer.mk"
            before=$(make_q "$d")
            touch "$d/dir $odd/$odd.dtd"
            after=$(make_q "$d")
            if [ "$before" = 0 ] && [ "$after" = 1 ]; then ok "cli: -MD: make reads a DTD named '$odd' back"
            else not_ok "cli: -MD: a DTD named '$odd': make -q said $before, then $after (wanted 0, then 1)"; sed -n '1,3p;$p' "$d/out/jvmtigen.d"; fi
        done
    fi
fi

# The depfile may not replace anything the run reads or writes (today
# --depfile SPEC replaced the spec with a make rule and exited 0).
d=$(scratch cli-dep-clash)
sed -e "s|\"../../../spec/jvmti.dtd\"|\"$d/jvmti.dtd\"|" "$VALID" >"$d/spec.xml"
cp spec/jvmti.dtd "$d/jvmti.dtd"
printf 'Banner.\n' >"$d/banner.txt"
cp -a "$d" "$d.before"
templates_before=$(cksum templates/*)
for dep in "$d/spec.xml" "$d/./spec.xml" "$d/jvmti.dtd" "$d/banner.txt" "$d/out/jvmti.h" \
    "$d/out//man/man3/jvmti.3" "$PWD/templates/html.xsl"; do
    status_is "--depfile $dep (read or written by the run) is refused" 2 "the depfile '$dep' would replace" \
        --banner "$d/banner.txt" --depfile "$dep" -o "$d/out" "$d/spec.xml"
done
check "cli: a refused --depfile changed nothing and made no output directory" \
    bash -c "diff -r '$d' '$d.before' && [ ! -e '$d/out' ] && [ \"\$(cksum templates/*)\" = \"\$1\" ]" _ "$templates_before"
ln -s spec.xml "$d/link.xml"
status_is "--depfile naming a symbolic link to the spec is refused" 2 "would replace a file this run reads" \
    --depfile "$d/link.xml" -o "$d/out" "$d/spec.xml"

# Empty values and values that look like options.
# (--verify: today's code took '' as "/" and wrote every output there.)
status_is "-o '' is a usage error" 2 "-o needs a value, and it is empty" --verify -o '' "$VALID"
status_is "--output= is a usage error" 2 "--output needs a value, and it is empty" --verify --output= "$VALID"
status_is "--depfile '' is a usage error" 2 "--depfile needs a value, and it is empty" --depfile '' -o "$d/o2" "$VALID"
[ -e "$d/o2" ] && not_ok "cli: --depfile '': the outputs were written"
d=$(scratch cli-dashq)
status_is "-o -q is a usage error: -q looks like an option" 2 "-o needs a value, and '-q' looks like an option" \
    -o -q "$VALID"
[ -e -q ] && { not_ok "cli: -o -q made a directory '-q'"; rm -rf -- ./-q; }
"$JVMTIGEN" -q --output=-q "$d/x.xml" 2>/dev/null # a missing spec: nothing made
check "cli: a directory named -q is still reachable as --output=DIR or ./-q" \
    bash -c "cd '$d' && '$PWD/$JVMTIGEN' -q --output=-q '$PWD/$VALID' && '$PWD/$JVMTIGEN' -q -o ./-q '$PWD/$VALID' && [ -f ./-q/jvmti.h ]"
