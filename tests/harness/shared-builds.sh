# Sourced by tests/harness/test.sh. lib.sh's shared_build prunes
# build/shared-builds/ at each call: builds beyond the SHARED_BUILDS_KEEP
# last used, or unused for SHARED_BUILDS_DAYS, go, unless a suite is using
# one (a second suite holds it, as jdks and jdb do at once); the caller's
# own build stays. In a folder of its own whose Makefile's `runtime` only
# writes a file, so no real build is made.
sb=$d/shared-builds
mkdir -p "$sb"
printf 'runtime:\n\t@mkdir -p $(BINDIR) && echo $(SPEC) >$(BINDIR)/made\n' >"$sb/Makefile"
for i in 0 1 2 3 4 5 6; do echo "spec $i" >"$sb/spec$i.xml"; done
# sb_call NAME N [VAR=VALUE...]: shared_build NAME from spec N in $sb, in a
# shell of its own (which lets go of the build when it ends).
sb_call() {
    local name=$1 n=$2
    shift 2
    env "$@" bash -c '. tests/lib.sh; cd "$1" && shared_build "$2" "$1/spec$3.xml" "" runtime' _ "$sb" "$name" "$n"
}
# the builds there, by NAME (the folders), and every file of theirs
sb_left() { (cd "$sb/build/shared-builds" && ls -d */ | sed 's/-[0-9a-f]*\/$//' | sort | tr '\n' ' '); }
sb_files() { (cd "$sb/build/shared-builds" && ls | sed 's/-[0-9a-f]*\././; s/-[0-9a-f]*$//' | sort | tr '\n' ' '); }
sb_age() { # NAME DAYS: last used DAYS days ago
    local b
    for b in "$sb/build/shared-builds/$1"-*/; do
        b=${b%/}
        if [ -e "$b.use" ]; then touch -d "$2 days ago" "$b.use"; else touch -d "$2 days ago" "$b"; fi
    done
}
for i in 1 2 3 4; do sb_call "b$i" "$i"; done
# b1 in use by a second "suite" (which holds it until told to go on),
# and the oldest of all
mkfifo "$sb/ready" "$sb/go"
(. tests/lib.sh; cd "$sb" && shared_build b1 "$sb/spec1.xml" "" runtime && echo ready
    exec >&-; read -r _ <"$sb/go") >"$sb/ready" &
holder=$!
read -r _ <"$sb/ready" # "ready", or nothing if it failed: the checks below say
sb_age b1 40
# b0: a build from before the .use files, known by its folder's time
mkdir -p "$sb/build/shared-builds/b0-0123456789abcdef/bin"
sb_age b0 50
sb_age b2 3
sb_age b3 2
sb_age b4 1
check "harness: shared builds: five made (b0 before .use files existed)" test "$(sb_left)" = "b0 b1 b2 b3 b4 "
sb_call b5 5 SHARED_BUILDS_KEEP=2 SHARED_BUILDS_DAYS=14
check "harness: shared builds: SHARED_BUILDS_KEEP=2 keeps the two last used (b5, b4) and the one in use (b1, the oldest); b0, b2 and b3 go, with their .lock, .log and .use (left: $(sb_files))" \
    test "$(sb_files)" = "b1 b1.lock b1.log b1.use b4 b4.lock b4.log b4.use b5 b5.lock b5.log b5.use "
check "harness: shared builds: the one in use still has its files" test -s "$(echo "$sb"/build/shared-builds/b1-*/bin/made)"
echo go >"$sb/go"
wait "$holder"
sb_age b1 40
sb_age b4 20
sb_call b5 5 SHARED_BUILDS_KEEP=8 SHARED_BUILDS_DAYS=14
check "harness: shared builds: once no suite uses it, b1 (40 days) goes, and so does b4, unused for 20 days > SHARED_BUILDS_DAYS=14 (left: $(sb_left))" \
    test "$(sb_left)" = "b5 "
# (a file of b6's that its make does not write: b6 was kept, not made again)
sb_call b6 6 && for b in "$sb"/build/shared-builds/b6-*/; do touch "${b}kept"; done
sb_call b6 6 SHARED_BUILDS_KEEP=0
check "harness: shared builds: SHARED_BUILDS_KEEP=0 keeps the caller's own build (left: $(sb_left))" \
    bash -c '[ "$1" = "b6 " ] && [ -e "$(echo "$2"/build/shared-builds/b6-*/kept)" ] &&
             [ "$(cat "$2"/build/shared-builds/b6-*/bin/made)" = "$2/spec6.xml" ]' _ "$(sb_left)" "$sb"
