"""train_ppo.py — a learning baseline: one policy trained by self-play with PPO (PyTorch, CPU)
over VectorEnv, both seats played by the same network, its learning curve measured against the
project's `random`, `greedy` and `easy` AIs (ramparts.arena: shared deals, seats swapped).

    PYTHONPATH=build/python /usr/bin/python3 python/examples/train_ppo.py --game rush-the-wall

Writes, under --out (default ppo-<game>/): curve.csv (one row per evaluation: iteration, games
and steps trained, each opponent's score with its 95% interval), curve.png (matplotlib) and
policy.pt (the trained weights). The network reads only the observation tensor of the player
to act and the legal-action mask; the arena hands it states resampled for that player.
"""

import argparse
import csv
import os
import time

import numpy as np
import torch
from torch import nn

import ramparts


class Policy(nn.Module):
    """An MLP with a policy head (logits over every action, illegal ones masked) and a value
    head (the expected share of the win of the player to act)."""

    def __init__(self, obs_size, num_actions, hidden=128):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(obs_size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh()
        )
        self.logits = nn.Linear(hidden, num_actions)
        self.value = nn.Linear(hidden, 1)

    def forward(self, obs, mask):
        h = self.body(obs)
        logits = self.logits(h).masked_fill(~mask, -1e9)
        return logits, self.value(h).squeeze(-1)


class SelfPlay:
    """VectorEnv games played by one network for every seat. Each seat's moves wait in a list
    until its game ends; then they join the batch with that seat's share of the win as return."""

    def __init__(self, game_id, options, num_envs, seed):
        self.env = ramparts.VectorEnv(game_id, num_envs=num_envs, seed=seed, **options)
        self.env.reset()
        self.players = self.env.num_players
        self.pending = [[[] for _ in range(self.players)] for _ in range(num_envs)]
        self.games = 0
        self.steps = 0

    def collect(self, net, want):
        """Play until `want` moves of finished games are ready; returns them as tensors."""
        env, ready = self.env, []
        while len(ready) < want:
            obs = torch.from_numpy(env.observations.copy())
            mask = torch.from_numpy(env.legal_masks.copy())
            players = env.current_players.copy()
            with torch.no_grad():
                logits, _ = net(obs, mask)
                dist = torch.distributions.Categorical(logits=logits)
                actions = dist.sample()
                logp = dist.log_prob(actions)
            env.step(actions.numpy())
            self.steps += env.num_envs
            for i in range(env.num_envs):
                self.pending[i][players[i]].append((obs[i], mask[i], actions[i], logp[i]))
            for i in np.flatnonzero(env.terminations | env.truncations):
                self.games += 1
                for p in range(self.players):
                    # A game stopped at the turn cap counts as a fair share to everyone.
                    share = env.rewards[i, p] if env.terminations[i] else 1.0 / self.players
                    ready.extend(m + (float(share),) for m in self.pending[i][p])
                    self.pending[i][p] = []
        obs, mask, actions, logp, returns = zip(*ready)
        return (
            torch.stack(obs),
            torch.stack(mask),
            torch.stack(actions),
            torch.stack(logp),
            torch.tensor(returns, dtype=torch.float32),
        )


def ppo_update(net, optimiser, batch, epochs=4, minibatch=512, clip=0.2):
    obs, mask, actions, old_logp, returns = batch
    n = len(actions)
    for _ in range(epochs):
        for idx in torch.randperm(n).split(minibatch):
            logits, value = net(obs[idx], mask[idx])
            dist = torch.distributions.Categorical(logits=logits)
            logp = dist.log_prob(actions[idx])
            advantage = returns[idx] - value.detach()
            advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
            ratio = torch.exp(logp - old_logp[idx])
            policy_loss = -torch.min(
                ratio * advantage, ratio.clamp(1 - clip, 1 + clip) * advantage
            ).mean()
            value_loss = (value - returns[idx]).pow(2).mean()
            loss = policy_loss + 0.5 * value_loss - 0.01 * dist.entropy().mean()
            optimiser.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            optimiser.step()


def as_policy(net):
    """The trained player for ramparts.arena: the most likely legal action of its network."""

    def policy(state):
        obs = torch.from_numpy(state.observation_tensor())[None]
        mask = torch.from_numpy(state.legal_actions_mask())[None]
        with torch.no_grad():
            logits, _ = net(obs, mask)
        return int(logits.argmax())

    return policy


def evaluate(game, net, opponents, games, seed):
    policies = {"ppo": as_policy(net)}
    policies.update({o: o for o in opponents})
    pairs = [("ppo", o) for o in opponents]
    return {r["b"]: r for r in ramparts.arena(game, policies, games=games, seed=seed, pairs=pairs)}


def plot(rows, opponents, path, title):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(7, 4))
    games = [r["games_trained"] for r in rows]
    for o in opponents:
        score = [100 * r[f"{o}_score"] for r in rows]
        low = [100 * r[f"{o}_low"] for r in rows]
        high = [100 * r[f"{o}_high"] for r in rows]
        ax.plot(games, score, marker="o", label=f"against {o}")
        ax.fill_between(games, low, high, alpha=0.15)
    ax.axhline(50, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xlabel("self-play games trained")
    ax.set_ylabel("PPO policy's score, % (95% CI)")
    ax.set_ylim(0, 100)
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def train(args):
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    options = dict(kv.split("=", 1) for kv in args.options)
    game = ramparts.load_game(args.game, **options)
    net = Policy(game.observation_tensor_size(), game.num_distinct_actions(), args.hidden)
    optimiser = torch.optim.Adam(net.parameters(), lr=args.lr)
    play = SelfPlay(args.game, options, args.envs, args.seed)
    opponents = args.opponents.split(",")
    os.makedirs(args.out, exist_ok=True)
    rows, cpu = [], 0.0
    for iteration in range(args.iterations + 1):
        if iteration % args.eval_every == 0 or iteration == args.iterations:
            results = evaluate(game, net, opponents, args.eval_games, 10_000 + args.seed)
            row = dict(iteration=iteration, games_trained=play.games, steps_trained=play.steps)
            row["train_cpu_s"] = round(cpu, 1)
            for o in opponents:
                for key in ("score", "low", "high"):
                    row[f"{o}_{key}"] = round(results[o][key], 4)
            rows.append(row)
            print(
                f"iter {iteration:4d}  games {play.games:7d}  "
                + "  ".join(f"{o} {100 * row[o + '_score']:5.1f}%" for o in opponents),
                flush=True,
            )
        if iteration == args.iterations:
            break
        start = time.process_time()
        ppo_update(net, optimiser, play.collect(net, args.batch))
        cpu += time.process_time() - start
    with open(os.path.join(args.out, "curve.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    torch.save(net.state_dict(), os.path.join(args.out, "policy.pt"))
    plotted = plot(rows, opponents, os.path.join(args.out, "curve.png"), f"PPO self-play: {game.title}")
    print(f"trained {play.games} games ({play.steps} steps) in {cpu:.1f} s of CPU; wrote "
          f"{args.out}/curve.csv, policy.pt" + (", curve.png" if plotted else ""))
    return rows, net


def parse(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="rush-the-wall")
    p.add_argument("--options", nargs="*", default=[], help="game options key=value")
    p.add_argument("--iterations", type=int, default=60, help="PPO updates")
    p.add_argument("--batch", type=int, default=4096, help="moves per update")
    p.add_argument("--envs", type=int, default=64)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--eval-every", type=int, default=10)
    p.add_argument("--eval-games", type=int, default=100, help="arena games per opponent")
    p.add_argument("--opponents", default="random,greedy,easy")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default=None)
    args = p.parse_args(argv)
    args.out = args.out or f"ppo-{args.game}"
    return args


if __name__ == "__main__":
    train(parse())
