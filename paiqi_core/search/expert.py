"""``expert``: the guided search over deals drawn from a learned belief.

The player is ``guided`` (``search.guided``: the rule-based move unless playouts show
another is better beyond luck), but the deals it searches are drawn from the belief a
trained model tilts (``paiqi_core.learn``): each unseen card is scored in each place it may
be, from what its seat did while the card fitted the table and the cards it laid towards it,
and the sampler's chain weighs a placement by those scores (``Belief.tilt``). Where a policy
model was trained too (``learn.policy``) and guessed the search's own choices better than the
rule-based player did, the action the search must beat is the learned policy's. Where a
pass is a choice (七並べ) and the compiled engine plays the rules, it plans its own later
moves too, over deals from the same belief (``search.planner``). Where the rules in play
have no trained model, ``expert`` says so once and plays as ``hard``.
"""

from __future__ import annotations

import random
import sys

from paiqi_core.belief import Belief
from paiqi_core.engine import Game, Observation
from paiqi_core.learn.features import read
from paiqi_core.learn.model import BELIEF, POLICY, BeliefModel, model_for
from paiqi_core.learn.policy import LearnedPolicy, predicts_search
from paiqi_core.search.budget import Budget
from paiqi_core.search.guided import GuidedAgent
from paiqi_core.search.inference import compiled_player
from paiqi_core.search.planner import DEALS, Planner, plans

WHOLE = 32  # the deals of one pool where the budget is a time
_NOTED: set[str] = set()  # fingerprints whose missing model was noted


class ExpertAgent(GuidedAgent):
    """``expert``: ``guided`` over deals from the learned belief of ``model``; ``plan``:
    whether it plans (``search.planner``; None: where ``planner.plans`` says)."""

    name = "expert"

    def __init__(
        self,
        rng: random.Random,
        *,
        game: Game | None = None,
        budget: Budget | str | None = None,
        model: BeliefModel,
        policy: BeliefModel | None = None,
        strength: float = 1.0,
        plan: bool | None = None,
        **options: object,
    ) -> None:
        # the others' moves read at every table whose rule-based player is compiled (the
        # replays of a pool in Python would take seconds a decision)
        options.setdefault("weigh", game is not None and compiled_player(game))
        options.setdefault("slack", None)  # as unlike moves as the others are seen to make
        # one pool resampled gives the likeliest deals several times: each once as evidence
        options.setdefault("clustered", True)
        super().__init__(rng, game=game, budget=budget, **options)  # type: ignore[arg-type]
        self.model = model
        self.strength = strength
        if policy is not None and game is not None:
            self.prior = LearnedPolicy(rng, game=game, policy=policy, belief=model)
        self.planner: Planner | None = None
        if game is not None and (plans(game) if plan is None else plan):
            self.planner = Planner(
                rng,
                game,
                self.objective,
                self.belief_of,
                self.slack,
                deals=DEALS if budget is None else self.chunk(),
            )

    def act(self, observation: Observation) -> int:
        """The guided search's move, or where it plans (``planner.plans``) the planner's."""
        if self.planner is None or len(observation.legal) == 1:
            return super().act(observation)
        return self.planner.act(observation, self.prior.act(observation))

    def chunk(self) -> int:
        """One pool for the whole decision: its deals (or 32 where the budget is a time)."""
        return self.budget.iterations or WHOLE

    def belief_of(self, observation: Observation) -> Belief:
        """The seat's belief, its chain tilted by the model's scores of each card's places."""
        belief = Belief(self.game, observation, moments=True)
        if not belief.hidden:
            return belief
        reading = read(belief)
        tilt = (self.strength * self.model.tilt(reading)).tolist()
        group_of = reading.group_of
        belief.tilt = [[row[g] for g in group_of] for row in tilt]
        return belief


def expert(
    rng: random.Random, *, game: Game | None = None, budget: Budget | str | None = None
) -> GuidedAgent:
    """The ``expert`` player of ``game``'s rules: ``ExpertAgent`` with the trained model of
    those rules, else (noted once on stderr) the ``hard`` player."""
    if game is None:
        raise ValueError("a search player needs the game's rules")
    key = game.rules.fingerprint
    model = model_for(key, BELIEF)
    if model is None:
        if key not in _NOTED:
            _NOTED.add(key)
            sys.stderr.write(
                f"note: expert has no trained model for {game.rules.id} (rules {key[:12]}); "
                f"it plays as hard. paiqi train {game.rules.id} makes one.\n"
            )
        return GuidedAgent(rng, game=game, budget=budget)
    policy = model_for(key, POLICY)
    if policy is not None and not predicts_search(policy):
        policy = None  # (no better a guess of the search's choice than the rule-based one)
    return ExpertAgent(rng, game=game, budget=budget, model=model, policy=policy)
