"""The hooks of docs/authoring.md, one for each slot, installed as a plugin package outside
paiqi (found through the ``paiqi.hooks`` entry point) and used by every command: validate,
explain, verify, simulate on several processes with records, replay and compare. Their
profiles pass the engine's invariant checks, and the documented examples pass."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paiqi_core import Game, ProfileError
from paiqi_core.hooks import registry
from paiqi_core.testing import check_game

from .conftest import ROOT

DOC = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
PROFILES = ("most-sevens", "cover-highest", "two-out", "cards-left")


def blocks(lang: str, first_line: str) -> list[str]:
    """The documented code blocks of ``lang`` whose first line starts with ``first_line``."""
    found = [b for b in re.findall(rf"```{lang}\n(.*?)```", DOC, flags=re.S)]
    return [b for b in found if b.startswith(first_line)]


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the documented module as an installed distribution (module plus
    dist-info with its ``paiqi.hooks`` entry point), as ``pip install`` would leave it."""
    site = tmp_path_factory.mktemp("site")
    code = blocks("python", "# house_hooks.py")
    assert len(code) == 4, "one documented hook per slot"
    (site / "house_hooks.py").write_text("\n\n".join(code), encoding="utf-8")
    info = site / "house_hooks-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: house-hooks\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[paiqi.hooks]\nhouse_hooks = house_hooks\n")
    return site


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the documented profiles and examples."""
    folder = tmp_path_factory.mktemp("table")
    for text in blocks("yaml", "# "):
        name = text.splitlines()[0][2:].strip()
        if name.endswith(".yaml"):
            (folder / name).write_text(text, encoding="utf-8")
    examples = blocks("yaml", "# verified with house_hooks installed")
    assert len(examples) == 4
    (folder / "examples.yaml").write_text(
        "examples:\n" + "".join(_as_item(e) for e in examples), encoding="utf-8"
    )
    assert {p.stem for p in folder.glob("*.yaml")} >= set(PROFILES)
    return folder


def _as_item(example: str) -> str:
    lines = example.splitlines()[1:]
    return "".join(("  - " if i == 0 else "    ") + line + "\n" for i, line in enumerate(lines))


def paiqi(plugin: Path, table: Path, *args: str) -> tuple[int, str, str]:
    """Run the ``paiqi`` command in a fresh interpreter that finds the plugin by its entry
    point only (nothing imports it by name)."""
    paths = [str(plugin), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    done = subprocess.run(
        [sys.executable, "-m", "paiqi_core.cli", *args],
        cwd=table,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return done.returncode, done.stdout, done.stderr


def test_every_command_finds_the_plugin_hooks(plugin: Path, table: Path) -> None:
    files = [f"{p}.yaml" for p in PROFILES]
    status, out, err = paiqi(plugin, table, "validate", *files)
    assert (status, err) == (0, "")
    assert out.count("ok ") == 4
    status, out, _ = paiqi(plugin, table, "explain", "two-out.yaml")
    assert status == 0
    assert "the game ends when a second player goes out" in out
    status, out, _ = paiqi(
        plugin, table, "explain", "cards-left.yaml", "--set", "scoring.per_card=3"
    )
    assert "Chips a player pays the winner for each card left in hand." in out
    assert "scoring.per_card = 3" in out


def test_a_rule_book_states_a_plugin_rule_by_its_own_summary(
    plugin: Path, table: Path, tmp_path: Path
) -> None:
    book = tmp_path / "two-out.md"
    status, out, err = paiqi(plugin, table, "rulebook", "two-out.yaml", "--out", str(book))
    assert (status, err) == (0, "")
    text = book.read_text(encoding="utf-8")
    assert "the game ends when a second player goes out" in text
    status, out, _ = paiqi(plugin, table, "verify", str(book))
    assert status == 0 and out.strip().endswith("0 failed")


def test_the_documented_examples_pass_with_the_plugin(plugin: Path, table: Path) -> None:
    status, out, err = paiqi(plugin, table, "verify", "examples.yaml")
    assert status == 0, out + err
    assert "4 passed, 0 failed" in out


def test_without_the_plugin_its_hooks_are_unknown(table: Path, tmp_path: Path) -> None:
    status, _, err = paiqi(tmp_path, table, "validate", "two-out.yaml")
    assert status == 2
    assert "two-out.yaml:5:11: ending.method: unknown ending hook 'two_out'" in err


def _simulated(plugin: Path, table: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    files = [f"{p}.yaml" for p in PROFILES]
    status, out, err = paiqi(
        plugin, table, "simulate", *files, "--games", "40", "--seed", "4", "--workers", "2",
        "--batch", "10", "--records", "games.jsonl", "--json", "-q",
    )  # fmt: skip
    assert status == 0, err
    lines = (table / "games.jsonl").read_text(encoding="utf-8").splitlines()
    return json.loads(out), [json.loads(line) for line in lines]


def test_simulate_on_two_processes_with_records_that_replay(plugin: Path, table: Path) -> None:
    summaries, records = _simulated(plugin, table)
    assert [s["profile"] for s in summaries] == list(PROFILES)
    assert all(s["games"] == 40 for s in summaries)
    assert [r["profile"] for r in records] == [p for p in PROFILES for _ in range(40)]
    by_profile = {p: [r for r in records if r["profile"] == p] for p in PROFILES}
    for r in by_profile["cover-highest"]:  # every cover took the highest card held
        _covers_were_the_highest(r)
    for r in by_profile["two-out"]:  # two players out, then the game stopped
        assert r["result"]["rank"].count(1) == 1 and r["result"]["rank"].count(2) == 1
    for r in by_profile["cards-left"]:  # the winner collects what the others pay
        assert sum(r["result"]["money"]) == 0 and max(r["result"]["money"]) > 0
    status, out, _ = paiqi(plugin, table, "replay", "games.jsonl")
    assert status == 0
    assert "160 replayed exactly, 0 disagreed" in out


def _covers_were_the_highest(record: dict[str, Any]) -> None:
    from paiqi_core.cards import parse_card

    hands = [{parse_card(c) for c in h} for h in record["hands"]]
    for action in record["actions"]:
        held = hands[action["seat"]]
        if "card" in action and action["type"] in ("play", "cover"):
            card = parse_card(action["card"])
            if action["type"] == "cover":
                assert card % 13 == max(c % 13 for c in held if c < 52)
            held.discard(card)


def test_compare_plays_the_same_deals_under_plugin_rules(plugin: Path, table: Path) -> None:
    status, out, err = paiqi(
        plugin, table, "compare", "pagat", "two-out.yaml", "--games", "60", "--workers", "2",
        "--batch", "20", "--db", "runs.db", "--json", "-q",
    )  # fmt: skip
    assert status == 0, err
    report = json.loads(out)
    actions = report["paired"]["two-out.yaml"]["actions"]
    # The same deal goes on past the first player out, so it is never shorter: the paired
    # difference in length is positive.
    assert actions["n"] == 60 and actions["mean"] > 0
    status, _, err = paiqi(
        plugin, table, "simulate", "two-out.yaml", "--agents", "heuristic,random,random,random",
        "--games", "10", "-q",
    )  # fmt: skip
    assert status == 0, err


@pytest.fixture
def installed(plugin: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The plugin loaded in this process through its entry point, for this test only."""
    for slot in registry.SLOTS:
        monkeypatch.setitem(registry._REGISTRY, slot, dict(registry._REGISTRY[slot]))
    monkeypatch.syspath_prepend(str(plugin))
    registry.load_plugins()
    yield
    sys.modules.pop("house_hooks", None)


@pytest.mark.parametrize("profile", PROFILES)
def test_plugin_profiles_keep_the_engine_invariants(
    installed: None, table: Path, profile: str
) -> None:
    check_game(Game(str(table / f"{profile}.yaml")), games=8)


def test_a_hook_that_breaks_its_protocol_is_a_located_error(
    installed: None, tmp_path: Path
) -> None:
    @registry.register("ending", "forgetful", summary="returns an object without over()")
    def forgetful(params: Any) -> Any:
        return object()

    @registry.register("stuck", "fussy", summary="fails on its parameters")
    def fussy(params: Any) -> Any:
        raise ValueError("needs a pass limit")

    path = tmp_path / "broken.yaml"
    path.write_text("extends: pagat\nending:\n  method: forgetful\n", encoding="utf-8")
    where = r"broken.yaml:3:11: ending.method: ending hook "
    lacks = r"'forgetful' returned object, which lacks over of the ending protocol"
    with pytest.raises(ProfileError, match=where + lacks):
        Game(str(path))
    path.write_text("extends: pagat\nturn:\n  stuck: fussy\n", encoding="utf-8")
    with pytest.raises(ProfileError, match=r"turn.stuck: stuck hook 'fussy': needs a pass limit"):
        Game(str(path))


def test_the_documented_hook_parameter_is_validated(installed: None, table: Path) -> None:
    with pytest.raises(ProfileError, match=r"scoring.per_card: 0 is less than the minimum of 1"):
        Game(str(table / "cards-left.yaml"), ["scoring.per_card=0"])
