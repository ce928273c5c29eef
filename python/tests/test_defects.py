"""The defects issue 30 reproduced, each pinned: races on VectorEnv's action array, a Game
initialised twice, action ids as numpy integers, floats and strided columns given to
VectorEnv.step, states saved under other options, options given as one string."""

import threading

import numpy as np
import pytest

import ramparts


def test_vector_step_copies_the_actions_before_releasing_the_gil():
    # Another thread scribbles out-of-range ids into the caller's array while step runs: the
    # ids checked are the ids played, so nothing unchecked ever reaches the C games.
    env = ramparts.VectorEnv("danger-at-the-walls", 64, seed=3)
    actions = np.zeros(env.num_envs, np.int64)
    stop = threading.Event()

    def scribble():
        while not stop.is_set():
            actions[:] = 1 << 40
            actions[:] = -7

    writer = threading.Thread(target=scribble)
    writer.start()
    played = refused = 0
    try:
        for _ in range(300):
            actions[:] = env.sample_actions()
            try:
                env.step(actions)
                played += 1
            except ValueError as e:
                assert "not legal" in str(e)
                refused += 1
    finally:
        stop.set()
        writer.join()
    assert played + refused == 300
    for i in range(env.num_envs):  # every game is still a valid state
        state = env.state(i)
        assert ramparts.load_game("danger-at-the-walls").deserialize_state(state.serialize())


def test_a_game_cannot_be_initialised_twice():
    game = ramparts.Game("king-of-danger", ["players=3"])
    state = game.new_initial_state()
    with pytest.raises(RuntimeError, match="already initialised"):
        game.__init__("rush-the-wall", ["players=2"])
    assert game.id == "king-of-danger" and game.num_players() == 3
    assert state.legal_actions() == game.new_initial_state().legal_actions()


def test_options_given_as_one_string():
    game = ramparts.Game("king-of-danger", "players=3 dealer=2")
    assert game.num_players() == 3 and "dealer=2" in game.options_text()
    assert ramparts.Game("king-of-danger", "players=3,dealer=2").options_text() == (
        game.options_text()
    )
    with pytest.raises(TypeError, match="options"):
        ramparts.Game("king-of-danger", 3)


def test_actions_as_numpy_integers():
    game = ramparts.load_game("walls-and-armies", seed=2)
    state = game.new_initial_state()
    other = state.clone()
    action = state.legal_actions()[0]
    for kind in (np.int64, np.int32, np.uint16):
        copy = state.clone()
        copy.apply_action(kind(action))
        other_copy = other.clone()
        other_copy.apply_action(action)
        assert copy == other_copy
    assert state.action_to_string(np.int64(action)) == state.action_to_string(action)
    with pytest.raises(TypeError, match="int"):
        state.apply_action(float(action))
    with pytest.raises(TypeError, match="int"):
        state.apply_action(np.float64(action))


def test_vector_step_refuses_floats_and_takes_strided_columns():
    env = ramparts.VectorEnv("walls-and-armies", 4, seed=1)
    before = [env.state(i).serialize() for i in range(4)]
    sampled = env.sample_actions().copy()
    with pytest.raises(TypeError, match="integer"):
        env.step(sampled.astype(np.float64) + 0.5)
    with pytest.raises(TypeError, match="integer"):
        env.step(sampled.astype(np.float32))
    assert [env.state(i).serialize() for i in range(4)] == before
    table = np.stack([sampled, np.zeros(4, np.int64)], axis=1)  # column 0 is strided
    assert not table[:, 0].flags.c_contiguous
    env.step(table[:, 0])
    twin = ramparts.VectorEnv("walls-and-armies", 4, seed=1)
    twin.step(sampled)
    assert [env.state(i).serialize() for i in range(4)] == [
        twin.state(i).serialize() for i in range(4)
    ]
    env.step([int(a) for a in env.sample_actions()])  # a list of ints is fine


def test_deserialize_state_refuses_a_state_of_other_options():
    plain = ramparts.load_game("castle-danger", seed=4)
    tournament = ramparts.load_game("castle-danger", seed=4, tournament=True)
    text = tournament.new_initial_state().serialize()
    assert tournament.deserialize_state(text).serialize() == text
    with pytest.raises(ValueError, match="options"):
        plain.deserialize_state(text)
    three = ramparts.load_game("king-of-danger", players=3)
    four = ramparts.load_game("king-of-danger", players=4)
    with pytest.raises(ValueError, match="players"):
        three.deserialize_state(four.new_initial_state().serialize())
