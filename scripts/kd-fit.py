#!/usr/bin/python3
"""kd-fit.py — fit a logistic regression of "this seat wins" on the King of Danger features that
scripts/kd-positions.c writes (self-play positions, one row per seat), and compare it with the
hand-set evaluate (sigmoid(lead / 4)) on held-out games. Usage (docs/ai.md, "Strength changes
tried"):

    build/kd-positions 4 1000 5001 easy > kd4.csv
    /usr/bin/python3 scripts/kd-fit.py kd4.csv [FEATURE ...]

Prints each weight (the first is the intercept) as C initialisers, and the log loss and Brier
score of both evaluations on the games held out (every fifth game).
"""
import csv
import sys

import numpy as np

from logistic import fit, scores


def load(path, wanted):
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        names = wanted or [h for h in header[3:-1]]
        cols = [header.index(n) for n in names]
        lead = header.index("lead")
        rows = [[float(r[c]) for c in cols] + [float(r[lead]), float(r[1]), float(r[0]), float(r[-1])]
                for r in reader]
    data = np.array(rows)
    return (names, data[:, :len(cols)], data[:, len(cols)], data[:, -2].astype(int), data[:, -1],
            int(data[0, -3]))


def shares(p, players):
    """Each seat's value scaled to sum to 1 over the seats of its position, as the search does
    (evaluate_all in src/ai/search.c); rows come in blocks of one position's seats."""
    blocks = p.reshape(-1, players)
    return (blocks / blocks.sum(axis=1, keepdims=True)).reshape(-1)


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) > 1 else 2
    names, x, lead, game, y, players = load(sys.argv[1], sys.argv[2:])
    held = game % 5 == 4
    w = fit(x[~held], y[~held])
    xt = np.hstack([np.ones((held.sum(), 1)), x[held]])
    fitted = 1 / (1 + np.exp(-xt @ w))
    hand = 1 / (1 + np.exp(-lead[held]))  # the lead column is already over 4
    base = np.full(held.sum(), y[~held].mean())
    print(f"{len(y)} rows from {len(set(game))} games; held out {held.sum()} rows")
    for name, p in (("constant", base), ("hand-set", hand), ("fitted", fitted)):
        loss, brier = scores(p, y[held])
        share = shares(p, players)
        winner = -np.mean(np.log(np.clip(share[y[held] == 1], 1e-6, 1)))
        print(f"{name:10s} log loss {loss:.4f}  Brier {brier:.4f}  "
              f"scaled to shares: Brier {np.mean((share - y[held]) ** 2):.4f}, "
              f"winner's log share {winner:.4f}")
    print("weights: intercept " + " ".join(f"{n} {v:+.4f}" for n, v in zip(names, w[1:])))
    print("C: {" + ", ".join(f"{v:.4f}" for v in w) + "}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
