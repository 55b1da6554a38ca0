#!/usr/bin/env bash
# Instructions per request, counted by callgrind: independent of the machine's load, so it
# can be compared across commits on a busy machine (wall-clock ratios cannot).
#
#   Benchmarks/callgrind.sh serve   [BINARY]   contract-check serve --quiet --no-apns, wrk PUT
#   Benchmarks/callgrind.sh log     [BINARY]   contract-check serve --no-apns (live log to a file)
#   Benchmarks/callgrind.sh defaults [BINARY]  contract-check serve with its defaults (log, FakeAPNs)
#   Benchmarks/callgrind.sh echo    [BINARY]   loopback-echo-server, wrk PUT (answers 204)
#   Benchmarks/callgrind.sh handler [BINARY]   as serve, counting only FakeBackend.handle (and callees)
#
# The server runs under valgrind; counters are zeroed once it is ready, wrk sends PUTs of the
# backend.sh registration on one connection for DURATION (default 20s), the counters are
# dumped, and the total is divided by the requests answered (the journal's count for serve,
# wrk's for echo). For `handler`, only FakeBackend.handle and its callees are counted: the
# handler alone, as backend-start-benchmark times it (valgrind cannot run that benchmark). BINARY defaults to the release build; CALLGRIND_OUT=file
# keeps the profile (callgrind_annotate file).
#
# Needs: valgrind, wrk, python3, curl.
set -euo pipefail
cd "$(dirname "$0")/.."
MODE="${1:-serve}"
DURATION="${DURATION:-20s}"
BIN_DIR="$(swift build -c release --show-bin-path)"
WORK="$(mktemp -d)"
PID=""
cleanup() { [ -n "$PID" ] && kill -TERM "$PID" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

total_instructions() { sed -n 's/^summary: \([0-9]*\).*/\1/p' "$1" | head -1; }

TOKEN=00fa11ceabababababababababababababababababababababababababababab
python3 - "$WORK/put.lua" <<'PY'
import base64, sys
key = base64.b64encode(bytes([4]) + bytes(range(1, 65))).decode()
body = '{"platform":"ios","environment":"production","appVersion":"4.2.0","publicKey":"%s"}' % key
body = body[:-1] + " " * (200 - len(body)) + "}"
open(sys.argv[1], "w").write('''wrk.method = "PUT"
wrk.body = '%s'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer bench"
''' % body)
PY

case "$MODE" in
serve|log|handler|defaults)
    BINARY="${2:-$BIN_DIR/contract-check}"
    flags=(--session bench=acct --ready-file "$WORK/ready.json")
    [ "$MODE" != defaults ] && flags+=(--no-apns)
    [ "$MODE" != log ] && [ "$MODE" != defaults ] && flags+=(--quiet)
    toggle=()
    [ "$MODE" = handler ] && toggle=(--toggle-collect='$s11FakeBackendAAC6handley12LoopbackHTTP12HTTPResponseVAD11HTTPRequestVF')
    valgrind --tool=callgrind --callgrind-out-file="$WORK/out" "${toggle[@]}" "$BINARY" serve "${flags[@]}" \
        >"$WORK/serve.log" 2>"$WORK/valgrind.log" &
    PID=$!
    for _ in $(seq 1 600); do [ -s "$WORK/ready.json" ] && break; sleep 0.1; done
    URL="$(sed -n 's/.*"backend":"\([^"]*\)".*/\1/p' "$WORK/ready.json")"
    ADMIN="$(sed -n 's/.*"admin":"\([^"]*\)".*/\1/p' "$WORK/ready.json")"
    ;;
echo)
    BINARY="${2:-$BIN_DIR/loopback-echo-server}"
    valgrind --tool=callgrind --callgrind-out-file="$WORK/out" "$BINARY" >"$WORK/serve.log" 2>"$WORK/valgrind.log" &
    PID=$!
    for _ in $(seq 1 600); do grep -q '^listening' "$WORK/serve.log" && break; sleep 0.1; done
    URL="$(sed -n 's/^listening //p' "$WORK/serve.log")"
    ;;
*) echo "Usage: Benchmarks/callgrind.sh serve|log|defaults|echo|handler [BINARY]" >&2; exit 64 ;;
esac
[ -n "$URL" ] || { echo "the server did not start" >&2; cat "$WORK/valgrind.log" >&2; exit 1; }

wrk -t1 -c1 -d2s -s "$WORK/put.lua" "$URL/v1/devices/$TOKEN" >/dev/null   # warm-up
journal_count() { curl -s "$ADMIN/journal" | python3 -c 'import json,sys; j=json.load(sys.stdin); print(len(j["entries"]) + j["dropped"])'; }
before=0
[ "$MODE" != echo ] && before="$(journal_count)"
callgrind_control -z "$PID" >/dev/null 2>&1
wrk -t1 -c1 -d"$DURATION" -s "$WORK/put.lua" "$URL/v1/devices/$TOKEN" >"$WORK/wrk.out"
callgrind_control -d "$PID" >/dev/null 2>&1
if [ "$MODE" = echo ]; then
    requests="$(sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' "$WORK/wrk.out")"
else
    after="$(journal_count)"   # read after the dump: not counted
    requests=$((after - before))
fi
sleep 1
dump="$(ls -t "$WORK"/out.* | head -1)"
total="$(total_instructions "$dump")"
[ -n "${CALLGRIND_OUT:-}" ] && cp "$dump" "$CALLGRIND_OUT"
python3 -c 'import sys; t,n=int(sys.argv[1]),int(sys.argv[2]); print("%s: %d instructions / %d requests = %.0f instructions per request" % (sys.argv[3], t, n, t/n))' \
    "$total" "$requests" "$MODE ($(basename "$BINARY"))"
