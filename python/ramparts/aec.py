"""AECEnv: one game as a PettingZoo-style agent-environment cycle (no dependency on PettingZoo).

    env = ramparts.AECEnv("walls-and-armies", seed=3)
    env.reset()
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            action = my_policy(observation["observation"], observation["action_mask"])
        env.step(action)

Agents are "player_0", "player_1", ... (seats). An observation is {"observation": the seat's
float32 tensor, "action_mask": uint8 mask over num_distinct_actions (all 0 when it is not that
agent's turn)}, as PettingZoo's classic games give. Rewards come once, when the game ends: each
seat's share of the win. As in PettingZoo, every agent is stepped with None after the end.
"""

import numpy as np

from ramparts._games import check_seed, resolve_game


class Box:
    """The observation space: float32 values of `shape` (a minimal stand-in for gymnasium's)."""

    def __init__(self, shape, low=0.0, high=np.inf, dtype=np.float32):
        self.shape, self.low, self.high, self.dtype = tuple(shape), low, high, np.dtype(dtype)

    def contains(self, x):
        x = np.asarray(x)
        return (
            x.shape == self.shape
            and np.can_cast(x.dtype, self.dtype)
            and bool(np.all(x >= self.low) and np.all(x <= self.high))
        )

    def __repr__(self):
        return f"Box({self.low}, {self.high}, {self.shape}, {self.dtype})"


class Dict:
    """An observation space of named parts (a minimal stand-in for gymnasium's Dict)."""

    def __init__(self, spaces):
        self.spaces = dict(spaces)

    def __getitem__(self, key):
        return self.spaces[key]

    def keys(self):
        return self.spaces.keys()

    def contains(self, x):
        return (
            isinstance(x, dict)
            and x.keys() == self.spaces.keys()
            and all(space.contains(x[key]) for key, space in self.spaces.items())
        )

    def __repr__(self):
        return f"Dict({self.spaces!r})"


class Discrete:
    """The action space: ids 0..n-1; sample(mask) picks a legal one."""

    def __init__(self, n, seed=None):
        self.n, self.shape, self.dtype = int(n), (), np.dtype(np.int64)
        self._rng = np.random.default_rng(seed)

    def sample(self, mask=None):
        if mask is None:
            return int(self._rng.integers(self.n))
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("no legal action in the mask")
        return int(self._rng.choice(legal))

    def contains(self, x):
        return isinstance(x, (int, np.integer)) and 0 <= int(x) < self.n

    def __repr__(self):
        return f"Discrete({self.n})"


class AECEnv:
    """AECEnv(game, seed=None, render_mode=None, **options): `game` is a Game or a game id with
    load_game's options. Each reset() deals the next seed (seed, seed + 1, ...) unless given
    one."""

    metadata = {"render_modes": ["ansi"], "name": "ramparts", "is_parallelizable": False}

    def __init__(self, game, seed=None, render_mode=None, **options):
        game = resolve_game(game, options)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: only 'ansi' is supported")
        self.game = game
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=game.id)
        self.possible_agents = [f"player_{p}" for p in range(game.num_players())]
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        self._next_seed = game.seed if seed is None else check_seed(seed)
        size = game.observation_tensor_shape()
        self._observation_space = Dict(
            {
                "observation": Box(size),
                "action_mask": Box((game.num_distinct_actions(),), 0, 1, np.uint8),
            }
        )
        self._action_spaces = {
            a: Discrete(game.num_distinct_actions(), seed=self._next_seed + i)
            for i, a in enumerate(self.possible_agents)
        }
        self._state = None
        self.agents = []

    # ---- spaces ----

    @property
    def unwrapped(self):
        """This env (PettingZoo's wrappers answer with the env they wrap)."""
        return self

    def state(self):
        """The game's current State (the referee's: hidden cards included), or None before
        reset()."""
        return self._state

    @property
    def num_agents(self):
        return len(self.agents)

    @property
    def max_num_agents(self):
        return len(self.possible_agents)

    def observation_space(self, agent):
        self._check_agent(agent)
        return self._observation_space

    def action_space(self, agent):
        self._check_agent(agent)
        return self._action_spaces[agent]

    # ---- the cycle ----

    def reset(self, seed=None, options=None):
        """Deal a new game (from `seed`, else the next seed) and select the first agent.
        `options` (a dict, as PettingZoo passes) changes nothing: a game's options are fixed
        by load_game."""
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options must be a dict, not {type(options).__name__}")
        if seed is not None:
            self._next_seed = check_seed(seed)
        self._state = self.game.new_initial_state(seed=self._next_seed)
        self._next_seed += 1
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._state.current_player()]

    def observe(self, agent):
        """{"observation": float32 tensor of what the agent's seat sees, "action_mask": uint8}."""
        self._check_agent(agent)
        seat = self._seat[agent]
        mask = np.zeros(self.game.num_distinct_actions(), np.uint8)
        if self._state.current_player() == seat:
            self._state.legal_actions_mask(out=mask)
        return {"observation": self._state.observation_tensor(seat), "action_mask": mask}

    def last(self, observe=True):
        """(observation, reward, termination, truncation, info) of the selected agent; the
        reward is what it earned since it last acted."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action):
        """The selected agent acts: a legal action id, or None once its game is over."""
        if self._state is None:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise RuntimeError("the game is over and every agent is done: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(f"{agent}'s game is over: step it with None")
            self._remove(agent)
            self.rewards = {a: 0.0 for a in self.agents}  # paid once, on the final step
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for an agent whose game is over")
        self._cumulative_rewards[agent] = 0.0
        self._state.apply_action(int(action))
        self.rewards = {a: 0.0 for a in self.agents}
        cap = self.game.turn_cap
        if self._state.is_terminal():
            for a, share in zip(self.possible_agents, self._state.returns()):
                self.rewards[a] = share
                self.terminations[a] = True
        elif cap and self._state.turn_number() > cap:
            for a in self.agents:
                self.truncations[a] = True
        for a in self.agents:
            self._cumulative_rewards[a] += self.rewards[a]
        player = self._state.current_player()
        self.agent_selection = self.possible_agents[player] if player >= 0 else self.agents[0]
        if any(self.truncations.values()):
            self.agent_selection = self.agents[0]

    def agent_iter(self, max_iter=2**63):
        """The selected agent, again and again, until every agent is done (or max_iter)."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def render(self):
        """What a spectator sees, as text (render_mode 'ansi')."""
        if self._state is None:
            raise RuntimeError("call reset() before render()")
        return self._state.observation_string(-2)

    def close(self):
        pass

    # ---- internals ----

    def _remove(self, agent):
        self.agents.remove(agent)
        for table in (
            self.rewards,
            self._cumulative_rewards,
            self.terminations,
            self.truncations,
            self.infos,
        ):
            del table[agent]
        if self.agents:
            self.agent_selection = self.agents[0]

    def _check_agent(self, agent):
        if agent not in self._seat:
            raise KeyError(f"no agent {agent!r}; the agents are {self.possible_agents}")
