"""bench_cfr.py — iterations per second of exact solving on the small options of Walls and Armies
(WA-P8) and King of Danger (KD-P6), C against Python, on one core (a benchmark, not a test):

  C        ramparts.Solver: the tree built once into flat arrays, CFR+ walking them (the build
           is timed apart)
  Python   a tabular CFR in the shape of OpenSpiel's python/algorithms/cfr.py, written here:
           each iteration walks the tree through ramparts.openspiel's States (child,
           chance_outcomes, information_state_string, returns), regret matching with the
           current policy kept per information state string, alternating the seats

Both do the same arithmetic per node; the difference is walking the game's code and keying by
strings at every node against walking arrays. Times are CPU time (time.process_time).

  PYTHONPATH=build/python /usr/bin/python3 python/benchmarks/bench_cfr.py [--game SPEC] [--json]
"""

import argparse
import json
import time

import ramparts
import ramparts.openspiel as pyspiel

DEFAULTS = ("walls-and-armies(deck=6,turn-cap=2)",
            "king-of-danger(players=2,deal=1+1)")


class PythonCFR:
    """Vanilla CFR with alternating updates over a pyspiel-shaped game: the shape of
    OpenSpiel's cfr.py (a recursive walk returning each seat's values, regrets and the average
    policy in dicts keyed by information_state_string), CFR+ clamping as its CFRPlusSolver."""

    def __init__(self, game):
        self._game = game
        self._root = game.new_initial_state(seed=1)
        self._regret, self._avg, self._current = {}, {}, {}
        self._iteration = 0

    def _policy(self, info, legal):
        policy = self._current.get(info)
        if policy is None:
            policy = self._current[info] = {a: 1 / len(legal) for a in legal}
        return policy

    def _walk(self, state, seat, reach):
        """Values of state for both seats; reach is each seat's and chance's reach."""
        if state.is_terminal():
            return state.returns()
        if state.is_chance_node():
            values = [0.0, 0.0]
            for outcome, p in state.chance_outcomes():
                v = self._walk(state.child(outcome), seat, [reach[0], reach[1], reach[2] * p])
                values[0] += p * v[0]
                values[1] += p * v[1]
            return values
        player = state.current_player()
        info = state.information_state_string(player)
        legal = state.legal_actions()
        policy = self._policy(info, legal)
        values, children = [0.0, 0.0], {}
        for a in legal:
            r = list(reach)
            r[player] *= policy[a]
            v = children[a] = self._walk(state.child(a), seat, r)
            values[0] += policy[a] * v[0]
            values[1] += policy[a] * v[1]
        if player == seat:
            other = reach[1 - seat] * reach[2]
            regret = self._regret.setdefault(info, dict.fromkeys(legal, 0.0))
            avg = self._avg.setdefault(info, dict.fromkeys(legal, 0.0))
            for a in legal:
                regret[a] += other * (children[a][seat] - values[seat])
                avg[a] += self._iteration * reach[seat] * policy[a]
        return values

    def iteration(self):
        self._iteration += 1
        for seat in (0, 1):
            self._walk(self._root.clone(), seat, [1.0, 1.0, 1.0])
            for info, regret in self._regret.items():
                for a in regret:
                    regret[a] = max(regret[a], 0.0)
                total = sum(regret.values())
                self._current[info] = {
                    a: (r / total if total > 0 else 1 / len(regret)) for a, r in regret.items()
                }


def timed(fn, seconds):
    """Run fn until `seconds` of CPU time pass; calls per second."""
    start, calls = time.process_time(), 0
    while True:
        fn()
        calls += 1
        spent = time.process_time() - start
        if spent >= seconds:
            return calls / spent


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="a small game (default: both above)")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for spec in args.game or DEFAULTS:
        bench(spec, args.seconds, args.json)


def bench(spec, seconds, as_json):
    """Time C and Python CFR on spec and print the row."""
    game = ramparts.load_game(spec)
    start = time.process_time()
    solver = ramparts.Solver(game)
    build_s = time.process_time() - start
    c_rate = timed(lambda: solver.iterate(1), seconds)

    explicit = pyspiel.load_game(spec.replace(")", ",explicit_chance=true)"))
    cfr = PythonCFR(explicit)
    py_rate = timed(cfr.iteration, seconds)
    row = {
        "game": spec,
        "nodes": solver.nodes,
        "infosets": solver.num_infosets,
        "c_build_s": round(build_s, 3),
        "c_iterations_per_s": round(c_rate, 1),
        "python_iterations_per_s": round(py_rate, 3),
        "speedup": round(c_rate / py_rate, 1),
    }
    if as_json:
        print(json.dumps(row))
    else:
        print(f"{spec}: {solver.nodes} nodes, {solver.num_infosets} information states")
        print(f"  C CFR+ (ramparts.Solver)      {c_rate:12.1f} iterations/s "
              f"(tree built in {build_s:.2f} s)")
        print(f"  Python CFR (cfr.py's shape)   {py_rate:12.3f} iterations/s")
        print(f"  C / Python                    {c_rate / py_rate:12.0f} x")

if __name__ == "__main__":
    main()
