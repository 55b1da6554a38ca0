#!/usr/bin/env bash
# FakeBackend against nginx in the same run: wrk PUTs a valid ~200-byte device registration
# to `contract-check serve` (release build, validating and journaling every request) and to
# nginx-light answering `return 204`, then prints both rates and their ratio. FakeBackend
# runs twice side by side, once per event-loop backend (LOOPBACK_POLLER=epoll and =poll,
# Docs/readme/platforms.md), so the ratio poll/epoll is measured in the same run too. Then
# the start-to-ready time of FakeBackend.start() (median over 200 starts).
#
# Needs: wrk and nginx-light (Debian: apt-get install -y wrk nginx-light).
# The two servers take turns (ROUNDS times each) and the medians are compared, so load from
# other processes on the machine hits both alike.
# Usage: Benchmarks/backend.sh            DURATION=10s CONNECTIONS=32 ROUNDS=5 Benchmarks/backend.sh
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION="${DURATION:-5s}"
ROUNDS="${ROUNDS:-3}"
CONNECTIONS="${CONNECTIONS:-16}"
for tool in wrk nginx python3; do
    command -v "$tool" >/dev/null || { echo "$tool is required (apt-get install -y wrk nginx-light python3)" >&2; exit 1; }
done

echo "building release binaries…"
swift build -c release --product contract-check >/dev/null
swift build -c release --product backend-start-benchmark >/dev/null
BIN="$(swift build -c release --show-bin-path)"

WORK="$(mktemp -d)"
SERVE_PIDS=""
NGINX_PID=""
cleanup() {
    for pid in $SERVE_PIDS; do kill -TERM "$pid" 2>/dev/null || true; done
    [ -n "$NGINX_PID" ] && kill -TERM "$NGINX_PID" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
wait_port() {
    for _ in $(seq 1 100); do
        python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1",int(sys.argv[1])),0.2).close()' "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "nothing listens on port $1" >&2; return 1
}

# The request: a valid registration padded with JSON whitespace to 200 bytes.
TOKEN=00fa11ceabababababababababababababababababababababababababababab
python3 - "$WORK/put.lua" <<'PY'
import base64, sys
key = base64.b64encode(bytes([4]) + bytes(range(1, 65))).decode()
body = '{"platform":"ios","environment":"production","appVersion":"4.2.0","publicKey":"%s"}' % key
body = body[:-1] + " " * (200 - len(body)) + "}"
assert len(body) == 200
open(sys.argv[1], "w").write('''wrk.method = "PUT"
wrk.body = '%s'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer bench"
''' % body)
PY

# FakeBackend through contract-check serve (no request log: the journal still records all),
# on the event-loop backend $1; sets BACKEND_<backend> and ADMIN_<backend> to its URLs.
start_serve() {
    local poller="$1" ready="$WORK/ready-$1.json"
    LOOPBACK_POLLER="$poller" "$BIN/contract-check" serve --quiet --no-apns --session bench=acct \
        --ready-file "$ready" >"$WORK/serve-$poller.log" 2>&1 &
    SERVE_PIDS="$SERVE_PIDS $!"
    for _ in $(seq 1 100); do [ -s "$ready" ] && break; sleep 0.1; done
    local url
    url="$(sed -n 's/.*"backend":"\([^"]*\)".*/\1/p' "$ready")"
    [ -n "$url" ] || { echo "serve ($poller) did not start:" >&2; cat "$WORK/serve-$poller.log" >&2; exit 1; }
    printf -v "BACKEND_$poller" '%s' "$url"
    printf -v "ADMIN_$poller" '%s' "$(sed -n 's/.*"admin":"\([^"]*\)".*/\1/p' "$ready")"
}
start_serve epoll
start_serve poll

# nginx-light, one worker like FakeBackend's one loop thread.
NGINX_PORT="$(free_port)"
mkdir -p "$WORK/nginx/logs"
cat >"$WORK/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $WORK/nginx/body;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        location / { return 204; }
    }
}
CONF
nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/logs/error.log" &
NGINX_PID=$!
wait_port "$NGINX_PORT"

run_wrk() {
    wrk -t1 -c"$CONNECTIONS" -d"$DURATION" -s "$WORK/put.lua" "$1" >"$WORK/wrk.out"
    grep -E "Non-2xx|Socket errors" "$WORK/wrk.out" >&2 || true
    awk '/Requests\/sec:/ { print $2 }' "$WORK/wrk.out"
}

echo "wrk: 1 thread, $CONNECTIONS connections, $DURATION per run, $ROUNDS runs each, taking turns; PUT with a 200-byte body"
for poller in epoll poll; do
    url="BACKEND_$poller"
    wrk -t1 -c"$CONNECTIONS" -d1s -s "$WORK/put.lua" "${!url}/v1/devices/$TOKEN" >/dev/null   # warm-up
done
EPOLL_RUNS=""
POLL_RUNS=""
NGINX_RUNS=""
for _ in $(seq 1 "$ROUNDS"); do
    EPOLL_RUNS="$EPOLL_RUNS $(run_wrk "$BACKEND_epoll/v1/devices/$TOKEN")"
    POLL_RUNS="$POLL_RUNS $(run_wrk "$BACKEND_poll/v1/devices/$TOKEN")"
    NGINX_RUNS="$NGINX_RUNS $(run_wrk "http://127.0.0.1:$NGINX_PORT/v1/devices/$TOKEN")"
done

# Every measured request was validated and accepted: the journals hold only 204s.
for poller in epoll poll; do
    admin="ADMIN_$poller"
    curl -s "${!admin}/journal" | python3 -c '
import json, sys
journal = json.load(sys.stdin)
entries = journal["entries"]
bad = [e for e in entries if e.get("status") != 204 or e["violations"]]
print("FakeBackend (%s) journal: %d kept, %d dropped, %d not 204 or with violations" % (sys.argv[1], len(entries), journal["dropped"], len(bad)))
' "$poller"
done

python3 - "$EPOLL_RUNS" "$POLL_RUNS" "$NGINX_RUNS" <<'PY'
import statistics, sys
epoll, poll, nginx = ([float(x) for x in arg.split()] for arg in sys.argv[1:4])
runs = lambda values: ", ".join("%.0f" % v for v in values)
print("FakeBackend epoll  median %8.0f requests/s  (runs: %s)" % (statistics.median(epoll), runs(epoll)))
print("FakeBackend poll   median %8.0f requests/s  (runs: %s)" % (statistics.median(poll), runs(poll)))
print("nginx              median %8.0f requests/s  (runs: %s)" % (statistics.median(nginx), runs(nginx)))
print("ratio              %15.2f  (FakeBackend epoll / nginx, medians; target >= 0.5)" % (statistics.median(epoll) / statistics.median(nginx)))
print("ratio              %15.2f  (FakeBackend poll / epoll, medians; target >= 0.8)" % (statistics.median(poll) / statistics.median(epoll)))
PY

echo
"$BIN/backend-start-benchmark" 200
