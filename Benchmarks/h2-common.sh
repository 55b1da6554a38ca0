# Shared by Benchmarks/h2.sh and Benchmarks/apns.sh (sourced, not run): the scratch folder
# and its cleanup, free ports, the nginx-light h2c reference server, and reading h2load's
# figures. Loopback only.

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

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# wait_for_port PORT: until something accepts on 127.0.0.1:PORT (at most 10 s).
wait_for_port() {
  for _ in $(seq 1 100); do (echo > "/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done
  return 1
}

# start_nginx_h2c STATUS: nginx-light with `listen … http2;` answering `return STATUS;`,
# one worker like our one loop thread (NGINX_WORKERS=auto for one per core); sets NGINX_URL.
start_nginx_h2c() {
  local port
  port="$(free_port)"
  mkdir -p "$WORK/nginx"
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
    listen 127.0.0.1:$port http2;
    location / { return $1; }
  }
}
CONF
  nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" &
  PIDS+=($!)
  wait_for_port "$port"
  NGINX_URL="http://127.0.0.1:$port"
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
