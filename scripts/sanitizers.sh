#!/usr/bin/env bash
# Runs the test suite under sanitizers, in separate build folders so the normal .build
# is never rebuilt with sanitizer flags.
#
#   scripts/sanitizers.sh                 thread sanitizer, every test target
#   scripts/sanitizers.sh thread address  both, one after the other
#   SANITIZER_FILTER=LoopbackHTTPTests scripts/sanitizers.sh thread   one target
#   scripts/sanitizers.sh --build-only thread   only the build (.ci/run starts it early, niced, in the
#                                               background; the later full run finds it done)
#
# The whole suite runs under TSan, once built (the build dominates: about 4 minutes on 2
# cores), one test target per process, all but the cryptography suites' pure functions
# and ContractsTests, which start no thread (see below; SANITIZER_CRYPTO=1 and
# SANITIZER_CONTRACTS=1 run them too). Any sanitizer
# report fails the run: TSan and ASan make the test process exit non-zero. ASan runs with
# detect_leaks=0: LeakSanitizer reports only leaks in Foundation (file reads), libcurl
# (URLSession) and XCTest, none in our Sources/.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
build_only=0
if [[ "${1:-}" == --build-only ]]; then
    build_only=1
    shift
fi
sanitizers=("$@")
[[ ${#sanitizers[@]} -gt 0 ]] || sanitizers=(thread)

for sanitizer in "${sanitizers[@]}"; do
    case "$sanitizer" in
        thread|address) ;;
        *) echo "Usage: scripts/sanitizers.sh [--build-only] [thread] [address]" >&2; exit 64 ;;
    esac
    scratch="$root/.build-${sanitizer:0:1}san"
    echo "==> swift build --build-tests --sanitize=$sanitizer (build folder ${scratch#"$root"/})" >&2
    started=$(date +%s)
    swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch"
    if [[ "$build_only" == 1 ]]; then
        echo "<== $sanitizer sanitizer: built ($(( $(date +%s) - started ))s)" >&2
        continue
    fi
    # One test target per process: FakeAPNs' P-256 tests are CPU-bound and, slowed down by
    # a sanitizer, hold the two cooperative threads for ~30 s; in a shared process that
    # stalls other targets' awaits (a LoopbackHTTP stop() test then exceeds its bound).
    targets=("${SANITIZER_FILTER:-}")
    if [[ -z "${SANITIZER_FILTER:-}" ]]; then
        targets=()
        for folder in "$root"/Tests/*Tests/; do targets+=("^$(basename "$folder")\\."); done
    fi
    # HTTPServerFaultTests bounds how long stop() may take (30 s); beside LoopbackHTTP's
    # CPU-bound suites, slowed by a sanitizer, an await there waited 35 s for a cooperative
    # thread. So that file's suites run in a process of their own, after the rest of their
    # target (`--skip` matches the file name too, so it leaves out both of its suites).
    solo='HTTPServerFaultTests'
    # The cryptography suites (the PushCryptoTests target, and FakeAPNsTests' provider-key
    # suites ProviderKey*Tests and ProviderToken{Signing,OpenSSL}Tests: known-answer vectors, openssl
    # and Python cross-checks of pure functions on values) share nothing between threads, so
    # TSan has nothing to look at in them, and slowed ~20x by it they held both cooperative
    # threads for two minutes (PBKDF2's 80,000 rounds alone 164 s). They run in step_test and
    # step_test_poll; under TSan the code they test still runs, concurrently, in the TLS
    # handshake, certificate and provider-token suites. SANITIZER_CRYPTO=1 includes them.
    crypto=()
    [[ "${SANITIZER_CRYPTO:-0}" == 1 ]] || crypto=(--skip '\.(TLS)?Crypto[A-Za-z0-9]*Tests|\.ProviderKey[A-Za-z0-9]*Tests|\.ProviderToken(Signing|OpenSSL)Tests')
    # ContractsTests (the validator, the reader, the schemas) start no thread and no task,
    # and Contracts shares no mutable state: no lock, no thread, no task, no unchecked
    # Sendable, so TSan has nothing there to look at (the same code runs under TSan inside
    # the fakes, which validate every request on their loop threads). The grep below keeps
    # it so: the target runs again as soon as either folder holds such a construct.
    # Only under TSan: ASan's checks (bounds, use after free) apply to one thread's code too.
    # SANITIZER_CONTRACTS=1 runs it anyway.
    contracts_concurrent=0
    [[ "$sanitizer" == thread ]] || contracts_concurrent=1
    grep -rqwE '@unchecked|nonisolated\(unsafe\)|Thread|DispatchQueue|DispatchGroup|Task|async|await|Locked|Offloaded|Mutex|Atomic|pthread_create|concurrentPerform' \
        "$root/Sources/Contracts" "$root/Tests/ContractsTests" && contracts_concurrent=1
    for filter in "${targets[@]}"; do
        [[ "$filter" == '^PushCryptoTests\.' && "${SANITIZER_CRYPTO:-0}" != 1 ]] && continue
        [[ "$filter" == '^ContractsTests\.' && "$contracts_concurrent" == 0 && "${SANITIZER_CONTRACTS:-0}" != 1 ]] && continue
        runs=("$filter")
        [[ "$filter" == '^LoopbackHTTPTests\.' ]] && runs=("$filter --skip $solo" "^LoopbackHTTPTests\.HTTPServer(Fault|SelfControl)Tests")
        for run in "${runs[@]}"; do
            echo "==> swift test --sanitize=$sanitizer --filter $run" >&2
            read -r -a arguments <<<"$run"
            # halt_on_error=0 lists every race, not only the first; the exit status still fails.
            TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0 second_deadlock_stack=1}" \
            ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" \
                swift test --sanitize="$sanitizer" --scratch-path "$scratch" --skip-build --filter "${arguments[@]}" \
                    ${crypto[@]+"${crypto[@]}"}
        done
    done
    echo "<== $sanitizer sanitizer: tests passed, no reports ($(( $(date +%s) - started ))s)" >&2
done
