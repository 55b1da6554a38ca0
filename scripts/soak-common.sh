# Shared by scripts/soak.sh and scripts/soak-apns.sh (sourced, not run): start
# `contract-check serve` in a scratch folder, read its ready file and admin journal, and
# watch the process's fds, threads and memory. Loopback only.

work="$(mktemp -d "${TMPDIR:-/tmp}/soak.XXXXXX")"
server_pid=""
cleanup() {
    if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# start_serve ARGS...: `$SOAK_BIN serve --quiet ARGS --ready-file …`, waits for the ready file.
start_serve() {
    "$SOAK_BIN" serve --quiet "$@" --ready-file "$work/ready.json" > "$work/serve.out" 2> "$work/serve.err" &
    server_pid=$!
    for _ in $(seq 1 300); do
        [[ -s "$work/ready.json" ]] && return 0
        kill -0 "$server_pid" 2>/dev/null || { cat "$work/serve.err" >&2; echo "Error: contract-check serve exited" >&2; exit 1; }
        sleep 0.1
    done
    echo "Error: serve did not write its ready file" >&2
    exit 1
}

# ready_field KEY: a URL from the ready file, without a trailing slash.
ready_field() {
    local url
    url="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$work/ready.json" "$1")"
    echo "${url%/}"
}

# journal_total URL: entries + dropped of an admin journal (`/journal`, `/apns/journal`).
journal_total() {
    curl -sS --max-time 30 "$1" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["entries"]) + d["dropped"])'
}

fds() { ls "/proc/$server_pid/fd" | wc -l; }
threads() { ls "/proc/$server_pid/task" | wc -l; }
status_kb() { awk -v key="$1:" '$1 == key { print $2 }' "/proc/$server_pid/status"; }

# take_baseline: fds_before, threads_before, rss_before.
take_baseline() {
    fds_before="$(fds)"; threads_before="$(threads)"; rss_before="$(status_kb VmRSS)"
    echo "before: fds $fds_before, threads $threads_before, RSS $((rss_before / 1024)) MiB" >&2
}

# wait_settled: fds_after, threads_after once back to the baseline (at most 30 s), peak_kb.
wait_settled() {
    for _ in $(seq 1 300); do
        fds_after="$(fds)"; threads_after="$(threads)"
        [[ "$fds_after" -le "$fds_before" && "$threads_after" -le "$threads_before" ]] && break
        sleep 0.1
    done
    peak_kb="$(status_kb VmHWM)"
}

# health_report: prints the process figures and appends what failed to `failures`.
health_report() {
    echo "  fds before $fds_before, after $fds_after; threads before $threads_before, after $threads_after" >&2
    echo "  peak memory (VmHWM) $((peak_kb / 1024)) MiB (bound $max_rss_mb MiB); RSS before $((rss_before / 1024)) MiB" >&2
    (( fds_after <= fds_before )) || failures+=("fds grew from $fds_before to $fds_after")
    (( threads_after <= threads_before )) || failures+=("threads grew from $threads_before to $threads_after")
    (( peak_kb / 1024 <= max_rss_mb )) || failures+=("peak memory $((peak_kb / 1024)) MiB is over $max_rss_mb MiB")
}
