"""AECEnv: the PettingZoo agent-environment cycle over one game."""

import numpy as np
import pytest

import ramparts


def run_episode(env, seed):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = {a: 0.0 for a in env.possible_agents}
    steps = 0
    for agent in env.agent_iter(100000):
        observation, reward, termination, truncation, info = env.last()
        total[agent] += reward
        assert observation["observation"].shape == env.observation_space(agent)["observation"].shape
        if termination or truncation:
            assert not observation["action_mask"].any()
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        assert env.state().current_player() == seat
        legal = np.flatnonzero(observation["action_mask"])
        assert sorted(legal.tolist()) == sorted(env.state().legal_actions())
        env.step(int(rng.choice(legal)))
        steps += 1
    return total, steps


def test_episodes_of_every_game(game_id):
    env = ramparts.AECEnv(game_id)
    assert env.possible_agents == [f"player_{p}" for p in range(env.game.num_players())]
    total, steps = run_episode(env, 3)
    assert steps > 0 and env.agents == []
    if env.state().is_terminal():
        assert abs(sum(total.values()) - 1.0) < 1e-9
        assert list(total.values()) == env.state().returns()


def test_the_cycle_refuses_misuse():
    env = ramparts.AECEnv("king-of-danger", players=3)
    with pytest.raises(RuntimeError):
        env.step(0)
    env.reset(seed=1)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(~env.observe(agent)["action_mask"].astype(bool))[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    with pytest.raises(ValueError, match="None"):
        env.step(None)
    assert env.agent_selection == agent
    with pytest.raises(KeyError):
        env.observe("player_9")
    other = [a for a in env.possible_agents if a != agent][0]
    assert not env.observe(other)["action_mask"].any()
    assert "King of Danger" in env.render()


def test_reset_deals_the_next_seed_unless_given_one():
    env = ramparts.AECEnv("walls-and-armies", seed=10)
    env.reset()
    first = env.state().serialize()
    env.reset()
    assert env.state().serialize() != first
    env.reset(seed=10)
    assert env.state().serialize() == first


def test_rewards_summed_step_by_step_pay_each_seat_once(game_id):
    # The usual PettingZoo loop adds env.rewards after every step: the steps that remove
    # finished agents must not pay the winner again.
    env = ramparts.AECEnv(game_id)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    paid = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(100000):
        _, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
        for a, r in env.rewards.items():
            paid[a] += r
    if env.state().is_terminal():
        assert list(paid.values()) == env.state().returns()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(None)  # after the end: a clear error, not KeyError


def test_pettingzoo_api_test_expectations():
    # PettingZoo's api_test (not packaged for Debian), its checks written out here.
    env = ramparts.AECEnv("king-of-danger", players=3)
    assert env.unwrapped is env
    env.reset(seed=0, options={"options": 1})
    with pytest.raises(TypeError, match="dict"):
        env.reset(options="fast")
    assert callable(env.state) and env.state().num_players() == 3
    rng = np.random.default_rng(0)
    for agent in env.agent_iter(100000):
        assert set(env.rewards) == set(env.terminations) == set(env.truncations) == set(env.agents)
        assert set(env.infos) == set(env.agents) and agent in env.agents
        for a in env.agents:
            assert env.observation_space(a).contains(env.observe(a))
            assert isinstance(env.infos[a], dict)
        observation, reward, termination, truncation, info = env.last()
        assert env.observation_space(agent).contains(observation)
        if termination or truncation:
            env.step(None)
            continue
        action = env.action_space(agent).sample(observation["action_mask"])
        assert env.action_space(agent).contains(action)
        env.step(np.int64(action) if rng.random() < 0.5 else action)
    assert env.agents == [] and env.num_agents == 0
    space = env.observation_space("player_0")
    assert not space.contains({"observation": space["observation"]})
    assert not space.contains(
        {"observation": np.zeros(3, np.float32), "action_mask": np.zeros(3, np.uint8)}
    )
