"""bench.py — speed of Ramparts from Python, side by side for every game, on one core:

  C          `ramparts bench`'s workload (seeded random playouts) run in C: ns per action
  Python     the same kind of random games through the single-state API
             (is_terminal, legal_actions, apply_action): ns per step, and its overhead over C
  VectorEnv  steps per second of VectorEnv.step with observations and legal masks written for
             every env (random legal actions from VectorEnv.sample_actions, included)

Times are CPU time of this process (time.process_time), the best of --repeat runs, so other
work on a shared machine slows the figures less than wall-clock time would.

  PYTHONPATH=build/python /usr/bin/python3 python/benchmarks/bench.py [--game ID] [--json]
  (make bench-python runs it)
"""

import argparse
import json
import sys
import time

import numpy as np

import ramparts
from ramparts._ramparts import random_playouts

BENCH_SEED = 20261121  # `ramparts bench`'s


def load(game_id):
    game = ramparts.load_game(game_id)
    options = dict(kv.split("=", 1) for kv in game.bench_options.split())
    return ramparts.load_game(game_id, **options) if options else game


def best_of(repeat, run):
    """(best CPU seconds, result) of `repeat` runs of run()."""
    best, result = None, None
    for _ in range(repeat):
        start = time.process_time()
        result = run()
        seconds = time.process_time() - start
        best = seconds if best is None else min(best, seconds)
    return best, result


def python_playouts(game, games, seed):
    """Random games through the single-state API; the random index comes from a numpy table,
    so the loop is the API calls plus the least Python a random agent needs."""
    picks = np.random.default_rng(seed).integers(0, 1 << 30, size=1 << 16).tolist()
    mask = (1 << 16) - 1
    steps = 0
    for g in range(games):
        state = game.new_initial_state(seed + g)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[picks[steps & mask] % len(legal)])
            steps += 1
    return steps


def vector_steps(game, num_envs, iterations, seed):
    env = ramparts.VectorEnv(game, num_envs, seed=seed)
    env.reset()
    actions = np.zeros(num_envs, np.int64)
    for _ in range(iterations):
        env.sample_actions(actions)
        env.step(actions)
    return num_envs * iterations


def bench_part(game_id, args):
    """Only one of the three workloads, once, untimed: for counting instructions with
    valgrind --tool=callgrind (run twice with different sizes; the difference is the work)."""
    game = load(game_id)
    if args.part == "c":
        return random_playouts(game, args.games, BENCH_SEED)
    if args.part == "python":
        return python_playouts(game, args.games, BENCH_SEED)
    return vector_steps(game, args.envs, args.iterations, BENCH_SEED)


def bench_game(game_id, args):
    game = load(game_id)
    c_seconds, c_actions = best_of(
        args.repeat, lambda: random_playouts(game, args.games, BENCH_SEED)
    )
    py_games = max(1, args.games // 10)
    py_seconds, py_steps = best_of(args.repeat, lambda: python_playouts(game, py_games, BENCH_SEED))
    vec_seconds, vec_steps = best_of(
        args.repeat, lambda: vector_steps(game, args.envs, args.iterations, BENCH_SEED)
    )
    c_ns = c_seconds * 1e9 / c_actions
    py_ns = py_seconds * 1e9 / py_steps
    return {
        "game": game_id,
        "c_games": args.games,
        "c_actions": c_actions,
        "c_ns_per_action": round(c_ns, 1),
        "python_games": py_games,
        "python_steps": py_steps,
        "python_ns_per_step": round(py_ns, 1),
        "python_overhead_ns": round(py_ns - c_ns, 1),
        "vector_envs": args.envs,
        "vector_steps_per_s": round(vec_steps / vec_seconds),
        "vector_ns_per_step": round(vec_seconds * 1e9 / vec_steps, 1),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=ramparts.games(), help="one game (default: all)")
    parser.add_argument("--games", type=int, default=5000, help="C playouts (Python: a tenth)")
    parser.add_argument("--envs", type=int, default=1024, help="VectorEnv size")
    parser.add_argument("--iterations", type=int, default=300, help="VectorEnv steps per run")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best counts")
    parser.add_argument("--json", action="store_true", help="one JSON array")
    parser.add_argument(
        "--part",
        choices=("c", "python", "vector"),
        help="run only this workload once (--games games, or --envs x --iterations steps) and "
        "print its count of actions: for instruction counts under callgrind",
    )
    args = parser.parse_args()
    if args.part:
        for game_id in [args.game] if args.game else ramparts.games():
            print(game_id, args.part, bench_part(game_id, args))
        return
    rows = []
    if not args.json:
        print(
            f"{'game':<22} {'C ns/action':>12} {'Python ns/step':>15} {'overhead ns':>12}"
            f" {'VectorEnv steps/s':>18} {'ns/step':>8}"
        )
    for game_id in [args.game] if args.game else ramparts.games():
        row = bench_game(game_id, args)
        rows.append(row)
        if not args.json:
            print(
                f"{game_id:<22} {row['c_ns_per_action']:>12.1f} {row['python_ns_per_step']:>15.1f}"
                f" {row['python_overhead_ns']:>12.1f} {row['vector_steps_per_s']:>18,}"
                f" {row['vector_ns_per_step']:>8.1f}",
                flush=True,
            )
    if args.json:
        json.dump(rows, sys.stdout)
        print()


if __name__ == "__main__":
    main()
