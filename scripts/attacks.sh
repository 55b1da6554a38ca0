#!/usr/bin/env bash
# Replays issue 13's attacks and issue 27's cross-connection ones (long-paths, journal-many) against `contract-check serve --quiet` (and, with
# ATTACKS_NGINX=1 and nginx on PATH, against nginx for comparison), one fresh server per
# attack, and prints for each: the server's peak RSS (VmHWM) and RSS after, its CPU seconds
# during the attack (/proc/PID/stat), a neighbour client's latency (p50/p99 of simple
# HTTP/1.1 requests sent during the attack) and what the attack client saw.
#
#   scripts/attacks.sh                 small counts (CI, under a minute plus the build)
#   ATTACKS_FULL=1 scripts/attacks.sh  the issue's counts, and the 70 s busy client
#   ATTACKS_ONLY="bodies forged-tokens" scripts/attacks.sh   some attacks only
#
# ATTACKS_BIN: the contract-check binary (default: the debug build, built if missing).
# Traffic goes to 127.0.0.1 only; every attack is bounded in count and time.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
full="${ATTACKS_FULL:-0}"
command -v python3 >/dev/null || { echo "Error: python3 is missing" >&2; exit 69; }
if [[ -z "${ATTACKS_BIN:-}" ]]; then
    ATTACKS_BIN="$(swift build --show-bin-path)/contract-check"
    [[ -x "$ATTACKS_BIN" ]] || swift build --product contract-check >&2
fi
ulimit -n 16384 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

work="$(mktemp -d "${TMPDIR:-/tmp}/attacks.XXXXXX")"
server_pid=""
stop_server() {
    if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    server_pid=""
}
cleanup() {
    stop_server
    [[ -f "$work/nginx.pid" ]] && kill -QUIT "$(cat "$work/nginx.pid")" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

if (( full )); then
    rapid=100000; body_c=50; body_s=100; body_size=$((1 << 20)); zero_c=200; zero_s=100
    journal_s=20; journal_fill=10000; idle_n=5000; forged=20000; journal_c=50
else
    rapid=5000; body_c=5; body_s=20; body_size=$((1 << 20)); zero_c=10; zero_s=20
    journal_s=5; journal_fill=1000; idle_n=300; forged=2000; journal_c=5
fi
long_path="/v1/$(python3 -c 'print("p" * 15000)')"  # issue 27: echoed whole by the 404 before
zero_hold=15  # serve's request timeout (10 s) and then some

# start_serve ARGS...: a fresh `serve --quiet`; sets server_pid, backend, apns, admin (ports).
start_serve() {
    rm -f "$work/ready.json"
    "$ATTACKS_BIN" serve --quiet "$@" --ready-file "$work/ready.json" > "$work/serve.out" 2> "$work/serve.err" &
    server_pid=$!
    for _ in $(seq 1 300); do
        [[ -s "$work/ready.json" ]] && break
        kill -0 "$server_pid" 2>/dev/null || { cat "$work/serve.err" >&2; echo "Error: serve exited" >&2; exit 1; }
        sleep 0.1
    done
    port_of() { python3 -c 'import json,sys,urllib.parse as u; v=json.load(open(sys.argv[1])).get(sys.argv[2]); print(u.urlparse(v).port if v else "")' "$work/ready.json" "$1"; }
    backend="$(port_of backend)"; apns="$(port_of apns)"; admin="$(port_of admin)"
}

# start_nginx: one worker serving `return 200` over h2c on a free port; sets server_pid
# (the worker), backend (the h2c port) and plain (an HTTP/1.1 port, for the neighbour).
start_nginx() {
    backend="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
    plain="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
    cat > "$work/nginx.conf" <<EOF
worker_processes 1;
daemon on;
pid $work/nginx.pid;
error_log $work/nginx.err;
events { worker_connections 16384; }
http {
    access_log off;
    client_body_temp_path $work/body;
    client_max_body_size 2m;
    server {
        listen 127.0.0.1:$backend http2;
        location / { return 200 "ok\n"; }
        # journal-many: a static file the size of serve's filled /journal.
        location = /journal { alias $work/journal.json; default_type application/json; }
    }
    # HTTP/1.1 for the neighbour (the h2c port speaks only HTTP/2); same worker.
    server {
        listen 127.0.0.1:$plain;
        location / { return 200 "ok\n"; }
    }
}
EOF
    rm -f "$work/nginx.pid"
    nginx -c "$work/nginx.conf" -p "$work" 2>/dev/null
    for _ in $(seq 1 100); do [[ -s "$work/nginx.pid" ]] && break; sleep 0.05; done
    local master
    master="$(cat "$work/nginx.pid")"
    for _ in $(seq 1 100); do
        server_pid="$(cat "/proc/$master/task/$master/children" 2>/dev/null | awk '{print $1}')"
        [[ -n "$server_pid" ]] && break
        sleep 0.05
    done
}
stop_nginx() {
    [[ -f "$work/nginx.pid" ]] && kill -QUIT "$(cat "$work/nginx.pid")" 2>/dev/null || true
    for _ in $(seq 1 100); do [[ -f "$work/nginx.pid" ]] || break; sleep 0.05; done
    rm -f "$work/nginx.pid"
    server_pid=""
}

status_mb() { awk -v key="$1:" '$1 == key { printf "%.0f", $2 / 1024 }' "/proc/$server_pid/status" 2>/dev/null || echo "?"; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$server_pid/stat" 2>/dev/null || echo 0; }
ticks_per_second="$(getconf CLK_TCK)"

printf '%-14s %-6s %8s %8s %7s %-32s %s\n' attack server "peak MB" "after MB" "CPU s" "neighbour p50/p99 ms" "attack client"
# measure NAME SERVER PORT ARGS...: neighbour on PORT, the attack, then the figures.
measure() {
    local name="$1" server="$2" port="$3"; shift 3
    local before after
    python3 scripts/attacks.py neighbour "$port" --hold 300 > "$work/neighbour.json" &
    local neighbour=$!
    before="$(cpu_ticks)"
    python3 scripts/attacks.py "$@" > "$work/attack.json" || echo '{"error": "attack client failed"}' > "$work/attack.json"
    after="$(cpu_ticks)"
    kill -TERM "$neighbour" 2>/dev/null || true
    wait "$neighbour" 2>/dev/null || true
    sleep 1  # let the server release what the closed connections held
    local latency
    latency="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"])' "$work/neighbour.json" 2>/dev/null || echo "?")"
    peak="$(status_mb VmHWM)"
    cpu="$(python3 -c "print(f'{($after - $before) / $ticks_per_second:.2f}')")"
    printf '%-14s %-6s %8s %8s %7s %-32s %s\n' "$name" "$server" "$peak" "$(status_mb VmRSS)" \
        "$cpu" "$latency" "$(cat "$work/attack.json")"
}

# expect WHAT PYTHON-CONDITION: checks the last attack (serve only) with `a` (the attack
# client's JSON), `peak` (MB) and `cpu` (s); a failed check fails the script at the end.
failures=()
expect() {
    python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); peak=float(sys.argv[2]); cpu=float(sys.argv[3]); sys.exit(0 if eval(sys.argv[4]) else 1)' \
        "$work/attack.json" "${peak:-0}" "${cpu:-0}" "$2" || failures+=("$1")
}

selected() { [[ -z "${ATTACKS_ONLY:-}" || " $ATTACKS_ONLY " == *" $1 "* ]]; }

run_serve_attacks() {
    if selected rapid-reset; then
        start_serve --no-apns; measure rapid-reset serve "$backend" rapid-reset "$backend" --count "$rapid"; stop_server
        expect "rapid-reset: GOAWAY ENHANCE_YOUR_CALM within 2,000 streams" 'a["goaway"] == "ENHANCE_YOUR_CALM" and a["streams_before_goaway"] <= 2000'
    fi
    if selected bodies; then
        # FakeBackend's body limit (64 KiB) answers 1 MiB bodies 413 unread; FakeAPNs' (8 KiB) too.
        start_serve --no-apns; measure bodies serve "$backend" bodies "$backend" --connections "$body_c" --streams "$body_s" --size "$body_size" --hold 5; stop_server
        expect "bodies: peak below 256 MB" 'peak < 256'
    fi
    if selected zero-window; then
        start_serve --no-apns; measure zero-window serve "$backend" zero-window "$backend" --connections "$zero_c" --streams "$zero_s" --hold "$zero_hold"; stop_server
        expect "zero-window: every stalled stream reset (CANCEL), peak below 256 MB" 'a["streams_reset_cancel"] == a["connections"] * a["streams"] and peak < 256'
    fi
    if selected journal; then
        start_serve --no-apns
        python3 scripts/attacks.py fill "$backend" --count "$journal_fill" > /dev/null  # 1 KB journal entries to amplify
        measure journal serve "$backend" zero-window "$admin" --connections 1 --streams "$journal_s" --path /journal --hold "$zero_hold"
        stop_server
        expect "journal: stalled /journal answers reset in turn, peak below 256 MB" 'a["streams_reset_cancel"] >= 1 and peak < 256'
    fi
    if selected long-paths; then
        # Issue 27: each 404 echoed its 15,000-character path; held on zero windows from many
        # connections it reached 663 MB. Now 414 before any handler, and the held-output budget.
        start_serve --no-apns; measure long-paths serve "$backend" zero-window "$backend" --connections "$zero_c" --streams "$zero_s" --path "$long_path" --hold 5; stop_server
        expect "long-paths: zero-window streams of 15,000-character paths from many connections, peak below 256 MB" 'peak < 256'
    fi
    if selected journal-many; then
        start_serve --no-apns
        python3 scripts/attacks.py fill "$backend" --count "$journal_fill" > /dev/null
        measure journal-many serve "$backend" zero-window "$admin" --connections "$journal_c" --streams 1 --path /journal --hold "$zero_hold"
        stop_server
        expect "journal-many: stalled /journal answers from many connections, peak below 256 MB" 'peak < 256'
    fi
    if selected idle; then
        start_serve --no-apns; measure idle serve "$backend" idle "$backend" --count "$idle_n" --hold 5; stop_server
        expect "idle: a new client served within 2 s" 'a["new_client_served"] and a["new_client_seconds"] < 2'
    fi
    if selected forged-tokens; then
        start_serve --apns-topic com.example.app --apns-any-token --apns-key DEVKEY0001:DEVTEAM001:Fixtures/dev/AuthKey_DEVKEY0001.p8
        local token
        token="$(python3 -c 'import urllib.request,sys; print(urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/apns/provider-token", timeout=10).read().decode().strip())' "$admin")"
        measure forged-tokens serve "$apns" forged-tokens "$apns" --count "$forged" --token "$token"
        stop_server
        expect "forged-tokens: under 1.5 s of CPU or the connection ended" 'cpu < 1.5 or a["ended"]'
    fi
    if (( full )) && selected busy; then
        start_serve --no-apns; measure busy serve "$backend" busy "$backend" --hold 70; stop_server
        expect "busy: an h2 client busy for 70 s is not cut" 'not a["cut"] and a["seconds"] >= 70'
    fi
}

run_nginx_attacks() {
    selected rapid-reset && { start_nginx; measure rapid-reset nginx "$plain" rapid-reset "$backend" --count "$rapid"; stop_nginx; }
    selected bodies && { start_nginx; measure bodies nginx "$plain" bodies "$backend" --connections "$body_c" --streams "$body_s" --size "$body_size" --hold 5; stop_nginx; }
    selected zero-window && { start_nginx; measure zero-window nginx "$plain" zero-window "$backend" --connections "$zero_c" --streams "$zero_s" --hold "$zero_hold"; stop_nginx; }
    selected long-paths && { start_nginx; measure long-paths nginx "$plain" zero-window "$backend" --connections "$zero_c" --streams "$zero_s" --path "$long_path" --hold 5; stop_nginx; }
    if selected journal-many; then
        # The same shape: one GET per zero-window connection of a large static file
        # (journal_fill × 1 KiB, what serve's filled /journal answers roughly weigh).
        head -c "$((journal_fill * 1024))" /dev/zero | tr '\0' 'j' > "$work/journal.json"
        start_nginx; measure journal-many nginx "$plain" zero-window "$backend" --connections "$journal_c" --streams 1 --path /journal --hold "$zero_hold"; stop_nginx
    fi
    selected idle && { start_nginx; measure idle nginx "$plain" idle "$backend" --count "$idle_n" --hold 5; stop_nginx; }
    return 0
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(git rev-parse --short HEAD 2>/dev/null || echo '?'); counts: $([[ $full == 1 ]] && echo full || echo small)" >&2
run_serve_attacks
if [[ "${ATTACKS_NGINX:-0}" == 1 ]] && command -v nginx >/dev/null; then
    run_nginx_attacks
fi
if (( ${#failures[@]} )); then
    printf 'Failed: %s\n' "${failures[@]}" >&2
    exit 1
fi
echo "attacks: every check passed" >&2
