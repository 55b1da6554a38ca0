#!/usr/bin/env bash
# Runs every fuzz target in Fuzz/run.sh's table for SECONDS each and fails if any target
# found a crash (or did not build). Used by .ci/run.
#
#   Fuzz/run-all.sh SECONDS      e.g. Fuzz/run-all.sh 60
#   Fuzz/run-all.sh --build-only only the builds, one after the other (.ci/run starts this in
#                                the background; the later run finds every target built)
#
# libFuzzer runs one thread per target, so FUZZ_JOBS targets (default: the number of cores)
# build and run side by side; each still gets its full SECONDS.
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-}"
if [[ "$seconds" == --build-only && $# -eq 1 ]]; then
    for target in $("$root/Fuzz/run.sh" --list | sort); do
        "$root/Fuzz/run.sh" --build-only "$target" || { echo "Fuzz build failed: $target" >&2; exit 1; }
    done
    exit 0
fi
if [[ ! "$seconds" =~ ^[0-9]+$ ]]; then
    echo "Usage: Fuzz/run-all.sh SECONDS | --build-only" >&2
    exit 64
fi
jobs="${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}"
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || jobs=1

# JSONReader first: it builds on its own while the first transport target builds the
# FuzzLoopback library the other transport targets wait for (Fuzz/run.sh).
targets=($("$root/Fuzz/run.sh" --list | sort | awk '$0 == "JSONReader" { print; next } { rest = rest $0 "\n" } END { printf "%s", rest }'))
status_dir="$(mktemp -d)"
trap 'rm -rf "$status_dir"' EXIT

run_one() {  # run_one TARGET: build and fuzz, record the exit status
    local target="$1"
    echo "==> fuzz $target (${seconds}s)" >&2
    "$root/Fuzz/run.sh" "$target" "$seconds" > "$status_dir/$target.log" 2>&1
    echo $? > "$status_dir/$target.status"
}

running=0
for target in "${targets[@]}"; do
    run_one "$target" &
    running=$((running + 1))
    if (( running >= jobs )); then
        wait -n
        running=$((running - 1))
    fi
done
wait

failed=()
summary=()
for target in "${targets[@]}"; do
    if [[ "$(cat "$status_dir/$target.status" 2>/dev/null)" == "0" ]]; then
        execs="$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$root/Fuzz/out/$target/last-run.log" | grep -Eo '[0-9]+$' || echo '?')"
        summary+=("$target: $execs executions in ${seconds}s, no crashes")
    else
        failed+=("$target")
        summary+=("$target: FAILED (see Fuzz/out/$target/)")
        tail -n 40 "$status_dir/$target.log" >&2
    fi
done
printf '%s\n' "${summary[@]}" >&2
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "Fuzzing failed: ${failed[*]}" >&2
    exit 1
fi
