"""The worked hook example of docs/authoring.md runs as written."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from paiqi_core import Game
from paiqi_core.hooks import registry
from paiqi_core.verify import verify_paths

from .conftest import ROOT

DOC = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")


def _block(lang: str, marker: str) -> str:
    for body in re.findall(rf"```{lang}\n(.*?)```", DOC, flags=re.S):
        if marker in body:
            return str(body)
    raise AssertionError(f"no {lang} block with {marker!r} in docs/authoring.md")


@pytest.fixture
def cards_left(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Register the documented hook for this test only and write the documented profile."""
    monkeypatch.setitem(registry._REGISTRY, "scoring", dict(registry._REGISTRY["scoring"]))
    exec(compile(_block("python", "@register("), "docs/authoring.md", "exec"), {})
    profile = tmp_path / "cards_left.yaml"
    profile.write_text(_block("yaml", "method: cards_left"), encoding="utf-8")
    return profile


def test_documented_hook_scores_cards_left(cards_left: Path, tmp_path: Path) -> None:
    # 甲 goes out; 乙 still holds 13 - 9 = 4 cards, 丙 2, 丁 7. At 2 chips a card they pay
    # 8, 4 and 14, and 甲 collects 26.
    scenario = tmp_path / "cards_left_examples.yaml"
    scenario.write_text(
        """
name: Chips for every card left in hand
profile: cards_left.yaml
players: [甲, 乙, 丙, 丁]
settlement:
  甲: {out: true, played: 13}
  乙: {played: 9}
  丙: {played: 11}
  丁: {played: 6}
expect:
  rank: [1, 2, 2, 2]
  winners: [甲]
  money: [26, -8, -4, -14]
""",
        encoding="utf-8",
    )
    report = verify_paths([scenario])
    assert (report.passed, report.failed, report.errors) == (1, 0, [])


def test_documented_hook_plays_whole_games(cards_left: Path) -> None:
    game = Game(str(cards_left))
    for seed in range(20):
        state = game.new_state(seed)
        state.play_random(random.Random(seed))
        result = state.result()
        assert sum(result.money) == 0
        (winner,) = result.winners
        left = state.hand_counts()
        assert left[winner] == 0
        assert result.money[winner] == 2 * sum(left)


def test_documented_hook_parameter_is_validated(cards_left: Path) -> None:
    from paiqi_core.profile import ProfileError

    with pytest.raises(ProfileError, match=r"scoring.per_card: 0 is less than the minimum of 1"):
        Game(str(cards_left), ["scoring.per_card=0"])
