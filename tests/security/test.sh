#!/usr/bin/env bash
# Hostile specs: external entities (files, file: URLs, network, parameter
# entities), a network DTD, and entity-expansion bombs must be refused with
# a clear error at the right line, quickly, writing nothing, leaking nothing.
# Below the fixtures: every way of naming another resource, aimed at a
# listener on 127.0.0.1 (it must see no connection) and at a canary file
# (its text must appear nowhere), and more bombs.
. tests/lib.sh
F=tests/security/fixtures

refused() { # NAME LINE PATTERN
    local name=$1 line=$2 pattern=$3 d err status
    d=$(scratch "sec-$name")
    err=$(timeout 30 "$JVMTIGEN" -o "$d/out" "$F/$name.xml" 2>&1 >/dev/null)
    status=$?
    if [ "$status" -ne 1 ]; then
        not_ok "security: $name: exit status $status, expected 1"; printf '%s\n' "$err"; return
    fi
    if ! grep -q "^$F/$name.xml:$line: error: .*$pattern" <<<"$err"; then
        not_ok "security: $name: expected an error at line $line matching '$pattern'"
        printf '%s\n' "$err"; return
    fi
    if [ -e "$d/out" ]; then
        not_ok "security: $name: wrote output"; return
    fi
    # Nothing of the local files may surface, not even in the messages.
    if grep -q -e 'root:' -e 'CANARY-9f2c41' <<<"$err"; then
        not_ok "security: $name: file content in the diagnostics"; return
    fi
    ok "security: $name refused at line $line"
}

refused xxe-file 6 "refusing to load external entity '/etc/passwd'"
refused xxe-file-url 6 "refusing to load external entity 'file:///etc/passwd'"
refused xxe-relative 6 "refusing to load external entity 'tests/security/fixtures/secret.txt'"
refused xxe-http 6 "refusing to load external entity 'http://127.0.0.1:9/secret'"
refused xxe-parameter 4 "refusing to load external entity '/etc/passwd'"
refused dtd-http 4 "refusing to load external entity 'http://127.0.0.1:9/jvmti.dtd'"
refused billion-laughs 7 "entity expansion refused: 'a4' would expand to 300000 bytes"
refused quadratic 4 "entity expansion refused: 'ENT' would expand to 180000000 bytes"

. tests/security/definitions.sh

d=$(scratch sec-ok)
check "security: internal entities still work and expand into the output" \
    bash -c "'$JVMTIGEN' -q -o '$d' $F/internal-ok.xml && grep -q 'can_do_it : 1' '$d/jvmti.h'"

# ---- nothing fetched, nothing leaked ----
# Every way a spec can name another resource, pointed at a listener on
# 127.0.0.1 (which must see no connection) and at a canary file (whose text
# must appear in no output and no message). Each run must also pass the
# common hostile-input checks (tests/lib.sh: hostile_run).
# (The listener is python3's; the bombs and templates below use this part's setup.)
need_tool "security: the listener, the canary, more bombs and templates" python3 || exit 0
hostile_setup || { not_ok "security: cannot generate the base outputs"; exit 0; }
d=$(scratch sec-net)
# listen DIR: a listener on 127.0.0.1 that writes each connection it
# accepts to DIR/connections; sets listener (its pid) and port (empty if
# it did not start).
listen() {
    python3 - "$1/port" "$1/connections" <<'PY' &
import socket, sys, os
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0))
s.listen(16)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
while True:
    c, a = s.accept()
    with open(sys.argv[2], "a") as f:
        f.write("connection from %s:%d\n" % a)
    c.close()
PY
    listener=$!
    for _ in $(seq 100); do [ -s "$1/port" ] && break; sleep 0.1; done
    port=$(cat "$1/port" 2>/dev/null)
}

# listener_verdict DIR PREFIX NOUN: the listener saw none of the runs (a
# NOUN each), and does see a connection of our own; then it is stopped.
listener_verdict() {
    sleep 0.2
    if [ -s "$1/connections" ]; then
        not_ok "$2: the listener on 127.0.0.1:$port was contacted"; cat "$1/connections"
    else
        python3 -c "import socket; socket.create_connection(('127.0.0.1', $port)).close()"
        sleep 0.3
        [ -s "$1/connections" ] && ok "$2: no $3 made a network connection (the listener sees one of ours)" ||
            not_ok "$2: the listener saw no connection at all, not even ours"
    fi
    kill $listener 2>/dev/null
    wait $listener 2>/dev/null
}

listen "$d"
trap 'kill $listener 2>/dev/null' EXIT
if [ -z "$port" ]; then not_ok "security: the listener did not start"; kill $listener; exit 0; fi
canary="CANARY-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')"
printf '%s\n' "$canary" >"$d/canary.txt"
printf '<!ENTITY leak "%s">\n' "$canary" >"$d/canary.dtd"
dtd=$PWD/spec/jvmti.dtd
valid=tests/checks/fixtures/valid.xml

# spec NAME SUBSET BODY-EDIT: valid.xml with an internal subset and a sed
# edit of its body.
spec() {
    sed -e "s|<!DOCTYPE specification SYSTEM \"../../../spec/jvmti.dtd\">|<!DOCTYPE specification SYSTEM \"$dtd\" [ $2 ]>|" \
        -e "$3" "$valid" >"$d/$1.xml"
}
synopsis='s|<synopsis>Paint</synopsis>|<synopsis>\&ref;</synopsis>|'
http=http://127.0.0.1:$port
spec net-general "<!ENTITY ref SYSTEM \"$http/general\">" "$synopsis"
spec net-parameter "<!ENTITY % p SYSTEM \"$http/parameter\"> %p;" ""
spec net-public "<!ENTITY ref PUBLIC \"-//x//y\" \"$http/public\">" "$synopsis"
spec net-ftp "<!ENTITY ref SYSTEM \"ftp://127.0.0.1:$port/x\">" "$synopsis"
spec net-unparsed "<!NOTATION n SYSTEM \"$http/notation\"> <!ENTITY u SYSTEM \"$http/unparsed\" NDATA n>" ""
spec net-xinclude "" "s|<synopsis>Paint</synopsis>|<synopsis><xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\" href=\"$http/xinclude\" parse=\"text\"/></synopsis>|"
spec net-stylesheet "" "1a<?xml-stylesheet type=\"text/xsl\" href=\"$http/style.xsl\"?>"
sed -e "s|\"../../../spec/jvmti.dtd\"|\"$http/jvmti.dtd\"|" "$valid" >"$d/net-dtd.xml"
sed -e "s|SYSTEM \"../../../spec/jvmti.dtd\"|PUBLIC \"-//jvmtigen//x\" \"$http/jvmti.dtd\"|" "$valid" >"$d/net-dtd-public.xml"
spec file-general "<!ENTITY ref SYSTEM \"$d/canary.txt\">" "$synopsis"
spec file-url "<!ENTITY ref SYSTEM \"file://$d/canary.txt\">" "$synopsis"
spec file-parameter "<!ENTITY % p SYSTEM \"$d/canary.dtd\"> %p;" 's|<synopsis>Paint</synopsis>|<synopsis>\&leak;</synopsis>|'
spec file-unparsed "<!NOTATION n SYSTEM \"x\"> <!ENTITY u SYSTEM \"$d/canary.txt\" NDATA n>" ""
spec file-xinclude "" "s|<synopsis>Paint</synopsis>|<synopsis><xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\" href=\"$d/canary.txt\" parse=\"text\"/></synopsis>|"
# The external subset is the one file a spec may name; a canary as the DTD
# is read as a DTD and fails as one, without showing what it holds.
sed -e "s|\"../../../spec/jvmti.dtd\"|\"$d/canary.txt\"|" "$valid" >"$d/file-as-dtd.xml"

for f in "$d"/net-*.xml "$d"/file-*.xml; do
    name=$(basename "$f" .xml)
    hostile_run "$f"
    why=$H_WHY
    case $name in
    # Unused unparsed entities and a stylesheet instruction are inert: the
    # spec is valid; everything else is refused.
    *-unparsed | *-stylesheet) [ "$H_STATUS" = 0 ] || why=${why:-"exit status $H_STATUS, expected 0"} ;;
    # the error is in the canary, read as the DTD: it names that file
    file-as-dtd) [ "$H_STATUS" = 1 ] || why=${why:-"exit status $H_STATUS, expected 1"}
       grep -q "^$d/canary.txt:[0-9][0-9]*: error: " <<<"$H_ERR" || why=${why:-"no DTD:LINE: error"} ;;
    *) [ "$H_STATUS" = 1 ] || why=${why:-"exit status $H_STATUS, expected 1"}
       grep -q "^$f:[0-9][0-9]*: error: " <<<"$H_ERR" || why=${why:-"no FILE:LINE: error"} ;;
    esac
    if grep -rqF "$canary" "$H_OUT" || grep -qF "$canary" <<<"$H_ERR"; then
        why="the canary's text is in the output or the messages"
    fi
    if [ -z "$why" ]; then ok "security: $name: nothing fetched or shown (exit $H_STATUS)"
    else not_ok "security: $name: $why"; printf '%s\n' "$H_ERR" | head -5; fi
done
listener_verdict "$d" security spec

# ---- more expansion bombs: in an attribute, through parameter entities, a loop ----
bomb="<!ENTITY a0 \"lollollollollollollollollollol\">"
for i in $(seq 1 12); do
    p=$((i - 1)); bomb+="<!ENTITY a$i \"&a$p;&a$p;&a$p;&a$p;&a$p;&a$p;&a$p;&a$p;&a$p;&a$p;\">"
done
spec bomb-attribute "$bomb" 's|<function id="Paint" num="1" phase="live">|<function id="Paint" num="1" phase="live" impl="\&a12;">|'
spec bomb-loop "<!ENTITY x \"&y;\"> <!ENTITY y \"&x;\">" 's|<synopsis>Paint</synopsis>|<synopsis>\&x;</synopsis>|'
pe="<!ENTITY % b0 \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\">"
for i in $(seq 1 8); do p=$((i - 1)); pe+="<!ENTITY % b$i \"%b$p;%b$p;%b$p;%b$p;%b$p;%b$p;%b$p;%b$p;%b$p;%b$p;\">"; done
spec bomb-parameter "$pe" ""
for f in "$d"/bomb-*.xml; do
    name=$(basename "$f" .xml)
    hostile_run "$f"
    why=$H_WHY
    [ "$H_STATUS" = 1 ] || why=${why:-"exit status $H_STATUS, expected 1"}
    grep -q "^$f:[0-9][0-9]*: error: " <<<"$H_ERR" || why=${why:-"no FILE:LINE: error"}
    if [ -z "$why" ]; then ok "security: $name refused"; else not_ok "security: $name: $why"; printf '%s\n' "$H_ERR" | head -5; fi
done

. tests/security/templates.sh
