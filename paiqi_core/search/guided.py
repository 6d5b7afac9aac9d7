"""PIMC guided by the rule-based player: search that overrules it only on evidence.

``guided`` asks the ``heuristic`` player what it would do, then values every legal action
as ``pimc`` does: over N deals drawn from the seat's belief, M playouts each, every action
on the same deals and the same random streams. It plays another action than the
heuristic's only when that action did better in the playouts by a margin the playouts
cannot explain as luck: its mean advantage over the heuristic's action, paired playout by
playout, less ``confidence`` standard errors, is above zero. Where the search cannot tell
actions apart (early in a game, when the deals it draws differ most from the real one) the
player plays as the rule-based one; where it can (covers whose cost playouts measure well,
endgames where few deals remain possible), it plays as the search.

The playouts follow the rules: random play where a stuck player covers (a cover's cost,
most of what there is to decide, is what random playouts measure well), and the rule-based
player for everyone where passing is a choice (random passes by choice misjudge tempo badly
there) and where players must play when they can and pass when stuck (Fan Tan). At those
Fan Tan tables the deals are also weighed by how well they explain the others' moves
(``search.inference``): with uniform deals the search finds nothing the rule-based player
misses, while the true deal would be worth a fifth of a win to it.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from paiqi_core.belief import Belief, InconsistentObservation
from paiqi_core.engine import Game, Observation
from paiqi_core.search.budget import Budget
from paiqi_core.search.inference import CHUNK, SLACK, weighs_deals, worlds
from paiqi_core.search.objective import SearchPlayer, playout_values

if TYPE_CHECKING:
    from paiqi_core.agents import Agent

CONFIDENCE = 1.0  # standard errors an action must be ahead by to overrule the heuristic
RANDOM_BUDGET = Budget(iterations=32, per_iteration=2)
HEURISTIC_BUDGET = Budget(iterations=24, per_iteration=1)


def default_rollout(game: Game) -> str:
    """``heuristic`` where passing is a choice or deals are weighed by the others' play
    (``inference.weighs_deals``), ``random`` elsewhere."""
    if not game.rules.must_play or weighs_deals(game):
        return "heuristic"
    return "random"


class GuidedAgent(SearchPlayer):
    """``guided``: the heuristic's action unless PIMC playouts show another is better."""

    name = "guided"
    pairs = True

    def __init__(
        self,
        rng: random.Random,
        *,
        game: Game | None = None,
        budget: Budget | str | None = None,
        objective: str | None = None,
        rollout: str | None = None,
        confidence: float = CONFIDENCE,
        weigh: bool | None = None,
        slack: float | None = SLACK,
    ) -> None:
        if game is None:
            raise ValueError("a search player needs the game's rules")
        super().__init__(
            rng,
            game=game,
            budget=budget,
            objective=objective,
            rollout=rollout or default_rollout(game),
        )
        self.confidence = confidence
        self.weigh = weighs_deals(game) if weigh is None else weigh  # else uniform deals
        self.slack = slack
        from paiqi_core.agents import HeuristicAgent  # agents names the search players

        self.prior: Agent = HeuristicAgent(rng, game=game)

    def default_budget(self) -> Budget:
        """24 deals x 1 playout where passing is a choice (rule-based playouts, uniform
        deals), 32 x 2 elsewhere."""
        if default_rollout(self.game) == "random" or weighs_deals(self.game):
            return RANDOM_BUDGET
        return HEURISTIC_BUDGET

    def chunk(self) -> int:
        """The weighed deals drawn from one pool (``inference.worlds``)."""
        return CHUNK

    def belief_of(self, observation: Observation) -> Belief:
        """What the seat knows of the cards it cannot see, to draw the deals from."""
        return Belief(self.game, observation)

    def advantages(self, observation: Observation, prior: int) -> list[list[float]]:
        """For each legal action, its utility less the ``prior`` action's, playout by
        playout (every action played on the same deal with the same random stream)."""
        legal = observation.legal
        seat = observation.seat
        belief = self.belief_of(observation)
        rows: list[list[float]] = [[] for _ in legal]
        at = legal.index(prior)
        clock = self.budget.clock()
        rng = self.rng
        draws = worlds(belief, rng, self.slack, self.chunk()) if self.weigh else None
        while clock.more():
            world = belief.sample(rng) if draws is None else next(draws)
            lucks = [rng.getrandbits(64) for _ in range(self.budget.per_iteration)]
            for by_action in playout_values(world, legal, lucks, self.rollout, self.objective):
                values = [v[seat] for v in by_action]
                for row, value in zip(rows, values, strict=True):
                    row.append(value - values[at])
            clock.tick()
        return rows

    def act(self, observation: Observation) -> int:
        """The heuristic's action, or the action whose lower confidence bound on its
        advantage over it is highest and above zero. Where no deal that agrees with the
        observation is found within the sampler's budget, the heuristic's action."""
        legal = observation.legal
        if len(legal) == 1:
            return legal[0]
        prior = self.prior.act(observation)
        try:
            advantages = self.advantages(observation, prior)
        except InconsistentObservation:
            return prior
        best, best_bound = prior, 0.0
        for action, row in zip(legal, advantages, strict=True):
            n = len(row)
            mean = sum(row) / n
            if action == prior or mean <= 0:
                continue
            var = sum((x - mean) ** 2 for x in row) / (n - 1) if n > 1 else math.inf
            bound = mean - self.confidence * math.sqrt(var / n)
            if bound > best_bound:
                best, best_bound = action, bound
        return best
