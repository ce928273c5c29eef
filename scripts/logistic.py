"""logistic.py — the logistic regression and its scores that scripts/kd-fit.py and
scripts/wa-fit.py share (docs/ai.md, "Strength changes tried")."""
import numpy as np


def fit(x, y, ridge=1e-3, steps=50):
    """Newton's method (iteratively reweighted least squares) with a small ridge."""
    x = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-x @ w))
        grad = x.T @ (p - y) + ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-9:
            break
    return w


def scores(p, y):
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)), np.mean((p - y) ** 2)
