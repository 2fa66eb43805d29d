#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs the whole suite
# twice: optimised, then under AddressSanitizer + UndefinedBehaviorSanitizer (without the
# browser tests, which check the web client); then builds
# the libFuzzer targets with clang and runs each a few seconds (docs/fuzzing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
jobs=$(nproc)
for preset in release asan fuzz; do
  echo "== $preset: build"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  echo "== $preset: test"
  # One test more than cores: the browser tests run one after another (one Chromium at a
  # time) in a slot of their own, and the rest should still have a slot per core.
  ctest --preset "$preset" -j "$((jobs + 1))"
done
