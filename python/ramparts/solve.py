"""Exact solving of a game under small options: the whole tree in C, CFR+, best responses and
exploitability (ramparts._ramparts.Solver over ramparts/solve.h), as `ramparts solve` does:

    >>> import ramparts
    >>> game = ramparts.load_game("walls-and-armies", deck=6, turn_cap=2)
    >>> result = ramparts.solve(game, iterations=200, every=50)
    >>> result.curve[-1]            # (iterations, exploitability, seat 0's value)
    >>> policy = result.average_policy()   # {information_state_string: {action: probability}}

docs/learning/solve.md shows the example with its figures.
"""

from dataclasses import dataclass, field

from ramparts._ramparts import Game, Solver
from ramparts._games import load_game


@dataclass
class SolveResult:
    """What solve() returns: the solver (to iterate further, ask best responses), the game and
    the exploitability curve as (iterations, exploitability, seat 0's value) rows."""

    solver: Solver
    game: Game
    curve: list = field(default_factory=list)

    def average_policy(self):
        """The average policy keyed as OpenSpiel's tabular policies are: by
        information_state_string of the seat to act (in the game with explicit chance, which
        replays the solver's histories), each a dict {action: probability}."""
        return average_policy(self.solver, self.game)


def explicit_game(game):
    """The same game and options with every chance event a node (the solver's histories)."""
    if game.explicit_chance:
        return game
    return Game(game.id, game.options_text() + " explicit-chance=1")


def average_policy(solver, game):
    """{information_state_string: {action: probability}} from solver's average policy."""
    explicit = explicit_game(game)
    policy = {}
    for seat, history, actions, probs in solver.infosets():
        state = explicit.new_initial_state()
        for a in history:
            state.apply_action(a)
        policy[state.information_state_string(seat)] = dict(zip(actions, probs))
    return policy


def solve(game, iterations=1000, every=100, max_nodes=20_000_000):
    """Build the tree of `game` (a Game or a game id with options, "id(key=value,...)"), run
    `iterations` of CFR+ and record the exploitability of the average policy every `every`."""
    if isinstance(game, str):
        game = load_game(game)
    if iterations < 0 or every < 1:
        raise ValueError("iterations must be >= 0 and every >= 1")
    solver = Solver(game, max_nodes)
    result = SolveResult(solver, game)
    done = 0
    while done < iterations:
        step = min(every, iterations - done)
        solver.iterate(step)
        done += step
        result.curve.append((done, solver.exploitability(), solver.value(0)))
    return result
