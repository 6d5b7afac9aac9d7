"""Matches: points added game by game, and a limit that ends a match early (WILD_RULES
rows 8 and 18: penalty points to a losing limit, points to a set total)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from paiqi_core import Game
from paiqi_core.cards import parse_cards
from paiqi_core.match import run_match
from paiqi_core.outcome import PlayerOutcome, Result


def game(*total: int) -> Result:
    """A game's result carrying its points; the best total ranks first."""
    rank = tuple(1 + sum(1 for u in total if u > t) for t in total)
    return Result(rank=rank, winners=(), money=(0,) * len(total), total=total)


# penalty points: minus the cards each player still held when the first went out
PENALTIES = [game(0, -3, -5, -1), game(-4, 0, -2, -6), game(-2, -7, 0, -1), game(-1, 0, -9, -3)]


def test_a_match_adds_up_every_game_without_a_limit() -> None:
    # seat 0: 0 - 4 - 2 - 1 = -7; seat 1: -3 + 0 - 7 + 0 = -10; seat 2: -5 - 2 + 0 - 9 = -16;
    # seat 3: -1 - 6 - 1 - 3 = -11: seat 0, with the fewest penalty points, wins
    match = run_match(PENALTIES)
    assert (match.points, match.winners, match.games, match.reached) == (
        (-7, -10, -16, -11),
        (0,),
        4,
        (),
    )


def test_a_penalty_limit_ends_the_match_after_the_game_that_reaches_it() -> None:
    # after two games -4, -3, -7, -7; after three -6, -10, -7, -8: seat 1 has fallen to
    # exactly -10, the limit, so the fourth game is never played; seat 0 wins on -6
    asked: list[int] = []

    def games() -> Iterator[Result]:
        for i, r in enumerate(PENALTIES):
            asked.append(i)
            yield r

    match = run_match(games(), limit=10)
    assert (match.points, match.winners, match.games, match.reached) == (
        (-6, -10, -7, -8),
        (0,),
        3,
        (1,),
    )
    assert asked == [0, 1, 2]


def test_rank_points_to_a_set_total() -> None:
    # 3/2/1/0 a game: after two games 3 + 2 = 5 and 2 + 3 = 5 for seats 0 and 1, both at a
    # limit of 5; tied, seat 1 ranked higher in the last game and wins
    ranks = [game(3, 2, 1, 0), game(2, 3, 0, 1), game(3, 2, 1, 0)]
    match = run_match(ranks, limit=5)
    assert (match.points, match.winners, match.games, match.reached) == (
        (5, 5, 1, 1),
        (1,),
        2,
        (0, 1),
    )


def test_a_match_needs_games_with_points() -> None:
    with pytest.raises(ValueError, match="at least one game"):
        run_match([])
    with pytest.raises(ValueError, match="gives points"):
        run_match([Result(rank=(1, 2), winners=(0,), money=(0, 0))])


def test_siebener_raus_adds_up_the_pip_values_of_the_cards_left_over_its_five_games() -> None:
    # WILD_RULES row 20: the value of the cards left, added up over the games. Pip values (A 1,
    # 2-10 their number, J Q K 10), seat by seat and game by game:
    #   game 1, seat 0 out:  SK 10 | H2 H3 5   | CA 1     -> 0, -10, -5, -1
    #   game 2, seat 1 out:  D9 9  | CQ 10     | S4 S5 9  -> -9, 0, -10, -9
    #   game 3, seat 3 out:  HA 1  | C6 6      | DJ D8 18 -> -1, -6, -18, 0
    #   game 4, seat 2 out:  S10 10 | H5 5     | D3 3     -> -10, -5, 0, -3
    #   game 5, seat 0 out:  CK 10 | S2 2      | H6 6     -> 0, -10, -2, -6
    # totals -20, -31, -35, -19: seat 3 wins with the fewest penalty points
    siebener = Game("siebener-raus")
    assert siebener.rules.match.games == 5
    deals = [
        (0, {1: "SK", 2: "H2 H3", 3: "CA"}),
        (1, {0: "D9", 2: "CQ", 3: "S4 S5"}),
        (3, {0: "HA", 1: "C6", 2: "DJ D8"}),
        (2, {0: "S10", 1: "H5", 3: "D3"}),
        (0, {1: "CK", 2: "S2", 3: "H6"}),
    ]
    results = []
    for out, held in deals:
        seats = []
        for s in range(4):
            cards = tuple(parse_cards(held[s].split())) if s in held else ()
            seats.append(
                PlayerOutcome(finish=0 if s == out else None, hand_left=len(cards), held=cards)
            )
        results.append(siebener.rules.scoring.score(seats))
    assert [r.total for r in results] == [
        (0, -10, -5, -1),
        (-9, 0, -10, -9),
        (-1, -6, -18, 0),
        (-10, -5, 0, -3),
        (0, -10, -2, -6),
    ]
    match = run_match(results, siebener.rules.match.limit)
    assert (match.points, match.winners, match.games) == ((-20, -31, -35, -19), (3,), 5)
