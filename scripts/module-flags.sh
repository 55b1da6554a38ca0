# Sourced by scripts/docs.sh and scripts/api-check.sh: the flags that load the four products'
# modules from the existing debug build (no second build with other flags).
#
# Sets BIN (the build's bin directory), TRIPLE and MODULE_FLAGS (-I, the C shim's module
# map, the target and, on Darwin, the SDK), and PRODUCTS. The caller builds first:
#   swift build -Xswiftc -warnings-as-errors   (CI's flags; a no-op after step_build)
PRODUCTS=(Contracts FakeBackend FakeAPNs PushScenarios)
BIN="$(swift build -Xswiftc -warnings-as-errors --show-bin-path)"
TRIPLE="$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')"
MODULE_FLAGS=(-I "$BIN/Modules" -target "$TRIPLE")
# LoopbackHTTP imports the C module CLoopbackShim; its module map sits beside its objects.
if [ -f "$BIN/CLoopbackShim.build/module.modulemap" ]; then
    MODULE_FLAGS+=(-Xcc "-fmodule-map-file=$BIN/CLoopbackShim.build/module.modulemap")
fi
if [ "$(uname -s)" = Darwin ]; then
    MODULE_FLAGS+=(-sdk "$(xcrun --show-sdk-path)")
fi
