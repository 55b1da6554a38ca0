#!/usr/bin/env bash
# FakeAPNs throughput: h2load sends APNs pushes (valid headers, one fixed valid ES256
# provider token, a 300-byte v1 payload) over h2c to FakeAPNs — which validates every
# request in Apple's order, checks the token (verified once per connection, as APNs
# caches it), journals and delivers; the payload is the same on every request, so the
# payload contract runs only until the inspection cache holds it and the cache answers the
# rest (this measures a fan-out, not contract checking) — and to nginx-light
# answering `return 200;` on the same run; prints the ratio. Target: ratio >= 0.5.
#
#   Benchmarks/apns.sh [REQUESTS]        (default 100000; -c 8 -m 32)
#
# Needs: h2load (nghttp2-client) and nginx-light: apt-get install -y nghttp2-client nginx-light
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS="${1:-100000}"
source Benchmarks/h2-common.sh

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

swift build -c release --product fake-apns-bench-server >&2
BIN="$(swift build -c release --show-bin-path)/fake-apns-bench-server"
"$BIN" > "$WORK/apns.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do grep -q '^token ' "$WORK/apns.log" && break; sleep 0.1; done
APNS_URL="$(sed -n 's/^listening //p' "$WORK/apns.log")"
TOKEN="$(sed -n 's/^token //p' "$WORK/apns.log")"
[ -n "$APNS_URL" ] && [ -n "$TOKEN" ] || { echo "Error: fake-apns-bench-server did not start: $(cat "$WORK/apns.log")" >&2; exit 1; }

start_nginx_h2c 200

DEVICE="$(printf 'ab%.0s' $(seq 1 32))"
run() {
  h2load -n "$REQUESTS" -c 8 -m 32 -d "$WORK/payload" \
    -H "authorization: bearer $TOKEN" -H "apns-topic: com.example.app" \
    -H "apns-push-type: alert" -H "apns-priority: 10" \
    "$1/3/device/$DEVICE" > "$WORK/$2.out" 2>&1 || true
  h2load_report "$2"
}
APNS="$(run "$APNS_URL" fakeapns)"
NGINX="$(run "$NGINX_URL" nginx)"
ratio fakeapns "$APNS" nginx "$NGINX" " (target >= 0.50)"
