#!/usr/bin/env bash
# instructions.sh [GAME...] — instructions per step (valgrind's callgrind) of bench.py's three
# workloads, for figures that a loaded machine does not blur: each workload runs at two sizes
# and the difference in instructions is divided by the difference in steps, so start-up and
# imports cancel out. Needs valgrind and PYTHONPATH with the package (build/python).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
games=("$@")
[ ${#games[@]} -gt 0 ] || mapfile -t games < <(/usr/bin/python3 -c 'import ramparts; print("\n".join(ramparts.games()))')
count() { # ARGS... -> "instructions steps"
  local out
  out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null /usr/bin/python3 \
        "$here/bench.py" "$@" 2>&1)
  echo "$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' <<<"$out") $(awk '/ (c|python|vector) [0-9]+$/ {print $3}' <<<"$out")"
}
per_step() { # SMALL_ARGS LARGE_ARGS (quoted) -> instructions per step
  read -r i1 s1 < <(count $1)
  read -r i2 s2 < <(count $2)
  echo $(( (i2 - i1) / (s2 - s1) ))
}
printf '%-22s %14s %16s %17s\n' game "C instr/action" "Python instr/step" "VectorEnv instr/step"
for g in "${games[@]}"; do
  c=$(per_step "--game $g --part c --games 200" "--game $g --part c --games 1000")
  p=$(per_step "--game $g --part python --games 20" "--game $g --part python --games 100")
  v=$(per_step "--game $g --part vector --envs 256 --iterations 20" \
               "--game $g --part vector --envs 256 --iterations 60")
  printf '%-22s %14s %16s %17s\n' "$g" "$c" "$p" "$v"
done
