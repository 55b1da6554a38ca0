#!/usr/bin/env bash
# Installs every real peer the tests, CI scripts and benchmarks talk to, so a fresh machine
# runs them instead of skipping them. Safe to run again: what is present is not reinstalled.
#
#   Debian: curl, jq, nghttp2-client (nghttp, h2load), nginx-light, wrk, openssl, golang-go and
#           golang-golang-x-net-dev (Go's net/http with golang.org/x/net/http2, GOPATH mode)
#   PyPI:   httpx[http2], h2, aioapns, apns2-up, kalyke-apns, pyapns-client, jsonschema,
#           check-jsonschema, schemathesis, cryptography, PyJWT, selenium
#   Debian: chromium and chromium-driver (scripts/dashboard-browser.sh)
#   Node's core http2 module needs no install.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

debian=()
for pair in curl:curl jq:jq nghttp:nghttp2-client h2load:nghttp2-client nginx:nginx-light wrk:wrk openssl:openssl go:golang-go; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || [ -x "/usr/sbin/${pair%%:*}" ] || debian+=("${pair#*:}")
done
[ -f /usr/share/gocode/src/golang.org/x/net/http2/transport.go ] || debian+=(golang-golang-x-net-dev)
# The dashboard's browser test (scripts/dashboard-browser.sh): headless Chromium and its WebDriver.
command -v chromium >/dev/null 2>&1 || debian+=(chromium)
command -v chromedriver >/dev/null 2>&1 || debian+=(chromium-driver)
if [ "${#debian[@]}" -gt 0 ]; then
    $SUDO apt-get update -qq
    # shellcheck disable=SC2046
    $SUDO apt-get install -y -qq $(printf '%s\n' "${debian[@]}" | sort -u) >/dev/null
fi

# One package per pip call: several in one call crashed pip 23's resolver on this image.
pip_install() {  # pip_install MODULE REQUIREMENT
    python3 -c "import $1" >/dev/null 2>&1 || python3 -m pip install --quiet --disable-pip-version-check "$2"
}
pip_install httpx 'httpx[http2]'
pip_install h2 h2
pip_install aioapns aioapns
pip_install apns2 apns2-up          # the maintained PyAPNs2 (module apns2)
pip_install kalyke kalyke-apns
pip_install pyapns_client pyapns-client
pip_install cryptography cryptography  # reads the .p12 files apns-certificate writes (CryptoPKCS12Tests)
pip_install jwt PyJWT                 # signs the careful sender of sender-check (Tests/SenderFixtures, CI step sender_check)
pip_install jsonschema jsonschema
pip_install selenium selenium      # drives chromium-driver in scripts/dashboard-browser.sh
command -v check-jsonschema >/dev/null 2>&1 || python3 -m pip install --quiet --disable-pip-version-check check-jsonschema
command -v schemathesis >/dev/null 2>&1 || python3 -m pip install --quiet --disable-pip-version-check schemathesis

echo "peers: $(curl --version | head -1 | cut -d' ' -f1-2); nghttp $(nghttp --version | awk '{print $2}'); h2load, nginx, wrk, jq present;" \
     "python: $(python3 -c 'import httpx, h2, aioapns, jsonschema; print("httpx", httpx.__version__, "h2", h2.__version__, "jsonschema", jsonschema.__version__ if hasattr(jsonschema, "__version__") else "")' 2>/dev/null)"
