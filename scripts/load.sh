#!/usr/bin/env bash
# The load figures of docs/bot-client.md: a release server on a free loopback port with
# bots answering at once and the rate limit opened up, and elgrande-bot playing TABLES
# games at the same time with every seat a remote client. Prints the bot's JSON report.
# Usage: scripts/load.sh [TABLES] [PLAYERS] [extra elgrande-bot flags...]
set -euo pipefail
cd "$(dirname "$0")/.."
tables=${1:-50}
players=${2:-4}
shift $(( $# > 2 ? 2 : $# ))
cmake --preset release >/dev/null
cmake --build --preset release --target elgrande-server elgrande-bot >/dev/null

data=$(mktemp -d)
out="$data/stdout"
./build/release/server/elgrande-server --config config/server.json --port 0 --data-dir "$data" \
  --log-level warn --bot-delay-ms 0 --messages-per-second 100000 --message-burst 100000 >"$out" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 100); do grep -q "listening on" "$out" && break; sleep 0.1; done
where=$(sed -n 's/^listening on //p' "$out")
./build/release/clients/elgrande-bot --url "ws://$where/ws" --tables "$tables" --players "$players" "$@"
