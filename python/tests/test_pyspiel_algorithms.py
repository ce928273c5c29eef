"""OpenSpiel's MCTS, ISMCTS and outcome-sampling MCCFR, as re-implemented in
pyspiel_algorithms.py with the calls the originals make, running on ramparts.openspiel: the
searches beat random play, ISMCTS's resampled worlds keep the root's information state, and
MCCFR's tables fill from information_state_string with chance nodes (explicit_chance)."""

import numpy as np
import pytest

import ramparts.openspiel as pyspiel
from conftest import sized
from pyspiel_algorithms import ISMCTSBot, MCTSBot, OutcomeSamplingMCCFR, RandomRolloutEvaluator

# Games each search plays against random play: a few in `make test`, ten in `make soak`. The
# duels are seeded, so each size gives the same games every run (at 4 and 6: MCTS won all,
# ISMCTS 5 of 6; at 10: MCTS 10, ISMCTS 8).
MCTS_GAMES = sized(4, 10)
ISMCTS_GAMES = sized(6, 10)


def duel(game, choose, games, seed):
    """`choose(state) -> action` against uniform random play, seats alternating; chance
    decided by its probabilities. Returns the chooser's mean return."""
    rng = np.random.RandomState(seed)
    total = 0.0
    for g in range(games):
        me = g % game.num_players()
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                action = rng.choice(actions, p=probs)
            elif state.current_player() == me:
                action = choose(state)
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        total += state.returns()[me]
    return total / games


@pytest.mark.sized
def test_mcts_on_resampled_worlds_beats_random():
    """MCTS reads the whole state, so it searches a world resampled for the player to act
    (its opponent's hand, the decks' order and every later draw redrawn): it can neither see
    hidden cards nor the true game's future (determinized MCTS)."""
    game = pyspiel.load_game("danger-at-the-walls")
    bot = MCTSBot(game, 1.4, 40, RandomRolloutEvaluator(1, np.random.RandomState(1)))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0, 8)

    def choose(state):
        return bot.step(state.resample_from_infostate(state.current_player(), sampler))

    assert duel(game, choose, games=MCTS_GAMES, seed=2) >= 0.7


@pytest.mark.sized
def test_ismcts_beats_random_and_keeps_the_information_state():
    game = pyspiel.load_game("rush-the-wall(players=2)")
    bot = ISMCTSBot(game, RandomRolloutEvaluator(1, np.random.RandomState(3)), 1.4, 60)
    assert duel(game, bot.step, games=ISMCTS_GAMES, seed=4) >= 0.7


def test_resampled_worlds_keep_the_seats_information_state():
    """ISMCTS asserts it for every world it samples: the seat recalls the sample as it recalls
    the truth, move numbers included, and moves after the sample add to it."""
    game = pyspiel.load_game("king-of-danger(players=3)")
    state = game.new_initial_state()
    rng = np.random.RandomState(5)
    for _ in range(20):
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0, 9)
    world = state.resample_from_infostate(seat, sampler)
    assert world.information_state_string(seat) == state.information_state_string(seat)
    others = [p for p in range(3) if p != seat]
    screens = {p: world.observation_string(p) for p in others}
    action = world.legal_actions()[0]
    world.apply_action(action)
    assert world.information_state_string(seat).startswith(state.information_state_string(seat))
    assert "-- move 21" in world.information_state_string(seat)
    # Other seats never saw the sample's past: their recall starts at the sampled world.
    for p in others:
        assert world.information_state_string(p).startswith(screens[p])
        assert len(world.information_state_tensor(p)) == game.information_state_tensor_size()
    again = state.reseed(3)
    again.apply_action(again.legal_actions()[0])
    assert again.information_state_string(seat).startswith(state.observation_string(seat))


def test_outcome_sampling_mccfr_runs_over_chance_nodes():
    game = pyspiel.load_game("rush-the-wall(players=2,explicit_chance=true)")
    solver = OutcomeSamplingMCCFR(game, seed=6)
    for _ in range(20):
        solver.iteration()
    assert len(solver.infostates) > 40
    state = game.new_initial_state()
    rng = np.random.RandomState(7)
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choice(actions, p=probs))
    policy = solver.average_policy(state)
    assert sorted(a for a, _ in policy) == sorted(state.legal_actions())
    assert abs(sum(p for _, p in policy) - 1.0) < 1e-9
    # The tables are keyed by what the seat knows: both seats' first decisions were seen.
    first_keys = {k.split("-- move")[0] for k in solver.infostates}
    assert len(first_keys) > 2
