# Shared by Benchmarks/backend.sh, perf-split.sh and client-threshold.sh (sourced, not run):
# the request they load a server with.
#
# TOKEN: the device token of the path (/v1/devices/$TOKEN).
# write_registration_put FILE: writes a wrk script that PUTs a valid registration, padded with
# JSON whitespace to 200 bytes, as JSON with the bearer `bench`.
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
