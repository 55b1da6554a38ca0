#!/usr/bin/env bash
# Instructions per request, counted by callgrind: independent of the machine's load, so it
# can be compared across commits on a busy machine (wall-clock ratios cannot).
#
#   Benchmarks/callgrind.sh serve   [BINARY]   contract-check serve --quiet --no-apns, wrk PUT
#   Benchmarks/callgrind.sh log     [BINARY]   contract-check serve --no-apns (live log to a file)
#   Benchmarks/callgrind.sh defaults [BINARY]  contract-check serve with its defaults (log, FakeAPNs)
#   Benchmarks/callgrind.sh echo    [BINARY]   loopback-echo-server, wrk PUT (answers 204)
#   Benchmarks/callgrind.sh nginx   [BINARY]   nginx-light answering `return 204` (backend.sh's reference), wrk
#                                              PUT, run as one process (master_process off)
#   Benchmarks/callgrind.sh nginx-log [BINARY] as nginx, writing its access log to a file (combined, 64 KiB
#                                              buffer: backend.sh's NGINX_LOG=1 reference), a line a request
#   Benchmarks/callgrind.sh handler [BINARY]   as serve, counting only FakeBackend.handle (and callees)
#   Benchmarks/callgrind.sh serve-varied [BINARY]  as serve, the body 200 and 201 bytes in turns, so that no
#                                              head's field lines repeat the one's before (Content-Length
#                                              differs): the head is walked every time (HTTP1RequestHead.FieldBlock)
#   Benchmarks/callgrind.sh apns    [BINARY]   fake-apns-bench-server over h2c, apns-load pushes,
#                                              a different valid 300-byte payload on every push
#   Benchmarks/callgrind.sh apns-la [BINARY]   as apns, Live Activity updates (apns-load --live-activity)
#   Benchmarks/callgrind.sh tls     [BINARY]   fake-apns-bench-server --tls, h2load pushes over TLS 1.3 (tls.sh's
#                                              requests): two runs of TLS_WARM (2,000) and TLS_WARM + TLS_REQUESTS
#                                              (10,000 more) pushes on 8 connections, each with the counters
#                                              zeroed before and dumped after; the difference over TLS_REQUESTS
#                                              is the cost per push on open connections (handshakes cancel out),
#                                              with the share in TLSRecordCipher (records, AES-GCM) beside it
#   Benchmarks/callgrind.sh apns-fixed [BINARY] as apns, apns.sh's fixed 300-byte payload on every
#                                              push (its first line: the inspection cache answers)
#   Benchmarks/callgrind.sh handshakes [BINARY] fake-apns-bench-server --tls, full TLS 1.3 handshakes from
#                                              openssl s_time -new (tls.sh's handshakes), counted for
#                                              HANDSHAKE_SECONDS (default 15) after a warm-up; the whole
#                                              process divided by s_time's count
#
# The server runs under valgrind; counters are zeroed once it is ready, wrk sends PUTs of the
# backend.sh registration on one connection for DURATION (default 20s), the counters are
# dumped, and the total is divided by the requests answered (the journal's count for serve,
# wrk's for echo and nginx); for `log` and `defaults` a second line splits off the live log's writer
# thread, which formats and writes the request lines beside the loop. For `handler`, only FakeBackend.handle and its callees are counted: the
# handler alone, as backend-start-benchmark times it (valgrind cannot run that benchmark).
# For `apns`, FakeAPNs (Benchmarks/FakeAPNsServer, as apns.sh starts it) runs under valgrind
# and apns-load (Benchmarks/APNsLoad, -c 8 -m 32 as apns.sh) sends the pushes, each with a
# different valid payload: a warm-up of 2,000 pushes, which also times the server, then —
# counters zeroed — as many more pushes on the same connections as that rate fits in
# DURATION, every one answered 200 (the script fails otherwise), so the count is exact; the
# whole process is divided by it, and the inclusive cost of FakeAPNs.handle (validation,
# payload contract, journal, response) per push is printed as a second line. Build both
# first, in the benchmark package (Benchmarks/Package.swift):
# swift build -c release --package-path Benchmarks --product fake-apns-bench-server (and
# --product apns-load); `echo` likewise needs loopback-echo-server.
# BINARY defaults to the release build; CALLGRIND_OUT=file keeps the profile
# (callgrind_annotate file).
#
# Needs: valgrind, wrk, python3, curl (apns: valgrind, python3; nginx, nginx-log: nginx-light too).
set -euo pipefail
cd "$(dirname "$0")/.."
MODE="${1:-serve}"
DURATION="${DURATION:-20s}"
BIN_DIR="$(swift build -c release --show-bin-path)"                              # contract-check
BENCH_BIN_DIR="$(swift build -c release --package-path Benchmarks --show-bin-path)"   # the rest
WORK="$(mktemp -d)"
PID=""
cleanup() { [ -n "$PID" ] && kill -TERM "$PID" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

total_instructions() { sed -n 's/^summary: \([0-9]*\).*/\1/p' "$1" | head -1; }

TOKEN=00fa11ceabababababababababababababababababababababababababababab
python3 - "$WORK/put.lua" "$MODE" <<'PY'
import base64, sys
key = base64.b64encode(bytes([4]) + bytes(range(1, 65))).decode()
body = '{"platform":"ios","environment":"production","appVersion":"4.2.0","publicKey":"%s"}' % key
body = body[:-1] + " " * (200 - len(body)) + "}"
script = '''wrk.method = "PUT"
wrk.body = '%s'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer bench"
''' % body
if sys.argv[2] == "serve-varied":
    # The same registration, one byte of JSON whitespace more every other request.
    script += '''local bodies = { wrk.body, wrk.body:sub(1, -2) .. " }" }
local turn = 0
request = function()
    turn = 1 - turn
    return wrk.format(nil, nil, nil, bodies[turn + 1])
end
'''
open(sys.argv[1], "w").write(script)
PY

# start_tls_server BINARY: fake-apns-bench-server --tls under callgrind; sets BINARY, PID, URL, JWT.
start_tls_server() {
    BINARY="$1"
    valgrind --tool=callgrind --callgrind-out-file="$WORK/out" "$BINARY" --tls >"$WORK/serve.log" 2>"$WORK/valgrind.log" &
    PID=$!
    for _ in $(seq 1 600); do grep -q '^token ' "$WORK/serve.log" && break; sleep 0.1; done
    URL="$(sed -n 's/^listening //p' "$WORK/serve.log")"
    JWT="$(sed -n 's/^token //p' "$WORK/serve.log")"
    [ -n "$URL" ] || { echo "the server did not start" >&2; cat "$WORK/valgrind.log" >&2; exit 1; }
}

case "$MODE" in
serve|serve-varied|log|handler|defaults)
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
apns-fixed)
    # apns.sh's payload (h2-common.sh's write_apns_payload), sent with apns-load --payload; then as apns.
    (payload="$WORK/payload"; source Benchmarks/h2-common.sh; write_apns_payload "$payload")
    ;&
echo|apns|apns-la)
    # Both print `listening URL`; fake-apns-bench-server then `token JWT`, its last line.
    BINARY="${2:-$BENCH_BIN_DIR/$([ "$MODE" = echo ] && echo loopback-echo-server || echo fake-apns-bench-server)}"
    last="$([ "$MODE" = echo ] && echo listening || echo token)"
    valgrind --tool=callgrind --callgrind-out-file="$WORK/out" "$BINARY" >"$WORK/serve.log" 2>"$WORK/valgrind.log" &
    PID=$!
    for _ in $(seq 1 600); do grep -q "^$last " "$WORK/serve.log" && break; sleep 0.1; done
    URL="$(sed -n 's/^listening //p' "$WORK/serve.log")"
    JWT="$(sed -n 's/^token //p' "$WORK/serve.log")"
    ;;
tls)
    start_tls_server "${2:-$BENCH_BIN_DIR/fake-apns-bench-server}"
    # tls.sh's payload (write_apns_payload; a subshell: h2-common.sh sets its own WORK and trap).
    (payload="$WORK/payload"; source Benchmarks/h2-common.sh; write_apns_payload "$payload")
    device="$(printf 'ab%.0s' $(seq 1 32))"
    # push N: N pushes from h2load (-c 8 -m 32, tls.sh's headers and payload), on new connections.
    push() {
        h2load -n "$1" -c 8 -m 32 -d "$WORK/payload" -H "authorization: bearer $JWT" -H "apns-topic: com.example.app" \
            -H "apns-push-type: alert" -H "apns-priority: 10" "$URL/3/device/$device" >"$WORK/h2load.out" 2>&1 || true
    }
    # run N: push N between zeroing and dumping the counters, every one answered 200;
    # prints "total-instructions record-layer-instructions" of that run.
    run() {
        callgrind_control -z "$PID" >/dev/null 2>&1
        push "$1"
        grep -q "^status codes: $1 2xx" "$WORK/h2load.out" \
            || { echo "Error: not every push was answered 200:" >&2; cat "$WORK/h2load.out" >&2; exit 1; }
        rm -f "$WORK"/out.*
        callgrind_control -d "$PID" >/dev/null 2>&1
        sleep 1
        local dump records
        dump="$(ls -t "$WORK"/out.* | head -1)"
        [ -n "${CALLGRIND_OUT:-}" ] && cp "$dump" "$CALLGRIND_OUT.$1"
        # TLSRecordCipher.seal and .open, inclusive (sealing, opening, AES-GCM, GHASH).
        records="$(callgrind_annotate --inclusive=yes --threshold=100 "$dump" 2>/dev/null \
            | sed -n 's/^ *\([0-9,]*\) .*:\$s12LoopbackHTTP15TLSRecordCipherV4\(seal\|open\)[^ ]*\( .*\)\{0,1\}$/\2 \1/p' \
            | tr -d , | sort -k1,1 -k2,2n | awk '{ best[$1] = $2 } END { s = 0; for (k in best) s += best[k]; print s }')"
        echo "$(total_instructions "$dump") ${records:-0}"
    }
    # A first run, not counted, brings the server's code through valgrind's translation (slow
    # enough at first for a connection to time out).
    push 800
    warm="${TLS_WARM:-2000}"
    counted="${TLS_REQUESTS:-10000}"
    run "$warm" >"$WORK/first"
    run "$((warm + counted))" >"$WORK/second"
    read -r first first_records <"$WORK/first"
    read -r second second_records <"$WORK/second"
    python3 -c 'import sys; a,ar,b,br,n=map(int,sys.argv[1:6]); print("tls (%s): (%d - %d) instructions / %d pushes = %.0f instructions per push on open connections\n  of which TLSRecordCipher seal/open (records, AES-GCM, GHASH): %.0f per push" % (sys.argv[6], b, a, n, (b-a)/n, (br-ar)/n))' \
        "$first" "$first_records" "$second" "$second_records" "$counted" "$(basename "$BINARY"), h2load, one fixed payload"
    exit 0
    ;;
handshakes)
    start_tls_server "${2:-$BENCH_BIN_DIR/fake-apns-bench-server}"
    # handshakes SECONDS: tls.sh's client (full handshakes, TLS 1.3, x25519, no session reuse).
    handshakes() {
        openssl s_time -connect "127.0.0.1:${URL##*:}" -new -tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256 \
            -time "$1" >"$WORK/s_time.out" 2>&1 || true
    }
    handshakes 3  # through valgrind's translation first, not counted
    callgrind_control -z "$PID" >/dev/null 2>&1
    handshakes "${HANDSHAKE_SECONDS:-15}"
    rm -f "$WORK"/out.*
    callgrind_control -d "$PID" >/dev/null 2>&1
    sleep 1
    dump="$(ls -t "$WORK"/out.* | head -1)"
    [ -n "${CALLGRIND_OUT:-}" ] && cp "$dump" "$CALLGRIND_OUT"
    count="$(sed -n 's/^\([0-9]*\) connections in [0-9.]*s;.*/\1/p' "$WORK/s_time.out" | head -n 1)"
    [ -n "$count" ] && [ "$count" -gt 0 ] || { echo "Error: no handshakes counted:" >&2; cat "$WORK/s_time.out" >&2; exit 1; }
    python3 -c 'import sys; t,n=int(sys.argv[1]),int(sys.argv[2]); print("handshakes (%s): %d instructions / %d full TLS 1.3 handshakes = %.0f per handshake" % (sys.argv[3], t, n, t/n))' \
        "$(total_instructions "$dump")" "$count" "$(basename "$BINARY"), openssl s_time -new"
    exit 0
    ;;
nginx|nginx-log)
    BINARY="${2:-$(command -v nginx || echo nginx)}"
    # shellcheck source=Benchmarks/nginx-204.sh
    . Benchmarks/nginx-204.sh
    port="$(free_port)"
    access_log=off
    [ "$MODE" = nginx-log ] && access_log="$WORK/access.log combined buffer=64k flush=1s"
    # One process, so that the one valgrind runs is the one that answers.
    write_nginx_204_conf "$WORK" "$port" "$access_log" "master_process off;"
    valgrind --tool=callgrind --callgrind-out-file="$WORK/out" "$BINARY" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" \
        -e "$WORK/nginx/logs/error.log" >"$WORK/serve.log" 2>"$WORK/valgrind.log" &
    PID=$!
    URL=""
    # Slow to start under valgrind: up to a minute.
    wait_listening "$port" 600 && URL="http://127.0.0.1:$port"
    ;;
*) echo "Usage: Benchmarks/callgrind.sh serve|serve-varied|log|defaults|echo|nginx|nginx-log|handler|apns|apns-la|apns-fixed|tls|handshakes [BINARY]" >&2; exit 64 ;;
esac
[ -n "$URL" ] || { echo "the server did not start" >&2; cat "$WORK/valgrind.log" >&2; exit 1; }

if [ "$MODE" = apns ] || [ "$MODE" = apns-la ] || [ "$MODE" = apns-fixed ]; then
    LIVE=()
    [ "$MODE" = apns-la ] && LIVE=(--live-activity)
    [ "$MODE" = apns-fixed ] && LIVE=(--payload "$WORK/payload")
    LOAD="$BENCH_BIN_DIR/apns-load"
    [ -x "$LOAD" ] || { echo "Error: build apns-load first: swift build -c release --package-path Benchmarks --product apns-load" >&2; exit 1; }
    # One apns-load run: 2,000 warm-up pushes (every one answered, so nothing is in flight
    # after them), a pause while the counters are zeroed, then the counted pushes on the same
    # connections (no connection setup or provider token verification among them).
    mkfifo "$WORK/more"
    "$LOAD" --port "${URL##*:}" --token "$JWT" --pause-after 2000 -c 8 -m 32 --timeout 3600 "${LIVE[@]}" <"$WORK/more" >"$WORK/load.out" 2>&1 &
    LOAD_PID=$!
    exec 3>"$WORK/more"
    for _ in $(seq 1 6000); do grep -q '^paused' "$WORK/load.out" && break; kill -0 "$LOAD_PID" 2>/dev/null || break; sleep 0.1; done
    warm="$(sed -n 's/^paused after [0-9]* pushes in \([0-9.]*\) s$/\1/p' "$WORK/load.out")"
    [ -n "$warm" ] || { echo "Error: the warm-up pushes failed:" >&2; cat "$WORK/load.out" >&2; exit 1; }
    pushes="$(python3 -c 'import sys; d=sys.argv[2]; d=float(d[:-1])*{"s":1,"m":60}[d[-1]] if d[-1] in "sm" else float(d); print(max(500, int(2000*d/float(sys.argv[1]))))' "$warm" "$DURATION")"
    callgrind_control -z "$PID" >/dev/null 2>&1
    echo "$pushes" >&3
    exec 3>&-
    wait "$LOAD_PID" || { echo "Error: not every push was answered 200:" >&2; cat "$WORK/load.out" >&2; exit 1; }
    callgrind_control -d "$PID" >/dev/null 2>&1
    requests="$pushes"
    sleep 1
    dump="$(ls -t "$WORK"/out.* | head -1)"
    total="$(total_instructions "$dump")"
    [ -n "${CALLGRIND_OUT:-}" ] && cp "$dump" "$CALLGRIND_OUT"
    # FakeAPNs.handle inclusive; callgrind_annotate lists it once per source file it inlines: the largest.
    handle="$(callgrind_annotate --inclusive=yes --threshold=100 "$dump" 2>/dev/null \
        | sed -n 's/^ *\([0-9,]*\) .*:\$s8FakeAPNsAAC6handley12LoopbackHTTP12HTTPResponseVAD11HTTPRequestVF\( .*\)\{0,1\}$/\1/p' | tr -d , | sort -n | tail -1)"
    python3 -c 'import sys; t,n,h=int(sys.argv[1]),int(sys.argv[2]),int(sys.argv[3] or 0); print("%s (%s): %d instructions / %d pushes = %.0f instructions per push\n  of which FakeAPNs.handle (inclusive): %.0f per push" % (sys.argv[5], sys.argv[4], t, n, t/n, h/n))' \
        "$total" "$requests" "$handle" "$(basename "$BINARY"), $([ "$MODE" = apns-fixed ] && echo "the same payload" || echo "a different payload") on every push" "$MODE"
    exit 0
fi
wrk -t1 -c1 -d2s -s "$WORK/put.lua" "$URL/v1/devices/$TOKEN" >/dev/null   # warm-up
journal_count() { curl -s "$ADMIN/journal" | python3 -c 'import json,sys; j=json.load(sys.stdin); print(len(j["entries"]) + j["dropped"])'; }
before=0
counted_by_wrk() { [ "$MODE" = echo ] || [ "$MODE" = nginx ] || [ "$MODE" = nginx-log ]; }
counted_by_wrk || before="$(journal_count)"
callgrind_control -z "$PID" >/dev/null 2>&1
wrk -t1 -c1 -d"$DURATION" -s "$WORK/put.lua" "$URL/v1/devices/$TOKEN" >"$WORK/wrk.out"
callgrind_control -d "$PID" >/dev/null 2>&1
if counted_by_wrk; then
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
if [ "$MODE" = log ] || [ "$MODE" = defaults ]; then
    # The live log's writer thread (LiveLogWriter.run, inclusive): it formats and writes the
    # request lines off the loop thread, so the request path is the rest.
    writer="$(callgrind_annotate --inclusive=yes --threshold=100 "$dump" 2>/dev/null \
        | sed -n 's/^ *\([0-9,]*\) .*:\$s16ContractCheckCLI13LiveLogWriterC3run[^ ]*LLyyF\( .*\)\{0,1\}$/\1/p' | tr -d , | sort -n | tail -1)"
    python3 -c 'import sys; t,n,w=int(sys.argv[1]),int(sys.argv[2]),int(sys.argv[3] or 0); print("  of which the log writer thread: %.0f per request; the loop thread and the rest: %.0f" % (w/n, (t-w)/n))' \
        "$total" "$requests" "$writer"
fi
