#!/usr/bin/env bash
# Builds one libFuzzer target and runs it for a bounded time.
#
#   Fuzz/run.sh TARGET SECONDS      e.g. Fuzz/run.sh JSONReader 60
#   Fuzz/run.sh --build-only TARGET  only the build (.ci/run builds every target early, in the background)
#   Fuzz/run.sh --list
#
# A target is Fuzz/<TARGET>/main.swift (defining LLVMFuzzerTestOneInput) compiled in ONE
# module with the library sources it exercises, by swiftc -sanitize=fuzzer,address. Its
# seed corpus is Fuzz/corpus/<corpus>/, copied to a scratch folder so the run never
# modifies the committed corpus. Crashes are written to Fuzz/out/<TARGET>/ (crash-*,
# leak-*, timeout-*); the script exits non-zero when libFuzzer found one. A target whose
# sources, flags, compiler and this script are unchanged since its last build is not built
# again (a stamp of all of them beside the binary).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

# ---- The one place that lists targets -------------------------------------------------
# LoopbackHTTP compiled whole, with the two layers below it (PushCore, PushCrypto) and the
# shared FuzzInput chunker, as one module: the build step drops their `import PushCore` /
# `import PushCrypto` lines. Its `package` declarations need a package name, and its
# `import CLoopbackShim` (header-only) finds the module map that the build step below
# writes into Fuzz/out/modules/.
LOOPBACK="Sources/PushCore/*.swift Sources/PushCrypto/*.swift Sources/LoopbackHTTP/*.swift Sources/LoopbackHTTP/*/*.swift Fuzz/Support/*.swift"
LOOPBACK_FLAGS="-package-name PushContracts -I $root/Fuzz/out/modules"
# JSONReader and the files it reaches (the string formats' matchers and the schema types and
# validator they name), not the whole of Contracts: a third of the module's files, so its -O,
# ASan build takes a third of the time. When a source comes to need another file this build
# fails with "cannot find 'X' in scope": add X's file.
V="Sources/Contracts/Validation"
JSON="Sources/Contracts/JSON*.swift Sources/Contracts/SWAR.swift Sources/Contracts/Violation.swift Sources/Contracts/Schema/*.swift
      $V/ASCIIStringCheck.swift $V/GenericRuleIDs.swift $V/JSONPointer.swift $V/NodeQuery.swift $V/SchemaValidator.swift $V/Suggestion.swift"
# sources: globs relative to the package root, compiled together with Fuzz/<TARGET>/main.swift.
# corpus:  folder name under Fuzz/corpus/.
# flags:   extra swiftc flags (e.g. -I for a C module, -Xcc ...); C files in sources are
#          compiled with clang first and linked in.
declare -A SOURCES=(
    [JSONReader]="$JSON"
    [HTTP1Parser]="$LOOPBACK"
    [HTTP2Frames]="$LOOPBACK"
    [HPACK]="$LOOPBACK"
    [HTTP2Connection]="$LOOPBACK"
    [TLSServer]="$LOOPBACK"
)
declare -A CORPUS=(
    [JSONReader]="json"
    [HTTP1Parser]="http1"
    [HTTP2Frames]="http2-frames"
    [HPACK]="hpack"
    [HTTP2Connection]="http2-connection"
    [TLSServer]="tls"
)
declare -A FLAGS=(
    [JSONReader]="-package-name PushContracts"
    [HTTP1Parser]="$LOOPBACK_FLAGS"
    [HTTP2Frames]="$LOOPBACK_FLAGS"
    [HPACK]="$LOOPBACK_FLAGS"
    [HTTP2Connection]="$LOOPBACK_FLAGS"
    [TLSServer]="$LOOPBACK_FLAGS"
)
# dict:    optional libFuzzer dictionary under Fuzz/dict/.
declare -A DICT=(
    [JSONReader]="json.dict"
    [HTTP1Parser]="http1.dict"
)
# reach:   functions the seed corpus alone must cover (space-separated extended regexes,
#          matched against libFuzzer's -print_coverage COVERED_FUNC lines), checked before
#          fuzzing: a harness or seed change that stops reaching them fails the run. TLSServer:
#          the client's Certificate and CertificateVerify under client authentication.
declare -A REACH=(
    [TLSServer]="receiveClientCertificate[^V] receiveClientCertificateVerify"
)
# -----------------------------------------------------------------------------------------

usage() {
    echo "Usage: Fuzz/run.sh TARGET SECONDS | --build-only TARGET | --list   (targets: ${!SOURCES[*]})" >&2
    exit 64
}

if [[ "${1:-}" == "--list" ]]; then
    printf '%s\n' "${!SOURCES[@]}"
    exit 0
fi
build_only=0
if [[ "${1:-}" == "--build-only" ]]; then
    [[ $# -eq 2 ]] || usage
    build_only=1
    set -- "$2" 0
fi
[[ $# -eq 2 ]] || usage
target="$1"
seconds="$2"
[[ -n "${SOURCES[$target]+set}" ]] || { echo "Error: unknown fuzz target '$target'" >&2; usage; }
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "Error: SECONDS must be a whole number, got '$seconds'" >&2; usage; }

# ---- libFuzzer runtime -------------------------------------------------------------------
# swiftc links clang's libFuzzer and ASan runtimes from the toolchain's clang resource
# folder. Swift's Linux toolchains ship them; when one does not, take Debian's compiler-rt
# (libclang-rt-dev) and link its libFuzzer archives into that folder.
swiftc_path="$(command -v swiftc)"
toolchain_lib="$(cd "$(dirname "$(readlink -f "$swiftc_path")")/../lib" && pwd)"
clang_rt_dir="$(ls -d "$toolchain_lib"/clang/*/lib/linux 2>/dev/null | head -n 1 || true)"
arch="$(uname -m)"
if [[ "$(uname -s)" == "Linux" && ( -z "$clang_rt_dir" || ! -e "$clang_rt_dir/libclang_rt.fuzzer-$arch.a" ) ]]; then
    echo "libFuzzer runtime missing from the Swift toolchain; installing Debian's libclang-rt-dev" >&2
    if ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-"$arch".a >/dev/null 2>&1; then
        # A lock timeout: .ci/run's peer install may hold apt's lock when the builds start.
        apt-get -o DPkg::Lock::Timeout=300 update -qq
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq libclang-rt-dev >/dev/null
    fi
    debian_rt="$(ls -d /usr/lib/llvm-*/lib/clang/*/lib/linux 2>/dev/null | sort -V | tail -n 1)"
    if [[ -z "$clang_rt_dir" ]]; then
        clang_rt_dir="$(ls -d "$toolchain_lib"/clang/* | head -n 1)/lib/linux"
        mkdir -p "$clang_rt_dir"
    fi
    for lib in "$debian_rt"/libclang_rt.fuzzer*-"$arch".a; do
        ln -sf "$lib" "$clang_rt_dir/$(basename "$lib")"
    done
fi

# ---- Build -------------------------------------------------------------------------------
out="$root/Fuzz/out/$target"
mkdir -p "$out" "$root/Fuzz/out/modules"
# SwiftPM synthesises CLoopbackShim's module map; outside SwiftPM we write the same one.
# Written to a temporary file and renamed, so targets built in parallel never read it half-written.
modulemap_tmp="$(mktemp "$root/Fuzz/out/modules/module.modulemap.XXXXXX")"
cat > "$modulemap_tmp" <<MODULEMAP
module CLoopbackShim {
    header "$root/Sources/CLoopbackShim/include/CLoopbackShim.h"
    export *
}
MODULEMAP
mv -f "$modulemap_tmp" "$root/Fuzz/out/modules/module.modulemap"
# Library sources are copied without the imports of the layers compiled into the same
# module. prepare_sources FOLDER PATTERNS…: fills swift_files and c_objects.
prepare_sources() {
    local into="$1" pattern file copy object
    shift
    swift_files=()
    c_objects=()
    rm -rf "$into"
    for pattern in "$@"; do
        for file in $root/$pattern; do
            case "$file" in
                "$root"/Sources/*.swift)
                    copy="$into/${file#"$root"/Sources/}"
                    mkdir -p "$(dirname "$copy")"
                    grep -v -E '^import (PushCore|PushCrypto)$' "$file" > "$copy"
                    swift_files+=("$copy") ;;
                *.swift) swift_files+=("$file") ;;
                *.c)
                    mkdir -p "$into"
                    object="$into/$(basename "$file" .c).o"
                    clang -O1 -g -fsanitize=fuzzer-no-link,address -I "$(dirname "$file")/include" -c "$file" -o "$object"
                    c_objects+=("$object") ;;
            esac
        done
    done
}
# The toolchain's lld links ASan objects without gold's "cannot export local symbol" noise.
linker=()
if [[ -x "$(dirname "$(readlink -f "$swiftc_path")")/ld.lld" ]]; then linker=(-use-ld=lld); fi
# Whole-module optimization, its code generation on every core: the transport library's
# build took 120 s on one core in per-file mode (each frontend type-checks the files again),
# 67 s and 84 CPU-seconds so (2 cores).
# With -g, a whole-module build also writes <Module>-1.swiftmodule (and .swiftdoc,
# .swiftsourceinfo) into the folder it runs in: each build runs in its output folder.
swift_flags=(-sanitize=fuzzer,address -parse-as-library -O -wmo -num-threads "$(nproc 2>/dev/null || echo 1)" -g -swift-version 6)
# stale STAMP_FILE STAMP OUTPUT: OUTPUT is missing, or was built from other inputs than STAMP's.
stale() {
    [[ "$(cat "$1" 2>/dev/null)" != "$2" || ! -e "$3" ]]
}

if [[ "${SOURCES[$target]}" == "$LOOPBACK" ]]; then
    # The transport targets share one build of their library sources: a static library
    # FuzzLoopback (built with -enable-testing, so each target's main.swift reaches its
    # internal declarations through `@testable import`), rebuilt only when a source, this
    # script or the compiler changes. A lock keeps targets started side by side from
    # building it twice.
    lib="$root/Fuzz/out/lib-loopback"
    mkdir -p "$lib"
    exec 9>"$lib.lock"
    flock 9
    # shellcheck disable=SC2086
    stamp="$( (swiftc --version 2>&1; cat "$0" $LOOPBACK) | sha256sum | cut -d' ' -f1)"
    if stale "$lib/stamp" "$stamp" "$lib/libFuzzLoopback.a"; then
        prepare_sources "$lib/src" $LOOPBACK
        echo "Building the transport library FuzzLoopback (${#swift_files[@]} Swift files) into Fuzz/out/lib-loopback/" >&2
        rm -f "$lib/stamp"
        # shellcheck disable=SC2086
        (cd "$lib" && swiftc "${swift_flags[@]}" -enable-testing -module-name FuzzLoopback $LOOPBACK_FLAGS \
            -emit-module -emit-module-path "$lib/FuzzLoopback.swiftmodule" \
            -emit-library -static -o "$lib/libFuzzLoopback.a" "${swift_files[@]}")
        echo "$stamp" > "$lib/stamp"
    fi
    flock -u 9
    target_stamp="$( (echo "$stamp ${FLAGS[$target]}"; cat "$root/Fuzz/$target/main.swift") | sha256sum | cut -d' ' -f1)"
    if stale "$out/stamp" "$target_stamp" "$out/fuzz-$target"; then
        rm -rf "$out/src" "$out/stamp"
        mkdir -p "$out/src"
        { echo '@testable import FuzzLoopback'; cat "$root/Fuzz/$target/main.swift"; } > "$out/src/main.swift"
        echo "Building $target against FuzzLoopback into Fuzz/out/$target/" >&2
        # shellcheck disable=SC2086
        (cd "$out" && swiftc "${swift_flags[@]}" -module-name "Fuzz$target" ${linker[@]+"${linker[@]}"} ${FLAGS[$target]} \
            -I "$lib" -L "$lib" -lFuzzLoopback "$out/src/main.swift" -o "$out/fuzz-$target")
        echo "$target_stamp" > "$out/stamp"
    else
        echo "$target: built already (Fuzz/out/$target/fuzz-$target, same sources)" >&2
    fi
else
    # shellcheck disable=SC2086
    target_stamp="$( (swiftc --version 2>&1; echo "${FLAGS[$target]}"; cat "$0" ${SOURCES[$target]} "Fuzz/$target/main.swift") | sha256sum | cut -d' ' -f1)"
    if stale "$out/stamp" "$target_stamp" "$out/fuzz-$target"; then
        rm -f "$out/stamp"
        prepare_sources "$out/src" ${SOURCES[$target]}
        echo "Building $target (${#swift_files[@]} Swift files) into Fuzz/out/$target/" >&2
        # shellcheck disable=SC2086
        (cd "$out" && swiftc "${swift_flags[@]}" -module-name "Fuzz$target" ${linker[@]+"${linker[@]}"} ${FLAGS[$target]} \
            "${swift_files[@]}" "$root/Fuzz/$target/main.swift" ${c_objects[@]+"${c_objects[@]}"} \
            -o "$out/fuzz-$target")
        echo "$target_stamp" > "$out/stamp"
    else
        echo "$target: built already (Fuzz/out/$target/fuzz-$target, same sources)" >&2
    fi
fi
[[ "$build_only" == 0 ]] || exit 0

# ---- Run ---------------------------------------------------------------------------------
scratch="$(mktemp -d "${TMPDIR:-/tmp}/fuzz-$target.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
cp -R "$root/Fuzz/corpus/${CORPUS[$target]}/." "$scratch/"
echo "Running $target for ${seconds}s on a copy of Fuzz/corpus/${CORPUS[$target]}/" >&2
dict_flag=()
if [[ -n "${DICT[$target]:-}" ]]; then dict_flag=(-dict="$root/Fuzz/dict/${DICT[$target]}"); fi
if [[ -n "${REACH[$target]:-}" ]]; then
    SWIFT_BACKTRACE=enable=no "$out/fuzz-$target" "$scratch" -runs=0 -print_coverage=1 -max_len=8192 \
        > "$out/seed-coverage.log" 2>&1 || true
    for function in ${REACH[$target]}; do
        # One grep, no pipe: under pipefail `grep … | grep -q` failed when -q's early exit
        # left the first grep writing to a closed pipe (SIGPIPE) on a long coverage list.
        if ! grep -Eq "^COVERED_FUNC.*$function" "$out/seed-coverage.log"; then
            echo "FUZZ FAILURE: $target's seeds do not reach /$function/ (Fuzz/out/$target/seed-coverage.log)" >&2
            exit 1
        fi
        echo "$target: the seeds reach $(grep -E -m 1 "^COVERED_FUNC.*$function" "$out/seed-coverage.log" | sed -E 's/^COVERED_FUNC: //; s/ +\/.*$//')" >&2
    done
fi
set +e
# Swift's own crash backtracer would race ASan's report; let libFuzzer/ASan report alone.
SWIFT_BACKTRACE=enable=no "$out/fuzz-$target" "$scratch" \
    -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$out/" -print_final_stats=1 ${dict_flag[@]+"${dict_flag[@]}"} 2>&1 \
    | tee "$out/last-run.log" | grep -vE '^#[0-9]+\s+(NEW|REDUCE|pulse)|# Uses: |ecommended dictionary'
status=${PIPESTATUS[0]}
set -e
if [[ $status -ne 0 ]]; then
    echo "FUZZ FAILURE: $target exited $status; reproducer(s) in Fuzz/out/$target/ (see last-run.log)" >&2
    exit 1
fi
execs="$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$out/last-run.log" | grep -Eo '[0-9]+$' || echo '?')"
echo "$target: $execs executions in ${seconds}s, no crashes" >&2
