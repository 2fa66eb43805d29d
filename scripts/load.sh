#!/usr/bin/env bash
# The load figures of docs/performance.md: a release server on a free loopback port with
# the rate limit and the cap on new identities opened up, and elgrande-load playing TABLES
# games at once, every seat a remote client. Prints elgrande-load's JSON, with the server's
# own CPU time per accepted command and its memory (from /proc), figures that do not depend
# on how much of the machine the load generator takes.
# Usage: scripts/load.sh [TABLES] [PLAYERS] [elgrande-load flags: --rate, --seconds,
#        --spectators, --idle, --threads, --short...]
# SERVER_FLAGS adds server options, e.g. SERVER_FLAGS="--durability normal"; SERVER another
# server binary (a copy of the build before a change).
# TLS=1: the server serves WSS with a certificate of a CA made for the run
# (tests/integration/make_certificates.py), and every client speaks TLS to it.
set -euo pipefail
cd "$(dirname "$0")/.."
tables=${1:-50}
players=${2:-4}
shift $(( $# > 2 ? 2 : $# ))
cmake --preset release >/dev/null
cmake --build --preset release --target elgrande-server elgrande-load >/dev/null
server_flags=(${SERVER_FLAGS:-})

data=$(mktemp -d)
out="$data/stdout"
scheme=ws
client_flags=()
if [[ ${TLS:-0} == 1 ]]; then
  mkdir "$data/tls"
  /usr/bin/python3 tests/integration/make_certificates.py "$data/tls"
  server_flags+=(--tls-certificate "$data/tls/server.pem" --tls-private-key "$data/tls/server.key")
  client_flags=(--ca-file "$data/tls/ca.pem" --server-name localhost)
  scheme=wss
fi
"${SERVER:-./build/release/server/elgrande-server}" --config config/server.json --port 0 --data-dir "$data" \
  --log-level warn --bot-delay-ms 0 --messages-per-second 100000 --message-burst 100000 \
  --new-identities-per-address-per-hour 0 --open-tables-per-player 0 \
  "${server_flags[@]}" >"$out" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 100); do grep -qs "listening on" "$out" && break; sleep 0.1; done
where=$(sed -n 's/^listening on //p' "$out")
./build/release/clients/elgrande-load --url "$scheme://$where/ws" "${client_flags[@]}" --tables "$tables" \
  --players "$players" --server-pid "$server" "$@"
