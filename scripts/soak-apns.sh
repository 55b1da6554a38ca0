#!/usr/bin/env bash
# Soak for FakeAPNs: REQUESTS HTTP/2 pushes (valid, invalid, refused, wrong routes) with
# h2load through FakeAPNs as `contract-check serve` runs it, then the same health checks
# as scripts/soak.sh, including journal count equality through the admin API.
# Loopback only; bounded in time.
#
#   scripts/soak-apns.sh [REQUESTS]       default 1000000
#
# serve runs with the public development key (Fixtures/dev), every well-formed device
# token accepted, topic com.example.app; the provider token comes from the admin API.
# Environment: SOAK_SECONDS (default 900) bounds each h2load run; SOAK_MAX_RSS_MB (default
# 128); SOAK_BIN uses an already built contract-check.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
requests="${1:-1000000}"
[[ "$requests" =~ ^[0-9]+$ ]] && (( requests >= 1000 )) || { echo "Usage: scripts/soak-apns.sh [REQUESTS >= 1000]" >&2; exit 64; }
seconds="${SOAK_SECONDS:-900}"
max_rss_mb="${SOAK_MAX_RSS_MB:-128}"
for tool in h2load curl python3; do
    command -v "$tool" >/dev/null || { echo "Error: $tool is missing (scripts/install-peers.sh installs nghttp2-client)" >&2; exit 69; }
done
if [[ -z "${SOAK_BIN:-}" ]]; then
    echo "Building contract-check (release)" >&2
    swift build -c release --product contract-check >&2
    SOAK_BIN="$(swift build -c release --show-bin-path)/contract-check"
fi

source scripts/soak-common.sh
start_serve --apns-topic com.example.app --apns-any-token \
    --apns-key DEVKEY0001:DEVTEAM001:Fixtures/dev/AuthKey_DEVKEY0001.p8
url="$(ready_field apns)"; admin="$(ready_field admin)"
token="$(curl -sS --max-time 10 "$admin/apns/provider-token")"
[[ -n "$url" && -n "$token" ]] || { echo "Error: serve gave no APNs URL or provider token" >&2; exit 1; }
echo "FakeAPNs $url (contract-check serve, pid $server_pid)" >&2

device="$(printf 'ab%.0s' $(seq 1 32))"
printf '%s' '{"aps":{"alert":{"title":"Soak","body":"Hello"},"sound":"default"}}' > "$work/payload.json"
printf '%s' '{"aps":' > "$work/broken.json"
answers() {
    curl -sS -o /dev/null -w '%{http_code}' --max-time 5 --http2-prior-knowledge -X POST \
        -H "authorization: bearer $token" -H 'apns-topic: com.example.app' -H 'apns-push-type: alert' \
        --data-binary @"$work/payload.json" "$url/3/device/$device"
}
[[ "$(answers)" == "200" ]] || { echo "Error: FakeAPNs does not accept a push before the soak" >&2; exit 1; }
sleep 1
take_baseline

each=$(( requests / 4 ))
answered=0
run() {
    local name="$1"; shift
    timeout "$seconds" h2load -n "$each" -c 8 -m 32 -H "authorization: bearer $token" -H 'apns-push-type: alert' "$@" \
        > "$work/$name.out" 2>&1 || true
    local codes count
    codes="$(sed -n 's/^status codes: //p' "$work/$name.out")"
    count="$(sed -n 's/^status codes: \([0-9]*\) 2xx, \([0-9]*\) 3xx, \([0-9]*\) 4xx, \([0-9]*\) 5xx.*/\1 \2 \3 \4/p' "$work/$name.out" | awk '{ print $1 + $2 + $3 + $4 }')"
    echo "  $name: ${count:-0} answered ($codes)" >&2
    answered=$(( answered + ${count:-0} ))
}
started=$(date +%s.%N)
# Valid pushes to 3 devices; a broken payload; a wrong topic and a bad device token; an
# unknown path and the wrong method.
run valid -d "$work/payload.json" -H 'apns-topic: com.example.app' \
    "$url/3/device/$device" "$url/3/device/${device:0:62}cd" "$url/3/device/${device:0:62}ef"
run broken-payload -d "$work/broken.json" -H 'apns-topic: com.example.app' "$url/3/device/$device"
run refused -d "$work/payload.json" -H 'apns-topic: com.example.other' "$url/3/device/$device" "$url/3/device/not-hex"
run routes -H 'apns-topic: com.example.app' "$url/3/device/$device" "$url/4/nowhere"
finished=$(date +%s.%N)

wait_settled
total="$(journal_total "$admin/apns/journal")"
code="$(answers)"
rate="$(python3 -c "print(f'{$answered / ($finished - $started):.0f}')")"
elapsed="$(python3 -c "print(f'{$finished - $started:.1f}')")"
echo "" >&2
echo "soak (FakeAPNs): $answered of $(( each * 4 )) answered in ${elapsed}s ($rate req/s)" >&2
echo "  journal total $total (entries + dropped) vs answered $answered (+ 1 health check before)" >&2

failures=()
health_report
[[ "$code" == "200" ]] || failures+=("FakeAPNs answered $code after the soak")
(( answered == each * 4 )) || failures+=("only $answered of $(( each * 4 )) requests were answered")
(( total - 1 == answered )) || failures+=("the journal holds $((total - 1)) soak requests, the load tool counted $answered answers")
if [[ ${#failures[@]} -gt 0 ]]; then
    printf 'SOAK FAILURE: %s\n' "${failures[@]}" >&2
    exit 1
fi
echo "soak passed" >&2
