"""Meld exemption among covered cards (斬龍/點差 platform).

Covered cards that form a 同花順 (five consecutive ranks of one suit; A-2-3-4-5 counts,
10-J-Q-K-A does not, the ace sitting below the 2), a 鐵支 (four of a rank) or a 葫蘆 (three
of a rank and a pair of another) are not counted. A card serves one meld at most. When the
cards allow several choices, the one taken has the most 同花順, then the most 鐵支, then the
most 葫蘆 (the priority of the rules), then the most points exempted; among choices equal
on all four, the first found in card order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations

from paiqi_core.cards import CARD_POINTS

STRAIGHT, FOUR, FULL_HOUSE = "同花順", "鐵支", "葫蘆"


def _candidates(cards: tuple[int, ...]) -> list[tuple[str, tuple[int, ...]]]:
    have = set(cards)
    out: list[tuple[str, tuple[int, ...]]] = []
    for suit in range(4):
        for low in range(9):  # A-5 .. 9-K
            run = tuple(13 * suit + r for r in range(low, low + 5))
            if have.issuperset(run):
                out.append((STRAIGHT, run))
    by_rank: dict[int, list[int]] = {}
    for c in cards:
        if c < 52:
            by_rank.setdefault(c % 13, []).append(c)
    for group in by_rank.values():
        if len(group) == 4:
            out.append((FOUR, tuple(sorted(group))))
    for rank3, group3 in sorted(by_rank.items()):
        for triple in combinations(sorted(group3), 3):
            for rank2, group2 in sorted(by_rank.items()):
                if rank2 == rank3:
                    continue
                for pair in combinations(sorted(group2), 2):
                    out.append((FULL_HOUSE, tuple(sorted(triple + pair))))
    return out


def _points(cards: Sequence[int]) -> int:
    return sum(map(CARD_POINTS.__getitem__, cards))


@lru_cache(maxsize=65536)
def best_melds(cards: tuple[int, ...]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The melds exempted among ``cards`` (sorted card numbers), by the rule above."""
    candidates = _candidates(cards)
    if not candidates:
        return ()
    kinds = (STRAIGHT, FOUR, FULL_HOUSE)

    def key(chosen: Sequence[tuple[str, tuple[int, ...]]]) -> tuple[int, ...]:
        counts = [sum(1 for k, _ in chosen if k == kind) for kind in kinds]
        return (*counts, sum(_points(m) for _, m in chosen))

    def search(start: int, used: frozenset[int]) -> Iterator[list[tuple[str, tuple[int, ...]]]]:
        yield []
        for i in range(start, len(candidates)):
            kind, meld = candidates[i]
            if used.isdisjoint(meld):
                for rest in search(i + 1, used | set(meld)):
                    yield [(kind, meld), *rest]

    best: list[tuple[str, tuple[int, ...]]] = []
    best_key = key(best)
    for chosen in search(0, frozenset()):
        k = key(chosen)
        if k > best_key:
            best, best_key = chosen, k
    return tuple(best)


def exempt_points(cards: Sequence[int]) -> int:
    """Points of ``cards`` that the meld exemption does not count."""
    return sum(_points(m) for _, m in best_melds(tuple(sorted(cards))))
