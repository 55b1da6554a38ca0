#!/usr/bin/env bash
# Public-API breakage check of the four products (Contracts, FakeBackend, FakeAPNs,
# PushScenarios) against the release point recorded in API/ (API/VERSION names it).
#
# swift-api-digester dumps each product's public API from the existing debug build and
# compares it with API/<Product>.json (`swift package diagnose-api-breaking-changes` would
# build the baseline commit a second time: too slow for CI). A break (a removed or renamed
# declaration, a changed type or signature, a lost conformance…) fails, unless CHANGELOG.md
# lists it as intended: a line with **Breaking:** in the Unreleased section or in a version
# newer than API/VERSION, naming the declaration as the digester prints it, in backticks:
#
#   - **Breaking:** `FakeAPNs.register(token:topic:environment:)` takes a non-optional topic.
#
# Additions are not breaks. At a release, record the new baseline (and write its version):
#   scripts/api-check.sh --update 0.3.0
#
# Usage: scripts/api-check.sh [--update VERSION]
# Exit: 0 no unlisted break, 1 a break CHANGELOG.md does not list, 64 usage error.
set -euo pipefail
cd "$(dirname "$0")/.."

update=""
if [ "${1:-}" = "--update" ]; then
    update="${2:?--update needs the release version, e.g. --update 0.3.0}"
elif [ "$#" -gt 0 ]; then
    echo "usage: scripts/api-check.sh [--update VERSION]" >&2
    exit 64
fi

swift build -Xswiftc -warnings-as-errors 2>&1 | tail -1
# shellcheck source=scripts/module-flags.sh
. scripts/module-flags.sh

WORK="$(mktemp -d "${TMPDIR:-/tmp}/pushcontracts-api.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

for product in "${PRODUCTS[@]}"; do
    swift-api-digester -dump-sdk -module "$product" "${MODULE_FLAGS[@]}" \
        -avoid-location -avoid-tool-args -abort-on-module-fail -o "$WORK/$product.dump.json"
    # The dump includes `package` declarations (marked isInternal): the package's own
    # plumbing, which no consumer can call. Keep only the public API, and no empty extension
    # of a package type.
    python3 - "$WORK/$product.dump.json" "$WORK/$product.json" <<'PY'
import json, sys
def public(node):
    if node.get("isInternal"):
        return None
    children = node.get("children")
    if children is not None:
        kept = [child for child in map(public, children) if child is not None]
        if not kept and node.get("kind") == "TypeDecl" and node.get("isExternal"):
            return None
        node["children"] = kept
    return node
dump = json.load(open(sys.argv[1]))
dump["ABIRoot"] = public(dump["ABIRoot"])
json.dump(dump, open(sys.argv[2], "w"), indent=1, sort_keys=True)
PY
done

if [ -n "$update" ]; then
    mkdir -p API
    for product in "${PRODUCTS[@]}"; do cp "$WORK/$product.json" "API/$product.json"; done
    echo "$update" > API/VERSION
    echo "API/: baselines of ${PRODUCTS[*]} recorded as $update"
    exit 0
fi

baseline="$(cat API/VERSION)"
for product in "${PRODUCTS[@]}"; do
    swift-api-digester -diagnose-sdk -input-paths "API/$product.json" -input-paths "$WORK/$product.json" \
        > "$WORK/$product.diag" 2>&1
done

python3 - "$baseline" "$WORK" "${PRODUCTS[@]}" <<'PY'
import re, sys
baseline, work, products = sys.argv[1], sys.argv[2], sys.argv[3:]

def version(text):
    return tuple(int(part) for part in text.split("."))

# The declarations CHANGELOG.md lists as intended breaks since the baseline.
allowed, section = set(), None
for line in open("CHANGELOG.md", encoding="utf-8"):
    heading = re.match(r"## \[([^\]]+)\]", line)
    if heading:
        name = heading.group(1)
        section = name if name == "Unreleased" or (re.fullmatch(r"\d+\.\d+\.\d+", name) and version(name) > version(baseline)) else None
    elif section and "**Breaking:**" in line:
        allowed.update(re.findall(r"`([^`]+)`", line))

unlisted = 0
for product in products:
    breaks = [line.strip() for line in open(f"{work}/{product}.diag", encoding="utf-8")
              if line.strip() and not line.startswith("/*")]
    for item in breaks:
        declaration = re.match(r"\S+ (\S+)", item)  # "Func Type.name(label:) has been …"
        name = declaration.group(1) if declaration else item
        if name in allowed:
            print(f"{product}: allowed by CHANGELOG.md: {item}")
        else:
            print(f"{product}: API break not listed in CHANGELOG.md: {item}")
            unlisted += 1
    print(f"{product}: {len(breaks)} change(s) that break the {baseline} API")
if unlisted:
    print(f"{unlisted} unlisted API break(s). If intended, add a line to CHANGELOG.md under [Unreleased]:")
    print("  - **Breaking:** `DECLARATION` what changed and what to write instead")
    sys.exit(1)
print(f"public API of {', '.join(products)}: no unlisted break against {baseline} (API/VERSION)")
PY
