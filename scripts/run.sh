#!/usr/bin/env bash
# The README's run command: installs what is missing, builds (release) and runs the server
# with config/server.json. Extra arguments go to the server (e.g. --port 9000).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --no-tests
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
exec ./build/release/server/elgrande-server --config config/server.json "$@"
