#!/usr/bin/env bash
# Third-party agreement: validates every fixture (Fixtures/valid, Fixtures/invalid) against the
# JSON Schemas contract-check emits, with Python's `jsonschema` (Draft 2020-12).
#
#   - every valid fixture must pass;
#   - every invalid fixture whose .expect lists a rule id the schemas enforce (from
#     `contract-check schema --expressible-rules`) must fail;
#   - invalid fixtures whose ids are all inexpressible (duplicate keys, size, warnings, rules
#     listed in x-rules, not JSON) are counted, not judged.
#
# Usage: scripts/check-schemas-thirdparty.sh
#        CONTRACT_CHECK_BIN=path/to/contract-check scripts/check-schemas-thirdparty.sh  (skip the build)
# Exit: 0 when every judged fixture agrees, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! python3 -c "import jsonschema" 2>/dev/null; then
    echo "== installing jsonschema from PyPI"
    python3 -m pip install --quiet jsonschema
fi

if [ -n "${CONTRACT_CHECK_BIN:-}" ]; then
    BIN="$CONTRACT_CHECK_BIN"
else
    echo "== building contract-check"
    swift build --product contract-check 2>&1 | tail -1
    BIN="$(swift build --show-bin-path)/contract-check"
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/schemas-thirdparty.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
"$BIN" schema --write --dir "$WORK/schemas" >/dev/null
"$BIN" schema --expressible-rules > "$WORK/rules.json"

python3 - "$WORK/schemas" "$WORK/rules.json" Fixtures <<'PY'
import json, os, sys
from importlib.metadata import version
import jsonschema

schemas_dir, rules_path, fixtures = sys.argv[1], sys.argv[2], sys.argv[3]
rules = json.load(open(rules_path))
expressible = set(rules["expressible"])
validators = {}

def validator(file_name):
    if file_name not in validators:
        schema = json.load(open(os.path.join(schemas_dir, file_name)))
        jsonschema.Draft202012Validator.check_schema(schema)
        validators[file_name] = jsonschema.Draft202012Validator(schema)
    return validators[file_name]

def expected_ids(path):
    stem = os.path.splitext(path)[0]
    try:
        with open(stem + ".expect") as f:
            return [l.split()[0] for l in f if l.strip() and not l.strip().startswith("#")]
    except FileNotFoundError:
        return []

counts = {"valid-pass": 0, "invalid-fail": 0, "skipped": 0, "disagree": 0}
skipped_ids = {}
for kind in ("valid", "invalid"):
    root = os.path.join(fixtures, kind)
    for folder in sorted(os.listdir(root)):
        for name in sorted(os.listdir(os.path.join(root, folder))):
            path = os.path.join(root, folder, name)
            ext = name.rsplit(".", 1)[-1]
            if ext == "expect":
                continue
            schema_file = rules["extensions"].get(ext) or rules["folders"].get(folder)
            if schema_file is None:
                continue
            ids = expected_ids(path)
            try:
                with open(path, "rb") as f:
                    document = json.loads(f.read().decode("utf-8"))
                errors = sorted(validator(schema_file).iter_errors(document), key=lambda e: list(e.path))
            except (ValueError, RecursionError) as error:
                document, errors = None, ["not JSON to Python: %s" % error]
            if kind == "valid":
                if errors:
                    counts["disagree"] += 1
                    print("DISAGREE valid fixture fails jsonschema: %s: %s" % (path, getattr(errors[0], "message", errors[0])))
                else:
                    counts["valid-pass"] += 1
                continue
            judged = [i for i in ids if i in expressible]
            if not judged:
                counts["skipped"] += 1
                for i in ids:
                    skipped_ids[i] = skipped_ids.get(i, 0) + 1
                continue
            if errors:
                counts["invalid-fail"] += 1
            else:
                counts["disagree"] += 1
                print("DISAGREE invalid fixture passes jsonschema: %s (expects %s)" % (path, ", ".join(judged)))

print("jsonschema %s, Draft 2020-12, %d schemas" % (version("jsonschema"), len(validators)))
print("valid fixtures passing: %d" % counts["valid-pass"])
print("invalid fixtures failing (expressible rule): %d" % counts["invalid-fail"])
print("invalid fixtures not judged (only inexpressible rules): %d  %s" % (counts["skipped"], ", ".join(sorted(skipped_ids))))
print("disagreements: %d" % counts["disagree"])
sys.exit(1 if counts["disagree"] else 0)
PY
