#!/usr/bin/env bash
# Microbenchmark of JSONReader.parse on a ~2 KB payload (release, -O), with Foundation's
# JSONSerialization in the same run for scale. Usage: Benchmarks/json-reader.sh [ITERATIONS]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${TMPDIR:-/tmp}/pushcontracts-json-bench"
mkdir -p "$out"
swiftc -O -wmo -module-name JSONReaderBench -swift-version 6 \
    "$root"/Sources/Contracts/*.swift "$root/Benchmarks/JSONReader/main.swift" -o "$out/json-reader-bench"
iterations="${1:-100000}"
"$out/json-reader-bench" "$iterations"

# jq (Debian's, C) parsing the same payload as a stream of documents, for scale.
if command -v jq >/dev/null; then
    "$out/json-reader-bench" --emit-payload > "$out/payload.json"
    copies=$(( iterations / 5 ))
    payload="$(cat "$out/payload.json")"
    for (( i = 0; i < copies; i++ )); do printf '%s\n' "$payload"; done > "$out/stream.json"
    start=$(date +%s%N)
    jq empty "$out/stream.json"
    end=$(date +%s%N)
    awk -v ns=$(( end - start )) -v n="$copies" 'BEGIN { printf "jq empty (stream of %d): %.2f µs/parse\n", n, ns / 1000 / n }'
fi
