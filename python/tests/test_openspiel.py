"""OpenSpiel's API on every game: history, child, undo_action, move_number, player_return,
perfect-recall information states, hashable states sized to their game, the game's type and
utilities, and ramparts.openspiel (pyspiel's names and ids) driving a pyspiel-style search.
OpenSpiel itself is not packaged for Debian: its API contract is written out here."""

import math
import random
import sys

import numpy as np
import pytest

import ramparts
import ramparts.openspiel as pyspiel
from conftest import GAMES, game_setups, random_states


@pytest.mark.parametrize("game_id, players", game_setups())
def test_history_replays_and_undo_takes_back(game_id, players):
    game = ramparts.load_game(game_id, players=players, seed=11)
    states = random_states(game, 11, limit=60)
    last = states[-1]
    assert last.move_number() == len(last.history()) == len(states) - 1
    replayed = game.new_initial_state()
    for i, action in enumerate(last.history()):
        assert replayed == states[i]
        child = replayed.child(action)
        assert replayed == states[i] and child.history() == last.history()[: i + 1]
        replayed.apply_action(action)
    assert replayed == last
    undone = last.clone()
    for i in reversed(range(len(states) - 1)):
        action = undone.history()[-1]
        player = states[i].current_player()
        with pytest.raises(ValueError):
            undone.undo_action((player + 1) % game.num_players() if players > 1 else -9, action)
        undone.undo_action(player, action)
        assert undone == states[i] and undone.move_number() == i
        assert undone.legal_actions() == states[i].legal_actions()
    with pytest.raises(ValueError, match="history"):
        undone.undo_action(0, 0)


@pytest.mark.parametrize("game_id", GAMES)
def test_returns_utilities_and_type(game_id):
    game = ramparts.load_game(game_id, seed=2)
    state = random_states(game, 2, limit=100000)[-1]
    if state.is_terminal():
        assert [state.player_return(p) for p in range(game.num_players())] == state.returns()
        assert math.isclose(sum(state.returns()), game.utility_sum())
        assert all(game.min_utility() <= r <= game.max_utility() for r in state.returns())
    with pytest.raises(ValueError):
        state.player_return(game.num_players())
    assert game.observation_tensor_size() == game.observation_tensor_shape()[0]
    kind = pyspiel.load_game(game_id).get_type()
    assert kind.short_name == game_id and kind.long_name == game.title
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert (kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC) == game.has_chance
    hidden = kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert hidden == game.has_hidden_information
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert kind.min_num_players <= game.num_players() <= kind.max_num_players


@pytest.mark.parametrize("game_id", GAMES)
def test_states_are_hashable_and_sized_to_their_game(game_id):
    game = ramparts.load_game(game_id, seed=4)
    states = random_states(game, 4, limit=40)
    assert len({s for s in states}) == len({s.serialize() for s in states})
    copy = states[-1].clone()
    assert hash(copy) == hash(states[-1]) and copy in set(states)
    # The State holds the game's bytes, not the largest game's (8 KiB), plus the legal cache.
    assert sys.getsizeof(states[0]) < 8192


@pytest.mark.parametrize("game_id, players", game_setups())
def test_information_states_have_perfect_recall(game_id, players):
    game = ramparts.load_game(game_id, players=players, seed=6)
    states = random_states(game, 6, limit=50)
    for seat in range(players):
        texts = [s.information_state_string(seat) for s in states]
        assert texts[0] == states[0].observation_string(seat)
        for before, after in zip(texts, texts[1:]):
            assert after.startswith(before) and len(after) > len(before)
    if game.has_hidden_information and players > 1:
        last = states[-1]
        assert len({last.information_state_string(p) for p in range(players)}) > 1


@pytest.mark.parametrize("game_id", GAMES)
def test_information_states_tell_a_seat_only_what_it_was_told(game_id):
    # A twin deal the seat cannot tell apart (everything hidden from it drawn anew), played
    # with the same actions: while the seat's screen is the same in both after every action,
    # so is its information state, whatever was hidden from it.
    game = ramparts.load_game(game_id, seed=8)
    rng = random.Random(8)
    total = 0
    for seat in range(game.num_players()):
        state = game.new_initial_state()
        twin = state.resample_from_infostate(seat, 99)
        compared = 0
        while not state.is_terminal() and compared < 40:
            assert twin.information_state_string(seat) == state.information_state_string(seat)
            compared += 1
            both = sorted(set(state.legal_actions()) & set(twin.legal_actions()))
            if not both:
                break
            action = rng.choice(both)
            state.apply_action(action)
            twin.apply_action(action)
            if twin.observation_string(seat) != state.observation_string(seat):
                break
        total += compared
    assert total >= game.num_players()  # Walls and Armies reveals a drawn card at once


def test_player_ids_are_pyspiel_s():
    assert pyspiel.PlayerId.TERMINAL == -4 and pyspiel.PlayerId.CHANCE == -1
    assert pyspiel.PlayerId.SIMULTANEOUS == -2 and pyspiel.PlayerId.INVALID == -3
    assert set(pyspiel.registered_names()) == set(GAMES)
    game = pyspiel.load_game("king-of-danger(players=3,seed=5)")
    assert game.num_players() == 3 and game.get_parameters()["players"] == "3"
    assert pyspiel.load_game("king-of-danger", {"players": 3, "seed": 5}) == game
    state = game.new_initial_state()
    rng = random.Random(5)
    while not state.is_terminal():
        assert state.is_player_node() and not state.is_chance_node()
        assert state.chance_outcomes() == []
        mask = state.legal_actions_mask(state.current_player())
        assert [a for a, x in enumerate(mask) if x] == sorted(state.legal_actions())
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.current_player() == pyspiel.PlayerId.TERMINAL == -4
    assert state.legal_actions() == [] and math.isclose(sum(state.returns()), 1.0)
    assert game.deserialize_state(state.serialize()) == state


def _rollout_search(state, rng, rollouts=4):
    """A pyspiel-style flat Monte Carlo search: written against pyspiel's API only."""
    player = state.current_player()
    best, best_value = None, -1.0
    for action in state.legal_actions():
        value = 0.0
        for _ in range(rollouts):
            child = state.child(action)
            while not child.is_terminal():
                if child.is_chance_node():
                    outcomes, probs = zip(*child.chance_outcomes())
                    child.apply_action(rng.choices(outcomes, probs)[0])
                else:
                    child.apply_action(rng.choice(child.legal_actions(child.current_player())))
            value += child.returns()[player]
        if value > best_value:
            best, best_value = action, value
    return best


def test_a_pyspiel_style_search_runs_and_beats_random():
    # Danger at the Walls: the searcher (seat 0, then seat 1) against uniform random play.
    game = pyspiel.load_game("danger-at-the-walls")
    rng = random.Random(3)
    won = 0.0
    for g in range(4):
        searcher = g % 2
        state = game.new_initial_state(seed=100 + g)
        while not state.is_terminal():
            if state.current_player() == searcher:
                state.apply_action(_rollout_search(state.clone(), rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        won += state.player_return(searcher)
    assert won >= 2.0, f"the search won {won} of 4 games against random"


def test_information_state_tensor_as_pyspiel_names_it(game_id):
    game = pyspiel.load_game(game_id, {"turn-cap": 10} if game_id == "walls-and-armies" else {})
    assert game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    tensor = state.information_state_tensor(0)
    assert tensor.dtype == np.float32 and [len(tensor)] == game.information_state_tensor_shape()
    assert len(tensor) == game.information_state_tensor_size()
    assert game.max_game_length() > 0


def test_explicit_chance_as_pyspiel_reports_it(game_id):
    game = pyspiel.load_game(f"{game_id}(explicit_chance=true)")
    kind = game.get_type().chance_mode
    if not game.ramparts_game.has_chance:
        assert kind == pyspiel.GameType.ChanceMode.DETERMINISTIC
        assert game.max_chance_outcomes() == 0
        return
    assert kind == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert pyspiel.load_game(str(game)) == game
    rng = random.Random(2)
    most = 0
    for _ in range(20):
        state = game.new_initial_state()
        assert state.current_player() == pyspiel.PlayerId.CHANCE and not state.is_player_node()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                most = max(most, len(outcomes))
                action, _ = rng.choice(outcomes)
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
    assert 2 <= most <= game.max_chance_outcomes()
