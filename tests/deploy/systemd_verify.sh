#!/usr/bin/env bash
# deploy/elgrande-server.service as systemd reads it, offline (no running systemd needed):
# `systemd-analyze verify` with no complaint at all (it exits 0 on an unknown key or a bad
# value, so any output fails), the sandbox's exposure score, the settings the cluster and
# the operator rely on, and its ExecStartPre run against deploy/server.json.
# verify insists that the commands exist, so it reads a copy whose binary is the built one
# (/usr/local/bin/elgrande-server is where `cmake --install` puts it).
# Usage: systemd_verify.sh SOURCE_DIR SERVER_BINARY. Exit 77 (skipped) without systemd-analyze.
set -euo pipefail
source_dir=$1
binary=$2
unit=$source_dir/deploy/elgrande-server.service

if ! command -v systemd-analyze >/dev/null; then
  echo "systemd-analyze not found: skipped (apt install systemd)"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed "s#/usr/local/bin/elgrande-server#$binary#g" "$unit" > "$work/elgrande-server.service"

failed=0
fail() { echo "FAILED: $1"; failed=1; }

if ! output=$(systemd-analyze verify "$work/elgrande-server.service" 2>&1) || [[ -n $output ]]; then
  fail "systemd-analyze verify complained:"
  echo "$output"
fi

# 0 is a unit that could do nothing harmful, 10 one that could do anything; below 2 is "OK".
if ! systemd-analyze security --offline=true --threshold=20 "$work/elgrande-server.service" > "$work/security.txt" 2>&1; then
  fail "exposure above 2.0:"
  tail -1 "$work/security.txt"
fi

for line in 'DynamicUser=yes' 'StateDirectory=elgrande-server' 'ProtectSystem=strict' 'ProtectHome=yes' \
            'PrivateTmp=yes' 'NoNewPrivileges=yes' 'RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX' \
            'CapabilityBoundingSet=' 'Restart=on-failure' 'RestartForceExitStatus=75' \
            'ExecReload=/bin/kill -HUP $MAINPID'; do
  grep -qxF "$line" "$unit" || fail "no line '$line' in $unit"
done

# The check before each start, as systemd runs it, on the shipped configuration with its
# data_dir (the unit's state directory) moved into the temporary folder.
pre=$(sed -n 's/^ExecStartPre=//p' "$work/elgrande-server.service")
[[ $pre == *--check-config* ]] || fail "ExecStartPre does not run --check-config: $pre"
mkdir "$work/state"
sed "s#/var/lib/elgrande-server#$work/state#" "$source_dir/deploy/server.json" > "$work/server.json"
read -r -a command <<< "${pre//\/etc\/elgrande-server\/server.json/$work/server.json}"
if ! output=$("${command[@]}" 2>&1) || [[ $output != *"configuration OK: $work/server.json"* ]]; then
  fail "ExecStartPre on deploy/server.json: $output"
fi
[[ -z $(ls -A "$work/state") ]] || fail "--check-config wrote into data_dir: $(ls -A "$work/state")"

(( failed == 0 )) && echo "deploy/elgrande-server.service verifies; exposure $(tail -1 "$work/security.txt" | grep -oE '[0-9]+\.[0-9]+')"
exit $failed
