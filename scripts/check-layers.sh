#!/usr/bin/env bash
# Dependencies run one way (docs/server.md#layers): each folder of server/ includes only its
# own and the folders listed before it below, so the folders' include graph has no cycle;
# main.cpp, on top, composes. The pure libraries include only what they are built on.
# Prints every include that points the wrong way, and fails if there is one.
# Usage: scripts/check-layers.sh [SOURCE_DIR]
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"

# Lowest first. A capability sits above what it asks for; app/ (dispatch) above every
# capability, net/ (transport) above app/; tools/ are benchmarks over everything.
server_layers=(common ops storage requests events presence identity ai accounts moderation ratings tables
               matchmaking tournaments history notices cluster app net tools)
# What each library may include of elgrande/*, besides itself.
declare -A library_uses=([engine]="" [competition]="" [ai]="engine" [protocol]="engine" [games]=""
                         [el_grande]="engine protocol ai games" [db]="games" [notices]="")

declare -A rank
for i in "${!server_layers[@]}"; do rank[${server_layers[$i]}]=$i; done
wrong=0
complain() { echo "$1"; wrong=$((wrong + 1)); }

for dir in server/*/; do
  folder=$(basename "$dir")
  [[ -n ${rank[$folder]+set} ]] || complain "server/$folder/ has no place in the layers of scripts/check-layers.sh"
done

while IFS=: read -r file target; do
  folder=${file#server/}; folder=${folder%%/*}
  [[ -n ${rank[$folder]+set} && -n ${rank[$target]+set} ]] || continue
  if (( rank[$target] > rank[$folder] )); then
    complain "$file includes $target/, which sits above $folder/"
  fi
done < <(grep -rHoE --include='*.cpp' --include='*.hpp' '^#include "[a-z_]+/' server/*/ |
         sed -E 's/#include "([a-z_]+)\/$/\1/')

for library in "${!library_uses[@]}"; do
  allowed=" $library ${library_uses[$library]} "
  while IFS=: read -r file target; do
    [[ $allowed == *" $target "* ]] || complain "$file includes elgrande/$target/, which $library/ is not built on"
  done < <(grep -rHoE --include='*.cpp' --include='*.hpp' --include='*.h' '^#include "elgrande/[a-z_]+' "$library" |
           sed -E 's/#include "elgrande\///')
done

# server/'s folders know a game only through games::GameModule (docs/modules.md): none
# includes a game's rules, bots or module; main.cpp composes, tools/ measure.
while IFS=: read -r file target; do
  complain "$file includes $target: the server knows a game only through its module"
done < <(grep -rHoE --include='*.cpp' --include='*.hpp' '^#include "elgrande/(engine|ai|el_grande)/[a-z_/]+\.hpp' \
           $(ls -d server/*/ | grep -v '^server/tools/$') | sed -E 's/#include "//')

if (( wrong > 0 )); then
  echo "$wrong include(s) point the wrong way"
  exit 1
fi
echo "server/'s ${#server_layers[@]} folders and the libraries include only what sits below them"
