"""Shared fixtures of the Python tests: every game id, a seeded random playout, and the test
sizes (`make test` small, `make soak` with RAMPARTS_SOAK=1 full)."""

import os
import random

import pytest

import ramparts

GAMES = ramparts.games()
# `make soak` sets RAMPARTS_SOAK=1: the searches play more games there (README, Tests and checks).
SOAK = os.environ.get("RAMPARTS_SOAK") == "1"


def sized(small, full):
    """`small` in `make test`, `full` under RAMPARTS_SOAK=1 (`make soak`). A module whose
    checks grow in `make soak` marks itself `pytestmark = pytest.mark.sized`."""
    return full if SOAK else small


def pytest_configure(config):
    config.addinivalue_line("markers", "sized: a test whose size `make soak` sets (sized())")


def pytest_collection_modifyitems(config, items):
    """`make soak` runs after `make test` (.ci/run): there only the tests whose size it sets
    run again, as SOAK_SAME leaves out the C tests it would only repeat (Makefile)."""
    if not SOAK:
        return
    same = [item for item in items if item.get_closest_marker("sized") is None]
    if same:
        config.hook.pytest_deselected(items=same)
        items[:] = [item for item in items if item.get_closest_marker("sized") is not None]


def _players_ok(game_id, players):
    try:
        ramparts.load_game(game_id, players=players)
        return True
    except ValueError:
        return False


def game_setups(having=None):
    """(game id, players) for every game at 2 players (or its only count) and at its most;
    with `having` ("has_chance", "has_hidden_information"), only the games with that property,
    so that a test which does not apply to a game is not collected for it rather than skipped
    (a skip would read as a check that could not run: issue 48)."""
    out = []
    for g in GAMES:
        if having and not getattr(ramparts.load_game(g), having):
            continue
        counts = [p for p in range(1, 7) if _players_ok(g, p)]
        two = [c for c in counts if c >= 2]
        for p in sorted({two[0] if two else counts[0], counts[-1]}):
            out.append((g, p))
    return out


def random_states(game, seed, limit=400):
    """The states of one random game of `game` (a Game), first to last, at most `limit`."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    states = [state.clone()]
    while not state.is_terminal() and len(states) < limit:
        state.apply_action(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


@pytest.fixture(params=GAMES)
def game_id(request):
    return request.param


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A skipped test fails the run: a check that could not run is not a pass (issue 48).
    Tests that do not apply to a game are not collected for it (game_setups(having))."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped, and a skip fails here (issue 48): {report.longrepr}"
