#!/usr/bin/env bash
# ai-ladder.sh — the AI levels' ladder in every game (issue 31, docs/ai.md): `ramparts arena`
# of each level against the one below (easy-random, medium-easy, hard-medium), per game and
# player count, printed as one Markdown table. `make ai-ladder` runs it.
# Usage: scripts/ai-ladder.sh [RAMPARTS] [OUTDIR]   (env: GAMES per pairing, default 400;
#        THREADS, default 2; SEED, default 1; CONFIGS="game:players ..."; PAIRS, default
#        "easy,random medium,easy hard,medium"). Each arena's JSON is
#        kept in OUTDIR (default build/ai-ladder) and reused when present, so a run stopped
#        half-way resumes; delete OUTDIR to measure again.
set -euo pipefail
ramparts=${1:-build/ramparts}
out=${2:-build/ai-ladder}
games=${GAMES:-400}
threads=${THREADS:-2}
seed=${SEED:-1}
configs=${CONFIGS:-"danger-at-the-walls:2 king-of-danger:2 rush-the-wall:2 walls-and-armies:2
castle-danger:2 king-of-danger:3 king-of-danger:4 king-of-danger:5 rush-the-wall:3
rush-the-wall:4"}
mkdir -p "$out"

for c in $configs; do
  game=${c%%:*} players=${c##*:}
  n=$(((games + players - 1) / players * players)) # every deal seats A on every seat once
  for pair in ${PAIRS:-easy,random medium,easy hard,medium}; do
    json="$out/$game-$players-${pair/,/-}.json"
    [ -s "$json" ] && continue
    opts=()
    [ "$game" = king-of-danger ] || [ "$game" = rush-the-wall ] && opts=(players="$players")
    "$ramparts" arena "$game" "${opts[@]}" --ai "$pair" --games "$n" --seed "$seed" \
      --threads "$threads" --json > "$json.tmp"
    mv "$json.tmp" "$json"
  done
done

python3 - "$out" $configs <<'PY'
import json, os, sys
out, configs = sys.argv[1], sys.argv[2:]
print("| game | players | A | B | games | A won | drawn | B won | A score [95% CI] | fair share | A above fair share |")
print("|---|---|---|---|---:|---:|---:|---:|---|---:|---|")
for c in configs:
    game, players = c.split(":")
    for pair in ("easy-random", "medium-easy", "hard-medium"):
        f = os.path.join(out, f"{game}-{players}-{pair}.json")
        if not os.path.exists(f):
            continue
        for p in json.load(open(f))["pairings"]:
            fair = 1 / int(players)
            sep = "yes" if p["ci_low"] > fair else "no"
            print(f"| {game} | {players} | {p['a']} | {p['b']} | {p['games']} | {p['a_wins']} | "
                  f"{p['draws']} | {p['b_wins']} | {100*p['a_score']:.1f}% "
                  f"[{100*p['ci_low']:.1f}, {100*p['ci_high']:.1f}] | {100*fair:.0f}% | {sep} |")
PY
