"""Mid-game examples count the cards each seat played before the example starts."""

from __future__ import annotations

from pathlib import Path

from paiqi_core.verify import verify_paths


def _failures(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "example.yaml"
    path.write_text(text, encoding="utf-8")
    report = verify_paths([path])
    assert report.errors == []
    return [f for o in report.outcomes for f in o.failures]


def test_a_seat_that_played_before_the_start_is_not_all_covered(tmp_path: Path) -> None:
    # Clubs run 7..K; CA and C2 were covered by 丙 earlier. 丁 played 12 cards before the
    # start and now covers C5, its last card (C6 is missing, so it cannot be played): one
    # cover of 5 points, not 全蓋 (which would score 0, rank first and collect at x4). 甲
    # goes out with C6 (全脫手, +10); C5 being covered, 乙's C4 and 丙's C3 can only be
    # covered. Totals 10, -4, -6 (CA + C2 + C3), -5. Payers: 丙 lowest (大頭 x3), 丁 next
    # (中頭 x2), 乙 x1; 甲 collects at x2: 乙 4*2 = 8, 丙 6*3*2 = 36, 丁 5*2*2 = 20.
    assert (
        _failures(
            tmp_path,
            """
name: 丁 played 12 cards before the start, then covers its last one
profile: doujue
players: [甲, 乙, 丙, 丁]
game:
  table: [SA-SK, HA-HK, DA-DK, C7-CK]
  covered: {丙: [CA, C2]}
  turn: 丁
  hands: {甲: [C6], 乙: [C4], 丙: [C3], 丁: [C5]}
  moves:
    - 丁 cover C5
    - 甲 C6
    - 乙 cover C4
    - 丙 cover C3
expect:
  terminal: true
  total: [10, -4, -6, -5]
  rank: [1, 2, 4, 3]
  money: [64, -8, -36, -20]
""",
        )
        == []
    )


def test_a_seat_that_emptied_its_hand_before_the_start_keeps_its_bonus(tmp_path: Path) -> None:
    # 丙 played all 13 of its cards before the start: it has finished, covered nothing, and
    # scores 全脫手 (+10). 甲, 乙 and 丁 complete spades, hearts and diamonds with their last
    # cards: 全脫手 and 接龍, 15 each, and share the win.
    assert (
        _failures(
            tmp_path,
            """
name: 丙 was out before the start and keeps 全脫手
profile: doujue
players: [甲, 乙, 丙, 丁]
game:
  table: [SA-SQ, HA-HQ, DA-DQ, CA-CK]
  turn: 甲
  hands: {甲: [SK], 乙: [HK], 丙: [], 丁: [DK]}
  moves:
    - {expect: {finished: [丙]}}
    - 甲 SK
    - 乙 HK
    - 丁 DK
expect:
  terminal: true
  finished: [丙, 甲, 乙, 丁]
  total: [15, 15, 10, 15]
  rank: [1, 1, 4, 1]
""",
        )
        == []
    )


def test_a_card_outside_a_short_pack_cannot_be_placed(tmp_path: Path) -> None:
    # Девятка deals the 36 cards from 6 to ace: nobody can hold S5, and nothing can lie in
    # its place: the example fails at its setup, saying why
    assert _failures(
        tmp_path,
        """
name: a five in a 36-card game
profile: pagat
set: {players: 3, deck.ranks: 6-A, layout.centre: 9, opening.method: holder_leads,
      opening.card: D9}
players: [甲, 乙, 丙]
position:
  table: [S9]
  hand: [S5, S8]
expect:
  legal: [S8]
""",
    ) == ["setup: the pack has no S5 (deck.ranks: 6-A)"]
