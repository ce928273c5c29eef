"""Small re-implementations, written for these tests, of OpenSpiel's pure-Python search and
regret algorithms (open_spiel/python/algorithms: mcts.py's MCTSBot with RandomRolloutEvaluator,
ismcts.py's ISMCTSBot, outcome_sampling_mccfr.py). OpenSpiel is packaged neither for Debian
nor for npm, so it cannot run here; instead each class below makes the calls the original
makes on pyspiel's module, Game and State, in the same way (the checks of get_type() in the
constructors, information_state_string() as the node key, resample_from_infostate with a
UniformProbabilitySampler, chance_outcomes() sampled with numpy, apply_action with numpy
integers, player_return, ...), so running them on ramparts.openspiel tests that contract.
They are not OpenSpiel's code, and simpler where the calls do not depend on it (no solver,
no Dirichlet noise, no PUCT)."""

import math

import numpy as np

import ramparts.openspiel as pyspiel


class RandomRolloutEvaluator:
    """Random playouts to the end, chance by its probabilities (mcts.py's evaluator)."""

    def __init__(self, n_rollouts=1, random_state=None):
        self.n_rollouts = n_rollouts
        self._random = random_state or np.random.RandomState(0)

    def evaluate(self, state):
        total = None
        for _ in range(self.n_rollouts):
            working = state.clone()
            while not working.is_terminal():
                if working.is_chance_node():
                    actions, probs = zip(*working.chance_outcomes())
                    action = self._random.choice(actions, p=probs)
                else:
                    action = self._random.choice(working.legal_actions())
                working.apply_action(action)
            returns = np.array(working.returns())
            total = returns if total is None else total + returns
        return total / self.n_rollouts

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class _Node:
    __slots__ = ("action", "player", "prior", "visits", "total", "children")

    def __init__(self, action, player, prior):
        self.action, self.player, self.prior = action, player, prior
        self.visits, self.total, self.children = 0, 0.0, []

    def uct(self, parent_visits, c):
        if self.visits == 0:
            return float("inf")
        return self.total / self.visits + c * math.sqrt(math.log(parent_visits) / self.visits)


class MCTSBot(pyspiel.Bot):
    """UCT over the game tree with chance nodes sampled by their probabilities (mcts.py)."""

    def __init__(self, game, uct_c, max_simulations, evaluator, random_state=None):
        pyspiel.Bot.__init__(self)
        kind = game.get_type()
        if kind.reward_model != pyspiel.GameType.RewardModel.TERMINAL:
            raise ValueError("Game must have terminal rewards.")
        if kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
            raise ValueError("Game must have sequential turns.")
        self.uct_c, self.max_simulations, self.evaluator = uct_c, max_simulations, evaluator
        self.max_utility = game.max_utility()
        self._random = random_state or np.random.RandomState(0)

    def step(self, state):
        root = _Node(None, state.current_player(), 1.0)
        for _ in range(self.max_simulations):
            path, working = [root], state.clone()
            node = root
            while not working.is_terminal() and node.visits > 0:
                if not node.children:
                    priors = self.evaluator.prior(working)
                    self._random.shuffle(priors)
                    player = working.current_player()
                    node.children = [_Node(a, player, p) for a, p in priors]
                if working.is_chance_node():
                    actions, probs = zip(*working.chance_outcomes())
                    action = self._random.choice(actions, p=probs)
                    node = next(c for c in node.children if c.action == action)
                else:
                    parent = node
                    node = max(parent.children, key=lambda c: c.uct(parent.visits, self.uct_c))
                working.apply_action(node.action)
                path.append(node)
            returns = (
                working.returns() if working.is_terminal() else self.evaluator.evaluate(working)
            )
            for n in reversed(path):
                n.visits += 1
                if n.player >= 0:
                    n.total += returns[n.player]
        best = max(root.children, key=lambda c: (c.visits, c.total))
        self.last_choice = state.action_to_string(state.current_player(), best.action)
        return best.action


class ISMCTSBot(pyspiel.Bot):
    """Information-set MCTS: one tree over information states (keyed by the player to act and
    its information_state_string), each simulation on a world resampled from the root's
    information state (ismcts.py)."""

    def __init__(self, game, evaluator, uct_c, max_simulations, random_state=None):
        pyspiel.Bot.__init__(self)
        kind = game.get_type()
        assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        self.evaluator, self.uct_c, self.max_simulations = evaluator, uct_c, max_simulations
        self._random = random_state or np.random.RandomState(0)

    def _key(self, state):
        return state.current_player(), state.information_state_string()

    def step(self, state):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        self._nodes = {}
        root_key = self._key(state)
        for _ in range(self.max_simulations):
            sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0, int(self._random.randint(1 << 30)))
            world = state.resample_from_infostate(state.current_player(), sampler)
            # The original asserts this too: a resampled world is the same information state.
            assert self._key(world) == root_key
            self._simulate(world)
        stats = self._nodes[root_key]
        return max(stats["children"], key=lambda a: stats["children"][a][0])

    def _simulate(self, state):
        if state.is_terminal():
            return state.returns()
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(self._random.choice(actions, p=probs))
            return self._simulate(state)
        player, key = state.current_player(), self._key(state)
        node = self._nodes.get(key)
        if node is None:
            self._nodes[key] = {"visits": 0, "children": {}}
            return self.evaluator.evaluate(state)
        legal = state.legal_actions()
        untried = [a for a in legal if a not in node["children"]]
        if untried:
            action = untried[self._random.randint(len(untried))]
            node["children"][action] = [0, 0.0]
        else:

            def score(a):
                visits, total = node["children"][a]
                explore = math.sqrt(math.log(node["visits"]) / visits)
                return total / visits + self.uct_c * explore

            action = max((a for a in legal if a in node["children"]), key=score)
        node["visits"] += 1
        node["children"][action][0] += 1
        state.apply_action(action)
        returns = self._simulate(state)
        node["children"][action][1] += returns[player]
        return returns


class OutcomeSamplingMCCFR:
    """Outcome-sampling Monte Carlo CFR (outcome_sampling_mccfr.py): one sampled episode per
    player an iteration, regrets and average strategies keyed by information_state_string,
    chance sampled from chance_outcomes() with its probability in the opponents' reach."""

    def __init__(self, game, exploration=0.6, seed=0):
        assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        self._game, self._players = game, game.num_players()
        self._expl, self._random = exploration, np.random.RandomState(seed)
        self.infostates = {}  # key -> [regrets, average strategy sums]

    def iteration(self):
        for player in range(self._players):
            self._episode(self._game.new_initial_state(), player, 1.0, 1.0, 1.0)

    def _table(self, key, n):
        if key not in self.infostates:
            self.infostates[key] = [np.full(n, 1e-6), np.full(n, 1e-6)]
        return self.infostates[key]

    @staticmethod
    def _matching(regrets):
        positive = np.maximum(regrets, 0.0)
        total = positive.sum()
        return positive / total if total > 0 else np.full(len(regrets), 1.0 / len(regrets))

    def average_policy(self, state):
        legal = state.legal_actions()
        table = self._table(state.information_state_string(state.current_player()), len(legal))
        strategy = table[1] / table[1].sum()
        return [(legal[i], strategy[i]) for i in range(len(legal))]

    def _episode(self, state, update, my_reach, opp_reach, sample_reach):
        if state.is_terminal():
            return state.player_return(update)
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            i = self._random.choice(len(outcomes), p=probs)
            state.apply_action(outcomes[i])
            return self._episode(
                state, update, my_reach, probs[i] * opp_reach, probs[i] * sample_reach
            )
        player = state.current_player()
        key = state.information_state_string(player)
        legal = state.legal_actions()
        n = len(legal)
        table = self._table(key, n)
        policy = self._matching(table[0])
        sample = self._expl / n + (1 - self._expl) * policy if player == update else policy
        i = self._random.choice(n, p=sample)
        state.apply_action(legal[i])
        if player == update:
            value = self._episode(
                state, update, my_reach * policy[i], opp_reach, sample_reach * sample[i]
            )
        else:
            value = self._episode(
                state, update, my_reach, opp_reach * policy[i], sample_reach * sample[i]
            )
        values = np.zeros(n)
        values[i] = value / sample[i]
        estimate = float(policy @ values)
        if player == update:
            table[0] += (values - estimate) * opp_reach / sample_reach
            table[1] += my_reach * policy / sample_reach
        return estimate
