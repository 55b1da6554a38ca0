#!/usr/bin/env bash
# HTTP/2 (h2c, prior knowledge) throughput: h2load POSTs with a 200-byte body against
# LoopbackHTTP (Benchmarks/EchoServer) and against nginx-light (`listen ... http2;`,
# `return 204;`, one worker like our one loop thread; NGINX_WORKERS=auto for one per core),
# in the same run; prints the ratio. Then FakeBackend itself over h2c (`contract-check serve
# --quiet --no-apns`): h2load POSTs a valid "opened" report (`{"action":"open"}`, with its
# bearer) to /v1/notifications/n1/opened, each one validated, recorded and journaled, against
# the same nginx. (h2load sends only POST with a body, so not the PUT of backend.sh.)
#
#   Benchmarks/h2.sh [REQUESTS]        (default 200000; -c 8 -m 32)
#
# Needs: h2load (nghttp2-client) and nginx-light: apt-get install -y nghttp2-client nginx-light
# If nghttpd (nghttp2-server) is installed it is measured too (an empty file, 200, --no-tls).
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS="${1:-200000}"
source Benchmarks/h2-common.sh

head -c 200 /dev/zero | tr '\0' 'x' > "$WORK/body"

swift build -c release --package-path Benchmarks --product loopback-echo-server >&2   # Benchmarks/Package.swift
swift build -c release --product contract-check >&2
BIN="$(swift build -c release --package-path Benchmarks --show-bin-path)/loopback-echo-server"
CONTRACT_CHECK="$(swift build -c release --show-bin-path)/contract-check"
"$BIN" > "$WORK/ours.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do grep -q listening "$WORK/ours.log" && break; sleep 0.1; done
OURS_URL="$(sed -n 's/^listening //p' "$WORK/ours.log")"
[ -n "$OURS_URL" ] || { echo "Error: loopback-echo-server did not start: $(cat "$WORK/ours.log")" >&2; exit 1; }

"$CONTRACT_CHECK" serve --quiet --no-apns --session bench=acct --ready-file "$WORK/ready.json" > "$WORK/serve.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do [ -s "$WORK/ready.json" ] && break; sleep 0.1; done
BACKEND_URL="$(sed -n 's/.*"backend":"\([^"]*\)".*/\1/p' "$WORK/ready.json")"
[ -n "$BACKEND_URL" ] || { echo "Error: contract-check serve did not start: $(cat "$WORK/serve.log")" >&2; exit 1; }
printf '{"action":"open"}' > "$WORK/opened"

start_nginx_h2c 204

NGHTTPD_URL=""
if command -v nghttpd >/dev/null; then
  NGHTTPD_PORT="$(free_port)"
  mkdir -p "$WORK/htdocs" && : > "$WORK/htdocs/bench"
  nghttpd --no-tls --address=127.0.0.1 -d "$WORK/htdocs" "$NGHTTPD_PORT" > "$WORK/nghttpd.log" 2>&1 &
  PIDS+=($!)
  wait_for_port "$NGHTTPD_PORT"
  NGHTTPD_URL="http://127.0.0.1:$NGHTTPD_PORT"
fi

run() {
  h2load -n "$REQUESTS" -c 8 -m 32 -d "$WORK/body" "$1/bench" > "$WORK/$2.out" 2>&1 || true
  h2load_report "$2"
}
LOAD_BEFORE="$(load_average)"
OURS="$(run "$OURS_URL" loopbackhttp)"
NGINX="$(run "$NGINX_URL" nginx)"
ratio loopbackhttp "$OURS" nginx "$NGINX"
h2load -n "$REQUESTS" -c 8 -m 32 -d "$WORK/opened" -H "content-type: application/json" \
  -H "authorization: Bearer bench" "$BACKEND_URL/v1/notifications/n1/opened" > "$WORK/fakebackend.out" 2>&1 || true
BACKEND="$(h2load_report fakebackend)"
ratio "fakebackend (POST opened)" "$BACKEND" nginx "$NGINX" " (target >= 0.50)"
if [ -n "$NGHTTPD_URL" ]; then
  NGHTTPD="$(run "$NGHTTPD_URL" nghttpd)"
  ratio loopbackhttp "$OURS" nghttpd "$NGHTTPD"
fi
echo "commit $(commit_label); load average $LOAD_BEFORE before, $(load_average) after"
