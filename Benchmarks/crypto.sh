#!/bin/sh
# Times ES256 sign/verify with the crypto sources compiled -O (whole module), so the figure is
# a release build's without building the whole package in release mode. The sources are the
# ones a provider token goes through: PushCore, PushCrypto, FakeAPNs' key types
# (ProviderKeys/, less ECDSASignatureDER.swift, whose name PushCrypto also declares and which
# no timed path calls) and ProviderToken.swift, compiled as one module: each copy drops its
# `import PushCore` / `import PushCrypto` line (as Fuzz/run.sh does). ProviderToken.swift
# quotes the ids with Contracts' JSONTreeWriter, so Contracts is compiled first, -O, as a
# module of its own (nothing timed but that quoting calls into it).
# With --callgrind it counts instead, under valgrind's callgrind, the instructions of one
# operation of each kind (sign, verify, derive, x25519 = key pair + shared secret, p256-ecdh,
# AES-128-GCM seal/open of a 16 KiB and a 300-byte record): COUNT runs of each (default 20)
# less one run, divided — independent of the machine's load. CRYPTO_OPERATIONS="sign verify"
# picks some; CRYPTO_BENCHMARK_KEEP=FILE keeps the binary (for callgrind_annotate).
# Usage: Benchmarks/crypto.sh [--callgrind [COUNT]]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/crypto-benchmark.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/sources" "$work/modules"
# shellcheck disable=SC2046  # the file list is split on purpose (no spaces in Sources/ paths)
swiftc -O -wmo -parse-as-library -package-name PushContracts -module-name Contracts -swift-version 6 \
    -emit-module -emit-module-path "$work/modules/Contracts.swiftmodule" \
    -emit-library -static -o "$work/libContracts.a" $(find "$root/Sources/Contracts" -name '*.swift' | sort)
for file in "$root"/Sources/PushCore/*.swift "$root"/Sources/PushCrypto/*.swift \
    "$root"/Sources/FakeAPNs/Authentication/ProviderKeys/*.swift "$root"/Sources/FakeAPNs/Authentication/ProviderToken.swift; do
    [ "$(basename "$file")" = ECDSASignatureDER.swift ] && [ "$(basename "$(dirname "$file")")" = ProviderKeys ] && continue
    grep -v -E '^import (PushCore|PushCrypto)$' "$file" > "$work/sources/$(basename "$file")"
done
swiftc -O -wmo -package-name PushContracts -module-name CryptoBenchmark -swift-version 6 \
    -I "$work/modules" -L "$work" -lContracts \
    "$work"/sources/*.swift "$root"/Benchmarks/CryptoBenchmark/main.swift -o "$work/crypto-benchmark"
if [ -n "${CRYPTO_BENCHMARK_KEEP:-}" ]; then cp "$work/crypto-benchmark" "$CRYPTO_BENCHMARK_KEEP"; fi
if [ "${1:-}" != "--callgrind" ]; then "$work/crypto-benchmark"; exit 0; fi
count="${2:-20}"
instructions() {  # OPERATION RUNS: total instructions of the process
    valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/crypto-benchmark" "$1" "$2" >/dev/null 2>"$work/log"
    sed -n 's/^\(summary\|totals\): \([0-9]*\).*/\2/p' "$work/out" | head -1
}
for operation in ${CRYPTO_OPERATIONS:-sign verify derive x25519 p256-ecdh gcm-seal-16k gcm-open-16k gcm-seal-300 gcm-open-300}; do
    many="$(instructions "$operation" "$count")"
    one="$(instructions "$operation" 0)"
    per=$(( (many - one) / count ))
    case "$operation" in
        *16k) echo "$operation: $per instructions ($(( per / 16384 )).$(( per * 10 / 16384 % 10 )) per byte)" ;;
        *300) echo "$operation: $per instructions ($(( per / 300 )) per byte)" ;;
        *) echo "$operation: $per instructions" ;;
    esac
done
