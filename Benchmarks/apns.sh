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

write_apns_payload "$WORK/payload"

start_fake_apns_bench

start_nginx_h2c 200

APNS="$(h2load_apns "$APNS_URL" fakeapns)"
NGINX="$(h2load_apns "$NGINX_URL" nginx)"
ratio fakeapns "$APNS" nginx "$NGINX" " (target >= 0.50)"
