"""Turn-flow hooks: who opens, what a stuck player does, when the game ends."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from paiqi_core.actions import COVER, PASS, PLACE
from paiqi_core.cards import EVERY_CARD, bits, one_joker, parse_card
from paiqi_core.core import layout as L
from paiqi_core.core.plain import kernel
from paiqi_core.forms import Form, form
from paiqi_core.hooks.registry import Params, pack_of, register
from paiqi_core.pack import Pack
from paiqi_core.slots import Opening, Progress, SeatView, Start, StuckLoop


def core_start(kind: str, card: int, pack: Pack) -> Callable[[Sequence[int], int | None], Start]:
    """The start of the built-in opening ``kind`` (with its ``card``, for the ``pack``): the
    rule core's ``opening`` (``paiqi_core.core.kernel``), the one implementation that both
    engines play, run on the hands given."""
    R = [0] * L.RULES
    R[L.R_OPENING] = L.OPENINGS.index(kind)
    R[L.R_OPENING_CARD] = card
    R[L.R_CENTRE] = pack.centre

    def start(hands: Sequence[int], door: int | None) -> Start:
        if kind == "door_card" and (door is None or door >= 52):
            raise ValueError("this opening needs a door card (a suited card)")
        st = [0] * L.STATE
        st[L.HAND : L.HAND + len(hands)] = hands
        R[L.R_PLAYERS] = len(hands)
        log: list[tuple[int, int]] = []
        kernel.opening(st, R, log, -1 if door is None else door)
        first = st[L.FIRST]
        placed = tuple((seat, action - PLACE) for seat, action in log)
        return Start(st[L.TURN], None if first < 0 else first, placed)

    return start


@register(
    "opening",
    "holder_leads",
    params=("card",),
    summary="the holder of {card} moves first and must open with it",
)
def holder_leads(p: Params) -> Opening:
    """The holder of a fixed card moves first and must open with it."""
    card = parse_card(p["card"])
    start = core_start("holder_leads", card, pack_of(p))
    return Opening(start, compiled=form("holder_leads", card=card))


@register("opening", "first_seat", summary="seat 0 (the dealer's left) moves first; any 7 may open")
def first_seat(p: Params) -> Opening:
    """Seat 0 moves first; any 7 (any centre card) may open."""
    return Opening(core_start("first_seat", -1, pack_of(p)), compiled=form("first_seat"))


@register(
    "opening",
    "seven_holder",
    summary="the first player from the dealer's left holding a 7 moves first; any 7 may open",
    readings=("seven-holder-none",),
)
def seven_holder(p: Params) -> Opening:
    """The first seat (from seat 0, the dealer's left) holding a 7 (a centre card) moves
    first; any 7 may open. Where nobody holds one (they lie in a stock), seat 0 does."""
    pack = pack_of(p)
    sevens = L.EACH_SUIT << pack.centre
    return Opening(
        core_start("seven_holder", -1, pack),
        compiled=form("seven_holder"),
        none_before_first_mover=sevens,
    )


@register(
    "opening",
    "door_card",
    summary="a door card (門牌) is cut before play; the holder of the 7 of its suit moves first "
    "and must open with it",
)
def door_card(p: Params) -> Opening:
    """A door card is cut before play; its suit's 7 (centre card) opens, played by its
    holder."""
    start = core_start("door_card", -1, pack_of(p))
    return Opening(start, uses_door_card=True, compiled=form("door_card"))


@register(
    "opening",
    "sevens_out",
    params=("card",),
    summary="every 7 goes to the table right after the deal; the player who held {card} "
    "moves first",
    readings=("sevens-placed-at-once",),
)
def sevens_out(p: Params) -> Opening:
    """Every 7 (centre card) goes to the table after the deal; the holder of a fixed card
    moves first."""
    card = parse_card(p["card"])
    return Opening(
        core_start("sevens_out", card, pack_of(p)),
        compiled=form("sevens_out", card=card),
        first_mover_was_dealt=card,
    )


def covers_of(hand: int, coverable: int) -> list[int]:
    """Cover actions for ``hand``: the coverable cards, or any card when none is (a hand of
    only uncoverable cards cannot happen under built-in rules: a held 7 is playable). The
    alike jokers are one action (``JOKER``)."""
    return [COVER + c for c in bits(one_joker(hand & coverable or hand))]


@dataclass(frozen=True)
class CoverWhenStuck:
    """A player with no legal play covers a card face down (any card of ``coverable``)."""

    coverable: int = EVERY_CARD
    name: str = "cover"
    covers: bool = True
    pass_limit: int | None = None
    may_burst: bool = False
    loop: StuckLoop | None = "cover"

    @property
    def compiled(self) -> Form | None:
        """The kernel's ``cover`` (a subclass that changes the behaviour declares its own)."""
        if type(self) is not CoverWhenStuck:
            return None
        return form("cover", coverable=self.coverable)

    def actions(self, seat: SeatView) -> list[int]:
        """Every coverable card of the hand may be covered."""
        return covers_of(seat.hand, self.coverable)

    def voluntary(self, seat: SeatView) -> list[int]:
        """Where playing is not compulsory, a player may cover instead."""
        return covers_of(seat.hand, self.coverable)


@register(
    "stuck",
    "cover",
    params=("cover_sevens",),
    summary="a player with no legal play covers a card face down",
)
def cover(p: Params) -> CoverWhenStuck:
    """A stuck player covers a card (7s, the centre cards, only if ``cover_sevens``)."""
    sevens = pack_of(p).centres
    return CoverWhenStuck(EVERY_CARD if p.get("cover_sevens", True) else EVERY_CARD & ~sevens)


@dataclass(frozen=True)
class PassWhenStuck:
    """A player with no legal play passes; with a limit, a player out of passes bursts or,
    with ``then_cover``, covers a card."""

    pass_limit: int | None = None
    then_cover: bool = False
    name: str = "pass"

    @property
    def covers(self) -> bool:
        """Covers happen once the passes run out, with ``then_cover``."""
        return self.pass_limit is not None and self.then_cover

    @property
    def may_burst(self) -> bool:
        """A player out of passes with nothing to play bursts, unless it covers."""
        return self.pass_limit is not None and not self.then_cover

    @property
    def loop(self) -> StuckLoop | None:
        """Unlimited passes: ``pass`` (a stuck player always passes)."""
        return "pass" if self.pass_limit is None else None

    @property
    def coverable(self) -> int:
        """Any card may be covered once the passes are used up (with ``then_cover``)."""
        return EVERY_CARD if self.covers else 0

    @property
    def compiled(self) -> Form | None:
        """The kernel's ``pass`` (a subclass that changes the behaviour declares its own)."""
        if type(self) is not PassWhenStuck:
            return None
        return form("pass", pass_limit=self.pass_limit, then_cover=self.then_cover)

    def voluntary(self, seat: SeatView) -> list[int]:
        """A pass by choice, while passes are left."""
        limit = self.pass_limit
        return [PASS] if limit is None or seat.passes_used < limit else []

    def actions(self, seat: SeatView) -> list[int]:
        """A pass while passes are left; then a cover, or nothing (a burst)."""
        limit = self.pass_limit
        if limit is None or seat.passes_used < limit:
            return [PASS]
        return covers_of(seat.hand, EVERY_CARD) if self.then_cover else []


@register(
    "stuck",
    "pass",
    params=("pass_limit", "out_of_passes"),
    summary="a player with no legal play passes",
)
def pass_(p: Params) -> PassWhenStuck:
    """A stuck player passes, up to ``pass_limit`` times; then bursts or covers."""
    return PassWhenStuck(p.get("pass_limit"), p.get("out_of_passes") == "cover")


@dataclass(frozen=True)
class AllEmpty:
    """The game ends when every hand is empty."""

    @property
    def compiled(self) -> Form | None:
        """The kernel's ``all_empty`` (a subclass that changes ``over`` declares its own)."""
        return form("all_empty") if type(self) is AllEmpty else None

    def most_holding(self, players: int) -> int:
        """Every hand is empty when it ends."""
        return 0

    def over(self, game: Progress) -> bool:
        """No hand holds a card."""
        return not any(game.hands)


@dataclass(frozen=True)
class FirstOut:
    """The game ends when a player empties their hand."""

    @property
    def compiled(self) -> Form | None:
        """The kernel's ``first_out`` (a subclass that changes ``over`` declares its own)."""
        return form("first_out") if type(self) is FirstOut else None

    def most_holding(self, players: int) -> int:
        """Everyone but the first out may still hold cards."""
        return players - 1

    def over(self, game: Progress) -> bool:
        """Somebody has finished."""
        return bool(game.finished)


@dataclass(frozen=True)
class OneLeft:
    """The game ends when one player (or none) still holds cards."""

    @property
    def compiled(self) -> Form | None:
        """The kernel's ``one_left`` (a subclass that changes ``over`` declares its own)."""
        return form("one_left") if type(self) is OneLeft else None

    def most_holding(self, players: int) -> int:
        """One seat at most still holds cards when it ends."""
        return 1

    def over(self, game: Progress) -> bool:
        """At most one hand holds cards."""
        return sum(1 for h in game.hands if h) <= 1


@register(
    "ending",
    "all_empty",
    summary="players leave as their hands empty; the game ends when every hand is empty",
)
def all_empty(p: Params) -> AllEmpty:
    """The game ends when every hand is empty."""
    return AllEmpty()


@register("ending", "first_out", summary="the game ends when a player lays their last card")
def first_out(p: Params) -> FirstOut:
    """The game ends at the first player out."""
    return FirstOut()


@register(
    "ending",
    "one_left",
    summary="players leave as they finish, burst or keep only the joker; the game ends when "
    "one player still holds cards",
)
def one_left(p: Params) -> OneLeft:
    """The game ends when one player still holds cards."""
    return OneLeft()
