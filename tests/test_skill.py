"""The skill gap of ``compare --skill``: the pairings it plays, its figures recomputed by
hand from the stored rows, and its refusals."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from paiqi_core.cli import main
from paiqi_core.runs.run import batches
from paiqi_core.runs.store import RunSpec, Store

Capsys = pytest.CaptureFixture[str]

SPEC = RunSpec(
    "compare", ("doujue", "pagat"), (), (), False, 3, 100, 40, 4,
    skill=("heuristic", "random"), skill_deals=30,
)  # fmt: skip


def test_a_skill_gap_adds_one_alternate_seat_pairing_per_profile() -> None:
    assert SPEC.rule_sets == (
        "doujue",
        "pagat",
        "doujue · heuristic vs random",
        "pagat · heuristic vs random",
    )
    pairing = "pagat · heuristic vs random"
    assert SPEC.profile_of(pairing) == "pagat"
    assert SPEC.agents_of(pairing) == ("heuristic", "random", "heuristic", "random")
    # 30 deals, each in its two distinct seatings; the profiles keep their 100 deals
    assert SPEC.games_of(pairing) == 60 and SPEC.games_of("doujue") == 100
    assert SPEC.all_games == 100 + 100 + 60 + 60
    made = list(batches(SPEC, set()))
    assert sum(b.count for b in made) == SPEC.all_games
    skill_batches = [b for b in made if b.profile == pairing]
    assert [(b.start, b.count, b.rotate, b.seatings) for b in skill_batches] == [
        (0, 40, True, 2),
        (40, 20, True, 2),
    ]
    assert RunSpec.from_json(SPEC.to_json()) == SPEC
    older = json.loads(SPEC.to_json())
    del older["skill"], older["skill_deals"], older["distinct"]
    assert RunSpec.from_json(json.dumps(older)).rule_sets == ("doujue", "pagat")


def _edges(db: Path, run: str, name: str, column: str) -> dict[int, float]:
    """Per deal: heuristic's mean ``column`` less random's, from the stored rows."""
    by: dict[int, dict[str, list[float]]] = {}
    with Store.reader(db) as store:
        for deal, agent, value in store.expand(run).query(
            f"SELECT deal, agent, {column} FROM seats WHERE run = ? AND profile = ?", run, name
        ):
            by.setdefault(deal, {}).setdefault(agent, []).append(value)
    return {
        d: sum(v["heuristic"]) / len(v["heuristic"]) - sum(v["random"]) / len(v["random"])
        for d, v in by.items()
    }


def _sd(values: list[float]) -> float:
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))


def test_compare_with_a_skill_gap(tmp_path: Path, capsys: Capsys) -> None:
    db = tmp_path / "s.db"
    argv = ["compare", "doujue", "pagat", "--games", "40", "--skill", "30", "--skill-agents",
            "heuristic,random", "--db", str(db), "--workers", "2", "-q"]  # fmt: skip
    assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    skill = report["skill"]
    run = report["run"]
    assert (skill["strong"], skill["weak"], skill["deals"]) == ("heuristic", "random", 30)
    store = Store.reader(db).expand(run)
    con = store.db
    # every deal twice (A B A B, B A B A), each player in two seats of each game
    counts = con.execute(
        "SELECT agent, COUNT(*), COUNT(DISTINCT deal) FROM seats WHERE run = ? AND profile = ? "
        "GROUP BY agent ORDER BY agent",
        (run, "pagat · heuristic vs random"),
    ).fetchall()
    assert counts == [("heuristic", 120, 30), ("random", 120, 30)]
    std = {}
    for profile, column in (("doujue", "money_value"), ("pagat", "win")):
        name = f"{profile} · heuristic vs random"
        edges = _edges(db, run, name, column)
        entry = skill["profiles"][profile]
        assert entry["utility"]["n"] == 30
        assert entry["utility"]["mean"] == pytest.approx(sum(edges.values()) / 30)
        all_values = [v for (v,) in con.execute(
            f"SELECT {column} FROM seats WHERE run = ? AND profile = ?", (run, name))]  # fmt: skip
        sd = _sd(all_values)
        assert entry["spread"] == pytest.approx(sd)
        std[profile] = {d: e / sd for d, e in edges.items()}
        assert entry["standardised"]["mean"] == pytest.approx(sum(std[profile].values()) / 30)
        # places: random's mean rank less heuristic's (a lower rank is better)
        ranks = _edges(db, run, name, "rank")
        assert entry["places"]["mean"] == pytest.approx(-sum(ranks.values()) / 30)
    diffs = [std["pagat"][d] - std["doujue"][d] for d in range(30)]
    paired = skill["paired"]["pagat"]
    assert paired["mean"] == pytest.approx(sum(diffs) / 30)
    assert paired["ci95"] == pytest.approx(1.959964 * _sd(diffs) / math.sqrt(30))
    higher = max(std, key=lambda p: sum(std[p].values()))
    assert skill["most"] == higher
    assert skill["clear"] == (abs(paired["mean"]) > paired["ci95"])
    # rule-based play beats random play clearly in both
    for entry in skill["profiles"].values():
        assert entry["standardised"]["mean"] - entry["standardised"]["ci95"] > 0
    assert main(["report", run, "--db", str(db), "--out", str(tmp_path / "r")]) == 0
    text = capsys.readouterr().out
    assert "skill gap: heuristic against random" in text
    assert f"rewards skill most: {higher}" in text
    assert (tmp_path / "r" / "skill_gap.png").stat().st_size > 10_000
    store.close()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--skill", "0"], "--skill: 0 is not a positive number of deals"),
        (["--skill-agents", "hard,easy"], "--skill-agents: give --skill DEALS too"),
        (["--skill", "5", "--skill-agents", "hard,hard"], "name two different players"),
        (["--skill", "5", "--skill-agents", "hard"], "name two different players"),
        (["--skill", "5", "--skill-agents", "hard,genius"], "unknown agent 'genius'"),
        (["--skill-player", "expert"], "--skill-player: give --skill DEALS too"),
        (["--skill", "5", "--skill-player", "random"], "a player stronger than easy"),
        (["--skill", "5", "--skill-player", "genius"], "unknown agent 'genius'"),
        (
            ["--skill", "5", "--skill-player", "expert", "--skill-agents", "hard,easy"],
            "--skill-player and --skill-agents: give one",
        ),
    ],
)
def test_skill_gap_bad_input(
    tmp_path: Path, capsys: Capsys, extra: list[str], message: str
) -> None:
    db = tmp_path / "x.db"
    assert main(["compare", "doujue", "pagat", "--games", "5", "--db", str(db), *extra]) == 2
    assert message in capsys.readouterr().err
    assert not db.exists()


def test_a_resumed_run_keeps_its_skill_gap(tmp_path: Path, capsys: Capsys) -> None:
    db = tmp_path / "r.db"
    argv = ["compare", "doujue", "pagat", "--games", "10", "--db", str(db), "-q", "--json"]
    assert main([*argv, "--skill", "4", "--skill-agents", "heuristic,random"]) == 0
    run = json.loads(capsys.readouterr().out)["run"]
    resume = ["compare", "--resume", run, "--db", str(db), "-q"]
    assert main([*resume, "--skill", "8"]) == 2
    assert "leave out --skill" in capsys.readouterr().err
    assert main([*resume, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["skill"]["deals"] == 4
