# Shared by Benchmarks/h2.sh, apns.sh and tls.sh (sourced, not run): the scratch folder
# and its cleanup, free ports, the nginx-light h2c (or TLS) reference server, the APNs bench
# server and payload, the apns-load client, and reading h2load's (and apns-load's) figures.
# Loopback only.

for tool in h2load nginx python3; do
  command -v "$tool" >/dev/null || { echo "Error: $tool is not installed (apt-get install -y nghttp2-client nginx-light)" >&2; exit 1; }
done

WORK="$(mktemp -d)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

# The run's provenance, printed by each script: the 1-, 5- and 15-minute load averages, and
# the commit (marked when the tree has local changes).
load_average() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime | sed 's/.*average: //'; }
commit_label() { echo "$(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo ' (with local changes)')"; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# wait_for_port PORT: until something accepts on 127.0.0.1:PORT (at most 10 s).
wait_for_port() {
  for _ in $(seq 1 100); do (echo > "/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done
  return 1
}

# start_nginx_h2c STATUS: nginx-light with `listen … http2;` answering `return STATUS;`,
# one worker like our one loop thread (NGINX_WORKERS=auto for one per core); sets NGINX_URL
# and NGINX_PORT. With NGINX_TLS_CERT and NGINX_TLS_KEY set it listens `ssl http2` instead:
# TLS 1.3 only, TLS_AES_128_GCM_SHA256, x25519, no tickets (what our TLS speaks), https URL;
# NGINX_TLS_EXTRA adds directives to that (tls.sh --client-certificates: ssl_verify_client).
start_nginx_h2c() {
  local port tls="" scheme=http
  port="$(free_port)"
  mkdir -p "$WORK/nginx"
  if [ -n "${NGINX_TLS_CERT:-}" ]; then
    scheme=https
    tls="ssl_certificate $NGINX_TLS_CERT; ssl_certificate_key $NGINX_TLS_KEY; ssl_protocols TLSv1.3;
    ssl_ecdh_curve X25519; ssl_session_tickets off; ssl_conf_command Ciphersuites TLS_AES_128_GCM_SHA256;
    ${NGINX_TLS_EXTRA:-}"
  fi
  cat > "$WORK/nginx/nginx.conf" <<CONF
worker_processes ${NGINX_WORKERS:-1};
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 10000000;
  http2_max_concurrent_streams 128;
  client_body_temp_path $WORK/nginx;
  server {
    listen 127.0.0.1:$port ${tls:+ssl }http2;
    $tls
    location / { return $1; }
  }
}
CONF
  nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" &
  PIDS+=($!)
  wait_for_port "$port"
  NGINX_PORT="$port"
  NGINX_URL="$scheme://127.0.0.1:$port"
}

# start_fake_apns_bench [--tls]: builds and starts fake-apns-bench-server (release, from the
# benchmark package, Benchmarks/Package.swift); sets APNS_URL and TOKEN (a fixed valid
# provider token).
start_fake_apns_bench() {
  swift build -c release --package-path Benchmarks --product fake-apns-bench-server >&2
  "$(swift build -c release --package-path Benchmarks --show-bin-path)/fake-apns-bench-server" "$@" > "$WORK/apns.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 100); do grep -q '^token ' "$WORK/apns.log" 2>/dev/null && break; sleep 0.1; done
  APNS_URL="$(sed -n 's/^listening //p' "$WORK/apns.log")"
  TOKEN="$(sed -n 's/^token //p' "$WORK/apns.log")"
  [ -n "$APNS_URL" ] && [ -n "$TOKEN" ] || { echo "Error: fake-apns-bench-server did not start: $(cat "$WORK/apns.log")" >&2; exit 1; }
}

# write_apns_payload FILE: the 300-byte APNs payload (keeps the v1 payload contract) that
# Benchmarks/apns.sh and Benchmarks/tls.sh send.
write_apns_payload() {
  python3 - "$1" <<'PY'
import json, sys
body = {"aps": {"alert": {"title": "On the way", "body": "Your order is on the way"},
                "category": "ORDER_UPDATE", "thread-id": "order-8F3K"},
        "notificationId": "91", "accountId": "a1", "route": "orders/8F3K", "orderVersion": 7}
text = json.dumps(body, separators=(",", ":"))
body["pad"] = "x" * (300 - len(text) - len(',"pad":""'))
data = json.dumps(body, separators=(",", ":")).encode()
assert len(data) == 300, len(data)
open(sys.argv[1], "wb").write(data)
PY
}

# h2load_apns URL NAME: REQUESTS pushes (-c 8 -m 32, $WORK/payload, bearer $TOKEN) to
# URL/3/device/…; output in $WORK/NAME.out, req/s on stdout (h2load_report).
h2load_apns() {
  local device
  device="$(printf 'ab%.0s' $(seq 1 32))"
  h2load -n "$REQUESTS" -c 8 -m 32 -d "$WORK/payload" \
    -H "authorization: bearer $TOKEN" -H "apns-topic: com.example.app" \
    -H "apns-push-type: alert" -H "apns-priority: 10" \
    "$1/3/device/$device" > "$WORK/$2.out" 2>&1 || true
  h2load_report "$2"
}

# apns_load URL NAME [--payload FILE]: REQUESTS pushes from apns-load (Benchmarks/APNsLoad,
# release; -c 8 -m 32, the headers and token h2load_apns sends) to URL's port, each with a
# different 300-byte payload (with --payload, that file every time); output in
# $WORK/NAME.out, req/s on stdout (h2load_report reads apns-load's lines alike).
apns_load() {
  local url="$1" name="$2"
  shift 2
  "$(swift build -c release --package-path Benchmarks --show-bin-path)/apns-load" --port "${url##*:}" --token "$TOKEN" \
    -n "$REQUESTS" -c 8 -m 32 "$@" > "$WORK/$name.out" 2>&1 || true
  h2load_report "$name"
}

# h2load_report NAME: prints NAME's figures from $WORK/NAME.out to stderr, its req/s to stdout.
h2load_report() {
  local rps ok codes
  rps="$(sed -n 's/^finished in .*, \([0-9.]*\) req\/s.*/\1/p' "$WORK/$1.out")"
  ok="$(sed -n 's/^requests: .* \([0-9]*\) succeeded.*/\1/p' "$WORK/$1.out")"
  codes="$(sed -n 's/^status codes: //p' "$WORK/$1.out")"
  echo "$1: ${rps:-0} req/s, ${ok:-0} of $REQUESTS succeeded (status codes: ${codes:-?})" >&2
  echo "${rps:-0}"
}

# ratio NAME RATE REFERENCE_NAME REFERENCE_RATE [NOTE]
ratio() {
  python3 -c "import sys; o,n=float(sys.argv[2]),float(sys.argv[4]); print(f'{sys.argv[1]} {o:.0f} req/s, {sys.argv[3]} {n:.0f} req/s, ratio {o/n if n else 0:.2f}{sys.argv[5]}')" "$@" ""
}
