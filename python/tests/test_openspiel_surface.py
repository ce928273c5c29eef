"""The pyspiel surface OpenSpiel's python/algorithms and python/rl_environment call (issue 45),
written out with our own code, since the tests cannot fetch OpenSpiel: the names their imports
need, registered_games, serialize_game_and_state, Bot's defaults as evaluate_bots and
UniformRandomBot use them, and tensors as numpy arrays."""

import numpy as np
import pytest

import ramparts.openspiel as pyspiel
from conftest import GAMES


def test_the_names_openspiel_imports_need(monkeypatch):
    monkeypatch.setattr(pyspiel, "_python_games", {})  # registrations end with the test
    # observation.py builds this at import, which the mccfr / cfr / exploitability chain reaches
    obs_type = pyspiel.IIGObservationType(perfect_recall=True)
    assert obs_type.perfect_recall and obs_type.public_info
    assert obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
    assert {p.name for p in pyspiel.PrivateInfoType} == {"NONE", "SINGLE_PLAYER", "ALL_PLAYERS"}
    # OpenSpiel's Python games build a GameType and a GameInfo, then register the game
    game_type = pyspiel.GameType(
        short_name="python_test_game",
        long_name="A test game",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": 2},
    )
    info = pyspiel.GameInfo(
        num_distinct_actions=2, max_chance_outcomes=3, num_players=2, min_utility=-2.0,
        max_utility=2.0, utility_sum=0.0, max_game_length=3,
    )
    assert info.num_distinct_actions == 2 and game_type.max_num_players == 2
    with pytest.raises(TypeError, match="no_such_field"):
        pyspiel.GameType(no_such_field=1)

    class PythonGame(pyspiel.Game):
        pass

    class PythonStruct(pyspiel.StateStruct):
        pass

    pyspiel.register_game(game_type, PythonGame)
    assert "python_test_game" in pyspiel.registered_names()
    assert game_type in pyspiel.registered_games()
    with pytest.raises(pyspiel.SpielError, match="OpenSpiel's Python games"):
        pyspiel.load_game("python_test_game")


def test_registered_games_are_game_types():
    types = pyspiel.registered_games()
    names = [t.short_name for t in types]
    for game_id in GAMES:
        assert game_id in names
        t = types[names.index(game_id)]
        assert t == pyspiel.load_game(game_id).get_type()
        assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert t.provides_observation_tensor and t.provides_information_state_string


class UniformRandomBot(pyspiel.Bot):
    """The shape of OpenSpiel's bots/uniform_random.py: calls the base __init__, defines only
    step, restart_at and the policy calls, and relies on the base for inform_action."""

    def __init__(self, player_id, rng):
        pyspiel.Bot.__init__(self)
        self._player_id, self._rng = player_id, rng

    def restart_at(self, state):
        pass

    def provides_policy(self):
        return True

    def step_with_policy(self, state):
        legal = state.legal_actions(self._player_id)
        if not legal:
            return [], pyspiel.INVALID_ACTION
        p = 1 / len(legal)
        return [(a, p) for a in legal], self._rng.choice(legal)

    def step(self, state):
        return self.step_with_policy(state)[1]


def evaluate_bots(state, bots, rng):
    """The calls of OpenSpiel's algorithms/evaluate_bots.py, chance nodes included."""
    for bot in bots:
        bot.restart_at(state)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            action = rng.choice(outcomes, p=probs)
            for bot in bots:
                bot.inform_action(state, pyspiel.PlayerId.CHANCE, action)
        else:
            player = state.current_player()
            action = bots[player].step(state)
            for i, bot in enumerate(bots):
                if i != player:
                    bot.inform_action(state, player, action)
        state.apply_action(action)
    return state.returns()


@pytest.mark.parametrize("explicit", [False, True])
def test_evaluate_bots_with_a_uniform_random_bot(explicit):
    game = pyspiel.load_game(f"walls-and-armies(turn-cap=6,explicit_chance={str(explicit).lower()})")
    rng = np.random.RandomState(4)
    bots = [UniformRandomBot(p, rng) for p in range(2)]
    returns = evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == 2 and sum(returns) == pytest.approx(1.0)
    assert bots[0].provides_policy() and not pyspiel.Bot().provides_policy()
    with pytest.raises(pyspiel.SpielError):
        pyspiel.Bot().step_with_policy(None)


@pytest.mark.parametrize("explicit", [False, True])
def test_serialize_game_and_state_round_trips(explicit):
    game = pyspiel.load_game(f"rush-the-wall(players=2,explicit_chance={str(explicit).lower()})")
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    for _ in range(12):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(int(rng.choice([o for o, _ in state.chance_outcomes()])))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert game2 == game and state2.history() == state.history()
    assert state2.is_chance_node() == state.is_chance_node()
    if not state.is_chance_node():
        assert state2.serialize() == state.serialize()
    # a state loaded from notation has no seeded history: its notation goes instead
    if not state.is_chance_node() and not explicit:
        loaded = game.deserialize_state(state.serialize())
        _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, loaded))
        assert again.serialize() == state.serialize()
    with pytest.raises(pyspiel.SpielError):
        pyspiel.deserialize_game_and_state("game=rush-the-wall\nbogus=1\n")


def test_tensors_are_numpy_arrays_without_a_list():
    game = pyspiel.load_game("walls-and-armies(turn-cap=10)")
    state = game.new_initial_state()
    obs = state.observation_tensor(0)
    assert isinstance(obs, np.ndarray) and obs.dtype == np.float32
    assert obs.shape == tuple(game.observation_tensor_shape())
    info = state.information_state_tensor(1)
    assert isinstance(info, np.ndarray) and info.size == game.information_state_tensor_size()


def test_rl_environment_gets_arrays_not_lists():
    # rl_environment takes information-state tensors by default (every game provides them) and
    # puts them in its observations as they come: a numpy array written in C, where a list of
    # millions of floats took 1.29 s a Rush the Wall step
    for game_id in GAMES:
        game = pyspiel.load_game(game_id)
        assert game.get_type().provides_information_state_tensor
        state = game.new_initial_state()
        for player in range(game.num_players()):
            tensor = state.information_state_tensor(player)
            assert isinstance(tensor, np.ndarray) and tensor.dtype == np.float32
            assert tensor.shape == (game.information_state_tensor_size(),)


def test_new_initial_states_is_one_root():
    # get_all_states (policy.TabularPolicy, best_response, nash_conv) walks from each of them
    game = pyspiel.load_game("walls-and-armies(deck=6,turn-cap=2,explicit_chance=true)")
    roots = game.new_initial_states()
    assert len(roots) == 1 and roots[0].is_chance_node() and roots[0].history() == []


def test_tabular_best_response_as_exploitability_calls_it():
    # OpenSpiel's exploitability.exploitability: policy_to_dict, then for each seat
    # TabularBestResponse(game, seat, policy).get_best_response_actions() and the value
    import ramparts

    spec = "walls-and-armies(deck=6,turn-cap=2,explicit_chance=true)"
    game = pyspiel.load_game(spec)
    table, stack = {}, [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_player_node():
            legal = state.legal_actions()
            table[state.information_state_string()] = [(a, 1 / len(legal)) for a in legal]
        stack.extend(state.child(a) for a in state.legal_actions())
    solver = ramparts.Solver(ramparts.load_game("walls-and-armies(deck=6,turn-cap=2)"))
    for seat in (0, 1):
        br = pyspiel.TabularBestResponse(game, seat, table)
        actions = br.get_best_response_actions()
        assert actions and all(a in dict(table[info]) for info, a in actions.items())
        assert br.value(game.new_initial_state()) == pytest.approx(
            solver.best_response(seat, "uniform"), abs=1e-12)
    with pytest.raises(pyspiel.SpielError, match="explicit_chance"):
        pyspiel.TabularBestResponse(pyspiel.load_game("walls-and-armies(deck=6)"), 0, table)
    with pytest.raises(pyspiel.SpielError, match="no entry"):
        pyspiel.TabularBestResponse(game, 0, {}).get_best_response_actions()
