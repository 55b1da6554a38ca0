#!/usr/bin/env bash
# FakeBackend and the bare HTTP/1.1 transport against nginx in the same run: wrk PUTs a valid
# ~200-byte device registration (16 connections) to
#   - `contract-check serve` with its defaults (FakeAPNs on, the live log written to a file),
#   - `serve --quiet --no-apns` on the epoll loop and on the poll(2) loop (LOOPBACK_POLLER=poll,
#     the loop Darwin runs; Docs/readme/platforms.md),
#   - `loopback-echo-server` (LoopbackHTTP with a handler that does nothing),
#   - nginx-light answering `return 204` (one worker, like our one loop thread),
# validating and journaling every request, and prints each one's median and its ratio to
# nginx's median, and each server's CPU time per request, user and system (from /proc, over
# the measured runs: which side of the kernel a gap to nginx lies on), and how busy the client
# and the server were in each server's runs, with how often the client slept (a client busy
# all the time caps the rate: then a server faster than nginx reads ~1.0; a client that sleeps
# waits for the server, which pays for each wake-up). Then the start-to-ready time of
# FakeBackend.start() and the handler alone.
#
# Honest on a small shared machine: the servers take turns, one wrk run each per round, in
# an order that rotates every round, ROUNDS rounds (medians), so load from other processes
# hits all of them alike; the commit and the load average (before and after) are printed, and
# a run on a loaded machine (1-minute load average above 1.5 before it, or above 3.5 after it:
# the run's own wrk and server add ~2) says so — its ratios are not
# comparable to a quiet machine's. Instruction counts (load-independent): Benchmarks/callgrind.sh.
#
# Needs: wrk and nginx-light (Debian: apt-get install -y wrk nginx-light), python3, curl.
# Usage: Benchmarks/backend.sh            DURATION=10s CONNECTIONS=32 ROUNDS=5 Benchmarks/backend.sh
#        EVENT_STREAMS=1 Benchmarks/backend.sh   (measures serve (defaults) again with that many GET /events streams open)
#        BASELINE=/tmp/old/contract-check Benchmarks/backend.sh   (also measures that build's serve, defaults
#            and --quiet --no-apns, in the same rounds: a change against the commit before it, paired run by run)
#        LOG_SPLIT=1 Benchmarks/backend.sh   (also measures serve with its defaults and the log written to /dev/null,
#            and `serve --quiet` (FakeAPNs on, no log): where the live log's cost goes — the file's own writes
#            (to a file against /dev/null) and the lines' formatting and hand-over (/dev/null against --quiet),
#            each paired run by run)
#        NGINX_LOG=1 Benchmarks/backend.sh   (also measures nginx writing its access log to a file, a line per
#            request in its `combined` format through a 64 KiB buffer: the like-for-like reference of serve with
#            its defaults, which writes a line per request; the first reference logs nothing)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=Benchmarks/http1-common.sh
. Benchmarks/http1-common.sh   # WORK, the exit trap, SERVER_PIDS, TOKEN, write_registration_put

DURATION="${DURATION:-5s}"
ROUNDS="${ROUNDS:-3}"
CONNECTIONS="${CONNECTIONS:-16}"
require_tools "apt-get install -y wrk nginx-light python3" wrk nginx python3

echo "building release binaries…"
swift build -c release --product contract-check >/dev/null
swift build -c release --package-path Benchmarks --product backend-start-benchmark >/dev/null   # Benchmarks/Package.swift
swift build -c release --package-path Benchmarks --product loopback-echo-server >/dev/null
BIN="$(swift build -c release --show-bin-path)"
BENCH_BIN="$(swift build -c release --package-path Benchmarks --show-bin-path)"

COMMIT="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
git diff --quiet HEAD 2>/dev/null || COMMIT="$COMMIT+uncommitted"
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime | sed 's/.*average: //')"
# The request: a valid registration padded with JSON whitespace to 200 bytes.
write_registration_put "$WORK/put.lua"

# contract-check serve as NAME with the event-loop backend POLLER and FLAGS; sets BACKEND_<NAME>
# and ADMIN_<NAME> to its URLs. Standard output (the live log, when on) goes to a file, or to
# SERVE_OUTPUT when set.
start_serve() {
    local name="$1" poller="$2"; shift 2
    local ready="$WORK/ready-$name.json"
    LOOPBACK_POLLER="$poller" "${SERVE_BINARY:-$BIN/contract-check}" serve "$@" --session bench=acct \
        --ready-file "$ready" >"${SERVE_OUTPUT:-$WORK/serve-$name.log}" 2>&1 &
    SERVER_PIDS="$SERVER_PIDS $!"
    printf -v "PID_$name" '%s' "$!"
    for _ in $(seq 1 100); do [ -s "$ready" ] && break; sleep 0.1; done
    local url
    url="$(sed -n 's/.*"backend":"\([^"]*\)".*/\1/p' "$ready")"
    [ -n "$url" ] || { echo "serve ($name) did not start:" >&2; cat "$WORK/serve-$name.log" >&2; exit 1; }
    printf -v "BACKEND_$name" '%s' "$url"
    printf -v "ADMIN_$name" '%s' "$(sed -n 's/.*"admin":"\([^"]*\)".*/\1/p' "$ready")"
}
start_serve defaults epoll
start_serve quiet epoll --quiet --no-apns
start_serve poll poll --quiet --no-apns
BASELINE="${BASELINE:-}"
if [ -n "$BASELINE" ]; then
    [ -x "$BASELINE" ] || { echo "BASELINE=$BASELINE is not an executable contract-check" >&2; exit 1; }
    SERVE_BINARY="$BASELINE" start_serve basedefaults epoll
    SERVE_BINARY="$BASELINE" start_serve basequiet epoll --quiet --no-apns
fi
LOG_SPLIT="${LOG_SPLIT:-0}"
if [ "$LOG_SPLIT" = 1 ]; then
    SERVE_OUTPUT=/dev/null start_serve lognull epoll
    start_serve logoff epoll --quiet
fi
DEFAULTS_PID="$(echo $SERVER_PIDS | awk '{ print $1 }')"
# EVENT_STREAMS=N: the serve with its defaults measured once more per round ("events"), with N
# `curl -N …/events` streams (the dashboard's live feed, issue 26) open on its admin port for
# that turn only. The same process with and without the streams: two separate serves differed
# by ~13% with no stream open anywhere in some runs and not in others, which hid the streams'
# own cost.
EVENT_STREAMS="${EVENT_STREAMS:-0}"
if [ "$EVENT_STREAMS" -gt 0 ]; then
    BACKEND_events="$BACKEND_defaults"
    ADMIN_events="$ADMIN_defaults"
fi
: >"$WORK/events.out"
STREAM_PIDS=""
open_event_streams() {  # N streams, each past its `hello` before the run starts (bounded wait)
    local before
    before="$(grep -c '^event: hello' "$WORK/events.out" || true)"
    for _ in $(seq 1 "$EVENT_STREAMS"); do
        curl -sN "$ADMIN_events/events" >>"$WORK/events.out" 2>/dev/null &
        STREAM_PIDS="$STREAM_PIDS $!"
    done
    for _ in $(seq 1 100); do
        [ "$(grep -c '^event: hello' "$WORK/events.out" || true)" -ge $((before + EVENT_STREAMS)) ] && return
        sleep 0.05
    done
    echo "the event streams did not open" >&2
    exit 1
}
close_event_streams() {
    # shellcheck disable=SC2086
    kill $STREAM_PIDS 2>/dev/null || true
    # shellcheck disable=SC2086
    wait $STREAM_PIDS 2>/dev/null || true
    STREAM_PIDS=""
}

"$BENCH_BIN/loopback-echo-server" >"$WORK/echo.log" 2>&1 &
SERVER_PIDS="$SERVER_PIDS $!"
PID_echo=$!
for _ in $(seq 1 100); do grep -q '^listening' "$WORK/echo.log" && break; sleep 0.1; done
BACKEND_echo="$(sed -n 's/^listening //p' "$WORK/echo.log")"
[ -n "$BACKEND_echo" ] || { echo "loopback-echo-server did not start" >&2; exit 1; }

# nginx-light, one worker like FakeBackend's one loop thread.
# shellcheck source=Benchmarks/nginx-204.sh
. Benchmarks/nginx-204.sh
start_nginx_204 "$WORK"
PID_nginx="$NGINX_WORKER_PID"   # the process that answers (the master only starts it)
BACKEND_nginx="http://127.0.0.1:$NGINX_PORT"
NGINX_LOG="${NGINX_LOG:-0}"
if [ "$NGINX_LOG" = 1 ]; then
    # The same nginx writing its access log: 64 KiB at a time (serve's log buffer is as large),
    # and at least once a second.
    start_nginx_204 "$WORK/logged" "$WORK/nginx-access.log combined buffer=64k flush=1s"
    PID_nginxlog="$NGINX_WORKER_PID"
    BACKEND_nginxlog="http://127.0.0.1:$NGINX_PORT"
fi
PID_events="${PID_defaults:-}"   # the same process, with the event streams open

# A process's CPU time so far, user and system, in clock ticks ("0 0" when unreadable). The
# command name in /proc/PID/stat is cut off first: it is the one field that may hold spaces.
cpu_ticks() {
    local stat
    stat="$(cat "/proc/$1/stat" 2>/dev/null)" || { echo "0 0"; return; }
    echo "${stat##*) }" | awk '{ print $12, $13 }'
}
declare -A CPU_USER CPU_SYSTEM REQUESTS CLIENT_WALL CLIENT_CPU CLIENT_SLEEPS

# wrk's own time over a run (wall, user, system, and how many times it slept: its voluntary
# context switches; Benchmarks/wrk-usage.py, into wrk.time): how busy the client was. One wrk
# thread on a 2-core machine has one core; when it is busy nearly all of a run, the client,
# not the server, set that run's rate. A client that sleeps waits for answers, and each of
# its wake-ups is paid in the server's send(2) (on a virtual machine, an interrupt to the
# other core): the slower side pays for the faster one's sleeps.
run_wrk() {
    python3 Benchmarks/wrk-usage.py "$WORK/wrk.time" wrk -t1 -c"$CONNECTIONS" -d"$DURATION" -s "$WORK/put.lua" "$1" >"$WORK/wrk.out"
    grep -E "Non-2xx|Socket errors" "$WORK/wrk.out" >&2 || true
    awk '/Requests\/sec:/ { print $2 }' "$WORK/wrk.out"
}

SERVERS="nginx defaults quiet poll echo"
[ "$EVENT_STREAMS" -gt 0 ] && SERVERS="$SERVERS events"
[ -n "$BASELINE" ] && SERVERS="$SERVERS basedefaults basequiet"
[ "$LOG_SPLIT" = 1 ] && SERVERS="$SERVERS lognull logoff"
[ "$NGINX_LOG" = 1 ] && SERVERS="$SERVERS nginxlog"
echo "commit $COMMIT; load average before: $LOAD_BEFORE"
echo "wrk: 1 thread, $CONNECTIONS connections, $DURATION per run, $ROUNDS rounds, servers taking turns; PUT with a 200-byte body"
for name in $SERVERS; do
    url="BACKEND_$name"
    wrk -t1 -c"$CONNECTIONS" -d1s -s "$WORK/put.lua" "${!url}/v1/devices/$TOKEN" >/dev/null   # warm-up
done
declare -A RUNS
order=($SERVERS)
for round in $(seq 1 "$ROUNDS"); do
    for offset in $(seq 0 $((${#order[@]} - 1))); do
        # Rotated every round: no server always runs right after the same one.
        name="${order[$(( (offset + round - 1) % ${#order[@]} ))]}"
        url="BACKEND_$name"
        if [ "$name" = events ]; then open_event_streams; fi
        pid="PID_$name"
        read -r user0 system0 <<<"$(cpu_ticks "${!pid:-0}")"
        RUNS[$name]="${RUNS[$name]:-} $(run_wrk "${!url}/v1/devices/$TOKEN")"
        read -r user1 system1 <<<"$(cpu_ticks "${!pid:-0}")"
        # The server's CPU time over the run, beside the requests wrk counted in it.
        CPU_USER[$name]=$(( ${CPU_USER[$name]:-0} + user1 - user0 ))
        CPU_SYSTEM[$name]=$(( ${CPU_SYSTEM[$name]:-0} + system1 - system0 ))
        REQUESTS[$name]=$(( ${REQUESTS[$name]:-0} + $(awk '/requests in/ { print $1 }' "$WORK/wrk.out") ))
        read -r wall user system sleeps <<<"$(tail -1 "$WORK/wrk.time")"
        CLIENT_SLEEPS[$name]=$(( ${CLIENT_SLEEPS[$name]:-0} + sleeps ))
        CLIENT_WALL[$name]="$(awk -v a="${CLIENT_WALL[$name]:-0}" -v b="$wall" 'BEGIN { print a + b }')"
        CLIENT_CPU[$name]="$(awk -v a="${CLIENT_CPU[$name]:-0}" -v u="$user" -v s="$system" 'BEGIN { print a + u + s }')"
        if [ "$name" = events ]; then close_event_streams; fi
    done
done
LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime | sed 's/.*average: //')"

# Every measured request was validated and accepted: the journals hold only 204s.
for name in defaults quiet poll $([ "$LOG_SPLIT" = 1 ] && echo lognull logoff); do
    admin="ADMIN_$name"
    curl -s "${!admin}/journal" | python3 -c '
import json, sys
journal = json.load(sys.stdin)
entries = journal["entries"]
bad = [e for e in entries if e.get("status") != 204 or e["violations"]]
print("FakeBackend (%s) journal: %d kept, %d dropped, %d not 204 or with violations" % (sys.argv[1], len(entries), journal["dropped"], len(bad)))
' "$name"
done
echo "live log of serve (defaults): $(wc -l <"$WORK/serve-defaults.log") lines written to a file"
if [ "$NGINX_LOG" = 1 ]; then
    # USR1 has nginx reopen its logs, writing out its buffer first; then at least the measured
    # requests' lines are in the file (the warm-up's too), within ~5 s.
    kill -USR1 "${NGINX_PID##* }" 2>/dev/null || true
    for _ in $(seq 1 50); do [ "$(wc -l <"$WORK/nginx-access.log")" -ge "${REQUESTS[nginxlog]}" ] && break; sleep 0.1; done
    echo "access log of nginx (logged): $(wc -l <"$WORK/nginx-access.log") lines written to a file"
fi
if [ "$EVENT_STREAMS" -gt 0 ]; then
    echo "event streams: $EVENT_STREAMS open in each events turn, $(grep -c '^event: change' "$WORK/events.out") change events, $(wc -c <"$WORK/events.out") bytes received in all"
    echo "RSS after the run: serve (defaults, with the streams in its events turns) $(awk '/VmRSS|VmHWM/ { printf "%s %s kB ", $1, $2 }' /proc/$DEFAULTS_PID/status)"
fi

python3 - "$COMMIT" "$LOAD_BEFORE" "$LOAD_AFTER" "${RUNS[nginx]}" "${RUNS[defaults]}" "${RUNS[quiet]}" "${RUNS[poll]}" "${RUNS[echo]}" "${RUNS[events]:-}" "$EVENT_STREAMS" \
    "${RUNS[basedefaults]:-}" "${RUNS[basequiet]:-}" "$BASELINE" "${RUNS[lognull]:-}" "${RUNS[logoff]:-}" "${RUNS[nginxlog]:-}" <<'PY'
import statistics, sys
commit, load_before, load_after = sys.argv[1:4]
nginx, defaults, quiet, poll, echo = ([float(x) for x in arg.split()] for arg in sys.argv[4:9])
events = [float(x) for x in sys.argv[9].split()]
runs = lambda values: ", ".join("%.0f" % v for v in values)
reference = statistics.median(nginx)
print("nginx return 204              median %8.0f requests/s  (runs: %s)" % (reference, runs(nginx)))
# Beside the ratio of medians, the median of the rounds' own ratios (each server's run against
# nginx's run of the same round, minutes apart at most): the host's speed moves by up to 2x
# within a run, and a median of rates can fall in one speed for a server and another for nginx.
paired_nginx = lambda values: statistics.median([v / n for v, n in zip(values, nginx)])
paired = lambda a, b: statistics.median([x / y for x, y in zip(a, b)])
for label, values, target in [("serve (defaults, log to file)", defaults, 0.5), ("serve --quiet --no-apns", quiet, 0.7),
                              ("  the same on the poll loop", poll, None), ("loopback-echo-server", echo, 0.8)]:
    median = statistics.median(values)
    goal = "target >= %.1f" % target if target else "poll/epoll %.2f, target >= 0.8" % (median / statistics.median(quiet))
    print("%-29s median %8.0f requests/s  ratio %.2f, paired by round %.2f  (%s; runs: %s)"
          % (label, median, median / reference, paired_nginx(values), goal, runs(values)))
if events:
    median = statistics.median(events)
    print("%-29s median %8.0f requests/s  ratio %.2f  (serve (defaults) without: %.2f; with/without %.3f; runs: %s)"
          % ("  the same, %s event stream(s)" % sys.argv[10], median, median / reference, statistics.median(defaults) / reference,
             median / statistics.median(defaults), runs(events)))
if sys.argv[13]:
    # The baseline's serve beside this build's, round by round: the median of the rounds'
    # ratios (each pair ran within one round, so the host's speed of that round cancels).
    for label, values, base in [("  baseline (defaults)", defaults, sys.argv[11]), ("  baseline --quiet --no-apns", quiet, sys.argv[12])]:
        base = [float(x) for x in base.split()]
        print("%-29s median %8.0f requests/s  ratio %.2f  (this build / baseline, paired by round: %.3f; runs: %s)"
              % (label, statistics.median(base), statistics.median(base) / reference,
                 statistics.median([new / old for new, old in zip(values, base)]), runs(base)))
    print("baseline: %s" % sys.argv[13])
if sys.argv[14]:
    # Where the live log's cost goes, each pair run within one round: the file's writes
    # (serve with its defaults, whose log goes to a file, against the same with the log to
    # /dev/null) and the lines' formatting and hand-over (/dev/null against --quiet, which
    # writes none; both with FakeAPNs on, as the defaults).
    lognull, logoff = ([float(x) for x in arg.split()] for arg in sys.argv[14:16])
    for label, values, against, what in [("  the log to /dev/null", lognull, defaults, "defaults (log to a file) / this"),
                                         ("  --quiet (FakeAPNs on)", logoff, lognull, "log to /dev/null / this")]:
        print("%-29s median %8.0f requests/s  ratio %.2f  (%s, paired by round: %.3f; runs: %s)"
              % (label, statistics.median(values), statistics.median(values) / reference, what, paired(against, values), runs(values)))
if sys.argv[16]:
    # nginx writing a line per request as serve's defaults do: their like-for-like reference.
    logged = [float(x) for x in sys.argv[16].split()]
    median = statistics.median(logged)
    print("%-29s median %8.0f requests/s  ratio %.2f, paired by round %.2f  (serve defaults / this, paired by round: %.3f; runs: %s)"
          % ("nginx, access log to a file", median, median / reference, paired_nginx(logged), paired(defaults, logged), runs(logged)))
before, after = float(load_before.split()[0]), float(load_after.split()[0])
print("commit %s; load average before %s, after %s" % (commit, load_before, load_after))
# The run itself keeps two processes busy (wrk and a server), so ~2 after it is its own load.
if before > 1.5 or after > 3.5:
    print("LOADED MACHINE: the 1-minute load average was %.2f before (above 1.5) or %.2f after (above 3.5, the run's"
          " own ~2 plus 1.5); other work shared the cores, so these ratios are not comparable with a quiet machine's."
          " Compare instruction counts (Benchmarks/callgrind.sh) instead." % (before, after))
PY

# Where a server's time goes, per request: user space (parsing, validating, journaling, the
# log) and the kernel (the socket calls, loopback TCP, which every server here makes alike:
# one read and one send a request). Each answers on one thread; `serve` with its defaults
# also has the log's writer thread, counted with it. Like the ratios, these move with the
# machine's speed: compare servers within one run.
TICK="$(getconf CLK_TCK 2>/dev/null || echo 100)"
echo "server CPU per request, over the measured runs (/proc, $TICK ticks a second):"
for name in $SERVERS; do
    [ "${REQUESTS[$name]:-0}" -gt 0 ] && [ $(( ${CPU_USER[$name]:-0} + ${CPU_SYSTEM[$name]:-0} )) -gt 0 ] || continue
    awk -v n="$name" -v u="${CPU_USER[$name]}" -v s="${CPU_SYSTEM[$name]}" -v r="${REQUESTS[$name]}" -v t="$TICK" 'BEGIN {
        printf "  %-12s user %5.2f us + system %5.2f us = %5.2f us\n", n, u * 1e6 / t / r, s * 1e6 / t / r, (u + s) * 1e6 / t / r }'
done
# The client's share: with wrk busy ~95% or more of nginx's runs, the client was the limit
# there, and a server as fast as nginx or faster reads ~1.0 (within the machine's noise):
# compare the CPU per request above, not the ratio, to tell such servers apart.
# And the server's: its CPU time over the same wall time (serve's includes the log's writer
# thread, ~2 % of a core). Both near 100 %: neither waits for the other. A client well short
# of it that sleeps about once a turn (~1/CONNECTIONS times a request) waits for the server,
# the slower side, which pays for a wake-up of the client every turn.
echo "the client (wrk, one thread) and the server busy, of the runs' wall time; the client's sleeps per request:"
for name in $SERVERS; do
    [ -n "${CLIENT_WALL[$name]:-}" ] || continue
    awk -v n="$name" -v c="${CLIENT_CPU[$name]}" -v w="${CLIENT_WALL[$name]}" -v u="${CPU_USER[$name]:-0}" \
        -v s="${CPU_SYSTEM[$name]:-0}" -v t="$TICK" -v z="${CLIENT_SLEEPS[$name]:-0}" -v r="${REQUESTS[$name]:-0}" 'BEGIN {
        if (w > 0 && r > 0) printf "  %-12s client %3.0f%%  server %3.0f%%  client sleeps %.3f a request\n", n, 100 * c / w, 100 * (u + s) / t / w, z / r }'
done

echo
"$BENCH_BIN/backend-start-benchmark" 200
