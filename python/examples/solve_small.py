"""solve_small.py — the exact-solving example of docs/learning/solve.md: Walls and Armies under
its small deck option (WA-P8) and King of Danger's short game (KD-P6) solved by CFR+ in C
(ramparts.solve), each game's exploitability curves written as CSV and drawn as PNG
(matplotlib, when installed), and the average policy looked up by information_state_string as
an OpenSpiel tabular policy would be.

  PYTHONPATH=build/python /usr/bin/python3 python/examples/solve_small.py [--out docs/learning]
"""

import argparse
import csv
import os
import time

import ramparts

# (file name, title, [(game, iterations, every)])
GAMES = [
    ("solve-walls-and-armies", "Walls and Armies, small decks, solved exactly (CFR+ in C)", [
        ("walls-and-armies(deck=6,turn-cap=2)", 2000, 50),
        ("walls-and-armies(deck=7,turn-cap=1)", 1000, 50),
    ]),
    ("solve-king-of-danger", "King of Danger, short games, solved exactly (CFR+ in C)", [
        ("king-of-danger(players=2,deal=0+2)", 2000, 50),
        ("king-of-danger(players=2,deal=1+1)", 1000, 50),
        ("king-of-danger(players=2,deal=0+3)", 500, 50),
    ]),
]


def solve_rows(configs):
    """Solve each configuration, print its figures; the curve's rows."""
    rows = []
    for spec, iterations, every in configs:
        start = time.process_time()
        result = ramparts.solve(spec, iterations=iterations, every=every)
        spent = time.process_time() - start
        s = result.solver
        print(f"{spec}: {s.nodes} nodes, {s.num_infosets} information states, "
              f"recall breaks {s.recall_breaks}; uniform policy exploitability "
              f"{s.exploitability('uniform'):.6f}; {iterations} iterations in {spent:.1f} s")
        for it, e, v in result.curve:
            rows.append((spec, it, e, v))
        last = result.curve[-1]
        print(f"  after {last[0]}: exploitability {last[1]:.3g}, seat 0 (Blue) wins {last[2]:.6f}")
        policy = result.average_policy()
        print(f"  average policy: {len(policy)} information states keyed by "
              "information_state_string")
    return rows


def draw(rows, configs, title, png):
    """The curves on log-log axes, when matplotlib is installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    for spec, _, _ in configs:
        pts = [(it, e) for s, it, e, _ in rows if s == spec and e > 0]
        ax.loglog([p[0] for p in pts], [p[1] for p in pts], marker=".", label=spec)
    ax.set_xlabel("CFR+ iterations")
    ax.set_ylabel("exploitability (share of a win)")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    print("wrote", png)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/learning")
    args = parser.parse_args()
    for name, title, configs in GAMES:
        rows = solve_rows(configs)
        path = os.path.join(args.out, name + ".csv")
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["game", "iterations", "exploitability", "value_seat0"])
            for spec, it, e, v in rows:
                w.writerow([spec, it, f"{e:.9g}", f"{v:.9f}"])
        print("wrote", path)
        draw(rows, configs, title, os.path.join(args.out, name + ".png"))


if __name__ == "__main__":
    main()
