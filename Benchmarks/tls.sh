#!/usr/bin/env bash
# FakeAPNs over TLS: h2load sends APNs pushes (valid headers, one fixed valid ES256 provider
# token, a 300-byte v1 payload; -c 8 -m 32) over TLS 1.3 + h2 to FakeAPNs (our TLS:
# TLS_AES_128_GCM_SHA256, x25519, an ECDSA P-256 leaf) and to nginx-light with
# `listen … ssl http2` answering `return 200;` (same suite, group and key type, one worker),
# in the same run; then full handshakes per second against both (openssl s_time -new, TLS
# 1.3, no session reuse). Prints both ratios, the commit and the load average.
# Target: requests ratio >= 0.5.
#
#   Benchmarks/tls.sh [REQUESTS] [HANDSHAKE_SECONDS]     (defaults 100000 and 10)
#
# With --client-certificates it measures certificate-based provider authentication instead:
# full TLS 1.3 handshakes per second in which the server asks for a client certificate and
# checks it (chain to a trusted CA, CertificateVerify), FakeAPNs (--client-ca) against nginx
# with `ssl_verify_client on` trusting the same CAs, same server key (P-256) and suite, one
# loop thread / one worker; first with a P-256 client certificate, then an RSA 2048 one
# (Apple's push certificates are RSA 2048, from an RSA CA). The client is
# Benchmarks/tls-handshakes.py (Python ssl, HANDSHAKE_PROCESSES processes, default 4; a
# handshake counts once the server acknowledged the client's HTTP/2 SETTINGS), the same for
# both servers. Target: ratio >= 0.5 for each key type. The client shares the cores with the
# server, so each line also gives the server's CPU time per handshake (/proc/PID/stat, the
# nginx worker's) and the ratio of handshakes per CPU-second, which a busy machine moves less.
#
#   Benchmarks/tls.sh --client-certificates [HANDSHAKE_SECONDS]    (default 10)
#
# Needs: h2load (nghttp2-client), nginx-light, openssl:
#   apt-get install -y nghttp2-client nginx-light openssl
set -euo pipefail
cd "$(dirname "$0")/.."
CLIENT_CERTIFICATES=""
if [ "${1:-}" = "--client-certificates" ]; then CLIENT_CERTIFICATES=1; shift; set -- 0 "$@"; fi
REQUESTS="${1:-100000}"
SECONDS_PER_HANDSHAKE_RUN="${2:-10}"
source Benchmarks/h2-common.sh
command -v openssl >/dev/null || { echo "Error: openssl is not installed (apt-get install -y openssl)" >&2; exit 1; }

if [ -n "$CLIENT_CERTIFICATES" ]; then
  # Two client CAs (P-256 and RSA 2048, distinct names) and a client certificate from each.
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=Bench P-256 client CA" \
    -days 1 -keyout "$WORK/ca-ec-key.pem" -out "$WORK/ca-ec.pem" 2>/dev/null
  openssl req -x509 -newkey rsa:2048 -nodes -subj "/CN=Bench RSA client CA" -days 1 \
    -keyout "$WORK/ca-rsa-key.pem" -out "$WORK/ca-rsa.pem" 2>/dev/null
  cat "$WORK/ca-ec.pem" "$WORK/ca-rsa.pem" > "$WORK/client-cas.pem"
  for kind in ec rsa; do
    if [ "$kind" = ec ]; then newkey=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1); else newkey=(-newkey rsa:2048); fi
    openssl req -new "${newkey[@]}" -nodes -subj "/UID=com.example.app/CN=Apple Push Services: com.example.app" \
      -keyout "$WORK/client-$kind-key.pem" -out "$WORK/client-$kind.csr" 2>/dev/null
    openssl x509 -req -in "$WORK/client-$kind.csr" -CA "$WORK/ca-$kind.pem" -CAkey "$WORK/ca-$kind-key.pem" \
      -set_serial "0x$(openssl rand -hex 8)" -days 1 -sha256 -out "$WORK/client-$kind.pem" 2>/dev/null
  done
  start_fake_apns_bench --tls --client-ca "$WORK/client-cas.pem"
  APNS_PORT="${APNS_URL##*:}"
  APNS_PID="${PIDS[${#PIDS[@]}-1]}"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=localhost" \
    -days 1 -keyout "$WORK/nginx-key.pem" -out "$WORK/nginx-cert.pem" 2>/dev/null
  NGINX_TLS_CERT="$WORK/nginx-cert.pem" NGINX_TLS_KEY="$WORK/nginx-key.pem" \
    NGINX_TLS_EXTRA="ssl_verify_client on; ssl_client_certificate $WORK/client-cas.pem;" start_nginx_h2c 200
  NGINX_PID="$(cat "/proc/${PIDS[${#PIDS[@]}-1]}/task/${PIDS[${#PIDS[@]}-1]}/children" 2>/dev/null | cut -d' ' -f1)"
  # cpu_ticks PID: the process's user + system CPU time so far, in clock ticks.
  cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
  # client_handshakes PORT KIND NAME SERVER_PID: "HANDSHAKES/S SERVER-CPU-MS-PER-HANDSHAKE" with
  # client-KIND.pem; details in $WORK/NAME.out. The CPU figure depends far less on the
  # machine's load than the rate does (the server's share of the cores does not enter it).
  client_handshakes() {
    local before after
    before="$(cpu_ticks "$4")"
    python3 Benchmarks/tls-handshakes.py "$1" "$WORK/client-$2.pem" "$WORK/client-$2-key.pem" \
      "$SECONDS_PER_HANDSHAKE_RUN" "${HANDSHAKE_PROCESSES:-4}" > "$WORK/$3.out"
    after="$(cpu_ticks "$4")"
    read -r done elapsed failures < "$WORK/$3.out"
    python3 -c "import os, sys; d, e, t = int(sys.argv[1]), float(sys.argv[2]), (int(sys.argv[4]) - int(sys.argv[3])) * 1000 / os.sysconf('SC_CLK_TCK'); print(f'{d/e:.1f} {t/d if d else 0:.3f}'); print(f'{sys.argv[5]}: {d} handshakes in {e:.2f}s, {sys.argv[6]} failed, server CPU {t:.0f} ms', file=sys.stderr)" \
      "$done" "$elapsed" "$before" "$after" "$3" "$failures"
  }
  echo "commit $(commit_label)"
  echo "load average $(load_average) on $(nproc 2>/dev/null || sysctl -n hw.ncpu) cores"
  for kind in ec rsa; do
    APNS_HS="$(client_handshakes "$APNS_PORT" "$kind" "fakeapns-$kind" "$APNS_PID")"
    NGINX_HS="$(client_handshakes "$NGINX_PORT" "$kind" "nginx-$kind" "$NGINX_PID")"
    label="$([ "$kind" = ec ] && echo 'P-256' || echo 'RSA 2048')"
    python3 - "$label" $APNS_HS $NGINX_HS <<'PY'
import sys
label, (o, oc, n, nc) = sys.argv[1], map(float, sys.argv[2:6])
print(f"client-certificate handshakes ({label} client certificate): fakeapns-tls {o:.0f}/s, nginx-tls {n:.0f}/s, ratio {o/n if n else 0:.2f} (target >= 0.50)")
print(f"  server CPU per handshake: fakeapns-tls {oc:.2f} ms, nginx-tls {nc:.2f} ms; handshakes per CPU-second ratio {nc/oc if oc else 0:.2f}")
PY
  done
  echo "load average after $(load_average)"
  exit 0
fi

write_apns_payload "$WORK/payload"

start_fake_apns_bench --tls
APNS_PORT="${APNS_URL##*:}"

# nginx with TLS 1.3 only, our suite and group, an ECDSA P-256 certificate like ours.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=localhost" \
  -days 1 -keyout "$WORK/nginx-key.pem" -out "$WORK/nginx-cert.pem" 2>/dev/null
NGINX_TLS_CERT="$WORK/nginx-cert.pem" NGINX_TLS_KEY="$WORK/nginx-key.pem" start_nginx_h2c 200

APNS="$(h2load_apns "$APNS_URL" fakeapns-tls)"
NGINX="$(h2load_apns "$NGINX_URL" nginx-tls)"
for name in fakeapns-tls nginx-tls; do
  grep -q "TLS Protocol: TLSv1.3" "$WORK/$name.out" || echo "warning: $name did not negotiate TLS 1.3" >&2
done

# handshakes PORT NAME: full TLS 1.3 handshakes per second (s_time -new, x25519).
handshakes() {
  openssl s_time -connect "127.0.0.1:$1" -new -tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256 \
    -time "$SECONDS_PER_HANDSHAKE_RUN" > "$WORK/$2-handshakes.out" 2>&1 || true
  local count real
  count="$(sed -n 's/^\([0-9]*\) connections in \([0-9.]*\)s;.*/\1/p' "$WORK/$2-handshakes.out" | head -n 1)"
  real="$(sed -n 's/.*connections in \([0-9.]*\) real seconds.*/\1/p' "$WORK/$2-handshakes.out" | head -n 1)"
  python3 -c "import sys; c,r=sys.argv[1],sys.argv[2]; print(f'{float(c)/float(r):.1f}' if c and r and float(r) > 0 else '0')" "${count:-}" "${real:-}"
}
APNS_HS="$(handshakes "$APNS_PORT" fakeapns)"
NGINX_HS="$(handshakes "$NGINX_PORT" nginx)"

echo "commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources Benchmarks || echo ' (with uncommitted changes)')"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || sysctl -n vm.loadavg) on $(nproc 2>/dev/null || sysctl -n hw.ncpu) cores"
ratio fakeapns-tls "$APNS" nginx-tls "$NGINX" " (target >= 0.50)"
python3 -c "import sys; o,n=float(sys.argv[1]),float(sys.argv[2]); print(f'handshakes: fakeapns-tls {o:.0f}/s, nginx-tls {n:.0f}/s, ratio {o/n if n else 0:.2f}')" "$APNS_HS" "$NGINX_HS"
