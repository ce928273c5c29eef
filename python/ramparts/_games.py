"""load_game and the check every environment makes of its `game` argument."""

import operator

from ramparts._ramparts import Game


def check_seed(seed):
    """The one rule for seeds (issue 45), as the C module applies it: an integer (a Python or
    numpy int; not a bool, a float or a string) from 0 to 2**64 - 1. Returns it as an int."""
    if isinstance(seed, bool) or not hasattr(seed, "__index__"):
        raise TypeError(f"a seed is a whole number from 0 to 2**64 - 1, not {seed!r}")
    value = operator.index(seed)
    if not 0 <= value < 2**64:
        raise ValueError(f"a seed is a whole number from 0 to 2**64 - 1, not {seed!r}")
    return value


def load_game(game_id, players=None, seed=None, **options):
    """A Game: `game_id` as `games()` lists it, with its options.

    players and seed are the options every game has; the game's own options (see
    Game.option_specs()) are keywords too, with '_' for '-' ("turn_limit=30" is the option
    turn-limit). A string "castle-danger(turn-limit=30,tournament=1)" also works, as OpenSpiel
    writes game strings. A bad option raises ValueError naming it.

    explicit_chance=True is not an option of the game but of its States: each chance event
    (of the deal and of the play) is then a chance node, decided by apply_action with one of
    chance_outcomes(), instead of being sampled inside apply_action.
    """
    if "(" in game_id and game_id.endswith(")"):
        game_id, _, inner = game_id[:-1].partition("(")
        for item in filter(None, inner.split(",")):
            key, sep, value = item.partition("=")
            if not sep:
                raise ValueError(f"{item!r}: options are key=value")
            options.setdefault(key.strip(), value.strip())
    settings = []
    if players is not None:
        settings.append(f"players={int(players)}")
    if seed is not None:
        settings.append(f"seed={check_seed(seed)}")
    for key, value in options.items():
        if key.replace("-", "_") == "explicit_chance":
            value = _flag(key, value)
        if isinstance(value, bool):
            value = int(value)
        settings.append(f"{key.replace('_', '-')}={value}")
    return Game(game_id, settings)


def _flag(key, value):
    if value in (True, 1, "1", "true", "True"):
        return 1
    if value in (False, 0, "0", "false", "False"):
        return 0
    raise ValueError(f"{key}={value!r}: expected true or false")


def resolve_game(game, options):
    """An environment's game: a Game as it is, or a game id loaded with `options`."""
    if isinstance(game, str):
        return load_game(game, **options)
    if options:
        raise TypeError("options go with a game id, not with a Game")
    if not isinstance(game, Game):
        raise TypeError(f"game must be a Game or a game id, not {type(game).__name__}")
    return game
