"""Single-observer information-set Monte Carlo tree search (Cowling, Powley, Whitehouse 2012).

One tree is grown over the searching seat's information: its nodes are sequences of moves
as that seat would see them (another seat's cover is just "a cover"). Each iteration draws a
deal from the seat's belief, walks down the tree choosing among the moves legal in that
deal by UCB1 (each child's availability counted, as the algorithm prescribes), adds one node,
finishes the game with a random playout, and credits every node on the way with the result
for the seat that chose it. The move most visited at the root is played.

Rewards are utilities under the objective (money, rank points or a share of the win),
scaled to 0..1 by the smallest and largest utility met in the search so far.
"""

from __future__ import annotations

import math
import random

from paiqi_core.actions import COVER, EVENT, GIVE, HIDDEN_COVER, HIDDEN_GIVE, PASS
from paiqi_core.belief import Belief
from paiqi_core.engine import Game, Observation, State
from paiqi_core.search.budget import Budget
from paiqi_core.search.objective import SearchPlayer, finish, utilities

DEFAULT = Budget(iterations=300)
EXPLORATION = 0.7  # UCB1's constant, for rewards scaled to 0..1
POOL = 24  # deals drawn per decision; iterations cycle through them


class Node:
    """A node of the tree: its children by move, and the statistics of the move into it."""

    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.reward = 0.0  # summed (scaled) utility for the seat that chose this move
        self.available = 0  # iterations in which this move was legal at its parent


class ISMCTSAgent(SearchPlayer):
    """``ismcts``: one search tree over the seat's information set."""

    name = "ismcts"

    def __init__(
        self,
        rng: random.Random,
        *,
        game: Game | None = None,
        budget: Budget | str | None = None,
        objective: str | None = None,
        rollout: str = "random",
        exploration: float = EXPLORATION,
    ) -> None:
        super().__init__(rng, game=game, budget=budget, objective=objective, rollout=rollout)
        self.exploration = exploration

    def default_budget(self) -> Budget:
        """300 iterations."""
        return DEFAULT

    def act(self, observation: Observation) -> int:
        """The root move visited most (one legal action: played at once)."""
        legal = observation.legal
        if len(legal) == 1:
            return legal[0]
        root = self.search(observation)
        most = max(root.children[a].visits for a in legal if a in root.children)
        choices = [a for a in legal if a in root.children and root.children[a].visits == most]
        return choices[self.rng.randrange(len(choices))]

    def search(self, observation: Observation) -> Node:
        """Grow the tree of this decision and return its root."""
        rng, me = self.rng, observation.seat
        belief = Belief(self.game, observation)
        pool: list[State] = []
        root = Node()
        low, high = math.inf, -math.inf
        clock = self.budget.clock()
        while clock.more():
            if len(pool) < POOL:
                pool.append(belief.sample(rng))
            state = pool[clock.done % len(pool)].clone()
            path: list[tuple[Node, int]] = []  # (node, seat that chose the move into it)
            node = root
            expanding = True
            while not state.over:
                seat = state.turn
                moves = self._moves(state, me)
                for key in moves:
                    child = node.children.get(key)
                    if child is not None:
                        child.available += 1
                untried = [key for key in moves if key not in node.children]
                if expanding and untried:
                    key = untried[rng.randrange(len(untried))]
                    child = node.children[key] = Node()
                    child.available = 1
                    expanding = False
                elif expanding:
                    key = self._select(node, moves, low, high)
                    child = node.children[key]
                else:
                    break
                path.append((child, seat))
                node = child
                state.apply_unchecked(self._action(state, key, rng))
            finish(state, rng, self.rollout)
            values = utilities(state.result(), self.objective)
            low, high = min(low, *values), max(high, *values)
            span = high - low or 1.0
            for child, seat in path:
                child.visits += 1
                child.reward += (values[seat] - low) / span
            clock.tick()
        return root

    def _moves(self, state: State, me: int) -> list[int]:
        """The legal moves as the searching seat tells them apart: another seat's covers
        are one move, "a cover", and the cards it may hand on one move, "a give"."""
        legal = state.legal_actions()
        if state.turn == me:
            return legal
        moves = [a for a in legal if not COVER <= a < PASS and not GIVE <= a < EVENT]
        if any(COVER <= a < PASS for a in legal):
            moves.append(HIDDEN_COVER)
        if any(GIVE <= a < EVENT for a in legal):
            moves.append(HIDDEN_GIVE)
        return moves

    @staticmethod
    def _action(state: State, key: int, rng: random.Random) -> int:
        """The action of a move in this deal ("a cover": one of the legal covers; "a give":
        one of the cards that may be handed on)."""
        if key not in (HIDDEN_COVER, HIDDEN_GIVE):
            return key
        low, high = (COVER, PASS) if key == HIDDEN_COVER else (GIVE, EVENT)
        hidden = [a for a in state.legal_actions() if low <= a < high]
        return hidden[rng.randrange(len(hidden))]

    def _select(self, node: Node, moves: list[int], low: float, high: float) -> int:
        """UCB1 over the moves available here, with each child's availability count."""
        best_key, best = moves[0], -math.inf
        c = self.exploration
        for key in moves:
            child = node.children[key]
            score = child.reward / child.visits + c * math.sqrt(
                math.log(child.available) / child.visits
            )
            if score > best:
                best_key, best = key, score
        return best_key
