#!/usr/bin/env bash
# Microbenchmark of JSONReader.parse on a ~2 KB payload (release, -O), with Foundation's
# JSONSerialization in the same run for scale. Usage: Benchmarks/json-reader.sh [ITERATIONS]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${TMPDIR:-/tmp}/pushcontracts-json-bench"
mkdir -p "$out"
swiftc -O -wmo -package-name PushContracts -module-name JSONReaderBench -swift-version 6 \
    "$root"/Sources/Contracts/*.swift "$root"/Sources/Contracts/*/*.swift "$root/Benchmarks/JSONReader/main.swift" -o "$out/json-reader-bench"
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

# Whole files: 10,000 payload files of varied size, read and parsed by one process each way.
if command -v jq >/dev/null && [[ "${JSON_BENCH_FILES:-1}" != 0 ]]; then
    files="$out/files"
    rm -rf "$files" && mkdir -p "$files"
    payload="$(cat "$out/payload.json")"
    for (( i = 0; i < 10000; i++ )); do
        # Varied sizes: a prefix of the items list, closed properly, 0.3–2 KB.
        printf '{"aps":{"alert":{"title":"Order %d","body":"On the way"},"mutable-content":1,"category":"ORDER_UPDATE","thread-id":"order-%d"},"notificationId":"%d","accountId":"a1","route":"orders/%d","orderVersion":%d,"pad":"%*s"}\n' \
            "$i" "$i" "$i" "$i" $(( i % 9 + 1 )) $(( i % 1700 )) "" > "$files/p$i.json"
    done
    start=$(date +%s%N); "$out/json-reader-bench" --files "$files"/*.json; end=$(date +%s%N)
    echo "JSONReader process total: $(( (end - start) / 1000000 )) ms"
    start=$(date +%s%N); jq empty "$files"/*.json; end=$(date +%s%N)
    echo "jq empty process total: $(( (end - start) / 1000000 )) ms"
fi
