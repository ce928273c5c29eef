#!/usr/bin/env bash
# bench-review.sh — `make bench-review`: the processor time to review a whole game of each kind
# at the review's default budget (docs/ai.md, "Reviews"), one core. Each game is played by the
# medium AI on every seat from a fixed seed (a game as long as real ones), then `ramparts
# review --json` reviews seat 0; the time is user + system time of that one process (it runs
# one thread), so a busy machine slows the wall clock, not the figure. A benchmark, not a
# test: it asserts nothing. Usage: bench-review.sh RAMPARTS [SEED]
set -euo pipefail
ramparts=${1:?usage: bench-review.sh RAMPARTS [SEED]}
seed=${2:-1}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '%-22s %6s %10s %10s  %s\n' game moves decisions "cpu (s)" budget
for game in $("$ramparts" list | awk '{print $1}'); do
  record="$dir/$game.rec"
  "$ramparts" watch "$game" --ai medium --seed "$seed" --pace 0 --record "$record" >/dev/null
  /usr/bin/time -f '%U %S' -o "$dir/time" "$ramparts" review "$record" --seat 0 --json \
    >"$dir/review.json"
  read -r user sys <"$dir/time"
  python3 - "$game" "$dir/review.json" "$user" "$sys" <<'PY'
import json, sys
game, path, user, sys_time = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
review = json.load(open(path))
moves = len({p["ply"] for p in review["plies"]})
decisions = sum(1 for p in review["plies"] if "decision" in p)
print(f"{game:<22} {moves:>6} {decisions:>10} {user + sys_time:>10.2f}  {review['budget']}")
PY
done
