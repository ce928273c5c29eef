"""arena(): pairings on shared deals with seats rotated, Python policies seeing only what their
seat may see."""

import ramparts
from ramparts.arena import _mover


def test_greedy_beats_random_at_castle_danger():
    game = ramparts.load_game("castle-danger", tournament=1)
    (row,) = ramparts.arena(game, ["greedy", "random"], games=20, seed=1)
    assert row["a"] == "greedy" and row["games"] == 20
    assert row["a_won"] + row["drawn"] + row["b_won"] == 20
    assert row["score"] >= 0.8 and row["low"] <= row["score"] <= row["high"]
    assert "greedy" in ramparts.format_arena([row])


def test_python_policies_take_part():
    game = ramparts.load_game("king-of-danger", players=3)

    def first_legal(state):
        return state.legal_actions()[0]

    rows = ramparts.arena(game, {"first": first_legal, "random": "random"}, games=6, seed=2)
    assert len(rows) == 1 and rows[0]["fair_share"] == 1 / 3 and "elo" not in rows[0]


def test_a_policy_sees_a_resampled_copy():
    game = ramparts.load_game("king-of-danger", players=4, seed=3)
    state = game.new_initial_state()
    seen = []
    mover = _mover(lambda s: seen.append(s) or s.legal_actions()[0], seed=5)
    move = mover(state)
    (copy,) = seen
    player = state.current_player()
    assert copy.view(player) == state.view(player)
    assert copy.legal_actions() == state.legal_actions() and move in state.legal_actions()
    assert copy.serialize() != state.serialize()  # the other hands were dealt anew
