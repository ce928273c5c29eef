#!/usr/bin/env bash
# instructions.sh — load-independent speed of every game (issue 31): instructions (valgrind's
# callgrind) per action of `ramparts bench`'s random-playout workload, and per search iteration
# of one AI search from a game's start (ISMCTS for hidden-information games, UCT for Castle
# Danger, the search's defaults: 8 playout moves, then `evaluate`). Each is measured at two
# sizes and the difference divided by the difference in actions or iterations, so start-up
# cancels out. Usage: scripts/instructions.sh [RAMPARTS] [GAME...] (a release build; about
# a minute per game on an idle core).
set -euo pipefail
ramparts=${1:-build/ramparts}
shift || true
games=("$@")
[ ${#games[@]} -gt 0 ] || mapfile -t games < <("$ramparts" list | awk '{print $1}')
instructions() { # COMMAND... (stdin passed on) -> instructions counted
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
actions() { "$ramparts" bench "$1" --games "$2" | sed -n 's/.* actions=\([0-9]*\).*/\1/p'; }
search() { # GAME KIND ITERS -> instructions of one search from the start (seed 7)
  printf 'new %s seed=7\ngenmove %s:iters=%s,threads=1\n' "$1" "$2" "$3" |
    instructions "$ramparts" engine
}
printf '%-22s %16s %19s\n' game "instr/action" "instr/iteration"
for g in "${games[@]}"; do
  a1=$(actions "$g" 200) a2=$(actions "$g" 1000)
  i1=$(instructions "$ramparts" bench "$g" --games 200)
  i2=$(instructions "$ramparts" bench "$g" --games 1000)
  kind=ismcts
  "$ramparts" list | grep -q "^$g .* open " && kind=mcts
  s1=$(search "$g" "$kind" 2000) s2=$(search "$g" "$kind" 6000)
  printf '%-22s %16d %19d\n' "$g" $(((i2 - i1) / (a2 - a1))) $(((s2 - s1) / 4000))
done
