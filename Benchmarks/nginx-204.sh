# Shared by Benchmarks/backend.sh and perf-split.sh (sourced, not run): nginx-light as the
# HTTP/1.1 reference, answering `return 204` with one worker (like a fake's one loop thread).
#
# start_nginx_204 DIR: writes DIR/nginx/nginx.conf, starts nginx in the background on a free
# port of 127.0.0.1 and returns once it listens (exits when it does not within ~10 s), with
# NGINX_PORT, NGINX_PID (the master, to stop) and NGINX_WORKER_PID (its one worker, which
# answers: the process to measure) set.
start_nginx_204() {
    local dir="$1"
    NGINX_PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"
    mkdir -p "$dir/nginx/logs"
    cat >"$dir/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $dir/nginx/nginx.pid;
error_log $dir/nginx/logs/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $dir/nginx/body;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        location / { return 204; }
    }
}
CONF
    nginx -p "$dir/nginx" -c "$dir/nginx/nginx.conf" -e "$dir/nginx/logs/error.log" &
    NGINX_PID=$!
    local listening=""
    for _ in $(seq 1 100); do
        python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1",int(sys.argv[1])),0.2).close()' "$NGINX_PORT" 2>/dev/null \
            && { listening=1; break; }
        sleep 0.1
    done
    [ -n "$listening" ] || { echo "nginx does not listen on port $NGINX_PORT" >&2; exit 1; }
    NGINX_WORKER_PID="$(pgrep -P "$NGINX_PID" 2>/dev/null | head -1 || true)"
}
