#!/usr/bin/env bash
# No file of the product (the server, storage, rules, codecs, games, bots, competition, notices
# and the clients, the web client's modules too) over 600 lines: past that a
# file has collected a second job (docs/server.md#layers-and-the-bus). Prints each one over.
# Usage: scripts/check-file-sizes.sh [SOURCE_DIR]
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
limit=600
over=$(find server db engine protocol games el_grande ai competition notices clients -path '*/node_modules' -prune -o -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.js' \) \
         -exec wc -l {} + | awk -v limit=$limit '$2 != "total" && $1 > limit { print $2 ": " $1 " lines" }')
if [[ -n $over ]]; then
  echo "$over"
  echo "over $limit lines: split them by what they do"
  exit 1
fi
echo "every file of the product (all but tests/ and fuzz/) has at most $limit lines"
