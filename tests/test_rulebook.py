"""``paiqi rulebook``: every rule in effect is in the book, every example in it verifies, in
every language; the figures of a worked settlement are the ones worked out by hand."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from paiqi_core.cli import main
from paiqi_core.profile import load_profile
from paiqi_core.profile.explain import rules_in_effect
from paiqi_core.resources import builtin_profiles
from paiqi_core.rulebook import LANGS, book_of, rules_text, write_book
from paiqi_core.rulebook.book import INERT, build
from paiqi_core.rules import rules_of
from paiqi_core.verify import verify_paths

PROFILES = sorted(builtin_profiles())
HOUSE = [p for p in PROFILES if len(load_profile(p).chain) > 1]


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize("profile", PROFILES)
def test_every_rule_in_effect_is_stated_or_does_nothing_here(profile: str, lang: str) -> None:
    p = load_profile(profile)
    book = build(p, lang)
    in_effect = {e["rule"] for e in rules_in_effect(p)}
    assert book.stated | set(book.inert) == in_effect
    assert not book.stated & set(book.inert)
    rules = rules_of(p)
    for rule in book.inert:  # set aside only where the rule changes nothing
        assert INERT[rule](p, rules)
    for section in book.sections:
        for line in section.lines:
            assert "{" not in line.text, line.text  # every field filled


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize("profile", PROFILES)
def test_every_example_of_the_book_verifies(profile: str, lang: str, tmp_path: Path) -> None:
    path = tmp_path / f"{profile}.md"
    path.write_text(write_book(profile, lang=lang, out=path), encoding="utf-8")
    report = verify_paths([path])
    assert report.errors == []
    assert report.failed == 0
    assert report.passed >= 3  # a play, a stuck player or an end, a settlement


def test_only_the_rules_a_stuck_player_meets_appear() -> None:
    # doujue covers: no passes to count, take or draw, and no card beyond the end
    book = build(load_profile("doujue"), "en")
    assert {"turn.pass_takes", "turn.draw", "turn.extra_after_end"} <= set(book.inert)
    text = rules_text("doujue")
    assert "pass" not in text.split("## Glossary")[0].lower()
    # pagat passes without limit: running out of passes never happens; with the ace high,
    # A and K lie at the two ends of a row, and no money is carried from game to game
    pagat = build(load_profile("pagat"), "en")
    assert {"turn.out_of_passes", "layout.ace_king", "session.hands"} <= set(pagat.inert)
    assert "session" not in [s.key for s in pagat.sections]


def test_the_family_rules_read_as_the_sources_give_them() -> None:
    doujue = rules_text("doujue")  # RULES.md: S7 opens, 55 busts, 尾張7 +20, 接龍 +5, 全脫手 +10
    for fact in ("♠7", "exceed 55", "+20", "+5", "+10"):
        assert fact in doujue
    # RULES.md: 鬥雀's 尾張7 comes on top of 全脫手, the platform's 尾張七 instead of 脫手
    assert "(尾張7) scores +20, added to the 全脫手 bonus." in doujue
    assert "(尾張七) scores +15 instead of the 脫手 bonus." in rules_text("platform")
    assert "（十三蓋）" in rules_text("platform", "zh-TW") and "（全蓋）" in rules_text(
        "doujue", "zh-TW"
    )
    platform = rules_text("platform")  # a door card; no 7 covered; heads 50/100/150
    for fact in ("door card", "A 7 may never be covered", "小頭 pays 50", "大頭 pays 150"):
        assert fact in platform
    assert "The ace is high" in rules_text("pagat")
    assert "3 passes a game" in rules_text("shichinarabe")
    zh = rules_text("doujue", "zh-TW")
    for term in ("蓋牌", "爆點", "尾張七", "全脫手", "大頭", "中頭"):
        assert term in zh
    ja = rules_text("shichinarabe", "ja")
    for term in ("パス", "バースト", "3 回"):
        assert term in ja


def test_the_worked_settlement_of_doujue_is_the_hand_calculation() -> None:
    # seat 0 goes out with H7: 尾張7 20 + 全脫手 10 = 30, and collects x8 (尾張7 winner);
    # seat 1 covers SK HQ = 25: 中頭 x2 -> 25*2*8 = 400; seat 2 covers 82 points > 55: bust
    # and 大頭 -> 82*3*2*8 = 3936; seat 3 covers C2 D3 = 5 -> 5*8 = 40; 400+3936+40 = 4376
    text = write_book("doujue")
    assert "Totals 30 / -25 / -82 / -5. Money 4376 / -400 / -3936 / -40." in text
    assert "Seat 2 pays 82 points × 3 (大頭) × 2 (爆點: 82 covered points > 55)" in text
    # the session: the same game with each part one seat on pays -40 / 4376 / -400 / -3936,
    # so after two games seat 0 stands at 4376 - 40, seat 1 at -400 + 4376, ...
    assert "After two games each seat stands at 4336 / 3976 / -4336 / -3976." in text


def test_the_worked_settlements_of_platform_and_bicycle_are_the_hand_calculation() -> None:
    # platform, the same facts: 尾張七 15; losers by total -5, -25, -82 are 小頭 50, 中頭 100,
    # 大頭 150, the last busting (82 > 50) x2 = 300; the 尾張七 winner collects x5 of each
    text = write_book("platform")
    assert "Totals 15 / -25 / -82 / -5. Money 2250 / -500 / -1500 / -250." in text
    # bicycle: 4 antes + 3 passes = 7 chips in the pot, and a chip a card held from each
    # loser (4, 2 and 3 of the 13 dealt left): seat 1, out first, put in 1 and takes 16
    book = write_book("bicycle")
    assert "Money -7 / 15 / -4 / -4." in book
    assert "Seat 0 pays ante 1 + 2 passes × 1 + 4 cards held × 1 = 7." in book
    # without the card payment the rule is left out and nobody pays for cards held
    plain = write_book("bicycle", ["scoring.card_cost=0"])
    assert "Money -3 / 6 / -2 / -1." in plain and "every card still in their hand" not in plain


@pytest.mark.parametrize("profile", HOUSE)
def test_a_house_profile_marks_what_it_changes(profile: str) -> None:
    p = load_profile(profile)
    book = build(p, "en")
    marked = {r for s in book.sections for line in s.lines if line.house for r in line.rules}
    own = {e["rule"] for e in rules_in_effect(p) if e["from"].startswith("this profile")} - set(
        book.inert
    )
    assert marked == own
    assert marked


@pytest.mark.parametrize("profile", HOUSE)
def test_against_its_parent_names_each_change_with_examples_that_verify(
    profile: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parent = load_profile(profile).chain[1]
    out = tmp_path / "changes.md"
    assert main(["rulebook", profile, "--against", parent, "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    changed = [
        e["rule"]
        for e in rules_in_effect(load_profile(profile))
        if e["from"].startswith("this profile")
        and e["value"] != load_profile(parent).get(e["rule"])
    ]
    assert changed
    for rule in changed:
        assert f"`{rule}`" in text
    report = verify_paths([out])
    assert report.failed == 0 and not report.errors
    assert report.passed >= 2  # one setup at least, under both rule sets


def test_set_on_the_command_line_is_marked_and_carried_into_the_blocks(tmp_path: Path) -> None:
    out = tmp_path / "stake.md"
    assert main(["rulebook", "doujue", "--set", "scoring.stake=2", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "**[house]** Base stake: every payment is multiplied by 2." in text
    assert "set: {scoring.stake: 2}" in text
    assert "Money 8752 / -800 / -7872 / -80." in text  # the hand calculation above, x2
    assert verify_paths([out]).failed == 0


def test_a_house_file_is_named_from_where_the_book_is_written(tmp_path: Path) -> None:
    house = tmp_path / "rules" / "ours.yaml"
    house.parent.mkdir()
    house.write_text(
        "id: ours\nextends: pagat\ndescription: 我們這桌 A 當最小。\nlayout: {ace: low}\n",
        encoding="utf-8",
    )
    out = tmp_path / "books" / "ours.md"
    out.parent.mkdir()
    assert main(["rulebook", str(house), "--lang", "zh-TW", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "profile: ../rules/ours.yaml" in text
    assert "> 我們這桌 A 當最小。" in text  # the table's own description
    assert "**［自訂］** 的規則與 pagat 不同" in text
    assert "**［自訂］** A 當最小" in text
    report = verify_paths([out])
    assert report.failed == 0 and not report.errors and report.passed >= 3


def test_the_html_page_stands_alone_and_prints_on_a4() -> None:
    page = write_book("platform", lang="ja", fmt="html")
    assert page.startswith("<!DOCTYPE html>")
    assert '<html lang="ja">' in page
    assert "@page { size: A4" in page and "@media print" in page
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", page)  # nothing fetched
    assert "小頭は 50 払います。" in page


@pytest.mark.parametrize(
    ("args", "located"),
    [
        (["doujue", "--lang", "fr"], "--lang: no rule book in 'fr'"),
        (["doujue", "--format", "pdf"], "--format: 'pdf' is not one of md, html"),
        (["nosuch.yaml"], "nosuch.yaml"),
        (["doujue", "--set", "players=99"], "players"),
    ],
)
def test_bad_input_is_one_located_line_and_exit_2(
    args: list[str], located: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rulebook", *args]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert located in err


def test_rules_text_gives_the_rules_without_examples() -> None:
    text = rules_text(load_profile("pagat"), "ja")
    assert "```paiqi" not in text
    assert text.startswith("# Fan Tan / Sevens (Pagat) のルール")
    assert book_of("pagat", examples=False).sections[0].examples == []


def test_the_books_in_the_docs_are_the_ones_paiqi_writes_and_they_verify(tmp_path: Path) -> None:
    from paiqi_core.rulebook.shelf import TRADITION, books, write_shelf

    from .conftest import ROOT

    shelf = ROOT / "docs" / "rulebooks"
    assert {family for family, _ in books()} == set(TRADITION)  # one book a family at least
    # written into a folder as deep as docs/rulebooks, the books name the same profiles
    fresh = write_shelf(tmp_path / "docs" / "rulebooks")
    stale = [p.name for p in fresh if p.read_text("utf-8") != (shelf / p.name).read_text("utf-8")]
    assert not stale, f"run: paiqi rulebook --families docs/rulebooks ({stale})"
    assert sorted(p.name for p in shelf.iterdir()) == sorted(p.name for p in fresh)
    report = verify_paths([shelf])
    assert report.failed == 0 and not report.errors
    assert report.passed >= 6 * len(fresh[:-1])  # every book: 6 examples or more


def test_families_writes_the_shelf_and_takes_no_profile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rulebook", "--families", str(tmp_path)]) == 0
    assert (tmp_path / "shichinarabe.ja.md").is_file()
    assert main(["rulebook", "doujue", "--families", str(tmp_path)]) == 2
    assert main(["rulebook"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and err[1].startswith("rulebook: give a profile")


def test_a_book_that_cannot_be_written_is_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "no-such-folder" / "book.md"
    assert main(["rulebook", "doujue", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err == f"cannot write {out}: No such file or directory\n"
    assert not out.parent.exists()


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize("profile", ["doujue", "shichinarabe"])
def test_jokers_get_their_section_and_a_joker_move_that_verifies(
    profile: str, lang: str, tmp_path: Path
) -> None:
    out = tmp_path / "jokers.md"
    assert (
        main(["rulebook", profile, "--set", "deck.jokers=1", "--lang", lang, "--out", str(out)])
        == 0
    )
    book = book_of(profile, ["deck.jokers=1"], lang)
    jokers = next(s for s in book.sections if s.key == "jokers")
    assert [line.rules for line in jokers.lines] == [("deck.jokers",)]
    # S6-S8 down and S10 in hand: the joker stands in for S9 and S10 follows it
    assert "joker S9 S10" in jokers.examples[0].block["expect"]["legal"]
    # seat 1 holds S9: it lays it at once and takes the joker; not its turn, so play goes
    # on after seat 0, with seat 1 (readings joker-swap-not-a-turn)
    swap = jokers.examples[1].block["expect"]
    assert swap == {"events": ["1 swap S9"], "hands": {1: ["C2", "JOKER"]}, "terminal": False,
                    "turn": 1}  # fmt: skip
    report = verify_paths([out])
    assert report.failed == 0 and not report.errors


def test_passes_that_run_out_end_in_a_burst_or_a_cover_as_the_profile_says() -> None:
    # 七並べ: three passes, then a player who cannot play bursts (RULES.md); the house
    # doujue-passes covers instead (its out_of_passes: cover)
    def stuck_game(profile: str) -> dict[str, object]:
        book = book_of(profile)
        stuck = next(s for s in book.sections if s.key == "stuck")
        games = [w.block for w in stuck.examples if "game" in w.block]
        assert len(games) == 1
        return games[0]

    burst = stuck_game("shichinarabe")
    assert burst["expect"] == {"pass_counts": [3, 0, 0, 0], "bursts": [0]}
    cover = stuck_game("doujue-passes")
    assert cover["expect"] == {
        "pass_counts": [3, 0, 0, 0],
        "bursts": [],
        "legal": ["cover DQ", "cover CK"],
    }


def test_against_any_profile_words_each_change_once_and_leaves_out_what_does_nothing() -> None:
    from paiqi_core.rulebook.against import against_text

    text = against_text("doujue", [], "pagat")
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    # the opening card is said by the opening's sentence: one line for both rules
    assert sum("`opening.card`" in line for line in lines) == 1
    assert "- `opening.method`, `opening.card`: The holder of ♠7" in text
    # pagat's passes never run out (no limit): nothing to compare there
    assert "turn.out_of_passes" not in text
    assert "(pagat: The ace is high" in text


@pytest.mark.parametrize("lang", ["zh-TW", "ja"])
def test_every_reading_is_stated_in_the_language_of_the_book(lang: str) -> None:
    from paiqi_core.readings import READINGS
    from paiqi_core.rulebook import languages

    assert set(languages.get(lang).readings) == set(READINGS)
    text = rules_text(load_profile("shichinarabe", ["deck.jokers=1"]), lang)
    assert "The holder of the card the joker replaced" not in text  # no English left


@pytest.mark.parametrize(
    ("accept", "lang"),
    [
        ("ja,en;q=0.8", "ja"),
        ("zh-Hant-TW,zh;q=0.9,en;q=0.5", "zh-TW"),
        ("zh-CN", "zh-TW"),  # the only Chinese book
        ("fr-FR,ja;q=0.3,en;q=0.7", "en"),
        ("en;q=0.2, ja;q=0.9", "ja"),
        ("fr", "en"),
        ("", "en"),
        (None, "en"),
        ("ja;q=0, en", "en"),  # q=0: not wanted
    ],
)
def test_the_language_a_browser_asks_for(accept: str | None, lang: str) -> None:
    from paiqi_core.rulebook import best_language

    assert best_language(accept) == lang


def test_every_language_has_every_sentence_the_english_book_has() -> None:
    from paiqi_core.rulebook import languages

    en = languages.get("en")
    for lang in ("zh-TW", "ja"):
        other = languages.get(lang)
        assert set(other.words) == set(en.words), lang
        assert set(other.rules) == set(en.rules), lang
        for rule, sentences in en.rules.items():
            if isinstance(sentences, dict):
                assert set(other.rules[rule]) == set(sentences), (lang, rule)  # type: ignore[arg-type]


HOUSE_RULES = [
    ["deck.ranks=6-A", "layout.ace=high"],
    ["layout.centre=9"],
    ["deck.leftover=stock", "deck.hand=10", "turn.draw=one"],
    ["turn.pass_takes=chosen", "turn.pass_limit=null"],
    ["turn.extra_after_end=may"],
    ["deck.decks=2", "players=6"],
    ["layout.sides=low_first", "ending.stall=20"],
    ["match.games=3", "deck.jokers=2"],
    ["deck.leftover=face_up", "deck.hand=12", "players=3"],
]


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize("overrides", HOUSE_RULES, ids=" ".join)
def test_books_of_house_rules_state_them_and_verify(
    overrides: list[str], lang: str, tmp_path: Path
) -> None:
    p = load_profile("shichinarabe", overrides)
    book = build(p, lang)
    assert book.stated | set(book.inert) == {e["rule"] for e in rules_in_effect(p)}
    marked = {r for s in book.sections for line in s.lines if line.house for r in line.rules}
    assert {o.split("=")[0] for o in overrides} - set(book.inert) <= marked
    text = "\n".join(line.text for s in book.sections for line in s.lines)
    assert "{" not in text
    out = tmp_path / "house.md"
    out.write_text(write_book("shichinarabe", overrides, lang, out=out), encoding="utf-8")
    report = verify_paths([out])
    assert report.failed == 0 and not report.errors and report.passed >= 2


def test_a_match_of_three_games_adds_the_rank_points() -> None:
    # 七並べ ranks score 3/2/1/0: seat 0 ranks 1, 4, 3 -> 3 + 0 + 1 = 4; seat 1: 2, 1, 4 ->
    # 2 + 3 + 0 = 5; seat 2: 3, 2, 1 -> 1 + 2 + 3 = 6; seat 3: 4, 3, 2 -> 0 + 1 + 2 = 3
    text = write_book("shichinarabe", ["match.games=3"])
    assert "Match points 4 / 5 / 6 / 3; the match goes to seat 2." in text
