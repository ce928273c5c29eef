"""solve_small.py — the exact-solving example of docs/learning/solve.md: Walls and Armies under
its small deck option solved by CFR+ in C (ramparts.solve), the exploitability curve written as
CSV and drawn as PNG (matplotlib, when installed), and the average policy looked up by
information_state_string as an OpenSpiel tabular policy would be.

  PYTHONPATH=build/python /usr/bin/python3 python/examples/solve_small.py [--out docs/learning]
"""

import argparse
import csv
import os
import time

import ramparts

CONFIGS = [
    ("walls-and-armies(deck=6,turn-cap=2)", 2000, 50),
    ("walls-and-armies(deck=7,turn-cap=1)", 1000, 50),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/learning")
    args = parser.parse_args()
    rows = []
    for spec, iterations, every in CONFIGS:
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
        print(f"  after {last[0]}: exploitability {last[1]:.3g}, seat 0 (Blue) wins {last[2]:.4f}")
        policy = result.average_policy()
        print(f"  average policy: {len(policy)} information states keyed by "
              "information_state_string")
    path = os.path.join(args.out, "solve-walls-and-armies.csv")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["game", "iterations", "exploitability", "value_seat0"])
        for spec, it, e, v in rows:
            w.writerow([spec, it, f"{e:.9g}", f"{v:.9f}"])
    print("wrote", path)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    for spec, _, _ in CONFIGS:
        pts = [(it, e) for s, it, e, _ in rows if s == spec and e > 0]
        ax.loglog([p[0] for p in pts], [p[1] for p in pts], marker=".", label=spec)
    ax.set_xlabel("CFR+ iterations")
    ax.set_ylabel("exploitability (share of a win)")
    ax.set_title("Walls and Armies, small decks, solved exactly (CFR+ in C)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    png = os.path.join(args.out, "solve-walls-and-armies.png")
    fig.savefig(png, dpi=100)
    print("wrote", png)


if __name__ == "__main__":
    main()
