#!/usr/bin/env bash
# Rehearses docs/deploy.md on this machine: runs every ```sh block of the page, as the page
# says it, from the repository's root, and checks that the result is a public server.
#
#   sudo bash scripts/deploy-rehearsal.sh --throwaway-machine
#
# ONLY ON A MACHINE YOU CAN THROW AWAY (a container): it installs Debian packages, builds
# and installs the server into /usr/local, writes to /etc (nginx's sites, a systemd unit,
# /etc/elgrande-server, /etc/letsencrypt, /etc/hosts, the system's trust store), adds a
# user, and listens on ports 80 and 443. It puts back what it changed in /etc and
# /usr/local when it ends (the Debian packages stay), but it is no test to run on a machine
# that matters: it refuses to run without --throwaway-machine, and as anyone but root.
#
# The blocks are read from the page at each run (by the heading they sit under, so that a
# block added to a section is run too), each with `bash -e -o pipefail` in its own session
# (a process it leaves running is a failure), in two passes, each as on a fresh machine:
#   1. "As a systemd service", "Behind nginx", "Backups";
#   2. after pass 1 is undone: "As a systemd service", the blocks of "HTTPS from the server
#      itself", "Backups".
# play.example.net, the page's domain, is 127.0.0.1 in /etc/hosts meanwhile.
#
# Real: apt, the build and `cmake --install`, nginx, the server, curl, the HTTP-01
# challenge. Stand-ins, in scripts/rehearsal/ and first on the PATH, only for what this
# machine lacks or must not reach (each says in its header what it does and does not do):
# systemctl and journalctl (no systemd in a container; the unit's sandbox is not applied),
# and certbot (Let's Encrypt cannot reach this machine: the challenge is real, the
# certificate comes from a local CA that the trust store is told of). Debian's certbot may
# be installed by the page; it is never run.
#
# Besides the pages' own commands (their curl lines must succeed), after each pass:
# /healthz over HTTPS, the 301 from plain HTTP, a WebSocket `hello` over wss:// answered
# `hello.ok`, a backup that `--verify-backup` accepts, and the renewal certbot's timer would
# run (`certbot renew --force-renewal`): its hook reloads nginx or the server, whose new
# connections see the new certificate; the server keeps its process (SIGHUP, no restart).
# Prints PASS or FAIL per check, exits 1 if any failed. The logs stay in /tmp/deploy-rehearsal.*.
set -euo pipefail

usage() {
  echo "usage: sudo bash scripts/deploy-rehearsal.sh --throwaway-machine" >&2
  echo "Runs every command of docs/deploy.md on this machine: it installs packages, writes to /etc" >&2
  echo "and /usr/local and listens on ports 80 and 443. Only on a machine you can throw away." >&2
  exit 2
}
[[ $# -eq 1 && $1 == --throwaway-machine ]] || usage
[[ $(id -u) -eq 0 ]] || { echo "deploy-rehearsal: run it as root (sudo)" >&2; usage; }

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
page=docs/deploy.md
host=play.example.net
work=$(mktemp -d /tmp/deploy-rehearsal.XXXXXX)
chmod 0755 "$work"
saved=$work/saved
stand_ins=$repo/scripts/rehearsal
hosts_line="127.0.0.1 $host  # scripts/deploy-rehearsal.sh"

if ss -ltnH '( sport = :80 or sport = :443 )' | grep -q .; then
  echo "deploy-rehearsal: ports 80 and 443 must be free; in use:" >&2
  ss -ltnp '( sport = :80 or sport = :443 )' >&2
  exit 2
fi

# --- results ---

results=()
log() { echo "[$(date -u +%T)] $*"; }
record() {
  results+=("$1  $2")
  echo "$1  $2"
}
# check WHAT COMMAND...: PASS when the command succeeds; its output goes to checks.log.
check() {
  local what=$1; shift
  echo "== $what: $*" >> "$work/checks.log"
  if "$@" >> "$work/checks.log" 2>&1; then record PASS "$what"; else record FAIL "$what"; fi
}

# --- what the passes change, and putting it back ---

# Undone between the passes and at the end; /usr/local only at the end.
machine_paths=(/etc/nginx/sites-enabled /etc/nginx/sites-available
  /etc/systemd/system/elgrande-server.service /etc/systemd/system/elgrande-server.service.d
  /etc/systemd/system/multi-user.target.wants
  /etc/elgrande-server /var/lib/elgrande-server /etc/letsencrypt /var/www/letsencrypt
  /usr/local/share/ca-certificates/elgrande-rehearsal-ca.crt)
install_paths=(/usr/local/bin/elgrande-server /usr/local/share/elgrande-server)

save() {
  local path
  for path in "$@"; do
    [[ -e $path || -L $path ]] || continue
    mkdir -p "$saved$(dirname "$path")"
    cp -a "$path" "$saved$path"
  done
}

put_back() {
  local path
  for path in "$@"; do
    rm -rf "$path"
    [[ -e $saved$path || -L $saved$path ]] && cp -a "$saved$path" "$path"
  done
  return 0
}

user_existed=false
getent passwd elgrande-server >/dev/null && user_existed=true
save "${machine_paths[@]}" "${install_paths[@]}"
cp /etc/hosts "$saved-hosts"

stop_services() {
  local state
  for state in "$work"/pass*/systemd; do
    [[ -d $state ]] && REHEARSAL_SYSTEMD_STATE=$state "$stand_ins/systemctl" stop elgrande-server 2>/dev/null
  done
  "$stand_ins/systemctl" stop nginx 2>/dev/null
  return 0
}

# update-ca-certificates keeps the links of a local CA whose file is gone: they go first.
untrust_ca() {
  [[ -e /usr/local/share/ca-certificates/elgrande-rehearsal-ca.crt ]] && return 0
  rm -f /etc/ssl/certs/elgrande-rehearsal-ca.pem
  find /etc/ssl/certs -maxdepth 1 -lname elgrande-rehearsal-ca.pem -delete
  update-ca-certificates >/dev/null 2>&1 || true
}

undo_pass() {
  stop_services
  put_back "${machine_paths[@]}"
  untrust_ca
  if ! $user_existed && getent passwd elgrande-server >/dev/null; then
    deluser --quiet --system elgrande-server >/dev/null 2>&1 || userdel elgrande-server
    getent group elgrande-server >/dev/null && { delgroup --quiet elgrande-server 2>/dev/null || groupdel elgrande-server; }
  fi
  return 0
}

finish() {
  local status=$?
  trap - EXIT INT TERM
  log "putting the machine back"
  undo_pass
  put_back "${install_paths[@]}"
  cat "$saved-hosts" > /etc/hosts
  echo
  echo "=== deploy rehearsal of $page: $(grep -c '^PASS' <<< "$(printf '%s\n' "${results[@]}")") passed," \
    "$(grep -c '^FAIL' <<< "$(printf '%s\n' "${results[@]}")") failed (logs: $work)"
  printf '%s\n' "${results[@]}"
  if [[ $status -ne 0 ]] || printf '%s\n' "${results[@]}" | grep -q '^FAIL'; then
    echo "deploy rehearsal: FAILED"
    exit 1
  fi
  echo "deploy rehearsal: PASSED"
}
trap finish EXIT
trap 'exit 130' INT TERM

echo "$hosts_line" >> /etc/hosts

# --- the page's blocks ---

# Writes the ```sh blocks under the `## HEADING` (its ### subsections too) to PREFIX-N.sh,
# in the page's order, and prints their file names.
extract() {
  local heading=$1 prefix=$2
  awk -v want="$heading" -v prefix="$prefix" '
    !inside && /^## / { section = substr($0, 4) }
    /^```/ {
      if (inside) { inside = 0; if (file) close(file); file = ""; next }
      inside = 1
      if (section == want && substr($0, 4) == "sh") { n++; file = prefix "-" n ".sh"; printf "" > file; print file }
      next
    }
    inside && file { print > file }
  ' "$page"
}

# Runs one block as a reader would paste it: bash -e -o pipefail, from the repository's
# root, in a session of its own so that what it leaves running can be found.
run_block() {
  local pass=$1 heading=$2 file=$3 log=$work/pass$1.log session leftover
  log "pass $pass: \"$heading\", $(basename "$file") ($(wc -l < "$file") lines)"
  echo "===== pass $pass: $heading: $file" >> "$log"
  if setsid -w bash -c 'echo $$ > "$1"; exec bash -e -o pipefail -x "$2"' _ "$work/session" "$file" >> "$log" 2>&1
  then record PASS "pass $pass: \"$heading\" $(basename "$file") ran as written"
  else
    local status=$?
    record FAIL "pass $pass: \"$heading\" $(basename "$file") ran as written (exit $status; the end of $log:)"
    tail -n 40 "$log" | sed 's/^/    /'
    return 1
  fi
  session=$(cat "$work/session")
  leftover=$(pgrep -s "$session" -a || true)
  if [[ -n $leftover ]]; then
    record FAIL "pass $pass: $(basename "$file") left processes running: $leftover"
    pkill -s "$session" || true; sleep 2; pkill -KILL -s "$session" || true
  fi
}

# Runs the blocks under each heading in turn; stops at the first that fails.
run_pass() {
  local pass=$1 heading file files; shift
  for heading in "$@"; do
    mapfile -t files < <(extract "$heading" "$work/pass$pass-$(tr -c 'a-zA-Z0-9\n' - <<< "$heading")")
    [[ ${#files[@]} -gt 0 ]] || { record FAIL "pass $pass: no \`\`\`sh block under \"## $heading\" in $page"; return 1; }
    for file in "${files[@]}"; do
      if [[ $heading == Backups ]]; then shorten_backups "$file"; fi
      run_block "$pass" "$heading" "$file" || return 1
    done
  done
}

# The first backup comes backup_every after the start (server/storage/backups.cpp takes
# none at start): the rehearsal waits 5 s for it, not the page's hour.
shorten_backups() {
  grep -q '"backup_every": 3600' "$1" || return 0
  sed -i 's/"backup_every": 3600/"backup_every": 5/' "$1"
  log "rehearsal only: backup_every 3600 -> 5 in $(basename "$1"), so that the first backup comes in 5 s"
}

# A command the page names in its prose, run as it is written there (refused if the page
# no longer says it), FILE replaced by a file of the rehearsal's.
run_prose() {
  local pass=$1 said=$2 file=${3:-}
  if ! grep -qF -- "$said" "$page"; then record FAIL "pass $pass: $page no longer says \`$said\`"; return; fi
  check "pass $pass: the page's \`$said\`" bash -e -o pipefail -c "${said//FILE/$file}"
}

# --- the checks ---

served_serial() {
  openssl s_client -connect "$host:443" -servername "$host" < /dev/null 2>/dev/null | openssl x509 -noout -serial
}
issued_serial() { openssl x509 -in "/etc/letsencrypt/live/$host/cert.pem" -noout -serial; }

# A reload is asynchronous (nginx -s reload, kill -HUP): the new certificate within 5 s.
serves_issued() {
  local tries
  for ((tries = 0; tries < 50; tries++)); do
    [[ $(served_serial) == "$(issued_serial)" ]] && return 0
    sleep 0.1
  done
  echo "served $(served_serial), issued $(issued_serial)"
  return 1
}

# After a restart the server listens a moment later, and nginx answers 502 meanwhile.
healthz() { [[ $(curl -fsS --retry 5 --retry-connrefused "https://$host/healthz") == '{"status":"ok"}' ]]; }

redirects() {
  local answer
  answer=$(curl -sS -o /dev/null -w '%{http_code} %{redirect_url}' "http://$host/")
  echo "$answer"
  [[ $answer == "301 https://$host/" ]]
}

# A player's first message, over the public address (docs/protocol.md#hello).
websocket_hello() {
  NODE_EXTRA_CA_CERTS=/usr/local/share/ca-certificates/elgrande-rehearsal-ca.crt \
    node --experimental-websocket --no-warnings -e '
      const socket = new WebSocket(process.argv[1]);
      const timeout = setTimeout(() => { console.error("no hello.ok in 10 s"); process.exit(1); }, 10000);
      socket.onopen = () =>
        socket.send(JSON.stringify({ type: "hello", payload: { protocol: 1, name: "Rehearsal" } }));
      socket.onmessage = (event) => {
        console.log(event.data);
        const message = JSON.parse(event.data);
        if (message.type === "hello.ok") { clearTimeout(timeout); socket.close(); process.exit(0); }
        if (message.type === "error") process.exit(1);
      };
      socket.onerror = (event) => { console.error("WebSocket error:", event.message); process.exit(1); };
    ' "wss://$host/ws"
}

# The backups block's first backup, verified by the server's own check.
backup_verified() {
  local backup="" tries
  for ((tries = 0; tries < 30; tries++)); do
    backup=$(find /var/lib/elgrande-server/backups -name 'elgrande-*.sqlite' 2>/dev/null | sort | tail -1)
    [[ -n $backup ]] && break
    sleep 1
  done
  [[ -n $backup ]] || { echo "no backup in /var/lib/elgrande-server/backups after 30 s"; return 1; }
  /usr/local/bin/elgrande-server --verify-backup "$backup"
}

main_pid() { cat "$REHEARSAL_SYSTEMD_STATE/elgrande-server/main.pid"; }

# The server runs as the owner of its state directory, and that is not root.
runs_as() {
  local user
  user=$(ps -o user= -p "$(main_pid)")
  echo "runs as $user; /var/lib/elgrande-server belongs to $(stat -c %U /var/lib/elgrande-server)"
  [[ $(ps -o uid= -p "$(main_pid)" | tr -d ' ') == "$(stat -c %u /var/lib/elgrande-server)" && $user != root ]] &&
    [[ -z $1 || $user == "$1" ]]
}

common_checks() {
  local pass=$1
  check "pass $pass: https://$host/healthz answers {\"status\":\"ok\"}" healthz
  check "pass $pass: http://$host/ answers 301 to https://$host/" redirects
  check "pass $pass: wss://$host/ws answers hello with hello.ok" websocket_hello
  check "pass $pass: the backups block's first backup passes --verify-backup" backup_verified
}

# What certbot's timer does when the certificate is due; its hook must bring the new
# certificate to new connections.
timer_renewal() {
  local pass=$1 before
  before=$(issued_serial)
  check "pass $pass: certbot renew --force-renewal (what the timer runs when due)" certbot renew --force-renewal
  check "pass $pass: a new certificate was issued" test "$(issued_serial)" != "$before"
  check "pass $pass: new TLS connections are served the renewed certificate" serves_issued
}

hook_failures() { [[ ! -s $REHEARSAL_STATE/certbot-hook-failures ]] || { cat "$REHEARSAL_STATE/certbot-hook-failures"; false; }; }

# --- the passes ---

export PATH="$stand_ins:$PATH" DEBIAN_FRONTEND=noninteractive

log "pass 1: behind nginx (logs: $work/pass1.log)"
export REHEARSAL_STATE=$work/pass1 REHEARSAL_SYSTEMD_STATE=$work/pass1/systemd
mkdir -p "$REHEARSAL_SYSTEMD_STATE"
if run_pass 1 "As a systemd service" "Behind nginx" "Backups"; then
  common_checks 1
  check "pass 1: the server runs as its dynamic user, owner of its state directory" runs_as ""
  timer_renewal 1
  run_prose 1 "systemctl list-timers certbot.timer"
  run_prose 1 "certbot renew --dry-run"
  run_prose 1 "elgrande-server --config /etc/elgrande-server/server.json --backup-to FILE" "$work/pass1-backup.sqlite"
  check "pass 1: --backup-to's copy passes --verify-backup" elgrande-server --verify-backup "$work/pass1-backup.sqlite"
  check "pass 1: certbot's hooks all succeeded" hook_failures
fi

log "undoing pass 1"
undo_pass

log "pass 2: HTTPS from the server itself (logs: $work/pass2.log)"
export REHEARSAL_STATE=$work/pass2 REHEARSAL_SYSTEMD_STATE=$work/pass2/systemd
mkdir -p "$REHEARSAL_SYSTEMD_STATE"
if run_pass 2 "As a systemd service" "HTTPS from the server itself" "Backups"; then
  common_checks 2
  check "pass 2: the server runs as elgrande-server, owner of its state directory" runs_as elgrande-server
  pid=$(main_pid)
  timer_renewal 2
  check "pass 2: the server kept its process through the renewal (pid $pid: SIGHUP, no restart)" \
    test "$(main_pid)" == "$pid"
  check "pass 2: the server's log says it reloaded the certificate" \
    grep -q "SIGHUP: reloaded the TLS certificate" "$REHEARSAL_SYSTEMD_STATE/elgrande-server/journal"
  run_prose 2 "journalctl -u elgrande-server | grep certificate"
  check "pass 2: certbot's hooks all succeeded" hook_failures
fi
