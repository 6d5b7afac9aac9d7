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
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from paiqi_core.actions import COVER, GIVE, JOKER, PASS, TRUMP, joker_parts, trump_parts
from paiqi_core.cards import JOKERS, SEVEN, SUIT_MASK, is_joker
from paiqi_core.core.plain import kernel as core_kernel
from paiqi_core.core.plain import scoring as core_scoring
from paiqi_core.engine import Game, Observation
from paiqi_core.observation import home
from paiqi_core.streams import below
from paiqi_core.topology import compile_topology
from paiqi_core.weights import (
    ASSUMED_PASS_LIMIT,
    BLOCK_WEIGHT,
    COVER_COST_WEIGHT,
    END_WEIGHT,
    FAR_RELEASE,
    HIGH_CARD_FIRST,
    JOKER_ENDGAME,
    JOKER_KEEP,
    JOKER_RELEASE_HAND,
    OPEN_WEIGHT,
    POINTS_PER_CARD,
    RESERVE_PASSES,
    RUN_WEIGHT,
    STRAND_WEIGHT,
)


@lru_cache(maxsize=65536)
def exempt_points(covered: int) -> int:
    """Points of the covered cards (a mask) that the meld exemption does not count: the
    rule core's scoring, run as plain Python."""
    return int(core_scoring.exempt_points(covered))


class Agent(Protocol):
    """A player: chooses one of its observation's legal actions."""

    name: str

    def act(self, observation: Observation) -> int:
        """One of ``observation.legal``."""
        ...


class AgentFactory(Protocol):
    """What ``AGENTS`` holds: ``factory(rng, game=game)`` makes an agent for one game."""

    def __call__(self, rng: random.Random, *, game: Game | None = None) -> Agent:
        """An agent drawing from ``rng``, for a game of ``game``'s rules."""
        ...


class RandomAgent:
    """Uniform over the legal actions (sorted ascending) of its observation."""

    name = "random"

    def __init__(self, rng: random.Random, *, game: Game | None = None) -> None:
        self.rng = rng

    def act(self, observation: Observation) -> int:
        """A legal action drawn uniformly."""
        legal = observation.legal
        return legal[below(self.rng, len(legal))]


class EagerAgent:
    """A card whenever one can be played (drawn uniformly among the plays, joker plays
    included), a pass or a cover only when none can: a player who never holds back, as
    the ``eager`` playouts play (``search.objective.finish``). Where players must play when
    they can, it is the random player."""

    name = "eager"

    def __init__(self, rng: random.Random, *, game: Game | None = None) -> None:
        self.rng = rng

    def act(self, observation: Observation) -> int:
        """A play drawn uniformly, else any legal action drawn uniformly."""
        legal = observation.legal
        plays = [a for a in legal if a < COVER or a >= JOKER]
        options = plays or legal
        return options[below(self.rng, len(options))]


# -- the rules an agent reads from its game ---------------------------------------------


@dataclass(frozen=True)
class TableRules:
    """What the heuristic agent needs to know about the game it plays (all public), read
    from the game's compiled ``Rules``: the rank topology, the stuck rule's declarations
    and the scoring's public facts."""

    extensions: tuple[int, ...]  # row mask -> playable ranks (the compiled rank topology)
    covering: bool = True  # a stuck player may have to cover (covered cards cost points)
    pass_limit: int | None = None  # passes a game (None: unlimited, or no passes)
    bust_above: int | None = None  # covered points above which a payer busts
    melds: bool = False  # covered melds are exempt (platform)
    closure_bonus: tuple[int, ...] = (0, 0, 0, 0)  # points for closing a suit, by opening order
    jokers: int = 0  # jokers in the deck
    centre: int = SEVEN  # the rank every row starts from
    ranks: int = SUIT_MASK  # the pack's ranks: a suit's cards that are anywhere at all
    decks: int = 1  # decks shuffled together: each card that many times (deck.decks)
    start_any: bool = False  # any card begins a row (layout.start any): rows are turned
    extra_after_end: bool = False  # a card that ends its row's line gives another play

    @classmethod
    def of(cls, game: Game | None) -> TableRules:
        """The rules of ``game``; without one, a plain table (ace low, open ends, covers)."""
        if game is None:
            return cls(compile_topology("low").extensions)
        rules = game.rules
        facts = rules.facts
        return cls(
            extensions=rules.topology.extensions,
            covering=rules.stuck.covers,
            pass_limit=rules.stuck.pass_limit,
            bust_above=facts.bust_above,
            melds=facts.melds_exempt,
            closure_bonus=facts.closure_bonus,
            jokers=rules.jokers,
            centre=rules.topology.centre,
            ranks=rules.topology.ranks,
            decks=rules.decks,
            start_any=rules.profile.get("layout.start") == "any",
            extra_after_end=rules.extra_after_end != "none",
        )


# per topology (kept alive here, so that its id stays its own): (row | blocked << 13) -> reach
_REACH: dict[int, tuple[tuple[int, ...], dict[int, int]]] = {}
_REACH_LIMIT = 1 << 17


def _reach_cache(extensions: tuple[int, ...]) -> dict[int, int]:
    """The memo of ``HeuristicAgent._reach`` shared by the agents of one rank topology."""
    entry = _REACH.get(id(extensions))
    if entry is None or len(entry[1]) > _REACH_LIMIT:
        entry = _REACH[id(extensions)] = (extensions, {})
    return entry[1]


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
    """A rule-based player that reads only its own observation and the public rules.

    It weighs each legal action by what it does to every suit's row. With the game's rank
    topology (ace low or high, A-K wrap or tunnel, 斬龍 cut ends) it works out which cards
    can still reach the table, which cards need a given card first, and which cards of
    the other hands (the unseen cards) a play releases.

    - Runs: a play is worth ``run_weight`` for each card of its own hand that needs it
      (holding S8 S9 S10, S8 scores 2: it makes S9 playable, then S10), so it extends rows
      towards the far cards it holds. Opening a suit with its 7 is worth ``open_weight``
      for each own card of the suit.
    - Blocks: a play costs ``block_weight`` for each unseen card it makes playable at once,
      and a quarter of that for each unseen card it releases further along the row (cards
      that then need no other card of this hand). So a 6 or 8 guarding a suit whose rest it
      does not hold is kept as long as possible, and a 7 that would open a suit mostly for
      the others is held. Blocking counts double while an opponent still in the game has
      no passes left (it may be made to burst, or to cover).
    - Covers (covering families, and passes that run out into covers): it covers the card
      that costs least: its counted points (after the platform's meld exemption) times
      ``cover_cost_weight``, plus the points of its own cards that could then never be
      played (it does not break its own runs when it can avoid it), plus the whole covered
      total again if the cover crosses the bust threshold (55 in 鬥雀, 50 on the platform),
      less ``strand_weight`` times the points of unseen cards the cover strands for good.
      A card that can never be played anyway (behind an own covered card, or cut off by
      斬龍) costs nothing more and goes first. Between plays of equal worth it plays the
      higher card, which could otherwise end up covered.
    - Passes (Japanese family, and 鬥雀 with passes): it passes by choice when every play
      gives more to the others than to its own hand, keeping ``reserve_passes`` passes for
      when it is stuck, unless an opponent is out of passes: then the reserve goes into
      blocking them.
    - Joker: a joker play sheds two cards but hands the joker to whoever holds the place
      it takes; the agent keeps it while its hand is long (``joker_keep`` is what holding
      it is worth) unless it unlocks an own run, and plays it whenever it can once at most
      two other cards would be left, so as not to be left holding it alone. While an
      opponent may hold the joker and its own hand is down to ``joker_release_hand`` cards,
      it stops holding cards back to block: the joker is laid in place of a card someone
      holds, and that player takes it, which late in a game strands it in a short hand.

    - Several decks (``deck.decks``): a suit's copies lie in stacked rows, the k-th copies
      beside k-th copies. A card is weighed as above in the row its copy goes to, with the
      cards of this hand and the unseen cards whose copy would go to that row; and once it
      is down, the next copy of it may follow at once in the next row: worth ``run_weight``
      if this hand holds it, a block lost if it is unseen. Hand sizes count every copy.

    - Rows begun with any card (``layout.start`` any): a row is weighed turned round the ring
      until its first card (for an empty row, the card that would begin it) sits at the 7,
      so runs and blocks read as above. Beginning a row whose last card, the rank just
      below the first, this hand holds is worth ``END_WEIGHT`` more where that card gives
      another play: the player of a row's last card begins the next row (Play or Pay).

    Ties are broken with ``rng``. Without ``game`` the agent assumes a plain table: ace low,
    open ends, covers when stuck.
    """

    name = "heuristic"

    def __init__(
        self,
        rng: random.Random,
        *,
        game: Game | None = None,
        run_weight: float = RUN_WEIGHT,
        open_weight: float = OPEN_WEIGHT,
        block_weight: float = BLOCK_WEIGHT,
        cover_cost_weight: float = COVER_COST_WEIGHT,
        strand_weight: float = STRAND_WEIGHT,
        reserve_passes: int = RESERVE_PASSES,
        joker_keep: float = JOKER_KEEP,
        joker_release_hand: int = JOKER_RELEASE_HAND,
    ) -> None:
        self.rng = rng
        self.rules = TableRules.of(game)
        self.run_weight = run_weight
        self.open_weight = open_weight
        self.block_weight = block_weight
        self.cover_cost_weight = cover_cost_weight
        self.strand_weight = strand_weight
        self.reserve_passes = reserve_passes
        self.joker_keep = joker_keep
        self.joker_release_hand = joker_release_hand
        self._ext = self.rules.extensions
        self._cache = _reach_cache(self._ext)

    # -- reachability ------------------------------------------------------------------
    def _reach(self, row: int, blocked: int) -> int:
        """Ranks that can still join a row, in some order, without the ``blocked`` ones
        (13-bit masks of one suit)."""
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
        """The legal action worth most by the weights above (ties drawn with ``rng``)."""
        legal = observation.legal
        if len(legal) == 1:
            return legal[0]
        options = self.choices(observation)
        return options[below(self.rng, len(options))]

    def choices(self, observation: Observation) -> list[int]:
        """The legal actions worth most by the weights above, equally (``act`` draws one)."""
        legal = observation.legal
        if len(legal) == 1:
            return list(legal)
        suits = self._suits(observation)
        if observation.hand_on:  # the card to hand on: the one it would cover
            covers = [COVER + a - GIVE for a in legal]
            return [GIVE + a - COVER for a in self._cheapest(observation, suits, covers)]
        plays = [a for a in legal if a < COVER or a >= JOKER]
        covers = [a for a in legal if COVER <= a < PASS]
        if plays:
            pressure = self._pressure(observation)
            scored = [(self._play_score(observation, suits, a, pressure), a) for a in plays]
            best = max(s for s, _ in scored)
            if PASS in legal and self._passes_instead(observation, best):
                return [PASS]  # (a block's stop costs nothing: it stops where laying on hurts)
            if covers and best < -self._cover_floor(observation, suits, covers):
                return self._cheapest(observation, suits, covers)  # house rules: covers by choice
            return [a for s, a in scored if s == best]
        if covers:
            return self._cheapest(observation, suits, covers)
        return [PASS] if PASS in legal else [legal[0]]

    def worth(self, observation: Observation) -> list[float]:
        """What each legal action is worth by the weights above, in own cards brought closer:
        a play its score, a cover (or a card handed on) less its cost in cards, a pass
        nothing. (``choices`` adds the decisions between kinds: when to pass or cover instead
        of playing.) The learned policy reads these (``learn.policy``)."""
        legal = observation.legal
        suits = self._suits(observation)
        out: dict[int, float] = {}
        if observation.hand_on:
            covers = [COVER + a - GIVE for a in legal]
            for cost, a in self._cover_costs(observation, suits, covers):
                out[GIVE + a - COVER] = -cost / POINTS_PER_CARD
            return [out[a] for a in legal]
        plays = [a for a in legal if a < COVER or a >= JOKER]
        covers = [a for a in legal if COVER <= a < PASS]
        if plays:
            pressure = self._pressure(observation)
            for a in plays:
                out[a] = self._play_score(observation, suits, a, pressure)
        if covers:
            for cost, a in self._cover_costs(observation, suits, covers):
                out[a] = -cost / POINTS_PER_CARD
        return [out.get(a, 0.0) for a in legal]

    def _suits(self, obs: Observation) -> list[_Suit]:
        hand, table, dead = obs.hand_mask, obs.table_mask, obs.covered_mask
        out = []
        for s in range(4):
            shift = 13 * s
            t = (table >> shift) & SUIT_MASK
            h = (hand >> shift) & SUIT_MASK
            d = (dead >> shift) & SUIT_MASK
            out.append(_Suit(s, t, h, d, self.rules.ranks & ~(t | h | d)))
        return out

    def _opponent_out_of_passes(self, obs: Observation) -> bool:
        limit = self.rules.pass_limit
        if limit is None:
            return False
        return any(
            seat != obs.seat and obs.hand_counts[seat] and used >= limit
            for seat, used in enumerate(obs.pass_counts)
        )

    def _pressure(self, obs: Observation) -> float:
        """How much blocking counts at this turn: double while an opponent in the game has
        no passes left, not at all late in a game while an opponent may hold the joker."""
        if obs.hand_counts[obs.seat] <= self.joker_release_hand and self._opponent_may_hold_joker(
            obs
        ):
            return 0.0  # a held extension is where the joker lands, handed back to us
        return 2.0 if self._opponent_out_of_passes(obs) else 1.0

    def _play_score(
        self, obs: Observation, suits: list[_Suit], action: int, pressure: float
    ) -> float:
        """What a play (or joker play) is worth, in own cards brought closer. With several
        decks a card is weighed in the row its copy goes to (``_row_of_copy``), and for
        the next copy of it that its play lets down at once: one of this hand's
        (``run_weight``), or an unseen one (a block lost)."""
        extra = 0.0
        if self.rules.decks > 1 and action < JOKER:
            suits, extra = self._row_of_copy(obs, suits, action, pressure)
        return self._row_score(obs, suits, action, pressure) + extra

    def _row_of_copy(
        self, obs: Observation, suits: list[_Suit], card: int, pressure: float
    ) -> tuple[list[_Suit], float]:
        """With several decks: ``suits`` with ``card``'s suit seen in the row its copy goes
        to, and what the play is worth for the next copy of the card.

        A suit's copies lie stacked (``core.kernel._row_frontier``): the row of the k-th
        copies holds the ranks down at least k times. A copy of a card down k-1 times goes to
        the k-th row; in that row this hand holds the ranks whose k-th copy would be its
        own (down j times, held k-j times or more), and the unseen ranks are the others not
        yet down k times. Once the card is down, its next copy may go down at once where
        the next row reaches its rank: a card of this hand's brought closer, or an unseen
        card released."""
        decks = self.rules.decks
        suit, rank = divmod(card, 13)
        shift = 13 * suit
        table = [(m >> shift) & SUIT_MASK for m in (obs.table_mask, *obs.table_copies)]
        hand = [(m >> shift) & SUIT_MASK for m in (obs.hand_mask, *obs.hand_copies)]
        down = [SUIT_MASK, *table[:decks], 0]  # down[k + 1]: the ranks down k+1 times or more
        exactly = [down[j] & ~down[j + 1] for j in range(decks + 1)]  # down j times
        mine = [0] * decks
        for k in range(decks):
            for j in range(k + 1):
                mine[k] |= exactly[j] & hand[k - j]
        dead = suits[suit].dead
        unseen = [self.rules.ranks & ~(down[k + 1] | mine[k] | dead) for k in range(decks)]
        k = sum(down[j + 1] >> rank & 1 for j in range(decks))  # the row its copy goes to
        out = list(suits)
        out[suit] = _Suit(suit, down[k + 1], mine[k], dead, unseen[k])
        extra = 0.0
        if k + 1 < decks and self._ext[down[k + 2]] >> rank & 1:  # the next copy may follow
            if mine[k + 1] >> rank & 1:
                extra = self.run_weight
            elif unseen[k + 1] >> rank & 1:
                extra = -(self.block_weight * pressure)
        return out, extra

    def _row_score(
        self, obs: Observation, suits: list[_Suit], action: int, pressure: float
    ) -> float:
        """What a play (or joker play) is worth in its suit's row as ``suits`` see it."""
        if action >= TRUMP:  # a trump, weighed as the card of the place it takes
            card = trump_parts(action)[0]
            placed = 1 << (card % 13)
        elif action >= JOKER:
            at, card = joker_parts(action)
            placed = 1 << (at % 13) | 1 << (card % 13)
        else:  # weighed in the place it goes to (a card a trump displaced: the trump row)
            card = home(obs, action)
            placed = 1 << (card % 13)
        suit = suits[card // 13]
        mine = 1 << (card % 13)
        t, h, d, u = suit.table, suit.hand, suit.dead, suit.unseen
        k = 0
        if self.rules.start_any:  # weighed turned for the row's first card to sit at the 7
            k = core_kernel.turn_to_centre(t, card % 13, self.rules.centre)
            t, h, d, u, mine, placed = (
                core_kernel.turned(x, k) for x in (t, h, d, u, mine, placed)
            )
        reach = self._reach
        base = t | (placed & ~mine)  # the row as the played card meets it
        behind = reach(base, d) & ~reach(base, d | mine) & ~mine  # cards that need it
        own = _count(behind & h)
        after, kept = t | placed, h & ~mine
        released = reach(after, d | kept) & u & ~reach(t, d | h)
        now = self._ext[after]
        given = _count(released & now) + FAR_RELEASE * _count(released & ~now)
        given += _count(placed & ~mine & u)  # the joker's place: its holder plays it
        rules = self.rules
        opening = (card % 13 + k) % 13 == rules.centre and not t
        score = (self.open_weight if opening else self.run_weight) * own
        last = (rules.centre + 12) % 13  # the last card of a row begun here
        if rules.start_any and rules.extra_after_end and not t and h >> last & 1:
            score += END_WEIGHT * self.run_weight  # its own: another play, the next row
        score -= self.block_weight * pressure * given
        if rules.covering:
            # own cards cut off for good (斬龍) will have to be covered
            lost = reach(t, d) & ~reach(after, d) & ~placed
            lost_own = core_kernel.turned(lost & h, (13 - k) % 13)
            score -= self.cover_cost_weight * _points(lost_own) / POINTS_PER_CARD
            if not now and suit.index in obs.opened:  # closes the suit: a closure bonus
                score += rules.closure_bonus[obs.opened.index(suit.index)] / POINTS_PER_CARD
            score += HIGH_CARD_FIRST * (card % 13 + 1)
        if JOKER <= action < TRUMP:
            score += self._joker_score(obs, own)
        return score

    def _opponent_may_hold_joker(self, obs: Observation) -> bool:
        """The deck has more jokers than this hand holds, stand on the table or went with
        players who left holding only jokers (one each at least)."""
        if not self.rules.jokers:
            return False
        mine = (obs.hand_mask & JOKERS).bit_count()
        return mine + obs.jokers_at.bit_count() + len(obs.left) < self.rules.jokers

    def _joker_score(self, obs: Observation, own: int) -> float:
        """A joker play sheds one more card; it is kept while the hand is long unless it
        unlocks an own run, and used before it could be left alone in the hand."""
        left = obs.hand_counts[obs.seat] - 2  # cards kept besides the joker and the card it plays
        if left <= JOKER_ENDGAME:
            return self.run_weight + self.joker_keep
        return self.run_weight - (0.0 if own else self.joker_keep)

    def _passes_instead(self, obs: Observation, best: float) -> bool:
        """A pass by choice: every play gives more to the others than to this hand, and a
        pass is to spare (a block's stop, no pass, always is, unless the card laid on would
        be the hand's last: it goes out)."""
        if best >= 0:
            return False
        if obs.laying:
            return obs.hand_counts[obs.seat] > 1
        limit = self.rules.pass_limit
        used = obs.pass_counts[obs.seat]
        left = (limit if limit is not None else ASSUMED_PASS_LIMIT) - used
        reserve = 0 if self._opponent_out_of_passes(obs) else self.reserve_passes
        return left > reserve

    # -- covering ----------------------------------------------------------------------
    def _cover_floor(self, obs: Observation, suits: list[_Suit], covers: list[int]) -> float:
        """How bad the best play must be before a cover by choice is preferred (only house
        rules that let a player cover instead of playing)."""
        cheapest = min(cost for cost, _ in self._cover_costs(obs, suits, covers))
        return cheapest / POINTS_PER_CARD + 2

    def _cheapest(self, obs: Observation, suits: list[_Suit], covers: list[int]) -> list[int]:
        """The covers of least cost."""
        costs = self._cover_costs(obs, suits, covers)
        low = min(c for c, _ in costs)
        return [a for c, a in costs if c == low]

    def _cover_costs(
        self, obs: Observation, suits: list[_Suit], covers: list[int]
    ) -> list[tuple[float, int]]:
        """Each cover with the points it costs, less what it strands in other hands."""
        rules = self.rules
        held = obs.own_covered
        melds = rules.melds and len(held) >= 3  # a meld takes four cards or more
        mask = sum(1 << c for c in held)
        exempt = exempt_points(mask) if melds else 0
        covered = sum(c % 13 + 1 for c in held if not is_joker(c)) - exempt
        out = []
        for action in covers:
            card = action - COVER
            if is_joker(card):
                out.append((-1.0, action))  # counts no points
                continue
            suit = suits[card // 13]
            bit = 1 << (card % 13)
            t, h, d, u = suit.table, suit.hand, suit.dead, suit.unseen
            k = 0
            if rules.start_any:  # weighed turned for the row's first card to sit at the 7
                k = core_kernel.turn_to_centre(t, card % 13, rules.centre)
                t, h, d, u, bit = (core_kernel.turned(x, k) for x in (t, h, d, u, bit))
            live = self._reach(t, d)
            if not live & bit:
                out.append((-0.5, action))  # never playable: covering it costs nothing more
                continue
            counted = card % 13 + 1
            if melds:
                counted -= exempt_points(mask | 1 << card) - exempt
            behind = live & ~self._reach(t, d | bit) & ~bit  # cards that need it
            if rules.start_any and not t:
                behind = 0  # any other card may begin the row: none needs this one
            back = (13 - k) % 13
            cost = self.cover_cost_weight * (
                counted + _points(core_kernel.turned(behind & h, back))
            )
            cost -= self.strand_weight * _points(core_kernel.turned(behind & u, back))
            bust = rules.bust_above
            if bust is not None and covered <= bust < covered + counted:
                cost += self.cover_cost_weight * (covered + counted)  # a bust doubles the bill
            out.append((cost, action))
        return out


def _search_players() -> dict[str, AgentFactory]:
    from paiqi_core.search import GuidedAgent, ISMCTSAgent, PIMCAgent

    return {"pimc": PIMCAgent, "ismcts": ISMCTSAgent, "guided": GuidedAgent, "expert": _expert}


def _expert(rng: random.Random, *, game: Game | None = None, budget: Any = None) -> Agent:
    """``expert`` (``search.expert``), imported when asked for: its model needs numpy, which
    play without it does not."""
    from paiqi_core.search.expert import expert

    return expert(rng, game=game, budget=budget)


_expert.pairs = True  # type: ignore[attr-defined]  # its strength reads NxM, as guided's


AGENTS: dict[str, AgentFactory] = {
    "random": RandomAgent,
    "eager": EagerAgent,
    "heuristic": HeuristicAgent,
    **_search_players(),
}
# players that take a strength after a colon: ``ismcts:2000``, ``pimc:64x8``, ``ismcts:50ms``
STRENGTHS = frozenset({"pimc", "ismcts", "guided", "expert"})
# levels by their everyday names
# (``expert``: ``hard`` over a belief learned for the rules in play by ``paiqi train``; where
# none is trained it plays as ``hard``)
LEVELS = {"easy": "random", "normal": "heuristic", "hard": "guided", "expert": "expert"}


def resolve(name: str) -> tuple[str, str | None]:
    """(player, strength) of an agent name: a level, a player, or ``player:strength``;
    ValueError, with the known names, if there is no such agent."""
    text = LEVELS.get(name.strip(), name.strip())
    base, colon, strength = text.partition(":")
    if base not in AGENTS:
        known = ", ".join(dict.fromkeys([*LEVELS, *AGENTS]))  # (expert is both)
        raise ValueError(
            f"unknown agent '{name}' (known: {known}; search players take a strength, "
            "e.g. ismcts:2000)"
        )
    if not colon:
        return base, None
    if base not in STRENGTHS:
        raise ValueError(f"agent '{base}' takes no strength (only {', '.join(sorted(STRENGTHS))})")
    from paiqi_core.search.budget import Budget

    Budget.parse(strength, pairs=getattr(AGENTS[base], "pairs", False))  # ValueError: why
    return base, strength


def make_agent(name: str, rng: random.Random, game: Game | None = None) -> Agent:
    """The agent called ``name`` (see ``resolve``) for a game of ``game``'s rules."""
    base, strength = resolve(name)
    factory: Any = AGENTS[base]
    if strength is None:
        agent: Agent = factory(rng, game=game)
    else:
        agent = factory(rng, game=game, budget=strength)
    return agent
