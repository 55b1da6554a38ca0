#!/usr/bin/env bash
# FakeAPNs throughput: h2load sends APNs pushes (valid headers, one fixed valid ES256
# provider token, a 300-byte v1 payload) over h2c to FakeAPNs — which validates every
# request in Apple's order, checks the token (verified once per connection, as APNs
# caches it), checks the payload contract, journals and delivers — and to nginx-light
# answering `return 200;` on the same run; prints the ratio. Target: ratio >= 0.5.
#
#   Benchmarks/apns.sh [REQUESTS]        (default 100000; -c 8 -m 32)
#
# Needs: h2load (nghttp2-client) and nginx-light: apt-get install -y nghttp2-client nginx-light
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS="${1:-100000}"
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

# A 300-byte payload that keeps the v1 payload contract.
python3 - "$WORK/payload" <<'PY'
import json, sys
body = {"aps": {"alert": {"title": "On the way", "body": "Your order is on the way"},
                "category": "ORDER_UPDATE", "thread-id": "order-8F3K"},
        "notificationId": "91", "accountId": "a1", "route": "orders/8F3K", "orderVersion": 7}
text = json.dumps(body, separators=(",", ":"))
body["pad"] = "x" * (300 - len(text) - len(',"pad":""'))
data = json.dumps(body, separators=(",", ":")).encode()
assert len(data) == 300, len(data)
open(sys.argv[1], "wb").write(data)
PY
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

swift build -c release --product fake-apns-bench-server >&2
BIN="$(swift build -c release --show-bin-path)/fake-apns-bench-server"
"$BIN" > "$WORK/apns.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do grep -q '^token ' "$WORK/apns.log" && break; sleep 0.1; done
APNS_URL="$(sed -n 's/^listening //p' "$WORK/apns.log")"
TOKEN="$(sed -n 's/^token //p' "$WORK/apns.log")"
[ -n "$APNS_URL" ] && [ -n "$TOKEN" ] || { echo "Error: fake-apns-bench-server did not start: $(cat "$WORK/apns.log")" >&2; exit 1; }

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
    location / { return 200; }
  }
}
CONF
nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" &
PIDS+=($!)
for _ in $(seq 1 100); do (echo > /dev/tcp/127.0.0.1/$NGINX_PORT) 2>/dev/null && break; sleep 0.1; done

DEVICE="$(printf 'ab%.0s' $(seq 1 32))"
run() {
  h2load -n "$REQUESTS" -c 8 -m 32 -d "$WORK/payload" \
    -H "authorization: bearer $TOKEN" -H "apns-topic: com.example.app" \
    -H "apns-push-type: alert" -H "apns-priority: 10" \
    "$1/3/device/$DEVICE" > "$WORK/$2.out" 2>&1 || true
  local rps ok codes
  rps="$(sed -n 's/^finished in .*, \([0-9.]*\) req\/s.*/\1/p' "$WORK/$2.out")"
  ok="$(sed -n 's/^requests: .* \([0-9]*\) succeeded.*/\1/p' "$WORK/$2.out")"
  codes="$(sed -n 's/^status codes: //p' "$WORK/$2.out")"
  echo "$2: ${rps:-0} req/s, ${ok:-0} of $REQUESTS succeeded (status codes: ${codes:-?})" >&2
  echo "${rps:-0}"
}
APNS="$(run "$APNS_URL" fakeapns)"
NGINX="$(run "http://127.0.0.1:$NGINX_PORT" nginx)"
python3 -c "import sys; o,n=float(sys.argv[1]),float(sys.argv[2]); print(f'fakeapns {o:.0f} req/s, nginx {n:.0f} req/s, ratio {o/n if n else 0:.2f} (target >= 0.50)')" "$APNS" "$NGINX"
