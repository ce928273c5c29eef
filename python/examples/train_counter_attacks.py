"""train_counter_attacks.py — learn when to counter-attack in Walls and Armies, from self-play.

The defender's one real decision in Walls and Armies (WA-4): an attacker's stack has not beaten
its target, so `leave` it (it may grow) or `counter` with the top of your own army deck, blind:
a counter higher than the stack captures it as new walls, and any counter removes the stack, but
it costs an army card you could have attacked with. This trains a table of that decision:

  situation  the stack's total (2..14+), how far it is below its target's value (0, 1-2, 3-5,
             6+), and whether the target is a wall or a shield: 104 situations, read from the
             defender's observation tensor (only what the defender may see);
  values     the mean final result (1 win, 0.5 draw, 0 loss) of each choice in each situation,
             from games where both seats use the table (epsilon-greedy) for their counters and
             the `greedy` AI for every other move (Monte Carlo control).

Then the trained player (table for counters, `greedy` otherwise) meets `random` and `greedy`
through ramparts.arena, beside the same player with the table replaced by greedy's own counter
choices, always-counter and never-counter, on the same deals.

  PYTHONPATH=build/python /usr/bin/python3 python/examples/train_counter_attacks.py \
      [--games 20000] [--eval-games 400] [--seed 1]
"""

import argparse
import time

import numpy as np

import ramparts

LEAVE, COUNTER = 120, 121  # Walls and Armies' action ids (src/games/walls-and-armies/internal.h)


class Features:
    """Reads a defender's situation from its observation tensor, by the fields' names."""

    def __init__(self, game):
        fields = {name: (start, shape) for name, start, shape, _ in game.observation_fields()}
        (self.cards_at, self.cards_shape), (self.counts_at, _) = fields["cards"], fields["counts"]
        self.values = np.arange(52) // 4 + 2.0  # card id = rank index * 4 + suit; 2..14
        # Channels of the "cards" field, as its meaning lists them.
        self.target, self.stack, self.my_shield, self.stack_no = 6, 5, 2, 9

    def situation(self, obs):
        cards = obs[self.cards_at : self.cards_at + 52 * 11].reshape(self.cards_shape)
        pending = obs[self.counts_at + 9] * 52  # the stack the defender decides on (1-based)
        mine = np.abs(cards[:, self.stack_no] * 52 - pending) < 0.5
        total = int(self.values[mine & (cards[:, self.stack] > 0)].sum())
        target = np.flatnonzero(mine & (cards[:, self.target] > 0))[0]
        gap = int(self.values[target]) - total
        on_shield = int(cards[target, self.my_shield] > 0)
        gap_bucket = 0 if gap <= 0 else 1 if gap <= 2 else 2 if gap <= 5 else 3
        return (min(max(total, 2), 14) - 2) * 8 + gap_bucket * 2 + on_shield


class CounterTable:
    """Mean result of leave / counter per situation; greedy in it, ties go to leave."""

    def __init__(self):
        self.sums = np.zeros((13 * 8, 2))
        self.counts = np.zeros((13 * 8, 2))

    def choose(self, situation, rng=None, epsilon=0.0):
        if rng is not None and rng.random() < epsilon:
            return int(rng.integers(2))
        means = self.sums[situation] / np.maximum(self.counts[situation], 1)
        return int(means[1] > means[0])

    def learn(self, decisions, result):
        for situation, choice in decisions:
            self.sums[situation, choice] += result
            self.counts[situation, choice] += 1


def counter_player(features, decide, fallback):
    """A policy: decide(situation) -> 0 leave / 1 counter for counter decisions, fallback (a
    Bot) for everything else."""

    def policy(state):
        legal = state.legal_actions()
        if COUNTER not in legal:
            return fallback.step(state)
        obs = state.observation_tensor(state.current_player())
        return COUNTER if decide(features.situation(obs)) else LEAVE

    return policy


def train(game, table, features, games, seed, epsilon=0.2):
    rng = np.random.default_rng(seed)
    greedy = ramparts.Bot("greedy", seed=seed)
    for g in range(games):
        state = game.new_initial_state(seed=seed + g)
        decisions = ([], [])
        while not state.is_terminal():
            seat = state.current_player()
            if COUNTER in state.legal_actions():
                situation = features.situation(state.observation_tensor(seat))
                choice = table.choose(situation, rng, epsilon)
                decisions[seat].append((situation, choice))
                state.apply_action(COUNTER if choice else LEAVE)
            else:
                state.apply_action(greedy.step(state))
        for seat, result in enumerate(state.returns()):
            table.learn(decisions[seat], result)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20000, help="self-play games")
    parser.add_argument("--eval-games", type=int, default=400, help="arena games per pairing")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = ramparts.load_game("walls-and-armies")
    features = Features(game)
    table = CounterTable()
    start = time.process_time()
    train(game, table, features, args.games, args.seed)
    trained = time.process_time() - start
    learned = table.counts.sum(axis=1) > 0
    counters = sum(table.choose(s) for s in range(len(table.sums)) if learned[s])
    print(
        f"trained on {args.games} self-play games in {trained:.1f} s of CPU: "
        f"{int(table.counts.sum())} counter decisions, {int(learned.sum())} situations seen, "
        f"counter chosen in {counters} of them"
    )
    fallback = ramparts.Bot("greedy", seed=args.seed + 7)
    players = {
        "learned": counter_player(features, table.choose, fallback),
        "always-counter": counter_player(features, lambda s: 1, fallback),
        "never-counter": counter_player(features, lambda s: 0, fallback),
        "greedy": "greedy",
        "random": "random",
    }
    # Deals of the evaluation never met in training.
    eval_seed = args.seed + args.games + 1_000_000
    pairs = [(a, b) for a in ("learned", "always-counter", "never-counter", "greedy")
             for b in ("random", "greedy") if a != b]
    rows = ramparts.arena(game, players, games=args.eval_games, seed=eval_seed, pairs=pairs)
    print(ramparts.format_arena(rows))


if __name__ == "__main__":
    main()
