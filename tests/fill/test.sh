#!/usr/bin/env bash
# `jvmtigen fill SPEC FILE`: the skeleton of jvmti_impl_* stubs compiles and
# has one stub per function; a hand-edited file keeps every byte it had while
# fill adds the stubs of functions new in a later spec, flags a changed
# signature (and unflags it once fixed), reports unknown functions at their
# line; a second run changes nothing; unparseable files are refused untouched.
# Expected function sets come from the spec files through xmllint, not from
# jvmtigen.
. tests/lib.sh
JNI_INC=$(jni_include)

need_tool "fill" xmllint gcc perl || exit 0
[ -f "$JNI_INC/jni.h" ] || { lack "fill" jni.h; exit 0; }
# The compilers the skeletons must satisfy: gcc, and clang where it is.
FILL_CCS=(gcc)
need_tool "fill: the compiles with clang" clang && FILL_CCS+=(clang)

S17="$SHARED_SPECS/jdk17/jvmti.xml"
S25="$SHARED_SPECS/jdk25/jvmti.xml"
SML="$SHARED_SPECS/mainline/jvmti.xml"
# The skeleton, placement, refusal and command-line checks run on JDK 17's
# spec where the reference specs are, else on the project's own (JDK 25's
# facts); the merges jdk17 -> jdk25 -> mainline need all three.
if need_refs "fill: merges jdk17 -> jdk25 -> mainline over a hand-edited file" jdk17 jdk25 mainline; then
    REFS=yes BASE=$S17 BASE_VERSION=17.0.0
else
    REFS= BASE=spec/jvmti.xml BASE_VERSION=25.0.0
fi

# Function ids of a spec in document order: not hidden, not inside <elide>.
spec_ids() {
    xmllint --xpath '//function[not(@hide)][not(ancestor::elide)]/@id' "$1" |
        sed -n 's/^ *id="\([A-Za-z0-9_]*\)"$/\1/p'
}
# Names of the jvmti_impl_ definitions in a C file, in file order (comments
# dropped; a definition is NAME(...) followed by '{').
defined_ids() {
    perl -0777 -ne 's{/\*.*?\*/}{ }gs; s{//[^\n]*}{}g;
                    print "$1\n" while /\bjvmti_impl_(\w+)\s*\([^;{()]*\)\s*\{/g' "$1"
}
# compiles FILE OUTDIR: gcc and clang (FILL_CCS), C99 and C11, -Wall -Wextra -Werror.
compiles() {
    local f=$1 inc=$2 cc std
    for cc in "${FILL_CCS[@]}"; do
        for std in c99 c11; do
            "$cc" -std=$std -Wall -Wextra -Werror -c -o /dev/null -I "$inc" -I "$JNI_INC" \
                -I "$JNI_INC/linux" "$f" || { echo "($cc -std=$std)"; return 1; }
        done
    done
}
mtime() { stat -c %y "$1"; }
# lines_only_added OLD NEW: NEW is OLD with lines inserted, nothing removed or changed.
lines_only_added() {
    diff "$1" "$2" >/dev/null && { echo "no line was added"; return 1; }
    ! diff "$1" "$2" | grep '^<'
}
# gen_said STATUS PATTERN: the last run_gen exited STATUS and said PATTERN (grep -x).
gen_said() {
    [ "$GEN_STATUS" -eq "$1" ] && grep -qx -- "$2" <<<"$GEN_ERR" ||
        { echo "status $GEN_STATUS, stderr:"; printf '%s\n' "$GEN_ERR"; return 1; }
}
# has_line FILE TEXT: FILE has exactly this line.
has_line() { grep -qxF -- "$2" <<<"$1" || { echo "missing line: $2"; printf '%s\n' "$1"; return 1; }; }

d=$(scratch fill)
"$JVMTIGEN" -q -o "$d/out-base" "$BASE" || not_ok "fill: generating out/ from $BASE"
spec_ids "$BASE" >"$d/ids-base"
check "fill: xmllint finds the functions of $BASE ($(wc -l <"$d/ids-base"))" \
    test "$(wc -l <"$d/ids-base")" -gt 100

# ---- the skeleton ----
f=$d/impl.c
run_gen fill "$BASE" "$f"
check "fill: creates the skeleton (exit 0, summary)" \
    gen_said 0 "jvmtigen: $f: new file, $(wc -l <"$d/ids-base") stubs"
check "fill: the skeleton says where it came from and that it is the user's" \
    bash -c "head -12 '$f' | grep -q 'Started by .jvmtigen fill. from jvmti.xml (JVM TI $BASE_VERSION)' &&
             head -12 '$f' | grep -q 'This file is yours' && grep -qx '#include \"jvmtigen_impl.h\"' '$f'"
check "fill: the skeleton defines each function once, in spec order" \
    diff "$d/ids-base" <(defined_ids "$f")
check "fill: one marked stub per function" \
    diff "$d/ids-base" <(sed -n 's|^/\* jvmtigen stub: \([A-Za-z0-9_]*\) (since [0-9.]*) \*/$|\1|p' "$f")
check "fill: a stub ignores its parameters and returns JVMTI_ERROR_NOT_AVAILABLE" \
    bash -c "sed -n '/^jvmti_impl_GetThreadState(/,/^}/p' '$f' | diff - <(printf '%s\n' \
      'jvmti_impl_GetThreadState(jvmtiEnv *env, jthread thread, jint* thread_state_ptr)' '{' \
      '    (void)env;' '    (void)thread;' '    (void)thread_state_ptr;' \
      '    return JVMTI_ERROR_NOT_AVAILABLE;' '}')"
check "fill: the skeleton compiles warning-free (gcc, clang; C99, C11)" compiles "$f" "$d/out-base"
cp -p "$f" "$d/skeleton.c"
before=$(mtime "$f")
sleep 1.1
run_gen fill "$BASE" "$f"
check "fill: a second run on the skeleton changes nothing" cmp "$f" "$d/skeleton.c"
check "fill: ... and keeps its timestamp" test "$before" = "$(mtime "$f")"
check "fill: ... and says so" grep -qx "jvmtigen: $f: 0 stubs added, 0 signatures flagged, 0 unknown functions" <<<"$GEN_ERR"
run_gen fill -q "$BASE" "$f"
check "fill: -q prints nothing" test -z "$GEN_ERR"

# ---- hand edits (the BASE skeleton is JDK 17's here) ----
if [ -n "$REFS" ]; then
for v in jdk17 jdk25 mainline; do
    "$JVMTIGEN" -q -o "$d/out-$v" "$SHARED_SPECS/$v/jvmti.xml" || not_ok "fill: generating out/ from $v"
    spec_ids "$SHARED_SPECS/$v/jvmti.xml" >"$d/ids-$v"
done
check "fill: xmllint finds the functions of each spec (jdk17 $(wc -l <"$d/ids-jdk17"))" \
    test "$(wc -l <"$d/ids-jdk17")" -gt 100 -a "$(wc -l <"$d/ids-jdk25")" -gt 100 \
         -a "$(wc -l <"$d/ids-mainline")" -gt 100
comm -13 <(sort "$d/ids-jdk17") <(sort "$d/ids-jdk25") >"$d/new-in-25"
comm -13 <(sort "$d/ids-jdk25") <(sort "$d/ids-mainline") >"$d/new-in-mainline"
check "fill: jdk25 has functions jdk17 lacks ($(tr '\n' ' ' <"$d/new-in-25"))" test -s "$d/new-in-25"

cat >"$d/body.txt" <<'EOF'
{
    /* hand-written: the thread's state { even with braces in a comment */
    const char *why = "a string with } and /* in it";
    char brace = '}';
    (void)env;
    (void)thread;
    MYVM_CHECK(helper(why) == JVMTI_ERROR_NONE && brace == '}');
    helper_count++; // counted '{'
    *thread_state_ptr = JVMTI_THREAD_STATE_ALIVE;
    return JVMTI_ERROR_NONE;
}
EOF
cat >"$d/between.txt" <<'EOF'
#include <string.h>
#define MYVM_CHECK(cond) do { \
        if (!(cond)) /* { */ \
            return JVMTI_ERROR_INTERNAL; \
    } while (0)

static int helper_count;

static jvmtiError
helper(const char *s) { return strlen(s) > 0 ? JVMTI_ERROR_NONE : JVMTI_ERROR_INTERNAL; }

/* a prototype is not a definition */
jvmtiError jvmti_impl_ClearAllFramePops(jvmtiEnv *env, jthread thread);

EOF
cat >"$d/fake.txt" <<'EOF'

jvmtiError jvmti_impl_NoSuchFunction(jvmtiEnv *env)
{
    (void)env;
    return JVMTI_ERROR_NONE;
}
EOF
cat >"$d/framecount.txt" <<'EOF'
jvmti_impl_GetFrameCount (   /* reformatted by hand */
    jvmtiEnv   *env,         /* the environment */
    jthread     thread,      // the thread
    jint       *count_ptr    /* out: the count */
)
{
EOF
h=$d/hand.c
cp "$d/skeleton.c" "$h"
BODY="$d/body.txt" BETWEEN="$d/between.txt" FAKE="$d/fake.txt" FC="$d/framecount.txt" perl -0pi -e '
    sub slurp { local $/; open my $fh, "<", $_[0] or die; <$fh> }
    my ($body, $between, $fake, $fc) = map { slurp($ENV{$_}) } qw(BODY BETWEEN FAKE FC);
    s/(\njvmti_impl_GetThreadState\([^)]*\)\n)\{\n.*?\n\}\n/$1$body/s or die "body";
    s/(\njvmti_impl_Deallocate\(.*?\n\}\n\n)/$1$between/s or die "between";
    s/\njvmti_impl_GetFrameCount\([^)]*\)\n\{\n/\n$fc/ or die "framecount";
    s/(\njvmti_impl_GetFrameCount .*?\n\}\n)/$1$fake/s or die "fake";
    s/jvmtiError\njvmti_impl_GetCurrentThread\(jvmtiEnv \*env, jthread\* thread_ptr\)\n\{/jvmtiError jvmti_impl_GetCurrentThread(jvmtiEnv*env,jthread    *thread_ptr) {/ or die "knr";
    s/(jvmti_impl_GetFrameLocation\(jvmtiEnv \*env, jthread thread, )jint depth/${1}jlong depth/ or die "type";
' "$h"
sed 's/jlong depth/jint depth/' "$h" >"$d/hand-fixed.c"
check "fill: the hand-edited jdk17 file compiles (but for the deliberate type change)" \
    compiles "$d/hand-fixed.c" "$d/out-jdk17"
fake_line=$(grep -n '^jvmtiError jvmti_impl_NoSuchFunction(' "$h" | cut -d: -f1)
loc_line=$(grep -n '^jvmti_impl_GetFrameLocation(' "$h" | cut -d: -f1)
sed -n '/^jvmti_impl_GetThreadState(/,/^}$/p' "$h" >"$d/hand-body.txt"
cp -p "$h" "$d/hand-before25.c"

run_gen fill "$S25" "$h"
check "fill: jdk25 over the edited file succeeds with warnings (exit $GEN_STATUS)" test "$GEN_STATUS" -eq 0
check "fill: the unknown function is reported at its line" has_line "$GEN_ERR" \
    "$h:$fake_line: warning: jvmti_impl_NoSuchFunction: NoSuchFunction is not a function of jvmti.xml; left in place"
check "fill: the changed signature is reported at its line" has_line "$GEN_ERR" \
    "$h:$loc_line: warning: jvmti_impl_GetFrameLocation: signature differs from the spec's; a comment above it says how"
check "fill: nothing else is reported, and the summary counts it all" \
    diff <(printf '%s\n' "$GEN_ERR" | grep -v ': warning: ') \
         <(echo "jvmtigen: $h: $(wc -l <"$d/new-in-25") stubs added, 1 signature flagged, 1 unknown function")
check "fill: every line of the edited file is kept; lines are only added" lines_only_added "$d/hand-before25.c" "$h"
check "fill: the hand-written body is kept byte for byte" \
    diff "$d/hand-body.txt" <(sed -n '/^jvmti_impl_GetThreadState(/,/^}$/p' "$h")
check "fill: the hand-written body is the one written (not the stub's)" grep -q 'hand-written: the thread' "$d/hand-body.txt"
check "fill: the reformatted signature, the helper, macro and prototype are kept" \
    bash -c "grep -qF -f '$d/framecount.txt' '$h' && grep -qF -f '$d/between.txt' '$h' && grep -qF -f '$d/fake.txt' '$h'"
check "fill: a stub for exactly the functions new in jdk25 (by xmllint)" \
    diff <(sort "$d/new-in-25") <(diff "$d/hand-before25.c" "$h" | sed -n 's|^> /\* jvmtigen stub: \([A-Za-z0-9_]*\) .*|\1|p' | sort)
check "fill: each new stub sits after its predecessor in spec order (the file is in jdk25 order)" \
    diff <(grep -vx NoSuchFunction <(defined_ids "$h")) "$d/ids-jdk25"
check "fill: the unknown function is still defined" grep -qx NoSuchFunction <(defined_ids "$h")
note25=$(grep -B3 '^jvmti_impl_GetFrameLocation(' "$h" | head -2)
want_sig=$(grep '^jvmtiError jvmti_impl_GetFrameLocation(' "$d/out-jdk25/jvmtigen_impl.h" | sed 's/;$//')
check "fill: a comment right above the changed definition gives the spec's signature" \
    test "$note25" = "/* jvmtigen: the signature of GetFrameLocation changed in jvmti.xml (JVM TI 25.0.0); it is now:
   $want_sig */"
check "fill: the signature comment is the only comment added" \
    test "$(diff "$d/hand-before25.c" "$h" | grep -c '^> /\* jvmtigen: the signature')" -eq 1
check "fill: the file still fails to compile for the deliberate type change only" \
    bash -c "! gcc -std=c11 -c -o /dev/null -I '$d/out-jdk25' -I '$JNI_INC' -I '$JNI_INC/linux' '$h' 2>'$d/cc.err' &&
             grep -q 'conflicting types for .jvmti_impl_GetFrameLocation' '$d/cc.err' &&
             [ \$(grep -c 'error:' '$d/cc.err') -eq 1 ]"
cp -p "$h" "$d/hand-after25.c"
before=$(mtime "$h")
sleep 1.1
run_gen fill "$S25" "$h"
check "fill: a second jdk25 run changes nothing (the comment is not added twice)" cmp "$h" "$d/hand-after25.c"
check "fill: ... keeps the timestamp" test "$before" = "$(mtime "$h")"
check "fill: ... and still warns about the signature" grep -q "^$h:[0-9]*: warning: jvmti_impl_GetFrameLocation: signature differs" <<<"$GEN_ERR"

# mainline: no new functions, JVM TI 28; our comment is brought up to date.
run_gen fill "$SML" "$h"
mainline_version=$(sed -n 's/.*generated by jvmtigen from jvmti.xml (JVM TI \([0-9.]*\)).*/\1/p' "$d/out-mainline/jvmtigen_impl.h")
check "fill: mainline adds a stub for exactly its new functions ($(wc -l <"$d/new-in-mainline"))" \
    grep -qx "jvmtigen: $h: $(wc -l <"$d/new-in-mainline") stubs added, 1 signature flagged, 1 unknown function" <<<"$GEN_ERR"
check "fill: mainline: the file is in mainline's order" \
    diff <(grep -vx NoSuchFunction <(defined_ids "$h")) "$d/ids-mainline"
check "fill: mainline: our signature comment is replaced, not repeated ($mainline_version)" \
    bash -c "[ \$(grep -c 'jvmtigen: the signature of' '$h') -eq 1 ] &&
             grep -qF 'GetFrameLocation changed in jvmti.xml (JVM TI $mainline_version)' '$h' &&
             [ '$mainline_version' != 25.0.0 ]"
check "fill: mainline: only that comment line changed" \
    bash -c "diff '$d/hand-after25.c' '$h' | grep '^[<>]' | diff - <(printf '%s\n' \
        '< /* jvmtigen: the signature of GetFrameLocation changed in jvmti.xml (JVM TI 25.0.0); it is now:' \
        '> /* jvmtigen: the signature of GetFrameLocation changed in jvmti.xml (JVM TI $mainline_version); it is now:')"
cp -p "$h" "$d/hand-mainline.c"
before=$(mtime "$h")
sleep 1.1
run_gen fill "$SML" "$h"
check "fill: a second mainline run changes nothing" \
    bash -c "cmp '$h' '$d/hand-mainline.c' && [ '$before' = \"\$(stat -c %y '$h')\" ]"

# The type fixed by hand: fill takes its comment away; the file compiles.
sed -i 's/jlong depth/jint depth/' "$h"
cp -p "$h" "$d/hand-fixed-before.c"
run_gen fill "$SML" "$h"
check "fill: a fixed signature loses its comment (2 lines) and nothing else" \
    bash -c "[ \"\$(diff '$d/hand-fixed-before.c' '$h' | grep -c '^<')\" -eq 2 ] &&
             ! diff '$d/hand-fixed-before.c' '$h' | grep '^>' && ! grep -q 'jvmtigen: the signature' '$h'"
check "fill: ... and says so" grep -qx \
    "jvmtigen: $h: 0 stubs added, 0 signatures flagged, 1 unknown function, 1 outdated comment removed" <<<"$GEN_ERR"
check "fill: the merged file compiles against mainline's jvmtigen_impl.h (gcc, clang; C99, C11)" \
    compiles "$h" "$d/out-mainline"
check "fill: the merged file equals the hand-edited one plus the new stubs" \
    bash -c "diff '$d/hand-before25.c' '$h' | grep '^<' | diff - <(echo '< jvmti_impl_GetFrameLocation(jvmtiEnv *env, jthread thread, jlong depth, jmethodID* method_ptr, jlocation* location_ptr)')"
cp -p "$h" "$d/hand-final.c"
run_gen fill "$SML" "$h"
check "fill: and once more: nothing changes" cmp "$h" "$d/hand-final.c"
fi

# ---- placement in files fill did not start ----
# Only a middle function defined: earlier ones go before it (and its marker),
# later ones after it.
p=$d/partial.c
{
    printf '#include "jvmtigen_impl.h"\n\nstatic int unrelated;\n\n'
    sed -n '/^\/\* jvmtigen stub: GetThreadState /,/^}$/p' "$d/skeleton.c"
    printf 'int use_it(void) { return unrelated; }\n'
} >"$p"
cp "$p" "$d/partial-before.c"
run_gen fill "$BASE" "$p"
check "fill: stubs around a lone definition keep spec order" diff "$d/ids-base" <(defined_ids "$p")
check "fill: earlier stubs go before the lone definition's marker comment" \
    bash -c "grep -B1 -A1 '^/\* jvmtigen stub: GetThreadState ' '$p' | head -1 | grep -qx '' &&
             grep -A1 '^/\* jvmtigen stub: GetThreadState ' '$p' | tail -1 | grep -qx jvmtiError &&
             [ \$(grep -n 'jvmti_impl_Deallocate(' '$p' | cut -d: -f1) -lt \$(grep -n 'jvmti_impl_GetThreadState(' '$p' | cut -d: -f1) ]"
check "fill: ... and the file's own lines are all kept" lines_only_added "$d/partial-before.c" "$p"
check "fill: ... and it compiles" compiles "$p" "$d/out-base"

# No definition at all, no newline at the end: stubs go at the end.
e=$d/empty-ish.c
printf '#include "jvmtigen_impl.h"\n/* mine */\nstatic const int answer = 42;\nint get_answer(void) { return answer; }' >"$e"
cp "$e" "$d/empty-ish-before.c"
run_gen fill "$BASE" "$e"
check "fill: a file without definitions gets every stub" diff "$d/ids-base" <(defined_ids "$e")
check "fill: ... at its end" \
    bash -c "head -c \$(stat -c %s '$d/empty-ish-before.c') '$e' | cmp - '$d/empty-ish-before.c'"
check "fill: ... and it compiles" compiles "$e" "$d/out-base"

# Definitions sharing their lines with other code and comments; one flagged
# (jobject for jthread: the same C type, a different spelling).
w=$d/crowded.c
cat >"$w" <<'EOF'
#include "jvmtigen_impl.h"
static int x; jvmtiError jvmti_impl_GetThreadState(jvmtiEnv *env, jobject thread, jint* p) { (void)env; (void)thread; (void)p; return x; } static int y;
/* a comment
   over lines */ jvmtiError jvmti_impl_GetAllThreads(jvmtiEnv *env, jint* a, jthread** b) { (void)env; (void)a; (void)b; return y; } /* and
   another */
EOF
run_gen fill "$BASE" "$w"
check "fill: crowded lines: one flag, at its line" \
    gen_said 0 "$w:2: warning: jvmti_impl_GetThreadState: signature differs from the spec's; a comment above it says how"
check "fill: crowded lines: every stub, in spec order" diff "$d/ids-base" <(defined_ids "$w")
check "fill: crowded lines: the flag sits right above its definition" \
    bash -c "grep -B1 '^jvmtiError jvmti_impl_GetThreadState(' '$w' | head -1 | grep -q 'jvmti_impl_GetThreadState(jvmtiEnv \*env, jthread thread, jint\* thread_state_ptr) \*/\$'"
check "fill: crowded lines: it compiles" compiles "$w" "$d/out-base"
cp "$w" "$d/crowded-1.c"
run_gen fill "$BASE" "$w"
check "fill: crowded lines: a second run changes nothing" cmp "$w" "$d/crowded-1.c"

# CRLF line ends stay CRLF.
c=$d/crlf.c
perl -0pe 's{\n/\* jvmtigen stub: GetAllThreads .*?\n\}\n}{}s; s/\n/\r\n/g' "$d/skeleton.c" >"$c"
run_gen fill "$BASE" "$c"
check "fill: a CRLF file gets its missing stub with CRLF line ends" \
    bash -c "grep -q 'jvmti_impl_GetAllThreads(' '$c' && ! grep -qv \$'\r\$' '$c' &&
             cmp '$c' <(sed 's/\$/\r/' '$d/skeleton.c')"

# The line end is the one most lines have, not the first line's: a file
# "\r\r" becomes "\r\r\n\n..." after one run, and a second run must not read
# that first "\r\n" as the file's style and rewrite the table (make fuzz).
c=$d/lone-cr.c
printf '\r\r' >"$c"
run_gen fill -q --core "$BASE" "$c"
cp "$c" "$d/lone-cr-1.c"
run_gen fill -q --core "$BASE" "$c"
check "fill: a file of two carriage returns: a second run changes nothing" cmp "$c" "$d/lone-cr-1.c"
check "fill: a mostly-LF file with one CRLF line keeps LF ends" \
    bash -c "[ \$(grep -c \$'\r\$' '$c') -eq 1 ]"

# The file is the user's: a symbolic link stays one, permissions stay.
l=$d/linked
mkdir "$l"
perl -0pe 's{\n/\* jvmtigen stub: GetAllThreads .*?\n\}\n}{}s' "$d/skeleton.c" >"$l/real.c"
chmod 640 "$l/real.c"
ln -s real.c "$l/impl.c"
run_gen fill -q "$BASE" "$l/impl.c"
check "fill: writes through a symbolic link" \
    bash -c "[ -L '$l/impl.c' ] && cmp '$l/real.c' '$d/skeleton.c'"
check "fill: keeps the file's permissions" test "$(stat -c %a "$l/real.c")" = 640

# ---- refusals: exit 1, the exact error at the exact line, the file untouched ----
refused() { # DESC FILE EXPECTED_ERROR_LINE
    local desc=$1 file=$2 want=$3 t
    cp -p "$file" "$file.orig"
    t=$(mtime "$file")
    run_gen fill "$BASE" "$file"
    if [ "$GEN_STATUS" -eq 1 ] && [ "$GEN_ERR" = "$want" ] && cmp -s "$file" "$file.orig" &&
       [ "$t" = "$(mtime "$file")" ]; then
        ok "fill: $desc"
    else
        not_ok "fill: $desc (status $GEN_STATUS; stderr below; wanted: $want)"
        printf '%s\n' "$GEN_ERR"
    fi
}
x=$d/dup.c
cp "$d/skeleton.c" "$x"
first=$(grep -n '^jvmti_impl_GetThreadState(' "$x" | cut -d: -f1)
printf '\n/* again */\njvmtiError jvmti_impl_GetThreadState(jvmtiEnv *env, jthread t, jint *p)\n{\n    return JVMTI_ERROR_NONE;\n}\n' >>"$x"
second=$(grep -n '^jvmtiError jvmti_impl_GetThreadState(' "$x" | cut -d: -f1)
refused "a duplicate definition is an error at the second one" "$x" \
    "$x:$second: error: jvmti_impl_GetThreadState is defined twice; the first definition is at line $first"

x=$d/unclosed.c
cp "$d/skeleton.c" "$x"
open=$(( $(grep -n '^jvmti_impl_GetFrameCount(' "$x" | cut -d: -f1) + 1 ))
perl -0pi -e 's/(\njvmti_impl_GetFrameCount\(.*?\n)\}\n/$1/s or die' "$x"
refused "a body missing its '}' is an error at its '{'" "$x" "$x:$open: error: '{' without a matching '}'"

x=$d/extra.c
cp "$d/skeleton.c" "$x"
perl -0pi -e 's/(\njvmti_impl_GetFrameCount\(.*?\n\}\n)/$1}\n/s or die' "$x"
extra=$(( $(grep -n '^jvmti_impl_GetFrameCount(' "$x" | cut -d: -f1) + 7 ))
check "fill: (the extra '}' is where the test thinks: line $extra)" \
    bash -c "sed -n '$((extra - 1)),${extra}p' '$x' | tr -d '\n' | grep -qx '}}'"
refused "a '}' without its '{' is an error at the '}'" "$x" "$x:$extra: error: '}' without a matching '{'"

x=$d/comment.c
cp "$d/skeleton.c" "$x"
printf '/* this comment\n   is never closed\n' >>"$x"
opened=$(( $(wc -l <"$d/skeleton.c") + 1 ))
refused "an unterminated comment is an error at its start" "$x" "$x:$opened: error: unterminated comment"

x=$d/string.c
printf '#include "jvmtigen_impl.h"\nstatic const char *s = "no end;\n' >"$x"
refused "an unterminated string is an error at its line" "$x" "$x:2: error: unterminated string literal"

# ---- the command line ----
run_gen fill "$BASE"
check "fill: without FILE it is a usage error (2)" gen_said 2 "jvmtigen: error: fill needs a FILE after the SPEC"
run_gen fill -o "$d/o" "$BASE" "$d/never.c"
check "fill: -o is a usage error (2)" gen_said 2 "jvmtigen: error: fill takes no -o, --banner, --depfile or -MD"
check "fill: ... and writes nothing" test ! -e "$d/never.c"
run_gen fill "$BASE" "$d/no/such/dir/impl.c"
check "fill: a FILE that cannot be written is an I/O error (3)" \
    gen_said 3 "$d/no/such/dir/impl.c: error: cannot create a temporary file: No such file or directory"
run_gen fill "$BASE" "$d"
check "fill: a FILE that cannot be read is an I/O error (3)" gen_said 3 "$d: error: cannot read: Is a directory"
run_gen fill tests/security/fixtures/xxe-file.xml "$d/never.c"
check "fill: an invalid spec exits 1" gen_said 1 ".*xxe-file.xml:[0-9]*: error: .*"
check "fill: ... and writes nothing" test ! -e "$d/never.c"
run_gen fill --jvmti-version 21 "$BASE" "$d/v21.c"
check "fill: --jvmti-version names the version in the skeleton" \
    grep -q 'from jvmti.xml (JVM TI 21.0.0)' "$d/v21.c"
check "fill: --help mentions fill" bash -c "'$JVMTIGEN' --help | grep -q '^  fill '"

# ---- --core: a VM's file when it links jvmtigen's runtime core ----
x=$d/core.c
run_gen fill --core "$BASE" "$x"
check "fill --core: starts the file" test -s "$x"
check "fill --core: no stub for what the core implements (GetPhase, RawMonitorEnter, Allocate, SetEventCallbacks)" \
    bash -c "! grep -Eq 'jvmti_impl_(GetPhase|RawMonitorEnter|Allocate|SetEventCallbacks)\(' '$x'"
check "fill --core: a stub for what the VM must do (StopThread, GetClassLoader)" \
    bash -c "grep -q 'jvmti_impl_StopThread(' '$x' && grep -q 'jvmti_impl_GetClassLoader(' '$x'"
check "fill --core: no stub for the metadata the core answers (GetClassMethods, GetMethodName, GetImplementedInterfaces)" \
    bash -c "! grep -Eq 'jvmti_impl_(GetClassMethods|GetMethodName|GetImplementedInterfaces)\(' '$x'"
check "fill --core: says why the core's functions are missing" grep -q "runtime core implements" "$x"
# The core's functions (gen/c/core.c) that BASE has get no stub.
want=0
for fn in $(sed -n '/core_functions\[\] = {/,/};/p' gen/c/core.c | grep -o '"[A-Za-z]*"' | tr -d '"'); do
    grep -q "<function id=\"$fn\"" "$BASE" && want=$((want + 1))
done
all=$(grep -c '^/\* jvmtigen stub: ' "$d/skeleton.c")
core=$(grep -c '^/\* jvmtigen stub: ' "$x")
check "fill --core: $want stubs fewer than without, the core's functions in the spec ($all vs $core)" \
    test $((all - core)) = "$want"
printf '\njvmtiError jvmti_impl_GetPhase(jvmtiEnv *env, jvmtiPhase *phase_ptr)\n{\n    return 0;\n}\n' >>"$x"
run_gen fill --core "$BASE" "$x"
check "fill --core: warns about a definition the core already has" \
    bash -c "grep -q 'warning: jvmti_impl_GetPhase: the runtime core implements GetPhase' <<<\"\$1\"" _ "$GEN_ERR"
run_gen fill --core -o x "$BASE" "$d/never2.c"
check "fill --core: still refuses generate's options" gen_said 2 "jvmtigen: error: fill takes no -o, --banner, --depfile or -MD"

# ---- --core: the table of registered implementations (jvmtirt_impls) ----
x=$d/table.c
run_gen fill --core "$BASE" "$x"
check "fill --core: the new file ends with the table of registered implementations" \
    bash -c "tail -1 '$x' | grep -qxF '/* jvmtigen: end of registered implementations */'"
check "fill --core: ... which registers no stub" \
    bash -c "! grep -q '^    \.[A-Za-z]* = jvmti_impl_' '$x'"
check "fill --core: the file with its table compiles (gcc, clang; C99, C11)" compiles "$x" "$d/out-base"
# Give two stubs real bodies (StopThread, InterruptThread;
# one only re-indented stays a stub), then run again.
perl -0pi -e 's/(jvmti_impl_StopThread\([^)]*\)\n\{\n)(.*?)\n\}/$1    (void)env;\n    (void)thread;\n    (void)exception;\n    return JVMTI_ERROR_NONE;\n}/s;
              s/(jvmti_impl_InterruptThread\([^)]*\)\n\{\n)(.*?)\n\}/$1    (void)env;\n    (void)thread;\n    return JVMTI_ERROR_NONE;\n}/s;
              s/(jvmti_impl_GetClassLoader\([^)]*\)\n\{\n)    \(void\)env;/$1  (void) env ;/s' "$x"
cp "$x" "$d/table-before.c"
run_gen fill --core "$BASE" "$x"
check "fill --core: the table now registers the two real definitions, in spec order" \
    diff <(printf '    .StopThread = jvmti_impl_StopThread,\n    .InterruptThread = jvmti_impl_InterruptThread,\n') \
         <(grep '^    \.[A-Za-z]* = jvmti_impl_' "$x")
check "fill --core: ... and nothing else of the file changed" \
    diff <(grep -v '^    \.[A-Za-z]* = jvmti_impl_' "$d/table-before.c") <(grep -v '^    \.[A-Za-z]* = jvmti_impl_' "$x")
cp "$x" "$d/table-again.c"
run_gen fill --core "$BASE" "$x"
check "fill --core: a second run leaves the table as it is" cmp "$x" "$d/table-again.c"
check "fill --core: the updated file compiles (gcc, clang; C99, C11)" compiles "$x" "$d/out-base"
grep -v 'jvmtigen: end of registered implementations' "$d/table-again.c" >"$x"
run_gen fill --core "$BASE" "$x"
check "fill --core: a table without its end is refused" \
    gen_said 1 ".*table.c:[0-9]*: error: the table of registered implementations has no end .*"
check "fill --core: ... and the file is left as it was" \
    diff <(grep -v 'jvmtigen: end of registered implementations' "$d/table-again.c") "$x"
run_gen fill "$BASE" "$d/plain.c"
check "fill (without --core): no table" bash -c "! grep -q 'jvmtirt_impls' '$d/plain.c'"

# ---- --core: the table is found by the C scanner, and fill never drops a
# line of the user's (issue 31) ----
# The begin marker quoted before the table, in a // comment, in a string and
# in a comment of the user's own: the table is still the one at the end, and
# every other line of the file stays.
for how in line-comment string block-comment; do
    x=$d/quoted-$how.c
    cp "$d/table-again.c" "$x"
    case $how in
    line-comment) q='// fill --core keeps /* jvmtigen: registered implementations at the end' ;;
    string) q='static const char *const where_the_table_is = "/* jvmtigen: registered implementations";' ;;
    block-comment) q='/* jvmtigen: registered implementations are at the end of this file */' ;;
    esac
    Q=$q perl -pi -e 'print "$ENV{Q}\n" if /^#include "jvmtigen_impl.h"/' "$x"
    cp "$x" "$d/quoted-$how-before.c"
    run_gen fill --core "$BASE" "$x"
    check "fill --core: the begin marker quoted earlier ($how): exit 0, the file unchanged" \
        bash -c '[ "$1" = 0 ] && cmp "$2" "$3"' _ "$GEN_STATUS" "$d/quoted-$how-before.c" "$x"
done
# The same with a new real definition: the table at the end is rewritten,
# nothing before it moves.
x=$d/quoted-string.c
perl -0pi -e 's/(jvmti_impl_GetClassLoader\([^)]*\)\n\{\n)(.*?)\n\}/$1    (void)env;\n    (void)klass;\n    *classloader_ptr = NULL;\n    return JVMTI_ERROR_NONE;\n}/s' "$x"
cp "$x" "$d/quoted-string-before.c"
run_gen fill --core "$BASE" "$x"
check "fill --core: the begin marker quoted in a string: the table at the end registers the new definition" \
    grep -qx '    \.GetClassLoader = jvmti_impl_GetClassLoader,' "$x"
check "fill --core: ... and every other line stays" \
    diff <(grep -v '^    \.[A-Za-z]* = jvmti_impl_' "$d/quoted-string-before.c") <(grep -v '^    \.[A-Za-z]* = jvmti_impl_' "$x")
# Anything of the user's between the markers: rewriting the table would drop
# it, so fill refuses and leaves the file as it was.
for how in definition comment directive entry; do
    x=$d/inside-$how.c
    cp "$d/table-again.c" "$x"
    case $how in
    definition) perl -pi -e 'print "static int mine(void) { return 1; }\n" if m{^/\* jvmtigen: end of registered}' "$x" ;;
    comment) perl -pi -e 'print "/* keep me */\n" if m{^/\* jvmtigen: end of registered}' "$x" ;;
    directive) perl -pi -e 'print "#define KEEP_ME 1\n" if m{^/\* jvmtigen: end of registered}' "$x" ;;
    entry) perl -pi -e 'print "    .GetPhase = my_get_phase,\n" if /^    \.size = /' "$x" ;;
    esac
    cp "$x" "$d/inside-$how-before.c"
    run_gen fill --core "$BASE" "$x"
    check "fill --core: something of the user's inside the table ($how) is refused, exit 1" \
        gen_said 1 ".*inside-$how.c:[0-9]*: error: the table of registered implementations .* holds .*"
    check "fill --core: ... and the file is left as it was ($how)" cmp "$d/inside-$how-before.c" "$x"
done
# An end marker with no begin marker before it.
x=$d/end-only.c
perl -0pe 's{/\* jvmtigen: registered implementations.*?\*/\n}{}s' "$d/table-again.c" >"$x"
cp "$x" "$d/end-only-before.c"
run_gen fill --core "$BASE" "$x"
check "fill --core: an end of the table without its beginning is refused" \
    gen_said 1 ".*end-only.c:[0-9]*: error: the end of the table of registered implementations has no beginning .*"
check "fill --core: ... and the file is left as it was" cmp "$d/end-only-before.c" "$x"

# ---- a file with other hard links is written through: every link sees the
# new text (issue 31: the other link kept the old content) ----
x=$d/linked.c
run_gen fill "$BASE" "$x"
ln "$x" "$d/linked-other.c"
chmod 640 "$x"
# Take one stub away (in place: perl -i would make a new file), so the next
# run adds it back.
perl -0pe 's{/\* jvmtigen stub: GetClassMethods.*?\n\}\n}{}s' "$x" >"$d/linked.tmp" && cat "$d/linked.tmp" >"$x"
ino=$(stat -c %i "$x")
run_gen fill "$BASE" "$x"
check "fill: a hard-linked file: the stub is added (exit 0)" \
    bash -c '[ "$1" = 0 ] && grep -q "jvmti_impl_GetClassMethods" "$2"' _ "$GEN_STATUS" "$x"
check "fill: ... the other link has the new text, the same file (inode, link count, mode)" \
    bash -c 'cmp "$1" "$2" && [ "$(stat -c %i:%h:%a "$1")" = "$3:2:640" ]' _ "$x" "$d/linked-other.c" "$ino"

# ---- a file that ends inside a declaration: what fill appends would join
# it, and the next run would flag the stub it had just added (found by
# tests/fuzz/fill_fuzz.c, issue 31) ----
x=$d/open-end.c
printf '#include "jvmtigen_impl.h"\n\nDECLARE_SOMETHING(x)\n' >"$x"
cp "$x" "$d/open-end-before.c"
run_gen fill "$BASE" "$x"
check "fill: a file ending inside a declaration is refused" \
    gen_said 1 ".*open-end.c:3: error: the file ends inside a declaration .*"
check "fill: ... and the file is left as it was" cmp "$d/open-end-before.c" "$x"
