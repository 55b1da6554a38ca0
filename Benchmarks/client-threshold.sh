#!/usr/bin/env bash
# Where the client starts to wait: backend.sh's load (wrk, 1 thread, 16 connections, PUT with
# the 200-byte registration) on `loopback-echo-server --spin-ns N`, the bare transport with N
# nanoseconds of busy work added to each request, and on nginx-light answering `return 204`,
# in turns, for each N of SPINS. For each N it prints the two rates and their ratio, how busy
# the client was with the echo server and how often it slept a request, and the client's and
# the server's CPU time a request.
#
# While the server is faster than the client, the client never runs out of answers and the
# ratio stays above 1 (wrk handles the transport's 27-byte answers faster than nginx's). Once
# the server is the slower side, the client sleeps about once a turn of ~16 requests, and each
# of those wake-ups is paid in the server's send(2): past that point the ratio falls faster
# than the work added. The N where it crosses 1 is how much more than the bare transport a
# request may cost `serve` for Benchmarks/backend.sh to read >= 1.0 on this machine.
#
# Needs: wrk and nginx-light (Debian: apt-get install -y wrk nginx-light), python3.
# Usage: Benchmarks/client-threshold.sh      SPINS="0 500 1000 1500" DURATION=3s Benchmarks/client-threshold.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=Benchmarks/http1-common.sh
. Benchmarks/http1-common.sh   # WORK, the exit trap, SERVER_PIDS, TOKEN, write_registration_put

SPINS="${SPINS:-0 250 500 750 1000 1250 1500 2000}"
DURATION="${DURATION:-3s}"
CONNECTIONS="${CONNECTIONS:-16}"
require_tools "apt-get install -y wrk nginx-light python3" wrk nginx python3

echo "building loopback-echo-server (release)…"
swift build -c release --package-path Benchmarks --product loopback-echo-server >/dev/null   # Benchmarks/Package.swift
ECHO="$(swift build -c release --package-path Benchmarks --show-bin-path)/loopback-echo-server"

write_registration_put "$WORK/put.lua"

# shellcheck source=Benchmarks/nginx-204.sh
. Benchmarks/nginx-204.sh
start_nginx_204 "$WORK"
NGINX_URL="http://127.0.0.1:$NGINX_PORT/v1/devices/$TOKEN"
wrk -t1 -c"$CONNECTIONS" -d1s -s "$WORK/put.lua" "$NGINX_URL" >/dev/null   # warm-up

# measure NAME URL PID: one wrk run under Benchmarks/wrk-usage.py; appends "rate busy sleeps
# client-us server-us" to NAME.runs (the server's CPU from /proc/PID/stat).
measure() {
    local ticks0 ticks1
    ticks0="$(awk '{ print $14 + $15 }' "/proc/$3/stat")"
    python3 Benchmarks/wrk-usage.py "$WORK/usage" wrk -t1 -c"$CONNECTIONS" -d"$DURATION" -s "$WORK/put.lua" "$2" >"$WORK/wrk.out"
    ticks1="$(awk '{ print $14 + $15 }' "/proc/$3/stat")"
    grep -E "Non-2xx|Socket errors" "$WORK/wrk.out" >&2 || true
    python3 - "$WORK/wrk.out" "$WORK/usage" "$ticks0" "$ticks1" "$(getconf CLK_TCK)" >"$WORK/$1.run" <<'PY'
import sys
out, usage, ticks0, ticks1, tick = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
requests = int([line for line in open(out) if "requests in" in line][0].split()[0])
wall, user, system, sleeps = open(usage).read().split()
rate = [float(line.split()[1]) for line in open(out) if line.startswith("Requests/sec:")][0]
print("%.0f %.3f %.4f %.2f %.2f" % (rate, (float(user) + float(system)) / float(wall), int(sleeps) / requests,
                                    (float(user) + float(system)) / requests * 1e6, (ticks1 - ticks0) / tick / requests * 1e6))
PY
}

echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "wrk: 1 thread, $CONNECTIONS connections, $DURATION a run; nginx, then the echo server, for each N"
for spin in $SPINS; do
    "$ECHO" --spin-ns "$spin" >"$WORK/echo.out" 2>&1 &
    SERVER_PIDS=$!   # the echo server of this N (stopped on exit too)
    for _ in $(seq 1 100); do grep -q '^listening ' "$WORK/echo.out" && break; sleep 0.1; done
    url="$(sed -n 's/^listening //p' "$WORK/echo.out")/v1/devices/$TOKEN"
    [ "$url" != "/v1/devices/$TOKEN" ] || { echo "loopback-echo-server did not start" >&2; cat "$WORK/echo.out" >&2; exit 1; }
    wrk -t1 -c"$CONNECTIONS" -d1s -s "$WORK/put.lua" "$url" >/dev/null   # warm-up
    measure nginx "$NGINX_URL" "$NGINX_WORKER_PID"
    measure echo "$url" "$SERVER_PIDS"
    kill -TERM "$SERVER_PIDS" 2>/dev/null || true
    wait "$SERVER_PIDS" 2>/dev/null || true
    SERVER_PIDS=""
    read -r nrate _ nsleeps _ _ <"$WORK/nginx.run"
    read -r erate ebusy esleeps eclient eserver <"$WORK/echo.run"
    awk -v s="$spin" -v er="$erate" -v nr="$nrate" -v b="$ebusy" -v z="$esleeps" -v c="$eclient" -v v="$eserver" -v nz="$nsleeps" 'BEGIN {
        printf "spin %5d ns: echo / nginx %.2f (%.0f / %.0f requests/s); with echo the client %3.0f%% busy, asleep %.3f a request, %.2f us a request, the server %.2f us; nginx'"'"'s client asleep %.3f\n",
            s, er / nr, er, nr, 100 * b, z, c, v, nz }'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
