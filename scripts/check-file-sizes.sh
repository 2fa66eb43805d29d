#!/usr/bin/env bash
# No file of the server, the storage or the web client's modules over 600 lines: past that a
# file has collected a second job (docs/server.md#layers-and-the-bus). Prints each one over.
# Usage: scripts/check-file-sizes.sh [SOURCE_DIR]
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
limit=600
over=$(find server db clients/web/js -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.js' \) \
         -exec wc -l {} + | awk -v limit=$limit '$2 != "total" && $1 > limit { print $2 ": " $1 " lines" }')
if [[ -n $over ]]; then
  echo "$over"
  echo "over $limit lines: split them by what they do"
  exit 1
fi
echo "every file of server/, db/ and clients/web/js/ has at most $limit lines"
