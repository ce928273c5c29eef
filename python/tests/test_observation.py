"""Observation tensors, one test per game: identical for two states a player cannot tell apart
(resample_from_infostate), different whenever that player's view differs, and laid out as
Game.observation_fields() says."""

import numpy as np
import pytest

import ramparts
from conftest import game_setups, random_states, sized

# Random games per game and player count: one in `make test`, another in `make soak`.
SEEDS = sized((21,), (22,))
pytestmark = pytest.mark.sized


@pytest.mark.parametrize("game_id, players", game_setups())
def test_tensor_is_exactly_what_the_player_sees(game_id, players):
    game = ramparts.load_game(game_id, players=players, seed=21)
    (size,) = game.observation_tensor_shape()
    for seed in SEEDS:
        states = random_states(game, seed, limit=150)
        for seat in range(players):
            seen = {}  # tensor bytes -> view, over the whole game
            for k, state in enumerate(states):
                tensor = state.observation_tensor(seat)
                assert tensor.dtype == np.float32 and tensor.shape == (size,)
                assert np.all(np.isfinite(tensor)) and np.all(tensor >= 0)
                # Two states the seat cannot tell apart: the same tensor.
                twin = state.resample_from_infostate(seat, 1000 + k)
                np.testing.assert_array_equal(twin.observation_tensor(seat), tensor)
                # Something the seat sees differs: the tensor differs.
                view = state.view(seat)
                key = tensor.tobytes()
                if key in seen:
                    assert seen[key] == view, f"{game_id} seat {seat}: two views, one tensor"
                seen[key] = view


def test_tensor_changes_when_a_visible_thing_changes(game_id):
    game = ramparts.load_game(game_id, seed=5)
    state = game.new_initial_state()
    seat = state.current_player()
    before = state.observation_tensor(seat)
    for action in state.legal_actions():
        after = state.clone()
        after.apply_action(action)
        if after.view(seat) != state.view(seat):
            assert not np.array_equal(after.observation_tensor(seat), before)


def test_fields_tile_the_tensor_and_out_is_filled_in_place(game_id):
    game = ramparts.load_game(game_id)
    (size,) = game.observation_tensor_shape()
    offset = 0
    for name, start, shape, meaning in game.observation_fields():
        assert start == offset and name and len(meaning) > 10
        offset += int(np.prod(shape))
    assert offset == size
    state = game.new_initial_state()
    out = np.full(size, -1, np.float32)
    assert state.observation_tensor(0, out=out) is out
    np.testing.assert_array_equal(out, state.observation_tensor(0))
    mask = np.zeros(game.num_distinct_actions(), np.bool_)
    assert state.legal_actions_mask(out=mask) is mask
    assert sorted(np.flatnonzero(mask)) == sorted(state.legal_actions())
