"""VectorEnv: stepping many games in C gives exactly what the single-state API gives, finished
games restart at once with their rewards reported, runs are reproducible, and bad actions are
refused before anything moves."""

import numpy as np
import pytest

import ramparts


def check_rows_match_states(env):
    for i in range(env.num_envs):
        state = env.state(i)
        player = state.current_player()
        assert env.current_players[i] == player
        np.testing.assert_array_equal(env.observations[i], state.observation_tensor(player))
        np.testing.assert_array_equal(env.legal_masks[i], state.legal_actions_mask())


def test_vector_env_agrees_with_single_states(game_id):
    env = ramparts.VectorEnv(game_id, 6, seed=3)
    obs, info = env.reset()
    assert obs is env.observations and info["legal_mask"] is env.legal_masks
    check_rows_match_states(env)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(300):
        before = [env.state(i) for i in range(env.num_envs)]
        actions = np.array(
            [rng.choice(np.flatnonzero(env.legal_masks[i])) for i in range(env.num_envs)]
        )
        obs, rewards, terminations, truncations, info = env.step(actions)
        for i, state in enumerate(before):
            state.apply_action(int(actions[i]))
            if terminations[i]:
                assert state.is_terminal()
                np.testing.assert_allclose(rewards[i], state.returns(), rtol=0, atol=1e-7)
                finished += 1
            elif truncations[i]:
                assert state.turn_number() > env.game.turn_cap
                assert not rewards[i].any()
            else:
                assert state == env.state(i)
                assert not rewards[i].any()
        check_rows_match_states(env)
    assert env.finished_games >= finished


def test_finished_games_restart_with_fresh_deals():
    env = ramparts.VectorEnv("walls-and-armies", 4, seed=1)
    env.reset()
    firsts = {env.state(i).serialize() for i in range(4)}
    assert len(firsts) == 4  # every env deals its own game
    done = np.zeros(4, bool)
    for _ in range(5000):
        _, rewards, terminations, _, _ = env.step(env.sample_actions())
        for i in np.flatnonzero(terminations):
            assert abs(rewards[i].sum() - 1.0) < 1e-6
            assert env.state(i).turn_number() == 1  # already the next game
        done |= terminations
        if done.all():
            break
    assert done.all()


def test_runs_are_reproducible():
    def run(seed):
        env = ramparts.VectorEnv("king-of-danger", 3, seed=seed, players=3)
        env.reset()
        out = []
        for _ in range(200):
            env.step(env.sample_actions())
            out.append(env.observations.copy())
        return np.array(out)

    np.testing.assert_array_equal(run(7), run(7))
    assert not np.array_equal(run(7), run(8))


def test_reset_with_a_seed_starts_over():
    env = ramparts.VectorEnv("castle-danger", 2, seed=4)
    env.reset()
    start = [env.state(i).serialize() for i in range(2)]
    for _ in range(10):
        env.step(env.sample_actions())
    env.reset(seed=4)
    assert [env.state(i).serialize() for i in range(2)] == start
    assert env.finished_games == 0


def test_illegal_actions_change_nothing():
    env = ramparts.VectorEnv("king-of-danger", 3, seed=2)
    env.reset()
    states = [env.state(i).serialize() for i in range(3)]
    arrays = [a.copy() for a in (env.observations, env.legal_masks, env.current_players)]
    actions = env.sample_actions().copy()
    bad = actions.copy()
    bad[1] = next(a for a in range(env.num_actions) if not env.legal_masks[1][a])
    with pytest.raises(ValueError, match=f"env 1: action {bad[1]} is not legal"):
        env.step(bad)
    bad[1] = -5
    with pytest.raises(ValueError, match="env 1"):
        env.step(bad)
    with pytest.raises(ValueError, match="holds 2 items"):
        env.step(actions[:2])
    with pytest.raises(TypeError):
        env._core.step(actions.astype(np.float32))
    assert [env.state(i).serialize() for i in range(3)] == states
    for a, b in zip(arrays, (env.observations, env.legal_masks, env.current_players)):
        np.testing.assert_array_equal(a, b)
    env.step(list(actions))  # a plain list of legal ids is fine


def test_bad_construction_is_refused():
    with pytest.raises(ValueError, match="num_envs"):
        ramparts.VectorEnv("castle-danger", 0)
    with pytest.raises(ValueError, match="no game"):
        ramparts.VectorEnv("chess", 2)
    with pytest.raises(TypeError):
        ramparts.VectorEnv(ramparts.load_game("castle-danger"), 2, players=2)
    with pytest.raises(IndexError):
        ramparts.VectorEnv("castle-danger", 2).state(2)


def test_castle_danger_games_past_the_cap_are_truncated():
    env = ramparts.VectorEnv("castle-danger", 8, seed=5)
    env.reset()
    # Every turn ends with "end" when it is legal: nobody attacks, so games run to the cap.
    end_turn = np.zeros(8, np.int64)
    truncated = 0
    for _ in range(2000):
        actions = np.where(env.legal_masks[:, 0], end_turn, env.sample_actions())
        _, rewards, terminations, truncations, _ = env.step(actions)
        truncated += int(truncations.sum())
        assert not rewards[truncations].any()
    assert truncated > 0
