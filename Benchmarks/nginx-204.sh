# Shared by Benchmarks/backend.sh, perf-split.sh, client-threshold.sh and callgrind.sh (sourced,
# not run): nginx-light as the HTTP/1.1 reference, answering `return 204` with one worker (like a
# fake's one loop thread).
#
# start_nginx_204 DIR [ACCESS_LOG]: writes DIR/nginx/nginx.conf, starts nginx in the background
# on a free port of 127.0.0.1 and returns once it listens (exits when it does not within ~10 s),
# with NGINX_PORT, NGINX_PID (the masters started so far, to stop) and NGINX_WORKER_PID (its one
# worker, which answers: the process to measure) set. ACCESS_LOG is the access_log directive's
# value, `off` by default (the reference answers and logs nothing); e.g.
# "DIR/access.log combined buffer=64k flush=1s" has it write a line per request, as `serve`'s
# live log does.
#
# write_nginx_204_conf, free_port and wait_listening (below) are its parts, for a script that
# runs nginx its own way.
start_nginx_204() {
    local dir="$1" access_log="${2:-off}"
    NGINX_PORT="$(free_port)"
    write_nginx_204_conf "$dir" "$NGINX_PORT" "$access_log"
    nginx -p "$dir/nginx" -c "$dir/nginx/nginx.conf" -e "$dir/nginx/logs/error.log" &
    local master=$!
    NGINX_PID="${NGINX_PID:+$NGINX_PID }$master"
    wait_listening "$NGINX_PORT" 100 || { echo "nginx does not listen on port $NGINX_PORT" >&2; exit 1; }
    NGINX_WORKER_PID="$(pgrep -P "$master" 2>/dev/null | head -1 || true)"
}

# write_nginx_204_conf DIR PORT ACCESS_LOG [DIRECTIVE...]: the configuration start_nginx_204
# runs, in DIR/nginx/nginx.conf (with DIR/nginx/logs made), listening on 127.0.0.1:PORT, with
# each DIRECTIVE (e.g. "master_process off;") added at the top: Benchmarks/callgrind.sh runs
# nginx as one process under valgrind with it.
write_nginx_204_conf() {
    local dir="$1" port="$2" access_log="$3"
    shift 3
    mkdir -p "$dir/nginx/logs"
    {
        [ "$#" -eq 0 ] || printf '%s\n' "$@"
        cat <<CONF
worker_processes 1;
daemon off;
pid $dir/nginx/nginx.pid;
error_log $dir/nginx/logs/error.log;
events { worker_connections 1024; }
http {
    access_log $access_log;
    client_body_temp_path $dir/nginx/body;
    server {
        listen 127.0.0.1:$port;
        location / { return 204; }
    }
}
CONF
    } >"$dir/nginx/nginx.conf"
}

# free_port: a free TCP port of 127.0.0.1 (bound, read and released).
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# wait_listening PORT TRIES: returns once 127.0.0.1:PORT accepts a connection, trying every
# 0.1 s; fails after TRIES tries.
wait_listening() {
    local _
    for _ in $(seq 1 "$2"); do
        python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1",int(sys.argv[1])),0.2).close()' "$1" 2>/dev/null \
            && return 0
        sleep 0.1
    done
    return 1
}
