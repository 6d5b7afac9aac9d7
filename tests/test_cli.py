"""The ``paiqi`` command line, called in-process through ``paiqi_core.cli.main``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from paiqi_core import Game
from paiqi_core.cli import main
from paiqi_core.resources import builtin_profiles
from paiqi_core.testing import money_changes_hands

Capsys = pytest.CaptureFixture[str]


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def explained(text: str) -> dict[str, tuple[str, str]]:
    """``rule -> (value, origin)`` from the text of ``paiqi explain``."""
    rules: dict[str, tuple[str, str]] = {}
    current = ""
    for line in text.splitlines():
        m = re.match(r"^([a-z_]+(?:\.[a-z_]+)*) = (.*)$", line)
        if m:
            current = m.group(1)
            rules[current] = (m.group(2), "")
        elif current and line.strip().startswith("from:"):
            rules[current] = (rules[current][0], line.strip().removeprefix("from:").strip())
    return rules


# -- list / explain ------------------------------------------------------------------------


def test_list_shows_the_built_in_profiles(capsys: Capsys) -> None:
    status, out, _ = run(capsys, "list")
    assert status == 0
    for pid in ("doujue", "pagat", "bicycle"):
        assert re.search(rf"^{pid}\b", out, flags=re.M), pid


def test_list_json_parses(capsys: Capsys) -> None:
    status, out, _ = run(capsys, "list", "--json")
    assert status == 0
    rows = json.loads(out)
    by_id = {r["id"]: r for r in rows}
    assert set(by_id) == set(builtin_profiles())
    assert {"doujue", "pagat", "bicycle"} <= set(by_id)
    assert all(by_id[p]["players"] == 4 for p in ("doujue", "pagat", "bicycle"))
    assert by_id["bicycle"]["extends"] == "pagat"
    assert by_id["doujue"]["extends"] == ""


def test_explain_doujue_shows_values_and_origins(capsys: Capsys) -> None:
    status, out, _ = run(capsys, "explain", "doujue")
    assert status == 0
    assert "scoring.bust_above = 55" in out.splitlines()
    rules = explained(out)
    assert rules["scoring.bust_above"][0] == "55"
    assert rules["scoring.bust_above"][1].startswith("this profile")
    assert rules["turn.stuck"] == ("cover", rules["turn.stuck"][1])
    assert rules["layout.ace"][0] == "low"
    origins = {origin for _, origin in rules.values()}
    assert any(o.startswith("this profile") for o in origins)
    assert "built-in default" in origins
    # Every rule says where it came from.
    assert all(origin for _, origin in rules.values())


def test_explain_bicycle_shows_own_and_inherited_rules(capsys: Capsys) -> None:
    status, out, _ = run(capsys, "explain", "bicycle")
    assert status == 0
    rules = explained(out)
    assert rules["layout.ace"][0] == "low"
    assert rules["layout.ace"][1].startswith("this profile")
    assert rules["turn.stuck"][0] == "pass"
    assert rules["turn.stuck"][1].startswith("parent profile pagat")
    assert rules["scoring.method"] == ("chips", rules["scoring.method"][1])
    assert rules["scoring.method"][1].startswith("this profile")


def test_explain_with_set_names_the_override(capsys: Capsys) -> None:
    status, out, _ = run(capsys, "explain", "doujue", "--set", "scoring.stake=2")
    assert status == 0
    rules = explained(out)
    assert rules["scoring.stake"][0] == "2"
    assert "--set" in rules["scoring.stake"][1]
    # Only the overridden rule comes from --set.
    assert [r for r, (_, o) in rules.items() if "--set" in o] == ["scoring.stake"]


def test_explain_json_carries_the_same_origins(capsys: Capsys) -> None:
    status, out, _ = run(capsys, "explain", "bicycle", "--json", "--set", "scoring.ante=3")
    assert status == 0
    data = json.loads(out)
    assert data["id"] == "bicycle"
    assert data["chain"] == ["bicycle", "pagat"]
    rules = {r["rule"]: r for r in data["rules"]}
    assert rules["scoring.ante"]["value"] == 3
    assert "--set" in rules["scoring.ante"]["from"]
    assert rules["turn.stuck"]["from"].startswith("parent profile pagat")


def test_explain_unknown_profile_is_bad_input(capsys: Capsys) -> None:
    status, _, err = run(capsys, "explain", "no_such_profile")
    assert status == 2
    assert err.strip()


# -- simulate ------------------------------------------------------------------------------


def test_simulate_json_money_sums_to_zero_and_win_rates_to_one(capsys: Capsys) -> None:
    status, out, _ = run(capsys, "simulate", "doujue", "--games", "20", "--seed", "3", "--json")
    assert status == 0
    (summary,) = json.loads(out)
    assert summary["profile"] == "doujue"
    assert summary["games"] == 20
    assert summary["players"] == 4
    assert len(summary["mean_money"]) == 4
    # Each figure is rounded to 4 places, so the sums are exact to within 4 * 0.00005.
    assert abs(sum(summary["mean_money"])) < 1e-3
    assert abs(sum(summary["win_rate"]) - 1) < 1e-3
    assert all(0 <= w <= 1 for w in summary["win_rate"])
    # Every doujue game has exactly 52 actions: each one plays or covers a card.
    assert summary["mean_actions"] == 52


def test_simulate_every_profile_by_default(capsys: Capsys) -> None:
    status, out, _ = run(capsys, "simulate", "--games", "5", "--seed", "1", "--json")
    assert status == 0
    summaries = json.loads(out)
    assert {s["profile"] for s in summaries} == set(builtin_profiles())
    for s in summaries:
        if money_changes_hands(Game(s["profile"])):  # not where each keeps its own total
            assert abs(sum(s["mean_money"])) < 1e-3
        assert abs(sum(s["win_rate"]) - 1) < 1e-3


def test_a_set_that_some_built_ins_refuse_leaves_them_out_saying_why(capsys: Capsys) -> None:
    """With no profile named, a --set runs on every built-in that takes it: sevens-stock
    lays its leftover cards in a stock, which refuses a joker, so it is left out."""
    args = ["simulate", "--set", "deck.jokers=1", "--games", "2", "--seed", "1", "--json"]
    status, out, err = run(capsys, *args)
    assert status == 0
    played = {s["profile"] for s in json.loads(out)}
    # (play-or-pay's rows begun with any card refuse a joker too, and so do trumps)
    assert played == set(builtin_profiles()) - {"sevens-stock", "play-or-pay", "trump-fan-tan"}
    assert "note: sevens-stock left out: deck.leftover stock" in err
    assert "note: play-or-pay left out:" in err
    assert "note: trump-fan-tan left out: layout.trumps last_dealt needs deck.jokers" in err
    status, out, err = run(capsys, "simulate", "--set", "players=2", "--games", "2")
    assert status == 2 and out == ""  # no built-in seats two: the first refusal stands
    assert err.startswith("--set:1:9: players: 2 is less than the minimum of 3")


def test_simulate_is_deterministic_for_a_seed(capsys: Capsys) -> None:
    args = ["simulate", "doujue", "pagat", "--games", "20", "--seed", "3", "--json"]
    first = run(capsys, *args)
    second = run(capsys, *args)
    assert first[0] == second[0] == 0
    assert first[1] == second[1]
    other = run(capsys, "simulate", "doujue", "pagat", "--games", "20", "--seed", "4", "--json")
    assert other[1] != first[1]


def test_simulate_text_output_is_deterministic(capsys: Capsys) -> None:
    first = run(capsys, "simulate", "bicycle", "--games", "10", "--seed", "9", "-q")
    second = run(capsys, "simulate", "bicycle", "--games", "10", "--seed", "9", "-q")
    assert first[0] == 0
    assert first[1] == second[1]
    assert "bicycle" in first[1]


def test_simulate_unknown_agent_is_bad_input(capsys: Capsys) -> None:
    status, _, err = run(
        capsys, "simulate", "doujue", "--games", "2", "--agents", "random,random,random,genius"
    )
    assert status == 2
    assert "genius" in err


def test_simulate_wrong_number_of_agents_is_bad_input(capsys: Capsys) -> None:
    status, _, err = run(capsys, "simulate", "doujue", "--games", "2", "--agents", "random,random")
    assert status == 2
    assert err.strip()


def test_simulate_zero_games_is_bad_input(capsys: Capsys) -> None:
    status, _, err = run(capsys, "simulate", "doujue", "--games", "0")
    assert status == 2
    assert "--games" in err


# -- records and replay --------------------------------------------------------------------


@pytest.fixture
def records(tmp_path: Path, capsys: Capsys) -> Path:
    path = tmp_path / "games.jsonl"
    status, _, _ = run(
        capsys, "simulate", "doujue", "--games", "20", "--seed", "3", "--records", str(path), "-q"
    )
    assert status == 0
    return path


def read_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_simulated_records_replay_exactly(records: Path, capsys: Capsys) -> None:
    lines = read_lines(records)
    assert len(lines) == 20
    assert all(r["profile"] == "doujue" and len(r["actions"]) == 52 for r in lines)
    status, out, _ = run(capsys, "replay", str(records))
    assert status == 0
    assert "20 replayed exactly" in out
    assert "FAIL" not in out


def test_records_of_every_profile_replay(tmp_path: Path, capsys: Capsys) -> None:
    path = tmp_path / "all.jsonl"
    status, _, _ = run(
        capsys, "simulate", "--games", "4", "--seed", "11", "--records", str(path), "-q"
    )
    assert status == 0
    assert {r["profile"] for r in read_lines(path)} == set(builtin_profiles())
    status, out, _ = run(capsys, "replay", str(path))
    assert status == 0
    assert f"{4 * len(builtin_profiles())} replayed exactly" in out


def test_swapped_actions_make_replay_fail_at_that_action(records: Path, capsys: Capsys) -> None:
    lines = records.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[0])
    actions = record["actions"]
    # Two consecutive actions are by different seats (4 players still hold cards at the
    # start), so swapping them puts the second seat out of turn at index 5.
    assert actions[5]["seat"] != actions[6]["seat"]
    actions[5], actions[6] = actions[6], actions[5]
    lines[0] = json.dumps(record, ensure_ascii=False)
    edited = records.with_name("edited.jsonl")
    edited.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, _ = run(capsys, "replay", str(edited))
    assert status == 1
    assert "actions[5]" in out
    assert f"{edited}:1" in out
    assert "19 replayed exactly, 1 disagreed" in out


def test_a_card_not_in_hand_makes_replay_fail(records: Path, capsys: Capsys) -> None:
    lines = records.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[3])
    first = record["actions"][0]
    # The opening S7 is played by its holder; claim SA instead, which the holder may not
    # even hold and which never opens a doujue game.
    assert first == {"seat": first["seat"], "type": "play", "card": "S7"}
    record["actions"][0] = {**first, "card": "SA"}
    lines[3] = json.dumps(record, ensure_ascii=False)
    edited = records.with_name("edited.jsonl")
    edited.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, _ = run(capsys, "replay", str(edited))
    assert status == 1
    assert "actions[0]" in out
    assert f"{edited}:4" in out


def test_a_record_whose_hands_are_not_its_seeds_deal_fails(records: Path, capsys: Capsys) -> None:
    lines = records.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[1])
    record["seed"] += 1
    lines[1] = json.dumps(record, ensure_ascii=False)
    edited = records.with_name("edited.jsonl")
    edited.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, _ = run(capsys, "replay", str(edited))
    assert status == 1
    assert f"{edited}:2" in out
    assert "hands" in out


def test_a_wrong_result_makes_replay_fail(records: Path, capsys: Capsys) -> None:
    lines = records.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[0])
    record["result"]["money"][0] = record["result"]["money"][0] + 1  # no longer sums to 0
    lines[0] = json.dumps(record, ensure_ascii=False)
    edited = records.with_name("edited.jsonl")
    edited.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, _ = run(capsys, "replay", str(edited))
    assert status == 1
    assert "result.money" in out


def test_truncated_record_makes_replay_fail(records: Path, capsys: Capsys) -> None:
    lines = records.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[0])
    record["actions"] = record["actions"][:-1]
    lines[0] = json.dumps(record, ensure_ascii=False)
    edited = records.with_name("edited.jsonl")
    edited.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, _ = run(capsys, "replay", str(edited))
    assert status == 1
    assert "FAIL" in out


@pytest.mark.parametrize(
    "bad_line",
    [
        "this is not JSON",
        '{"profile": "doujue", "truncated": ',
        '{"profile": "doujue"}',  # missing players, hands, actions
        '{"profile": "doujue", "players": 4, "hands": [], "actions": [{"seat": 0}]}',
    ],
)
def test_malformed_record_line_is_bad_input_with_its_line(
    records: Path, capsys: Capsys, bad_line: str
) -> None:
    lines = records.read_text(encoding="utf-8").splitlines()
    lines.insert(2, bad_line)  # becomes line 3
    edited = records.with_name("malformed.jsonl")
    edited.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, err = run(capsys, "replay", str(edited))
    assert status == 2
    assert f"{edited}:3:" in err
    assert f"{edited}:1:" not in err
    assert "20 replayed exactly" in out


def test_replay_of_a_missing_file_is_bad_input(tmp_path: Path, capsys: Capsys) -> None:
    status, _, err = run(capsys, "replay", str(tmp_path / "nope.jsonl"))
    assert status == 2
    assert "nope.jsonl" in err


# -- verify --------------------------------------------------------------------------------

EXAMPLES = """\
# Two examples

Spades 6 to 8 are on the table: S5 and S9 fit, SK does not.

```paiqi
name: passing example
profile: doujue
position:
  table: [S6-S8]
  hand: [S5, S9, SK]
expect:
  legal: [S5, S9]
```

The same position, with a wrong expectation:

```paiqi
name: failing example
profile: doujue
position:
  table: [S6-S8]
  hand: [S5, S9, SK]
expect:
  legal: [S5, SK]
```

```yaml
name: not an example, ignored
```
"""


def test_verify_reports_pass_fail_diff_and_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("examples.md").write_text(EXAMPLES, encoding="utf-8")
    status, out, _ = run(capsys, "verify", "examples.md")
    assert status == 1
    lines = out.splitlines()
    passing = [line for line in lines if line.startswith("PASS")]
    failing = [line for line in lines if line.startswith("FAIL")]
    assert len(passing) == 1 and "passing example" in passing[0]
    assert len(failing) == 1 and "failing example" in failing[0]
    # Located at the block: the fence is on line 5 (passing) and 17 (failing).
    assert re.search(r"examples\.md:(5|6)\b", passing[0])
    assert re.search(r"examples\.md:(17|18)\b", failing[0])
    assert "expected" in out and "actual" in out
    expected = next(line for line in lines if "expected" in line)
    actual = next(line for line in lines if "actual" in line)
    assert "SK" in expected and "S9" not in expected
    assert "S9" in actual and "SK" not in actual
    assert lines[-1] == "1 passed, 1 failed"


def test_verify_passing_file_exits_zero(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    good = EXAMPLES.split("The same position")[0]
    Path("good.md").write_text(good, encoding="utf-8")
    status, out, _ = run(capsys, "verify", "good.md")
    assert status == 0
    assert out.splitlines()[-1] == "1 passed, 0 failed"


MALFORMED = """\
# Broken

```paiqi
name: unclosed list
profile: doujue
position:
  table: [S6-S8]
  hand: [S5
```
"""

MISSPELT = """\
# Misspelt

```paiqi
name: misspelt key
profile: doujue
positoin:
  table: [S6-S8]
expect:
  legal: [S5]
```
"""


def test_verify_malformed_block_is_bad_input_with_a_location(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("broken.md").write_text(MALFORMED, encoding="utf-8")
    status, out, err = run(capsys, "verify", "broken.md")
    assert status == 2
    located = re.findall(r"broken\.md:(\d+):(\d+):", out + err)
    assert located
    # The error lies inside the block, between its fences on lines 3 and 9.
    assert all(3 <= int(line) <= 9 for line, _ in located)


def test_verify_unknown_key_is_located_at_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("misspelt.md").write_text(MISSPELT, encoding="utf-8")
    status, out, err = run(capsys, "verify", "misspelt.md")
    assert status == 2
    # 'positoin' is on line 6, column 1.
    assert "misspelt.md:6:1:" in out + err
    assert "positoin" in out + err


def test_verify_malformed_block_error_goes_to_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Capsys
) -> None:
    """README: exit 2 is bad input, 'the error, located as FILE:LINE:COL: rule.path:
    message, goes to stderr'."""
    monkeypatch.chdir(tmp_path)
    Path("broken.md").write_text(MALFORMED, encoding="utf-8")
    status, _, err = run(capsys, "verify", "broken.md")
    assert status == 2
    assert re.search(r"broken\.md:\d+:\d+: ", err)


def test_verify_missing_path_is_bad_input(tmp_path: Path, capsys: Capsys) -> None:
    status, _, err = run(capsys, "verify", str(tmp_path / "missing.md"))
    assert status == 2
    assert "missing.md" in err


def test_values_outside_a_family_range_are_allowed_and_noted(
    capsys: Capsys, tmp_path: Path, in_repo: Path
) -> None:
    path = tmp_path / "big_table.yaml"
    path.write_text(
        "id: big-table\nextends: shichinarabe\nplayers: 6\nturn:\n  pass_limit: 8\n"
        "match:\n  games: 2\n",
        encoding="utf-8",
    )
    status, out, err = run(capsys, "validate", str(path))
    assert status == 0 and out.startswith("ok ")
    notes = err.splitlines()
    assert notes == [
        f"{path}:3:10: players: note: 6 is outside the documented range of shichinarabe "
        "(3..4); played as a house rule",
        f"{path}:5:15: turn.pass_limit: note: 8 is outside the documented range of "
        "shichinarabe (1..5); played as a house rule",
        f"{path}:7:10: match.games: note: 2 is outside the documented range of shichinarabe "
        "(1, 3 or 5); played as a house rule",
    ]
    status, out, _ = run(capsys, "explain", str(path), "--json")
    rules = {r["rule"]: r for r in json.loads(out)["rules"]}
    assert rules["players"]["note"].startswith("6 is outside the documented range")
    assert "note" not in rules["deck.jokers"]
    # in range, or a family without documented ranges for the key: no note
    status, _, err = run(capsys, "validate", "variants/shichinarabe.yaml", "--set", "players=3")
    assert (status, err) == (0, "")
    status, _, err = run(capsys, "validate", "variants/pagat.yaml", "--set", "players=8")
    assert (status, err) == (0, "")
    status, _, err = run(capsys, "validate", "variants/doujue.yaml", "--set", "deck.jokers=1")
    assert status == 0 and "outside the documented range of doujue (0)" in err


def test_help_of_the_program_and_of_every_command(capsys: Capsys) -> None:
    from paiqi_core.cli import build_parser

    commands = sorted(build_parser()._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    assert {"list", "explain", "validate", "verify", "simulate", "compare", "replay"} <= set(
        commands
    )
    for argv in (["--help"], *([c, "--help"] for c in commands)):
        with pytest.raises(SystemExit) as done:
            main(argv)
        assert done.value.code == 0
        out, err = capsys.readouterr()
        assert out.startswith("usage: paiqi") and err == ""
    assert "95% confidence intervals" in build_parser().format_help()


def test_explain_json_says_whose_description_it_shows(capsys: Capsys) -> None:
    status, out, _ = run(capsys, "explain", "shichinarabe", "--set", "players=3", "--json")
    described = json.loads(out)["description"]
    assert status == 0 and described["of"] == "shichinarabe"
    assert described["differs"] == [
        {"rule": "players", "value": 3, "from": "--set on the command line"}
    ]


def test_unprintable_hook_names_are_escaped(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "ctl.yaml"
    path.write_text('extends: doujue\nturn:\n  stuck: "co\\x1bver"\n', encoding="utf-8")
    status, _, err = run(capsys, "validate", str(path))
    assert status == 2 and "\x1b" not in err
    assert "unknown stuck hook 'co\\x1bver'; did you mean 'cover'?" in err


def test_verify_locates_bytes_that_are_not_utf8(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "bad.md"
    path.write_bytes(b"fine\n\xff\xfe\n")
    status, _, err = run(capsys, "verify", str(path))
    assert status == 2
    assert err.strip().endswith("bad.md:2:1: (root): not UTF-8 text: byte 0xff")
