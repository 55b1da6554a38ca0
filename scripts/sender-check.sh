#!/usr/bin/env bash
# CI step sender_check (issue 38): `contract-check sender-check` against two senders.
#  1. Examples/Senders/naive-curl.sh (a connection and a token per push, no retries, every push
#     "delivered") must exit 1 with basic passed and the expected cases failed, each with a sentence.
#  2. A sender that keeps its connection and token must pass every case it supports (exit 0):
#     SENDER_CHECK_PASSING, by default the careful httpx sender of the tests.
#  3. A real library's adapter (Examples/Senders/aioapns_adapter.py, when present) must pass
#     basic, connection-reuse and provider-token-reuse (issue 38: it keeps its connection and token).
# Writes the reports (JSON and JUnit) to SENDER_CHECK_OUT (default .build/sender-check).
set -euo pipefail
cd "$(dirname "$0")/.."

out="${SENDER_CHECK_OUT:-.build/sender-check}"
mkdir -p "$out"
swift build -Xswiftc -warnings-as-errors --product contract-check >/dev/null
tool="$(swift build -Xswiftc -warnings-as-errors --show-bin-path)/contract-check"

status=0
"$tool" sender-check --sender 'sh Examples/Senders/naive-curl.sh' --format json --output "$out/naive.json" || status=$?
if [[ $status -ne 1 ]]; then
    echo "sender-check on the naive sender exited $status; expected 1" >&2
    exit 1
fi
python3 - "$out/naive.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
cases = {case["name"]: case for case in report["cases"]}
problems = []
if cases["basic"]["outcome"] != "passed":
    problems.append("basic should pass: %s" % cases["basic"]["sentences"])
for name in ["connection-reuse", "provider-token-reuse", "throttling", "server-errors", "unregistered"]:
    if cases[name]["outcome"] != "failed" or not cases[name]["sentences"]:
        problems.append("%s should fail with a sentence, got %s" % (name, cases[name]["outcome"]))
if problems:
    sys.exit("naive sender: " + "; ".join(problems))
print("naive sender: basic passed; failed as expected: " + ", ".join(n for n, c in cases.items() if c["outcome"] == "failed"))
PY

passing="${SENDER_CHECK_PASSING:-python3 Tests/SenderFixtures/careful_sender.py}"
"$tool" sender-check --sender "$passing" --format junit --output "$out/passing.xml"
echo "sender-check: '$passing' passed (JUnit: $out/passing.xml)"

# 3. A real library out of the box (Docs/readme/sender-check-table.md): aioapns keeps its
#    connection and its provider token, so it must pass these three.
adapter=Examples/Senders/aioapns_adapter.py
"$tool" sender-check --sender "python3 $adapter" --case basic --case connection-reuse --case provider-token-reuse \
    --format junit --output "$out/aioapns.xml"
echo "sender-check: $adapter passed basic, connection-reuse and provider-token-reuse"
