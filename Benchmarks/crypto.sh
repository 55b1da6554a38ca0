#!/bin/sh
# Times ES256 sign/verify with the FakeAPNs crypto sources compiled -O (whole module), so the
# figure is a release build's without building the whole package in release mode.
# Usage: Benchmarks/crypto.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${TMPDIR:-/tmp}/crypto-benchmark-$$
trap 'rm -f "$out"' EXIT
swiftc -O -wmo -package-name PushContracts -module-name CryptoBenchmark \
    "$root"/Sources/FakeAPNs/Crypto/*.swift "$root"/Sources/FakeAPNs/ProviderToken.swift \
    "$root"/Benchmarks/CryptoBenchmark/main.swift -o "$out"
"$out"
