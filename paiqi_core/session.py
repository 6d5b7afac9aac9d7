"""Sessions (局): several hands in a row with running money per player.

A session lasts ``session.hands`` hands. With a ``session.bankroll`` every player starts
with that much; a player whose money falls below zero could not pay, and the session ends
after that hand. With a ``session.target`` (the poker7 app: 1,000) the session ends after
the hand in which a player's winnings or losses, counted from the start, reach the target.
The session is won by the most money (ties share the win).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from paiqi_core.outcome import Money, Result


@dataclass(frozen=True)
class SessionResult:
    """A finished session: money by seat, hands played, winners, who went broke."""

    money: tuple[Money, ...]  # at the end: bankroll (or 0) plus every hand's money
    hands_played: int
    winners: tuple[int, ...]
    broke: tuple[int, ...]  # players who could not pay (money below zero), if any
    house: Money = 0
    reached: tuple[int, ...] = ()  # players whose winnings or losses reached the target


def run_session(
    results: Iterable[Result],
    players: int,
    hands: int,
    bankroll: int | None,
    target: int | None = None,
) -> SessionResult:
    """Add up hand results until ``hands`` were played, a player cannot pay, or a player's
    winnings or losses reach ``target``."""
    start = bankroll or 0
    money: list[Money] = [start] * players
    house: Money = 0
    played = 0
    broke: tuple[int, ...] = ()
    reached: tuple[int, ...] = ()
    for result in results:
        played += 1
        money = [m + r for m, r in zip(money, result.money, strict=True)]
        house += result.house
        if bankroll is not None:
            broke = tuple(s for s, m in enumerate(money) if m < 0)
        if target is not None:
            reached = tuple(s for s, m in enumerate(money) if abs(Fraction(m) - start) >= target)
        if broke or reached or played == hands:
            break
    best = max(money)
    winners = tuple(s for s, m in enumerate(money) if m == best)
    return SessionResult(
        tuple(_exact(m) for m in money), played, winners, broke, _exact(house), reached
    )


def _exact(m: Money) -> Money:
    return m.numerator if isinstance(m, Fraction) and m.denominator == 1 else m
