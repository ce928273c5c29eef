"""The OpenSpiel-shaped single-state API on every game: options, a whole game, copies,
notation both ways, serialization, views, events, and bad input refused without change."""

import copy
import pickle
import random
from pathlib import Path

import numpy as np
import pytest

import ramparts
from conftest import GAMES, game_setups, random_states


def test_games_are_those_with_a_rulebook():
    # Each game of the registry has its rules as implemented in docs/rules/<id>.md, and each
    # of those is a game: the list comes from the library, never from a list here.
    rules = Path(__file__).resolve().parents[2] / "docs" / "rules"
    games = ramparts.games()
    assert len(games) == len(set(games)) > 0
    assert set(games) == {p.stem for p in rules.glob("*.md")}


def test_load_game_options():
    game = ramparts.load_game("king-of-danger", players=3, seed=9, dealer=2)
    assert game.num_players() == 3
    assert game.seed == 9
    assert "dealer=2" in game.options_text()
    cd = ramparts.load_game("castle-danger", turn_limit=30, tournament=True)
    assert "turn-limit=30" in cd.options_text() and "tournament=1" in cd.options_text()
    same = ramparts.load_game("castle-danger(turn-limit=30,tournament=1)")
    assert same.options_text() == cd.options_text()


@pytest.mark.parametrize(
    "args, kwargs, words",
    [
        (("no-such-game",), {}, "no game 'no-such-game'"),
        (("king-of-danger",), {"players": 9}, "players"),
        (("king-of-danger",), {"dealer": 7}, "dealer"),
        (("castle-danger",), {"turn_limit": -1}, "turn-limit"),
        (("castle-danger",), {"colour": "red"}, "colour"),
        (("castle-danger(turn-limit)",), {}, "key=value"),
    ],
)
def test_bad_options_are_refused_by_name(args, kwargs, words):
    with pytest.raises(ValueError, match=words):
        ramparts.load_game(*args, **kwargs)


@pytest.mark.parametrize("game_id, players", game_setups())
def test_a_whole_random_game(game_id, players):
    game = ramparts.load_game(game_id, players=players, seed=5)
    rng = random.Random(1)
    state = game.new_initial_state()
    assert not state.is_chance_node()
    steps = 0
    while not state.is_terminal():
        player = state.current_player()
        assert 0 <= player < players
        legal = state.legal_actions()
        assert legal and all(0 <= a < game.num_distinct_actions() for a in legal)
        assert state.legal_actions(player) == legal
        assert state.legal_actions((player + 1) % players) == [] or players == 1
        mask = state.legal_actions_mask()
        assert mask.dtype == np.bool_ and mask.shape == (game.num_distinct_actions(),)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(legal)
        assert state.returns() == [0.0] * players
        state.apply_action(rng.choice(legal))
        steps += 1
        if game.turn_cap and state.turn_number() > game.turn_cap:
            return
    assert state.current_player() == ramparts.TERMINAL
    assert state.legal_actions() == []
    assert abs(sum(state.returns()) - 1.0) < 1e-9
    assert state.rewards() == state.returns()


def test_seed_decides_the_deal(game_id):
    game = ramparts.load_game(game_id)
    a = [s.serialize() for s in random_states(game, 3, limit=30)]
    b = [s.serialize() for s in random_states(game, 3, limit=30)]
    assert a == b
    if game.has_chance:
        assert game.new_initial_state(seed=1).serialize() != game.new_initial_state(
            seed=2
        ).serialize()


def test_clone_copy_pickle_and_serialize(game_id):
    game = ramparts.load_game(game_id, seed=11)
    states = random_states(game, 11, limit=60)
    middle = states[len(states) // 2]
    for twin in (middle.clone(), copy.copy(middle), copy.deepcopy(middle)):
        assert twin == middle and twin is not middle
    again = game.deserialize_state(middle.serialize())
    assert again == middle and str(again) == middle.serialize()
    assert pickle.loads(pickle.dumps(middle)) == middle
    assert pickle.loads(pickle.dumps(game)).options_text() == game.options_text()
    if not middle.is_terminal():
        moved = middle.clone()
        moved.apply_action(moved.legal_actions()[0])
        assert moved != middle  # the copy is independent
        assert middle == states[len(states) // 2]


def test_notation_both_ways(game_id):
    game = ramparts.load_game(game_id, seed=4)
    for state in random_states(game, 4, limit=40)[:-1]:
        for action in state.legal_actions():
            text = state.action_to_string(action)
            assert state.string_to_action(text) == action
            assert state.action_to_string(state.current_player(), action) == text
            assert state.string_to_action(state.current_player(), text) == action
            data = state.action_data(action)
            assert data["id"] == action and data["text"] == text and data["kind"]


def test_illegal_and_malformed_input_changes_nothing(game_id):
    game = ramparts.load_game(game_id, seed=2)
    state = game.new_initial_state()
    before = state.serialize()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(ValueError, match=f"action {illegal} is not legal here"):
        state.apply_action(illegal)
    with pytest.raises(ValueError, match="actions are 0.."):
        state.apply_action(game.num_distinct_actions())
    with pytest.raises(ValueError):
        state.apply_action(-1)
    with pytest.raises(TypeError):
        state.apply_action("1")
    with pytest.raises(ValueError):
        state.string_to_action("not a move at all")
    with pytest.raises(ValueError, match="seats are"):
        state.observation_tensor(game.num_players())
    with pytest.raises(ValueError, match="seats are"):
        state.view(7)
    with pytest.raises(ValueError):
        game.deserialize_state("garbage")
    with pytest.raises(ValueError):
        state.events(illegal)
    with pytest.raises(TypeError):
        state.observation_tensor(0, out=np.zeros(3, np.float64))
    with pytest.raises(ValueError, match="holds 3 items"):
        state.observation_tensor(0, out=np.zeros(3, np.float32))
    assert state.serialize() == before


def test_views_and_screens_show_only_what_a_seat_may_see(game_id):
    game = ramparts.load_game(game_id, seed=6)
    for state in random_states(game, 6, limit=50)[::5]:
        for viewer in [ramparts.SPECTATOR, *range(game.num_players())]:
            sample = state.resample_from_infostate(viewer, 99)
            assert sample.view(viewer) == state.view(viewer)
            assert sample.observation_string(viewer) == state.observation_string(viewer)
            assert state.view(viewer)  # plain data: a dict


def test_events_of_a_move(game_id):
    game = ramparts.load_game(game_id, seed=8)
    state = game.new_initial_state()
    action = state.legal_actions()[0]
    before = state.serialize()
    for viewer in [ramparts.SPECTATOR, *range(game.num_players())]:
        events = state.events(action, viewer)
        assert events and all(e["kind"] and e["text"] for e in events)
    assert state.serialize() == before  # telling events plays on a copy


def test_game_descriptions(game_id):
    game = ramparts.load_game(game_id)
    assert game.id == game_id and game.title
    assert game.rules() and "#" in game.rules()
    assert len(game.seat_names) == game.num_players()
    for spec in game.option_specs():
        assert spec["name"] and spec["kind"] in ("int", "choice", "text") and spec["help"]
    assert repr(game).startswith(f"<Game {game_id} players=")
