"""Deals drawn from a seat's belief, weighted by how well they explain the others' play.

The belief (``paiqi_core.belief``) draws deals close to uniformly among those that agree
with everything the seat saw. But the other players chose their moves from their hands: a
player who keeps playing cards that open nothing for themselves probably holds what those
cards unlock. ``worlds(belief, rng, rules)`` draws ``POOL`` times more deals than it gives,
replays each deal's game and counts the moves of the other players, where they had a
choice, that the rule-based player (``agents.HeuristicAgent``) would not have made holding
those cards; a deal with k such moves weighs ``SLACK ** k``. It then gives deals drawn from
the pool in proportion to their weights (systematic resampling). Players that play like the
rule-based one are read well; players that do not (random ones, people with their own
style) make every deal disagree about as often, and the weights then change little.

Playing with the true deal gives the rule-based playouts of ``guided`` an edge of about a
fifth of a win over the rule-based player at Fan Tan; uniform deals give it none, and
weighted ones about +0.06 (see docs/players.md). The replays are made in the compiled
engine (``fast.inference``) where it plays the rules, else in Python.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from paiqi_core.actions import EVENT, JOKER
from paiqi_core.belief import Belief
from paiqi_core.cards import planes, with_copies
from paiqi_core.engine import Game, State

POOL = 8  # deals drawn for each one given
CHUNK = 8  # deals given from one pool
if TYPE_CHECKING:
    import numpy as np

SLACK = 0.25  # weight factor of each move a deal says the player would not have made


def weighs_deals(game: Game) -> bool:
    """Whether ``guided`` weighs its deals by the others' play at this table: where players
    must play when they can and pass only when stuck (Fan Tan), so that each move of theirs
    is a choice among their cards. Where a pass is a choice (七並べ), weighing (four deals drawn
    for each one used) made decisions four times slower for no measured gain; where stuck
    players cover, random playouts and uniform deals measure a cover's cost well."""
    rules = game.rules
    return rules.must_play and not rules.stuck.covers


def compiled_player(game: Game) -> bool:
    """Whether the compiled engine (installed, and in use) plays ``game``'s rules with the
    rule-based player (``fast.finish.finisher(game)``)."""
    from paiqi_core.fast import installed

    if not installed():
        return False
    from paiqi_core.fast.finish import finisher

    return finisher(game) is not None


class Weigher:
    """Counts, for sampled states of one belief, the other seats' moves that had a choice
    and those of them the rule-based player would not have made: in the compiled engine
    (``fast.inference``) where it plays the rules and that player, else in Python."""

    def __init__(self, belief: Belief) -> None:
        self.belief = belief
        self.compiled = compiled_player(belief.game)
        self.start: np.ndarray | None = None  # the game as dealt, but for the hands
        self._out: list[Counter[int]] | None = None  # several decks: copies put out by seat

    def _start(self, deal: State) -> np.ndarray:
        """The kernel state of ``deal``'s game as dealt. Every sample agrees with the
        observation, so their games start alike (the same first player and first card,
        the same door card, the same cards put out before the first move) but for the
        hands: one start is made, and each deal's hands put in, less the cards put out."""
        from paiqi_core.core import layout as L
        from paiqi_core.fast.finish import encode

        game = self.belief.game
        if self.start is None:
            hands = [deal.dealt_cards(s) for s in range(game.players)]
            self.start = encode(game.new_state(hands=hands, door_card=deal.door_card))
        start = self.start.copy()
        if game.rules.decks > 1:
            return self._start_copies(deal, start)
        for seat, dealt in enumerate(deal.dealt):
            out = start[L.DEALT + seat] & ~start[L.HAND + seat]  # put out before play
            start[L.HAND + seat] = dealt & ~out
            start[L.DEALT + seat] = dealt
        return start

    def _start_copies(self, deal: State, start: np.ndarray) -> np.ndarray:
        """``_start`` with several decks: each hand and hand as dealt put in as planes (the
        cards held once or more, twice or more, three times), less the copies put out."""
        from paiqi_core.core import layout as L

        def cards(st: np.ndarray, once: int, twice: int, thrice: int, seat: int) -> list[int]:
            return with_copies(int(st[once + seat]), int(st[twice + seat]), int(st[thrice + seat]))

        if self._out is None:  # the copies each seat put out before play, as the start has it
            self._out = []
            for seat in range(deal.players):
                put = Counter(cards(start, L.DEALT, L.DEALT_TWICE, L.DEALT_THRICE, seat))
                put.subtract(cards(start, L.HAND, L.TWICE, L.THRICE, seat))
                self._out.append(put)
        for seat in range(deal.players):
            dealt = deal.dealt_cards(seat)
            held = Counter(dealt)
            held.subtract(self._out[seat])
            once, twice, thrice = planes(held.elements())
            start[L.HAND + seat], start[L.TWICE + seat] = once, twice
            start[L.THRICE + seat] = thrice
            once, twice, thrice = planes(dealt)
            start[L.DEALT + seat], start[L.DEALT_TWICE + seat] = once, twice
            start[L.DEALT_THRICE + seat] = thrice
        return start

    def disagreements(self, deals: list[State]) -> list[tuple[int, int]]:
        """For each state, (the other seats' moves that had a choice, those of them the
        rule-based player would not have made holding the cards the state deals them)."""
        if not self.compiled:
            return [self.replayed(deal) for deal in deals]
        import numpy as np

        from paiqi_core.fast.compiled import compiled_game
        from paiqi_core.fast.inference import agreement

        starts = np.stack([self._start(s) for s in deals])
        logs = [[m for m in s.log if not EVENT <= m[1] < JOKER] for s in deals]
        room = max((len(log) for log in logs), default=0)
        moves = np.zeros((len(deals), max(room, 1), 2), dtype=np.int64)
        for g, log in enumerate(logs):
            if log:
                moves[g, : len(log)] = log
        counts = np.array([len(log) for log in logs], dtype=np.int64)
        out = np.zeros((len(deals), 2), dtype=np.int64)
        c = compiled_game(self.belief.game.rules)
        agreement(starts, moves, counts, c.R, c.ext, c.beyond, self.belief.seat, out)
        return [(int(a), int(b)) for a, b in out.tolist()]

    def replayed(self, deal: State) -> tuple[int, int]:
        """``disagreements`` of one state, by replaying its game in the Python engine and
        asking ``HeuristicAgent.choices`` at each move of another seat."""
        from paiqi_core.agents import HeuristicAgent

        game, me = self.belief.game, self.belief.seat
        player = HeuristicAgent(random.Random(0), game=game)  # choices() draws nothing
        hands = [deal.dealt_cards(s) for s in range(game.players)]  # (each copy)
        state = game.new_state(hands=hands, door_card=deal.door_card)
        choices = other = 0
        for seat, action in deal.log:
            if EVENT <= action < JOKER:
                continue  # events happen by themselves
            if seat != me:
                observation = state.observation(seat)
                if len(observation.legal) > 1:
                    choices += 1
                    other += action not in player.choices(observation)
            state.apply_unchecked(action)
        return choices, other


def resample(weights: list[float], count: int, rng: random.Random) -> list[int]:
    """``count`` indices drawn in proportion to ``weights`` (systematic resampling: one
    uniform draw, ``count`` evenly spaced pointers)."""
    total = sum(weights)
    step = total / count
    pointer = rng.random() * step
    out: list[int] = []
    running = 0.0
    for i, w in enumerate(weights):
        running += w
        while len(out) < count and pointer < running:
            out.append(i)
            pointer += step
    while len(out) < count:  # rounding at the very end
        out.append(len(weights) - 1)
    return out


RATES = tuple(i / 20 for i in range(1, 20))  # the others' rates of unlike moves tried
LEGAL = 3.0  # the legal moves of a choice, as an average, in the mixture's likelihood


def slack_of(rate: float) -> float:
    """The weight factor of a move the rule-based player would not have made, against one
    it would have, where the others play like it but for a ``rate`` of moves drawn at
    random among about ``LEGAL``: ``(rate / LEGAL) / (1 - rate + rate / LEGAL)``."""
    unlike = rate / LEGAL
    return unlike / (1 - rate + unlike)


def likeliest_rate(counts: list[tuple[int, int]]) -> float:
    """The others' rate of unlike moves that best explains their play, over a pool of
    deals: for each rate of ``RATES``, the mean over the deals of the likelihood of their
    (choices, unlike moves) under the mixture of ``slack_of``; the rate of the highest.
    Players who play like the rule-based one are explained by a low rate; random players by
    a high one, which flattens the weights (the uniform belief): a smooth fallback."""
    best, best_rate = -math.inf, RATES[-1]
    for rate in RATES:
        like = math.log(1 - rate + rate / LEGAL)
        unlike = math.log(rate / LEGAL)
        logs = [(c - k) * like + k * unlike for c, k in counts]
        top = max(logs)
        value = top + math.log(sum(math.exp(v - top) for v in logs))
        if value > best:
            best, best_rate = value, rate
    return best_rate


def worlds(
    belief: Belief,
    rng: random.Random,
    slack: float | None = SLACK,
    chunk: int = CHUNK,
) -> Iterator[tuple[int, State]]:
    """Deals drawn from ``belief`` without end, weighted by how well each explains the
    other players' moves (see the module's docstring): ``slack`` a move it would not have
    made, or (``None``) the slack of the rate of such moves that best explains the pool
    (``likeliest_rate``). Each pool of ``POOL * chunk`` deals gives ``chunk``: one pool for
    a whole decision (``chunk`` its deals) places more cards right than several small ones
    of the same cost (49% of the unseen cards of Fan Tan positions against 47%).

    Each deal comes with a number that is the same for the draws of one deal of a pool:
    resampling gives a likely deal several times, and its playouts are then no more
    evidence than one deal's (``guided`` counts them as one)."""
    weigher = Weigher(belief)
    drawn = 0
    while True:
        pool = [belief.sample(rng) for _ in range(POOL * chunk)]
        counts = weigher.disagreements(pool)
        factor = slack_of(likeliest_rate(counts)) if slack is None else slack
        weights = [factor**k for _, k in counts]
        for i in resample(weights, chunk, rng):
            yield drawn + i, pool[i].clone()
        drawn += len(pool)
