#!/usr/bin/env bash
# Profiles `flowspec check` on a generated flow spec: instruction counts with callgrind (exact
# and repeatable, unlike times on a shared machine) against the libyaml floor, split into
# libyaml's share inside `check`, flowspec's own and its start-up; the hottest functions; and a
# sampled time profile (perf) by library and by function when perf works here.
#
#   bash Benchmarks/profile.sh              # the 1 MB spec (6,410 states)
#   bash Benchmarks/profile.sh 64102        # the 10 MB spec (callgrind takes a few minutes)
#
# Uses the release build and inputs of Benchmarks/run.sh (.build-bench/); run that once first
# (or `bash Benchmarks/run.sh --quick`). Needs valgrind; perf is optional.
set -euo pipefail
cd "$(dirname "$0")/.."

states="${1:-6410}"
work=.build-bench
flowspec="$(swift build -c release --product flowspec --scratch-path "$work/swift" --show-bin-path)/flowspec"
floor="$work/libyaml_floor"
spec="$(ls "$work"/inputs-*/flow-"$states".yaml 2>/dev/null | head -1 || true)"
if [ ! -x "$flowspec" ] || [ ! -x "$floor" ] || [ -z "$spec" ]; then
  echo "profile: run 'bash Benchmarks/run.sh --quick' first (it builds flowspec and the floor and writes the inputs)" >&2
  exit 2
fi
command -v valgrind >/dev/null || { echo "profile: needs valgrind (apt-get install valgrind)" >&2; exit 2; }

out="$work/profile"
mkdir -p "$out"
instructions() {
  valgrind --tool=callgrind --callgrind-out-file="$1" "${@:2}" 2>&1 >/dev/null \
    | awk '/Collected/ { print $4 }'
}
echo "profile: callgrind on $spec" >&2
ours=$(instructions "$out/flowspec.callgrind" "$flowspec" check "$spec")
base=$(instructions "$out/floor.callgrind" "$floor" "$spec")
awk -v a="$ours" -v b="$base" 'BEGIN {
  printf "instructions: flowspec check %\047.0f, libyaml floor %\047.0f, ratio %.2fx\n", a, b, a / b }'

# Where flowspec's share goes, counted exactly (inclusive figures of the annotated profile
# count some of libyaml's work under more than one caller): libyaml's own functions collected
# alone, and the start-up, as the check of a one-state spec.
only() {
  valgrind --tool=callgrind --toggle-collect="$1" --callgrind-out-file=/dev/null "$flowspec" check "$spec" 2>&1 \
    | awk '/Collected/ { print $4 }'
}
parse=$(only yaml_parser_parse)
delete=$(only yaml_event_delete)
tiny="$out/one-state.yaml"
printf 'flowspec: 1\nmachines:\n  M:\n    initial: done\n    states:\n      done: { kind: terminal }\n' >"$tiny"
start=$(instructions /dev/null "$flowspec" check "$tiny")
awk -v a="$ours" -v p="$parse" -v d="$delete" -v s="$start" -v b="$base" 'BEGIN {
  own = a - p - d
  printf "  libyaml inside check (parse, event delete): %\047.0f\n", p + d
  printf "  flowspec own: %\047.0f (for 1.5x the floor: %\047.0f), of which start-up %\047.0f (a one-state spec)\n", own, 1.5 * b - p - d, s }'

echo
echo "hottest functions, inclusive (callgrind_annotate $out/flowspec.callgrind):"
callgrind_annotate --inclusive=yes "$out/flowspec.callgrind" 2>/dev/null \
  | grep -E '^ *[0-9,]+ +\(' | grep -E 'FlowSpecCore|yaml_parser_parse|malloc|free|swift_(retain|release)' \
  | sed -E 's/\[[^]]*\]$//' | cut -c1-160 | head -25 || true  # head closes the pipe early

# Time, not instructions: a sampled profile shows what callgrind cannot, such as cache misses
# (a lookup that counts few instructions but waits on memory). The software clock works where
# the machine gives no hardware counters (as in most VMs).
if perf record -q -e cpu-clock -F 5000 -g -o "$out/perf.data" "$flowspec" check "$spec" >/dev/null 2>&1; then
  echo
  echo "perf, self time by shared object (perf report -i $out/perf.data):"
  perf report -i "$out/perf.data" --no-children --sort dso 2>/dev/null | grep -E '^ +[0-9.]+%' | head -8 || true
  echo
  echo "perf, self time by function:"
  perf report -i "$out/perf.data" --no-children --sort sym 2>/dev/null | grep -E '^ +[0-9.]+%' | cut -c1-160 | head -20 || true
else
  echo
  echo "(perf is not available here: no time profile)"
fi
