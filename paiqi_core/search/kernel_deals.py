"""Weighed deals of a seat's belief made in the kernel, for the planner's tree.

``weighed_starts(belief, rng, slack, count)`` gives what ``inference.worlds`` gives (deals
drawn from the belief's chain, ``POOL`` times more than are kept, weighed by how well each
explains the others' moves, and ``count`` of them resampled), but as kernel states and
some ten times quicker: the chain, the deals' starts and their replays run in the kernel
(``fast.sampling``), where the Python belief replays each deal through the engine. It
applies where the compiled engine plays the rules with the rule-based player and the
history moved no card unseen (``drawable``); a test holds every state it makes to the one
``Belief.state_of`` makes from the same placement.
"""

from __future__ import annotations

import random

import numpy as np

from paiqi_core.actions import EVENT, JOKER
from paiqi_core.belief import STOCK, Belief, InconsistentObservation
from paiqi_core.core import layout as L
from paiqi_core.search.inference import (
    POOL,
    compiled_player,
    likeliest_rate,
    resample,
    slack_of,
)

TRIES = 5000  # placements drawn beyond those kept before the observation is given up on


def drawable(belief: Belief) -> bool:
    """Whether the kernel draws this belief's deals: the compiled engine plays the rules
    with the rule-based player, one deck, and the unseen cards are in hands only (no covers,
    no stock, no card handed on or drawn unseen)."""
    return (
        compiled_player(belief.game)
        and belief.game.rules.decks == 1
        and not belief.moved_unseen
        and not belief.observation.covered_mask
        and all(p.seat != STOCK and p.cover < 0 for p in belief.places)
    )


class KernelDeals:
    """The kernel's view of one ``drawable`` belief: its chain, the start all its deals
    share and the state every deal must reach."""

    def __init__(self, belief: Belief, rng: random.Random) -> None:
        from paiqi_core.fast.compiled import compiled_game
        from paiqi_core.fast.finish import encode

        self.belief = belief
        game, obs = belief.game, belief.observation
        template = belief.sample(rng)  # a deal that agrees: its state is what all reach
        self.seen = encode(template)
        hands = [template.dealt_cards(s) for s in range(game.players)]
        self.start = encode(game.new_state(hands=hands, door_card=template.door_card))
        self.compared = np.ones(L.STATE, np.int8)
        for t in range(L.MAX_SEATS):
            self.compared[L.HAND + t] = self.compared[L.DEALT + t] = 0
        self.compared[L.LOGLEN] = 0
        self.chain = np.array(belief.chain_at(rng), dtype=np.int64)
        self.hidden = np.array(belief.hidden, dtype=np.int64)
        self.allowed = np.array(belief.allowed, dtype=np.int64)
        self.seat_of = np.array([p.seat for p in belief.places], dtype=np.int64)
        known = belief.seen_leaving
        known[belief.seat] |= obs.hand_mask
        self.known = np.array(known, dtype=np.int64)
        self.sizes = np.array(obs.dealt_counts, dtype=np.int64)
        self.opens, self.mover = belief.first_mover
        moves = [m for m in obs.history if not EVENT <= m[1] < JOKER]
        self.moves = np.array(moves, dtype=np.int64).reshape(len(moves), 2)
        self.steps = 3 * len(belief.hidden) + 10  # as ``Belief.placements`` moves it
        self.compiled = compiled_game(game.rules)

    def tilt(self) -> np.ndarray:
        """The belief's learned tilt (card x place), zeros where it has none."""
        if self.belief.tilt is None:
            return np.zeros((len(self.hidden), len(self.seat_of)))
        return np.array(self.belief.tilt, dtype=np.float64).reshape(
            len(self.hidden), len(self.seat_of)
        )

    def states(self, chosen: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The state each placement of ``chosen`` gives, and per placement (1 where the
        deal agrees with the observation else 0, the others' moves that had a choice,
        those of them the rule-based player would not have made)."""
        from paiqi_core.fast.sampling import dealt, replayed

        c = self.compiled
        starts = np.empty((len(chosen), L.STATE), np.int64)
        jokers = self.belief.game.rules.jokers
        dealt(chosen, self.hidden, self.seat_of, self.known, self.sizes, jokers, self.opens,
              self.mover, self.start, starts)  # fmt: skip
        out = np.zeros((len(chosen), 3), np.int64)
        replayed(starts, self.moves, c.R, c.ext, c.beyond, self.belief.seat, self.seen,
                 self.compared, out)  # fmt: skip
        starts[:, L.LOGLEN] = 0
        return starts, out

    def pool(self, rng: random.Random, count: int) -> tuple[np.ndarray, np.ndarray]:
        """``count`` states that agree with the observation, drawn from the chain, and
        their (choices, unlike moves) counts."""
        from paiqi_core.fast.sampling import placements

        tilt = self.tilt()
        kept_states: list[np.ndarray] = []
        kept_counts: list[np.ndarray] = []
        kept = drawn = 0
        while kept < count:
            if drawn > TRIES + 20 * count:
                raise InconsistentObservation(f"no {count} agreeing deals in {drawn} draws")
            batch = np.empty((max(2 * (count - kept), 16), len(self.hidden)), np.int64)
            placements(self.chain, self.hidden, self.allowed, tilt, self.steps,
                       rng.getrandbits(32), batch)  # fmt: skip
            drawn += len(batch)
            states, out = self.states(batch)
            good = out[:, 0] == 1
            kept_states.append(states[good])
            kept_counts.append(out[good, 1:])
            kept += int(good.sum())
        return np.concatenate(kept_states)[:count], np.concatenate(kept_counts)[:count]


def weighed_starts(
    belief: Belief, rng: random.Random, slack: float | None, count: int
) -> np.ndarray:
    """``count`` kernel states (log count 0) resampled from a pool of ``POOL * count``
    drawn from ``belief``, weighed as ``inference.worlds`` weighs them: ``slack`` a move
    the rule-based player would not have made, or (None) the slack of the likeliest rate
    of such moves."""
    states, counts = KernelDeals(belief, rng).pool(rng, POOL * count)
    pairs = [(int(a), int(b)) for a, b in counts.tolist()]
    factor = slack_of(likeliest_rate(pairs)) if slack is None else slack
    picks = resample([factor**k for _, k in pairs], count, rng)
    return states[picks]
