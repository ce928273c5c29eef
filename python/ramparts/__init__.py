"""Ramparts from Python: five wall-and-castle games with hidden information and chance, run by
the Ramparts C library.

    >>> import ramparts
    >>> game = ramparts.load_game("danger-at-the-walls", players=2, seed=7)
    >>> state = game.new_initial_state()
    >>> while not state.is_terminal():
    ...     state.apply_action(state.legal_actions()[0])
    >>> state.returns()

The API follows OpenSpiel's (load_game, State.legal_actions, apply_action, returns, clone,
observation_tensor, resample_from_infostate, serialize...). VectorEnv steps many games in C in
one call; AECEnv is a PettingZoo-style agent-iteration interface over one game; Bot plays the
project's AIs; arena() measures policies against each other. docs/python.md has the details.
"""

from ramparts._ramparts import (  # noqa: F401  (re-exported)
    CHANCE,
    MAX_LEGAL,
    SPECTATOR,
    TERMINAL,
    Bot,
    Game,
    Solver,
    State,
    __version__,
    games,
)
from ramparts._games import load_game  # noqa: F401
from ramparts.aec import AECEnv  # noqa: F401
from ramparts.arena import arena, format_arena, play_game  # noqa: F401
from ramparts.layout import observation_table  # noqa: F401
from ramparts.solve import SolveResult, average_policy, solve  # noqa: F401
from ramparts.vector import VectorEnv  # noqa: F401


__all__ = [
    "AECEnv",
    "Bot",
    "CHANCE",
    "Game",
    "MAX_LEGAL",
    "SPECTATOR",
    "SolveResult",
    "Solver",
    "State",
    "TERMINAL",
    "VectorEnv",
    "arena",
    "average_policy",
    "format_arena",
    "games",
    "load_game",
    "observation_table",
    "play_game",
    "solve",
]
