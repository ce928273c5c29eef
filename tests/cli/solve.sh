#!/usr/bin/env bash
# solve.sh — `ramparts solve` through the real binary: help and exit codes (0 solved, 1 a tree
# too big or a game of other than two seats, 2 bad usage), the curve falling in text and JSON,
# the policy file with one line per information state.
RAMPARTS=$1
. "$(dirname "$0")/lib.bash"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect_status "solve --help exits 0" 0 "$RAMPARTS" solve --help
expect_match "solve --help shows usage" "$("$RAMPARTS" solve --help)" "usage: ramparts solve"
expect_status "solve without a game" 2 "$RAMPARTS" solve
expect_status "solve unknown game" 2 "$RAMPARTS" solve 'no-such-game(deck=6)'
expect_status "solve bad option" 2 "$RAMPARTS" solve 'walls-and-armies(deck=5)'
expect_status "solve unclosed options" 2 "$RAMPARTS" solve 'walls-and-armies(deck=6'
expect_status "solve bad --iterations" 2 "$RAMPARTS" solve 'walls-and-armies(deck=6)' --iterations 0
expect_status "solve unknown flag" 2 "$RAMPARTS" solve 'walls-and-armies(deck=6)' --frobnicate
expect_status "solve a tree over the limit" 1 "$RAMPARTS" solve walls-and-armies --max-nodes 100000
expect_match "solve says why" "$("$RAMPARTS" solve walls-and-armies --max-nodes 1000 2>&1)" \
  "more than 1000 nodes: use smaller options"
expect_status "solve three seats" 1 "$RAMPARTS" solve 'king-of-danger(players=3)'
# King of Danger's short game (KD-P6): a malformed deal is bad usage; the whole game is refused
expect_status "solve a malformed deal" 2 "$RAMPARTS" solve 'king-of-danger(players=2,deal=5+1)'
expect_match "solve says what a deal is" \
  "$("$RAMPARTS" solve 'king-of-danger(players=2,deal=5+1)' 2>&1)" "write PILES\+HAND-CARDS"
expect_status "solve the whole two-player game" 1 "$RAMPARTS" solve 'king-of-danger(players=2)'
expect_match "solve: the short game's sizes" \
  "$(NO_COLOR=1 "$RAMPARTS" solve 'king-of-danger(players=2,deal=0+2)' --iterations 100)" \
  "493 nodes, 144 terminal, 83 information states, perfect recall"

text=$(NO_COLOR=1 "$RAMPARTS" solve 'walls-and-armies(deck=6,turn-cap=2)' --iterations 200 \
  --every 100 --policy "$tmp/policy.jsonl")
expect_match "solve text: sizes and recall" "$text" "20725 nodes, 9504 terminal, 243 information states, perfect recall"
expect_match "solve text: the curve" "$text" $'\n +100 +0\\.0+[0-9]+ .*\n +200 +0\\.0+[0-9]+ '
[[ "$text" != *$'\033'* ]] && pass || fail "solve: a progress bar or colour in piped output"
expect_eq "solve policy: one line per information state" "$(wc -l < "$tmp/policy.jsonl")" "243"
expect_match "solve policy line" "$(head -1 "$tmp/policy.jsonl")" '^\{"seat":[01],"history":\[[0-9,]*\],"actions":\{"[^"]+":[0-9.]+'

json=$("$RAMPARTS" solve 'walls-and-armies(deck=6,turn-cap=2)' --iterations 300 --every 100 --json)
expect_match "solve --json keys" "$json" '"game":"walls-and-armies".*"infosets":243.*"recall_breaks":0.*"uniform_exploitability":0\.00833.*"curve":\[\{"iterations":100,.*\{"iterations":300,"exploitability":'
first=$(echo "$json" | sed 's/.*"iterations":100,"exploitability":\([0-9.e-]*\).*/\1/')
last=$(echo "$json" | sed 's/.*"iterations":300,"exploitability":\([0-9.e-]*\).*/\1/')
awk -v a="$first" -v b="$last" 'BEGIN { exit !(b < a && a < 0.001) }' && pass ||
  fail "solve: exploitability falls ($first then $last)"
expect_status "solve an unwritable policy" 1 "$RAMPARTS" solve 'walls-and-armies(deck=6,turn-cap=2)' \
  --iterations 1 --policy "$tmp/no/such/dir/p.jsonl"
finish
