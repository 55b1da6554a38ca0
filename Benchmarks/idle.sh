#!/usr/bin/env bash
# The idle footprint of `contract-check serve` against nginx in the same run: serve with its
# defaults (FakeBackend, FakeAPNs and the admin API, the live log to a file), nothing
# connected, and nginx-light (one worker, a minimal config on a loopback port). After each is
# ready and has idled IDLE_SECONDS (default 2), the script reads VmRSS and Threads from
# /proc/PID/status, and Pss and the private pages (Private_Clean + Private_Dirty: what the
# process alone holds) from /proc/PID/smaps_rollup (nginx: the master and its worker, summed),
# prints them and the RSS ratio, and stops everything. RSS counts every mapped page of the
# shared libraries (for serve mostly the Swift runtime and Foundation, shared with every Swift
# process on the machine), so it moves with what the page cache holds; the private figure
# does not. Memory is not timing: the figures do not depend on the machine's load,
# but the commit and the load average are printed all the same.
#
# Usage: Benchmarks/idle.sh [BINARY]     (BINARY: a release contract-check; default: build one)
#        ROUNDS=3 Benchmarks/idle.sh     (one line per round; default 1)
#        IDLE_BUILD=dynamic Benchmarks/idle.sh   (which build to make when no BINARY is given)
# The default build is the one README's "Set up" installs on Linux, the Swift runtime and
# Foundation linked in and the executable not position-independent (no relocation table to
# read and no pointer tables to rewrite at start):
#   swift build -c release --static-swift-stdlib -Xlinker -no-pie   (under .build/static here,
#   so it does not replace the `swift build -c release` that the other benchmarks use)
# IDLE_BUILD=dynamic measures that plain `swift build -c release` (the shared libraries).
# Needs: nginx-light (Debian: apt-get install -y nginx-light), python3. Linux (/proc).
set -euo pipefail
cd "$(dirname "$0")/.."
IDLE_SECONDS="${IDLE_SECONDS:-2}"
ROUNDS="${ROUNDS:-1}"
IDLE_BUILD="${IDLE_BUILD:-static}"
command -v nginx >/dev/null || { echo "Error: nginx is not installed (apt-get install -y nginx-light)" >&2; exit 1; }
if [ -n "${1:-}" ]; then
    BINARY="$1"
elif [ "$IDLE_BUILD" = static ]; then
    STATIC=(-c release --static-swift-stdlib -Xlinker -no-pie --scratch-path .build/static)
    swift build "${STATIC[@]}" --product contract-check >&2
    BINARY="$(swift build "${STATIC[@]}" --show-bin-path)/contract-check"
elif [ "$IDLE_BUILD" = dynamic ]; then
    swift build -c release --product contract-check >&2
    BINARY="$(swift build -c release --show-bin-path)/contract-check"
else
    echo "Error: IDLE_BUILD is static or dynamic, not $IDLE_BUILD" >&2; exit 64
fi
[ -x "$BINARY" ] || { echo "Error: $BINARY is not an executable" >&2; exit 1; }

WORK="$(mktemp -d)"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

COMMIT="$(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD 2>/dev/null || echo ' (with local changes)')"
# What kind of build BINARY is: the ELF type and whether the Swift runtime is a shared library.
KIND="$( (readelf -hd "$BINARY" 2>/dev/null || true) | awk '$1 == "Type:" { t = $2 } /NEEDED.*libswiftCore/ { d = 1 }
    END { printf "%s, Swift runtime %s", (t == "EXEC" ? "not position-independent" : "position-independent"), (d ? "shared" : "linked in") }')"
echo "binary $BINARY ($KIND)"
echo "commit $COMMIT; load average $(cut -d' ' -f1-3 /proc/loadavg); idle ${IDLE_SECONDS}s"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
# status_field PID FIELD: the number of FIELD (VmRSS in kB, Threads) in /proc/PID/status.
status_field() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"; }
# rollup_field PID FIELD...: the sum of the FIELDs (kB) in /proc/PID/smaps_rollup.
rollup_field() { local pid="$1"; shift; awk -v fs=" $* " '{ f = $1; sub(":", "", f) } index(fs, " " f " ") { t += $2 } END { print t + 0 }' "/proc/$pid/smaps_rollup"; }

# serve: started with its defaults and a ready file, waited for with `wait-ready`.
measure_serve() {
    rm -f "$WORK/ready.json"
    "$BINARY" serve --ready-file "$WORK/ready.json" >"$WORK/serve.log" 2>&1 &
    local pid=$!
    PIDS+=("$pid")
    "$BINARY" wait-ready "$WORK/ready.json" --timeout 60 --pid "$pid" --log "$WORK/serve.log" >/dev/null
    sleep "$IDLE_SECONDS"   # the idleness measured, not a wait for readiness
    SERVE_RSS="$(status_field "$pid" VmRSS)"
    SERVE_THREADS="$(status_field "$pid" Threads)"
    SERVE_PSS="$(rollup_field "$pid" Pss)"
    SERVE_PRIVATE="$(rollup_field "$pid" Private_Clean Private_Dirty)"
    kill -TERM "$pid"
    wait "$pid" 2>/dev/null || true
}

# nginx-light: one worker, as Benchmarks/h2-common.sh starts it (`return 204`).
measure_nginx() {
    local port master workers rss=0 threads=0 pss=0 private=0
    port="$(free_port)"
    mkdir -p "$WORK/nginx"
    cat > "$WORK/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $WORK/nginx;
  server { listen 127.0.0.1:$port; location / { return 204; } }
}
CONF
    nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" &
    master=$!
    PIDS+=("$master")
    for _ in $(seq 1 100); do
        workers="$(cat "/proc/$master/task/$master/children" 2>/dev/null || true)"
        [ -n "$workers" ] && (echo > "/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
        sleep 0.1
    done
    [ -n "$workers" ] || { echo "Error: nginx did not start: $(cat "$WORK/nginx/error.log")" >&2; exit 1; }
    sleep "$IDLE_SECONDS"
    for pid in $master $workers; do
        rss=$((rss + $(status_field "$pid" VmRSS)))
        threads=$((threads + $(status_field "$pid" Threads)))
        pss=$((pss + $(rollup_field "$pid" Pss)))
        private=$((private + $(rollup_field "$pid" Private_Clean Private_Dirty)))
    done
    NGINX_PSS="$pss"
    NGINX_PRIVATE="$private"
    NGINX_RSS="$rss"
    NGINX_THREADS="$threads"
    NGINX_PROCESSES="$(echo $master $workers | wc -w)"
    kill -TERM "$master"
    wait "$master" 2>/dev/null || true
}

for round in $(seq 1 "$ROUNDS"); do
    measure_serve
    measure_nginx
    python3 - "$round" "$SERVE_RSS" "$SERVE_PSS" "$SERVE_PRIVATE" "$SERVE_THREADS" "$NGINX_RSS" "$NGINX_PSS" "$NGINX_PRIVATE" "$NGINX_THREADS" "$NGINX_PROCESSES" <<'PY'
import sys
r = sys.argv[1]
s_rss, s_pss, s_priv, s_thr, n_rss, n_pss, n_priv, n_thr, n_proc = map(int, sys.argv[2:])
mib = lambda kb: kb / 1024
print("round %s: serve  RSS %5.1f MiB  PSS %5.1f MiB  private %5.1f MiB  %d threads" % (r, mib(s_rss), mib(s_pss), mib(s_priv), s_thr))
print("round %s: nginx  RSS %5.1f MiB  PSS %5.1f MiB  private %5.1f MiB  %d threads (%d processes)" % (r, mib(n_rss), mib(n_pss), mib(n_priv), n_thr, n_proc))
print("round %s: serve/nginx RSS %.2f, private %.2f" % (r, s_rss / n_rss, s_priv / n_priv))
PY
done
