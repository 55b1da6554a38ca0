#!/usr/bin/env bash
# FakeAPNs broadcast fan-out (issue 29): fake-apns-bench-server --broadcast starts 1,000 Live
# Activities on 16 devices, all subscribed to one channel; apns-load --broadcast sends
# REQUESTS broadcasts to it (priority 5, a different 300-byte live-activity-payload body each,
# with a rising aps.timestamp, so every broadcast is applied to all 1,000 activities). The
# reference, in the same run and to the same server: apns-load --live-activity, the same
# updates sent one activity at a time (/3/device/<activity token>). The line is the ratio of
# activity updates applied per second (broadcasts/s x 1,000 against unicast updates/s): how
# much one broadcast saves over sending to each activity; bounded time means a broadcast
# answers in time linear in its subscribers, no worse per activity than a unicast update.
# Memory: the server's peak resident set (VmHWM) before the broadcasts and after each round: it
# levels off once every activity's state history is full (LiveActivityPolicy.statesKeptPerActivity).
# ROUNDS rounds (default 3), medians; commit and load average printed as apns.sh does.
#
#   Benchmarks/broadcast.sh [REQUESTS]     (default 2000 broadcasts; the unicast line sends 20000)
#
# Needs: h2load (nghttp2-client), nginx-light and python3 (h2-common.sh checks them).
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS="${1:-2000}"
source Benchmarks/h2-common.sh

start_fake_apns_bench --broadcast
CHANNEL="$(sed -n 's/^channel //p' "$WORK/apns.log")"
[ -n "$CHANNEL" ] || { echo "Error: fake-apns-bench-server printed no channel: $(cat "$WORK/apns.log")" >&2; exit 1; }
SERVER_PID="${PIDS[-1]}"
swift build -c release --package-path Benchmarks --product apns-load >&2
peak_kib() { sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$SERVER_PID/status"; }

ROUNDS="${ROUNDS:-3}"
LOAD_BEFORE="$(load_average)"
PEAK_BEFORE="$(peak_kib)"
BROADCAST=(); UNICAST=(); PEAKS=()
for round in $(seq 1 "$ROUNDS"); do
  BROADCAST+=("$(REQUESTS=$REQUESTS apns_load "$APNS_URL" "broadcast-$round" --broadcast "$CHANNEL" -c 2 -m 8)")
  UNICAST+=("$(REQUESTS=$((REQUESTS * 10)) apns_load "$APNS_URL" "unicast-$round" --live-activity)")
  PEAKS+=("$(peak_kib)")
done
PEAK_AFTER="$(peak_kib)"
LOAD_AFTER="$(load_average)"
median() { printf '%s\n' "$@" | python3 -c 'import statistics,sys; print(statistics.median(float(x) for x in sys.stdin))'; }
B="$(median "${BROADCAST[@]}")"; U="$(median "${UNICAST[@]}")"
echo "commit $(commit_label), $ROUNDS rounds, medians; load average $LOAD_BEFORE before, $LOAD_AFTER after"
python3 - "$B" "$U" "$PEAK_BEFORE" "$PEAK_AFTER" "${PEAKS[@]}" <<'PY'
import sys
b, u, before, after = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rounds = ", ".join(f"{int(k) / 1024:.1f}" for k in sys.argv[5:])
print(f"broadcast to 1,000 activities: {b:.0f} broadcasts/s = {b * 1000:.0f} activity updates/s; "
      f"unicast Live Activity updates: {u:.0f}/s; ratio {b * 1000 / u:.2f} (target >= 1: a broadcast costs no more per activity)")
print(f"server peak resident set: {before / 1024:.1f} MiB before, after each round {rounds} MiB "
      f"(bounded: the channel keeps no copy per broadcast; each activity keeps at most 2 x statesKeptPerActivity states)")
PY
