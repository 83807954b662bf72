# Sourced by tests/cli/test.sh. `check` refuses what `generate` could not
# write or the outputs could not compile: an id too long for its man page's
# file name, a function or event named jvmti (the overview's page), an event
# and a function of one name (one page), names the generated C would define
# twice (a table's reserved slot, an event's composed names meeting another
# event's, the core's or the header's own). Each is FILE:LINE: error: and
# exit 1 from check and from generate alike, and nothing is written.
d=$(scratch cli-gen-needs)
long=$(printf 'Long%.0s' $(seq 1 60)) # 240 characters
needs_case() { # NAME LINE PATTERN SED-EXPR...
    local name=$1 line=$2 pattern=$3 e; shift 3
    local args=(-e "s|\"../../../spec/jvmti.dtd\"|\"$PWD/spec/jvmti.dtd\"|")
    for e; do args+=(-e "$e"); done
    sed "${args[@]}" tests/checks/fixtures/valid.xml >"$d/$name.xml"
    local why= cmd err status
    for cmd in check generate; do
        err=$("$JVMTIGEN" "$cmd" -o "$d/out-$name" "$d/$name.xml" 2>&1 >/dev/null)
        status=$?
        [ "$status" -eq 1 ] || why=${why:-"$cmd: exit status $status, expected 1"}
        grep -q "^$d/$name.xml:$line: error: $pattern" <<<"$err" ||
            why=${why:-"$cmd: no error at line $line matching '$pattern'"}
    done
    [ -e "$d/out-$name" ] && why=${why:-"generate wrote $d/out-$name"}
    if [ -z "$why" ]; then ok "cli: check and generate refuse $name at line $line"
    else not_ok "cli: $name: $why"; printf '%s\n' "$err" | head -4; fi
}
needs_case long-function-id 56 "function 'LongLong.*' has a name of 240 characters: its man page .* allows at most 232" \
    "s|\"GetStrokes\"|\"$long\"|"
needs_case long-event-id 131 "event 'LongLong.*' has a name of 240 characters" \
    "s|id=\"PaintWatched\"|id=\"$long\"|"
needs_case function-jvmti 67 "function 'jvmti': its man page would be jvmti.3, the overview's" \
    's|"SetStrokes"|"jvmti"|'
needs_case event-jvmti 131 "event 'jvmti': its man page would be jvmti.3" 's|id="PaintWatched"|id="jvmti"|'
needs_case event-and-function 131 "event 'SetStrokes' has the name of the function at line 67: both man pages would be SetStrokes.3" \
    's|id="PaintWatched"|id="SetStrokes"|'
needs_case reserved-function-slot 67 "function 'reserved2' has the name of the function table's empty slot 2" \
    's|<function id="GetStrokes" num="2">|<function id="GetStrokes" num="12">|' 's|"SetStrokes"|"reserved2"|'
needs_case reserved-event-slot 131 "event 'reserved52' has the name of the event callbacks' empty slot 52" \
    's|id="PaintWatched" label="Paint Watched" const="JVMTI_EVENT_PAINT_WATCHED" num="51"|id="reserved52" label="Paint Watched" const="JVMTI_EVENT_PAINT_WATCHED" num="53"|'
needs_case event-slow 131 "event 'Painted_slow': the generated C would define 'jvmtirt_post_Painted_slow' for it and for event 'Painted' (line 122)" \
    's|id="PaintWatched"|id="Painted_slow"|'
# (An event filter_X no longer meets X's names: X's filter pointer is
# jvmtigen_post_filter_X, filter_X's posting function jvmtirt_post_filter_X.)
needs_case event-core-name 131 "event 'deallocate': the generated C would define 'jvmtirt_post_deallocate', a name jvmtigen's own code uses" \
    's|id="PaintWatched"|id="deallocate"|'
needs_case event-callbacks 131 "event 'Callbacks': the generated C would define 'jvmtiEventCallbacks', a name jvmtigen's own code uses" \
    's|id="PaintWatched"|id="Callbacks"|'
needs_case event-type 131 "event 'Point': its callback type 'jvmtiEventPoint' is also the type defined at line" \
    's|id="PaintWatched"|id="Point"|' 's|jvmtiPoint|jvmtiEventPoint|g'
