"""Perfect-recall information states (information_state_string / information_state_tensor) and
max_game_length: a fixed shape per game and options, nothing the seat cannot see, and every
history the seat can tell apart told apart."""

import random

import numpy as np
import pytest

import ramparts
from conftest import game_setups, sized

# Walls and Armies' default turn cap (200) makes a 3.2-million-float tensor: smaller here.
SMALL = {"walls-and-armies": {"turn_cap": 12}, "castle-danger": {"turn_limit": 6}}


# The deals each leak check plays: `make test` some, `make soak` (RAMPARTS_SOAK=1, after make
# test) others, so the two together cover twice as many without make test paying for it.
TWIN_SEEDS = sized((1,), (2,))
APART_SEEDS = sized((1, 2), (3, 4))


def small_game(game_id, players=None, **extra):
    options = dict(SMALL.get(game_id, {}), **extra)
    if players:
        options["players"] = players
    return ramparts.load_game(game_id, **options)


def play(game, seed, steps=None):
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal() and (steps is None or state.move_number() < steps):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("game_id, players", game_setups())
def test_games_never_outlast_max_game_length(game_id, players):
    """The bound is argued from the rules in each game's game.c; random games check it."""
    game = small_game(game_id, players)
    bound = game.max_game_length()
    longest = max(play(game, seed).move_number() for seed in range(60))
    assert 0 < longest <= bound


def test_castle_danger_and_walls_and_armies_bounds_follow_their_options():
    cd = ramparts.load_game("castle-danger", turn_limit=10).max_game_length()
    assert cd == 2 * 10 * 29
    assert ramparts.load_game("castle-danger", tournament=1).max_game_length() == 2 * 25 * 29
    assert ramparts.load_game("walls-and-armies", turn_cap=7).max_game_length() == 7 * 20
    rw2 = ramparts.load_game("rush-the-wall", players=2).max_game_length()
    assert ramparts.load_game("rush-the-wall", players=4).max_game_length() > rw2


@pytest.mark.parametrize("game_id, players", game_setups())
def test_tensor_has_a_fixed_shape_and_rows_are_what_the_seat_saw(game_id, players):
    game = small_game(game_id, players)
    (size,) = game.information_state_tensor_shape()
    assert size == game.information_state_tensor_size()
    obs, row = game.observation_tensor_size(), game.information_state_row_size()
    assert size == obs + game.max_game_length() * row
    with_obs = game.has_chance or game.has_hidden_information
    assert row == 2 + (obs if with_obs else 0)
    state = play(game, 3, steps=40)
    history = state.history()
    for seat in range(players):
        tensor = state.information_state_tensor(seat)
        assert tensor.dtype == np.float32 and tensor.shape == (size,)
        replay = game.new_initial_state(seed=3)
        np.testing.assert_array_equal(tensor[:obs], replay.observation_tensor(seat))
        for i, action in enumerate(history):
            r = tensor[obs + i * row : obs + (i + 1) * row]
            assert r[0] == 1 and 0 < r[1] <= 1
            if replay.current_player() == seat:  # its own action: seen as it is
                assert r[1] == np.float32(action + 1) / np.float32(game.num_distinct_actions())
            replay.apply_action(action)
            if with_obs:
                np.testing.assert_array_equal(r[2:], replay.observation_tensor(seat))
        assert not tensor[obs + len(history) * row :].any()  # rows not played yet are 0
        out = np.full(size, 7, np.float32)
        assert state.information_state_tensor(seat, out=out) is out
        np.testing.assert_array_equal(out, tensor)


def twin_histories(game, seat, seed):
    """Pairs of states (same length of history) that `seat` cannot tell apart but that differ:
    the deal resampled for `seat` at the root, then the true game's actions replayed on it for
    as long as they stay legal and the seat's observation stays equal (in Walls and Armies
    every action turns up a card for all to see, so only the deals themselves are twins)."""
    truth = play(game, seed)
    twins = []
    for k in range(4):
        # A State whose history starts at the resampled deal:
        root = game.new_initial_state(seed=seed).resample_from_infostate(seat, 100 + k)
        mine = game.new_initial_state(seed=seed)
        if mine != root:
            twins.append((mine.clone(), root.clone()))
        for action in truth.history():
            if action not in root.legal_actions():
                break
            mine.apply_action(action)
            root.apply_action(action)
            if not np.array_equal(mine.observation_tensor(seat), root.observation_tensor(seat)):
                break
            if mine != root:
                twins.append((mine.clone(), root.clone()))
    return twins


@pytest.mark.sized
@pytest.mark.parametrize("game_id, players", game_setups("has_hidden_information"))
def test_no_leak_twins_give_equal_information_states(game_id, players):
    game = small_game(game_id, players)
    found = 0
    for seat in range(players):
        for seed in TWIN_SEEDS:
            for mine, twin in twin_histories(game, seat, seed):
                found += 1
                np.testing.assert_array_equal(
                    mine.information_state_tensor(seat), twin.information_state_tensor(seat)
                )
                assert mine.information_state_string(seat) == twin.information_state_string(seat)
    assert found > 0


@pytest.mark.sized
@pytest.mark.parametrize("game_id, players", game_setups())
def test_histories_a_seat_tells_apart_give_different_information_states(game_id, players):
    """Perfect recall's other half (issue 45): where a seat's observation differs between two
    histories, its information state must differ too. The twins: a deal, and the same deal
    resampled for another seat (what that seat cannot see, such as this seat's hand, dealt
    anew), then the same actions for as long as both allow them. Rush the Wall's strings once
    left out the seat's own hand off its turn, so such twins gave one string and MCCFR merged
    them."""
    game = small_game(game_id, players)
    told_apart = 0
    for seed in APART_SEEDS:
        truth = play(game, seed)
        for other in range(players):
            a = game.new_initial_state(seed=seed)
            b = a.resample_from_infostate(other, 200 + seed)
            for action in [None] + truth.history()[:30]:
                if action is not None:
                    if action not in a.legal_actions() or action not in b.legal_actions():
                        break
                    a.apply_action(action)
                    b.apply_action(action)
                for seat in range(players):
                    if np.array_equal(a.observation_tensor(seat), b.observation_tensor(seat)):
                        continue
                    told_apart += 1
                    assert a.information_state_string(seat) != b.information_state_string(
                        seat
                    ), f"{game_id}: seat {seat} sees two positions, one information state"
                    assert not np.array_equal(
                        a.information_state_tensor(seat), b.information_state_tensor(seat)
                    )
    if game.has_hidden_information:
        assert told_apart > 0  # a check with nothing to check fails


def test_hidden_actions_are_seen_only_as_the_seat_saw_them():
    """Two children differing only in an action another seat sees the same way (in Rush the
    Wall, the only game with such actions, a warrior placed face down): equal for that seat,
    different for the actor."""
    game = ramparts.load_game("rush-the-wall")
    checked = 0
    for seed in range(30):
        state = play(game, seed, steps=random.Random(seed).randrange(0, 30))
        if state.is_terminal():
            continue
        actor = state.current_player()
        other = (actor + 1) % game.num_players()
        by_seen = {}
        for a in state.legal_actions():
            child = state.child(a)
            by_seen.setdefault(child.information_state_string(other), []).append(child)
        for children in by_seen.values():
            for x, y in zip(children, children[1:]):
                checked += 1
                np.testing.assert_array_equal(
                    x.information_state_tensor(other), y.information_state_tensor(other)
                )
                assert not np.array_equal(
                    x.information_state_tensor(actor), y.information_state_tensor(actor)
                )
    assert checked > 0


@pytest.mark.parametrize("game_id, players", game_setups())
def test_perfect_recall_own_histories_are_told_apart(game_id, players):
    game = small_game(game_id, players)
    for seed in range(4):
        state = play(game, seed, steps=5 + 3 * seed)
        if state.is_terminal():
            continue
        seat = state.current_player()
        before = state.information_state_tensor(seat)
        tensors, strings = set(), set()
        for a in state.legal_actions()[:12]:
            child = state.child(a)
            t = child.information_state_tensor(seat)
            # Perfect recall: the past is kept as it was; the new row is filled.
            np.testing.assert_array_equal(t[before != 0], before[before != 0])
            tensors.add(t.tobytes())
            strings.add(child.information_state_string(seat))
        n = len(state.legal_actions()[:12])
        assert len(tensors) == n and len(strings) == n
