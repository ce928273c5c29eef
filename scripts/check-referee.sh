#!/usr/bin/env bash
# check-referee.sh — the referee's state stays behind the match's views (engine.h). Front ends
# see a match only through what a viewer may know; the one way to the full state,
# rp_match_referee, and the engine's internal header (the match's struct) may appear only in
#   src/engine, src/games, src/ai   the engine, the rules and the AI, which read full states;
#   tests/                          the tests, which compare what each seat got with it;
#   src/cli/cmd_engine.c            the text protocol's debug verbs (`secrets`, its snapshot);
#   src/cli/analyze_play.c          the designer's measures of whole records after the fact.
# Prints each use elsewhere with its file and line and exits 1; exits 0 when there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
allowed='^(src/engine/|src/games/|src/ai/|tests/|src/cli/cmd_engine\.c:|src/cli/analyze_play\.c:)'
pattern='rp_match_referee|engine/internal\.h'
# (include/ramparts/engine.h declares the call: the interface, not a use.)
uses=$(git grep -n -E "$pattern" -- 'src' 'python' 'web' 'scripts' 'examples' \
         ':!scripts/check-referee.sh' | grep -v -E "$allowed" || true)
if [ -n "$uses" ]; then
  printf '%s\n' "$uses" >&2
  echo "check-referee: the referee's state is read above: front ends see a match only through its views (include/ramparts/engine.h)" >&2
  exit 1
fi
echo "check-referee: the referee's state is read only where allowed"
