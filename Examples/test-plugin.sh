#!/usr/bin/env bash
# Tests the build plugin as a process, in the FirstRun example (built already by .ci/run):
#   1. building again with no change leaves the generated Swift untouched;
#   2. a broken spec makes `swift build` fail with the spec's file:line:col error;
#   3. `swift package flowspec-check` passes on the clean spec and fails on the broken one;
#      with `--base HEAD` it also compares the spec with git's version.
# The spec is restored whatever happens. Prints "N passed, M failed"; exits 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/FirstRun"
spec=Sources/FirstRun/FirstRun.flowspec.yaml
backup=$(mktemp)
cp "$spec" "$backup"
trap 'cp "$backup" "$spec"; rm -f "$backup"' EXIT
passed=0
failed=0
pass() { echo "PASS: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL: $1"; failed=$((failed + 1)); }

swift build >/dev/null 2>&1 || fail "the example builds"
generated=$(find .build/plugins/outputs -path '*FlowSpecGenerate/FirstRun.swift' | head -n 1)
if [ -n "$generated" ]; then pass "the plugin generated FirstRun.swift"; else fail "the plugin generated FirstRun.swift"; fi
before=$(stat -c %Y.%i "$generated" 2>/dev/null)
sleep 1
swift build >/dev/null 2>&1 || fail "an unchanged rebuild succeeds"
after=$(stat -c %Y.%i "$generated" 2>/dev/null)
if [ -n "$before" ] && [ "$before" = "$after" ]; then pass "an unchanged spec regenerates nothing"; else fail "an unchanged spec regenerates nothing ($before vs $after)"; fi

if swift package flowspec-check >/dev/null 2>&1; then pass "flowspec-check passes on the clean spec"; else fail "flowspec-check passes on the clean spec"; fi
if command -v git >/dev/null 2>&1 && git rev-parse --verify --quiet HEAD >/dev/null; then
  base_output=$(swift package flowspec-check --base HEAD 2>&1)
  if [ $? -eq 0 ] && grep -q "0 changes, 0 errors" <<<"$base_output"; then
    pass "flowspec-check --base HEAD compares the spec with git's and passes unchanged"
  else
    fail "flowspec-check --base HEAD compares the spec with git's and passes unchanged"; echo "$base_output" | tail -n 20
  fi
else
  echo "skip: flowspec-check --base needs git and a commit"
fi

sed -i 's/on: { splashFinished: slide0 }/on: { splashFinished: slideZero }/' "$spec"
output=$(swift build 2>&1)
status=$?
if [ $status -ne 0 ]; then pass "a broken spec fails the build"; else fail "a broken spec fails the build"; fi
if grep -q "FirstRun.flowspec.yaml:21:31: error: target 'slideZero' is not a state of machine 'FirstRun' \[undefined-state\]" <<<"$output"; then
  pass "the build shows the spec's file:line:col error"
else
  fail "the build shows the spec's file:line:col error"; echo "$output" | tail -n 20
fi
check_output=$(swift package flowspec-check 2>&1)
if [ $? -ne 0 ] && grep -q "FirstRun.flowspec.yaml:21:31: error:" <<<"$check_output"; then
  pass "flowspec-check fails on the broken spec with its location"
else
  fail "flowspec-check fails on the broken spec with its location"; echo "$check_output" | tail -n 20
fi

cp "$backup" "$spec"
swift build >/dev/null 2>&1 && pass "the restored spec builds again" || fail "the restored spec builds again"
echo "plugin: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
