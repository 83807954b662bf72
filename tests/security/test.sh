#!/usr/bin/env bash
# Hostile specs: external entities (files, file: URLs, network, parameter
# entities), a network DTD, and entity-expansion bombs must be refused with
# a clear error at the right line, quickly, writing nothing, leaking nothing.
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
refused billion-laughs 19 "entity expansion refused"
refused quadratic 7 "entity expansion refused"

d=$(scratch sec-ok)
check "security: internal entities still work and expand into the output" \
    bash -c "'$JVMTIGEN' -q -o '$d' $F/internal-ok.xml && grep -q 'can_do_it : 1' '$d/jvmti.h'"
