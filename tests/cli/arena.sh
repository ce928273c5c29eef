#!/usr/bin/env bash
# arena.sh — `ramparts arena` and `ramparts bench --ai` through the real binary: help and
# usage errors, a bad AI refused with the valid ones, the table and JSON of a small run whose
# counts add up, with each side's thinking time, results that do not depend on --threads (but
# for those times), and bench --ai's line format. --engine: tests/cli/arena_engine.py.
RAMPARTS=$1
. "$(dirname "$0")/lib.bash"

expect_status "arena --help exits 0" 0 "$RAMPARTS" arena --help
expect_match "arena --help shows usage" "$("$RAMPARTS" arena --help)" "usage: ramparts arena"
expect_status "arena without a game" 2 "$RAMPARTS" arena
expect_status "arena without --ai" 2 "$RAMPARTS" arena castle-danger
expect_status "arena with one AI" 2 "$RAMPARTS" arena castle-danger --ai greedy
expect_status "arena bad --games" 2 "$RAMPARTS" arena castle-danger --ai random,greedy --games 0
expect_status "arena bad AI" 2 "$RAMPARTS" arena castle-danger --ai random,bogus
expect_match "arena bad AI lists the valid ones" \
  "$("$RAMPARTS" arena castle-danger --ai random,bogus 2>&1)" "ismcts"

game=castle-danger
text=$(NO_COLOR=1 "$RAMPARTS" arena $game --ai random,greedy,mcts:iters=20,threads=2 --games 6)
expect_match "arena table header" "$text" "A score.*95% CI.*Elo.*A ms/move +B ms/move"
expect_match "arena lists every pairing" "$text" "random +greedy.*random +mcts:iters=20,threads=2.*greedy +mcts"
json=$("$RAMPARTS" arena $game --ai random,greedy --games 6 --json)
expect_match "arena --json keys" "$json" '"pairings":\[\{"a":"random","b":"greedy","games":6,"a_wins":.*"ci_low":.*"elo":'
sum=$(echo "$json" | sed 's/.*"a_wins":\([0-9]*\),"draws":\([0-9]*\),"b_wins":\([0-9]*\),"unfinished":\([0-9]*\).*/\1+\2+\3+\4/')
expect_eq "arena wins, draws, losses and unfinished games add up" "$(( sum ))" "6"
expect_match "arena --json reports each side's thinking time" "$json" \
  '"a_ms_per_move":[0-9.e-]+,"b_ms_per_move":[0-9.e-]+\}'
# everything but the thinking times, which are the machine's (docs/ai.md, "Measuring")
times='s/,"a_ms_per_move":[-0-9.e+]*,"b_ms_per_move":[-0-9.e+]*//g'
json2=$("$RAMPARTS" arena $game --ai random,greedy --games 6 --json --threads 2)
expect_eq "arena is the same with 2 threads" "$(sed "$times" <<<"$json2")" "$(sed "$times" <<<"$json")"
multi=$("$RAMPARTS" arena king-of-danger players=3 --ai easy:iters=20,random --games 3 --json)
expect_match "arena with 3 players" "$multi" '"players":3.*"a":"easy:iters=20"'

line=$("$RAMPARTS" bench walls-and-armies --ai --threads 2)
expect_match "bench --ai line" "$line" "^walls-and-armies ai=ismcts iters_per_s_1=[0-9]+ iters_per_s_2=[0-9]+ speedup=[0-9.]+$"
finish
