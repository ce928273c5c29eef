"""The learning baseline (python/examples/train_ppo.py), a few seconds of it: PPO self-play over
VectorEnv with PyTorch, evaluated through ramparts.arena, writing its curve, plot and weights.
The full run and its figures are in docs/python.md."""

import csv
import importlib.util
import os

import pytest
# python3-torch: scripts/install-deps.sh installs it, so a missing torch fails the test rather
# than skip it (issue 48: a skipped test is no pass)
import torch  # noqa: F401

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "examples", "train_ppo.py")


def load_example():
    spec = importlib.util.spec_from_file_location("train_ppo", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game_id", ["rush-the-wall", "walls-and-armies"])
def test_a_short_training_run_writes_its_curve_and_plays_legal_moves(game_id, tmp_path):
    ppo = load_example()
    args = ppo.parse(
        ["--game", game_id, "--iterations", "2", "--batch", "256", "--envs", "8",
         "--eval-every", "1", "--eval-games", "2", "--opponents", "random,greedy",
         "--hidden", "32", "--out", str(tmp_path)]
    )
    rows, net = ppo.train(args)
    assert [r["iteration"] for r in rows] == [0, 1, 2]
    assert rows[-1]["games_trained"] > rows[0]["games_trained"] == 0
    with open(tmp_path / "curve.csv") as f:
        table = list(csv.DictReader(f))
    assert len(table) == 3 and 0 <= float(table[-1]["random_score"]) <= 1
    assert (tmp_path / "policy.pt").stat().st_size > 0
    assert (tmp_path / "curve.png").read_bytes()[:4] == b"\x89PNG"
    # The weights load back, and the player they make moves legally.
    again = ppo.Policy(net.body[0].in_features, net.logits.out_features, 32)
    again.load_state_dict(torch.load(tmp_path / "policy.pt"))
    import ramparts

    game = ramparts.load_game(game_id)
    state = game.new_initial_state(seed=5)
    player = ppo.as_policy(again)
    for _ in range(20):
        if state.is_terminal():
            break
        action = player(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_one_update_moves_the_policy_towards_what_won():
    """PPO's update on a batch where one action always won and another always lost raises the
    first's probability: the loss has the right sign."""
    ppo = load_example()
    torch.manual_seed(0)
    net = ppo.Policy(4, 3, 16)
    obs = torch.zeros(64, 4)
    mask = torch.ones(64, 3, dtype=torch.bool)
    actions = torch.tensor([0, 1] * 32)
    with torch.no_grad():
        logits, _ = net(obs, mask)
        old = torch.distributions.Categorical(logits=logits)
        logp = old.log_prob(actions)
        p0 = old.probs[0, 0].item()
    returns = (actions == 0).float()
    optimiser = torch.optim.Adam(net.parameters(), lr=1e-2)
    ppo.ppo_update(net, optimiser, (obs, mask, actions, logp, returns), epochs=4, minibatch=64)
    with torch.no_grad():
        after = torch.softmax(net(obs, mask)[0], -1)[0, 0].item()
    assert after > p0
