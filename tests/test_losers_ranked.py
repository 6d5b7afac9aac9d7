"""``scoring.losers: by_penalty`` (WILD_RULES row 13, gamerules.com's Satte pe Satta): the
players still holding cards are placed behind the first out by their penalty points."""

from __future__ import annotations

import pytest

from paiqi_core.games import game_for
from paiqi_core.profile import ProfileError, load_profile
from paiqi_core.runs.kernel_batch import results
from paiqi_core.seeds import game_seed
from paiqi_core.simulate import play_game

RANKED = {"scoring.penalty": "cards", "scoring.losers": "by_penalty"}


def test_the_losers_are_placed_by_the_cards_they_hold_on_both_engines() -> None:
    game = game_for("badam-satti", dict(RANKED))
    for index in range(30):
        ((kernel, _),) = results(game, 4, [index])
        state = play_game(game, game_seed(4, index))
        result = state.result()
        assert kernel == result  # the compiled and the Python engine place alike
        held = [len(state.held(s)) for s in range(4)]
        for s in range(4):
            if held[s] == 0:
                assert result.rank[s] == 1
            else:  # one place behind the finisher and everyone holding fewer cards
                behind = sum(1 for t in range(4) if held[t] < held[s])
                assert result.rank[s] == 1 + behind, (held, result.rank)


def test_unranked_losers_share_second_place() -> None:
    game = game_for("badam-satti", {"scoring.penalty": "cards"})
    state = play_game(game, game_seed(4, 0))
    assert sorted(state.result().rank) == [1, 2, 2, 2]


def test_ranking_the_losers_needs_penalty_points() -> None:
    with pytest.raises(ProfileError, match=r"by_penalty needs scoring\.penalty"):
        load_profile("badam-satti", ["scoring.losers=by_penalty"])
    with pytest.raises(ProfileError, match="not a rule of scoring"):
        load_profile("doujue", ["scoring.losers=by_penalty"])
