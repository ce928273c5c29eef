#!/usr/bin/env bash
# fuzz.sh — builds the libFuzzer targets (clang, build-fuzz) and runs each for SECONDS
# (default 60) on its committed corpus, JOBS of them at a time (each target is one process on
# one core; default: the cores), then prints per target: runs, runs per second, coverage
# (edges) and corpus size reached, and whether it crashed.
#   scripts/fuzz.sh [--merge] [SECONDS] [TARGET...]     (targets: state-castle-danger, record...)
#   scripts/fuzz.sh --build                             (the build alone: make fuzz-build)
# New inputs go to build-fuzz/fuzz-corpus/TARGET; with --merge, those that add coverage are
# then merged into tests/fuzz/corpus/TARGET (to commit). A crashing input is kept as
# build-fuzz/crash-TARGET-*; fix the bug, add the input to the corpus, and `make test`
# replays it from then on. `make fuzz` runs this with a short time.
set -euo pipefail
cd "$(dirname "$0")/.."
merge=false build_only=false
if [ "${1:-}" = "--merge" ]; then merge=true; shift; fi
if [ "${1:-}" = "--build" ]; then build_only=true; shift; fi
seconds=${1:-60}
[ $# -gt 0 ] && shift
# WEB_FROM (CI): the browser-side parts of that build directory (Makefile, WEB_FROM).
CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DRP_FUZZ=ON -DRP_WEB_FROM="${WEB_FROM:-}" \
  >/dev/null
cmake --build build-fuzz -j "${JOBS:-2}" --target fuzz-targets >/dev/null
if $build_only; then exit 0; fi
if [ $# -gt 0 ]; then targets=("$@"); else
  mapfile -t targets < <(find build-fuzz -maxdepth 1 -type f -executable -name 'fuzz-*' |
                         sed 's|^build-fuzz/fuzz-||' | sort); fi
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

# Fuzz one target; its summary line goes to build-fuzz/fuzz-TARGET.summary, its exit code
# to build-fuzz/fuzz-TARGET.rc.
fuzz_one() {
  local t=$1 work=build-fuzz/fuzz-corpus/$1 log=build-fuzz/fuzz-$1.log rc=0
  mkdir -p "$work"
  build-fuzz/fuzz-"$t" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2560 \
    -max_len=8192 -print_final_stats=1 -artifact_prefix=build-fuzz/crash-"$t"- \
    "$work" tests/fuzz/corpus/"$t" >"$log" 2>&1 || rc=$?
  local runs speed cov corp result=ok
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  # (|| true: a target that crashed at once printed no coverage, and grep then fails)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2 || true)
  corp=$(grep -oE 'corp: [0-9]+' "$log" | tail -1 | cut -d' ' -f2 || true)
  if [ "$rc" -ne 0 ]; then result="CRASH (see $log)"; fi
  printf '%-28s %10s %8s %6s %7s  %s\n' "$t" "${runs:-?}" "${speed:-?}" "${cov:-?}" "${corp:-?}" \
    "$result" >build-fuzz/fuzz-"$t".summary
  echo "$rc" >build-fuzz/fuzz-"$t".rc
  if $merge && [ "$rc" -eq 0 ]; then
    build-fuzz/fuzz-"$t" -merge=1 -max_len=8192 tests/fuzz/corpus/"$t" "$work" >/dev/null 2>&1
  fi
}

for t in "${targets[@]}"; do
  rm -f build-fuzz/fuzz-"$t".summary build-fuzz/fuzz-"$t".rc # never a result of another run
  while [ "$(jobs -pr | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  fuzz_one "$t" &
done
wait
failed=0
printf '%-28s %10s %8s %6s %7s  %s\n' target runs runs/s cov corpus result
for t in "${targets[@]}"; do
  cat build-fuzz/fuzz-"$t".summary 2>/dev/null || echo "$t: no result (see build-fuzz/fuzz-$t.log)"
  [ "$(cat build-fuzz/fuzz-"$t".rc 2>/dev/null)" = 0 ] || failed=1
done
exit $failed
