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
    """pyspiel.Bot: the base class bots written for pyspiel derive from (MCTSBot, ISMCTSBot,
    UniformRandomBot), with pyspiel's defaults: informing a bot of a move does nothing, a bot
    provides no policy unless it says so."""

    def __init__(self):
        pass

    def restart_at(self, state):
        pass

    def restart(self):
        pass

    def step(self, state):
        raise NotImplementedError

    def inform_action(self, state, player_id, action):
        pass

    def inform_actions(self, state, actions):
        pass

    def provides_force_action(self):
        return False

    def force_action(self, state, action):
        pass

    def provides_policy(self):
        return False

    def get_policy(self, state):
        raise SpielError("this bot provides no policy")

    def step_with_policy(self, state):
        raise SpielError("this bot provides no policy")

    def is_clonable(self):
        return False


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
    """pyspiel.GameType: its enums, and its fields as keyword arguments (OpenSpiel's Python
    games build one at import time to register themselves)."""

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

    _FIELDS = {
        "short_name": "",
        "long_name": "",
        "dynamics": None,
        "chance_mode": None,
        "information": None,
        "utility": None,
        "reward_model": None,
        "max_num_players": 0,
        "min_num_players": 0,
        "provides_information_state_string": False,
        "provides_information_state_tensor": False,
        "provides_observation_string": False,
        "provides_observation_tensor": False,
        "parameter_specification": None,
        "default_loadable": True,
        "provides_factored_observation_string": False,
    }

    def __init__(self, **fields):
        unknown = set(fields) - set(self._FIELDS)
        if unknown:
            raise TypeError(f"GameType has no field {sorted(unknown)[0]!r}")
        for name, default in self._FIELDS.items():
            value = fields.get(name, default)
            setattr(self, name, dict(value or {}) if name == "parameter_specification" else value)

    def __eq__(self, other):
        return isinstance(other, GameType) and vars(self) == vars(other)

    def __hash__(self):
        return hash(self.short_name)

    def __repr__(self):
        return f"GameType(short_name={self.short_name!r})"


# The name this module gave get_type()'s value before GameType took fields.
GameTypeInfo = GameType


@dataclass(frozen=True)
class GameInfo:
    """pyspiel.GameInfo: the numbers a game reports (OpenSpiel's Python games build one)."""

    num_distinct_actions: int
    max_chance_outcomes: int
    num_players: int
    min_utility: float
    max_utility: float
    utility_sum: float = None
    max_game_length: int = 0


class PrivateInfoType(enum.Enum):
    """pyspiel.PrivateInfoType: whose private information an observation holds."""

    NONE = 0
    SINGLE_PLAYER = 1
    ALL_PLAYERS = 2


@dataclass(frozen=True)
class IIGObservationType:
    """pyspiel.IIGObservationType: what an observer sees. open_spiel/python/observation.py makes
    one at import (INFO_STATE_OBS_TYPE), so the mccfr, cfr and exploitability imports need it;
    Game.make_observer is not provided (observation_tensor and information_state_tensor are)."""

    public_info: bool = True
    perfect_recall: bool = False
    private_info: PrivateInfoType = PrivateInfoType.SINGLE_PLAYER


class StateStruct:
    """pyspiel.StateStruct: a base class some of OpenSpiel's Python games derive from at
    import; it carries nothing here."""

    def __init__(self, **fields):
        for name, value in fields.items():
            setattr(self, name, value)


def _mix(x):
    """SplitMix64's finaliser: well-spread 64-bit seeds from consecutive numbers."""
    x &= 2**64 - 1
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
    return x ^ (x >> 31)


# Games registered from Python with register_game (OpenSpiel's python/games register theirs
# on import): short name -> (GameType, the class). They are listed, not run: see load_game.
_python_games = {}


def register_game(game_type, game_class):
    """pyspiel.register_game: records the game so that importing OpenSpiel's
    open_spiel.python.games (which get_all_states, cfr and best_response import) works; this
    module runs only the five Ramparts games, so load_game refuses a registered one."""
    _python_games[game_type.short_name] = (game_type, game_class)


def registered_names():
    """The game ids, as pyspiel.registered_names()."""
    return ramparts.games() + sorted(_python_games)


def registered_games():
    """The GameType of each game, as pyspiel.registered_games() (rl_environment lists them)."""
    return [load_game(g).get_type() for g in ramparts.games()] + [
        t for t, _ in (_python_games[k] for k in sorted(_python_games))
    ]


def load_game(name, params=None):
    """A Game from "id", "id(key=value,...)" (pyspiel's string), or an id and a params dict."""
    if isinstance(name, str) and name.split("(", 1)[0] in _python_games:
        raise SpielError(
            f"{name.split('(', 1)[0]} is one of OpenSpiel's Python games: ramparts.openspiel "
            "runs only the Ramparts games (" + ", ".join(ramparts.games()) + ")"
        )
    return Game(_load_ramparts_game(name, **dict(params or {})))


class TabularBestResponse:
    """pyspiel.TabularBestResponse(game, best_responder, policy): the best response of one seat
    to a tabular policy of the others ({information_state_string: [(action, probability)]},
    what OpenSpiel's policy_utils.policy_to_dict makes), so that OpenSpiel's
    exploitability.exploitability and CPPBestResponsePolicy run unmodified. It walks the whole
    tree in Python: for a game of small options under explicit_chance=true (for exact figures
    at speed, ramparts.Solver does this in C)."""

    def __init__(self, game, best_responder, policy):
        if game.get_type().chance_mode == GameType.ChanceMode.SAMPLED_STOCHASTIC:
            raise SpielError(
                "TabularBestResponse walks every chance outcome: load the game with "
                "explicit_chance=true"
            )
        self._game, self._seat = game, best_responder
        self._policy = {k: dict(v) for k, v in policy.items()}
        self._best = None

    def _others(self, state):
        info = state.information_state_string(state.current_player())
        if info not in self._policy:
            raise SpielError(f"the policy has no entry for an information state: {info[:80]!r}")
        return self._policy[info].items()

    def _compute(self):
        # The nodes of each of the seat's information states with their reach by chance and the
        # others (outer walk), then each state's best action, deepest states first (a state's
        # children lie deeper, so their values are known when it is chosen).
        seat, nodes, order = self._seat, {}, []
        stack = [(self._game.new_initial_state(), 1.0, 0)]
        while stack:
            state, reach, depth = stack.pop()
            if state.is_terminal():
                continue
            if state.is_chance_node():
                moves = state.chance_outcomes()
            elif state.current_player() == seat:
                info = state.information_state_string(seat)
                if info not in nodes:
                    nodes[info] = []
                    order.append(info)
                nodes[info].append((state, reach, depth))
                moves = [(a, 1.0) for a in state.legal_actions()]
            else:
                moves = list(self._others(state))
            for a, p in moves:
                stack.append((state.child(a), reach * p, depth + 1))
        self._best, self._values = {}, {}
        for info in sorted(order, key=lambda i: -min(d for _, _, d in nodes[i])):
            q = {}
            for state, reach, _ in nodes[info]:
                for a in state.legal_actions():
                    q[a] = q.get(a, 0.0) + reach * self._value(state.child(a))
            self._best[info] = max(q, key=q.get)

    def _value(self, state):
        key = tuple(state.history())
        if key in self._values:
            return self._values[key]
        if state.is_terminal():
            v = state.player_return(self._seat)
        elif state.is_chance_node():
            v = sum(p * self._value(state.child(a)) for a, p in state.chance_outcomes())
        elif state.current_player() == self._seat:
            v = self._value(state.child(self._best[state.information_state_string(self._seat)]))
        else:
            v = sum(p * self._value(state.child(a)) for a, p in self._others(state) if p > 0)
        self._values[key] = v
        return v

    def get_best_response_actions(self):
        """{information_state_string: the best action} for every information state of the
        best responder."""
        if self._best is None:
            self._compute()
        return dict(self._best)

    def value(self, state):
        """The best responder's expected return from state (the root for the game's value)."""
        if self._best is None:
            self._compute()
        return self._value(state)


def serialize_game_and_state(game, state):
    """pyspiel.serialize_game_and_state: one text holding the game (its pyspiel string) and the
    state (its history from a seeded deal, so chance nodes and sampled chance both replay);
    rl_environment writes it when asked to include the state in its observations."""
    root = state._root_seed
    if root is None:
        return f"game={game}\nstate={state.serialize()}\n"
    history = ",".join(str(a) for a in state.history())
    return f"game={game}\nseed={root}\nhistory={history}\n"


def deserialize_game_and_state(text):
    """pyspiel.deserialize_game_and_state: (game, state) from serialize_game_and_state's text."""
    fields = {}
    for line in str(text).splitlines():
        key, sep, value = line.partition("=")
        if not sep or key not in ("game", "seed", "history", "state") or key in fields:
            raise SpielError(f"not a serialized game and state: line {line!r}")
        fields[key] = value
    if "game" not in fields or ("state" in fields) == ("seed" in fields):
        raise SpielError("not a serialized game and state: it needs game= and seed= or state=")
    game = load_game(fields["game"])
    if "state" in fields:
        return game, game.deserialize_state(fields["state"])
    state = game.new_initial_state(seed=int(fields["seed"]))
    for action in filter(None, fields.get("history", "").split(",")):
        state.apply_action(int(action))
    return game, state


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
        return GameType(
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
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
        )

    def new_initial_state(self, seed=None):
        """A new game. Without a seed each call deals anew, as OpenSpiel's loops expect (a
        fresh deal per episode): the k-th such call deals from a seed mixed from the game's
        seed and k, so a run is still reproducible from the game's seed; with one, that deal."""
        if seed is None:
            seed = _mix(self._game.seed + 0x9E3779B97F4A7C15 * (self._deals + 1))
            self._deals += 1
        return State(self, self._game.new_initial_state(seed=seed), root_seed=seed)

    def new_initial_states(self):
        """pyspiel's list of initial states (get_all_states walks from each): one, a new deal
        (under explicit_chance=true its first chance node, so the walk covers every deal)."""
        return [self.new_initial_state()]

    def deserialize_state(self, text):
        return State(self, self._game.deserialize_state(text))

    def get_game_info(self):
        return GameInfo(
            num_distinct_actions=self.num_distinct_actions(),
            max_chance_outcomes=self.max_chance_outcomes(),
            num_players=self.num_players(),
            min_utility=self.min_utility(),
            max_utility=self.max_utility(),
            utility_sum=self.utility_sum(),
            max_game_length=self.max_game_length(),
        )

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

    def __init__(self, game, state, root_seed=None):
        # root_seed: the deal this State's history starts from (None: loaded from notation),
        # which serialize_game_and_state writes so that explicit chance replays too.
        self._game, self._state, self._root_seed = game, state, root_seed

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
        return State(self._game, self._state.child(action), self._root_seed)

    def undo_action(self, player, action):
        self._state.undo_action(ramparts.CHANCE if player == PlayerId.CHANCE else player, action)

    def clone(self):
        return State(self._game, self._state.clone(), self._root_seed)

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
        """A float32 numpy array (pyspiel gives a list; OpenSpiel's algorithms and
        rl_environment take any sequence): a list of millions of floats took longer than the
        tensor itself."""
        return self._state.information_state_tensor(self._seat(player))

    def observation_string(self, player=None):
        return self._state.observation_string(self._seat(player))

    def observation_tensor(self, player=None):
        """A float32 numpy array, made in C with no copy (see information_state_tensor)."""
        return self._state.observation_tensor(self._seat(player))

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

