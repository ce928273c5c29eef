#!/usr/bin/env bash
# golden.sh — the golden files of tests/golden/ (Stockfish's bench-signature habit):
#   signatures.txt  `ramparts bench --games 2000`'s actions= signature per game, and fixed-seed
#                   searches through the protocol (move chosen, estimate, iterations);
#   GAME.txt        a short seeded playthrough per game (tests/golden_gen.c).
# Usage: golden.sh check|write RAMPARTS GOLDEN_GEN. `check` (a CTest test) regenerates them
# into a temporary directory and fails with a unified diff when anything differs; `write`
# (`make golden`, only after an intended change of rules, notation or generator) rewrites them.
set -euo pipefail
mode=$1 ramparts=$2 golden_gen=$3
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

games=$("$ramparts" list | awk '{print $1}')
{
  echo "# bench --games 2000: the workload's total actions per game"
  "$ramparts" bench --games 2000 | sed -E 's/ games_per_s=[^ ]+ ns_per_action=[^ ]+//'
  echo "# fixed-seed searches (ramparts engine): one thread, fixed iterations"
  for g in $games; do
    for seed in 7 8; do
      printf 'new %s seed=%s\ngenmove mcts:iters=300,threads=1\ngenmove ismcts:iters=300,threads=1\n' \
        "$g" "$seed" | "$ramparts" engine | grep -v '^$' | sed 's/ budget_ms=0$//'
    done
  done
} > "$out/signatures.txt"
for g in $games; do
  "$golden_gen" "$g" > "$out/$g.txt"
done

case $mode in
  write)
    cp "$out"/*.txt "$here"/
    echo "golden.sh: rewrote $(ls "$out" | wc -l) files in tests/golden (review: git diff tests/golden)"
    ;;
  check)
    failed=0
    for f in "$out"/*.txt; do
      name=$(basename "$f")
      if [ ! -f "$here/$name" ]; then
        echo "golden.sh: tests/golden/$name is missing (make golden writes it)"; failed=1; continue
      fi
      if ! diff -u --label "tests/golden/$name (committed)" --label "$name (now)" \
           "$here/$name" "$f" | head -60; then :; fi
      cmp -s "$here/$name" "$f" || failed=1
    done
    if [ "$failed" -ne 0 ]; then
      echo "golden.sh: behaviour changed (diff above). If the change is intended, run" \
           "'make golden' and commit tests/golden with the change that explains it."
      exit 1
    fi
    echo "golden.sh: $(ls "$out" | wc -l) golden files match"
    ;;
  *) echo "usage: golden.sh check|write RAMPARTS GOLDEN_GEN" >&2; exit 2 ;;
esac
