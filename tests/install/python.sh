#!/usr/bin/env bash
# python.sh SOURCE_DIR PYTHON — the Python package as a user installs it: pip installs ./python
# from a copy of the source tree (so the tree itself is not written to) into a virtual
# environment that sees Debian's numpy, with no package index; then the installed package
# plays a game, steps a VectorEnv and asks a Bot, from outside the source tree.
set -euo pipefail
src=$1 python=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir "$work/tree"
(cd "$src" && cp -r CMakeLists.txt cmake data include python src "$work/tree/" &&
  mkdir -p "$work/tree/docs" && cp -r docs/rules "$work/tree/docs/")
rm -rf "$work/tree/python/build" "$work/tree/python/"*.egg-info
"$python" -m venv --system-site-packages "$work/venv"
(cd "$work/tree" && PIP_FIND_LINKS= "$work/venv/bin/python" -m pip install --quiet --no-index \
  ./python) || fail "pip install ./python"
cd "$work"
out=$("$work/venv/bin/python" - <<'PY'
import numpy as np
import ramparts
assert ramparts.__file__.startswith(__import__("sys").prefix), ramparts.__file__
game = ramparts.load_game("castle-danger", tournament=1, seed=3)
state = game.new_initial_state()
bot = ramparts.Bot("greedy", seed=1)
while not state.is_terminal():
    state.apply_action(bot.step(state))
env = ramparts.VectorEnv("walls-and-armies", 8, seed=1)
env.reset()
for _ in range(50):
    env.step(env.sample_actions())
print("ok", ramparts.__version__, sum(state.returns()), env.observations.shape)
PY
) || fail "the installed package does not run"
grep -q "^ok " <<<"$out" || fail "$out"
echo "pip install ./python: 1 passed, 0 failed ($out)"
