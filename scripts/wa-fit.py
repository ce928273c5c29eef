#!/usr/bin/python3
"""wa-fit.py — fit a logistic regression of "this seat wins" on the Walls and Armies features
that scripts/wa-positions.c writes (self-play positions, one row per seat; a draw counts half),
and compare it with the hand-set evaluate (its value, the `hand` column) on held-out games.
Usage (docs/ai.md, "Strength changes tried"):

    build/wa-positions 1000 5001 easy > wa.csv
    /usr/bin/python3 scripts/wa-fit.py wa.csv [FEATURE ...]

Prints each weight (the first is the intercept) as C initialisers, and the log loss and Brier
score of the constant, the hand-set and the fitted evaluation on the games held out (every fifth
game).
"""
import csv
import sys

import numpy as np

from logistic import fit, scores


def load(path, wanted):
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        names = wanted or header[3:-2]
        cols = [header.index(n) for n in names]
        hand = header.index("hand")
        rows = [[float(r[c]) for c in cols] + [float(r[hand]), float(r[0]), float(r[-1])]
                for r in reader]
    data = np.array(rows)
    return names, data[:, :len(cols)], data[:, -3], data[:, -2].astype(int), data[:, -1]


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) > 1 else 2
    names, x, hand, game, y = load(sys.argv[1], sys.argv[2:])
    held = game % 5 == 4
    w = fit(x[~held], y[~held])
    xt = np.hstack([np.ones((held.sum(), 1)), x[held]])
    fitted = 1 / (1 + np.exp(-xt @ w))
    base = np.full(held.sum(), y[~held].mean())
    print(f"{len(y)} rows from {len(set(game))} games; held out {held.sum()} rows")
    for name, p in (("constant", base), ("hand-set", hand[held]), ("fitted", fitted)):
        loss, brier = scores(p, y[held])
        print(f"{name:10s} log loss {loss:.4f}  Brier {brier:.4f}")
    print("weights: intercept " + " ".join(f"{n} {v:+.4f}" for n, v in zip(names, w[1:])))
    print("C: {" + ", ".join(f"{v:.4f}" for v in w) + "}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
