#!/usr/bin/env bash
# Drives FakeBackend through `contract-check serve` with curl, as a CI script would:
# start it in the background, wait for the ready file, register, move, delete, report opens,
# script faults over the admin API, check every status, then stop it with SIGTERM.
#
# Usage: scripts/curl-backend.sh            (builds contract-check in debug first)
#        CONTRACT_CHECK_BIN=/path/to/contract-check scripts/curl-backend.sh   (skip the build)
set -euo pipefail
cd "$(dirname "$0")/.."

CONTRACT_CHECK="${CONTRACT_CHECK_BIN:-${CONTRACT_CHECK:-}}"
if [ -z "$CONTRACT_CHECK" ]; then
    swift build --product contract-check >/dev/null
    CONTRACT_CHECK="$(swift build --show-bin-path)/contract-check"
fi
command -v curl >/dev/null || { echo "curl is required (apt-get install curl)" >&2; exit 1; }

WORK="$(mktemp -d)"
SERVE_PID=""
cleanup() {
    if [ -n "$SERVE_PID" ] && kill -0 "$SERVE_PID" 2>/dev/null; then kill -TERM "$SERVE_PID" 2>/dev/null || true; fi
    if [ -n "${KEEP_LOG:-}" ]; then cp "$WORK/serve.log" "$KEEP_LOG"; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

"$CONTRACT_CHECK" serve --session s1=a1 --session s2=a2 --ready-file "$WORK/ready.json" >"$WORK/serve.log" 2>&1 &
SERVE_PID=$!

for _ in $(seq 1 100); do
    [ -s "$WORK/ready.json" ] && break
    kill -0 "$SERVE_PID" 2>/dev/null || { echo "serve exited early:" >&2; cat "$WORK/serve.log" >&2; exit 1; }
    sleep 0.1
done
[ -s "$WORK/ready.json" ] || { echo "serve did not become ready in 10 s" >&2; exit 1; }

url() { sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p" "$WORK/ready.json"; }
BACKEND="$(url backend)"
ADMIN="$(url admin)"
echo "backend $BACKEND, admin $ADMIN"

FAILURES=0
# expect STATUS DESCRIPTION curl-args... : runs curl, compares the status code.
expect() {
    local want="$1" what="$2"; shift 2
    local got
    got="$(curl -s -o "$WORK/body" -w '%{http_code}' --max-time 5 "$@" || true)"
    if [ "$got" = "$want" ]; then
        echo "ok   $want $what"
    else
        echo "FAIL $what: expected $want, got $got: $(cat "$WORK/body" 2>/dev/null)"
        FAILURES=$((FAILURES + 1))
    fi
}

KEY="$(printf '\004%064d' 0 | head -c 65 | base64 -w0)"
REG="{\"platform\":\"ios\",\"environment\":\"sandbox\",\"appVersion\":\"4.2.0\",\"publicKey\":\"$KEY\"}"
TOKEN=00fa11ceabababababababababababababababababababababababababababab
JSON=(-H 'Content-Type: application/json')

expect 204 "register as a1"             -X PUT "${JSON[@]}" -H 'Authorization: Bearer s1' -d "$REG" "$BACKEND/v1/devices/$TOKEN"
expect 204 "same PUT again"             -X PUT "${JSON[@]}" -H 'Authorization: Bearer s1' -d "$REG" "$BACKEND/v1/devices/$TOKEN"
expect 401 "no bearer"                  -X PUT "${JSON[@]}" -d "$REG" "$BACKEND/v1/devices/$TOKEN"
expect 400 "unknown key in the body"    -X PUT "${JSON[@]}" -H 'Authorization: Bearer s1' -d '{"platform":"ios","account":"a2"}' "$BACKEND/v1/devices/$TOKEN"
grep -q '"violations"' "$WORK/body" || { echo "FAIL 400 without violations"; FAILURES=$((FAILURES + 1)); }
expect 204 "move to a2"                 -X PUT "${JSON[@]}" -H 'Authorization: Bearer s2' -d "$REG" "$BACKEND/v1/devices/$TOKEN"
expect 404 "a1 deletes a2's token"      -X DELETE -H 'Authorization: Bearer s1' "$BACKEND/v1/devices/$TOKEN"
expect 204 "a2 deletes its token"       -X DELETE -H 'Authorization: Bearer s2' "$BACKEND/v1/devices/$TOKEN"
expect 204 "delete an absent token"     -X DELETE -H 'Authorization: Bearer s2' "$BACKEND/v1/devices/$TOKEN"
expect 405 "GET a device"               "$BACKEND/v1/devices/$TOKEN"

expect 201 "admin: throttle the next PUT" -X POST -d '{"endpoint":"putDevice","kind":"status","status":429,"retryAfter":2}' "$ADMIN/faults"
curl -s -D "$WORK/headers" -o /dev/null -X PUT "${JSON[@]}" -H 'Authorization: Bearer s1' -d "$REG" "$BACKEND/v1/devices/$TOKEN"
if grep -qi '^Retry-After: 2' "$WORK/headers" && grep -q ' 429 ' "$WORK/headers"; then echo "ok   429 with Retry-After: 2"
else echo "FAIL throttled PUT: $(head -1 "$WORK/headers")"; FAILURES=$((FAILURES + 1)); fi
expect 204 "the retry goes through"     -X PUT "${JSON[@]}" -H 'Authorization: Bearer s1' -d "$REG" "$BACKEND/v1/devices/$TOKEN"

expect 201 "admin: lose the next opened response" -X POST -d '{"endpoint":"opened","kind":"loseResponse"}' "$ADMIN/faults"
expect 000 "opened, response lost"      -X POST "${JSON[@]}" -H 'Authorization: Bearer s1' -d '{"action":"trackOrder"}' "$BACKEND/v1/notifications/91/opened"
expect 204 "opened, retried"            -X POST "${JSON[@]}" -H 'Authorization: Bearer s1' -d '{"action":"trackOrder"}' "$BACKEND/v1/notifications/91/opened"
OPENS="$(curl -s "$ADMIN/opens?id=91" | grep -o '"notificationID"' | wc -l)"
[ "$OPENS" = "2" ] && echo "ok   both opens recorded (a duplicate)" || { echo "FAIL expected 2 opens, found $OPENS"; FAILURES=$((FAILURES + 1)); }

ACTIVITY=a1c7e05e5e5e5e5e5e5e5e5e5e5e5e5e
expect 204 "Live Activity of 8F3K starts" -X PUT "${JSON[@]}" -H 'Authorization: Bearer s1' -d "{\"pushToken\":\"$ACTIVITY\",\"environment\":\"sandbox\"}" "$BACKEND/v1/orders/8F3K/live-activity"
expect 404 "a2 registers a1's order"    -X PUT "${JSON[@]}" -H 'Authorization: Bearer s2' -d "{\"pushToken\":\"$ACTIVITY\",\"environment\":\"sandbox\"}" "$BACKEND/v1/orders/8F3K/live-activity"
expect 400 "order id with a dot"        -X PUT "${JSON[@]}" -H 'Authorization: Bearer s1' -d "{\"pushToken\":\"$ACTIVITY\",\"environment\":\"sandbox\"}" "$BACKEND/v1/orders/8F3K.1/live-activity"
expect 204 "push-to-start for a1's device" -X PUT "${JSON[@]}" -H 'Authorization: Bearer s1' -d '{"pushToStartToken":"5a5a0001"}' "$BACKEND/v1/devices/$TOKEN/push-to-start"
expect 404 "push-to-start, unknown device" -X PUT "${JSON[@]}" -H 'Authorization: Bearer s1' -d '{"pushToStartToken":"5a5a0001"}' "$BACKEND/v1/devices/00ff/push-to-start"
curl -s "$ADMIN/live-activities" | grep -q "\"pushToken\" : \"$ACTIVITY\"\|\"pushToken\":\"$ACTIVITY\"" && echo "ok   admin lists the activity token" || { echo "FAIL admin /live-activities: $(curl -s "$ADMIN/live-activities")"; FAILURES=$((FAILURES + 1)); }
expect 204 "Live Activity of 8F3K ends" -X DELETE -H 'Authorization: Bearer s1' "$BACKEND/v1/orders/8F3K/live-activity"
expect 404 "ends again: none registered" -X DELETE -H 'Authorization: Bearer s1' "$BACKEND/v1/orders/8F3K/live-activity"

expect 204 "admin: offline"             -X POST -d '{"offline":true}' "$ADMIN/offline"
expect 000 "connection refused"         -X DELETE -H 'Authorization: Bearer s1' "$BACKEND/v1/devices/$TOKEN"
expect 204 "admin: clear faults"        -X DELETE "$ADMIN/faults"
expect 204 "back online"                -X DELETE -H 'Authorization: Bearer s1' "$BACKEND/v1/devices/$TOKEN"
expect 200 "admin: journal"             "$ADMIN/journal"

kill -TERM "$SERVE_PID"
STATUS=0
wait "$SERVE_PID" || STATUS=$?
SERVE_PID=""
[ "$STATUS" = "0" ] && echo "ok   serve stopped on SIGTERM with 0" || { echo "FAIL serve exited $STATUS"; FAILURES=$((FAILURES + 1)); }
[ ! -e "$WORK/ready.json" ] && echo "ok   ready file removed" || { echo "FAIL ready file left behind"; FAILURES=$((FAILURES + 1)); }
LOGGED="$(grep -c ' /v1/' "$WORK/serve.log" || true)"
echo "serve logged $LOGGED requests"

if [ "$FAILURES" -ne 0 ]; then
    echo "$FAILURES check(s) failed; serve's log:"; cat "$WORK/serve.log"
    exit 1
fi
echo "all checks passed"
