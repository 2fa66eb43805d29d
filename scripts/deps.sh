#!/usr/bin/env bash
# Installs what the build and the tests need and is missing: the Debian packages listed in
# scripts/debian-packages.txt, Node.js (Debian's, unless a node is already on the PATH)
# and the tests' npm packages (tests/browser, tests/fixtures/openskill and
# tests/fixtures/webpush, from their lock files).
# With --no-tests, only what building and running the server needs (no line marked
# test-only, no Node.js). Idempotent and silent when everything is present.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
list="$here/debian-packages.txt"
tests=true
[[ "${1:-}" == "--no-tests" ]] && tests=false

if $tests; then
  mapfile -t wanted < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$list")
  command -v node >/dev/null && command -v npm >/dev/null || wanted+=(nodejs npm)
else
  mapfile -t wanted < <(grep -v 'test-only' "$list" | sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d')
fi
missing=()
for pkg in "${wanted[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "deps: installing ${missing[*]}" >&2
  sudo=""
  if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

$tests || exit 0
# The npm folders, each from its lock file: the browser tests (playwright-core only: the
# browser is Debian's chromium, never a download), the lint of the client's texts (acorn),
# the rating vectors (openskill) and the Web Push check (http_ece, web-push).
for folder in tests/browser tests/i18n tests/fixtures/openskill tests/fixtures/webpush; do
  dir="$here/../$folder"
  if [[ ! -d "$dir/node_modules" || "$dir/package-lock.json" -nt "$dir/node_modules" ]]; then
    echo "deps: npm ci in $folder" >&2
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null && touch node_modules)
  fi
done
