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
        clustered: bool = False,
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
        self.clustered = clustered  # a deal drawn twice is one piece of evidence
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

    def advantages(
        self, observation: Observation, prior: int
    ) -> tuple[list[list[float]], list[int]]:
        """For each legal action, its utility less the ``prior`` action's, playout by
        playout (every action played on the same deal with the same random stream); and for
        each playout, the number of its deal (the same for a deal drawn more than once)."""
        legal = observation.legal
        seat = observation.seat
        belief = self.belief_of(observation)
        rows: list[list[float]] = [[] for _ in legal]
        deals: list[int] = []
        at = legal.index(prior)
        clock = self.budget.clock()
        rng = self.rng
        draws = worlds(belief, rng, self.slack, self.chunk()) if self.weigh else None
        while clock.more():
            if draws is None:
                deal, world = clock.done, belief.sample(rng)
            else:
                deal, world = next(draws)
            lucks = [rng.getrandbits(64) for _ in range(self.budget.per_iteration)]
            for by_action in playout_values(world, legal, lucks, self.rollout, self.objective):
                values = [v[seat] for v in by_action]
                for row, value in zip(rows, values, strict=True):
                    row.append(value - values[at])
                deals.append(deal if self.clustered else len(deals))
            clock.tick()
        return rows, deals

    def act(self, observation: Observation) -> int:
        """The heuristic's action, or the action whose lower confidence bound on its
        advantage over it is highest and above zero. Where no deal that agrees with the
        observation is found within the sampler's budget, the heuristic's action."""
        legal = observation.legal
        if len(legal) == 1:
            return legal[0]
        prior = self.prior.act(observation)
        try:
            advantages, deals = self.advantages(observation, prior)
        except InconsistentObservation:
            return prior
        best, best_bound = prior, 0.0
        for action, row in zip(legal, advantages, strict=True):
            if action == prior:
                continue
            mean, error = mean_and_error(row, deals)
            if mean <= 0:
                continue
            bound = mean - self.confidence * error
            if bound > best_bound:
                best, best_bound = action, bound
        return best


def mean_and_error(row: list[float], deals: list[int]) -> tuple[float, float]:
    """The mean of ``row`` and its standard error, counting the playouts of one deal (the
    same number in ``deals``) as one piece of evidence: the cluster-robust error, which is
    the usual one where every playout has a deal of its own (infinite from one deal)."""
    sums: dict[int, float] = {}
    counts: dict[int, int] = {}
    for value, deal in zip(row, deals, strict=True):
        sums[deal] = sums.get(deal, 0.0) + value
        counts[deal] = counts.get(deal, 0) + 1
    n = len(row)
    mean = sum(row) / n
    k = len(sums)
    if k < 2:
        return mean, math.inf
    spread = sum((total - counts[d] * mean) ** 2 for d, total in sums.items())
    return mean, math.sqrt(k / (k - 1) * spread) / n
