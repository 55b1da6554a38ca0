#!/usr/bin/env bash
# The DocC documentation of the four products (Contracts, FakeBackend, FakeAPNs,
# PushScenarios), built with the toolchain's own tools, no plugin:
#
#   1. swift build (CI's flags, so after step_build nothing is compiled again);
#   2. swift-symbolgraph-extract reads each product's module from that build (public symbols);
#   3. every public symbol declared in the product's sources must have a doc comment: the
#      counts are printed, and the script fails naming each symbol without one (symbols
#      without a source location are the standard library's default implementations,
#      such as a RawRepresentable enum's hashValue, and are not counted);
#      and every top-level symbol is listed under a topic of the catalog's landing page;
#   4. docc convert Sources/X/X.docc --warnings-as-errors: a broken symbol link, a missing
#      parameter's documentation or a bad directive fails.
#
# To browse one: docc preview Sources/FakeBackend/FakeBackend.docc \
#   --additional-symbol-graph-dir .build/docs/symbol-graphs/FakeBackend   (after a run)
#
# The ```swift listings of the catalogs' articles are compiled and run by the tests:
# Tests/ScenarioTests/DocCRecipes (DocCListingTests checks every listing is there), so
# `swift test` fails on a listing that does not compile or does not do what it says.
#
# Usage: scripts/docs.sh            archives in .build/docs/<Product>.doccarchive
#        DOCS_OUTPUT=DIR scripts/docs.sh
# Exit: 0 clean, 1 on an undocumented public symbol or any docc warning.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -Xswiftc -warnings-as-errors 2>&1 | tail -1
# shellcheck source=scripts/module-flags.sh
. scripts/module-flags.sh

OUTPUT="${DOCS_OUTPUT:-.build/docs}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/pushcontracts-docs.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUTPUT"

status=0
for product in "${PRODUCTS[@]}"; do
    graphs="$OUTPUT/symbol-graphs/$product"
    rm -rf "$graphs"
    mkdir -p "$graphs"
    swift-symbolgraph-extract -module-name "$product" "${MODULE_FLAGS[@]}" \
        -minimum-access-level public -output-dir "$graphs"

    # Every public symbol this product declares has a doc comment.
    if ! python3 - "$product" "$graphs" <<'PY'
import glob, json, re, sys
product, directory = sys.argv[1], sys.argv[2]
total, documented, missing = 0, 0, []
for path in sorted(glob.glob(f"{directory}/*.symbols.json")):
    for symbol in json.load(open(path))["symbols"]:
        if "location" not in symbol:
            continue  # a default implementation from the standard library
        total += 1
        if symbol.get("docComment", {}).get("lines"):
            documented += 1
        else:
            where = symbol["location"]["uri"].split("/Sources/")[-1]
            line = symbol["location"]["position"]["line"] + 1
            missing.append(f"  Sources/{where}:{line}: {'.'.join(symbol['pathComponents'])}")
print(f"{product}: {total} public symbols, {documented} documented")
# Every top-level symbol is grouped under a topic of the landing page (members are grouped
# under their type by docc itself).
landing = open(f"Sources/{product}/{product}.docc/{product}.md", encoding="utf-8").read()
top = set()
for path in sorted(glob.glob(f"{directory}/{product}.symbols.json")):
    for symbol in json.load(open(path))["symbols"]:
        if "location" in symbol and len(symbol["pathComponents"]) == 1:
            top.add(symbol["pathComponents"][0].split("(")[0])
curated = set(re.findall(r"``(?:" + product + r"/)?([^`/(]+)", landing))
uncurated = sorted(top - curated)
if uncurated:
    print(f"{product}: top-level symbols in no topic of Sources/{product}/{product}.docc/{product}.md: {', '.join(uncurated)}")
if missing:
    print(f"{product}: {len(missing)} public symbols without a doc comment (///):")
    print("\n".join(missing))
if missing or uncurated:
    sys.exit(1)
PY
    then
        status=1
    fi

    if ! docc convert "Sources/$product/$product.docc" \
        --additional-symbol-graph-dir "$graphs" \
        --fallback-display-name "$product" \
        --fallback-bundle-identifier "org.pushcontracts.$product" \
        --output-path "$OUTPUT/$product.doccarchive" \
        --warnings-as-errors > "$WORK/$product.log" 2>&1; then
        cat "$WORK/$product.log"
        echo "$product: docc convert reported warnings or errors (above)"
        status=1
    else
        echo "$product: docc convert clean, $OUTPUT/$product.doccarchive"
    fi
done
exit "$status"
