#!/usr/bin/env bash
# A PostgreSQL server of the tests' own, on loopback only (docs/scaling.md):
#   scripts/postgres.sh start STATE_DIR   initdb in a fresh temporary directory, start the
#                                         server at a free port, write its URL to STATE_DIR/url
#   scripts/postgres.sh stop STATE_DIR    stop it and remove its data
# CTest's `postgres` fixture runs both around the tests that need it. PostgreSQL refuses
# to run as root, so as root the server runs as the user postgres (which Debian's package
# makes). Debian's `postgresql` package provides the programs; its own cluster is not used.
set -euo pipefail
command=${1:?usage: postgres.sh start|stop STATE_DIR}
state=${2:?usage: postgres.sh start|stop STATE_DIR}

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[[ -x "$bin/postgres" ]] || { echo "postgres.sh: no PostgreSQL server found (apt-get install postgresql)" >&2; exit 1; }
as_server_user=()
if [[ $(id -u) -eq 0 ]]; then as_server_user=(runuser -u postgres --); fi

stop() {
  [[ -f "$state/data" ]] || return 0
  local data
  data=$(cat "$state/data")
  "${as_server_user[@]}" "$bin/pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$data" "$state/data" "$state/url"
}

case "$command" in
  start)
    mkdir -p "$state"
    stop  # a server left by an interrupted run
    data=$(mktemp -d /tmp/elgrande-postgres-XXXXXX)
    echo "$data" >"$state/data"
    [[ ${#as_server_user[@]} -eq 0 ]] || chown postgres: "$data"
    "${as_server_user[@]}" "$bin/initdb" -D "$data" -U elgrande --auth=trust -E UTF8 --locale=C.UTF-8 >"$state/initdb.log" 2>&1 ||
      { cat "$state/initdb.log" >&2; exit 1; }
    # A free port: the ephemeral range is left to clients; a port taken meanwhile fails
    # the start, and the next one is tried.
    for attempt in $(seq 1 20); do
      port=$((20000 + (RANDOM % 20000)))
      if "${as_server_user[@]}" "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 \
          -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories='' -c max_connections=400" \
          start >/dev/null; then
        echo "postgresql://elgrande@127.0.0.1:$port/postgres" >"$state/url"
        echo "postgres.sh: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port, data in $data"
        exit 0
      fi
    done
    cat "$data/server.log" >&2
    exit 1
    ;;
  stop)
    stop
    ;;
  *)
    echo "usage: postgres.sh start|stop STATE_DIR" >&2
    exit 2
    ;;
esac
