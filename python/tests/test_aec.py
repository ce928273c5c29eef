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
        assert observation["observation"].shape == env.observation_space(agent).shape
        if termination or truncation:
            assert not observation["action_mask"].any()
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        assert env.state.current_player() == seat
        legal = np.flatnonzero(observation["action_mask"])
        assert sorted(legal.tolist()) == sorted(env.state.legal_actions())
        env.step(int(rng.choice(legal)))
        steps += 1
    return total, steps


def test_episodes_of_every_game(game_id):
    env = ramparts.AECEnv(game_id)
    assert env.possible_agents == [f"player_{p}" for p in range(env.game.num_players())]
    total, steps = run_episode(env, 3)
    assert steps > 0 and env.agents == []
    if env.state.is_terminal():
        assert abs(sum(total.values()) - 1.0) < 1e-9
        assert list(total.values()) == env.state.returns()


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
    first = env.state.serialize()
    env.reset()
    assert env.state.serialize() != first
    env.reset(seed=10)
    assert env.state.serialize() == first
