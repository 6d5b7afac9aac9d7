"""Design measures: the course of a game read from its log, each measure of a stored run
recomputed by hand from its rows, the deal share from replayed deals, and results files of
an earlier paiqi (without the later columns) still reported."""

from __future__ import annotations

import json
import math
import sqlite3
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from paiqi_core.actions import BURST, COVER, PASS, PLACE, SWAP, kind
from paiqi_core.cards import parse_card
from paiqi_core.cli import main
from paiqi_core.engine import Game
from paiqi_core.outcome import PlayerOutcome
from paiqi_core.profile import load_profile
from paiqi_core.runs.batch import COLUMNS, FIRST_COLUMNS, BatchSpec, run_batch
from paiqi_core.runs.run import batches
from paiqi_core.runs.store import RunSpec, Store
from paiqi_core.runs.trace import trace
from paiqi_core.simulate import play_game

Capsys = pytest.CaptureFixture[str]
Z = 1.959964


def hand(n: int, start: int = 0) -> int:
    """A hand of ``n`` cards (which cards does not matter to standings in cards)."""
    return sum(1 << c for c in range(start, start + n))


# -- the course of a game -------------------------------------------------------------


def test_standings_in_cards_leads_and_deficits() -> None:
    # three players of three cards; seat 0 plays out, seat 1 passes once and falls behind
    log = [(0, 5), (1, PASS), (2, 20), (0, 6), (1, 30), (2, PASS), (0, 7)]
    t = trace(log, [3, 3, 3], covers=False)
    # 3 3 3 (no leader) -> 2 3 3: seat 0 leads; 2 3 2 (shared); 1 3 2; 1 2 2; 0 2 2
    assert t.leads == [1, 0, 0]
    # seat 1 trailed by 1 at its pass (3 v 2) and by 2 when it played (3 v 1), and ends
    # 2 behind seat 0's empty hand; seat 2 trailed by 1 then ends 2 behind
    assert t.deficit == [0, 2, 2]
    assert t.turn_order == [0, 1, 2]


def test_the_lead_changes_hands_and_the_first_mover_is_read_from_the_log() -> None:
    # seat 2 moves first (a pass); seat 0 then leads; seat 1 overtakes with a joker move
    # (the joker and the card beyond it: two cards at once)
    joker = 1024 + 64 * 3 + 4
    log = [(2, PASS), (0, 1), (1, joker), (2, 40)]
    t = trace(log, [4, 4, 4], covers=False)
    # 4 4 4 -> 3 4 4 (seat 0 leads) -> 3 2 4 (seat 1 leads) -> 3 2 3
    assert t.leads == [1, 1, 0]
    assert t.turn_order == [1, 2, 0]  # seat 2 moved first: seat 0 is third, seat 1 second
    # seat 1 was 1 behind at its move (4 v 3), seat 2 2 behind at its play (4 v 2); at the
    # end seat 0 is 1 behind (3 v 2)
    assert t.deficit == [1, 1, 2]


def test_sevens_put_out_before_play_count_and_a_burst_player_is_out() -> None:
    # seat 1 had two 7s put out (2 cards left against 4): it leads from the start
    log = [(1, PLACE + 6), (1, PLACE + 19), (0, PASS), (1, 20), (0, BURST)]
    t = trace(log, [4, 4], covers=False)
    assert t.leads == [0, 1]
    assert t.turn_order == [0, 1]  # seat 0 moved first (its pass)
    assert t.deficit == [3, 0]  # seat 0: 4 against 2 at its pass, 4 against 1 at its burst


def test_standings_in_covered_points_when_stuck_players_cover() -> None:
    sk, ha, d9 = parse_card("SK"), parse_card("HA"), parse_card("D9")
    log = [
        (0, 6),  # plays: covered points do not change
        (1, COVER + sk),  # 13 points: seats 0 and 2 share the best (0)
        (2, COVER + ha),  # 1 point: seat 0 alone best -> leads; seat 2 1 behind
        (0, COVER + d9),  # 9 points: seat 2 (1) alone best -> leads
        (1, SWAP + 3),  # a swap changes nothing here
    ]
    t = trace(log, [3, 3, 3], covers=True)
    assert t.leads == [1, 0, 1]
    assert t.deficit == [8, 13, 1]  # seat 0: 9 v 1; seat 1: 13 v 0; seat 2: 1 v 0
    assert t.swaps == [0, 1, 0]


def test_turn_order_is_counted_from_the_player_who_moved_first() -> None:
    for name in ("doujue", "platform", "shichinarabe", "pagat"):
        game = Game(name)
        for seed in range(40):
            opener = game.new_state(seed).turn
            state = play_game(game, seed)
            order = trace(state.log, state.hand_sizes, game.rules.stuck.covers).turn_order
            assert order[opener] == 0
            assert sorted(order) == list(range(game.players))


def test_a_bust_is_reported_by_the_scoring() -> None:
    score = Game("doujue").rules.scoring.score
    covered = tuple(parse_card(c) for c in ("SK", "HK", "DK", "CK", "SQ"))  # 64 points
    outcomes = [
        PlayerOutcome(played=13, last_play=0, finish=0, hand_size=13),  # clean winner
        PlayerOutcome(covered=covered, played=8, finish=1),  # 64 > 55: pays double
        PlayerOutcome(covered=covered[:4], played=9, finish=2),  # 52: no bust
        PlayerOutcome(played=13, finish=3),
    ]
    result = score(outcomes)
    assert result.busts == (False, True, False, False)


# -- measures of a stored run, by hand ------------------------------------------------


def _rows(db: Path, run: str, profile: str) -> dict[int, list[dict[str, Any]]]:
    games: dict[int, list[dict[str, Any]]] = defaultdict(list)
    with Store.reader(db) as store:
        con = store.expand().db
        con.row_factory = sqlite3.Row
        for r in con.execute(
            "SELECT * FROM seats WHERE run = ? AND profile = ? ORDER BY game, seat",
            (run, profile),
        ):
            games[r["game"]].append(dict(r))
    return games


def _mean_ci(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, Z * sd / math.sqrt(n)


def _close(e: dict[str, float], mean: float, ci: float) -> None:
    assert e["mean"] == pytest.approx(mean, abs=1e-9)
    assert e["ci95"] == pytest.approx(ci, abs=1e-9)


def _sd(values: list[float]) -> float:
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))


def _jackknife(values: list[Any], statistic: Any) -> tuple[float, float]:
    """The statistic and its jackknife 95% half-width, leaving out each item in turn."""
    k = len(values)
    left = [statistic(values[:i] + values[i + 1 :]) for i in range(k)]
    mean = sum(left) / k
    return statistic(values), Z * math.sqrt((k - 1) / k * sum((v - mean) ** 2 for v in left))


def _compare(tmp_path: Path, capsys: Capsys, *argv: str) -> tuple[Path, dict[str, Any]]:
    db = tmp_path / "d.db"
    assert main(["compare", *argv, "--db", str(db), "--workers", "1", "-q", "--json"]) == 0
    return db, json.loads(capsys.readouterr().out)


def test_every_measure_recomputed_from_the_stored_rows(tmp_path: Path, capsys: Capsys) -> None:
    db, report = _compare(tmp_path, capsys, "doujue", "shichinarabe", "--games", "60")
    run = report["run"]
    design = report["design"]
    for profile, money in (("doujue", True), ("shichinarabe", False)):
        games = _rows(db, run, profile)
        got = design["rule_sets"][profile]
        assert got["games"] == len(games) == 60 and got["recorded"]
        m = got["measures"]
        first = [next(r for r in seats if r["turn_order"] == 0) for seats in games.values()]
        _close(m["seat_advantage"], *_mean_ci([r["win"] - 1 / 4 for r in first]))
        column = "money_value" if money else "total"  # doujue: money; shichinarabe: points
        objective = [
            f[column] - sum(r[column] for r in seats) / 4
            for f, seats in zip(first, games.values(), strict=True)
        ]
        _close(m["seat_advantage_objective"], *_mean_ci(objective))
        spread_of = "money_value" if money else "cards_left"
        spreads = [
            max(r[spread_of] for r in seats) - min(r[spread_of] for r in seats)
            for seats in games.values()
        ]
        _close(m["decisiveness"], *_mean_ci(spreads))
        changes = [max(sum(r["leads"] for r in seats) - 1, 0) for seats in games.values()]
        _close(m["lead_changes"], *_mean_ci(changes))
        margin = 20 if money else 3  # covered points in doujue, cards in shichinarabe
        comebacks = [
            sum(r["win"] for r in seats if r["win"] > 0 and r["deficit"] >= margin)
            for seats in games.values()
        ]
        _close(m["comeback"], *_mean_ci(comebacks))
        lengths = [sum(r["actions"] for r in seats) for seats in games.values()]
        if profile == "doujue":
            assert set(lengths) == {52}  # every card played or covered, one a turn
            assert m["length"]["mean"] == 52 and m["length_sd"]["mean"] == 0
        else:
            _close(m["length"], *_mean_ci(lengths))
            _close(m["length_sd"], *_jackknife(lengths, _sd))
        # rules fired: per game, over every player, from the columns and the events text
        for event, column in (("cover", "covers"), ("pass", "passes"), ("burst", "burst")):
            if event in got["events"]:
                counts = [sum(r[column] for r in seats) for seats in games.values()]
                _close(got["events"][event], *_mean_ci(counts))
        for event in ("bust", "clean"):
            if event in got["events"]:
                counts = [
                    sum(w == event for r in seats for w in r["events"].split())
                    for seats in games.values()
                ]
                _close(got["events"][event], *_mean_ci(counts))
    assert set(design["rule_sets"]["doujue"]["events"]) >= {"cover", "bust", "clean"}
    assert set(design["rule_sets"]["shichinarabe"]["events"]) == {"pass", "burst"}
    # paired on the same games: shichinarabe − doujue
    base, other = _rows(db, run, "doujue"), _rows(db, run, "shichinarabe")
    diffs = [
        max(sum(r["leads"] for r in other[g]) - 1, 0) - max(sum(r["leads"] for r in base[g]) - 1, 0)
        for g in base
    ]
    _close(design["paired"]["shichinarabe"]["lead_changes"], *_mean_ci(diffs))
    # the text speaks words and lists the rules in effect that never fired
    assert main(["report", run, "--db", str(db), "--out", str(tmp_path / "r")]) == 0
    text = capsys.readouterr().out
    assert "design measures" in text and "lead changes per game" in text
    assert "rules in effect that never fired" in text


def test_rules_that_never_fire_are_listed(tmp_path: Path, capsys: Capsys) -> None:
    # a bust threshold no hand reaches: the bust rule is in effect and never fires
    db, report = _compare(tmp_path, capsys, "doujue", "platform", "--games", "30",
                          "--set", "scoring.bust_above=1000")  # fmt: skip
    for profile in ("doujue", "platform"):
        got = report["design"]["rule_sets"][profile]
        assert "bust" in got["never_fired"]
        assert got["events"]["bust"]["mean"] == 0
        assert "joker" not in got["events"]  # no joker in the deck: not a rule in effect
    with Store.reader(db) as store:
        store.expand()
        ((seats, busts),) = store.query(
            "SELECT COUNT(*), COUNT(*) FILTER (WHERE events LIKE '%bust%') FROM seats"
        )
    assert (seats, busts) == (2 * 30 * 4, 0)  # every row read, and no bust among them


def test_events_agree_with_the_log(tmp_path: Path) -> None:
    spec = BatchSpec("doujue", ("deck.jokers=1",), (), False, 3, 0, 40)
    rows = run_batch(spec).rows
    game = Game("doujue", ["deck.jokers=1"])
    for index in range(40):
        state = play_game(game, index + 3 * 2**32)
        swaps = [0] * 4
        for seat, action in state.log:
            swaps[seat] += kind(action) == "swap"
        stored = [r for r in rows if r[1] == index]
        for seat, r in enumerate(stored):
            words = dict(
                (w.partition(":")[0], int(w.partition(":")[2] or 1)) for w in r[-1].split()
            )
            assert words.get("swap", 0) == swaps[seat]
            assert r[FIRST_COLUMNS.index("jokers")] == sum(
                1 for s, a in state.log if s == seat and kind(a) == "joker"
            )


# -- the deal share -------------------------------------------------------------------


def _share(hands: list[list[float]]) -> float:
    """One-way random-effects ANOVA, written out: hands are groups of equal size."""
    h, r = len(hands), len(hands[0])
    grand = sum(sum(v) for v in hands) / (h * r)
    means = [sum(v) / r for v in hands]
    msb = r * sum((m - grand) ** 2 for m in means) / (h - 1)
    msw = sum((x - m) ** 2 for v, m in zip(hands, means, strict=True) for x in v) / (h * (r - 1))
    between = (msb - msw) / r
    return between / (between + msw)


def test_replayed_deals_rotate_the_agents_and_draw_fresh_streams() -> None:
    spec = RunSpec("compare", ("pagat",), (), ("heuristic", "random", "random", "random"),
                   False, 0, 10, 4, 4, share_deals=3, replays=4,
                   share_agents=("heuristic", "random", "random", "random"))  # fmt: skip
    (share,) = [b for b in batches(spec, set()) if b.profile == "pagat · deals replayed"][:1]
    assert spec.games_of("pagat · deals replayed") == 12
    assert share.replays == 4 and not share.rotate
    result = run_batch(replace(share, rules=load_profile("pagat")))  # deal 0, replays 0-3
    by_game: dict[int, list[Any]] = defaultdict(list)
    for r in result.rows:
        by_game[r[1]].append(r)
    assert {r[2] for rows in by_game.values() for r in rows} == {0}  # one deal
    # the heuristic player moves one seat round each replay
    assert [next(r[3] for r in by_game[g] if r[4] == "heuristic") for g in range(4)] == [0, 1, 2, 3]
    plain = run_batch(BatchSpec("pagat", (), ("heuristic", "random", "random", "random"),
                                False, 0, 0, 1))  # fmt: skip
    # replay 0 is the deal as ordinarily played
    assert [r[1:] for r in plain.rows] == [r[1:] for r in by_game[0]]
    assert [r[1:] for r in by_game[1]] != [r[1:] for r in by_game[0]]


def test_the_deal_share_recomputed_from_the_stored_rows(tmp_path: Path, capsys: Capsys) -> None:
    db, report = _compare(tmp_path, capsys, "doujue", "platform", "--games", "10",
                          "--deal-share", "12", "--replays", "3")  # fmt: skip
    share = report["design"]["deal_share"]
    assert (share["deals"], share["replays"]) == (12, 3)
    store = Store.reader(db).expand()
    con = store.db
    data: dict[str, dict[str, list[list[list[float]]]]] = {}
    for profile in ("doujue", "platform"):
        name = f"{profile} · deals replayed"
        by: dict[int, dict[int, list[tuple[int, float, float]]]] = defaultdict(
            lambda: defaultdict(list)
        )
        for deal, game, seat, money, win in con.execute(
            "SELECT deal, game, seat, money_value, win FROM seats WHERE run = ? AND "
            "profile = ?", (report["run"], name)
        ):  # fmt: skip
            by[deal][seat].append((game, money, win))
        assert sorted(by) == list(range(12))
        assert all(len(v) == 3 for seats in by.values() for v in seats.values())
        data[profile] = {
            key: [[[x[i] for x in sorted(by[d][s])] for s in range(4)] for d in sorted(by)]
            for key, i in (("money", 1), ("win", 2))
        }

        def stat(deals: list[list[list[float]]]) -> float:
            return _share([hand for deal in deals for hand in deal])

        got = share["profiles"][profile]
        _close(got["deal_share"], *_jackknife(data[profile]["money"], stat))
        _close(got["deal_share_win"], *_jackknife(data[profile]["win"], stat))
    pairs = list(zip(data["doujue"]["money"], data["platform"]["money"], strict=True))

    def diff(kept: list[Any]) -> float:
        return _share([h for _, o in kept for h in o]) - _share([h for b, _ in kept for h in b])

    _close(share["paired"]["platform"]["deal_share"], *_jackknife(pairs, diff))
    store.close()


# -- results files of an earlier paiqi ------------------------------------------------


def _unpacked(db: Path) -> list[tuple[Any, ...]]:
    """Every row of every run of ``db`` (run first, then every column of ``COLUMNS``): the
    rows kept as blocks, unpacked, and any in the file's seats table."""
    with Store.reader(db) as store:
        assert store.columns("seats") == ("run", *COLUMNS)
        return store.expand().db.execute("SELECT * FROM temp.seats").fetchall()


def _as_table_file(db: Path, columns: tuple[str, ...]) -> None:
    """Turn ``db`` into a file that keeps its rows in the seats table, one SQL row each, with
    ``columns`` (after the run), and whose batches table has no blocks: as a paiqi before
    blocks wrote it."""
    rows = _unpacked(db)
    assert rows  # a file with rows to move
    con = sqlite3.connect(db)
    names = ", ".join(columns)
    typed = ", ".join(c + (" REAL" if c in ("win", "money_value") else "") for c in columns)
    with con:
        con.execute("DROP TABLE seats")
        con.execute(
            f"CREATE TABLE seats (run TEXT, {typed}, PRIMARY KEY (run, profile, game, seat)) "
            "WITHOUT ROWID"
        )
        con.executemany(
            f"INSERT INTO seats (run, {names}) VALUES ({', '.join('?' * (len(columns) + 1))})",
            [r[: len(columns) + 1] for r in rows],
        )
        # the batches table as it was: run, profile, start (no blocks)
        con.execute("ALTER TABLE batches RENAME TO later")
        con.execute(
            "CREATE TABLE batches (run TEXT, profile TEXT, start INTEGER, "
            "PRIMARY KEY (run, profile, start))"
        )
        con.execute("INSERT INTO batches SELECT run, profile, start FROM later")
        con.execute("DROP TABLE later")
    con.close()
    with Store.reader(db) as store:  # every row in the table, none left in a block
        assert store.columns("batches") == ("run", "profile", "start")
        assert store.columns("seats") == ("run", *columns)
        assert list(store.query("SELECT COUNT(*) FROM seats")) == [(len(rows),)]


def _as_earlier(db: Path) -> None:
    """Turn ``db`` into a file as an earlier paiqi wrote it: every row in the seats table,
    without the later columns, and batches without blocks."""
    _as_table_file(db, FIRST_COLUMNS)


def _as_rows_file(db: Path) -> None:
    """Turn ``db`` into a file as the paiqi just before blocks wrote it: every row in the
    seats table, every column, and batches without blocks."""
    _as_table_file(db, COLUMNS)


def test_a_results_file_of_an_earlier_paiqi_still_reports(tmp_path: Path, capsys: Capsys) -> None:
    db, report = _compare(tmp_path, capsys, "doujue", "pagat", "--games", "30")
    _as_earlier(db)
    assert main(["report", report["run"], "--db", str(db), "--json"]) == 0
    old = json.loads(capsys.readouterr().out)
    for profile in ("doujue", "pagat"):
        got = old["design"]["rule_sets"][profile]
        assert not got["recorded"]
        assert set(got["measures"]) == {"length", "length_sd"}  # what the old columns tell
        assert got["measures"]["length"] == report["design"]["rule_sets"][profile][
            "measures"]["length"]  # fmt: skip
        assert "bust" not in got["events"]  # not recorded, so not listed as never fired
        assert old["profiles"][profile]["per_game"] == report["profiles"][profile]["per_game"]
    assert main(["report", report["run"], "--db", str(db), "--out", str(tmp_path / "r")]) == 0
    text = capsys.readouterr().out
    assert "the rows do not record them" in text
    # a new run in the same file gives the table the later columns; the old rows keep NULL
    assert main(["compare", "doujue", "pagat", "--games", "10", "--db", str(db), "-q",
                 "--workers", "1", "--json"]) == 0  # fmt: skip
    new = json.loads(capsys.readouterr().out)
    assert new["design"]["rule_sets"]["doujue"]["recorded"]
    with Store.reader(db) as store:
        assert store.columns("seats") == ("run", *COLUMNS)
        store.expand()
        sql = "SELECT run, COUNT(*), COUNT(*) FILTER (WHERE turn_order IS NULL) FROM seats"
        counts = {run: rest for run, *rest in store.query(sql + " GROUP BY run")}
        # the new run's rows are kept as blocks, not in the file's table
        in_table = list(store.query("SELECT DISTINCT run FROM main.seats"))
    assert counts == {report["run"]: [240, 240], new["run"]: [80, 0]}
    assert in_table == [(report["run"],)]
    assert main(["report", report["run"], "--db", str(db), "--json"]) == 0
    assert not json.loads(capsys.readouterr().out)["design"]["rule_sets"]["pagat"]["recorded"]


def test_a_table_of_other_columns_is_still_refused(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE runs (id TEXT PRIMARY KEY, created REAL, command TEXT, spec TEXT)")
    con.execute("CREATE TABLE batches (run TEXT, profile TEXT, start INTEGER)")
    con.execute("CREATE TABLE seats (run, profile, game, something)")
    con.commit()
    con.close()
    from paiqi_core.runs.store import StoreError

    with pytest.raises(StoreError, match="its table 'seats' has columns"):
        Store.reader(db)


def test_both_engines_record_the_course_measures_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the compiled engine stores the course of each game as the Python engine does, so the
    # design measures and the report are the same whichever played
    reports, texts = [], []
    for engine in ("fast", "python"):
        here = tmp_path / engine
        here.mkdir()
        db = here / "runs.db"
        argv = ["compare", "doujue", "platform-zhanlong", "--games", "200", "--db", str(db)]
        assert main([*argv, "-q", "--workers", "1", "--json", "--engine", engine]) == 0
        report = json.loads(capsys.readouterr().out)
        reports.append(report["design"])
        out = here / "report"
        assert main(["report", report["run"], "--db", str(db), "--out", str(out)]) == 0
        texts.append(capsys.readouterr().out.replace(report["run"], "RUN").replace(str(here), ""))
    assert reports[0] == reports[1]
    assert texts[0] == texts[1]
    for name in ("doujue", "platform-zhanlong"):
        got = reports[0]["rule_sets"][name]
        assert got["recorded"]
        assert {"seat_advantage", "lead_changes", "comeback"} <= set(got["measures"])
    assert reports[0]["rule_sets"]["platform-zhanlong"]["events"]["cut"]["mean"] > 0
    assert "the rows do not record them" not in texts[0]


def test_a_measure_in_two_units_names_each_and_compares_none() -> None:
    """Decisiveness is money under Девятка and cards left under Badam Satti: the row names
    both units with their profiles, and no difference between the two is given; a measure
    the base lacks has no difference either."""
    from paiqi_core.runs.design import measure_rows

    def measures(objective: str, money: bool, **values: float) -> dict[str, Any]:
        unit = "money" if money else "cards left"
        made = {k: {"mean": v, "ci95": 0.1} for k, v in values.items()}
        return {"objective": objective, "decisiveness_unit": unit, "measures": made, "events": {}}

    sets = {
        "badam-satti": measures("win", False, decisiveness=2.5, length=51.0),
        "devyatka": measures(
            "money", True, decisiveness=90.0, length=35.0, seat_advantage_objective=6.5
        ),
        "nines": measures("win", False, decisiveness=2.4, length=50.0),
    }
    paired = {
        name: {k: {"mean": 1.0, "ci95": 0.5} for k in sets[name]["measures"]}
        for name in ("devyatka", "nines")
    }
    report = {"design": {"rule_sets": sets, "paired": paired}}
    rows = {r["key"]: r for r in measure_rows(report, ["badam-satti", "devyatka", "nines"])}
    decisive = rows["decisiveness"]
    assert decisive["unit"] == "cards left (badam-satti, nines); money (devyatka)"
    assert set(decisive["diff"]) == {"nines"}  # money less cards left is no difference
    assert rows["length"]["unit"] == "actions" and set(rows["length"]["diff"]) == {
        "devyatka",
        "nines",
    }
    objective = rows["seat_advantage_objective"]
    assert objective["unit"] == "money per game" and objective["diff"] == {}
