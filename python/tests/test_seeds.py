"""Seeds and deals (issue 45): one rule for every seed the package takes, a fresh deal from
each seedless new_initial_state() of the OpenSpiel-shaped module (reproducible from the game's
seed), and the small surface fixes: arena() takes a game id, str() of a chance node, and
Bot.specs() as data."""

import numpy as np
import pytest

import ramparts
from ramparts import openspiel
from ramparts._ramparts import random_playouts

BAD_SEEDS = [-1, 2**64, 1.5, "7", True]


def seed_takers():
    """Every place a seed goes in, as a callable of the seed."""
    cd = ramparts.load_game("castle-danger")
    dw = ramparts.load_game("danger-at-the-walls")
    state = dw.new_initial_state(seed=1)
    return {
        "load_game": lambda s: ramparts.load_game("castle-danger", seed=s),
        "Game.new_initial_state": lambda s: cd.new_initial_state(seed=s),
        "openspiel new_initial_state": lambda s: openspiel.load_game(
            "castle-danger"
        ).new_initial_state(seed=s),
        "VectorEnv": lambda s: ramparts.VectorEnv("castle-danger", 2, seed=s),
        "VectorEnv.reset": lambda s: ramparts.VectorEnv("castle-danger", 2).reset(seed=s),
        "AECEnv": lambda s: ramparts.AECEnv("castle-danger", seed=s),
        "Bot": lambda s: ramparts.Bot("easy", seed=s),
        "resample_from_infostate": lambda s: state.resample_from_infostate(0, s),
        "reseed": lambda s: state.reseed(s),
        "random_playouts": lambda s: random_playouts(cd, 1, s),
    }


@pytest.mark.parametrize("where", sorted(seed_takers()))
def test_every_seed_follows_one_rule(where):
    take = seed_takers()[where]
    for good in (0, 7, 2**64 - 1, np.uint64(5), np.int32(3)):
        take(good)  # accepted
    for bad in BAD_SEEDS:
        with pytest.raises((TypeError, ValueError), match="seed is a whole number"):
            take(bad)


def test_seedless_initial_states_are_fresh_deals_reproducible_from_the_game_seed():
    game = openspiel.load_game("danger-at-the-walls")
    deals = [game.new_initial_state().serialize() for _ in range(6)]
    assert len(set(deals)) == 6
    again = openspiel.load_game("danger-at-the-walls")
    assert [again.new_initial_state().serialize() for _ in range(6)] == deals
    other = openspiel.load_game("danger-at-the-walls(seed=9)")
    assert other.new_initial_state().serialize() not in deals
    # an explicit seed is that deal, whatever came before
    assert (
        game.new_initial_state(seed=4).serialize()
        == again.new_initial_state(seed=4).serialize()
    )


def test_arena_takes_a_game_id():
    (row,) = ramparts.arena("castle-danger", ["random", "greedy"], games=2)
    assert row["games"] == 2
    with pytest.raises(ValueError):
        ramparts.arena("no-such-game", ["random", "greedy"], games=2)


def test_str_of_a_chance_node_says_so():
    state = ramparts.load_game("danger-at-the-walls", explicit_chance=True).new_initial_state()
    assert state.is_chance_node()
    assert "chance node" in str(state)


def test_bot_specs_are_data():
    specs = ramparts.Bot.specs()
    assert isinstance(specs, dict)
    assert {"random", "greedy", "beginner", "easy", "medium", "hard", "mcts", "ismcts"} <= set(specs)
    assert all(isinstance(v, str) and v for v in specs.values())
