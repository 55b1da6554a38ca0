#!/usr/bin/env bash
# FakeAPNs throughput: h2load sends APNs pushes (valid headers, one fixed valid ES256
# provider token, a 300-byte v1 payload) over h2c to FakeAPNs — which validates every
# request in Apple's order, checks the token (verified once per connection, as APNs
# caches it), journals and delivers; the payload is the same on every request, so the
# payload contract runs only until the inspection cache holds it and the cache answers the
# rest (this measures a fan-out, not contract checking) — and to nginx-light
# answering `return 200;` on the same run; prints the ratio. Target: ratio >= 0.5.
# A second line does the same with a different payload on every request (so every push is
# parsed and checked against the contract: the cache never hits), sent by apns-load
# (Benchmarks/APNsLoad: h2load cannot vary its body) to both servers; a third sends the
# fixed payload with apns-load to nginx, so its figure beside h2load's shows what the
# client itself costs. Target for the second line too: ratio >= 0.5.
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
swift build -c release --product apns-load >&2

start_nginx_h2c 200

APNS="$(h2load_apns "$APNS_URL" fakeapns)"
NGINX="$(h2load_apns "$NGINX_URL" nginx)"
ratio fakeapns "$APNS" nginx "$NGINX" " (target >= 0.50)"
APNS_VARIED="$(apns_load "$APNS_URL" fakeapns-varied)"
NGINX_VARIED="$(apns_load "$NGINX_URL" nginx-varied)"
NGINX_CLIENT="$(apns_load "$NGINX_URL" nginx-apns-load-fixed --payload "$WORK/payload")"
ratio "fakeapns (a different payload each request)" "$APNS_VARIED" nginx "$NGINX_VARIED" " (target >= 0.50)"
ratio "apns-load, fixed payload, to nginx" "$NGINX_CLIENT" "h2load" "$NGINX" " (the client's own cost: near 1 or above)"
