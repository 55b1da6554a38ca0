#!/usr/bin/env bash
# The dashboard (GET / on the admin port) in a real headless browser: Debian's chromium,
# driven through chromium-driver by selenium (scripts/dashboard-browser.py). Builds
# nothing: it runs the contract-check that CONTRACT_CHECK_BIN names, else the debug build's.
#
# Checks, each with a bounded wait: the page loads with no console error and no failed
# request; a push sent with curl shows in the feed and on its device within 1 s, without a
# reload; one thread-id is one group and the badge reads the last badge sent; a collapse-id
# replaces; a fault switched on in the page makes the next curl push get 429; a payload with
# "mutable-content": true typed into the form shows its violation at line and column; the
# form's push is delivered; a broadcast channel made with curl shows with its subscribed
# activity. Then it writes Docs/readme/images/dashboard.png (the README's
# screenshot), and checks that with FakeBackend alone (serve --no-apns) the APNs panels hide
# and the backend panel lists the devices per account and the sessions.
#
# Usage: scripts/dashboard-browser.sh
#        CONTRACT_CHECK_BIN=/path/to/contract-check scripts/dashboard-browser.sh
# Without chromium, chromium-driver or selenium (scripts/install-peers.sh installs them) it
# prints a skip and exits 0, except under CI (CI set), where a missing peer fails the step.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
command -v curl >/dev/null 2>&1 || missing+=(curl)
python3 -c 'import selenium' >/dev/null 2>&1 || missing+=("selenium (PyPI)")
if [ "${#missing[@]}" -gt 0 ]; then
    if [ -n "${CI:-}" ]; then
        echo "Error: missing ${missing[*]}; scripts/install-peers.sh installs them" >&2
        exit 1
    fi
    echo "skipped: the dashboard browser test needs ${missing[*]} (scripts/install-peers.sh installs them)"
    exit 0
fi

CONTRACT_CHECK="${CONTRACT_CHECK_BIN:-}"
if [ -z "$CONTRACT_CHECK" ]; then
    CONTRACT_CHECK="$(swift build --show-bin-path)/contract-check"
fi
[ -x "$CONTRACT_CHECK" ] || { echo "Error: no $CONTRACT_CHECK; build it first (swift build --product contract-check)" >&2; exit 1; }

# The whole run is bounded: the checks wait at most seconds each; this is the backstop.
exec timeout --kill-after=5 "${DASHBOARD_TIMEOUT:-90}" python3 scripts/dashboard-browser.py "$CONTRACT_CHECK"
