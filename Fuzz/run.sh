#!/usr/bin/env bash
# Fuzzes the whole flowspec pipeline (check, render, draw, generate, simulate) with libFuzzer.
#
#   bash Fuzz/run.sh                                   # 10 minutes (-max_total_time=600)
#   bash Fuzz/run.sh -runs=10000000 -max_len=4096 -timeout=5
#   bash Fuzz/run.sh .build-fuzz/crashes/crash-XXXX     # reproduce one input
#   bash Fuzz/run.sh -minimize_crash=1 -runs=100000 .build-fuzz/crashes/crash-XXXX
#   bash Fuzz/run.sh --build                           # only build .build-fuzz/flowspec-fuzz
#   bash Fuzz/run.sh --check-only -runs=5000000        # front end and checks only (faster)
#
# Every option is passed to libFuzzer and wins over the defaults below. Without a file
# argument the fuzzer runs on the corpus .build-fuzz/corpus (kept between runs; new inputs go
# there) seeded with every .yaml, .scxml and .json under Tests/Fixtures and specs/ (copied to
# .build-fuzz/seeds). Crashes, timeouts and leaks are written to .build-fuzz/crashes/.
#
# The harness (Fuzz/FuzzTarget.swift) is compiled together with Sources/FlowSpecCore as one
# module, instrumented for libFuzzer and AddressSanitizer; it needs libyaml (libyaml-dev).
set -euo pipefail
cd "$(dirname "$0")/.."

work=.build-fuzz
binary=$work/flowspec-fuzz
mkdir -p "$work/corpus" "$work/seeds" "$work/crashes"

# Build when the binary is missing or older than the harness, a library source or this script.
sources=(Fuzz/FuzzTarget.swift)
while IFS= read -r -d '' file; do sources+=("$file"); done \
  < <(find Sources/FlowSpecCore -name '*.swift' -print0 | sort -z)
stale=0
[ -x "$binary" ] || stale=1
kernel_sources=()
while IFS= read -r -d '' file; do kernel_sources+=("$file"); done \
  < <(find Sources/FlowSpecKernel -name '*.swift' -print0 | sort -z)
for file in "${sources[@]}" "${kernel_sources[@]}" Fuzz/run.sh Sources/CYAML/module.modulemap Sources/CYAML/shim.h; do
  [ "$file" -nt "$binary" ] && stale=1
done
if [ "$stale" = 1 ]; then
  echo "fuzz: building $binary (${#sources[@]} files)" >&2
  # From inside .build-fuzz/obj: the driver leaves module files (FlowSpecCore-1.swiftmodule, …)
  # in the working directory.
  root=$PWD
  mkdir -p "$work/obj"
  # The kernel is a module of its own (the core imports it): compiled first, instrumented alike.
  (cd "$work/obj" && swiftc -sanitize=fuzzer,address -parse-as-library -O -wmo -g -swift-version 6 \
    -module-name FlowSpecKernel -emit-module -emit-object "${kernel_sources[@]/#/$root/}")
  (cd "$work/obj" && swiftc -sanitize=fuzzer,address -parse-as-library -O -wmo -g -swift-version 6 \
    -use-ld=lld -module-name FlowSpecCore -I "$root/Sources/CYAML" -I . -lyaml \
    "${sources[@]/#/$root/}" FlowSpecKernel.o -o "$root/$binary.tmp")
  mv "$binary.tmp" "$binary"
fi
if [ "${1:-}" = "--build" ]; then exit 0; fi
if [ "${1:-}" = "--check-only" ]; then
  export FLOWSPEC_FUZZ_STAGES=check
  shift
fi

# Swift's own crash backtracer would run inside ASan's and trip it; libFuzzer prints the stack.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"

# libFuzzer reads flags left to right, the last one winning: defaults first, then the caller's.
defaults=(-max_len=4096 -timeout=10 -dict=Fuzz/yaml.dict "-artifact_prefix=$work/crashes/"
          -print_final_stats=1)
files=0
budget=0
for arg in "$@"; do
  case "$arg" in
    -runs=*|-max_total_time=*) budget=1 ;;
    -*) ;;
    *) files=1 ;;
  esac
done

if [ "$files" = 1 ]; then
  # Reproduce or minimise the given inputs.
  exec "$binary" "${defaults[@]}" "$@"
fi

# The seed corpus: every fixture and example spec, every SCXML document and XState config (for
# the import), and Fuzz/seeds (hostile shapes: machines that run one another, many regions,
# invoke chains), flattened to unique names.
rm -f "$work/seeds"/*
while IFS= read -r -d '' spec; do
  cp "$spec" "$work/seeds/$(printf '%s' "$spec" | tr '/' '_')"
done < <(find Tests/Fixtures specs Fuzz/seeds \( -name '*.yaml' -o -name '*.scxml' -o -name '*.json' \) -print0)

[ "$budget" = 1 ] || defaults+=(-max_total_time=600)
# Shallow allocation stacks: recording full ones costs a third of the run time (the harness
# allocates a lot). A crash found here reproduces with full stacks through the file form above.
export ASAN_OPTIONS="${ASAN_OPTIONS:-malloc_context_size=4}"
exec "$binary" "${defaults[@]}" "$@" "$work/corpus" "$work/seeds"
