# Sourced by tests/cli/test.sh. A run asks for its heap in transparent huge
# pages (gen/base/heap.c): one madvise(MADV_HUGEPAGE) over the heap's first
# growth, at least 32 MiB, starting on a 2 MiB boundary, inside [heap]; seen
# by an LD_PRELOAD library (madvise-log.c). Not in sanitizer builds, whose
# malloc is not glibc's.
heap_test() {
    local d log lines
    if [ -n "${SANITIZE:-}" ]; then skip "cli: heap in huge pages (sanitizer build: malloc is not glibc's)"; return; fi
    d=$(scratch cli-heap)
    if ! cc -shared -fPIC -o "$d/madvise-log.so" tests/cli/madvise-log.c -ldl 2>"$d/cc.log"; then
        skip "cli: heap in huge pages (cannot build tests/cli/madvise-log.c: $(head -1 "$d/cc.log"))"
        return
    fi
    log="$d/log"
    if ! LD_PRELOAD="$d/madvise-log.so" JVMTIGEN_MADVISE_LOG="$log" "$JVMTIGEN" -q -o "$d/out" "$OWN"; then
        not_ok "cli: heap in huge pages (the run failed)"
        return
    fi
    local n=0 kind= addr= len= where=
    [ -f "$log" ] && n=$(wc -l <"$log") && read -r kind addr len where <"$log"
    if [ "$n" -eq 1 ] && [ "$kind" = hugepage ] && [ $((addr % 2097152)) -eq 0 ] &&
       [ "$len" -ge 33554432 ] && [ "$where" = heap ]; then
        ok "cli: the heap is asked for in huge pages, once, 2 MiB aligned, at least 32 MiB"
    else
        not_ok "cli: the heap is asked for in huge pages (madvise calls seen: $(cat "$log" 2>/dev/null || echo none))"
    fi
}
heap_test
