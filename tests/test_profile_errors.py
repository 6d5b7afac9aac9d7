"""Every invalid profile gives exactly the located error we designed, exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from paiqi_core.cli import main

from .conftest import ROOT

INVALID = ROOT / "tests" / "data" / "invalid"


def _expected() -> list[tuple[str, str]]:
    rows = []
    for line in (INVALID / "EXPECTED.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, message = line.partition(" | ")
            rows.append((name, message))
    return rows


def test_every_invalid_file_has_an_expected_message() -> None:
    named = {name for name, _ in _expected()}
    on_disk = {p.name for p in INVALID.glob("*.yaml")} - {"cycle_b.yaml"}
    assert named == on_disk


@pytest.mark.parametrize(("name", "message"), _expected())
def test_invalid_profile_message(
    in_repo: Path, name: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["validate", f"tests/data/invalid/{name}"])
    captured = capsys.readouterr()
    assert status == 2
    assert captured.err.strip() == message
    assert "Traceback" not in captured.err


def test_bad_override_is_located(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(
        ["explain", "doujue", "--set", "scoring.stake=1", "--set", "scoring.bust_above=-1"]
    )
    assert status == 2
    assert capsys.readouterr().err.strip() == (
        "--set:2:20: scoring.bust_above: -1 is less than the minimum of 0"
    )


def test_override_of_unknown_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "pagat", "--set", "scoring.stak=2"]) == 2
    assert capsys.readouterr().err.strip() == (
        "--set:1:14: scoring.stak: unknown key; did you mean 'stake'?"
    )


def test_valid_house_profile(in_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "tests/data/valid/house_stake.yaml", "variants/bicycle.yaml"]) == 0
    out = capsys.readouterr().out
    assert "ok tests/data/valid/house_stake.yaml (house-stake" in out


def test_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "no/such/profile.yaml"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("no/such/profile.yaml:1:1: (root): no such profile file")
