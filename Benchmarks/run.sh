#!/usr/bin/env bash
# flowspec's benchmark suite: one command, a table of figures and ratios against baselines
# measured in the same run, each target marked met or NOT MET.
#
#   bash Benchmarks/run.sh           # full: 1 / 10 / 50 MB specs, 300,000-state chain, … (several minutes)
#   bash Benchmarks/run.sh --quick   # smaller sizes, fewer repetitions (about a minute once built)
#
# Builds flowspec in release into .build-bench/swift (its own build folder, so it does not
# wait on or disturb a developer's .build), and again with --static-swift-stdlib into
# .build-bench/swift-static for informative rows, builds the libyaml floor with cc, generates the
# inputs deterministically into .build-bench/ (gitignored), then runs Benchmarks/bench.py.
# Needs: swift, cc, libyaml-dev, pkg-config, GNU time (/usr/bin/time), python3 with PyYAML
# built against libyaml (yaml.CLoader). Optional: valgrind, for the row that counts check's
# instructions against the floor's (a ratio the machine's load does not move).
set -euo pipefail
cd "$(dirname "$0")/.."

quick=()
case "${1:-}" in
  --quick) quick=(--quick) ;;
  "") ;;
  *) echo "usage: bash Benchmarks/run.sh [--quick]" >&2; exit 2 ;;
esac

missing=()
command -v swift >/dev/null 2>&1 || missing+=("swift")
command -v cc >/dev/null 2>&1 || missing+=("cc (apt-get install gcc)")
[ -x /usr/bin/time ] || missing+=("/usr/bin/time (apt-get install time)")
pkg-config --exists yaml-0.1 2>/dev/null || missing+=("libyaml (apt-get install libyaml-dev pkg-config)")
python3 -c 'import yaml; yaml.CLoader' 2>/dev/null || missing+=("PyYAML with its C loader (apt-get install python3-yaml, or pip install pyyaml)")
if [ ${#missing[@]} -gt 0 ]; then
  printf 'bench: missing: %s\n' "${missing[@]}" >&2
  exit 2
fi

work=.build-bench
mkdir -p "$work"

echo "bench: swift build -c release --product flowspec --scratch-path $work/swift" >&2
if ! swift build -c release --product flowspec --scratch-path "$work/swift" >"$work/build.log" 2>&1; then
  tail -30 "$work/build.log" >&2
  echo "bench: the release build failed (log: $work/build.log)" >&2
  exit 1
fi
flowspec="$(swift build -c release --product flowspec --scratch-path "$work/swift" --show-bin-path)/flowspec"

echo "bench: swift build -c release --product flowspec-lsp --scratch-path $work/swift" >&2
if ! swift build -c release --product flowspec-lsp --scratch-path "$work/swift" >"$work/build-lsp.log" 2>&1; then
  tail -30 "$work/build-lsp.log" >&2
  echo "bench: the release build of flowspec-lsp failed (log: $work/build-lsp.log)" >&2
  exit 1
fi

# The same with the Swift runtime linked in, for the informative rows that show what it saves.
static=()
echo "bench: swift build -c release --static-swift-stdlib --product flowspec --scratch-path $work/swift-static" >&2
if swift build -c release --static-swift-stdlib --product flowspec --scratch-path "$work/swift-static" \
    >"$work/build-static.log" 2>&1; then
  static=(--flowspec-static "$(swift build -c release --static-swift-stdlib --product flowspec \
    --scratch-path "$work/swift-static" --show-bin-path)/flowspec")
else
  echo "bench: the --static-swift-stdlib build failed (log: $work/build-static.log); its rows are left out" >&2
fi

echo "bench: cc -O2 Benchmarks/libyaml_floor.c -lyaml" >&2
# shellcheck disable=SC2046
cc -O2 -o "$work/libyaml_floor" Benchmarks/libyaml_floor.c $(pkg-config --cflags --libs yaml-0.1)

exec python3 Benchmarks/bench.py --flowspec "$flowspec" --flowspec-lsp "$(dirname "$flowspec")/flowspec-lsp" \
  "${static[@]}" --floor "$work/libyaml_floor" --work "$work" \
  "${quick[@]}"
