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
# A fourth line sends Live Activity updates with apns-load --live-activity (priority 5, a
# different 300-byte live-activity-payload body each with a rising aps.timestamp, each
# connection to its own activity, so every update is read, checked against the contract and
# applied to the activity) and divides by the same nginx figure as the second line: the
# clients do the same work, only FakeAPNs' path differs. No target yet: at c9ab1da an update
# costs ~204,600 instructions against an alert push's ~83,000 (callgrind.sh apns-la, apns).
# ROUNDS rounds (default 3), the servers taking turns within each, so load from other
# processes falls on both; each line is the ratio of medians. The commit and the load
# average before and after are printed (a run that began above 1.5, or ended above 3.5 — its
# own client and server add ~2 — is marked: loaded machine).
#
#   Benchmarks/apns.sh [REQUESTS]        (default 100000; -c 8 -m 32)   ROUNDS=5 Benchmarks/apns.sh
#
# Needs: h2load (nghttp2-client) and nginx-light: apt-get install -y nghttp2-client nginx-light
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS="${1:-100000}"
source Benchmarks/h2-common.sh

write_apns_payload "$WORK/payload"

start_fake_apns_bench
swift build -c release --package-path Benchmarks --product apns-load >&2

start_nginx_h2c 200

ROUNDS="${ROUNDS:-3}"
LOAD_BEFORE="$(load_average)"
APNS=(); NGINX=(); APNS_VARIED=(); NGINX_VARIED=(); NGINX_CLIENT=(); APNS_LIVE=()
for round in $(seq 1 "$ROUNDS"); do
  APNS+=("$(h2load_apns "$APNS_URL" fakeapns)")
  NGINX+=("$(h2load_apns "$NGINX_URL" nginx)")
  APNS_VARIED+=("$(apns_load "$APNS_URL" fakeapns-varied)")
  APNS_LIVE+=("$(apns_load "$APNS_URL" fakeapns-liveactivity --live-activity)")
  NGINX_VARIED+=("$(apns_load "$NGINX_URL" nginx-varied)")
  NGINX_CLIENT+=("$(apns_load "$NGINX_URL" nginx-apns-load-fixed --payload "$WORK/payload")")
done
LOAD_AFTER="$(load_average)"
median() { printf '%s\n' "$@" | python3 -c 'import statistics,sys; print(statistics.median(float(x) for x in sys.stdin))'; }
echo "commit $(commit_label), $ROUNDS rounds, medians; load average $LOAD_BEFORE before, $LOAD_AFTER after"
# The run keeps two processes busy (client and server): ~2 after it is its own load.
python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) <= 1.5 and float(sys.argv[2]) <= 3.5 else 1)' ${LOAD_BEFORE%% *} ${LOAD_AFTER%% *} \
  || echo "loaded machine (load average > 1.5 before, or > 3.5 after: the run's own ~2 plus 1.5): the ratios below may not reproduce"
ratio fakeapns "$(median "${APNS[@]}")" nginx "$(median "${NGINX[@]}")" " (target >= 0.50)"
ratio "fakeapns (a different payload each request)" "$(median "${APNS_VARIED[@]}")" nginx "$(median "${NGINX_VARIED[@]}")" " (target >= 0.50)"
ratio "fakeapns (Live Activity updates, a different payload each)" "$(median "${APNS_LIVE[@]}")" nginx "$(median "${NGINX_VARIED[@]}")" " (no target yet)"
ratio "apns-load, fixed payload, to nginx" "$(median "${NGINX_CLIENT[@]}")" "h2load" "$(median "${NGINX[@]}")" " (the client's own cost: near 1 or above)"
