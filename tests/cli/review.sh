#!/usr/bin/env bash
# review.sh — `ramparts review` through the real binary (docs/terminal.md, docs/review.md):
# help and exit codes (0 reviewed, 1 a bad record or a review refused, 2 bad usage), the list
# with marks and luck in text, no colour through a pipe or with NO_COLOR, --json the same
# numbers as the text, and an unfinished game against the AI reviewed only for the human.
RAMPARTS=$1
. "$(dirname "$0")/lib.bash"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$RAMPARTS" watch danger-at-the-walls --ai random --seed 3 --pace 0 --record "$tmp/dw.rec" >/dev/null

expect_status "review --help exits 0" 0 "$RAMPARTS" review --help
expect_match "review --help shows usage" "$("$RAMPARTS" review --help)" "usage: ramparts review FILE --seat N"
expect_status "review without a file" 2 "$RAMPARTS" review --seat 0
expect_status "review without a seat" 2 "$RAMPARTS" review "$tmp/dw.rec"
expect_match "review says which seat" "$("$RAMPARTS" review "$tmp/dw.rec" 2>&1)" "which seat\\? --seat N"
expect_status "review a seat the game lacks" 2 "$RAMPARTS" review "$tmp/dw.rec" --seat 2
expect_match "review names the seat" "$("$RAMPARTS" review "$tmp/dw.rec" --seat 2 2>&1)" "seat 2 is not a seat of this game \\(0 to 1\\)"
expect_status "review an unknown level" 2 "$RAMPARTS" review "$tmp/dw.rec" --seat 0 --level random
expect_status "review a bad budget" 2 "$RAMPARTS" review "$tmp/dw.rec" --seat 0 --budget iters=x
expect_status "review an unknown flag" 2 "$RAMPARTS" review "$tmp/dw.rec" --seat 0 --frobnicate
expect_status "review a missing file" 1 "$RAMPARTS" review "$tmp/none.rec" --seat 0
printf '[game danger-at-the-walls]\n[seed 1]\nflag wall 9\n' > "$tmp/bad.rec"
expect_status "review a record that does not replay" 1 "$RAMPARTS" review "$tmp/bad.rec" --seat 0
expect_match "review says which line" "$("$RAMPARTS" review "$tmp/bad.rec" --seat 0 2>&1)" "bad.rec:3: move .flag wall 9."

text=$("$RAMPARTS" review "$tmp/dw.rec" --seat 0 --budget iters=300)
expect_match "review text: the heading" "$text" "^Review of Blue \\(seat 0\\) in Danger at the Walls, by the hard search \\(iters=7000,bias=1,iters=300\\)"
expect_match "review text: chances" "$text" $'\n       chances [0-9]+% -> [0-9]+%'
expect_match "review text: luck" "$text" $'\n       luck: Blue draws '
expect_match "review text: the count" "$text" $'\nBlue: [0-9]+ inaccurac(y|ies), [0-9]+ mistakes?, [0-9]+ blunders?\\.$'
[[ "$text" != *$'\033'* ]] && pass || fail "review: colour or a progress bar in piped output"
# on a terminal (script(1) gives it one): colour, but none with NO_COLOR
sgr=$'\033\[[0-9;]*m'
on_tty() { script -qec "$RAMPARTS review $tmp/dw.rec --seat 0 --budget iters=300" /dev/null; }
[[ "$(on_tty)" =~ $sgr ]] && pass || fail "review: no colour on a terminal"
[[ "$(NO_COLOR=1 on_tty)" =~ $sgr ]] && fail "review: colour with NO_COLOR on a terminal" || pass

# --json: the same numbers as the text (each decision's before, after, mark in order)
json=$("$RAMPARTS" review "$tmp/dw.rec" --seat 0 --budget iters=300 --json)
from_json=$(python3 -c '
import json, sys
for p in json.loads(sys.argv[1])["plies"]:
    d = p.get("decision")
    if d:
        after = "?" if d["after"] is None else "%d%%" % int(d["after"] * 100 + 0.5)
        print("%d%% -> %s %s" % (int(d["before"] * 100 + 0.5), after, d["mark"] or ""))
' "$json")
from_text=$(echo "$text" | sed -n 's/^       chances \([0-9]*%\) -> \([0-9?]*%*\)\( *([^)]*)\)\{0,1\}  *\([a-z]*\).*/\1 -> \2 \4/p; s/^       chances \([0-9]*%\) -> \([0-9?]*%*\)$/\1 -> \2 /p')
expect_eq "review: --json and the text give the same numbers" "$from_text" "$from_json"
expect_match "review --json: the format" "$json" '^\{"type":"danger-at-the-walls","seat":0,"level":"hard","budget":"iters=7000,bias=1,iters=300","thresholds":\{"inaccuracy":0\.1,"mistake":0\.2,"blunder":0\.3\},"over":true,"plies":\[\{"ply":0,"actor":0,'
expect_eq "review: the same record and budget give the same review" \
  "$("$RAMPARTS" review "$tmp/dw.rec" --seat 0 --budget iters=300 --json)" "$json"

# An unfinished game against the AI: the human's own past moves only.
head -n 20 "$tmp/dw.rec" | sed -e 's/^\[seat 0 random\]/[seat 0 human]/' -e '/^\[result/d' > "$tmp/live.rec"
expect_status "review an unfinished game for the human" 0 "$RAMPARTS" review "$tmp/live.rec" --seat 0 --budget iters=100
expect_status "review an unfinished game for the AI" 1 "$RAMPARTS" review "$tmp/live.rec" --seat 1
expect_match "review says why not" "$("$RAMPARTS" review "$tmp/live.rec" --seat 1 2>&1)" "the game is not over"
# The server checks its review budget when it starts: a bad one would fail every review.
expect_status "serve --review-budget iters=x exits 2" 2 "$RAMPARTS" serve --review-budget iters=x --db "$tmp/s.db"
expect_match "serve names the bad budget" "$("$RAMPARTS" serve --review-budget banana=1 --db "$tmp/s.db" 2>&1)" \
  "--review-budget banana=1: AI 'hard' has no parameter 'banana'"
finish
