"""Exact solving (issue 45) on the small options of Walls and Armies (deck, WA-P8) and King of
Danger's short game (KD-P6): the trees' information states have perfect recall, the best response to the uniform policy equals an
independent computation written here over the Python States, exploitability falls toward
zero, and the average policy is keyed by information_state_string."""

import pytest

import ramparts

SMALLEST = "walls-and-armies(deck=6,turn-cap=2)"
SMALL = "walls-and-armies(deck=7,turn-cap=1)"
KD_SHORT = "king-of-danger(players=2,deal=1+1)"


def explicit(spec):
    return ramparts.load_game(spec.replace(")", ",explicit_chance=true)"))


@pytest.mark.parametrize("spec", [SMALLEST, KD_SHORT])
def test_small_information_states_have_perfect_recall(spec):
    game = explicit(spec)
    seen = {}  # (seat, information state) -> (legal actions, the seat's own past)

    def visit(state, pasts):
        """pasts[seat]: the seat's own past, its information state at each earlier decision
        and the action it took there, carried down the walk."""
        if state.is_terminal():
            return
        if state.is_chance_node():
            for outcome, _ in state.chance_outcomes():
                visit(state.child(outcome), pasts)
            return
        seat = state.current_player()
        info = state.information_state_string(seat)
        legal = tuple(state.legal_actions())
        entry = (legal, pasts[seat])
        assert seen.setdefault((seat, info), entry) == entry, "two pasts, or two sets of moves"
        for a in legal:
            after = list(pasts)
            after[seat] = pasts[seat] + ((info, a),)
            visit(state.child(a), tuple(after))

    visit(game.new_initial_state(), ((),) * game.num_players())
    solver = ramparts.Solver(ramparts.load_game(spec))
    # the C solver keys its information states by hashed tensors, Python by strings: the same
    assert solver.num_infosets == len(seen) > 100
    assert solver.recall_breaks == 0
    assert ramparts.Solver(ramparts.load_game(SMALL)).recall_breaks == 0


def independent_best_response(game, seat):
    """Seat's best-response value to the uniform policy, the textbook way: the counterfactual
    reach of every node of each of seat's information states, then the best action of each by
    the reach-weighted values of its nodes' children, over Python States and strings."""
    members = {}  # information state -> [(state, reach of chance and the opponent)]

    def collect(state, reach):
        if state.is_terminal():
            return
        if state.is_chance_node():
            for outcome, p in state.chance_outcomes():
                collect(state.child(outcome), reach * p)
            return
        legal = state.legal_actions()
        if state.current_player() == seat:
            members.setdefault(state.information_state_string(seat), []).append((state, reach))
            for a in legal:
                collect(state.child(a), reach)
        else:
            for a in legal:
                collect(state.child(a), reach / len(legal))

    collect(game.new_initial_state(), 1.0)
    best, values = {}, {}

    def value(state, key):
        if key in values:
            return values[key]
        if state.is_terminal():
            v = state.returns()[seat]
        elif state.is_chance_node():
            v = sum(p * value(state.child(o), key + (o,)) for o, p in state.chance_outcomes())
        elif state.current_player() == seat:
            info = state.information_state_string(seat)
            if info not in best:
                q = {a: 0.0 for a in state.legal_actions()}
                for h, reach in members[info]:
                    for a in q:
                        q[a] += reach * value(h.child(a), tuple(h.history()) + (a,))
                best[info] = max(q, key=q.get)
            a = best[info]
            v = value(state.child(a), key + (a,))
        else:
            legal = state.legal_actions()
            v = sum(value(state.child(a), key + (a,)) for a in legal) / len(legal)
        values[key] = v
        return v

    return value(game.new_initial_state(), ())


def test_best_response_to_uniform_matches_an_independent_computation():
    solver = ramparts.Solver(ramparts.load_game(SMALLEST))
    game = explicit(SMALLEST)
    for seat in (0, 1):
        expected = independent_best_response(game, seat)
        assert solver.best_response(seat, "uniform") == pytest.approx(expected, abs=1e-12)
    # the uniform policy is exploitable, so a best response gains over playing it
    assert solver.exploitability("uniform") > 1e-3
    assert solver.best_response(0, "uniform") > solver.value(0, "uniform") + 1e-3


@pytest.mark.parametrize("spec", [SMALLEST, SMALL, KD_SHORT])
def test_exploitability_falls_toward_zero(spec):
    result = ramparts.solve(spec, iterations=200, every=50)
    uniform = result.solver.exploitability("uniform")
    first, last = result.curve[0][1], result.curve[-1][1]
    assert [row[0] for row in result.curve] == [50, 100, 150, 200]
    assert 0 <= last < first < uniform
    assert last < uniform / 100
    # equal returns for equal histories: the value of the average policy sums to 1 over seats
    assert result.solver.value(0) + result.solver.value(1) == pytest.approx(1.0)


def test_average_policy_is_keyed_by_information_state_string():
    result = ramparts.solve(SMALLEST, iterations=50, every=50)
    policy = result.average_policy()
    assert len(policy) == result.solver.num_infosets
    game = explicit(SMALLEST)
    for seat, history, actions, probs in result.solver.infosets()[:40]:
        state = game.new_initial_state()
        for a in history:
            state.apply_action(a)
        assert state.current_player() == seat and sorted(state.legal_actions()) == sorted(actions)
        assert sum(policy[state.information_state_string(seat)].values()) == pytest.approx(1.0)


def test_what_cannot_be_solved_is_refused():
    with pytest.raises(ValueError, match="more than 1000 nodes"):
        ramparts.Solver(ramparts.load_game(SMALL), max_nodes=1000)
    with pytest.raises(ValueError, match="two seats"):
        ramparts.Solver(ramparts.load_game("king-of-danger", players=3))
    with pytest.raises(ValueError, match="deck"):
        ramparts.load_game("walls-and-armies", deck=5)
    # King of Danger's whole two-player game; its short game's options out of range (KD-P6)
    with pytest.raises(ValueError, match="more than 600 moves"):
        ramparts.Solver(ramparts.load_game("king-of-danger", players=2))
    for deal in ("5+1", "1+0", "1"):
        with pytest.raises(ValueError, match="deal=.*PILES"):
            ramparts.load_game("king-of-danger(players=2,deal=%s)" % deal)
    with pytest.raises(ValueError, match="for two players"):
        ramparts.load_game("king-of-danger(players=4,deal=1+1)")
    solver = ramparts.Solver(ramparts.load_game(SMALLEST))
    with pytest.raises(ValueError, match="policy"):
        solver.exploitability("best")
    with pytest.raises(ValueError, match="seat"):
        solver.best_response(2)
