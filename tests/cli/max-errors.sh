# Sourced by tests/cli/test.sh. A spec with 250 errors prints the first
# 100 (--max-errors, default 100; 0: all) and a note of how many more, in
# check and generate alike; the exit status is 1 whatever is shown.
d=$(scratch cli-max-errors)
caps=$(for i in $(seq 1 250); do printf '<required id="no_cap_%03d"/>\\n' "$i"; done)
sed -e "s|<required id=\"can_paint\"/>|$caps|" \
    -e "s|\"../../../spec/jvmti.dtd\"|\"$PWD/spec/jvmti.dtd\"|" tests/checks/fixtures/valid.xml >"$d/many.xml"
max_errors_case() { # DESC SHOWN NOTE ARGS...
    local desc=$1 shown=$2 note=$3 errs status; shift 3
    errs=$("$JVMTIGEN" "$@" "$d/many.xml" 2>&1 >/dev/null)
    status=$?
    local n first last
    n=$(grep -c "^$d/many.xml:[0-9]*: error: function 'Paint' requires unknown capability" <<<"$errs")
    first=$(grep -m1 -o "no_cap_[0-9]*" <<<"$errs")
    if [ "$status" -eq 1 ] && [ "$n" -eq "$shown" ] && [ "$first" = no_cap_001 ] &&
        { [ -z "$note" ] && ! grep -q "not shown" <<<"$errs" ||
            [ "$(tail -1 <<<"$errs")" = "$note" ]; } &&
        [ ! -e "$d/out" ]; then
        ok "cli: $desc"
    else
        not_ok "cli: $desc (status $status, $n errors shown, first $first)"; tail -2 <<<"$errs"
    fi
}
max_errors_case "250 errors: the first 100 shown, then how many more" 100 \
    "jvmtigen: note: 150 more errors not shown (--max-errors 100)" -o "$d/out"
max_errors_case "check shows the same 100" 100 \
    "jvmtigen: note: 150 more errors not shown (--max-errors 100)" check
max_errors_case "--max-errors 7 shows 7" 7 \
    "jvmtigen: note: 243 more errors not shown (--max-errors 7)" --max-errors 7 -o "$d/out"
max_errors_case "--max-errors 0 shows all 250" 250 "" --max-errors=0 -o "$d/out"
max_errors_case "-q keeps the cap" 100 \
    "jvmtigen: note: 150 more errors not shown (--max-errors 100)" -q -o "$d/out"
status_is "a --max-errors that is not a number is a usage error" 2 \
    "--max-errors 'x' is not a number" --max-errors x "$VALID"
