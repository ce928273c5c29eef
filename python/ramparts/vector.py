"""VectorEnv: many games of one kind stepped in C in one call, for learning at speed.

Every env is one game. Its row of each array is for the player to act there: the observation
of that player, the legal mask, and which seat it is. step() takes one action per env, plays
them all in C, and writes the arrays in place; a game that ends (terminations) or is stopped
at the game's turn cap (truncations) starts again at once, so its row already shows the next
game, and its rewards row holds each seat's share of the finished game (0 elsewhere).
"""

import numpy as np

from ramparts._games import resolve_game
from ramparts._ramparts import VectorCore


class VectorEnv:
    """VectorEnv(game, num_envs, seed=0, **options): num_envs games of `game` (a Game, or a game
    id with load_game's options).

    Arrays, written in place by reset() and step() (copy them to keep them):
      observations   float32 [num_envs, observation size]  what the player to act sees
      legal_masks    bool    [num_envs, num_distinct_actions]  True where legal
      current_players int32  [num_envs]  the seat to act
      rewards        float32 [num_envs, players]  shares of the win of a game just finished
      terminations   bool    [num_envs]  the game finished at this step (then started again)
      truncations    bool    [num_envs]  the game was stopped at the turn cap (started again)
    Games are dealt from seeds that depend only on `seed`, the env's index and how many games
    it has played, so a run is reproducible.
    """

    def __init__(self, game, num_envs, seed=0, **options):
        game = resolve_game(game, options)
        self.game = game
        self.num_envs = int(num_envs)
        self.num_players = game.num_players()
        self.num_actions = game.num_distinct_actions()
        (size,) = game.observation_tensor_shape()
        n = max(self.num_envs, 1)
        self.observations = np.zeros((n, size), np.float32)
        self.legal_masks = np.zeros((n, self.num_actions), np.bool_)
        self.rewards = np.zeros((n, self.num_players), np.float32)
        self.terminations = np.zeros(n, np.bool_)
        self.truncations = np.zeros(n, np.bool_)
        self.current_players = np.zeros(n, np.int32)
        self._core = VectorCore(
            game,
            self.num_envs,
            seed,
            self.observations,
            self.legal_masks,
            self.rewards,
            self.terminations,
            self.truncations,
            self.current_players,
        )
        self._info = {"legal_mask": self.legal_masks, "current_player": self.current_players}
        self._sampled = np.zeros(n, np.int64)

    def reset(self, seed=None):
        """Start a new game in every env (a seed replaces the env's). Returns (observations,
        info) with info = {"legal_mask", "current_player"}."""
        self._core.reset(seed)
        return self.observations, self._info

    def step(self, actions):
        """One legal action per env (an integer array of any layout, or a list of ints; floats
        are refused, never truncated). All are checked before any is played: an illegal one
        raises ValueError naming the env, and nothing changes. Returns (observations, rewards,
        terminations, truncations, info)."""
        actions = np.asarray(actions)
        if actions.dtype.kind not in "iu":
            # Never truncate: 2.7 is no action id.
            raise TypeError(f"actions must be integers, not {actions.dtype}")
        if actions.dtype not in (np.int64, np.int32) or not actions.flags.c_contiguous:
            actions = np.ascontiguousarray(actions, dtype=np.int64)
        self._core.step(actions)
        return self.observations, self.rewards, self.terminations, self.truncations, self._info

    def sample_actions(self, out=None):
        """A uniformly random legal action for every env (from the env's own generator)."""
        if out is None:
            out = self._sampled
        self._core.sample_actions(out)
        return out

    def state(self, env):
        """A copy of env's current game as a State (for looking, not for stepping the env)."""
        return self._core.state(env)

    @property
    def finished_games(self):
        """Games finished (or stopped at the cap) since the last reset."""
        return self._core.finished_games

    @property
    def seed(self):
        return self._core.seed

    def __repr__(self):
        return f"VectorEnv({self.game.id!r}, num_envs={self.num_envs}, seed={self.seed})"
