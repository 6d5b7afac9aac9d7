"""How long a game of some rules can last and how much can be at stake in it, from the
rules alone: what a scoring needs to state its utility bounds and sums, and what the
adapters size their spaces and logs by.

Length. Every play, cover or joker move takes at least one card out of the hands for good
(a swap gives the joker back but takes the swapped card out), so a game has at most as
many of them as there are cards. Passes are bounded by the pass limit of each seat; without
a limit, where a player may pass only when stuck and every row can grow to its ends, at most
``players - 1`` passes come between two cards (a whole round of passes would leave the
table as it was, so everybody would be stuck for ever, which cannot happen while the
frontier of the rows is held by somebody). Where players may pass by choice without a limit,
or a pass takes a card (which can be handed round for ever, and makes a hand grow up to
every card; each such pass is followed by the move that hands the card on), the stall
rule (``rules.stall``, ``ending.stall``) bounds a game: fewer than ``stall * players``
passes come between two other moves, and each seat passes at most ``stall`` times among
them. A stock (``deck.leftover: stock``) adds a move for each card drawn from it and one
for the stop after a card drawn that fits and is kept; a stock nobody draws from holds
cards that never come into play, where a row can stop for good, so the stall rule bounds
such a game too. Where a turn lays a block of cards (``turn.lay`` blocks), a stop may
follow each card. Rules that no bound is known for (a plugin's stuck rule) have an
unbounded length (None).

Holders at the end. An ending says how many seats may still hold cards when it ends a game
(``most_holding(players)``: 0 when every hand empties, 1 when one is left, all but one at
the first player out); a plugin ending that does not say, or a stall rule, leaves every
seat possibly holding cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from paiqi_core.cards import CARD_POINTS

if TYPE_CHECKING:
    from paiqi_core.rules import Rules


@dataclass(frozen=True)
class Limits:
    """What bounds a game of some rules: seats, cards, and the most moves of each kind."""

    players: int
    cards: int  # cards dealt (the joker included)
    hand: int  # the most cards one seat is dealt
    card_moves: int  # the most plays, covers and joker moves in a game
    passes_per_seat: int | None  # the most passes one seat makes (None: unbounded)
    turns: int | None  # the most actions in a game (None: unbounded)
    events: int  # the most automatic events (placed 7s, cuts, swaps, bursts, leaves)
    holding_at_end: int = 0  # the most seats still holding cards when a game ends
    points: tuple[int, ...] = ()  # the deck's card points, highest first

    @property
    def log(self) -> int | None:
        """The most entries of a game's log: actions and events."""
        return None if self.turns is None else self.turns + self.events

    def most_points(self, count: int) -> int:
        """The most points ``count`` cards of the deck can be worth (covered, say)."""
        return sum(self.points[:count])


def limits(rules: Rules) -> Limits:
    """The limits of a game of ``rules`` (see the module's docstring)."""
    n = rules.players
    cards = len(rules.deck)
    takes = rules.pass_takes != "none"
    if rules.hand is not None:
        dealt = rules.hand * n
    else:
        dealt = cards if rules.leftover == "dealt" else cards - cards % n
    stock = cards - dealt if rules.leftover == "stock" else 0
    draws = stock if rules.draw != "none" else 0
    dead = stock - draws  # cards of a stock nobody draws from
    kept = rules.jokers and rules.profile.get("turn.joker_handover") != "forced"
    offers = cards if rules.profile.get("turn.joker_handover") == "optional" else 0
    # cards handed on, or drawn, make a hand grow
    hand = cards if takes else -(-dealt // n) + draws
    stuck = rules.stuck
    limit = stuck.pass_limit
    per_seat: int | None
    passes: int | None
    if stuck.loop == "cover":
        per_seat, passes = 0, 0
    elif limit is not None:
        per_seat, passes = limit, n * limit
    elif rules.must_play and not rules.topology.cut and not takes and not dead and not kept:
        # between two passes of one seat some card moved: at most one pass per card, and
        # one before the first; at most players - 1 passes between two cards
        per_seat, passes = cards + 1, (n - 1) * (cards + 1)
    elif rules.stall is not None:
        # the stall rule: fewer than stall * holders passes in a row, before the first
        # other move and after each of at most ``cards`` others
        per_seat, passes = rules.stall * (cards + 1), (rules.stall * n - 1) * (cards + 1)
    else:
        per_seat = passes = None
    # a pass that takes a card is followed by the card handed on: a move of its own; a
    # draw is a move, and so is the stop after a card drawn that is kept
    # the holder of a joker's place may be asked (turn.joker_handover optional): a move
    # a turn's block of cards (turn.lay blocks) may end with a stop: one after a card at most
    stops = cards if rules.profile.get("turn.lay") == "blocks" else 0
    turns = (
        None
        if passes is None
        else cards + passes * (2 if takes else 1) + 2 * draws + offers + stops
    )
    # placed 7s (each deck's), cuts, swaps, bursts, leaves
    events = 4 * rules.decks + 4 + (52 if rules.jokers else 0) + 2 * n
    declared = getattr(rules.ending, "most_holding", None)
    holding = n if rules.stall is not None or not callable(declared) else int(declared(n))
    points = tuple(sorted((CARD_POINTS[c] for c in rules.deck), reverse=True))
    return Limits(n, cards, hand, cards, per_seat, turns, events, holding, points)
