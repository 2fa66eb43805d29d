#!/usr/bin/env bash
# Runs one libFuzzer target (docs/fuzzing.md) for SECONDS, building the fuzz preset first if
# needed. The target reads the committed seed corpus, fuzz/corpus/TARGET, and writes what it
# finds to a working copy, build/fuzz/corpus/TARGET, kept between runs; crashes go to
# build/fuzz/artifacts/. Further arguments go to libFuzzer, e.g. -runs=10000000 -jobs=2.
#   scripts/fuzz.sh TARGET SECONDS [libFuzzer flags...]
#   scripts/fuzz.sh list
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(envelope engine_apply game_record snapshot request_target peer_frame)
json_targets=" envelope engine_apply game_record "

usage() {
  echo "usage: scripts/fuzz.sh TARGET SECONDS [libFuzzer flags...] | scripts/fuzz.sh list" >&2
  echo "targets: ${targets[*]}" >&2
  exit 2
}
[[ "${1:-}" == "list" ]] && { printf '%s\n' "${targets[@]}"; exit 0; }
[[ $# -ge 2 ]] || usage
target=$1 seconds=$2
shift 2
[[ " ${targets[*]} " == *" $target "* ]] || usage
[[ "$seconds" =~ ^[0-9]+$ ]] || usage

if [[ ! -f build/fuzz/build.ninja ]]; then
  cmake --preset fuzz >/dev/null
fi
cmake --build --preset fuzz -j "$(nproc)" --target "fuzz_$target" >/dev/null

work=build/fuzz/corpus/$target
artifacts=build/fuzz/artifacts
mkdir -p "$work" "$artifacts"
flags=(-max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$artifacts/$target-")
[[ "$json_targets" == *" $target "* ]] && flags+=(-dict=fuzz/corpus/protocol.dict)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
"build/fuzz/fuzz/fuzz_$target" "${flags[@]}" "$@" "$work" "fuzz/corpus/$target" 2>&1 | tee "$log" || status=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
echo "fuzz.sh: $target: ${runs:-?} executions, ${rate:-?} exec/s, exit status $status"
exit "$status"
