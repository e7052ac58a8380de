#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer (and LeakSanitizer), in its own build folder.
#
#   bash Tests/run-asan.sh            # every suite but the two that spend their time in swiftc
#   bash Tests/run-asan.sh --all      # every suite
#
# DifferentialGeneration and HostileNameGeneration mostly run `swiftc` and the programs it
# builds as subprocesses, which ASan does not instrument; they are skipped unless --all is
# given (they pass under ASan too, slowly).
#
# Leaks: LeakSanitizer checks the test process and every `flowspec` it runs (built with ASan
# too) at exit; a leak makes a process exit non-zero, so a leak in flowspec fails its test.
# The only leaks it finds are Foundation's, as the tests use it (file-reading buffers and
# Process.run's side table): Tests/lsan-suppressions.txt lists exactly those.
set -euo pipefail
cd "$(dirname "$0")/.."

skip=(--skip "DifferentialGeneration|HostileNameGeneration")
if [ "${1:-}" = "--all" ]; then skip=(); fi

# The toolchain's llvm-symbolizer, named explicitly: otherwise every ASan process (each
# `flowspec` the tests run) looks for it along PATH, which the output-safety tests, tracing
# the files flowspec touches, would rightly report.
symbolizer="$(dirname "$(readlink -f "$(command -v swift)")")/llvm-symbolizer"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:abort_on_error=0:external_symbolizer_path=$symbolizer}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/Tests/lsan-suppressions.txt:print_suppressions=0}"
# Swift's crash backtracer would run inside ASan's handler; ASan prints the stack itself.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"

swift build --build-tests --sanitize=address --scratch-path .build-asan
swift test --skip-build --sanitize=address --scratch-path .build-asan "${skip[@]}"
echo "asan: the test suite passed under AddressSanitizer and LeakSanitizer"
