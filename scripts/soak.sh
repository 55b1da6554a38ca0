#!/usr/bin/env bash
# Soak: REQUESTS mixed requests through FakeBackend started by `contract-check serve`,
# over HTTP/1.1 (wrk, 60 %) and HTTP/2 prior knowledge (h2load, 40 %), with faults on,
# then checks the server is still healthy. Loopback only; bounded in time.
#
#   scripts/soak.sh [REQUESTS]        default 1000000; e.g. scripts/soak.sh 50000 in CI
#
# Environment: SOAK_SECONDS (default 900) bounds each load phase; SOAK_MAX_RSS_MB (default
# 128) is the peak-memory bound; SOAK_BIN uses an already built contract-check.
#
# Mix (HTTP/1.1, rotated by scripts/soak-backend.lua): device registrations for 16 tokens,
# deletes, opened reports (valid), and JSON syntax errors, contract violations, bad path
# parameters, missing bearer, unknown routes, wrong methods, non-JSON bodies (invalid).
# HTTP/2: registrations, opened reports, contract violations and 404s. Faults set through
# the admin API for the whole run: 503 (2 %), 429 + Retry-After (2 %), 2 ms delay (1 %).
# Faults that withhold an answer (hang, reset, loseResponse) are left out so every
# request the server journals is one the load tools can count.
#
# Checks afterwards:
#   - the backend still answers (PUT, and the admin API's journal);
#   - open fds (/proc/PID/fd) and threads (/proc/PID/task) are back to their counts
#     before the load (waited for, up to 30 s);
#   - peak memory (VmHWM) stays under SOAK_MAX_RSS_MB with the journal capped at 10,000;
#   - journal count equality: journal entries + dropped == responses h2load counted
#     (exact), plus responses wrk counted, plus at most one in-flight request per wrk
#     connection (wrk stops a thread mid-flight when its share is answered).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
requests="${1:-1000000}"
[[ "$requests" =~ ^[0-9]+$ ]] && (( requests >= 1000 )) || { echo "Usage: scripts/soak.sh [REQUESTS >= 1000]" >&2; exit 64; }
seconds="${SOAK_SECONDS:-900}"
max_rss_mb="${SOAK_MAX_RSS_MB:-128}"

for tool in wrk h2load curl python3; do
    command -v "$tool" >/dev/null || { echo "Error: $tool is missing (scripts/install-peers.sh installs wrk and nghttp2-client)" >&2; exit 69; }
done

if [[ -z "${SOAK_BIN:-}" ]]; then
    echo "Building contract-check (release)" >&2
    swift build -c release --product contract-check >&2
    SOAK_BIN="$(swift build -c release --show-bin-path)/contract-check"
fi

source scripts/soak-common.sh
start_serve
backend="$(ready_field backend)"; admin="$(ready_field admin)"
echo "backend $backend, admin $admin, pid $server_pid" >&2

token="e3b53618dc34756b82873ffe5b4214615ebad4f51fb3bc4f447d0327be70eb50"
registration='{"platform":"ios","environment":"production","appVersion":"4.2.0","publicKey":"BHz6Zs7Pancw8wAhX5FIyDIE1sgm40WRl2ybk5tt41lNUyWzX/mOHnSQMMR2p3XiCV2BEcdEbBO2VTsf1d3ie/Y="}'
answers() {
    curl -sS -o /dev/null -w '%{http_code}' --max-time 5 -X PUT -H 'Authorization: Bearer soak' \
        -H 'Content-Type: application/json' --data "$registration" "$backend/v1/devices/$token"
}

# Warm up (first connections create the loop's buffers), then take the baseline.
[[ "$(answers)" == "200" || "$(answers)" == "204" ]] || { echo "Error: the backend does not answer before the soak" >&2; exit 1; }
curl -sS -o /dev/null --max-time 5 -X POST "$admin/reset"
sleep 1
take_baseline

for fault in '{"kind":"status","status":503,"probability":0.02,"seed":1}' \
             '{"kind":"status","status":429,"retryAfter":1,"probability":0.02,"seed":2}' \
             '{"kind":"delay","delayMs":2,"probability":0.01,"seed":3}'; do
    code="$(curl -sS -o "$work/fault.out" -w '%{http_code}' --max-time 5 -X POST -H 'Content-Type: application/json' --data "$fault" "$admin/faults")"
    [[ "$code" == 2* ]] || { cat "$work/fault.out" >&2; echo "Error: the admin API refused fault $fault ($code)" >&2; exit 1; }
done

h1_requests=$(( requests * 6 / 10 ))
h2_each=$(( (requests - h1_requests) / 4 ))
wrk_threads=2; wrk_connections=32
started=$(date +%s.%N)

echo "HTTP/1.1: $h1_requests requests with wrk ($wrk_threads threads, $wrk_connections connections)" >&2
mkdir -p "$work/wrk-done"
wrk -t"$wrk_threads" -c"$wrk_connections" -d"${seconds}s" --timeout 10s -s scripts/soak-backend.lua \
    "$backend" -- "$h1_requests" "$wrk_threads" "$work/wrk-done" > "$work/wrk.out" 2>&1 &
wrk_pid=$!
# wrk runs for its duration unless interrupted: SIGINT once every thread has its share.
while kill -0 "$wrk_pid" 2>/dev/null; do
    if [[ "$(ls "$work/wrk-done" | wc -l)" -ge "$wrk_threads" ]]; then kill -INT "$wrk_pid" 2>/dev/null || true; break; fi
    sleep 0.2
done
wait "$wrk_pid" || { cat "$work/wrk.out" >&2; echo "Error: wrk failed" >&2; exit 1; }
grep -q '^wrk-requests ' "$work/wrk.out" || { cat "$work/wrk.out" >&2; echo "Error: wrk printed no summary" >&2; exit 1; }
# wrk's own count of completed responses (its Lua per-thread counters can miss the last
# responses a stopping thread reads).
wrk_responses="$(awk '$1 == "wrk-requests" { print $2 }' "$work/wrk.out")"
wrk_errors="$(grep '^errors ' "$work/wrk.out" || true)"

# HTTP/2: four h2load runs of h2_each requests (h2load counts exactly).
printf '%s' "$registration" > "$work/registration.json"
printf '%s' '{"action":"open"}' > "$work/open.json"
printf '%s' '{"platform":"android","extra":1}' > "$work/violation.json"
h2_responses=0
h2run() {
    local name="$1"; shift
    timeout "$seconds" h2load -n "$h2_each" -c 8 -m 16 -H 'authorization: Bearer soak' \
        -H 'content-type: application/json' "$@" > "$work/h2-$name.out" 2>&1 || true
    local done_count
    done_count="$(sed -n 's/^requests: .* \([0-9]*\) done, .*/\1/p' "$work/h2-$name.out")"
    local codes
    codes="$(sed -n 's/^status codes: //p' "$work/h2-$name.out")"
    echo "  h2 $name: ${done_count:-0} done ($codes)" >&2
    # Responses with a status: 2xx + 3xx + 4xx + 5xx.
    local answered
    answered="$(sed -n 's/^status codes: \([0-9]*\) 2xx, \([0-9]*\) 3xx, \([0-9]*\) 4xx, \([0-9]*\) 5xx.*/\1 \2 \3 \4/p' "$work/h2-$name.out" | awk '{ print $1 + $2 + $3 + $4 }')"
    h2_responses=$(( h2_responses + ${answered:-0} ))
}
echo "HTTP/2: 4 x $h2_each requests with h2load" >&2
h2run register -H ':method: PUT' -d "$work/registration.json" \
    "$backend/v1/devices/${token}" "$backend/v1/devices/${token:0:62}aa"
h2run opened -d "$work/open.json" "$backend/v1/notifications/91/opened"
h2run violation -H ':method: PUT' -d "$work/violation.json" "$backend/v1/devices/${token}"
h2run notfound "$backend/v1/nowhere" "$backend/v1/devices/${token}/extra"
finished=$(date +%s.%N)

curl -sS -o /dev/null --max-time 5 -X DELETE "$admin/faults"
# Let connections close and timers fire, then compare.
wait_settled
code="$(answers)"
total="$(journal_total "$admin/journal")"
elapsed="$(python3 -c "print(f'{$finished - $started:.1f}')")"
answered=$(( wrk_responses + h2_responses ))
rate="$(python3 -c "print(f'{$answered / ($finished - $started):.0f}')")"

echo "" >&2
echo "soak: $answered responses in ${elapsed}s ($rate req/s): HTTP/1.1 $wrk_responses, HTTP/2 $h2_responses" >&2
echo "  wrk statuses: $(grep '^status ' "$work/wrk.out" | awk '{ printf "%s=%s ", $2, $3 }')" >&2
echo "  wrk $wrk_errors" >&2
echo "  journal total $total (entries + dropped) vs answered $answered (+ 1 health check)" >&2

failures=()
health_report
[[ "$code" == "200" || "$code" == "204" ]] || failures+=("the backend answered $code after the soak")
# The journal has every answered request (+1: the health check after the soak), and at
# most one more per wrk connection (in flight when wrk stopped that thread).
journaled=$(( total - 1 ))
(( journaled >= answered )) || failures+=("journal has $journaled requests, fewer than the $answered answered")
(( journaled <= answered + wrk_connections )) || failures+=("journal has $journaled requests, more than $answered answered + $wrk_connections in flight")
(( answered >= requests * 9 / 10 )) || failures+=("only $answered of $requests requests were answered")
if [[ ${#failures[@]} -gt 0 ]]; then
    printf 'SOAK FAILURE: %s\n' "${failures[@]}" >&2
    exit 1
fi
echo "soak passed" >&2
