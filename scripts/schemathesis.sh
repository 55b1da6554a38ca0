#!/usr/bin/env bash
# Property-based HTTP testing of FakeBackend against the emitted OpenAPI document:
# builds contract-check, starts `contract-check serve` with a bearer session, runs schemathesis
# (from PyPI; installed when missing) against Fixtures/openapi.json, bounded in examples and
# time, then stops the server.
#
# Checks: not_a_server_error (no 5xx), status_code_conformance, content_type_conformance,
# response_headers_conformance and response_schema_conformance (every response is one the
# document declares, in the declared shape).
#
# Usage: scripts/schemathesis.sh [MAX_EXAMPLES]        (default 50 per operation)
#        SCHEMATHESIS_SECONDS=70 scripts/schemathesis.sh   (schemathesis --max-time; default 120)
#        CONTRACT_CHECK_BIN=path/to/contract-check scripts/schemathesis.sh   (skip the build)
# Exit: schemathesis's status (0 when every check passed).
set -euo pipefail
cd "$(dirname "$0")/.."
MAX_EXAMPLES="${1:-50}"

if ! command -v schemathesis >/dev/null 2>&1; then
    echo "== installing schemathesis from PyPI"
    python3 -m pip install --quiet schemathesis
fi

if [ -n "${CONTRACT_CHECK_BIN:-}" ]; then
    BIN="$CONTRACT_CHECK_BIN"
else
    echo "== building contract-check"
    swift build --product contract-check 2>&1 | tail -1
    BIN="$(swift build --show-bin-path)/contract-check"
fi

# The committed document must be the one the contracts emit.
"$BIN" openapi > /tmp/openapi.$$.json
if ! cmp -s /tmp/openapi.$$.json Fixtures/openapi.json; then
    rm -f /tmp/openapi.$$.json
    echo "Fixtures/openapi.json is stale; run: swift run contract-check openapi --output Fixtures/openapi.json" >&2
    exit 1
fi
rm -f /tmp/openapi.$$.json

WORK="$(mktemp -d "${TMPDIR:-/tmp}/schemathesis.XXXXXX")"
SESSION="schemathesis-session"
"$BIN" serve --quiet --session "$SESSION=acct-schemathesis" --ready-file "$WORK/ready.json" > "$WORK/serve.log" 2>&1 &
SERVER_PID=$!
cleanup() {
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# Wait (bounded) for the ready file rather than sleeping a fixed time.
for _ in $(seq 1 100); do
    [ -s "$WORK/ready.json" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/serve.log" >&2; exit 1; }
    sleep 0.1
done
[ -s "$WORK/ready.json" ] || { echo "serve did not become ready" >&2; exit 1; }
URL="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["backend"])' "$WORK/ready.json")"
echo "== FakeBackend at $URL; schemathesis $(schemathesis --version | awk '{print $NF}')"

# From the work folder, so schemathesis's .hypothesis/.schemathesis caches stay out of the repo.
DOCUMENT="$(pwd)/Fixtures/openapi.json"
cd "$WORK"
set +e
timeout 300 schemathesis run "$DOCUMENT" \
    --url "$URL" \
    -H "Authorization: Bearer $SESSION" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance \
    --max-examples "$MAX_EXAMPLES" \
    --max-time "${SCHEMATHESIS_SECONDS:-120}" \
    --seed 20261130 \
    --workers 1 \
    --no-color \
    --generation-database none \
    --report-dir "$WORK/report"
STATUS=$?
set -e
echo "== schemathesis exit status $STATUS"
exit "$STATUS"
