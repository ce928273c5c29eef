"""pyspiel's names and ids over Ramparts, so an algorithm written for pyspiel runs unchanged:

    import ramparts.openspiel as pyspiel
    game = pyspiel.load_game("walls-and-armies(seed=3)")
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])

Player ids are pyspiel's (TERMINAL -4, CHANCE -1, SIMULTANEOUS -2, INVALID -3): ramparts'
own State says TERMINAL as -1 and CHANCE as -3. By default chance is sampled inside
apply_action from the state's own generator, so no state is a chance node (chance_mode
SAMPLED_STOCHASTIC); load_game("id(explicit_chance=true)") makes every chance event a chance
node (EXPLICIT_STOCHASTIC) for algorithms that need them (CFR, expectimax).
"""

import enum
from dataclasses import dataclass, field

import ramparts
from ramparts._games import load_game as _load_ramparts_game


class PlayerId(enum.IntEnum):
    DEFAULT_PLAYER_ID = 0
    CHANCE = -1
    SIMULTANEOUS = -2
    INVALID = -3
    TERMINAL = -4
    MEAN_FIELD = -5


INVALID_ACTION = -1


class SpielError(RuntimeError):
    """pyspiel.SpielError: what pyspiel raises, and algorithms raise, on misuse."""


class Bot:
    """pyspiel.Bot: the base class bots written for pyspiel derive from (MCTSBot, ISMCTSBot)."""

    def __init__(self):
        pass

    def restart_at(self, state):
        pass

    def step(self, state):
        raise NotImplementedError


class UniformProbabilitySampler:
    """pyspiel.UniformProbabilitySampler(min, max[, seed]): a callable drawing uniformly from
    [min, max); resample_from_infostate takes it as its sampler."""

    def __init__(self, low=0.0, high=1.0, seed=None):
        import random

        self._low, self._high = low, high
        self._random = random.Random(seed)

    def __call__(self):
        return self._low + (self._high - self._low) * self._random.random()


class GameType:
    """pyspiel.GameType's enums and fields."""

    class Dynamics(enum.Enum):
        SEQUENTIAL = 1
        SIMULTANEOUS = 0
        MEAN_FIELD = 2

    class ChanceMode(enum.Enum):
        DETERMINISTIC = 0
        EXPLICIT_STOCHASTIC = 1
        SAMPLED_STOCHASTIC = 2

    class Information(enum.Enum):
        ONE_SHOT = 0
        PERFECT_INFORMATION = 1
        IMPERFECT_INFORMATION = 2

    class Utility(enum.Enum):
        ZERO_SUM = 0
        CONSTANT_SUM = 1
        GENERAL_SUM = 2
        IDENTICAL = 3

    class RewardModel(enum.Enum):
        REWARDS = 0
        TERMINAL = 1


@dataclass(frozen=True)
class GameTypeInfo:
    """The value of Game.get_type(), with pyspiel.GameType's field names."""

    short_name: str
    long_name: str
    dynamics: GameType.Dynamics
    chance_mode: GameType.ChanceMode
    information: GameType.Information
    utility: GameType.Utility
    reward_model: GameType.RewardModel
    max_num_players: int
    min_num_players: int
    provides_information_state_string: bool = True
    provides_information_state_tensor: bool = True
    provides_observation_string: bool = True
    provides_observation_tensor: bool = True
    parameter_specification: dict = field(default_factory=dict)


def _mix(x):
    """SplitMix64's finaliser: well-spread 64-bit seeds from consecutive numbers."""
    x &= 2**64 - 1
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
    return x ^ (x >> 31)


def registered_names():
    """The game ids, as pyspiel.registered_names()."""
    return ramparts.games()


def load_game(name, params=None):
    """A Game from "id", "id(key=value,...)" (pyspiel's string), or an id and a params dict."""
    return Game(_load_ramparts_game(name, **dict(params or {})))


class Game:
    """A ramparts Game with pyspiel's method names."""

    def __init__(self, game):
        self._game = game
        self._deals = 0  # new_initial_state() calls without a seed so far

    @property
    def ramparts_game(self):
        return self._game

    def get_type(self):
        g = self._game
        specs = {o["name"]: o["default"] for o in g.option_specs()}
        specs["explicit_chance"] = False
        players = [p for p in range(1, 9) if _accepts(g.id, p)]
        return GameTypeInfo(
            short_name=g.id,
            long_name=g.title,
            dynamics=GameType.Dynamics.SEQUENTIAL,
            chance_mode=(
                GameType.ChanceMode.DETERMINISTIC
                if not g.has_chance
                else GameType.ChanceMode.EXPLICIT_STOCHASTIC
                if g.explicit_chance
                else GameType.ChanceMode.SAMPLED_STOCHASTIC
            ),
            information=(
                GameType.Information.IMPERFECT_INFORMATION
                if g.has_hidden_information
                else GameType.Information.PERFECT_INFORMATION
            ),
            utility=GameType.Utility.CONSTANT_SUM,
            reward_model=GameType.RewardModel.TERMINAL,
            max_num_players=max(players),
            min_num_players=min(players),
            parameter_specification=specs,
        )

    def new_initial_state(self, seed=None):
        """A new game. Without a seed each call deals anew, as OpenSpiel's loops expect (a
        fresh deal per episode): the k-th such call deals from a seed mixed from the game's
        seed and k, so a run is still reproducible from the game's seed; with one, that deal."""
        if seed is None:
            seed = _mix(self._game.seed + 0x9E3779B97F4A7C15 * (self._deals + 1))
            self._deals += 1
        return State(self, self._game.new_initial_state(seed=seed))

    def deserialize_state(self, text):
        return State(self, self._game.deserialize_state(text))

    def num_players(self):
        return self._game.num_players()

    def num_distinct_actions(self):
        return self._game.num_distinct_actions()

    def max_chance_outcomes(self):
        """0 when chance is sampled; under explicit chance the most outcomes of one chance
        event: each is a step of a shuffle or a small uniform choice, so the largest is the
        largest pile shuffled (test_openspiel.py checks random games against it)."""
        if not self._game.explicit_chance:
            return 0
        return self._game.max_chance_outcomes

    def min_utility(self):
        return self._game.min_utility()

    def max_utility(self):
        return self._game.max_utility()

    def utility_sum(self):
        return self._game.utility_sum()

    def observation_tensor_shape(self):
        return list(self._game.observation_tensor_shape())

    def observation_tensor_size(self):
        return self._game.observation_tensor_size()

    def max_game_length(self):
        return self._game.max_game_length()

    def information_state_tensor_shape(self):
        return list(self._game.information_state_tensor_shape())

    def information_state_tensor_size(self):
        return self._game.information_state_tensor_size()

    def get_parameters(self):
        return dict(kv.split("=", 1) for kv in self._game.options_text().split())

    def __str__(self):
        return f"{self._game.id}({','.join(self._game.options_text().split())})"

    def __eq__(self, other):
        return isinstance(other, Game) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))


def _accepts(game_id, players):
    try:
        ramparts.load_game(game_id, players=players)
        return True
    except ValueError:
        return False


def _player(p):
    if p == ramparts.TERMINAL:
        return PlayerId.TERMINAL
    return PlayerId.CHANCE if p == ramparts.CHANCE else p


class State:
    """A ramparts State with pyspiel's ids and names."""

    def __init__(self, game, state):
        self._game, self._state = game, state

    @property
    def ramparts_state(self):
        return self._state

    def get_game(self):
        return self._game

    def current_player(self):
        return int(_player(self._state.current_player()))

    def is_terminal(self):
        return self._state.is_terminal()

    def is_chance_node(self):
        return self._state.is_chance_node()

    def is_simultaneous_node(self):
        return False

    def is_player_node(self):
        return not self._state.is_terminal() and not self._state.is_chance_node()

    def chance_outcomes(self):
        return self._state.chance_outcomes()

    def num_players(self):
        return self._state.num_players()

    def legal_actions(self, player=None):
        if player == PlayerId.CHANCE:
            player = ramparts.CHANCE
        return self._state.legal_actions(player)

    def legal_actions_mask(self, player=None):
        if player is not None and player != self.current_player():
            return [0] * self._game.num_distinct_actions()
        return [int(x) for x in self._state.legal_actions_mask()]

    def apply_action(self, action):
        self._state.apply_action(action)

    def child(self, action):
        return State(self._game, self._state.child(action))

    def undo_action(self, player, action):
        self._state.undo_action(ramparts.CHANCE if player == PlayerId.CHANCE else player, action)

    def clone(self):
        return State(self._game, self._state.clone())

    def returns(self):
        return self._state.returns()

    def rewards(self):
        return self._state.rewards()

    def player_return(self, player):
        return self._state.player_return(player)

    def history(self):
        return self._state.history()

    def history_str(self):
        return ", ".join(str(a) for a in self._state.history())

    def move_number(self):
        return self._state.move_number()

    def information_state_string(self, player=None):
        return self._state.information_state_string(self._seat(player))

    def information_state_tensor(self, player=None):
        return self._state.information_state_tensor(self._seat(player)).tolist()

    def observation_string(self, player=None):
        return self._state.observation_string(self._seat(player))

    def observation_tensor(self, player=None):
        return self._state.observation_tensor(self._seat(player)).tolist()

    def action_to_string(self, *args):
        return self._state.action_to_string(*args)

    def string_to_action(self, *args):
        return self._state.string_to_action(*args)

    def resample_from_infostate(self, player, probability_sampler):
        """A state `player` cannot tell from this one; probability_sampler is pyspiel's
        callable returning a float in [0, 1) (or an int seed)."""
        seed = probability_sampler if isinstance(probability_sampler, int) else None
        if seed is None:
            seed = int(probability_sampler() * 2**62)
        return State(self._game, self._state.resample_from_infostate(player, seed))

    def reseed(self, seed):
        """A state every seat sees as this one, with what nobody knows drawn anew."""
        return State(self._game, self._state.reseed(seed))

    def serialize(self):
        return self._state.serialize()

    def _seat(self, player):
        if player is None:
            player = self._state.current_player()
            return 0 if player < 0 else player
        return player

    def __str__(self):
        return self._state.serialize()

    def __eq__(self, other):
        return isinstance(other, State) and self._state == other._state

    def __hash__(self):
        return hash(self._state)

