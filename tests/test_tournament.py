"""paiqi tournament: every pair of players on the same deals, stored as a run, reported per
player, head to head and as ratings."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from paiqi_core.cli import main
from paiqi_core.runs.batch import seating
from paiqi_core.runs.run import batches
from paiqi_core.runs.store import RunSpec, Store, distinct_seatings
from paiqi_core.runs.tournament import lineup, pairing, tournament_spec

Capsys = pytest.CaptureFixture[str]


def _run(capsys: Capsys, *argv: str) -> tuple[int, Any, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, (json.loads(out) if status == 0 and "--json" in argv else out), err


def test_every_pair_gets_a_lineup_of_alternate_seats() -> None:
    spec = tournament_spec(["easy", "normal", "hard"], [], 3, 50, 25, 4)
    assert spec.profiles == ("easy vs normal", "easy vs hard", "normal vs hard")
    assert spec.agents_of("easy vs hard") == ("easy", "hard", "easy", "hard")
    assert lineup("a", "b", 3) == ("a", "b", "a") and pairing("a", "b") == "a vs b"
    # A B A B rotated round four seats gives two distinct seatings, A B A B and B A B A
    assert spec.rotate and spec.seatings == 2 and spec.total_games == 50 * 2
    assert tournament_spec(["a", "b"], [], 3, 50, 25, 3).total_games == 50 * 3  # ABA BAA AAB


@pytest.mark.parametrize(
    ("lineup_", "expected"),
    [(("a", "b", "a", "b"), 2), (("a", "b", "b", "b"), 4), (("a", "a", "a"), 1),
     (("a", "b", "c", "a", "b", "c"), 3), (("a", "b", "a"), 3), ((), 1)],
)  # fmt: skip
def test_distinct_seatings_of_a_lineup(lineup_: tuple[str, ...], expected: int) -> None:
    assert distinct_seatings(lineup_) == expected


def test_each_deal_is_played_once_per_distinct_seating() -> None:
    spec = tournament_spec(["easy", "normal"], [], 3, 2, 4, 4)
    (batch,) = list(batches(spec, set()))
    seatings = [seating(batch, 4, index) for index in batch.games]
    assert seatings == [
        (0, ["easy", "normal", "easy", "normal"]),
        (0, ["normal", "easy", "normal", "easy"]),
        (1, ["easy", "normal", "easy", "normal"]),
        (1, ["normal", "easy", "normal", "easy"]),
    ]


def test_a_tournament_reports_players_head_to_head_and_ratings(
    capsys: Capsys, tmp_path: Path
) -> None:
    db = tmp_path / "t.db"
    status, report, _ = _run(
        capsys, "tournament", "pagat", "--agents", "random,heuristic", "--games", "30",
        "--workers", "1", "--db", str(db), "--json", "-q",
    )  # fmt: skip
    assert status == 0 and report["objective"] == "win"
    # 30 deals x 2 seatings (A B A B, B A B A), two seats each: 120 seat-games per player
    assert [p["seat_games"] for p in report["players"]] == [120, 120]
    (h2h,) = report["head_to_head"]
    assert (h2h["a"], h2h["b"], h2h["deals"]) == ("random", "heuristic", 30)
    # the edge, recomputed from the stored rows: per deal, the mean win share of random's
    # seat-games less heuristic's, averaged over deals
    with Store.reader(db) as store:
        sql = "SELECT deal, agent, win FROM seats WHERE run = ?"
        rows = store.expand(report["run"]).query(sql, report["run"])
    per_deal: dict[int, dict[str, list[float]]] = {}
    for deal, agent, win in rows:
        per_deal.setdefault(deal, {}).setdefault(agent, []).append(win)
    edges = [sum(d["random"]) / 4 - sum(d["heuristic"]) / 4 for d in per_deal.values()]
    assert len(edges) == 30
    assert h2h["edge"]["mean"] == pytest.approx(sum(edges) / 30)
    won = sum(e < 0 for e in edges) + 0.5 * sum(e == 0 for e in edges)  # deals heuristic won
    lost = 30 - won
    random_rating, heuristic_rating = report["ratings"]
    assert random_rating == {"agent": "random", "elo": 0.0, "ci95": None}
    assert heuristic_rating["elo"] == pytest.approx(400 * math.log10(won / lost))
    status, text, _ = _run(capsys, "report", report["run"], "--db", str(db), "--out",
                           str(tmp_path / "r"))  # fmt: skip
    assert status == 0 and "head to head" in text and "ratings" in text
    assert (tmp_path / "r" / "report.html").is_file()
    # the design measures of the games are drawn too, and the page shows every plot
    plots = {"ratings.png", "head_to_head.png", "design.png"}
    assert plots <= {p.name for p in (tmp_path / "r").iterdir()}
    page = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert page.count("data:image/png;base64,") == len(plots)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tournament", "pagat", "--agents", "random"], "--agents: name two players or more"),
        (["tournament", "pagat", "--agents", "random,random"], "each once"),
        (["tournament", "pagat", "--agents", "random,genius"], "unknown agent 'genius'"),
        (["tournament", "pagat", "doujue", "--agents", "easy,normal"], "name one profile"),
        (["tournament", "pagat"], "name the players"),
        (["tournament", "pagat", "--agents", "easy,normal", "--games", "0"], "--games"),
    ],
)
def test_bad_tournaments_are_refused_before_any_file_is_made(
    capsys: Capsys, tmp_path: Path, argv: list[str], message: str
) -> None:
    db = tmp_path / "t.db"
    status, _, err = _run(capsys, *argv, "--db", str(db))
    assert status == 2 and message in err
    assert not db.exists()


def test_an_interrupted_tournament_resumes_to_the_same_rows(tmp_path: Path, capsys: Capsys) -> None:
    from paiqi_core.engine import Game
    from paiqi_core.runs.run import run
    from paiqi_core.runs.store import Store

    spec = tournament_spec(["easy", "normal"], [], 1, 12, 8, 4)
    profile = Game("pagat").rules.profile
    whole, cut = tmp_path / "whole.db", tmp_path / "cut.db"
    with Store(whole) as store:
        done = store.new_run(spec, dict.fromkeys(spec.profiles, profile))
        run(store, done, 1)
    with Store(cut) as store:
        stopped = store.new_run(spec, dict.fromkeys(spec.profiles, profile))
        calls: list[int] = []

        def stop(count: int) -> None:
            calls.append(count)
            if len(calls) > 2:
                raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            run(store, stopped, 1, stop)
    status, report, _ = _run(capsys, "tournament", "--resume", stopped, "--db", str(cut),
                             "--workers", "1", "--json", "-q")  # fmt: skip
    assert status == 0 and report["players"][0]["seat_games"] == 12 * 2 * 2  # 2 seatings, 2 seats

    def rows(db: Path, run_id: str) -> list[tuple[Any, ...]]:
        with Store.reader(db) as store:
            return list(
                store.expand(run_id).query(
                    "SELECT profile, game, seat, agent, rank, win, money FROM seats WHERE run = ? "
                    "ORDER BY profile, game, seat",
                    run_id,
                )
            )

    resumed = rows(cut, stopped)
    assert resumed == rows(whole, done)
    assert len(resumed) == len(spec.profiles) * 12 * 2 * 4  # 12 deals, 2 seatings, 4 seats


def test_pairings_with_a_search_player_play_short_batches() -> None:
    # 40 deals, two seatings: 80 games a pairing; a search player's pairing goes 10 games a
    # batch, the others 50
    spec = tournament_spec(["easy", "normal", "hard"], [], 3, 40, 50, 4, search_batch=10)
    assert (spec.batch_of("easy vs normal"), spec.batch_of("normal vs hard")) == (50, 10)
    made = list(batches(spec, set()))
    sizes: dict[str, list[int]] = {}
    for b in made:
        sizes.setdefault(b.profile, []).append(b.count)
    assert sizes == {
        "easy vs normal": [50, 30],
        "easy vs hard": [10] * 8,
        "normal vs hard": [10] * 8,
    }
    # the first batches of every pairing come first: progress shows on each from the start
    assert [b.profile for b in made[:3]] == ["easy vs normal", "easy vs hard", "normal vs hard"]
    assert RunSpec.from_json(spec.to_json()) == spec
    older = json.loads(spec.to_json())
    del older["search_batch"]  # a run stored before short batches: one size for all
    assert RunSpec.from_json(json.dumps(older)).batch_of("normal vs hard") == 50


def test_a_tournament_gives_the_design_measures_over_all_its_games(
    tmp_path: Path, capsys: Capsys
) -> None:
    db = tmp_path / "d.db"
    argv = ["tournament", "pagat", "--agents", "random,heuristic", "--games", "20",
            "--deal-share", "6", "--replays", "2", "--db", str(db), "--workers", "1", "-q",
            "--json"]  # fmt: skip
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    con = Store.reader(db).expand(report["run"]).db
    # the players' figures count the pairing's games only, not the replayed deals
    pairing_rows = con.execute(
        "SELECT COUNT(*) FROM seats WHERE run = ? AND profile = ?",
        (report["run"], "random vs heuristic"),
    ).fetchone()[0]
    assert sum(p["seat_games"] for p in report["players"]) == pairing_rows == 20 * 2 * 4
    replayed = con.execute(
        "SELECT agent, COUNT(*) FROM seats WHERE run = ? AND profile = 'deals replayed' "
        "GROUP BY agent ORDER BY agent",
        (report["run"],),
    ).fetchall()
    assert replayed == [("heuristic", 24), ("random", 24)]  # 6 deals x 2 replays x 4 seats
    design = report["design"]["rule_sets"]["all pairings"]
    assert design["games"] == 40
    lengths = [
        n
        for (n,) in con.execute(
            "SELECT SUM(actions) FROM seats WHERE run = ? AND profile = ? GROUP BY game",
            (report["run"], "random vs heuristic"),
        )
    ]
    assert design["measures"]["length"]["mean"] == pytest.approx(sum(lengths) / len(lengths))
    assert "all pairings" in report["design"]["deal_share"]["profiles"]
    gap = report["skill_gap"]
    edge = next(h for h in report["head_to_head"] if {h["a"], h["b"]} == {"random", "heuristic"})
    sign = 1 if edge["a"] == gap["strong"] else -1
    assert gap["edge"]["mean"] == pytest.approx(sign * edge["edge"]["mean"])
    assert gap["edge"]["mean"] > 0  # the better-rated player's edge
