"""bench_rl_environment.py — what OpenSpiel's own rl_environment costs a step on each game with
ramparts.openspiel as pyspiel (issue 45), and what `.tolist()` of an information-state tensor
costs (pyspiel hands lists; this module numpy arrays, made in C without a copy). A benchmark,
not a test: the tests cannot fetch OpenSpiel, so give its file:

  PYTHONPATH=build/python /usr/bin/python3 python/benchmarks/bench_rl_environment.py \\
      --rl-environment open_spiel/python/rl_environment.py

rl_environment.py is loaded unmodified; its one import not installed here, absl's logging, is
stood in for by the standard library's, and `pyspiel` is ramparts.openspiel. Times are CPU time
(time.process_time) per step of random legal actions, averaged over --steps steps.
"""

import argparse
import importlib.util
import logging
import random
import sys
import time
import types

import ramparts
import ramparts.openspiel as pyspiel

GAMES = ("danger-at-the-walls", "king-of-danger", "rush-the-wall", "castle-danger",
         "walls-and-armies")


def load_rl_environment(path):
    """OpenSpiel's rl_environment module from its file, pyspiel and absl.logging provided."""
    absl = types.ModuleType("absl")
    absl.logging = logging
    sys.modules.setdefault("absl", absl)
    sys.modules.setdefault("absl.logging", logging)
    sys.modules["pyspiel"] = pyspiel
    spec = importlib.util.spec_from_file_location("rl_environment", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def per_step(env, steps, rng):
    """CPU seconds per step of random legal actions (resetting at each game's end)."""
    time_step = env.reset()
    spent, done = 0.0, 0
    while done < steps:
        if time_step.last():
            time_step = env.reset()
        player = time_step.observations["current_player"]
        action = rng.choice(time_step.observations["legal_actions"][player])
        start = time.process_time()
        time_step = env.step([action])
        spent += time.process_time() - start
        done += 1
    return spent / steps


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rl-environment", required=True, help="OpenSpiel's rl_environment.py")
    parser.add_argument("--steps", type=int, default=50)
    args = parser.parse_args()
    rl = load_rl_environment(args.rl_environment)
    rng = random.Random(1)
    print(f"{'game':22} {'default':>9} {'(type)':>18} {'OBSERVATION':>12} "
          f"{'info state floats':>18}")
    for game_id in GAMES:
        game = pyspiel.load_game(game_id)
        default = rl.Environment(game)
        kind = "observation" if default._use_observation else "information state"
        t_default = per_step(default, args.steps, rng)
        t_obs = per_step(rl.Environment(game, observation_type=rl.ObservationType.OBSERVATION),
                         args.steps, rng)
        size = game.information_state_tensor_size()
        print(f"{game_id:22} {t_default * 1e3:7.2f} ms {kind:>18} {t_obs * 1e3:9.3f} ms "
              f"{size:18,}")
    state = pyspiel.load_game("walls-and-armies").new_initial_state(seed=1)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    tensor = state.information_state_tensor(state.current_player())
    start = time.process_time()
    calls = 0
    while time.process_time() - start < 1.0:
        tensor = state.information_state_tensor(state.current_player())
        calls += 1
    made = (time.process_time() - start) / calls
    start = time.process_time()
    tensor.tolist()
    listed = time.process_time() - start
    print(f"walls-and-armies information_state_tensor: {tensor.size:,} floats, "
          f"{made * 1e3:.2f} ms a call as a numpy array, .tolist() {listed * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
