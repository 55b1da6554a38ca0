# Shared by Benchmarks/backend.sh, perf-split.sh and client-threshold.sh (sourced, not run,
# from the package root), as h2-common.sh is by the HTTP/2 scripts.
#
# Sourcing it makes WORK, a temporary folder, and a trap that on exit stops every server in
# SERVER_PIDS (the scripts add each one they start) and every nginx in NGINX_PID (nginx-204.sh
# adds each one it starts), then removes WORK. It also gives:
#   require_tools HINT TOOL...     exits, naming HINT (how to install), when a TOOL is missing
#   TOKEN                          the device token of the path (/v1/devices/$TOKEN)
#   write_registration_put FILE    a wrk script that PUTs a valid registration, padded with
#                                  JSON whitespace to 200 bytes, as JSON with the bearer `bench`
WORK="$(mktemp -d)"
SERVER_PIDS=""
NGINX_PID=""
cleanup() {
    for pid in $SERVER_PIDS; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in $NGINX_PID; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

require_tools() {
    local hint="$1" tool
    shift
    for tool in "$@"; do
        command -v "$tool" >/dev/null || { echo "$tool is required ($hint)" >&2; exit 1; }
    done
}

TOKEN=00fa11ceabababababababababababababababababababababababababababab
write_registration_put() {
    python3 - "$1" <<'PY'
import base64, sys
key = base64.b64encode(bytes([4]) + bytes(range(1, 65))).decode()
body = '{"platform":"ios","environment":"production","appVersion":"4.2.0","publicKey":"%s"}' % key
body = body[:-1] + " " * (200 - len(body)) + "}"
assert len(body) == 200
open(sys.argv[1], "w").write('''wrk.method = "PUT"
wrk.body = '%s'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer bench"
''' % body)
PY
}
