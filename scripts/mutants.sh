#!/usr/bin/env bash
# Mutation check: plants the small bugs listed in scripts/mutants.list one at a time, builds
# incrementally, runs the tests each mutant names, restores the file, and prints killed or
# survived with a kill rate. A test suite that lets a listed bug through fails the run.
#
#   scripts/mutants.sh                    every mutant in the list
#   scripts/mutants.sh ID...              only these mutants
#   scripts/mutants.sh --sample N         N mutants chosen by the commit (see below)
#   scripts/mutants.sh --budget SECONDS   start no new mutant after SECONDS (reported as not run)
#   scripts/mutants.sh --check            only check the list: every mutant's text occurs
#                                         exactly once in its file and its tests exist
#
# --sample picks N mutants in an order seeded by the commit's hash (MUTANTS_SEED overrides):
# each commit proves a different part of the list, every mutant of a module equally likely,
# and the same commit always picks the same mutants. CI runs a sample within a budget.
#
# A mutant whose text is not found exactly once, that does not build, or whose tests match
# nothing is "invalid": the list is reviewed like tests, so such a mutant is replaced, and
# the run fails. A hung test run counts as killed (MUTANT_TIMEOUT seconds, default 300).
# The build uses the flags of CI's build step (-warnings-as-errors), so it stays incremental
# (SWIFT_BUILD_FLAGS overrides). Each file is restored on exit, whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."

exec python3 - "$@" <<'PYTHON'
import hashlib, os, random, re, shlex, signal, subprocess, sys, time

LIST = "scripts/mutants.list"
FLAGS = shlex.split(os.environ.get("SWIFT_BUILD_FLAGS", "-Xswiftc -warnings-as-errors"))
TIMEOUT = int(os.environ.get("MUTANT_TIMEOUT", "300"))

def usage(message):
    print(f"Error: {message}\nUsage: scripts/mutants.sh [--check] [--sample N] [--budget SECONDS] [ID...]", file=sys.stderr)
    sys.exit(64)

def parse(path):
    mutants, current = [], None
    for number, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        key, _, value = line.partition(": ") if not line[:2] in ("- ", "+ ") else (line[0], None, line[2:])
        if key == "mutant":
            current = {"id": value.strip(), "line": number}
            mutants.append(current)
        elif current is None:
            usage(f"{path}:{number}: a block starts with 'mutant: ID'")
        elif key in ("file", "tests", "why"):
            current[key] = value.strip()
        elif key in ("-", "+"):
            current["find" if key == "-" else "replace"] = value.strip()
        else:
            usage(f"{path}:{number}: unknown line {line!r}")
    ids = [m["id"] for m in mutants]
    for m in mutants:
        missing = [k for k in ("file", "tests", "why", "find", "replace") if k not in m]
        if missing:
            usage(f"{path}:{m['line']}: mutant {m['id']} lacks {', '.join(missing)}")
        if ids.count(m["id"]) > 1:
            usage(f"{path}:{m['line']}: mutant id {m['id']} is listed twice")
    return mutants

def module(m):
    parts = m["file"].split("/")
    return parts[1] if len(parts) > 2 else parts[0]

def occurrences(m):
    try:
        return open(m["file"], encoding="utf-8").read().count(m["find"])
    except OSError:
        return -1

def sample(mutants, count):
    seed = os.environ.get("MUTANTS_SEED") or subprocess.run(
        ["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip() or "0"
    rng = random.Random(int(hashlib.sha256(seed.encode()).hexdigest(), 16))
    # Round-robin over the modules in a seeded order, a seeded mutant of each in turn.
    by_module = {}
    for m in mutants:
        by_module.setdefault(module(m), []).append(m)
    queues = [rng.sample(group, len(group)) for _, group in sorted(by_module.items())]
    rng.shuffle(queues)
    picked = []
    while len(picked) < count and any(queues):
        for queue in queues:
            if queue and len(picked) < count:
                picked.append(queue.pop())
    print(f"sample of {len(picked)} from {len(mutants)} mutants, seed {seed[:12]}")
    return picked

def run(command, timeout=None):
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               start_new_session=True)
    try:
        output, _ = process.communicate(timeout=timeout)
        return process.returncode, output
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        return None, output

def tests_ran(output):
    """Swift Testing's and XCTest's own counts: were any tests selected by the filter? Either
    may report 0 (XCTest says "Executed 0 tests" when the filter names only Swift Testing suites)."""
    counts = re.findall(r"(?:Test run with|Executed) ([0-9]+) tests?", output)
    return any(int(count) > 0 for count in counts)

args = sys.argv[1:]
check_only, count, budget, wanted = False, None, None, []
while args:
    arg = args.pop(0)
    if arg == "--check":
        check_only = True
    elif arg in ("--sample", "--budget"):
        if not args or not args[0].isdigit():
            usage(f"{arg} needs a whole number")
        value = int(args.pop(0))
        if arg == "--sample": count = value
        else: budget = value
    elif arg in ("-h", "--help"):
        for line in open("scripts/mutants.sh", encoding="utf-8").read().splitlines()[1:]:
            if not line.startswith("#"): break
            print(line[2:])
        sys.exit(0)
    elif arg.startswith("-"):
        usage(f"unknown option {arg}")
    else:
        wanted.append(arg)

mutants = parse(LIST)
known = {m["id"] for m in mutants}
unknown = [w for w in wanted if w not in known]
if unknown:
    usage(f"no mutant {', '.join(unknown)} in {LIST}")
if wanted:
    mutants = [m for m in mutants if m["id"] in wanted]

# The list itself: each mutant's text once in its file, its tests named in Tests/.
test_sources = ""
for root, _, files in os.walk("Tests"):
    for name in files:
        if name.endswith(".swift"):
            test_sources += open(os.path.join(root, name), encoding="utf-8").read()
problems = []
for m in mutants:
    found = occurrences(m)
    if found != 1:
        problems.append(f"{m['id']}: its text occurs {found} times in {m['file']} (must be once)")
    if m["find"] == m["replace"]:
        problems.append(f"{m['id']}: the replacement is the original")
    for suite in m["tests"].split("|"):
        name = suite.split("/")[0].split(".")[-1]
        if f"struct {name}" not in test_sources and f"class {name}" not in test_sources:
            problems.append(f"{m['id']}: no test suite {name} in Tests/")
per_module = {}
for m in parse(LIST):
    per_module[module(m)] = per_module.get(module(m), 0) + 1
print("mutants per module: " + ", ".join(f"{k} {v}" for k, v in sorted(per_module.items())))
if problems:
    print("invalid mutants:\n  " + "\n  ".join(problems))
    sys.exit(1)
if check_only:
    print(f"{len(mutants)} mutants, list checked")
    sys.exit(0)
if count is not None:
    mutants = sample(mutants, count)

originals = {}
def restore():
    for path, text in originals.items():
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    originals.clear()
def on_signal(number, frame):
    restore()
    sys.exit(128 + number)
signal.signal(signal.SIGTERM, on_signal)
signal.signal(signal.SIGINT, on_signal)

print("==> the unmutated build")
status, output = run(["swift", "build", "--build-tests"] + FLAGS)
if status != 0:
    print(output[-3000:])
    sys.exit("the unmutated tree does not build")

started = time.monotonic()
results = []
try:
    for index, m in enumerate(mutants, 1):
        if budget is not None and time.monotonic() - started > budget:
            results.append((m, "not run", "budget spent", 0))
            continue
        began = time.monotonic()
        text = open(m["file"], encoding="utf-8").read()
        originals[m["file"]] = text
        with open(m["file"], "w", encoding="utf-8") as f:
            f.write(text.replace(m["find"], m["replace"], 1))
        status, output = run(["swift", "build", "--build-tests"] + FLAGS)
        if status != 0:
            errors = [l for l in output.splitlines() if "error:" in l][:3]
            verdict, detail = "invalid", "does not build: " + " | ".join(errors)
        else:
            status, output = run(["swift", "test", "--skip-build"] + FLAGS + ["--filter", m["tests"]], timeout=TIMEOUT)
            if status is None:
                verdict, detail = "killed", f"tests timed out after {TIMEOUT}s"
            elif not tests_ran(output):
                verdict, detail = "invalid", f"--filter {m['tests']} ran no test"
            elif status != 0:
                failing = sorted({l.split("Test ")[1].split(" recorded")[0] for l in output.splitlines()
                                  if "recorded an issue" in l and "Test " in l})
                verdict, detail = "killed", "by " + (", ".join(failing[:3]) or m["tests"])
            else:
                verdict, detail = "survived", f"{m['tests']} passed"
        restore()
        seconds = time.monotonic() - began
        results.append((m, verdict, detail, seconds))
        print(f"[{index}/{len(mutants)}] {verdict:8} {m['id']} ({seconds:.0f}s) {detail}", flush=True)
finally:
    restore()

ran = [r for r in results if r[1] in ("killed", "survived")]
killed = sum(1 for r in results if r[1] == "killed")
survived = [r for r in results if r[1] == "survived"]
invalid = [r for r in results if r[1] == "invalid"]
skipped = sum(1 for r in results if r[1] == "not run")
rate = 100.0 * killed / len(ran) if ran else 0.0
print(f"mutants: {killed} killed, {len(survived)} survived, {len(invalid)} invalid, {skipped} not run; "
      f"kill rate {rate:.1f}% ({time.monotonic() - started:.0f}s)")
for m, _, detail, _ in survived + invalid:
    print(f"  {m['id']} ({m['file']}): {detail} — {m['why']}")
sys.exit(1 if survived or invalid else 0)
PYTHON
