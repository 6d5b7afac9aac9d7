"""Matches: several games scored by rank points (Japanese 七並べ) or penalty points.

The player with the most points wins; a tie goes to whoever ranked higher in the last game
(players still tied share the win). With ``match.limit`` the match ends early, after the
game in which a player's points reach the limit in size: rank points up to it, penalty
points (negative totals) down to minus it. With ``match.next_lead: last_winner`` each game
after the first is led by the previous game's winner (``next_lead``); with
``match.next_centre: last_picks`` its centre is picked by the previous game's last
(``last_placed``, ``pick_centre``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from paiqi_core.outcome import Result


@dataclass(frozen=True)
class MatchResult:
    """A finished match: rank points by seat, the winners, games played."""

    points: tuple[int, ...]
    winners: tuple[int, ...]
    games: int
    reached: tuple[int, ...] = ()  # players whose points reached the limit in size
    # by game after the first, who moved first (match.next_lead: last_winner; else empty)
    leads: tuple[int, ...] = ()
    # by game after the first, who picked its centre (match.next_centre: last_picks)
    pickers: tuple[int, ...] = ()


def next_lead(result: Result) -> int:
    """The seat that moves first in the game after ``result`` under ``match.next_lead:
    last_winner``: its winner; where several share first place (a game the stall rule
    stopped), the one of lowest seat."""
    if result.winners:
        return min(result.winners)
    best = min(result.rank)
    return result.rank.index(best)


def last_placed(result: Result) -> int:
    """The seat that picks the centre of the game after ``result`` under
    ``match.next_centre: last_picks``: the player placed last; where several share last
    place, the one of lowest seat."""
    worst = max(result.rank)
    return result.rank.index(worst)


def pick_centre(ranks: Sequence[int], seed: int) -> int:
    """The centre rank a player of paiqi picks (``match.next_centre: last_picks``): one of
    ``ranks`` at random, from a stream of the next game's deal ``seed``. The pick comes
    before the deal, and whatever the centre every seat's chances are alike (the deal is
    random, and the holder of the opening card moves first), so no rank favours the picker
    and every level picks alike."""
    return ranks[random.Random(f"paiqi centre {seed}").randrange(len(ranks))]


def run_match(
    results: Iterable[Result],
    limit: int | None = None,
    next_lead_by_winner: bool = False,
    centre_by_last: bool = False,
) -> MatchResult:
    """Add up the points (each game's ``total``) of a match's games, until one player's
    reach ``limit`` in size (None: every game is played); with ``next_lead_by_winner``,
    each game after the first was led by the previous game's winner (``leads``), and with
    ``centre_by_last`` its centre was picked by the previous game's last (``pickers``)."""
    points: list[int] = []
    leads: list[int] = []
    pickers: list[int] = []
    last: Result | None = None
    played = 0
    reached: tuple[int, ...] = ()
    for r in results:
        if r.total is None:
            raise ValueError("a match needs a scoring that gives points (placement, penalty)")
        points = [a + b for a, b in zip(points or [0] * len(r.total), r.total, strict=True)]
        if next_lead_by_winner and last is not None:
            leads.append(next_lead(last))
        if centre_by_last and last is not None:
            pickers.append(last_placed(last))
        last, played = r, played + 1
        if limit is not None:
            reached = tuple(s for s, p in enumerate(points) if abs(p) >= limit)
            if reached:
                break
    if last is None:
        raise ValueError("a match needs at least one game")
    best = max(points)
    tied = [s for s in range(len(points)) if points[s] == best]
    top = min(last.rank[s] for s in tied)
    winners = tuple(s for s in tied if last.rank[s] == top)
    return MatchResult(tuple(points), winners, played, reached, tuple(leads), tuple(pickers))
