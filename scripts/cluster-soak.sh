#!/usr/bin/env bash
# Issue 47's soak (docs/scaling.md#tests): three server processes on a PostgreSQL server of
# its own, thirty bot tables over them, each process killed in turn twice and the leader
# stopped (SIGSTOP) for longer than its lease; then nothing acknowledged may be lost or
# applied twice, every game finishes and the epochs along every log hold. A few minutes;
# not part of CI. Usage: scripts/cluster-soak.sh [times to run it, 1 by default]
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset release >/dev/null
cmake --build --preset release --target integration_tests elgrande-server elgrande-bot >/dev/null
state=$(mktemp -d)
trap 'bash scripts/postgres.sh stop "$state" >/dev/null; rm -rf "$state"' EXIT
bash scripts/postgres.sh start "$state" >&2
for run in $(seq "${1:-1}"); do
  echo "== run $run" >&2
  ELGRANDE_TEST_POSTGRES=$(cat "$state/url") ./build/release/tests/integration/integration_tests "[soak]" \
    --durations yes 2>/dev/null
done
