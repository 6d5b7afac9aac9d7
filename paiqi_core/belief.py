"""What one seat can know of the cards it cannot see, and whole games sampled from it.

``Belief(game, observation)`` replays the public history the observation carries (every
move and event as the table saw it, the hands burst players laid face up) and works out
where each unseen card may be: in another seat's hand now, or among the cards that seat
covered, at one of its covers. A cover, or a pass where passing is allowed only when stuck,
proves that the seat held none of the cards playable at that moment: it holds none of them
now, and covered none of them later. A pass by choice proves nothing. Jokers are followed
wherever they are seen (played, taken by a swap, gone with a leaver or a burst hand); a
card a joker stands in for was covered before the joker took its place. How many jokers are
unseen follows from the counts: the places' room less the unseen suited cards; how many a
seat was dealt, from the cards it was dealt (a public count) less the suited ones.

``sample(rng)`` returns a full game state, a *determinization*, that agrees with everything
the seat saw. The unseen cards are placed by a Markov chain over placements that respect
those constraints: it swaps two cards, or rotates three, between places whenever every card
may go to its new place; symmetric moves accepted on feasibility alone leave every allowed
placement equally likely. The game is then replayed from the deal the placement implies,
through the engine, which checks what the constraints cannot express (the joker's moves,
the rules of plugin hooks); a placement the replay refuses is skipped. So a sample never
contradicts the observation (``state.observation(seat) == observation``), and samples are
close to uniform over the deals that agree with it.

With several decks (``deck.decks``) the unseen cards are a multiset: each card of the pack
``decks`` times, less every copy the seat holds and every copy on the table; a hand of a
sample may hold a card two or three times. What fits at a pass is what fits any row of the
suit (the rows lie stacked, as the engine keeps them), the first seat holding a copy of the
opening card moves first, and a burst lays every copy of its hand (read from the table).

Replaying costs most of a sample, so once one sample has been replayed, later ones are made
from it by putting the unseen cards in their new places, wherever that gives the very state a
replay would (built-in rules, the joker not among the unseen cards; a test holds the two to
the same states): some five times quicker.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from paiqi_core.actions import (
    BURST,
    COVER,
    DRAW,
    DRAW_CARD,
    EVENT,
    GIVE,
    HIDDEN_COVER,
    HIDDEN_GIVE,
    JOKER,
    LEAVE,
    PASS,
    PLACE,
    SWAP,
    TRUMP,
    kind,
)
from paiqi_core.cards import EVERY_CARD, JOKERS, SUIT_MASK, SUITED, bits, is_joker, mask_of, planes
from paiqi_core.cards import JOKER as JOKER_CARD
from paiqi_core.core import layout as L
from paiqi_core.core.layout import EACH_SUIT, R_ENDS
from paiqi_core.core.plain import kernel, table_fits, trump_cards_down, trump_fits
from paiqi_core.core.play_rules import (
    OPTIONAL,
    R_JOKER_FINISH,
    R_JOKER_HANDOVER,
    R_LAY,
    R_START,
)
from paiqi_core.engine import Game, Observation, State
from paiqi_core.slots import GivenSeat

JOKER_BIT = 1 << JOKER_CARD


GROWING_DRAWS = ("increasing", "increasing_shared", "increasing_run")  # several cards a stop


class InconsistentObservation(ValueError):
    """No deal agrees with the observation (it was not produced by these rules)."""


class UnreadHistory(InconsistentObservation):
    """A history the sampler cannot read yet: no deal is drawn for it (the rule-based
    ``hard`` player then plays its prior; the pure search players stop with this error)."""


STOCK = -1  # the seat of the place that is the stock


@dataclass(frozen=True)
class Place:
    """Where unseen cards may be: a seat's hand now (``cover`` is -1), or what the seat
    covered at its ``cover``-th cover, or the stock (``seat`` is ``STOCK``); ``size`` cards
    go there."""

    seat: int
    cover: int
    size: int


def _handed_card(
    held: int,
    index: int,
    giver: int,
    stuck: Mapping[int, int],
    history: Sequence[tuple[int, int]],
    rng: random.Random,
) -> int | None:
    """The card handed on unseen at ``history[index]`` by ``giver``, walking back from a
    placement where the taker holds ``held`` (a mask) just after: a card that fitted at
    the taker's pass just before is the one it took (None where two could be); else one
    of the cards the giver could hold at its own passes before, at random."""
    forced = held & stuck.get(index - 1, 0)
    if forced:
        if forced & (forced - 1):
            return None
        cards = [forced.bit_length() - 1]
    else:
        fitted = 0
        for j, fits in stuck.items():
            if j < index and history[j][0] == giver:
                fitted |= fits
        cards = list(bits(held & ~fitted)) or list(bits(held))
    return cards[int(rng.random() * len(cards))] if cards else None


def _joker_spans(
    history: Sequence[tuple[int, int]], laid: Sequence[int]
) -> dict[int, list[tuple[int, int]]]:
    """Per seat, the stretches of the history (first index, index of the move or event that
    took a joker out of its hand) during which the seat is known to have held a joker: from
    the deal, or from its last swap (that gave it a joker), until it played a joker, left
    holding only jokers, or burst with a joker among the cards it laid."""
    spans: dict[int, list[tuple[int, int]]] = {}
    since: dict[int, int] = {}  # by seat, where its joker's stretch began: its last swap
    hands = iter(laid)
    for index, (seat, action) in enumerate(history):
        burst = action == BURST and bool(next(hands) & JOKERS)
        if burst or JOKER <= action < TRUMP or action == LEAVE:
            spans.setdefault(seat, []).append((since.get(seat, 0), index))
        elif kind(action) == "swap":
            since[seat] = index
    return spans


class Belief:
    """The unseen cards of one seat's observation, the places each may be, and deals drawn
    from them."""

    def __init__(self, game: Game, observation: Observation, *, moments: bool = False) -> None:
        self.game = game
        self.observation = observation
        # with ``moments``: every move of a seat as (seat, action, the cards that fitted just
        # before it, the table then), what a learned belief reads (``paiqi_core.learn``)
        self.moments: list[tuple[int, int, int, int]] | None = [] if moments else None
        self.seat = observation.seat
        self._chain: list[int] | None = None
        # a learned weight of each unseen card in each place (``tilt[card][place]``): the
        # chain then draws placements weighed by exp of their sum (``_mix_tilted``)
        self.tilt: list[list[float]] | None = None
        self._template: State | None = None  # a sample to rebuild others from (see _rebuilt)
        self._walks = random.Random(len(observation.history))  # cards moved unseen, walked back
        self._read_history()
        if self._gives and game.rules.jokers:
            raise UnreadHistory(
                "the belief sampler cannot yet follow cards handed on (turn.pass_takes) in a "
                "game with jokers"
            )
        self._find_places()
        self._rebuilds = self._may_rebuild()

    # -- what the public history proves ------------------------------------------------
    def _read_history(self) -> None:
        game, obs = self.game, self.observation
        rules = game.rules
        n = game.players
        probe = [EVERY_CARD] + [0] * (n - 1)
        first_card = rules.opening.start(probe, obs.door_card).first_card
        coverable = rules.stuck.coverable or EVERY_CARD
        voluntary: dict[int, set[str]] = {}

        def by_choice(action: int, used: int) -> bool:
            """Whether ``action`` could be chosen while a play was legal."""
            if rules.must_play:
                return False
            if used not in voluntary:
                seat = GivenSeat(EVERY_CARD, used)
                voluntary[used] = {kind(a) for a in rules.stuck.voluntary(seat)}
            return kind(action) in voluntary[used]

        table, started = 0, False
        # several decks (deck.decks): the table's cards down twice and three times, and what
        # fits is what fits any row of a suit (the engine keeps the rows stacked)
        decks = rules.decks
        twice = thrice = 0

        # trumps (layout.trumps): the card that named them, and the places of other suits
        # trumps took (the cards displaced from them go to the trump row)
        door = obs.door_card if game.trumps else None
        trumped = 0

        def lay(card: int) -> None:
            """One copy of ``card`` goes to the table (with one deck: the card), in its
            place (with trumps, a displaced card's is on the trump row)."""
            nonlocal table, twice, thrice
            if door is not None:
                card = kernel.trump_place(card, trumped, door)
            bit = 1 << card
            if decks > 1 and table & bit:
                if twice & bit:
                    thrice |= bit
                else:
                    twice |= bit
            else:
                table |= bit

        def fitting() -> int:
            """The cards that may be laid on the table as it is now."""
            if not started and first_card is not None:
                return 1 << first_card
            fits = table_fits(rules, (table, twice, thrice)[:decks])
            if door is not None:  # the cards that fit a place, in their own or as trumps
                return trump_fits(fits, trumped, door, rules.topology.centre)
            return fits

        # (card, seat) of a first card yet unplayed (with several decks: or played)
        self._opener: tuple[int, int] | None = None
        passes = [0] * n
        self._void = [0] * n  # cards each seat is proven not to hold (now, and when covering)
        self._covers: list[list[int]] = [[] for _ in range(n)]  # per cover: cards it is not
        self._out = [0] * n  # cards seen leaving each hand: part of what it was dealt
        self._laid: list[list[int]] = [[] for _ in range(n)]  # the same, each copy (decks)
        # with a single joker: a seat seen taking it (held or covered since), and its covers
        # made before it took the joker
        self._joker_with: int | None = None
        self._covers_before_swap = 0
        # the places jokers stand in, each with every seat's covers made before it took it
        self._under: dict[int, list[int]] = {}
        # where the holder of a joker's place is asked (turn.joker_handover optional): the
        # place -> the only seat that may have held it then (it kept it), None for none; where
        # the joker keeps its place unasked (never), any seat may hold the card under it
        self._handover = game.vector[R_JOKER_HANDOVER]
        self._asked: dict[int, int | None] = {}
        asked: tuple[int, int] | None = None  # (the place, the seat that laid the joker)
        me = obs.seat
        mover = next((seat for seat, a in obs.history if not EVENT <= a < JOKER), obs.turn)
        # an opening that gives the first move to the first seat dealt one of some cards
        # (seven_holder: a 7): the seats before the first mover were dealt none of them
        # where a 7 that fits goes first (turn.sevens_first), any other move proves the
        # mover held none that fitted
        sevens_first = 0
        if rules.profile.get("turn.sevens_first"):
            sevens_first = EACH_SUIT << rules.topology.centre
        none_before = getattr(rules.opening, "none_before_first_mover", 0)
        for t in range(mover if none_before else 0):
            self._void[t] |= none_before
        # and the first mover was dealt one of them (unless nobody was): a rule the masks
        # cannot hold, checked on each placement (``_opens_as_seen``)
        self._first_mover = (none_before, mover)
        held_joker = _joker_spans(obs.history, obs.laid)
        joker_proves = not game.vector[R_JOKER_FINISH]
        beyond = rules.topology.beyond
        laid = iter(obs.laid)
        self._bursts = self._burst_copies() if decks > 1 else []
        bursts = iter(self._bursts)
        # where a player may stop instead of playing an extra card after one that ended its
        # line, a pass right after such a card is that stop: no pass, and proof of nothing
        ends = game.vector[R_ENDS] if rules.extra_after_end == "may" else 0
        # where any card begins a row, the card that completes a row ends its line
        completes = rules.extra_after_end == "may" and bool(game.vector[R_START])
        ended_by = -1  # the seat whose last move laid a card that ends its line
        # cards handed on (turn.pass_takes): which this seat gave or took it knows; a card
        # handed to another seat unseen may be any card, so what that seat was proven not to
        # hold before no longer holds for its hand
        self._remembered = remembered = obs.remembered()  # (the cards this seat knows)
        self._gives = 0  # cards handed on
        self._gave: dict[int, int] = {}  # a card this seat handed on -> the seat it went to
        self._stuck: dict[int, int] = {}  # history index of a pass, cover or draw -> what fitted
        # cards drawn from the stock (turn.draw): this seat knows its own; a card drawn by
        # another seat may be any card the stock held, but one played at once is seen, and
        # where a player must play when able, one kept did not fit
        self._draws = 0  # draws (the walk back finds the deal)
        stopped = -1  # the index of a pass that is the stop after a draw (no pass)
        # where draws grow (turn.draw increasing), a stop draws several cards in a row: the
        # cards drawn so far at the stop in progress
        growing = rules.draw in GROWING_DRAWS
        run = 0
        # where a turn lays a block of cards (turn.lay blocks), a card or a pass right after
        # a card of the same seat lays on its block or stops it: a card the block allows,
        # whatever else fits (a 7 that fits need not go first), and a stop that proves
        # nothing (no pass)
        blocks = rules.profile.get("turn.lay") == "blocks"
        laying = -1  # the seat whose last move laid a card (it may be laying a block)
        history = obs.history
        moments = self.moments
        for index, (seat, action) in enumerate(history):
            if moments is not None and not EVENT <= action < JOKER and action != HIDDEN_GIVE:
                moments.append((seat, action, fitting(), table))
            within = False  # a card laid on a block
            if blocks:
                if action == PASS and seat == laying:
                    laying = -1
                    continue  # the stop of a block: no pass, and proof of nothing
                within = action < COVER and seat == laying
                if action < COVER:
                    laying = seat
                elif seat != laying or not EVENT <= action < JOKER:
                    laying = -1  # (an event of the same seat, a cut, keeps its block)
            if asked is not None and not EVENT <= action < JOKER:
                # the move after a joker's: the answer of the place's holder where it was
                # asked (the card: taken; a pass: kept, or the next player's own pass)
                x, mover = asked
                asked = None
                if action == x:
                    continue  # taken (the swap follows)
                if action == PASS and seat != mover:
                    self._asked[x] = seat  # kept, or no holder and a pass: no proof either way
                    continue
                self._asked[x] = None  # nobody was asked: nobody held it
            if action == DRAW:
                self._draws += 1
                playable = fitting()
                self._stuck[index] = playable & SUITED
                self._void[seat] |= playable & SUITED  # it drew: it was stuck
                after = history[index + 1] if index + 1 < len(history) else None
                run += 1
                if growing and (
                    after == (seat, DRAW) or (after is None and obs.turn == seat and not obs.drew)
                ):
                    self._void[seat] = 0  # more to draw (or may be): any card may be drawn
                    continue
                several, run = run > 1, 0
                if after is None:  # the last move: the card fits if it is to play on
                    fits = obs.drew and obs.turn == seat
                else:  # a card that fits is played at once, or kept with a stop
                    fits = after == (seat, PASS)
                    if fits:
                        stopped = index + 1  # (the stop is no pass)
                if several and (fits or (after is not None and after[0] == seat)):
                    self._void[seat] = 0  # one of several cards drawn fits: the rest may be any
                elif fits:  # kept, and it fits: any card that fits may be it
                    self._void[seat] &= ~playable
                elif after is None or not (after[0] == seat and after[1] < COVER):
                    # kept, and it does not fit: any card proven missing before may be it
                    self._void[seat] &= playable
                continue
            if index == stopped:
                continue
            if action == HIDDEN_GIVE:
                _, _, known, taker = remembered[index]
                assert taker is not None
                self._gives += 1
                for card in [c for c, t in self._gave.items() if t == seat]:
                    del self._gave[card]  # handed on again: it may be anywhere
                if known is not None:  # this seat gave it, or took it
                    card = known
                    self._void[taker] &= ~(1 << card)
                    if seat == me:
                        self._gave[card] = taker
                else:
                    self._void[taker] = 0
                continue
            if (ends or completes) and not EVENT <= action < JOKER:
                if action == PASS and seat == ended_by:
                    ended_by = -1
                    continue
                card = action if action < COVER else (action - JOKER) % 64
                ends_line = (action < COVER or action >= JOKER) and ends >> (card % 13) & 1
                if completes:
                    row = ((table | 1 << card) >> 13 * (card // 13)) & SUIT_MASK
                    ends_line = action < COVER and row == SUIT_MASK
                ended_by = seat if ends_line else -1
            if action in (HIDDEN_COVER, PASS):
                if sevens_first:  # a 7 that fitted would have gone first
                    self._void[seat] |= fitting() & sevens_first
                if not by_choice(action, passes[seat]):
                    playable = fitting()
                    self._void[seat] |= playable & SUITED
                    self._stuck[index] = playable & SUITED
                    if joker_proves and any(a <= index < b for a, b in held_joker.get(seat, ())):
                        # holding the joker, no joker move either: no card beyond a free place
                        # (where a player may not go out on a joker, a last card may be one)
                        for x in bits(playable & SUITED):
                            row = (table >> 13 * (x // 13)) & SUIT_MASK
                            y = beyond(row, x % 13)
                            if y is not None:
                                self._void[seat] |= 1 << (13 * (x // 13) + y)
                if action == PASS:
                    passes[seat] += 1
                else:
                    self._covers[seat].append(self._void[seat] | (EVERY_CARD & ~coverable))
            elif action < COVER:  # a play (of the hand, or of a card lying face up)
                if sevens_first and not within and not sevens_first >> action & 1:
                    # a 7 that fitted would have gone first: it held none (or a joker move)
                    self._void[seat] |= fitting() & sevens_first
                lay(action)
                self._out[seat] |= 1 << action & ~obs.leftover_mask
                if not obs.leftover_mask >> action & 1:
                    self._laid[seat].append(action)
                started = True
            elif action >= TRUMP:  # a trump in the place X of another suit
                at, card = divmod(action - TRUMP, 64)
                if sevens_first:
                    self._void[seat] |= fitting() & sevens_first
                table |= 1 << at
                trumped |= 1 << at
                self._out[seat] |= 1 << card
                started = True
            elif action >= JOKER:  # the joker at X, and the card beyond X
                at, card = divmod(action - JOKER, 64)
                if sevens_first:
                    self._void[seat] |= fitting() & sevens_first
                table |= 1 << at | 1 << card
                self._out[seat] |= 1 << card
                self._joker_with, started = None, True
                self._under[at] = [len(c) for c in self._covers]
                if self._handover == OPTIONAL:
                    asked = (at, seat)
            elif action >= EVENT:
                event = kind(action)
                if event == "place":
                    lay(action - PLACE)
                    self._out[seat] |= 1 << (action - PLACE)
                    self._laid[seat].append(action - PLACE)
                elif event == "swap":  # X laid from this hand; the joker taken into it
                    self._out[seat] |= 1 << (action - SWAP)
                    self._under.pop(action - SWAP, None)
                    self._joker_with = seat  # held, or covered later
                    self._covers_before_swap = len(self._covers[seat])
                elif event == "burst":
                    hand = next(laid)
                    if decks > 1:  # each copy the burst laid
                        for card in next(bursts):
                            lay(card)
                            self._laid[seat].append(card)
                    table |= (
                        hand & SUITED
                        if door is None
                        else kernel.trump_homes(hand & SUITED, trumped, door)
                    )
                    self._out[seat] |= hand & SUITED
                    if hand & JOKERS:
                        self._joker_with = None
                elif event == "leave":
                    self._joker_with = None
        if moments is not None:
            self.fits_now = fitting()  # (what fits the table as it is now)
        if asked is not None:  # the joker move was the last: the seat to move may be asked
            self._asked[asked[0]] = obs.turn if obs.turn != asked[1] else None
        if not started and first_card is not None:
            self._opener = (first_card, mover)  # who moves first holds the opening card
        elif decks > 1 and first_card is not None:
            # with copies the first seat dealt one moved first: the seats before it were
            # dealt none, and laid none since (an opening card played may have a copy)
            self._opener = (first_card, mover)
        # an opening that gives the first move to the holder of a card the table may not
        # show (sevens_out): only the first mover (a burst on that first turn included) can
        # hold it, or have covered it since
        self._leader: tuple[int, int] | None = None
        dealt = getattr(rules.opening, "first_mover_was_dealt", None)
        if dealt is not None:
            leader = next((s for s, a in obs.history if kind(a) != "place"), obs.turn)
            self._leader = (int(dealt), leader)
            if leader == 0 and rules.leftover == "stock":
                self._leader = None  # nobody may have been dealt it: it lay in the stock

    def _may_keep(self, x: int, t: int) -> bool:
        """Whether seat ``t`` may have held card ``x`` when a joker took its place and kept
        it since (turn.joker_handover: asked and kept, or never taken)."""
        if self._handover == OPTIONAL:
            return self._asked.get(x) == t
        return bool(self._handover)

    def _burst_copies(self) -> list[list[int]]:
        """With several decks: the cards each burst laid face up, each copy, in burst order.
        What a burst laid is public, but the observation gives each burst's cards as a mask
        (``laid``): the copies are the table's less every card played or placed; where
        two bursts laid the same card and the copies beyond one each are more than one
        burst could have laid, which burst laid which copy is not read (UnreadHistory)."""
        obs = self.observation
        extra = Counter(obs.table)
        for _, action in obs.history:
            if action < COVER:
                extra[action] -= 1
            elif PLACE <= action < PLACE + 52:
                extra[action - PLACE] -= 1
        out = []
        for hand in obs.laid:
            cards = list(bits(hand & SUITED))
            for c in cards:
                extra[c] -= 1
            out.append(cards)
        for c, more in extra.items():
            if more < 0:
                raise InconsistentObservation(f"fewer copies of card {c} down than were laid")
            if more:
                by = [cards for cards in out if c in cards]
                if len(by) != 1:
                    raise UnreadHistory(
                        "the belief sampler cannot yet tell which burst laid the copies of a "
                        "card that several bursts laid (several decks)"
                    )
                by[0].extend([c] * more)
        return [sorted(cards) for cards in out]

    def _find_places(self) -> None:
        game, obs, me = self.game, self.observation, self.seat
        # the places jokers stand in: the card itself may be unseen (unless this seat
        # covered it: nothing to place)
        under = {
            x: before
            for x, before in self._under.items()
            if obs.jokers_at >> x & 1 and not obs.covered_mask >> x & 1
        }
        down = obs.table_mask & ~obs.jokers_at
        door = obs.door_card if game.trumps else None
        if door is not None and obs.trumped:  # a trump lies where it took another's place
            down = trump_cards_down(down, obs.trumped, door)
        seen = down | obs.hand_mask | obs.covered_mask | obs.pool_mask
        for laid in obs.laid:  # (a card a burst laid face up where a joker keeps the place)
            seen |= laid & SUITED
        suited = [c for c in game.deck if c < JOKER_CARD and not seen >> c & 1]
        # several decks: the unseen cards are a multiset, the pack's cards (each ``decks``
        # times) less every copy this seat holds and every copy on the table; another
        # seat's hand may hold a card this seat holds or sees down (its other copies), and
        # which copy an opening card's holder or a card handed on is, nobody knows
        copies = game.rules.decks > 1
        if copies:
            shown = Counter([*obs.hand, *obs.table])
            suited = []
            for c in game.deck:
                if shown[c]:
                    shown[c] -= 1
                else:
                    suited.append(c)

        def barred(constraint: tuple[int, int] | None, t: int) -> int:
            """The card of ``constraint`` (the card, the seat that moved first for holding
            it) as a mask where seat ``t`` cannot hold it: another seat (with copies: an
            earlier seat, since the first seat holding a copy moves first); else 0."""
            if constraint is None or (copies and self._gives):
                return 0  # (a copy handed on may have gone anywhere: the replay checks)
            card, seat = constraint
            return 1 << card if (t < seat if copies else t != seat) else 0

        # a single joker is followed to the seat that took it; alike jokers are not
        with_joker = self._joker_with if game.rules.jokers == 1 else None
        # the card that named trumps was shown as it was dealt, the last card round the
        # table: its seat holds it (or covered it) until it is played
        named = 0
        holder = -1
        if door is not None:
            holder = (sum(obs.dealt_counts) - 1) % game.players
            named = 1 << door
        places: list[Place] = []
        allowed: list[int] = []
        for t in range(game.players):
            if t == me:
                continue
            if obs.hand_counts[t]:
                places.append(Place(t, -1, obs.hand_counts[t]))
                mask = EVERY_CARD & ~self._void[t]
                for constraint in (self._opener, self._leader):
                    mask &= ~barred(constraint, t)
                for x in under:
                    if self._may_keep(x, t):
                        continue  # the joker keeps its place: the card may be held
                    mask &= ~(1 << x)  # it was in no hand when the joker took its place
                if with_joker is not None and with_joker != t:
                    mask &= ~JOKER_BIT  # another seat took it
                for card, taker in self._gave.items():
                    if taker != t and not copies:
                        mask &= ~(1 << card)  # handed by this seat to another
                if t != holder:
                    mask &= ~named
                allowed.append(mask)
            for k, cannot in enumerate(self._covers[t]):
                places.append(Place(t, k, 1))
                mask = EVERY_CARD & ~cannot
                if self._opener is not None:
                    mask &= ~(1 << self._opener[0])
                if self._leader is not None and self._leader[1] != t:
                    mask &= ~(1 << self._leader[0])
                for x, before in under.items():
                    if k >= before[t] and not self._may_keep(x, t):
                        mask &= ~(1 << x)  # covered after the joker took its place
                if with_joker is not None and (with_joker != t or k < self._covers_before_swap):
                    mask &= ~JOKER_BIT  # the joker was taken by another seat, or later
                for card, taker in self._gave.items():
                    if taker != t:
                        mask &= ~(1 << card)  # handed by this seat to another
                if t != holder:
                    mask &= ~named
                allowed.append(mask)
        if obs.stock:  # the stock: any card no seat is known to hold
            mask = EVERY_CARD
            for constraint in (self._opener, self._leader):
                if constraint is not None:
                    mask &= ~(1 << constraint[0])
            for card in self._gave:
                mask &= ~(1 << card)
            places.append(Place(STOCK, -1, obs.stock))
            mask &= ~named
            allowed.append(mask)
        room = sum(p.size for p in places)
        jokers = room - len(suited)  # the rest of the room: unseen jokers
        if not 0 <= jokers <= game.rules.jokers:
            raise InconsistentObservation(f"{len(suited)} unseen cards for {room} places")
        self.hidden: tuple[int, ...] = (*suited, *range(JOKER_CARD, JOKER_CARD + jokers))
        self.places: tuple[Place, ...] = tuple(places)
        self.allowed: tuple[int, ...] = tuple(allowed)

    # -- placements ----------------------------------------------------------------------
    def _first_placement(self, rng: random.Random) -> list[int]:
        """A placement of the unseen cards (a place index per card) that respects every
        constraint: a maximum flow from cards to places, in a random order."""
        import networkx as nx  # only search players need it

        cards = list(range(len(self.hidden)))
        rng.shuffle(cards)
        order = list(range(len(self.places)))
        rng.shuffle(order)
        # nodes are integers (source 0, sink 1, cards from 2, places after them): the flow
        # algorithm keeps nodes in sets, and integers hash alike in every process, so the
        # placement found depends on the random stream alone
        first_place = 2 + len(cards)
        g = nx.DiGraph()
        g.add_nodes_from((0, 1))
        for i in cards:
            g.add_edge(0, 2 + i, capacity=1)
            for p in order:
                if self.allowed[p] >> self.hidden[i] & 1:
                    g.add_edge(2 + i, first_place + p, capacity=1)
        for p in order:
            g.add_edge(first_place + p, 1, capacity=self.places[p].size)
        flow, paths = nx.maximum_flow(g, 0, 1)
        if flow != len(self.hidden):
            raise InconsistentObservation("no placement of the unseen cards fits what was seen")
        placement = [0] * len(self.hidden)
        for i in cards:
            placement[i] = next(node for node, units in paths[2 + i].items() if units) - first_place
        return placement

    def _mix(self, placement: list[int], rng: random.Random, steps: int) -> None:
        """Move the chain ``steps`` steps: swap two cards between places, or rotate three,
        when every card may go to its new place. Indices are drawn as ``int(random() * n)``
        (uniform to within 2**-53, and several times quicker than ``randrange``: the chain
        draws most of a search player's random numbers)."""
        n = len(placement)
        if n < 2:
            return
        if self.tilt is not None:
            self._mix_tilted(placement, rng, steps, self.tilt)
            return
        hidden, allowed = self.hidden, self.allowed
        rnd = rng.random
        third = 1 / 3
        for _ in range(steps):
            i, j = int(rnd() * n), int(rnd() * n)
            pi, pj = placement[i], placement[j]
            if pi == pj:
                continue
            if n > 2 and rnd() < third:  # rotate: i to j's place, j to k's, k to i's
                k = int(rnd() * n)
                pk = placement[k]
                if (
                    pk != pi
                    and pk != pj
                    and (
                        allowed[pj] >> hidden[i] & 1
                        and allowed[pk] >> hidden[j] & 1
                        and allowed[pi] >> hidden[k] & 1
                    )
                ):
                    placement[i], placement[j], placement[k] = pj, pk, pi
            elif allowed[pj] >> hidden[i] & 1 and allowed[pi] >> hidden[j] & 1:
                placement[i], placement[j] = pj, pi

    def _mix_tilted(
        self, placement: list[int], rng: random.Random, steps: int, tilt: list[list[float]]
    ) -> None:
        """``_mix`` towards placements weighed by ``tilt``: a placement's weight is
        ``exp`` of the sum of ``tilt[card][place]`` over its cards, and a move that is
        allowed is taken with the Metropolis probability ``min(1, new weight / old)``."""
        n = len(placement)
        hidden, allowed = self.hidden, self.allowed
        rnd = rng.random
        third = 1 / 3
        for _ in range(steps):
            i, j = int(rnd() * n), int(rnd() * n)
            pi, pj = placement[i], placement[j]
            if pi == pj:
                continue
            ti, tj = tilt[i], tilt[j]
            if n > 2 and rnd() < third:
                k = int(rnd() * n)
                pk = placement[k]
                if (
                    pk != pi
                    and pk != pj
                    and (
                        allowed[pj] >> hidden[i] & 1
                        and allowed[pk] >> hidden[j] & 1
                        and allowed[pi] >> hidden[k] & 1
                    )
                ):
                    tk = tilt[k]
                    gain = ti[pj] + tj[pk] + tk[pi] - ti[pi] - tj[pj] - tk[pk]
                    if gain >= 0 or rnd() < math.exp(gain):
                        placement[i], placement[j], placement[k] = pj, pk, pi
            elif allowed[pj] >> hidden[i] & 1 and allowed[pi] >> hidden[j] & 1:
                gain = ti[pj] + tj[pi] - ti[pi] - tj[pj]
                if gain >= 0 or rnd() < math.exp(gain):
                    placement[i], placement[j] = pj, pi

    def placements(self, rng: random.Random) -> Iterator[list[int]]:
        """Placements drawn from the chain, one after another (the chain carries on from
        one call to the next)."""
        n = len(self.hidden)
        if self._chain is None:
            self._chain = self._first_placement(rng)
            self._mix(self._chain, rng, 40 * n + 50)  # burn-in
        while True:
            self._mix(self._chain, rng, 3 * n + 10)
            yield list(self._chain)

    def chain_at(self, rng: random.Random) -> list[int]:
        """The chain's placement now (started and burned in on first use): where a chain run
        elsewhere (``fast.sampling``) carries on from."""
        if self._chain is None:
            next(self.placements(rng))
        assert self._chain is not None
        return list(self._chain)

    @property
    def seen_leaving(self) -> list[int]:
        """The cards seen leaving each seat's hand (part of what it was dealt), by seat."""
        return list(self._out)

    @property
    def first_mover(self) -> tuple[int, int]:
        """(cards, seat): where the opening gives the first move to the first seat dealt
        one of ``cards`` (0: no such opening), the seat that moved first (seat 0 where no
        seat was dealt one)."""
        return self._first_mover

    @property
    def moved_unseen(self) -> bool:
        """Whether the history moved cards this seat did not see (covers, gives, draws):
        a deal's replay then needs the cards walked back, not only its hands."""
        return bool(self._gives or self._draws or any(self._covers))

    # -- whole states ----------------------------------------------------------------------
    def _split(self, placement: list[int]) -> tuple[list[int], list[dict[int, int]]]:
        """The unseen cards of ``placement`` by seat: in each hand (a mask), and covered
        (cover index -> card)."""
        n = self.game.players
        hands = [0] * n
        covers: list[dict[int, int]] = [{} for _ in range(n)]
        for i, p in enumerate(placement):
            place = self.places[p]
            if place.seat == STOCK:
                continue  # (the stock is what the deal leaves)
            if place.cover < 0:
                hands[place.seat] |= 1 << self.hidden[i]
            else:
                covers[place.seat][place.cover] = self.hidden[i]
        return hands, covers

    def state_of(self, placement: list[int]) -> State | None:
        """The game replayed from the deal this placement implies, or None when the engine
        refuses the history under it (what the placement chain cannot check)."""
        game, obs, me = self.game, self.observation, self.seat
        n = game.players
        hands, covers = self._split(placement)
        hands[me] = obs.hand_mask
        covered = [
            obs.covered_mask if t == me else sum(1 << c for c in covers[t].values())
            for t in range(n)
        ]
        unseen: list[int] = []
        deal: list[list[int]] | None
        if game.rules.decks > 1:  # (no covers, jokers, stock or bursts: only hands)
            held = self._held(placement)
            held[me] = list(obs.hand)
            if self._gives:
                deal = self._walked_back_copies(held, unseen)
            else:
                deal = self._dealt_copies(held)
        else:
            if self._gives or self._draws:
                dealt = self._walked_back(hands, covers, unseen)
            else:
                dealt = self._dealt(hands, covered)
            deal = None if dealt is None else [list(bits(d)) for d in dealt]
        if deal is None:
            return None
        state = game.new_state(hands=deal, door_card=obs.door_card)
        own = iter(obs.cover_order)
        moved = iter(unseen)
        taken = [0] * n
        for seat, action in obs.history:
            if action == HIDDEN_GIVE:
                action = GIVE + next(moved)
            elif action == DRAW:
                action = DRAW_CARD + next(moved)
            elif EVENT <= action < JOKER:
                continue  # events happen by themselves; the final comparison checks them
            if action == HIDDEN_COVER:
                if seat == me:
                    card = next(own, None)
                else:
                    card = covers[seat].get(taken[seat])
                    taken[seat] += 1
                if card is None:
                    return None
                action = COVER + min(card, JOKER_CARD)  # a joker: they are alike, one action
            if state.over or state.turn != seat:
                return None
            if action >= COVER and action not in state.legal_actions():  # (a draw names its card)
                named = DRAW_CARD <= action < GIVE and state.why_illegal(action) is None
                if not named:
                    return None  # a cover, a pass, a draw or a joker move these cards refuse
            state.apply_unchecked(action)
        return state if state.observation(me) == obs else None

    def _walked_back(
        self, hands: list[int], covers: list[dict[int, int]], unseen: list[int]
    ) -> list[int] | None:
        """The hands dealt where cards moved between hands, or from the stock to a hand:
        the history walked back from the hands ``hands`` (each card played, placed, covered
        or laid by a burst goes back to its hand), each card handed on unseen picked from
        what the taker held then, and each card drawn unseen from what the drawer held then
        (the replay then checks that the later moves allow it). Fills ``unseen`` with the
        card of each give and each draw, in order; None where the walk finds no card to
        give back, or the counts do not add up. Without jokers: a hand the jokers left or
        swapped cannot be walked back (None)."""
        obs, me = self.observation, self.seat
        if self.game.rules.jokers:
            return None
        back = list(hands)
        back[me] = obs.hand_mask
        own = list(obs.cover_order)
        counts = [len(c) for c in covers]
        counts[me] = len(own)
        remembered = self._remembered  # the cards this seat gave, took or drew
        laid = list(obs.laid)
        rng = self._walks  # a placement may be walked back more than once, each time anew
        chosen: list[int] = []
        history = obs.history
        stuck = self._stuck
        # where a stop draws several cards (turn.draw increasing), those after its first may
        # follow one that fits
        growing = self.game.rules.draw in GROWING_DRAWS
        for index in range(len(history) - 1, -1, -1):
            seat, action = history[index]
            fitted = stuck.get(index)
            if fitted is not None and back[seat] & fitted and action != DRAW:
                return None  # it passed or covered while holding a card that fitted
            if action < JOKER_CARD:  # played (from the hand, or lying face up)
                if not obs.leftover_mask >> action & 1:
                    back[seat] |= 1 << action
            elif action >= TRUMP:  # a trump laid in another suit's place
                back[seat] |= 1 << (action - TRUMP) % 64
            elif action == HIDDEN_COVER:
                counts[seat] -= 1
                card = own[counts[seat]] if seat == me else covers[seat].get(counts[seat])
                if card is None:
                    return None
                back[seat] |= 1 << card
            elif PLACE <= action < PLACE + 52:
                back[seat] |= 1 << (action - PLACE)
            elif action == BURST:
                back[seat] |= laid.pop() & SUITED
            elif action == HIDDEN_GIVE:
                _, _, known, taker = remembered[index]
                assert taker is not None
                card = known
                if card is None:
                    card = _handed_card(back[taker], index, seat, stuck, history, rng)
                if card is None or not back[taker] >> card & 1:
                    return None
                back[taker] ^= 1 << card
                back[seat] |= 1 << card
                chosen.append(card)
            elif action == DRAW:
                known = remembered[index].card
                if known is not None:  # this seat's own draw
                    card = known
                else:
                    card = self._drawn_back(back[seat], index, rng)
                    if card is None:
                        return None
                if not back[seat] >> card & 1:
                    return None
                back[seat] ^= 1 << card  # back to the stock
                if back[seat] & stuck[index] and not (
                    growing and index and history[index - 1] == (seat, DRAW)
                ):
                    return None  # it drew while holding a card that fitted (at a stop's first)
                chosen.append(card)
        if [d.bit_count() for d in back] != list(obs.dealt_counts):
            return None
        unseen.extend(reversed(chosen))
        return back

    def _held(self, placement: list[int]) -> list[list[int]]:
        """The unseen cards of ``placement`` in each hand, each copy (several decks)."""
        hands: list[list[int]] = [[] for _ in range(self.game.players)]
        for i, p in enumerate(placement):
            place = self.places[p]
            if place.seat != STOCK and place.cover < 0:
                hands[place.seat].append(self.hidden[i])
        return hands

    def _dealt_copies(self, hands: list[list[int]]) -> list[list[int]] | None:
        """With several decks: the hands dealt, by seat, each copy of a card, where each
        seat now holds ``hands``: what it holds and every card it was seen to lay. None
        where the counts do not add up."""
        dealt = []
        for t, size in enumerate(self.observation.dealt_counts):
            cards = sorted([*hands[t], *self._laid[t]])
            if len(cards) != size:
                return None
            dealt.append(cards)
        return dealt

    def _walked_back_copies(
        self, hands: list[list[int]], unseen: list[int]
    ) -> list[list[int]] | None:
        """``_walked_back`` with several decks (hands, plays and cards handed on only): the
        hands dealt, each copy of a card, found by walking the history back from the hands
        ``hands`` (each card laid goes back to its hand; each card handed on unseen is
        picked from what the taker held then, as ``_walked_back`` picks it). A hand is a
        multiset: a card it holds twice proves, at a pass, what one copy proves. Fills
        ``unseen`` with the card of each give, in order; None where the walk finds no card
        to give back, a seat passed holding a card that fitted, or the counts do not add
        up."""
        obs = self.observation
        back = [Counter(hand) for hand in hands]

        def mask(t: int) -> int:
            return sum(1 << c for c, k in back[t].items() if k)

        remembered = self._remembered
        rng = self._walks
        chosen: list[int] = []
        history = obs.history
        stuck = self._stuck
        bursts = list(self._bursts)
        for index in range(len(history) - 1, -1, -1):
            seat, action = history[index]
            fitted = stuck.get(index)
            if fitted is not None and mask(seat) & fitted:
                return None  # it passed while holding a card that fitted
            if action < JOKER_CARD:
                back[seat][action] += 1
            elif PLACE <= action < PLACE + 52:
                back[seat][action - PLACE] += 1
            elif action == BURST:
                back[seat].update(bursts.pop())
            elif action == HIDDEN_GIVE:
                _, _, known, taker = remembered[index]
                assert taker is not None
                card = known
                if card is None:
                    card = _handed_card(mask(taker), index, seat, stuck, history, rng)
                if card is None or not back[taker][card]:
                    return None
                back[taker][card] -= 1
                back[seat][card] += 1
                chosen.append(card)
        dealt = [sorted(hand.elements()) for hand in back]
        if [len(d) for d in dealt] != list(obs.dealt_counts):
            return None
        unseen.extend(reversed(chosen))
        return dealt

    def _drawn_back(self, held: int, index: int, rng: random.Random) -> int | None:
        """The card the draw at ``index`` of the history took, picked from ``held``, what
        the drawer held just after it (walking back): the card played at once, where it
        was; else one that fitted where the drawer stopped instead, or one that did not fit
        where a player must play when able; and of those, best a card the drawer cannot
        have held at its earlier passes, covers and draws (it came later). None where no
        card can be the one drawn."""
        obs = self.observation
        history = obs.history
        seat = history[index][0]
        fitted = self._stuck[index]
        after = history[index + 1] if index + 1 < len(history) else None
        if after is not None and after[0] == seat and after[1] < COVER:
            return after[1]  # played at once
        if after is not None and after[0] == seat and after[1] >= TRUMP:
            return (after[1] - TRUMP) % 64  # played at once, as a trump in another's place
        fits = after == (seat, PASS) if after is not None else obs.drew and obs.turn == seat
        before = history[index - 1] if index else None
        several = self.game.rules.draw in GROWING_DRAWS and (
            (seat, DRAW) in (after, before) or (after is None and obs.turn == seat)
        )
        if several:  # one of the cards a stop drew (turn.draw increasing): any, those that
            forced = list(bits(held & fitted))  # fit first (they came at this stop)
            if forced:
                return forced[int(rng.random() * len(forced))]
        elif held & fitted or fits:  # the drawer was stuck: a card held that fits was drawn
            forced = list(bits(held & fitted))
            return forced[0] if len(forced) == 1 and fits else None
        earlier = 0
        for j, mask in self._stuck.items():
            if j < index and history[j][0] == seat:
                earlier |= mask
        cards = list(bits(held & earlier)) or list(bits(held))
        if not cards:
            return None
        return cards[int(rng.random() * len(cards))]

    def _dealt(self, hands: list[int], covered: list[int]) -> list[int] | None:
        """The hands dealt, by seat, where each seat now holds ``hands`` and has covered
        ``covered``: the suited cards it holds, covered or was seen to lay, and as many jokers
        as the cards it was dealt leave room for (the alike jokers numbered in seat order).
        None where the counts do not add up."""
        dealt, joker = [], JOKER_CARD
        for t, size in enumerate(self.observation.dealt_counts):
            suited = (hands[t] | covered[t] | self._out[t]) & SUITED
            jokers = size - suited.bit_count()
            if jokers < 0 or joker + jokers > JOKER_CARD + self.game.rules.jokers:
                return None
            dealt.append(suited | ((1 << jokers) - 1) << joker)
            joker += jokers
        return dealt

    def _may_rebuild(self) -> bool:
        """Whether a sample can be made from another by exchanging the hidden cards
        (``_rebuilt``): the rules are built-in ones, whose every refusal of a history the
        placement constraints already express, and the joker is not among the unseen cards
        (where it is held, and whether a joker move was open, only a replay can tell), and no
        extra play follows a card that ends its line, a joker may end a hand, and no scoring
        counts the passes made when able (which the hands decide)."""
        from paiqi_core.fast.plan import forms_of  # declared forms: standard library only

        if any(map(is_joker, self.hidden)) or self.game.rules.extra_after_end != "none":
            return False  # extra plays: whether a pass was a stop, only a replay can tell
        if self.game.rules.pass_takes != "none" or self.game.rules.draw != "none":
            return False  # which cards moved unseen, only a walk back and a replay tell
        if self.game.vector[R_JOKER_FINISH]:
            return False  # whether a joker move would have gone out: the hand's size then
        if self.game.vector[R_LAY]:
            return False  # whether a turn's block could go on (it ended by itself): a replay
        if self.game.vector[L.R_TALLY]:
            return False  # which passes were made when able (Hoyle's chips): the hands then
        if self.game.rules.jokers and self.game.vector[R_JOKER_HANDOVER]:
            return False  # who was asked to take a joker back: only a replay tells
        return all(form is not None for form in forms_of(self.game.rules).values())

    def _rebuilt(self, placement: list[int]) -> State | None:
        """The state ``state_of(placement)`` gives, made from the first sample by putting
        the hidden cards in their new places: everything else of a state (the table, the
        turn, counts, finishes and bursts, the public log) is the same in every state that
        agrees with the observation. Exchanging cards is 4 to 12 times quicker than
        replaying the game; a test holds the two to the same states. None, as from
        ``state_of``, where the placement leaves the player to move nothing to do while the
        observation shows them to move (where stuck players burst, they would have)."""
        template = self._template
        assert template is not None
        n = self.game.players
        me = self.seat
        if self.game.rules.decks > 1:
            return self._rebuilt_copies(placement, template)
        hands, covers = self._split(placement)
        state = template.clone()
        order = state._cover_order
        hands[me] = self.observation.hand_mask
        covered = [self.observation.covered_mask] * n
        for t in range(n):
            if t != me:
                order[t] = [covers[t][k] for k in range(len(covers[t]))]
                covered[t] = sum(1 << c for c in order[t])
        dealt = self._dealt(hands, covered)
        assert dealt is not None  # no joker is unseen: the counts are those of the template
        if not self._opens_as_seen(dealt):
            return None
        for t in range(n):
            if t != me:
                state.set_hidden(t, hands[t], covered[t], dealt[t])
        taken = [0] * n
        log = state.log
        for index, (seat, action) in enumerate(log):
            if COVER <= action < PASS and seat != me:
                log[index] = (seat, COVER + order[seat][taken[seat]])
                taken[seat] += 1
        stuck = self.game.may_burst and not state.over and not state.legal_actions()
        return None if stuck and state.turn != me else state

    def _rebuilt_copies(self, placement: list[int], template: State) -> State | None:
        """``_rebuilt`` with several decks: each other seat's hand, and its hand as dealt,
        put in as planes (the cards held once or more, twice or more, three times)."""
        me = self.seat
        held = self._held(placement)
        held[me] = list(self.observation.hand)
        dealt = self._dealt_copies(held)
        if dealt is None:
            return None
        for constraint in (self._opener, self._leader):  # the seat that moved first for
            if constraint is not None and constraint[0] not in dealt[constraint[1]]:
                return None  # holding a copy of a card holds one (the masks bar the others)
        if not self._opens_as_seen([mask_of(cards) for cards in dealt]):
            return None
        state = template.clone()
        st = state.st
        for t in range(self.game.players):
            if t != me:
                st[L.HAND + t], st[L.TWICE + t], st[L.THRICE + t] = planes(held[t])
                st[L.DEALT + t], st[L.DEALT_TWICE + t], st[L.DEALT_THRICE + t] = planes(dealt[t])
        stuck = self.game.may_burst and not state.over and not state.legal_actions()
        return None if stuck and state.turn != me else state

    def _opens_as_seen(self, dealt: list[int]) -> bool:
        """Whether hands dealt as ``dealt`` (card masks by seat) give the first move to the
        seat that moved first, where the opening gives it to the first seat dealt one of
        some cards (seven_holder; seat 0 where no seat was)."""
        cards, mover = self._first_mover
        if not cards:
            return True
        return next((t for t, hand in enumerate(dealt) if hand & cards), 0) == mover

    def state_at(self, placement: list[int]) -> State | None:
        """The state of ``placement``: rebuilt from an earlier sample where that gives the
        replayed state (``_rebuilt``), else replayed (``state_of``); None where the
        placement breaks a rule the constraints cannot express."""
        if self._template is not None:
            return self._rebuilt(placement)
        state = self.state_of(placement)
        if state is not None and self._rebuilds:
            self._template = state.clone()
        return state

    def sample(self, rng: random.Random, tries: int = 5000) -> State:
        """One game state that agrees with the observation, drawn close to uniformly. Nearly
        every position finds one in a few draws; in a rare few (a joker unseen, with covers
        and passes that few deals explain) the chain needs hundreds, so the budget is wide:
        running out of it means the observation is not one a game can give."""
        draws = self.placements(rng)
        for _ in range(tries):
            state = self.state_at(next(draws))
            if state is not None:
                return state
        raise InconsistentObservation(f"no agreeing deal found in {tries} draws")

    def samples(self, rng: random.Random, count: int) -> list[State]:
        """``count`` states that agree with the observation."""
        return [self.sample(rng) for _ in range(count)]
