#!/usr/bin/env bash
# Runs the driver's tests against a runtime broken on purpose (a mutant) while every core is
# busy, and succeeds only if the tests fail: the "nothing happens" checks must catch a timer
# left armed however late its task runs. Not part of `swift test`; see docs/testing.md.
#
#   bash Tests/Mutations/run.sh                   # timer-left-armed.patch on the tracked files
#   bash Tests/Mutations/run.sh --rounds 5        # five runs of each suite; every one must fail
#   bash Tests/Mutations/run.sh --at COMMIT       # the same mutant on COMMIT's files
#   bash Tests/Mutations/run.sh --no-example      # FlowDriverTests only, not Examples/LaunchAuth
#   bash Tests/Mutations/run.sh --patch FILE      # another mutant
#
# The copy is kept in .build-mutations/<worktree|COMMIT>/, with its builds, so that a second
# run rebuilds only what the patch changes. The builds run before the load; the busy loops
# (one per core) run only while the tests do, and are stopped by their process ids.
#
# Exit status: 0 when every run of every suite failed; 1 when one passed (the mutant went
# unnoticed); 2 when the mutant could not be applied or built.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
patch_file="$root/Tests/Mutations/timer-left-armed.patch"
rounds=1
at=""
example=1
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds=$2; shift 2 ;;
        --at) at=$2; shift 2 ;;
        --no-example) example=0; shift ;;
        --patch) patch_file=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
        *) echo "usage: $0 [--rounds N] [--at COMMIT] [--no-example] [--patch FILE]" >&2; exit 2 ;;
    esac
done

copy="$root/.build-mutations/${at:-worktree}"
mkdir -p "$copy"
# Extracting over the kept copy keeps the files' times, so unchanged files are not rebuilt.
if [ -n "$at" ]; then
    git -C "$root" archive "$at" | tar -x -C "$copy"
else
    git -C "$root" ls-files -z | tar -C "$root" --null -T - -cf - | tar -x -C "$copy"
fi
if ! patch -d "$copy" -p1 --forward --quiet < "$patch_file"; then
    echo "mutation: $(basename "$patch_file") does not apply to ${at:-the working tree}" >&2
    exit 2
fi
echo "mutation: $(basename "$patch_file") applied to a copy of ${at:-the working tree} in $copy"

build() {
    if ! (cd "$1" && swift build --build-tests >"$copy/build.log" 2>&1); then
        echo "mutation: the mutant does not build in $1 (see $copy/build.log)" >&2
        exit 2
    fi
}
build "$copy"
if [ "$example" = 1 ]; then build "$copy/Examples/LaunchAuth"; fi

loaders=()
stop_load() {
    for pid in "${loaders[@]}"; do kill "$pid" 2>/dev/null || true; done
    loaders=()
}
trap stop_load EXIT
for _ in $(seq "$(nproc 2>/dev/null || sysctl -n hw.ncpu)"); do
    yes >/dev/null &
    loaders+=($!)
done

# Runs one suite `rounds` times; prints what failed; counts the runs that passed.
passed_runs=0
run_suite() {
    local name=$1 dir=$2 filter=$3 failed=0
    for round in $(seq "$rounds"); do
        local log="$copy/$name-$round.log"
        # A wait for what the mutant keeps from happening gives up after 300 s (the default
        # is as long as a run of the whole suite).
        if (cd "$dir" && FLOWSPEC_SETTLE_SECONDS=300 swift test --skip-build --filter "$filter" >"$log" 2>&1); then
            echo "mutation: $name run $round PASSED: the mutant went unnoticed"
            passed_runs=$((passed_runs + 1))
        else
            failed=$((failed + 1))
            echo "mutation: $name run $round failed, as it must:"
            grep -E '✘ Test [^r].*(failed|recorded)|Expectation failed' "$log" | sed 's/^/    /' | head -n 12
        fi
    done
    echo "mutation: $name failed $failed of $rounds runs"
}
run_suite FlowDriverTests "$copy" FlowDriverTests
if [ "$example" = 1 ]; then
    run_suite LaunchAuth "$copy/Examples/LaunchAuth" AuthFlowControllerTests
fi

if [ "$passed_runs" -gt 0 ]; then exit 1; fi
echo "mutation: caught in every run"
