"""A learned policy: the action a strong player takes, as a trained model scores the moves.

``LearnedPolicy`` reads every legal action (``learn.move_features``: what the rule-based
player makes of it, and where the cards it releases lie under the seat's learned belief),
scores the rows with a policy model and plays the best (the rule-based player's choice
where the scores tie, or where the seat's history cannot be read). ``expert`` takes it as
the action its search must beat where it predicted the search's own choices better than the
rule-based player on decisions held out of its training (``predicts_search``); elsewhere
``expert`` keeps the rule-based player's action.

``choice_rows`` reads one decision the same way, with the action taken, for training.
"""

from __future__ import annotations

import random

import numpy as np

from paiqi_core.belief import Belief, InconsistentObservation
from paiqi_core.engine import Game, Observation
from paiqi_core.learn.features import read
from paiqi_core.learn.model import NEVER, BeliefModel, softmax
from paiqi_core.learn.move_features import MOVE_FEATURES, Terms, move_rows

MAX_ACTIONS = 48  # the legal actions a row of choices holds (decisions with more are not read)


def read_moves(
    game: Game, observation: Observation, terms: Terms, belief_model: BeliefModel | None
) -> np.ndarray | None:
    """The rows of ``observation``'s legal actions, the unseen cards placed by
    ``belief_model`` (by the uniform belief without one); None where the seat's history
    cannot be read."""
    try:
        belief = Belief(game, observation, moments=True)
    except InconsistentObservation:
        return None
    reading = read(belief)
    if not belief.hidden:
        places = np.zeros((0, len(reading.groups)))
    elif belief_model is None:
        places = softmax(reading.offset)  # (the uniform belief: by the room of each group)
    else:
        places = belief_model.probabilities(reading)
    return move_rows(game, observation, belief, reading, places, terms)


class LearnedPolicy:
    """The legal action ``policy`` scores highest (see the module)."""

    name = "policy"

    def __init__(
        self,
        rng: random.Random,
        *,
        game: Game,
        policy: BeliefModel,
        belief: BeliefModel | None = None,
    ) -> None:
        self.rng = rng
        self.game = game
        self.policy = policy
        self.belief = belief
        self.terms = Terms(game)

    def act(self, observation: Observation) -> int:
        """The best-scored legal action; the rule-based player's where the rows cannot be
        read."""
        legal = observation.legal
        if len(legal) == 1:
            return legal[0]
        rows = read_moves(self.game, observation, self.terms, self.belief)
        if rows is None:
            return self.terms.player.act(observation)
        scores = self.policy.scores(rows.astype(np.float64))
        best = scores.max()
        top = [a for a, s in zip(legal, scores, strict=True) if s >= best - 1e-9]
        if len(top) > 1:
            chosen = set(self.terms.player.choices(observation))
            top = [a for a in top if a in chosen] or top
        return top[0] if len(top) == 1 else top[self.rng.randrange(len(top))]


CONFIDENCE = 1.96  # standard errors the policy must guess better by to be used


def predicts_search(policy: BeliefModel) -> bool:
    """Whether ``policy`` took the search's action on the held-out decisions of its training
    more often than the rule-based player did (its ties shared), beyond what chance
    explains (``CONFIDENCE`` standard errors, paired decision by decision): only then is it
    the action ``expert``'s search must beat."""
    gain = policy.meta.get("over_rules")
    if not gain:
        return False
    return float(gain["mean"]) > CONFIDENCE * float(gain["error"])


def choice_rows(
    game: Game, observation: Observation, action: int, terms: Terms,
    belief_model: BeliefModel | None,
) -> tuple[np.ndarray, np.ndarray, int] | None:  # fmt: skip
    """One decision as a training row: ``(MAX_ACTIONS, MOVE_FEATURES)`` rows, the offsets
    (0 for a legal action, ``NEVER`` for padding) and the index of ``action``; None where
    there was no choice, too many actions, or the history cannot be read."""
    legal = observation.legal
    if len(legal) < 2 or len(legal) > MAX_ACTIONS:
        return None
    rows = read_moves(game, observation, terms, belief_model)
    if rows is None:
        return None
    x = np.zeros((MAX_ACTIONS, MOVE_FEATURES), np.float32)
    x[: len(legal)] = rows
    offset = np.full(MAX_ACTIONS, NEVER, np.float32)
    offset[: len(legal)] = 0.0
    return x, offset, legal.index(action)
