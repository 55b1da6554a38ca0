#!/usr/bin/env bash
# HTTP/2 interop: curl --http2-prior-knowledge, nghttp, Python httpx (HTTP/2 only) and Node's
# http2 module each send 100 concurrent POSTs with bodies on one connection to an in-process
# LoopbackHTTP server; every response is checked (Tests/LoopbackHTTPTests/HTTP2InteropTests.swift).
# A peer that is missing makes its test skip with a message: run scripts/install-peers.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
swift test --filter HTTP2InteropTests "$@"
