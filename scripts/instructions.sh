#!/usr/bin/env bash
# instructions.sh — load-independent speed of every game (issues 31 and 50): instructions
# (valgrind's callgrind) per action of `ramparts bench`'s random-playout workload, and per search
# iteration of one AI search from a game's start (ISMCTS for hidden-information games, UCT for
# Castle Danger, the search's defaults: 8 playout moves, then `evaluate`), and per ISMCTS
# simulation of Danger at the Walls with random rollouts to the end (`rollout=-1`, the measure
# issue 50 compares with OpenSpiel). Each is measured at two sizes and the difference divided by
# the difference in actions or iterations, so start-up cancels out. Issue 50's targets stand
# beside the figures with "met" or "not met". Usage: scripts/instructions.sh [RAMPARTS]
# [GAME...] (a release build; about a minute per game on an idle core).
set -euo pipefail
ramparts=${1:-build/ramparts}
shift || true
games=("$@")
[ ${#games[@]} -gt 0 ] || mapfile -t games < <("$ramparts" list | awk '{print $1}')
# Issue 50's targets: instructions an action at most, and a simulation of Danger at the Walls.
declare -A action_target=([danger-at-the-walls]=180 [castle-danger]=300 [rush-the-wall]=250
                         [king-of-danger]=200 [walls-and-armies]=200)
simulation_game=danger-at-the-walls simulation_target=25000
instructions() { # COMMAND... (stdin passed on) -> instructions counted
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
actions() { "$ramparts" bench "$1" --games "$2" | sed -n 's/.* actions=\([0-9]*\).*/\1/p'; }
search() { # GAME SPEC ITERS -> instructions of one search from the start (seed 7)
  printf 'new %s seed=7\ngenmove %siters=%s,threads=1\n' "$1" "$2" "$3" |
    instructions "$ramparts" engine
}
per_iteration() { # GAME SPEC -> instructions per iteration (2000 and 6000 iterations); SPEC is
  # the kind and its settings up to the iterations: "ismcts:" or "ismcts:rollout=-1," 
  local s1 s2
  s1=$(search "$1" "$2" 2000) s2=$(search "$1" "$2" 6000)
  echo $(((s2 - s1) / 4000))
}
verdict() { # VALUE TARGET -> "met" or "not met" ("-" without a target)
  if [ -z "$2" ]; then echo "-"; elif [ "$1" -le "$2" ]; then echo "met"; else echo "not met"; fi
}
printf '%-22s %13s %8s %8s %16s\n' game "instr/action" target "" "instr/iteration"
simulation=
for g in "${games[@]}"; do
  a1=$(actions "$g" 200) a2=$(actions "$g" 1000)
  i1=$(instructions "$ramparts" bench "$g" --games 200)
  i2=$(instructions "$ramparts" bench "$g" --games 1000)
  per_action=$(((i2 - i1) / (a2 - a1)))
  kind=ismcts
  "$ramparts" list | grep -q "^$g .* open " && kind=mcts
  target=${action_target[$g]:-}
  printf '%-22s %13d %8s %8s %16d\n' "$g" "$per_action" "${target:+<= $target}" \
    "$(verdict "$per_action" "$target")" "$(per_iteration "$g" "$kind:")"
  [ "$g" != "$simulation_game" ] || simulation=$(per_iteration "$g" "ismcts:rollout=-1,")
done
if [ -n "$simulation" ]; then
  printf '\n%s: one ISMCTS simulation, random rollouts to the end: %d instructions' \
    "$simulation_game" "$simulation"
  printf ' (target <= %d: %s)\n' "$simulation_target" "$(verdict "$simulation" "$simulation_target")"
fi
