#!/usr/bin/env bash
# HTTP/2 (h2c, prior knowledge) throughput: h2load POSTs with a 200-byte body against
# LoopbackHTTP (Benchmarks/EchoServer) and against nginx-light (`listen ... http2;`,
# `return 204;`, one worker like our one loop thread; NGINX_WORKERS=auto for one per core),
# in the same run; prints the ratio.
#
#   Benchmarks/h2.sh [REQUESTS]        (default 200000; -c 8 -m 32)
#
# Needs: h2load (nghttp2-client) and nginx-light: apt-get install -y nghttp2-client nginx-light
# If nghttpd (nghttp2-server) is installed it is measured too (an empty file, 200, --no-tls).
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS="${1:-200000}"
for tool in h2load nginx python3; do
  command -v "$tool" >/dev/null || { echo "Error: $tool is not installed (apt-get install -y nghttp2-client nginx-light)" >&2; exit 1; }
done

WORK="$(mktemp -d)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

head -c 200 /dev/zero | tr '\0' 'x' > "$WORK/body"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

swift build -c release --product loopback-echo-server >&2
BIN="$(swift build -c release --show-bin-path)/loopback-echo-server"
"$BIN" > "$WORK/ours.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do grep -q listening "$WORK/ours.log" && break; sleep 0.1; done
OURS_URL="$(sed -n 's/^listening //p' "$WORK/ours.log")"
[ -n "$OURS_URL" ] || { echo "Error: loopback-echo-server did not start: $(cat "$WORK/ours.log")" >&2; exit 1; }

NGINX_PORT="$(free_port)"
mkdir -p "$WORK/nginx"
cat > "$WORK/nginx/nginx.conf" <<CONF
worker_processes ${NGINX_WORKERS:-1};
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 10000000;
  http2_max_concurrent_streams 128;
  client_body_temp_path $WORK/nginx;
  server {
    listen 127.0.0.1:$NGINX_PORT http2;
    location / { return 204; }
  }
}
CONF
nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" &
PIDS+=($!)
for _ in $(seq 1 100); do (echo > /dev/tcp/127.0.0.1/$NGINX_PORT) 2>/dev/null && break; sleep 0.1; done

NGHTTPD_URL=""
if command -v nghttpd >/dev/null; then
  NGHTTPD_PORT="$(free_port)"
  mkdir -p "$WORK/htdocs" && : > "$WORK/htdocs/bench"
  nghttpd --no-tls --address=127.0.0.1 -d "$WORK/htdocs" "$NGHTTPD_PORT" > "$WORK/nghttpd.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 100); do (echo > /dev/tcp/127.0.0.1/$NGHTTPD_PORT) 2>/dev/null && break; sleep 0.1; done
  NGHTTPD_URL="http://127.0.0.1:$NGHTTPD_PORT"
fi

run() {
  h2load -n "$REQUESTS" -c 8 -m 32 -d "$WORK/body" "$1/bench" > "$WORK/$2.out" 2>&1 || true
  local rps ok
  rps="$(sed -n 's/^finished in .*, \([0-9.]*\) req\/s.*/\1/p' "$WORK/$2.out")"
  ok="$(sed -n 's/^requests: .* \([0-9]*\) succeeded.*/\1/p' "$WORK/$2.out")"
  echo "$2: ${rps:-0} req/s, ${ok:-0} of $REQUESTS succeeded" >&2
  echo "${rps:-0}"
}
OURS="$(run "$OURS_URL" loopbackhttp)"
NGINX="$(run "http://127.0.0.1:$NGINX_PORT" nginx)"
python3 -c "import sys; o,n=float(sys.argv[1]),float(sys.argv[2]); print(f'loopbackhttp {o:.0f} req/s, nginx {n:.0f} req/s, ratio {o/n if n else 0:.2f}')" "$OURS" "$NGINX"
if [ -n "$NGHTTPD_URL" ]; then
  NGHTTPD="$(run "$NGHTTPD_URL" nghttpd)"
  python3 -c "import sys; o,n=float(sys.argv[1]),float(sys.argv[2]); print(f'loopbackhttp {o:.0f} req/s, nghttpd {n:.0f} req/s, ratio {o/n if n else 0:.2f}')" "$OURS" "$NGHTTPD"
fi
