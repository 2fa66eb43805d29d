#!/usr/bin/env bash
# The notice sender's figures (docs/notifications.md#figures): notices per second from a full
# outbox, and the time from a move to the relay accepting its mail (median and p99), each
# against a real aiosmtpd on loopback. Runs the hidden [.notice-bench] cases of the
# integration tests, RUNS times each (default 3), on the release build.
# Usage: bash scripts/notice-bench.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
cmake --build --preset release --target integration_tests >/dev/null
for ((i = 1; i <= runs; ++i)); do
  ./build/release/tests/integration/integration_tests "[.notice-bench]" 2>/dev/null |
    grep -E "^(notices per second|move to relay|test cases)"
done
