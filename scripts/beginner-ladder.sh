#!/usr/bin/env bash
# beginner-ladder.sh — can a newcomer beat the `beginner` level (issue 43, docs/ai.md)? A
# player who follows the coach's suggestion every turn is modelled as the server's hint search
# (the level HINT_LEVEL names in src/server/session.c) from that player's own view, an arena
# player; it meets `beginner`, and so does `easy` if that is another level. `make
# beginner-ladder` runs it and prints one Markdown table with the issue's two targets.
# Usage: scripts/beginner-ladder.sh [RAMPARTS] [OUTDIR]   (env: GAMES per pairing, default
#        400; THREADS, default 2; SEED, default 1; CONFIGS="game:players ...", default every
#        game at two players; FOLLOWER, default the server's hint level). Each arena's JSON is
#        kept in OUTDIR (default build/beginner-ladder) and reused when present, so a stopped
#        run resumes; delete OUTDIR to measure again.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
ramparts=${1:-build/ramparts}
out=${2:-build/beginner-ladder}
games=${GAMES:-400}
threads=${THREADS:-2}
seed=${SEED:-1}
configs=${CONFIGS:-"danger-at-the-walls:2 king-of-danger:2 rush-the-wall:2 castle-danger:2
walls-and-armies:2"}
hint_level=$(sed -n 's/^#define HINT_LEVEL "\([a-z]*\)".*/\1/p' "$here/src/server/session.c")
if [ -z "$hint_level" ]; then
  echo "beginner-ladder.sh: no HINT_LEVEL in src/server/session.c: which level does the coach use?" >&2
  exit 1
fi
follower=${FOLLOWER:-$hint_level}
pairs="$follower,beginner"
[ "$follower" = easy ] || pairs="$pairs easy,beginner"
# The arenas are the ladder's (one JSON per game, player count and pair, kept and reused); its
# table lists only its own pairs, so this script prints its own.
GAMES=$games THREADS=$threads SEED=$seed CONFIGS=$configs PAIRS=$pairs \
  bash "$here/scripts/ai-ladder.sh" "$ramparts" "$out" > /dev/null

python3 - "$out" "$follower" "$pairs" $configs <<'PY'
import json, os, sys
out, follower, pairs, configs = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4:]
print(f"The coach follower is `{follower}` from its own view (the server's hint level).")
print()
print("| game | players | A | B | games | A won | drawn | B won | A score [95% CI] | fair share "
      "| follower wins >= 80% | A above fair share |")
print("|---|---|---|---|---:|---:|---:|---:|---|---:|---|---|")
for c in configs:
    game, players = c.split(":")
    fair = 1 / int(players)
    for pair in pairs:
        f = os.path.join(out, f"{game}-{players}-{pair.replace(',', '-')}.json")
        if not os.path.exists(f):
            continue
        for p in json.load(open(f))["pairings"]:
            target = "yes" if p["a_score"] >= 0.8 else "no"
            if p["a"] != follower or int(players) != 2:
                target = "-"  # the 80% target is the follower's, at two players
            sep = "yes" if p["ci_low"] > fair else "no"
            print(f"| {game} | {players} | {p['a']} | {p['b']} | {p['games']} | {p['a_wins']} | "
                  f"{p['draws']} | {p['b_wins']} | {100*p['a_score']:.1f}% "
                  f"[{100*p['ci_low']:.1f}, {100*p['ci_high']:.1f}] | {100*fair:.0f}% | {target} "
                  f"| {sep} |")
PY
