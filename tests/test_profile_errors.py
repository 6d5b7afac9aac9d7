"""Every invalid profile gives exactly the located error we designed, exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from paiqi_core.cli import main
from paiqi_core.profile import ProfileError
from paiqi_core.profile.yamlsrc import load_located

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


# -- YAML text that cannot be read: located, from a file, --set, or a verified example -----
def test_verify_locates_unreadable_yaml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = tmp_path / "rules.md"
    doc.write_text(
        "# Rules\n\n```paiqi\nname: a NUL\x00\n```\n\n```paiqi\nname: deep\nexpect: "
        + "[" * 40
        + "\n```\n",
        encoding="utf-8",
    )
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text("name: esc\x1b\n", encoding="utf-8")
    assert main(["verify", str(doc), str(scenario)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"ERROR {doc}:4:12: (root): U+0000 (NUL) is not allowed in YAML text",
        # the block's mapping and 32 lists: the 33rd [ is too deep
        f"ERROR {doc}:9:41: expect" + "[0]" * 32 + ": nested more than 32 levels deep",
        f"ERROR {scenario}:1:10: (root): U+001B (ESC) is not allowed in YAML text",
    ]


def test_control_characters_are_located_on_their_line() -> None:
    # \r alone, \x85 and \u2028 break lines in YAML: the column restarts after each
    with pytest.raises(ProfileError) as e:
        load_located("a: 1\rb: 2\x85c: 3\u2028d: \x07", "f.yaml")
    assert (
        str(e.value) == "f.yaml:4:4: (root): U+0007 (control character) is not allowed in YAML text"
    )


def test_a_value_its_tag_cannot_build_is_located() -> None:
    with pytest.raises(ProfileError) as e:
        load_located("a:\n  b: !!float nope\n", "f.yaml")
    assert str(e.value) == (
        "f.yaml:2:6: a.b: malformed YAML: not a valid float: could not convert string to "
        "float: 'nope'"
    )
