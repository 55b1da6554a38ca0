#!/usr/bin/env bash
# Where `serve`'s time per request goes beside nginx's, by side of the kernel and by library:
# backend.sh's load (wrk, 1 thread, 16 connections, PUT with the 200-byte registration) on
# `contract-check serve` with its defaults (live log to a file, FakeAPNs on) and on nginx-light
# answering `return 204` (one worker), taking turns. During each run `perf record -e cpu-clock`
# samples the whole server process (every thread) for WINDOW seconds; its samples divided by
# the requests wrk answered in that window give nanoseconds per request, split into
#   kernel        [kernel.kallsyms]: the system calls and the TCP stack under them
#   program       the server's own code (contract-check, nginx)
#   swift runtime libswiftCore.so: reference counting, hashing, the runtime's other calls
#   libc          libc.so.6: memcpy, the mutexes, the system-call wrappers, malloc
#   other         everything else (Foundation, libdispatch, the vDSO's clock)
# with the medians of ROUNDS rounds, the difference to nginx, and the user-space symbols that
# cost `serve` most per request. Backend.sh's ratio says how far `serve` is from nginx; this
# says on which side. A server busy all of its window is the slower side (its samples cover
# WINDOW seconds); one that is not, waited for the client. Of the kernel's share, it also
# counts the server's send(2) waking the client (wrk sleeps when no answer is ready, and a
# sleeping peer is woken from the sender's send, on a virtual machine with an interrupt to
# the other core), beside how often the client slept: the slower side pays for the faster
# one's sleeps, so a server slower than the client pays more than the gap in its own work.
#
# Needs: perf (Debian: apt-get install -y linux-perf), wrk and nginx-light, python3; root, or
# kernel.perf_event_paranoid <= 1 for a process of one's own. Not a timed figure: a pointer
# to where a gap lies (compare builds with backend.sh's BASELINE= and with callgrind.sh).
# Usage: Benchmarks/perf-split.sh        ROUNDS=3 WINDOW=3 Benchmarks/perf-split.sh
#        SERVE_BINARY=/tmp/old/contract-check Benchmarks/perf-split.sh   (another build's serve)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=Benchmarks/http1-common.sh
. Benchmarks/http1-common.sh   # WORK, the exit trap, SERVER_PIDS, TOKEN, write_registration_put

ROUNDS="${ROUNDS:-2}"
WINDOW="${WINDOW:-3}"
FREQUENCY="${FREQUENCY:-20000}"
CONNECTIONS="${CONNECTIONS:-16}"
require_tools "apt-get install -y linux-perf wrk nginx-light python3" perf wrk nginx python3

echo "building the release binary…"
swift build -c release --product contract-check >/dev/null
SERVE_BINARY="${SERVE_BINARY:-$(swift build -c release --show-bin-path)/contract-check}"

COMMIT="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
git diff --quiet HEAD 2>/dev/null || COMMIT="$COMMIT+uncommitted"
write_registration_put "$WORK/put.lua"

"$SERVE_BINARY" serve --session bench=acct --ready-file "$WORK/ready.json" >"$WORK/serve.log" 2>&1 &
SERVER_PIDS=$!
for _ in $(seq 1 100); do [ -s "$WORK/ready.json" ] && break; sleep 0.1; done
URL_serve="$(sed -n 's/.*"backend":"\([^"]*\)".*/\1/p' "$WORK/ready.json")"
[ -n "$URL_serve" ] || { echo "serve did not start:" >&2; cat "$WORK/serve.log" >&2; exit 1; }
PID_serve=$SERVER_PIDS

# shellcheck source=Benchmarks/nginx-204.sh
. Benchmarks/nginx-204.sh
start_nginx_204 "$WORK"
URL_nginx="http://127.0.0.1:$NGINX_PORT"
PID_nginx="$NGINX_WORKER_PID"   # the worker, which answers
[ -n "$PID_nginx" ] || { echo "nginx did not start its worker" >&2; exit 1; }

LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "wrk: 1 thread, $CONNECTIONS connections; perf: cpu-clock at $FREQUENCY Hz over ${WINDOW}s of each run; $ROUNDS rounds"
for name in serve nginx; do
    url="URL_$name"
    wrk -t1 -c"$CONNECTIONS" -d1s -s "$WORK/put.lua" "${!url}/v1/devices/$TOKEN" >/dev/null   # warm-up
done
servers=(serve nginx)
for round in $(seq 1 "$ROUNDS"); do
    for offset in 0 1; do
        name="${servers[$(( (offset + round - 1) % 2 ))]}"
        url="URL_$name"
        pid="PID_$name"
        # wrk runs a second longer than the window on each side of it: the window sees only
        # the steady state. Its requests in the window: its rate times the window.
        # Under Benchmarks/wrk-usage.py: the client's voluntary context switches over its run
        # (how often it slept, waiting for answers) go to usage-NAME-ROUND, after its times.
        python3 Benchmarks/wrk-usage.py "$WORK/usage-$name-$round" wrk -t1 -c"$CONNECTIONS" -d"$((WINDOW + 2))s" \
            -s "$WORK/put.lua" "${!url}/v1/devices/$TOKEN" >"$WORK/wrk-$name-$round.out" &
        client=$!
        sleep 1
        # -g: call chains, to tell the client's wake-ups in the kernel from the rest.
        perf record -q -g -e cpu-clock -F "$FREQUENCY" -p "${!pid}" -o "$WORK/perf-$name-$round.data" -- sleep "$WINDOW" >/dev/null 2>&1
        wait "$client"
        grep -E "Non-2xx|Socket errors" "$WORK/wrk-$name-$round.out" >&2 || true
        perf report -i "$WORK/perf-$name-$round.data" -n --no-children --sort dso,sym -g none --stdio 2>/dev/null \
            | grep -v '^#' | grep -v '^$' >"$WORK/report-$name-$round.txt"
        # The samples spent waking the client: a sleeping peer is woken from the sender's
        # send(2), in sock_def_readable, with interrupts off (a sample that falls there is
        # taken when they are back on, in _raw_spin_unlock_irqrestore).
        perf script -i "$WORK/perf-$name-$round.data" -F ip,sym 2>/dev/null | python3 -c '
import sys
count = 0
for chain in sys.stdin.read().split("\n\n"):
    frames = [line.split()[1] for line in chain.strip().splitlines() if len(line.split()) > 1]
    if frames[:2] == ["_raw_spin_unlock_irqrestore", "sock_def_readable"]: count += 1
print(count)' >"$WORK/wakes-$name-$round"
    done
done
LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$WORK" "$ROUNDS" "$WINDOW" "$FREQUENCY" "$(basename "$SERVE_BINARY")" "$LOAD_BEFORE" "$LOAD_AFTER" "$COMMIT" <<'PY'
import collections, re, statistics, sys
work, rounds, window, frequency, program = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
load_before, load_after, commit = sys.argv[6], sys.argv[7], sys.argv[8]
GROUPS = ["kernel", "program", "swift runtime", "libc", "other"]

def group(dso):
    if dso == "[kernel.kallsyms]": return "kernel"
    if dso in (program, "nginx"): return "program"
    if dso.startswith("libswiftCore"): return "swift runtime"
    if dso.startswith("libc.so"): return "libc"
    return "other"

def rate(path):
    for line in open(path):
        if line.startswith("Requests/sec:"): return float(line.split()[1])
    raise SystemExit("no rate in " + path)

per_group = collections.defaultdict(lambda: collections.defaultdict(list))   # server -> group -> [ns]
wake_ns = collections.defaultdict(list)   # server -> [ns per request waking the client]
client_sleeps = collections.defaultdict(list)   # server -> [the client's sleeps per request]
busy = collections.defaultdict(list)
symbols = collections.defaultdict(list)   # serve's user-space symbol -> [ns per request]
rates = collections.defaultdict(list)
for server in ("serve", "nginx"):
    for r in range(1, rounds + 1):
        requests = rate("%s/wrk-%s-%d.out" % (work, server, r)) * window
        rates[server].append(requests / window)
        # The client ran WINDOW + 2 seconds at about the window's rate.
        sleeps = int(open("%s/usage-%s-%d" % (work, server, r)).read().split()[3])
        client_sleeps[server].append(sleeps / (requests / window * (window + 2)))
        wake_ns[server].append(int(open("%s/wakes-%s-%d" % (work, server, r)).read()) / frequency / requests * 1e9)
        sums = collections.Counter()
        by_symbol = collections.Counter()
        total = 0
        for line in open("%s/report-%s-%d.txt" % (work, server, r)):
            # "  12.34%   5678  dso  [.] symbol"
            match = re.match(r"\s*[\d.]+%\s+(\d+)\s+(\S+)\s+\[(.)\]\s+(.*)", line)
            if not match: continue
            samples, dso, kind, symbol = int(match.group(1)), match.group(2), match.group(3), match.group(4).strip()
            sums[group(dso)] += samples
            total += samples
            if kind == "." and server == "serve": by_symbol["%s  %s" % (dso, symbol)] += samples
        ns = lambda samples: samples / frequency / requests * 1e9
        for g in GROUPS: per_group[server][g].append(ns(sums[g]))
        busy[server].append(total / frequency / window)
        if server == "serve":
            for symbol, samples in by_symbol.items(): symbols[symbol].append(ns(samples))

median = statistics.median
print("commit %s; load average before %s, after %s" % (commit, load_before, load_after))
print("requests/s in the windows: serve %s; nginx %s" % (" ".join("%.0f" % r for r in rates["serve"]), " ".join("%.0f" % r for r in rates["nginx"])))
print("requests/s (median): serve %.0f, nginx %.0f, ratio %.2f" % (median(rates["serve"]), median(rates["nginx"]), median(rates["serve"]) / median(rates["nginx"])))
print("busy in the window (samples / window): serve %s, nginx %s" % (
    ", ".join("%.0f%%" % (b * 100) for b in busy["serve"]), ", ".join("%.0f%%" % (b * 100) for b in busy["nginx"])))
print("%-14s %10s %10s %10s   (ns per request, medians of %d rounds)" % ("", "serve", "nginx", "difference", rounds))
totals = {"serve": 0.0, "nginx": 0.0}
for g in GROUPS:
    s, n = median(per_group["serve"][g]), median(per_group["nginx"][g])
    totals["serve"] += s; totals["nginx"] += n
    print("%-14s %10.0f %10.0f %+10.0f" % (g, s, n, s - n))
print("%-14s %10.0f %10.0f %+10.0f" % ("all", totals["serve"], totals["nginx"], totals["serve"] - totals["nginx"]))
# Part of "kernel": the server's send(2) waking the client, which sleeps when it has no answer
# to read. The slower side pays for the faster one's sleeps; a server faster than the client
# finds a request ready at every turn and pays none.
ws, wn = median(wake_ns["serve"]), median(wake_ns["nginx"])
print("%-14s %10.0f %10.0f %+10.0f   (of the kernel's: the send waking the client)" % ("  waking", ws, wn, ws - wn))
ss, sn = median(client_sleeps["serve"]), median(client_sleeps["nginx"])
each = lambda ns, sleeps: "%.1f us" % (ns / sleeps / 1000) if sleeps > 0.001 else "(too few to tell)"
print("the client's sleeps per request: serve %.4f, nginx %.4f; a wake-up costs serve ~%s, nginx ~%s" % (
    ss, sn, each(ws, ss), each(wn, sn)))
print("serve's user-space symbols, ns per request (median; the ten largest):")
# A symbol no sample hit in a round cost 0 ns in it.
costs = {symbol: median(values + [0.0] * (rounds - len(values))) for symbol, values in symbols.items()}
for symbol, cost in sorted(costs.items(), key=lambda item: -item[1])[:10]:
    print("  %6.0f  %s" % (cost, symbol[:150]))
PY
