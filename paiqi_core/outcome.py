"""What scoring reads: per-player facts at the end of a game, and the scored result."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple

from paiqi_core.cards import CARD_POINTS, JOKER, SEVEN


class PlayerOutcome(NamedTuple):
    """End-of-game facts of one seat, read from the game state (or stated by an example).

    A named tuple rather than a frozen dataclass: one is built per seat per game, and
    simulations build millions.
    """

    covered: tuple[int, ...] = ()  # covered cards, in card order
    played: int = 0  # number of cards this player played
    last_play: int | None = None  # the card whose play emptied the hand, if any
    # suits this player closed (completed, or cut in 斬龍), each as the order in which the
    # suit's 7 was opened: 1 for the first suit opened
    completions: tuple[int, ...] = ()
    finish: int | None = None  # 0 for the first player out, 1 for the next, ...
    passes: int = 0
    hand_left: int = 0  # cards still held when the game ended
    hand_size: int = 13  # cards dealt to this player
    burst: int | None = None  # 0 for the first player to burst, 1 for the next, ...
    left_with_joker: bool = False  # left the game holding only jokers
    centre: int = SEVEN  # the rank every row starts from (the 7 unless the rules say)
    left: int | None = None  # 0 for the first player to leave holding only jokers, ...
    # the cards still held, every copy (hand_left of them); () where only their number is
    # known (an example's settlement that gives it), which counts them as the lowest cards
    held: tuple[int, ...] = ()
    # Hoyle's penalties (the chips scoring): passes made when the player could have played;
    # by suit, the passes it made holding that suit's centre card while it could have been
    # played (() for none); and the centre's neighbours (the 6s and 8s) it was dealt, whose
    # holder such a pass pays (() where no pass held a centre card back)
    able_passes: int = 0
    held_back: tuple[int, ...] = ()
    neighbours: tuple[int, ...] = ()

    @property
    def covered_points(self) -> int:
        """Face points of the covered cards (a covered joker counts 0)."""
        return sum(map(CARD_POINTS.__getitem__, self.covered))

    @property
    def all_covered(self) -> bool:
        """Covered every card dealt and played none (全蓋/十三蓋)."""
        return self.played == 0 and len(self.covered) == self.hand_size

    @property
    def last_seven(self) -> bool:
        """The card whose play emptied the hand is a 7 (尾張7; a card of the centre rank
        where the rules name another)."""
        last = self.last_play
        return last is not None and last < JOKER and last % 13 == self.centre

    @property
    def clean(self) -> bool:
        """Emptied the hand by playing only (全脫手)."""
        return not self.covered and self.hand_left == 0 and self.played > 0


Money = int | Fraction  # exact: an int when whole


def exact(value: Fraction) -> Money:
    """An int when the fraction is whole (cheaper to add up), else the fraction."""
    return value.numerator if value.denominator == 1 else value


class Result(NamedTuple):
    """A scored game. A named tuple for the same reason as ``PlayerOutcome``."""

    rank: tuple[int, ...]
    winners: tuple[int, ...]
    money: tuple[Money, ...]
    total: tuple[int, ...] | None = None
    labels: tuple[str, ...] | None = None
    house: Money = 0  # kept by the house (a fee): money plus house sums to zero
    exempt: tuple[int, ...] | None = None  # covered points not counted (melds)
    # by seat, whether the player paid more for covering points above the bust threshold
    # (爆點); None for a scoring without a bust
    busts: tuple[bool, ...] | None = None

    def as_record(self) -> dict[str, Any]:
        """The result as the ``result`` object of a game record."""
        out: dict[str, Any] = {}
        if self.total is not None:
            out["total"] = list(self.total)
        out["rank"] = list(self.rank)
        out["money"] = [money_json(m) for m in self.money]
        if self.labels is not None:
            out["labels"] = list(self.labels)
        if self.house:
            out["house"] = money_json(self.house)
        if self.exempt is not None:
            out["exempt"] = list(self.exempt)
        return out


def money_json(m: Money) -> int | str:
    """Money as JSON: an integer when whole, else the string ``"a/b"``."""
    return int(m) if m.denominator == 1 else f"{m.numerator}/{m.denominator}"


def money_text(x: Money | Fraction) -> str:
    """An amount as text: ``12``, ``-3/2``."""
    f = Fraction(x)
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def points_text(n: int) -> str:
    """``1 point``, ``17 points``."""
    return f"{n} point" if n in (1, -1) else f"{n} points"


def ordinal(k: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``."""
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")
