#!/usr/bin/env bash
# ceiling.sh — the ceiling of what skill can win in each game (issue 31): the analysis-only
# oracle (the hard search seeing every hidden card) against random and each level, per game
# and player count, through `ramparts analyze` (the only place the oracle exists).
# Usage: scripts/ceiling.sh [RAMPARTS] [OUTDIR]   (env: LOW_GAMES, HIGH_GAMES, THREADS, SEED,
#        CONFIGS="game:players ..."). Prints a Markdown table; the analyze JSON stays in OUTDIR.
set -euo pipefail
ramparts=${1:-build/ramparts}
out=${2:-build/ceiling}
low=${LOW_GAMES:-40}   # games against random and easy (the oracle's margin is wide)
high=${HIGH_GAMES:-100} # games against medium and hard
threads=${THREADS:-2}
seed=${SEED:-1}
configs=${CONFIGS:-"danger-at-the-walls:2 king-of-danger:2 rush-the-wall:2 walls-and-armies:2
castle-danger:2 king-of-danger:3 king-of-danger:4 king-of-danger:5 rush-the-wall:3
rush-the-wall:4"}
mkdir -p "$out"

# A multiple of the player count, so every deal seats the oracle on every seat once.
round_up() { echo $((($1 + $2 - 1) / $2 * $2)); }

for c in $configs; do
  game=${c%%:*} players=${c##*:}
  for pair in random,easy medium,hard; do
    n=$low
    [ "$pair" = medium,hard ] && n=$high
    n=$(round_up "$n" "$players")
    json="$out/$game-$players-${pair/,/-}.json"
    [ -s "$json" ] && continue # resume: a finished run is kept
    "$ramparts" analyze "$game" players="$players" --seed "$seed" --threads "$threads" \
      --games 2 --ai random --ladder "$pair" --ladder-games 2 --judge-games 0 \
      --ceiling-games "$n" --json "$json.tmp" > /dev/null
    mv "$json.tmp" "$json"
  done
done

python3 - "$out" <<'EOF'
import json, sys, glob, os
rows = {}
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    d = json.load(open(f))
    base = os.path.basename(f)[:-5].split("-")
    players = int(base[-3]); game = "-".join(base[:-3])
    for c in d["ceiling"]:
        s = c["strong_score"]
        rows.setdefault((game, players), {})[c["weak"]] = (
            s["value"], s["low"], s["high"], c["games"], c["fair_share"])
print("| game | players | fair share | oracle vs random | vs easy | vs medium | vs hard |")
print("|---|---|---|---|---|---|---|")
for (game, players), r in rows.items():
    cells = []
    fair = next(iter(r.values()))[4]
    for lvl in ("random", "easy", "medium", "hard"):
        if lvl in r:
            v, lo, hi, n, _ = r[lvl]
            cells.append(f"{100*v:.1f}% [{100*lo:.1f}, {100*hi:.1f}] ({n})")
        else:
            cells.append("-")
    print(f"| {game} | {players} | {100*fair:.0f}% | " + " | ".join(cells) + " |")
EOF
