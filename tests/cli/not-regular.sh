# Sourced by tests/cli/test.sh: what is not a regular file is refused, not
# read (a FIFO without a writer hung; /dev/zero grew to 8 GB before an XML
# error), with exit 3 and a message naming it, within a few seconds.
d=$(scratch cli-fifo)
mkfifo "$d/fifo"
within() { # DESC PATTERN ARGS...: exit 3 within 10 s, stderr matching PATTERN
    local desc=$1 pattern=$2 err status; shift 2
    err=$(timeout -k 2 10 "$JVMTIGEN" "$@" 2>&1 >/dev/null </dev/null)
    status=$?
    if [ "$status" -eq 3 ] && grep -q -- "$pattern" <<<"$err"; then ok "cli: $desc (exit 3)"
    else not_ok "cli: $desc: status $status$([ "$status" = 124 ] && echo ' (it hung)')"; printf '%s\n' "$err" | head -3; fi
}
within "a FIFO as the spec is refused" "^$d/fifo: error: cannot read: not a regular file" -o "$d/o1" "$d/fifo"
within "/dev/zero as the spec is refused unread" "^/dev/zero: error: cannot read: not a regular file" -o "$d/o2" /dev/zero
within "a FIFO as --banner is refused" "^$d/fifo: error: cannot read: not a regular file" --banner "$d/fifo" -o "$d/o3" "$VALID"
within "a FIFO as fill's FILE is refused" "^$d/fifo: error: cannot read: not a regular file" fill "$VALID" "$d/fifo"
"$JVMTIGEN" -q -o "$d/out" "$VALID"
mkfifo "$d/out/man/man3/Gone.3"
err=$(timeout -k 2 10 "$JVMTIGEN" -q -o "$d/out" "$VALID" 2>&1); status=$?
if [ "$status" -eq 0 ] && [ -p "$d/out/man/man3/Gone.3" ]; then ok "cli: a FIFO among the man pages is not read and not removed"
else not_ok "cli: a FIFO among the man pages: status $status$([ "$status" = 124 ] && echo ' (it hung)')"; printf '%s\n' "$err" | head -3; fi
page=$(ls "$d/out/man/man3" | grep -v '^jvmti.3$' | grep -v Gone.3 | head -1)
rm "$d/out/man/man3/$page" && mkfifo "$d/out/man/man3/$page"
within "a FIFO in place of an output man page is refused" "cannot replace (not a regular file)" -o "$d/out" "$VALID"
truncate -s 65M "$d/big.xml"
within "a spec above 64 MiB is refused before it is read" "^$d/big.xml: error: cannot read: larger than 64 MiB" -o "$d/o4" "$d/big.xml"
rm -f "$d/big.xml"
