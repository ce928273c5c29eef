"""Bot: the project's AIs from Python."""

import pytest

import ramparts


def test_bots_play_legal_moves(game_id):
    game = ramparts.load_game(game_id, seed=3)
    state = game.new_initial_state()
    bots = [ramparts.Bot("greedy", seed=1), ramparts.Bot("random", seed=2)]
    for _ in range(30):
        if state.is_terminal():
            break
        move = bots[state.current_player() % 2].step(state)
        assert move in state.legal_actions()
        state.apply_action(move)


def test_hint_gives_the_move_and_its_chance():
    state = ramparts.load_game("castle-danger").new_initial_state()
    hint = ramparts.Bot("mcts:iters=300", seed=4).hint(state)
    assert hint["action"] in state.legal_actions()
    assert hint["text"] == state.action_to_string(hint["action"])
    assert 0.0 <= hint["win_chance"] <= 1.0 and hint["iterations"] >= 300
    again = ramparts.Bot("mcts:iters=300", seed=4).hint(state)
    assert again == hint  # one thread, a seed and a budget: the same move


def test_hard_bot_steps():
    state = ramparts.load_game("walls-and-armies", seed=2).new_initial_state()
    bot = ramparts.Bot("hard")
    assert bot.spec == "hard" and repr(bot) == "Bot('hard')"
    assert bot.step(state) in state.legal_actions()


def test_beginner_bot_in_every_game_is_deterministic_from_its_seed(game_id):
    """Issue 43: the beginner level is a Bot like the others, its moves a function of its seed."""
    assert "beginner" in ramparts.Bot.specs()
    game = ramparts.load_game(game_id, seed=5)
    runs = []
    for _ in range(2):
        state = game.new_initial_state()
        bot = ramparts.Bot("beginner", seed=9)
        moves = []
        while not state.is_terminal() and len(moves) < 40:
            move = bot.step(state)
            assert move in state.legal_actions()
            moves.append(move)
            state.apply_action(move)
        runs.append(moves)
    assert runs[0] == runs[1] and runs[0]


def test_bad_specs_and_states_are_refused():
    with pytest.raises(ValueError, match="greedy"):  # the message lists the valid specs
        ramparts.Bot("grandmaster")
    with pytest.raises(ValueError, match="beginner"):  # a near miss is refused too
        ramparts.Bot("beginer")
    assert "random" in ramparts.Bot.specs()
    bot = ramparts.Bot("random")
    with pytest.raises(TypeError):
        bot.step("not a state")
    state = ramparts.load_game("castle-danger", turn_limit=1).new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(ValueError, match="over"):
        bot.step(state)
