"""Perfect-information Monte Carlo: value each legal action in deals the seat's belief allows.

For each of N deals drawn from the belief (``paiqi_core.belief``), every legal action is
played and then M playouts finish the game (the same M random streams for every action, so
that actions are compared on the same luck); an action's value is its mean utility
for the seat over all deals and playouts, under the profile's objective. The best action is
played (ties drawn at random). PIMC plays each deal as if the cards were visible, so it can
overrate actions that only work when one knows the hidden cards; it is quick and strong in
games of much shared information such as Sevens.
"""

from __future__ import annotations

from paiqi_core.belief import Belief
from paiqi_core.engine import Observation
from paiqi_core.search.budget import Budget
from paiqi_core.search.objective import SearchPlayer, playout_values

DEFAULT = Budget(iterations=16, per_iteration=4)


class PIMCAgent(SearchPlayer):
    """``pimc``: perfect-information Monte Carlo over sampled deals."""

    name = "pimc"
    pairs = True

    def default_budget(self) -> Budget:
        """16 deals, 4 playouts of each action in each."""
        return DEFAULT

    def values(self, observation: Observation) -> list[float]:
        """The mean utility of each legal action, in the order of ``observation.legal``."""
        legal = observation.legal
        seat = observation.seat
        belief = Belief(self.game, observation)
        totals = [0.0] * len(legal)
        counts = [0] * len(legal)
        clock = self.budget.clock()
        rng = self.rng
        while clock.more():
            world = belief.sample(rng)
            # common random numbers: every action's playout draws from the same stream,
            # so the actions are compared on the same luck
            lucks = [rng.getrandbits(64) for _ in range(self.budget.per_iteration)]
            for by_action in playout_values(world, legal, lucks, self.rollout, self.objective):
                for i, values in enumerate(by_action):
                    totals[i] += values[seat]
                    counts[i] += 1
            clock.tick()
        return [t / c for t, c in zip(totals, counts, strict=True)]

    def act(self, observation: Observation) -> int:
        """The legal action of best mean value (one legal action: played at once)."""
        legal = observation.legal
        if len(legal) == 1:
            return legal[0]
        values = self.values(observation)
        best = max(values)
        choices = [a for a, v in zip(legal, values, strict=True) if v == best]
        return choices[self.rng.randrange(len(choices))]
