"""What a learned belief reads: for each unseen card and each group of places it may be in,
a row of numbers taken from one seat's observation.

A *group* is where unseen cards may lie as a seat tells places apart: another seat's hand
(``HAND``), the cards that seat covered (``COVERS``: every cover of it together), or the
stock (``STOCK``). ``read(belief)`` gives, for the belief's unseen cards (``belief.hidden``)
and its groups:

- ``x``: ``(cards, groups, FEATURES)`` float32 rows, described by ``NAMES``: what the seat of
  the group did while the card fitted the table (moves that passed it by, passes), the cards
  it laid towards the card along its row, how far the card lies from fitting, and the kind of
  the group and where its seat sits;
- ``offset``: ``(cards, groups)`` the logarithm of how many of the group's places may hold
  the card (``-inf`` where none may): what the uniform belief gives each group;
- ``group_of``: for each of the belief's places, its group.

A model (``paiqi_core.learn.model``) adds a learned score to the offset; a softmax over the
groups is then its guess where the card is. Every number comes from the public history and
the seat's own cards, as ``Belief`` reads them (``Belief(..., moments=True)``), so the rows
mean the same thing under every rule set.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from paiqi_core.actions import COVER, HIDDEN_COVER, JOKER, PASS, TRUMP
from paiqi_core.belief import STOCK, Belief
from paiqi_core.cards import JOKER as JOKER_CARD
from paiqi_core.cards import bits

HAND, COVERS, STOCK_GROUP = 0, 1, 2
MAX_SEATS = 12  # (the most players a profile may seat)
CARDS = JOKER_CARD + 1  # the 52 suited cards and one column for every joker

# what each seat did with each card (per seat, per card)
_BY_CARD = (
    "passed_by",  # moves of the seat that laid another card while this one fitted (log1p)
    "passed_by_last",  # its last move laid another card while this one fitted
    "passed_while",  # passes of the seat while this card fitted (log1p)
    "towards",  # cards the seat laid along this card's row, between the centre and it (/6)
    "next_to",  # the seat laid the card just inside this one (towards the centre)
    "next_to_last",  # ... with its last move
    "suit_laid",  # cards of this suit the seat laid (/6)
    "opened",  # the seat laid this suit's centre card
)
# the seat as a whole
_BY_SEAT = ("laid", "covers", "passes", "hand_share", "cover_share")
# the card alone (weighed against the rest through the model's hidden layer)
_CARD = ("gap", "far", "fits", "joker", "points", "side")
NAMES: tuple[str, ...] = (
    *_BY_CARD,
    *_BY_SEAT,
    *_CARD,
    "hand",
    "covers_group",
    "stock",
    *(f"seat+{k}" for k in range(1, MAX_SEATS)),
)
FEATURES = len(NAMES)


@dataclass
class Reading:
    """A seat's observation as a learned belief reads it (see the module's docstring)."""

    x: np.ndarray  # (cards, groups, FEATURES) float32
    offset: np.ndarray  # (cards, groups) float64, -inf where the card cannot be
    groups: list[tuple[int, int]]  # (seat, kind) of each group; seat STOCK for the stock
    group_of: list[int]  # the group of each of the belief's places
    columns: np.ndarray  # the card column (0..52) of each unseen card


def _played(action: int) -> int | None:
    """The card a move laid from the hand (a joker move: the card beyond its place)."""
    if action < COVER:
        return action
    if action >= TRUMP:
        return (action - TRUMP) % 64
    if action >= JOKER:
        return (action - JOKER) % 64
    return None


def _outside(rank: int, centre: int) -> list[int]:
    """The ranks just outside ``rank`` along its row, away from the centre (both sides of
    the centre card)."""
    out = [rank + 1] if rank >= centre else []
    if rank <= centre:
        out.append(rank - 1)
    return [r for r in out if 0 <= r < 13]


def _rows(belief: Belief) -> tuple[np.ndarray, np.ndarray]:
    """(by seat and card ``(n, CARDS, len(_BY_CARD))``, by seat ``(n, len(_BY_SEAT))``)."""
    game, obs = belief.game, belief.observation
    n = game.players
    centre = game.rules.topology.centre
    moments = belief.moments
    if moments is None:
        raise ValueError("a learned belief reads Belief(game, observation, moments=True)")
    by_card = np.zeros((n, CARDS, len(_BY_CARD)), np.float64)
    laid = np.zeros(n)
    passes = np.zeros(n)
    last: list[int] = [-1] * n  # the index of each seat's last card move
    for index, (seat, action, fits, _table) in enumerate(moments):
        card = _played(action)
        if card is not None:
            last[seat] = index
            laid[seat] += 1
            for c in bits(fits & ((1 << JOKER_CARD) - 1)):
                if c != card:
                    by_card[seat, c, 0] += 1
            if card < JOKER_CARD:
                suit, rank = divmod(card, 13)
                row = by_card[seat, 13 * suit : 13 * suit + 13]
                row[:, 6] += 1
                if rank == centre:
                    row[:, 7] = 1
                for r in range(13):  # the cards beyond it, on its side of the centre
                    if (rank >= centre and r > rank) or (rank <= centre and r < rank):
                        row[r, 3] += 1
                for outer in _outside(rank, centre):
                    row[outer, 4] = 1
        elif action in (PASS, HIDDEN_COVER):
            passes[seat] += 1
            for c in bits(fits & ((1 << JOKER_CARD) - 1)):
                by_card[seat, c, 2] += 1
    for seat, index in enumerate(last):  # what the seat's last card move passed by, laid next to
        if index < 0:
            continue
        action, fits = moments[index][1], moments[index][2]
        card = _played(action)
        assert card is not None
        for c in bits(fits & ((1 << JOKER_CARD) - 1)):
            if c != card:
                by_card[seat, c, 1] = 1
        if card < JOKER_CARD:
            suit, rank = divmod(card, 13)
            for outer in _outside(rank, centre):
                by_card[seat, 13 * suit + outer, 5] = 1
    by_card[:, :, 0] = np.log1p(by_card[:, :, 0])
    by_card[:, :, 2] = np.log1p(by_card[:, :, 2])
    by_card[:, :, 3] /= 6
    by_card[:, :, 6] /= 6
    hidden = max(len(belief.hidden), 1)
    covers = np.array(obs.covered_counts[:n], dtype=np.float64)
    hands = np.array(obs.hand_counts[:n], dtype=np.float64)
    by_seat = np.stack([laid / 13, covers / 13, passes / 5, hands / hidden, covers / hidden], 1)
    return by_card, by_seat


def _card_rows(belief: Belief) -> np.ndarray:
    """``(CARDS, len(_CARD))``: how far each card lies from fitting the table now, how far
    from the centre, whether it fits now, a joker, its points, its side of the centre."""
    game, obs = belief.game, belief.observation
    centre = game.rules.topology.centre
    table = obs.table_mask
    fits = getattr(belief, "fits_now", 0)
    out = np.zeros((CARDS, len(_CARD)))
    for c in range(JOKER_CARD):
        suit, rank = divmod(c, 13)
        row = table >> 13 * suit & 0x1FFF
        step = 1 if rank >= centre else -1
        if not row >> centre & 1:
            gap = abs(rank - centre)
        else:
            reach = centre
            while 0 <= reach + step < 13 and row >> (reach + step) & 1:
                reach += step
            gap = max(abs(rank - reach) - 1, 0)
        out[c] = (
            gap / 6,
            abs(rank - centre) / 6,
            fits >> c & 1,
            0,
            (rank + 1) / 13,
            (rank > centre) - (rank < centre),
        )
    out[JOKER_CARD, 3] = 1
    return out


def read(belief: Belief) -> Reading:
    """The rows of every unseen card of ``belief`` in every group (see the module)."""
    n = belief.game.players
    me = belief.seat
    groups: list[tuple[int, int]] = []
    group_of: list[int] = []
    index: dict[tuple[int, int], int] = {}
    for place in belief.places:
        if place.seat == STOCK:
            key = (STOCK, STOCK_GROUP)
        else:
            key = (place.seat, HAND if place.cover < 0 else COVERS)
        if key not in index:
            index[key] = len(groups)
            groups.append(key)
        group_of.append(index[key])
    columns = np.array([min(c, JOKER_CARD) for c in belief.hidden], dtype=np.int64)
    k = len(belief.hidden)
    room = np.zeros((k, len(groups)))
    for p, place in enumerate(belief.places):
        allowed = belief.allowed[p]
        g = group_of[p]
        for i, c in enumerate(belief.hidden):
            if allowed >> c & 1:
                room[i, g] += place.size
    with np.errstate(divide="ignore"):
        offset = np.log(room)
    by_card, by_seat = _rows(belief)
    cards = _card_rows(belief)
    x = np.zeros((k, len(groups), FEATURES), np.float32)
    a, b = len(_BY_CARD), len(_BY_CARD) + len(_BY_SEAT)
    c_end = b + len(_CARD)
    x[:, :, b:c_end] = cards[columns][:, None, :]
    for g, (seat, kind) in enumerate(groups):
        x[:, g, c_end + kind] = 1
        if seat == STOCK:
            continue
        x[:, g, :a] = by_card[seat, columns]
        x[:, g, a:b] = by_seat[seat]
        x[:, g, c_end + 3 + (seat - me) % n - 1] = 1
    return Reading(x, offset, groups, group_of, columns)


def truth(reading: Reading, belief: Belief, hands: list[int], covered: list[int]) -> np.ndarray:
    """The group each unseen card really is in, given every seat's hand and covered cards
    (masks): the index into ``reading.groups`` (a card with copies in several: the first)."""
    where = np.full(len(belief.hidden), -1, np.int64)
    stock = next((g for g, (s, _) in enumerate(reading.groups) if s == STOCK), -1)
    for i, c in enumerate(belief.hidden):
        bit = 1 << c
        for g, (seat, kind) in enumerate(reading.groups):
            if seat == STOCK:
                continue
            if (hands if kind == HAND else covered)[seat] & bit and np.isfinite(
                reading.offset[i, g]
            ):
                where[i] = g
                break
        if where[i] < 0:
            where[i] = stock
    return where
