"""State.reseed: what nobody knows is drawn anew (deck orders, cards no seat has seen, the
generator of later draws), so a search run on the referee's state cannot see the true game's
future draws, while every seat sees the reseeded state exactly as the true one."""

import random

import numpy as np
import pytest

import ramparts
from conftest import game_setups, random_states


def future(state, actions_seed, steps=80):
    """The spectator's events of the next `steps` random actions (a seeded choice)."""
    rng = random.Random(actions_seed)
    told = []
    while not state.is_terminal() and len(told) < steps:
        action = rng.choice(state.legal_actions())
        told.append(str(state.events(action)))
        state.apply_action(action)
    return told


@pytest.mark.parametrize("game_id, players", game_setups())
def test_every_seat_sees_the_reseeded_state_as_the_true_one(game_id, players):
    game = ramparts.load_game(game_id, players=players, seed=4)
    for k, state in enumerate(random_states(game, 4, limit=120)[::3]):
        again = state.reseed(k)
        assert again == state.reseed(k)  # a seed and a state give one result
        assert game.deserialize_state(again.serialize()) == again  # passes state_ok
        assert again.legal_actions() == state.legal_actions()
        for seat in range(players):
            assert again.view(seat) == state.view(seat)
            np.testing.assert_array_equal(
                again.observation_tensor(seat), state.observation_tensor(seat)
            )
        assert again.view(ramparts.SPECTATOR) == state.view(ramparts.SPECTATOR)
        if not game.has_chance:
            assert again == state


@pytest.mark.parametrize("game_id, players", game_setups("has_chance"))
def test_the_future_is_no_longer_the_true_games(game_id, players):
    """The same actions from the true state and from reseeded copies: the draws that follow
    differ (for games with chance), so a search on a reseeded copy learns nothing of them."""
    game = ramparts.load_game(game_id, players=players, seed=9)
    states = [s for s in random_states(game, 9, limit=60) if not s.is_terminal()][::10]
    differing = 0
    for i, state in enumerate(states):
        truth = future(state.clone(), i)
        copies = [future(state.reseed(100 * i + k), i) for k in range(8)]
        differing += sum(c != truth for c in copies)
    assert differing >= len(states) * 8 // 2


def test_reseeded_draws_follow_the_rules_distribution_not_the_true_one():
    """Danger at the Walls: the card Blue draws next from the main deck. Over reseeds it is
    each face with the frequency of the main deck's cards, not the true top card every time."""
    game = ramparts.load_game("danger-at-the-walls", seed=3)
    state = game.new_initial_state()
    while state.current_player() == 0 and "draw main" not in [
        state.action_to_string(a) for a in state.legal_actions()
    ]:
        state.apply_action(state.legal_actions()[0])
    draw = state.string_to_action("draw main")
    true_card = str(state.events(draw, 0))
    same = sum(str(state.reseed(k).events(draw, 0)) == true_card for k in range(200))
    assert same < 120  # about 1 in the number of distinct faces left, far from 200
