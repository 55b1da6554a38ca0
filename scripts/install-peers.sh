#!/usr/bin/env bash
# Installs the real HTTP peers the interop tests and benchmarks talk to:
# curl, nghttp2-client (nghttp, h2load) and wrk (scripts/soak.sh) from Debian, httpx[http2]
# and h2 from PyPI.
# Node's core http2 module needs no install. Safe to run again.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
$SUDO apt-get install -y curl nghttp2-client wrk
python3 -m pip install --quiet 'httpx[http2]' h2
python3 -m pip install --quiet aioapns   # FakeAPNs interop: a real APNs client (PyJWT, cryptography)
echo "peers installed: $(command -v curl) $(command -v nghttp) $(command -v h2load) $(command -v wrk)"
