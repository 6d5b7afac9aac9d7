"""Agents choose an action from their own seat's observation, never from the full state.

An agent is built as ``AGENTS[name](rng, game=game)``: ``rng`` is the random stream it may
draw from, and ``game`` the compiled rules of the table (public knowledge: the rank
topology, what a stuck player does, the pass limit, the scoring). An agent never sees the
``State``; ``act`` receives only the ``Observation`` of its seat (its own hand, the table and
public counts) and returns one of ``observation.legal``.

- ``RandomAgent`` (``random``): uniform over the legal actions.
- ``HeuristicAgent`` (``heuristic``): a rule-based player; see its docstring.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from paiqi_core.actions import COVER, JOKER, PASS, joker_parts
from paiqi_core.cards import JOKER as JOKER_CARD
from paiqi_core.cards import SEVEN, SUIT_MASK
from paiqi_core.engine import Game, Observation
from paiqi_core.melds import exempt_points
from paiqi_core.playout import below
from paiqi_core.topology import compile_topology


class Agent(Protocol):
    name: str

    def act(self, observation: Observation) -> int: ...


class AgentFactory(Protocol):
    """What ``AGENTS`` holds: ``factory(rng, game=game)`` makes an agent for one game."""

    def __call__(self, rng: random.Random, *, game: Game | None = None) -> Agent: ...


class RandomAgent:
    """Uniform over the legal actions (sorted ascending) of its observation."""

    name = "random"

    def __init__(self, rng: random.Random, *, game: Game | None = None) -> None:
        self.rng = rng

    def act(self, observation: Observation) -> int:
        legal = observation.legal
        return legal[below(self.rng, len(legal))]


# -- the rules an agent reads from its game ---------------------------------------------

POINTS_PER_CARD = 7  # a covered card costs 7 points on average: converts points to cards


@dataclass(frozen=True)
class TableRules:
    """What the heuristic agent needs to know about the game it plays (all public)."""

    extensions: tuple[int, ...]  # row mask -> playable ranks (the compiled rank topology)
    stuck: str = "cover"  # what a stuck player does: "cover" or "pass"
    pass_limit: int | None = None  # passes a game (None: unlimited)
    out_of_passes: str = "burst"  # with a pass limit: "burst" or "cover"
    must_play: bool = True
    ending: str = "all_empty"
    scoring: str = "covering"
    bust_above: int | None = None  # covered points above which a payer busts
    melds: bool = False  # covered melds are exempt (platform)
    closure_bonus: tuple[int, ...] = (0, 0, 0, 0)  # points for closing a suit, by opening order

    @property
    def covering(self) -> bool:
        """Covered cards cost points: covering families, and passes that end in covers."""
        return self.stuck == "cover" or self.out_of_passes == "cover"

    @classmethod
    def of(cls, game: Game | None) -> TableRules:
        """The rules of ``game``; without one, a plain table (ace low, open ends, covers)."""
        if game is None:
            return cls(compile_topology("low").extensions)
        p = game.profile
        scoring = p.section("scoring")
        method = str(scoring.get("method"))
        if method == "platform":
            closure = tuple(int(b) for b in scoring["closure_bonus"])
        elif method == "covering":
            closure = (int(scoring["completion_bonus"]),) * 4
        else:
            closure = (0, 0, 0, 0)
        bust = scoring.get("bust_above")
        limit = p.get("turn.pass_limit")
        return cls(
            extensions=game.extensions,
            stuck=str(p.get("turn.stuck")),
            pass_limit=None if limit is None else int(limit),
            out_of_passes=str(p.get("turn.out_of_passes")),
            must_play=bool(p.get("turn.must_play")),
            ending=str(p.get("ending.method")),
            scoring=method,
            bust_above=None if bust is None else int(bust),
            melds=bool(scoring.get("melds", False)),
            closure_bonus=closure,
        )


_REACH: dict[int, dict[int, int]] = {}  # per topology: (row | blocked << 13) -> reach


def _reach_cache(extensions: tuple[int, ...]) -> dict[int, int]:
    key = id(extensions)
    cache = _REACH.get(key)
    if cache is None or len(cache) > 1 << 18:
        cache = _REACH[key] = {}
    return cache


def _count(mask: int) -> int:
    return mask.bit_count()


def _points(mask: int) -> int:
    """Face points of the suit-local ranks in ``mask`` (A=1 .. K=13)."""
    total = 0
    while mask:
        low = mask & -mask
        total += low.bit_length()
        mask ^= low
    return total


@dataclass
class _Suit:
    """One suit seen from a seat, as 13-bit rank masks."""

    index: int
    table: int
    hand: int
    dead: int  # covered by this seat: never playable
    unseen: int  # in other hands or covered by others


class HeuristicAgent:
    """A rule-based player that reads only its own observation (and the public rules).

    It weighs each legal action by what it does to every suit's row, using the game's rank
    topology (ace low or high, A-K wrap or tunnel, 斬龍 cut ends) to find which cards can
    still reach the table and which cards need a given card first:

    - *runs*: a play is worth ``run_weight`` for each card of its own hand that needs it
      (hold S8 S9 S10 and S8 scores 2: it makes S9 playable, then S10); opening a suit with
      its 7 is worth ``open_weight`` for each own card of the suit;
    - *blocks*: a play costs ``block_weight`` for each card of the other hands that it
      releases (cards that become reachable without any further card of this hand), so a
      6 or 8 guarding a suit whose rest it does not hold is kept as long as possible, and a
      7 opening a suit that mostly helps others is held; the weight doubles against an
      opponent who is out of passes and may burst;
    - *covers* (covering families, and passes running out into covers): covers the card
      whose loss costs least: its counted points (after the platform's meld exemption)
      times ``cover_cost_weight``, plus the points of its own cards that need it (never
      break an own run when avoidable), plus a penalty for crossing the bust threshold,
      less ``strand_weight`` times the points of other hands' cards it strands for good;
      a card that can never be played anyway (behind an own covered card, or cut off by
      斬龍) costs nothing extra and goes first;
    - *passes* (Japanese family): passes voluntarily instead of releasing cards when every
      play gives more to the others than to itself, keeping ``reserve_passes`` passes
      unless forced;
    - *joker*: plays it to unlock an own run or to avoid a pass, otherwise keeps it while
      the hand is long (``joker_keep`` is what a held joker is worth), and gets rid of it
      before being left with it alone.

    Ties are broken with ``rng``. Without ``game`` the agent assumes a plain table (ace low,
    open ends).
    """

    name = "heuristic"

    def __init__(
        self,
        rng: random.Random,
        *,
        game: Game | None = None,
        run_weight: float = 1.0,
        open_weight: float = 1.0,
        block_weight: float = 1.0,
        cover_cost_weight: float = 1.0,
        strand_weight: float = 0.5,
        reserve_passes: int = 1,
        joker_keep: float = 2.0,
        pass_below: float = 0.0,
    ) -> None:
        self.pass_below = pass_below
        self.rng = rng
        self.rules = TableRules.of(game)
        self.run_weight = run_weight
        self.open_weight = open_weight
        self.block_weight = block_weight
        self.cover_cost_weight = cover_cost_weight
        self.strand_weight = strand_weight
        self.reserve_passes = reserve_passes
        self.joker_keep = joker_keep
        self._ext = self.rules.extensions
        self._cache = _reach_cache(self._ext)

    # -- reachability ------------------------------------------------------------------
    def _reach(self, row: int, blocked: int) -> int:
        """Ranks that can still come to a row (without ``blocked``), in any order."""
        key = row | blocked << 13
        got = self._cache.get(key)
        if got is None:
            ext, start = self._ext, row
            grow = ext[row] & ~blocked
            while grow:
                row |= grow
                grow = ext[row] & ~blocked
            got = self._cache[key] = row & ~start
        return got

    # -- choosing ----------------------------------------------------------------------
    def act(self, observation: Observation) -> int:
        legal = observation.legal
        if len(legal) == 1:
            return legal[0]
        suits = self._suits(observation)
        plays = [a for a in legal if a < COVER or a >= JOKER]
        covers = [a for a in legal if COVER <= a < PASS]
        if plays:
            scored = [(self._play_score(observation, suits, a), a) for a in plays]
            best = max(s for s, _ in scored)
            if PASS in legal and self._passes_instead(observation, best):
                return PASS
            if covers and best < -self._cover_floor(observation, suits, covers):
                return self._cover(observation, suits, covers)
            return self._pick([a for s, a in scored if s == best])
        if covers:
            return self._cover(observation, suits, covers)
        return legal[0]  # only passes

    def _pick(self, options: Sequence[int]) -> int:
        return options[below(self.rng, len(options))]

    def _suits(self, obs: Observation) -> list[_Suit]:
        hand = table = dead = 0
        for c in obs.hand:
            hand |= 1 << c
        for c in obs.table:
            table |= 1 << c
        for c in obs.own_covered:
            dead |= 1 << c
        out = []
        for s in range(4):
            shift = 13 * s
            t = (table >> shift) & SUIT_MASK
            h = (hand >> shift) & SUIT_MASK
            d = (dead >> shift) & SUIT_MASK
            out.append(_Suit(s, t, h, d, SUIT_MASK & ~(t | h | d)))
        return out

    def _pressure(self, obs: Observation) -> float:
        """Blocking counts double while an opponent still in the game has no passes left."""
        limit = self.rules.pass_limit
        if limit is None or self.rules.out_of_passes != "burst":
            return 1.0
        for seat, used in enumerate(obs.pass_counts):
            if seat != obs.seat and obs.hand_counts[seat] and used >= limit:
                return 2.0
        return 1.0

    def _play_score(self, obs: Observation, suits: list[_Suit], action: int) -> float:
        """What a play (or joker play) is worth, in cards of the own hand brought closer."""
        if action >= JOKER:
            at, card = joker_parts(action)
            placed = 1 << (at % 13) | 1 << (card % 13)
        else:
            card, placed = action, 1 << (action % 13)
        suit = suits[card // 13]
        mine = 1 << (card % 13)
        t, h, d, u = suit.table, suit.hand, suit.dead, suit.unseen
        reach = self._reach
        base = t | (placed & ~mine)  # the row as the played card meets it
        behind = reach(base, d) & ~reach(base, d | mine) & ~mine
        own = _count(behind & h)
        t2, h2 = t | placed, h & ~mine
        released = reach(t2, d | h2) & u & ~reach(t, d | h)
        given = _count(released) + _count(
            placed & ~mine & u
        )  # the joker's place goes to its holder
        lost = reach(t, d) & ~reach(t2, d) & ~placed
        opening = card % 13 == SEVEN and not t
        score = (self.open_weight if opening else self.run_weight) * own
        score -= self.block_weight * self._pressure(obs) * given
        rules = self.rules
        if rules.covering:
            # cards cut off for good will be covered: ours cost us, theirs cost them
            score -= self.cover_cost_weight * _points(lost & h) / POINTS_PER_CARD
            score += self.strand_weight * _points(lost & u) / POINTS_PER_CARD
            if not self._ext[t2] and suit.index in obs.opened:
                order = obs.opened.index(suit.index)
                score += rules.closure_bonus[order] / POINTS_PER_CARD
            # a card played is a card that can no longer be covered: play high cards first
            score += 0.01 * (card % 13 + 1)
        if action >= JOKER:
            score += self._joker_score(obs, own)
        return score

    def _joker_score(self, obs: Observation, own: int) -> float:
        """Using the joker sheds two cards in a turn; keep it while the hand is long unless
        it unlocks an own run, and never end up holding it alone."""
        left = len(obs.hand) - 2  # cards kept besides the joker and the card it plays
        if left <= 2:
            return self.run_weight + self.joker_keep
        return self.run_weight - (0 if own else self.joker_keep)

    def _passes_instead(self, obs: Observation, best: float) -> bool:
        """A voluntary pass: when every play gives more to the others than to this hand,
        and passes are to spare."""
        limit = self.rules.pass_limit
        used = obs.pass_counts[obs.seat]
        spare = (limit - used if limit is not None else 3 - used) > self.reserve_passes
        return spare and best < self.pass_below

    # -- covering ----------------------------------------------------------------------
    def _cover_floor(self, obs: Observation, suits: list[_Suit], covers: list[int]) -> float:
        """How bad a play must be before a voluntary cover is preferred (house rules only)."""
        return min(self._cover_cost(obs, suits, a - COVER) for a in covers) / POINTS_PER_CARD + 2

    def _cover(self, obs: Observation, suits: list[_Suit], covers: list[int]) -> int:
        costs = [(self._cover_cost(obs, suits, a - COVER), a) for a in covers]
        low = min(c for c, _ in costs)
        return self._pick([a for c, a in costs if c == low])

    def _cover_cost(self, obs: Observation, suits: list[_Suit], card: int) -> float:
        """Points this cover costs, less what it strands in other hands."""
        if card == JOKER_CARD:
            return -1.0  # no points, and never played alone: the cheapest cover
        suit = suits[card // 13]
        bit = 1 << (card % 13)
        t, h, d, u = suit.table, suit.hand, suit.dead, suit.unseen
        reach = self._reach
        live = reach(t, d)
        if not live & bit:
            return -0.5  # can never be played: covering it now costs nothing more
        counted = card % 13 + 1
        rules = self.rules
        if rules.melds:
            held = tuple(obs.own_covered)
            counted -= exempt_points((*held, card)) - exempt_points(held)
        behind = live & ~reach(t, d | bit) & ~bit
        cost = self.cover_cost_weight * counted
        cost += self.cover_cost_weight * _points(behind & h)  # own cards cut off with it
        cost -= self.strand_weight * _points(behind & u)
        if rules.bust_above is not None:
            covered = sum(c % 13 + 1 for c in obs.own_covered if c != JOKER_CARD)
            if rules.melds:
                covered -= exempt_points(tuple(obs.own_covered))
            if covered <= rules.bust_above < covered + counted:
                cost += self.cover_cost_weight * (covered + counted)  # a bust doubles the bill
        return cost


AGENTS: dict[str, AgentFactory] = {"random": RandomAgent, "heuristic": HeuristicAgent}
