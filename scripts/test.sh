#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs the whole suite
# twice: optimised, then under AddressSanitizer + UndefinedBehaviorSanitizer (without the
# browser tests, which check the web client; with every fuzz target over its seed corpus).
# Fuzzing itself, with clang's libFuzzer, is scripts/fuzz.sh's (docs/fuzzing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
jobs=$(nproc)

# What each failing test printed last, repeated after ctest's summary: in a long log that is
# cut short, the reason of a failure is then next to its name at the end.
failures() {
  local dir=build/$1/Testing/Temporary
  [[ -f $dir/LastTestsFailed.log ]] || return 0
  while IFS=: read -r _ name; do
    echo "== $1: the last words of \"$name\""
    awk -v want="$name" '
      /^[0-9]+\/[0-9]+ Testing: / { on = substr($0, index($0, "Testing: ") + 9) == want }
      on { print }
      on && /^Test (Passed|Failed)/ { exit }' "$dir/LastTest.log" | tail -n 60
  done < "$dir/LastTestsFailed.log"
}

for preset in release asan; do
  echo "== $preset: build"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  echo "== $preset: test"
  # One test more than cores: the browser tests run one after another (one Chromium at a
  # time) in a slot of their own, and the rest should still have a slot per core.
  ctest --preset "$preset" -j "$((jobs + 1))" || { failures "$preset"; exit 1; }
done
