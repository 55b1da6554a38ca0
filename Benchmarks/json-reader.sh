#!/usr/bin/env bash
# Microbenchmark of JSONReader.parse on a ~2 KB payload (release, -O), with Foundation's
# JSONSerialization in the same run for scale. Usage: Benchmarks/json-reader.sh [ITERATIONS]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${TMPDIR:-/tmp}/pushcontracts-json-bench"
mkdir -p "$out"
swiftc -O -wmo -module-name JSONReaderBench -swift-version 6 \
    "$root"/Sources/Contracts/*.swift "$root/Benchmarks/JSONReader/main.swift" -o "$out/json-reader-bench"
"$out/json-reader-bench" "${1:-100000}"
