#!/usr/bin/env bash
# Runs every fuzz target in Fuzz/run.sh's table for SECONDS each, one after another, and
# fails if any target found a crash (or did not build). Used by .ci/run.
#
#   Fuzz/run-all.sh SECONDS      e.g. Fuzz/run-all.sh 60
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-}"
if [[ ! "$seconds" =~ ^[0-9]+$ ]]; then
    echo "Usage: Fuzz/run-all.sh SECONDS" >&2
    exit 64
fi

failed=()
summary=()
for target in $("$root/Fuzz/run.sh" --list | sort); do
    echo "==> fuzz $target (${seconds}s)" >&2
    if "$root/Fuzz/run.sh" "$target" "$seconds"; then
        execs="$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$root/Fuzz/out/$target/last-run.log" | grep -Eo '[0-9]+$' || echo '?')"
        summary+=("$target: $execs executions, no crashes")
    else
        failed+=("$target")
        summary+=("$target: FAILED (see Fuzz/out/$target/)")
    fi
done
printf '%s\n' "${summary[@]}" >&2
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "Fuzzing failed: ${failed[*]}" >&2
    exit 1
fi
