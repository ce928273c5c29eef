"""Explicit chance (load_game(..., explicit_chance=True)): every chance event of the deal and of
the play is a chance node (current_player() == CHANCE, chance_outcomes() with probabilities),
decided by the caller. The games draw only through one uniform bounded choice (rp_rng_below),
so each event is that choice: these tests check the node API, that replays through the
recorded outcomes agree with the live game, and that deciding outcomes uniformly at random
gives the same distribution of deals and of games as the default, sampled mode."""

import math
import random

import numpy as np
import pytest

import ramparts
from conftest import game_setups


def play(game, rng, steps=10_000, policy=None):
    """A game played by random legal moves and uniformly decided chance; the State."""
    state = game.new_initial_state(seed=rng.randrange(1 << 30))
    while not state.is_terminal() and state.move_number() < steps:
        if state.is_chance_node():
            state.apply_action(rng.randrange(len(state.chance_outcomes())))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def decided(state, rng, steps):
    """`steps` player moves (random) from a State, chance decided uniformly; the State."""
    moves = 0
    while not state.is_terminal() and moves < steps:
        if state.is_chance_node():
            state.apply_action(rng.randrange(len(state.chance_outcomes())))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    while state.is_chance_node():
        state.apply_action(rng.randrange(len(state.chance_outcomes())))
    return state


def test_chance_nodes_as_openspiel_has_them(game_id):
    game = ramparts.load_game(game_id, explicit_chance=True)
    assert game.explicit_chance and "explicit-chance=1" in game.options_text()
    state = game.new_initial_state()
    if not game.has_chance:
        assert not state.is_chance_node() and state.current_player() >= 0
        return
    assert state.is_chance_node() and state.current_player() == ramparts.CHANCE
    outcomes = state.chance_outcomes()
    n = len(outcomes)
    assert n >= 2 and [o for o, _ in outcomes] == list(range(n))
    assert all(p == pytest.approx(1 / n) for _, p in outcomes)
    assert math.fsum(p for _, p in outcomes) == pytest.approx(1.0)
    assert state.legal_actions() == list(range(n))
    assert state.legal_actions(0) == [] and state.legal_actions(ramparts.CHANCE) == list(range(n))
    assert state.legal_actions_mask().sum() == min(n, game.num_distinct_actions())
    assert not state.is_terminal() and state.returns() == [0.0] * game.num_players()
    with pytest.raises(ValueError, match="chance outcome"):
        state.apply_action(n)
    with pytest.raises(ValueError, match="chance node"):
        state.serialize()
    with pytest.raises(ValueError, match="deal"):
        state.information_state_string(0)
    before = state.clone()
    state.apply_action(n - 1)
    assert state.history() == [n - 1] and state.move_number() == 1
    state.undo_action(ramparts.CHANCE, n - 1)
    assert state == before and state.history() == []
    # The whole deal, then a player's move whose chance (a draw) may follow.
    rng = random.Random(3)
    state = decided(state, rng, 0)
    assert not state.is_chance_node() and state.current_player() >= 0
    history = state.history()
    assert len(history) > 1
    copy = state.clone()
    taken = []  # (who, entry) as played: undone in reverse, chance outcomes as CHANCE
    while len([w for w, _ in taken if w != ramparts.CHANCE]) < 5 and not copy.is_terminal():
        who = copy.current_player()
        entry = rng.choice(copy.legal_actions())
        copy.apply_action(entry)
        taken.append((who, entry))
    assert copy.history() == history + [e for _, e in taken]
    for who, entry in reversed(taken):
        copy.undo_action(who, entry)
    assert copy == state and copy.history() == history


@pytest.mark.parametrize("game_id, players", game_setups())
def test_replays_through_the_outcomes_agree_with_the_live_game(game_id, players):
    """The information state replays the actions with the recorded outcomes: its rows must be
    the observations the seat had at each move, live."""
    game = ramparts.load_game(game_id, players=players, explicit_chance=True)
    if game_id == "walls-and-armies":
        game = ramparts.load_game(game_id, turn_cap=10, explicit_chance=True)
    rng = random.Random(11)
    state = decided(game.new_initial_state(), rng, 0)
    obs, row = game.observation_tensor_size(), game.information_state_row_size()
    live = {seat: [state.observation_tensor(seat)] for seat in range(players)}
    moves = 0
    while not state.is_terminal() and moves < 30:
        state.apply_action(rng.choice(state.legal_actions()))
        while state.is_chance_node():
            state.apply_action(rng.randrange(len(state.chance_outcomes())))
        moves += 1
        for seat in range(players):
            live[seat].append(state.observation_tensor(seat))
    with_obs = row > 2
    for seat in range(players):
        tensor = state.information_state_tensor(seat)
        np.testing.assert_array_equal(tensor[:obs], live[seat][0])
        for i in range(1, moves + 1):
            r = tensor[obs + (i - 1) * row : obs + i * row]
            assert r[0] == 1
            if with_obs:
                np.testing.assert_array_equal(r[2:], live[seat][i])
        text = state.information_state_string(seat)
        assert text.count("-- move ") == moves


def _mean_and_error(rows):
    rows = np.asarray(rows, np.float64)
    return rows.mean(axis=0), rows.std(axis=0, ddof=1) / math.sqrt(len(rows))


def _same_distribution(a, b, what):
    """Two samples of vectors: every component's mean agrees (two-sample z below 5, a
    Bonferroni bound over the components) and components constant in both are equal."""
    mean_a, err_a = _mean_and_error(a)
    mean_b, err_b = _mean_and_error(b)
    err = np.sqrt(err_a**2 + err_b**2)
    constant = err == 0
    np.testing.assert_array_equal(mean_a[constant], mean_b[constant], err_msg=what)
    z = np.abs(mean_a - mean_b)[~constant] / err[~constant]
    assert z.max(initial=0) < 5.0, f"{what}: component z = {z.max():.1f}"


@pytest.mark.parametrize("game_id, players", game_setups("has_chance"))
def test_uniform_outcomes_give_the_rules_distribution(game_id, players):
    """Deals and positions after some random moves: seat 0's observation averaged over 300
    games of each mode (default sampled by the game's generator, explicit decided uniformly by
    Python's) agree component by component."""
    options = {"turn_cap": 10} if game_id == "walls-and-armies" else {}
    sampled = ramparts.load_game(game_id, players=players, **options)
    explicit = ramparts.load_game(game_id, players=players, explicit_chance=True, **options)
    for steps in (0, 8):
        rows = {"sampled": [], "explicit": []}
        for k in range(300):
            rng = random.Random(k)
            s = decided(sampled.new_initial_state(seed=k), rng, steps)
            rows["sampled"].append(s.observation_tensor(0))
            e = decided(explicit.new_initial_state(), random.Random(10_000 + k), steps)
            rows["explicit"].append(e.observation_tensor(0))
        _same_distribution(rows["sampled"], rows["explicit"], f"{game_id} after {steps} moves")


@pytest.mark.parametrize("game_id", ["danger-at-the-walls", "walls-and-armies", "rush-the-wall"])
def test_whole_games_end_alike(game_id):
    """Random play to the end: the first seat's win rate and the game length agree between
    the modes (two-sample z below 4)."""
    sampled = ramparts.load_game(game_id)
    explicit = ramparts.load_game(game_id, explicit_chance=True)
    stats = {}
    for name, game in (("sampled", sampled), ("explicit", explicit)):
        wins, lengths = [], []
        for k in range(400):
            rng = random.Random(50_000 + k)
            s = game.new_initial_state(seed=k)
            moves = 0
            while not s.is_terminal():
                if s.is_chance_node():
                    s.apply_action(rng.randrange(len(s.chance_outcomes())))
                else:
                    s.apply_action(rng.choice(s.legal_actions()))
                    moves += 1
            wins.append(s.returns()[0])
            lengths.append(moves)
        stats[name] = (np.array(wins), np.array(lengths))
    for i, what in enumerate(("first seat's share", "moves")):
        a, b = stats["sampled"][i], stats["explicit"][i]
        z = abs(a.mean() - b.mean()) / math.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
        assert z < 4.0, f"{game_id} {what}: {a.mean():.3f} against {b.mean():.3f}"
