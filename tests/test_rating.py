"""Bradley-Terry ratings, checked against results whose fit is known by hand."""

from __future__ import annotations

import math

import pytest

from paiqi_core.rating import bradley_terry


def test_two_players_three_to_one() -> None:
    # 75 wins of 100: strengths 3 : 1, i.e. 400 log10(3) = 190.85 Elo apart; the log-odds
    # have standard error sqrt(1 / (100 * 0.75 * 0.25)) = 0.2309, so the interval is
    # 1.96 * 0.2309 * 400 / ln 10 = 78.6 Elo.
    a, b = bradley_terry(["a", "b"], [[0, 75], [25, 0]])
    assert (a.elo, a.ci95) == (0.0, None)
    assert b.elo == pytest.approx(-400 * math.log10(3), abs=1e-6)
    assert b.ci95 == pytest.approx(1.959964 * math.sqrt(1 / 18.75) * 400 / math.log(10), rel=1e-6)


def test_three_players_whose_results_fit_the_model_exactly() -> None:
    # strengths 4 : 2 : 1 give exactly these results: a beats b 2/3 of the time, b beats c
    # 2/3, a beats c 4/5
    wins = [[0, 20, 40], [10, 0, 20], [10, 10, 0]]
    _, b, c = bradley_terry(["a", "b", "c"], wins)
    assert b.elo == pytest.approx(-400 * math.log10(2), abs=1e-6)
    assert c.elo == pytest.approx(-400 * math.log10(4), abs=1e-6)
    assert b.ci95 is not None and c.ci95 is not None and c.ci95 > 0


def test_a_player_who_never_loses_is_capped_without_an_interval() -> None:
    _, b = bradley_terry(["a", "b"], [[0, 0], [12, 0]])
    assert b.elo == pytest.approx(1200) and b.ci95 is None
    draws = bradley_terry(["a", "b"], [[0, 5], [5, 0]])
    assert draws[1].elo == pytest.approx(0.0, abs=1e-9)
