# Shared by Benchmarks/backend.sh and perf-split.sh (sourced, not run): nginx-light as the
# HTTP/1.1 reference, answering `return 204` with one worker (like a fake's one loop thread).
#
# start_nginx_204 DIR PORT: writes DIR/nginx/nginx.conf, starts nginx on 127.0.0.1:PORT in
# the background and sets NGINX_PID (the master; its one worker answers: `pgrep -P`).
start_nginx_204() {
    local dir="$1" port="$2"
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
        listen 127.0.0.1:$port;
        location / { return 204; }
    }
}
CONF
    nginx -p "$dir/nginx" -c "$dir/nginx/nginx.conf" -e "$dir/nginx/logs/error.log" &
    NGINX_PID=$!
}
