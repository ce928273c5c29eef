"""arena(): policies against each other on shared deals, as `ramparts arena` measures the AIs,
with Python policies allowed: every pairing plays the same deals with the seats rotated, and
the table gives scores with 95% Wilson intervals and Elo differences.

A policy is an AI spec ("random", "greedy", "hard", "ismcts:iters=500"), a Bot, or any
callable policy(state) -> action. A callable gets a copy of the game resampled for the player
to act (State.resample_from_infostate): it looks the same to that player and has the same legal
actions, but whatever is hidden from them is drawn at random, so a policy cannot read hidden
cards even by mistake.
"""

import math

from ramparts._games import resolve_game
from ramparts._ramparts import Bot, Game


def _mover(policy, seed):
    """A function state -> action for one seat of one game."""
    if isinstance(policy, str):
        policy = Bot(policy, seed=seed)
    if isinstance(policy, Bot):
        return policy.step
    if not callable(policy):
        raise TypeError(f"a policy is an AI spec, a Bot or a callable, not {policy!r}")
    counter = [seed]

    def move(state):
        counter[0] += 1
        view = state.resample_from_infostate(state.current_player(), counter[0])
        return policy(view)

    return move


def play_game(game, policies, seed, ai_seed=0):
    """Play one game of `game` dealt from `seed`, seat p moved by policies[p]; returns the
    final State. A game still going at the game's turn cap is stopped there (check
    is_terminal())."""
    if not isinstance(game, Game):
        raise TypeError("game must be a Game (ramparts.load_game)")
    if len(policies) != game.num_players():
        raise ValueError(f"{game.id} has {game.num_players()} seats; {len(policies)} policies")
    movers = [_mover(p, ai_seed + 7919 * seat) for seat, p in enumerate(policies)]
    state = game.new_initial_state(seed=seed)
    cap = game.turn_cap
    while not state.is_terminal() and not (cap and state.turn_number() > cap):
        state.apply_action(int(movers[state.current_player()](state)))
    return state


def _wilson(p, n, z=1.959964):
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _elo(p, n):
    edge = 0.5 / n
    p = min(max(p, edge), 1 - edge)
    return 400.0 * math.log10(p / (1 - p))


def arena(game, policies, games=100, seed=1, pairs=None):
    """Every pairing of `policies` ({"name": policy} or a list of AI specs) plays `games`
    games of `game` (a Game): with two players each deal (seed + k) is played twice with the
    seats swapped; with more, the first policy sits alone against copies of the second, once
    on every seat of each deal. `pairs` limits the pairings to [(name_a, name_b)].

    Returns one dict per pairing: a, b, games, a_won, drawn, b_won, score (a's share of the
    wins), low and high (95% Wilson interval), elo, elo_low and elo_high (2 players)."""
    game = resolve_game(game, {})  # a Game, or a game id as every environment takes it
    if isinstance(policies, (list, tuple)):
        policies = {str(p): p for p in policies}
    names = list(policies)
    if pairs is None:
        pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    players = game.num_players()
    results = []
    for index, (a, b) in enumerate(pairs):
        # AI specs become Bots once per pairing (a Bot keeps its search memory between games).
        pa, pb = (
            Bot(p, seed=seed * 1000003 + 2 * index + k) if isinstance(p, str) else p
            for k, p in enumerate((policies[a], policies[b]))
        )
        score, a_won, b_won, drawn = 0.0, 0, 0, 0
        for g in range(games):
            lone = g % players
            seats = [pa if p == lone else pb for p in range(players)]
            final = play_game(game, seats, seed + g // players, ai_seed=1000003 * index + g)
            shares = final.returns() if final.is_terminal() else [1.0 / players] * players
            share = shares[lone]
            score += share
            best = max(shares)
            if share == best and shares.count(best) == 1:
                a_won += 1
            elif share < best and shares.count(best) == 1:
                b_won += 1
            else:
                drawn += 1
        p = score / games
        low, high = _wilson(p, games)
        row = dict(a=a, b=b, games=games, a_won=a_won, drawn=drawn, b_won=b_won, score=p)
        row.update(low=low, high=high, fair_share=1.0 / players)
        if players == 2:
            row.update(elo=_elo(p, games), elo_low=_elo(low, games), elo_high=_elo(high, games))
        results.append(row)
    return results


def format_arena(results):
    """The table `ramparts arena` prints, from arena()'s results."""
    lines = [
        f"{'A':<22} {'B':<22} {'games':>6} {'A won':>6} {'drawn':>6} {'B won':>6}"
        f"   A score 95% CI"
    ]
    for r in results:
        line = (
            f"{r['a']:<22} {r['b']:<22} {r['games']:>6} {r['a_won']:>6} {r['drawn']:>6}"
            f" {r['b_won']:>6}   {100 * r['score']:5.1f}% [{100 * r['low']:5.1f}%,"
            f" {100 * r['high']:5.1f}%]"
        )
        if "elo" in r:
            line += f" Elo {r['elo']:+.0f} [{r['elo_low']:+.0f}, {r['elo_high']:+.0f}]"
        else:
            line += f" fair share {100 * r['fair_share']:.1f}%"
        lines.append(line)
    return "\n".join(lines)
