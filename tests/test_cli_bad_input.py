"""Bad input, interruption and full disks at the command line: every case ends in located
one-line messages (or one line and exit 130 for Ctrl-C, exit 1 for a full disk), never a
traceback."""

from __future__ import annotations

import errno
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest

from paiqi_core import fast
from paiqi_core.cli import main
from paiqi_core.records import RecordWriter, WriteFailed
from paiqi_core.resources import builtin_profiles
from paiqi_core.serve.api import Api

Capsys = pytest.CaptureFixture[str]
LOCATED = re.compile(r"^[^\s:][^:]*:\d+:\d+: \S+: .+$")
SURROGATE = "half of a surrogate pair"


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def only_located(err: str) -> None:
    lines = err.splitlines()
    assert lines
    for line in lines:
        assert LOCATED.match(line), line


# -- a value outside its list ---------------------------------------------------------------
def test_a_centre_that_is_no_rank_lists_the_ranks_once(capsys: Capsys) -> None:
    # a rank may be written 9 or "9": the list of what is allowed says each rank once
    ranks = "A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K"
    for value, shown in (("Z", "'Z'"), ("14", "14"), ("1", "1")):
        status, out, err = run(capsys, "explain", "pagat", "--set", f"layout.centre={value}")
        assert (status, out) == (2, "")
        assert err == f"--set:1:15: layout.centre: {shown} is not one of {ranks}\n"
    # a list without such twins keeps its usual form
    status, _, err = run(capsys, "explain", "pagat", "--set", "layout.sides=down")
    assert status == 2 and "is not one of ['either', 'high_first'" in err


def test_leftovers_face_up_with_a_joker_name_both_rules(capsys: Capsys) -> None:
    sets = ("--set", "deck.jokers=1", "--set", "deck.leftover=face_up")
    status, out, err = run(capsys, "validate", "shichinarabe", *sets)
    assert (status, out) == (2, "")
    only_located(err)
    assert err.startswith("--set:2:15: deck.leftover: deck.leftover face_up lays the cards")
    assert "take deck.jokers 0 (this profile has 1) or deck.leftover dealt" in err
    # located where the rule was written: here the first override
    status, _, err = run(capsys, "validate", "shichinarabe", *sets[2:], *sets[:2])
    assert status == 2 and err.startswith("--set:1:15: deck.leftover: ")


def test_a_pass_that_takes_a_card_needs_passes(capsys: Capsys) -> None:
    status, out, err = run(capsys, "validate", "doujue", "--set", "turn.pass_takes=chosen")
    assert (status, out) == (2, "")
    assert err == (
        "--set:1:17: turn.pass_takes: chosen needs turn.stuck: pass (this profile has cover)\n"
    )
    assert run(capsys, "validate", "doujue-passes", "--set", "turn.pass_takes=chosen")[0] == 0


def test_what_adds_to_a_total_kept_needs_totals_kept(capsys: Capsys) -> None:
    # the finishers table, the base and 全蓋's amounts mean nothing where the winner collects
    status, out, err = run(capsys, "validate", "doujue", "--set", "scoring.finishers=[[100, -10]]")
    assert (status, out) == (2, "")
    assert err == (
        "--set:1:19: scoring.finishers: [[100, -10]] needs scoring.pay: totals (this profile "
        "has winner)\n"
    )
    status, _, err = run(capsys, "validate", "qq", "--set", "scoring.base=50")
    assert (
        status == 2 and "scoring.base: 50 needs scoring.pay: totals (this profile has pairs)" in err
    )
    assert run(capsys, "validate", "twstar", "--set", "scoring.base=0")[0] == 0
    assert run(capsys, "validate", "doujue", "--set", "scoring.pay=totals",
               "--set", "scoring.spare_least=true")[0] == 0  # fmt: skip
    # a table's amount must be a whole number within bounds, and an entry a pair
    status, _, err = run(capsys, "validate", "twstar", "--set", "scoring.finishers=[[100]]")
    assert status == 2 and "scoring.finishers" in err
    status, _, err = run(
        capsys, "validate", "twstar", "--set", "scoring.all_covered_pay=[99999, 0]"
    )
    assert status == 2 and "scoring.all_covered_pay" in err


def test_a_stock_with_a_rule_that_needs_its_cards_dealt_names_both_rules(capsys: Capsys) -> None:
    # the holder of D7 opens: D7 may lie in the stock
    sets = ("--set", "deck.leftover=stock", "--set", "opening.method=holder_leads")
    status, out, err = run(capsys, "validate", "pagat", *sets, "--set", "opening.card=D7")
    assert (status, out) == (2, "")
    only_located(err)
    assert err.startswith("--set:2:16: opening.method: opening.method holder_leads opens")
    assert "deck.leftover stock may leave that card face down in the stock" in err
    # jokers are dealt to players only
    status, _, err = run(capsys, "validate", "shichinarabe", "--set", "deck.jokers=2",
                         "--set", "deck.leftover=stock")  # fmt: skip
    assert status == 2
    assert "deck.leftover stock lays the cards dealt to no seat face down in the stock" in err
    assert "take deck.jokers 0 (this profile has 2) or deck.leftover dealt" in err


def test_a_hand_size_the_pack_cannot_deal_is_located(capsys: Capsys) -> None:
    # 14 cards to each of 4 players: 56 of 52
    status, out, err = run(capsys, "validate", "pagat", "--set", "deck.hand=14")
    assert (status, out) == (2, "")
    assert err == (
        "--set:1:11: deck.hand: deck.hand deals 14 cards to each of 4 players: 56 cards, "
        "and the pack has 52\n"
    )
    # 7 each leaves 24: where they lie must be said
    status, out, err = run(capsys, "validate", "pagat", "--set", "deck.hand=7")
    assert (status, out) == (2, "")
    assert "leaves 24 of the 52: say where they lie with deck.leftover stock" in err
    # 13 each is the whole pack: nothing is left over
    assert run(capsys, "validate", "pagat", "--set", "deck.hand=13")[0] == 0


def test_drawing_needs_a_stock_and_passes(capsys: Capsys) -> None:
    status, out, err = run(capsys, "validate", "pagat", "--set", "turn.draw=one")
    assert (status, out) == (2, "")
    assert err == (
        "--set:1:11: turn.draw: one needs deck.leftover: stock (this profile has dealt)\n"
    )
    sets = ("--set", "deck.hand=7", "--set", "deck.leftover=stock", "--set", "turn.draw=one")
    status, _, err = run(capsys, "validate", "doujue", *sets, "--set", "opening.method=first_seat")
    assert status == 2 and "turn.draw: one needs turn.stuck: pass (this profile has cover)" in err
    assert run(capsys, "validate", "pagat", *sets)[0] == 0


def test_the_dealers_left_does_not_open_a_covering_game_without_a_seven(capsys: Capsys) -> None:
    """first_seat would make the dealer's left cover before any row is open when it holds
    no 7 (WILD_RULES row 34): refused, naming both rules and the opening that fits."""
    status, out, err = run(capsys, "validate", "platform", "--set", "opening.method=first_seat")
    assert (status, out) == (2, "")
    assert err == (
        "--set:1:16: opening.method: opening.method first_seat with turn.stuck cover would "
        "make the player at the dealer's left cover a card on the first turn whenever they "
        "hold no 7, which no table plays: take opening.method seven_holder (the first player "
        "holding a 7 moves first)\n"
    )
    assert run(capsys, "validate", "platform", "--set", "opening.method=seven_holder")[0] == 0
    assert run(capsys, "validate", "doujue-passes", "--set", "opening.method=first_seat")[0] == 0


# -- a lone surrogate in a profile's text -------------------------------------------------
@pytest.fixture
def surrogate_file(tmp_path: Path) -> Path:
    path = tmp_path / "odd.yaml"
    path.write_text('id: odd\nextends: doujue\nname: "seven \\ud800"\n', encoding="utf-8")
    return path


def test_a_lone_surrogate_set_on_the_command_line_is_located(capsys: Capsys) -> None:
    for text, code in (('name="\\ud800"', "D800"), ('description="x \\udfff"', "DFFF")):
        status, _, err = run(capsys, "explain", "doujue", "--set", text)
        assert status == 2
        only_located(err)
        assert err.startswith("--set:1:") and f"U+{code} is {SURROGATE}" in err
    # a byte of the command line that is not UTF-8 (Python holds it as a lone surrogate)
    for text in ("name=\udcff", "na\udcffme=1"):
        status, _, err = run(capsys, "explain", "doujue", "--set", text)
        assert status == 2
        only_located(err)
        assert "U+DCFF" in err


@pytest.mark.parametrize(
    "command",
    [
        ["validate", "FILE"],
        ["explain", "FILE"],
        ["simulate", "FILE", "--games", "1", "--engine", "python", "--workers", "1", "-q"],
        ["sweep", "FILE", "--vary", "scoring.stake=1,2", "--games", "2", "-q", "--db", "DB"],
    ],
    ids=lambda c: c[0],
)
def test_a_lone_surrogate_in_a_profile_file_is_located(
    command: list[str], surrogate_file: Path, tmp_path: Path, capsys: Capsys
) -> None:
    argv = [
        str(surrogate_file) if a == "FILE" else str(tmp_path / "r.db") if a == "DB" else a
        for a in command
    ]
    status, _, err = run(capsys, *argv)
    assert status == 2
    only_located(err)
    assert f"{surrogate_file}:3:7: name: U+D800 is {SURROGATE}" in err


def test_a_lone_surrogate_in_an_example_is_an_error_of_its_block(
    tmp_path: Path, capsys: Capsys
) -> None:
    page = tmp_path / "page.md"
    fence = "```"
    page.write_text(
        f'# t\n\n{fence}paiqi\nname: odd\nprofile: doujue\nset: {{name: "\\ud800"}}\n'
        "position:\n  table: [S6-S8]\n  hand: [S5, S9, SK]\nexpect:\n  legal: [S5, S9]\n"
        f"{fence}\n\n{fence}paiqi\nname: fine\nprofile: doujue\nposition:\n  table: [S6-S8]\n"
        f"  hand: [S5, S9, SK]\nexpect:\n  legal: [S5, S9]\n{fence}\n",
        encoding="utf-8",
    )
    status, out, err = run(capsys, "verify", str(page))
    assert status == 2
    assert SURROGATE in err and ":6:" in err
    assert "1 passed, 0 failed, 1 malformed" in out


@pytest.mark.parametrize(
    "body",
    [
        {"yaml": 'id: x\nextends: doujue\nname: "\\ud800"\n'},
        {"yaml": "id: x\nextends: doujue\nname: a\ud800\n"},
        {"profile": "doujue", "options": ['name="\\ud800"']},
        {"profile": "doujue", "options": ["description=\udfff"]},
    ],
)
def test_the_browsers_profile_check_refuses_a_lone_surrogate_located(
    body: dict[str, object],
) -> None:
    answer = Api().check(body)
    assert answer["ok"] is False
    problems = answer["problems"]
    assert isinstance(problems, list) and problems
    for p in problems:
        assert p["col"] >= 1
        assert "U+D" in p["message"]


# -- Ctrl-C --------------------------------------------------------------------------------
ROOT = Path(__file__).resolve().parent.parent
LONG_RUN = ["simulate", "doujue", "--games", "1000000", "--engine", "python", "--workers", "1"]


def entry_point() -> tuple[str, str]:
    """The module and function of pyproject's ``paiqi`` console script."""
    target = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]["paiqi"]
    module, func = target.split(":")
    return module, func


def test_the_entry_point_imports_nothing_heavy_before_it_handles_ctrl_c() -> None:
    """Python imports the entry point's module before any of its code runs: that module
    (and its package) must be quick to import, the commands imported by its function."""
    module, _ = entry_point()
    code = (
        "import sys\nbefore = set(sys.modules)\n"
        f"import {module}\nprint(' '.join(sorted(set(sys.modules) - before)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    imported = done.stdout.split()
    assert not [m for m in imported if m.startswith(("paiqi_core.cli", "yaml", "numpy"))]
    assert len(imported) <= 5, imported


def console_script(folder: Path) -> Path:
    """The ``paiqi`` script as pip writes it for pyproject's entry point; once it has
    imported the entry point's module, it touches the file named by its first argument."""
    module, func = entry_point()
    script = folder / "paiqi"
    script.write_text(
        f"#!{sys.executable}\nimport sys\nfrom {module} import {func}\n"
        f"open(sys.argv.pop(1), 'w').close()\nsys.exit({func}())\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    return script


def start(script: Path, marker: Path, *args: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [str(script), str(marker), *args, "-q"],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's Ctrl-C reaches it
    )
    deadline = time.monotonic() + 30
    while not marker.exists():
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.001)
    return proc


def interrupt(proc: subprocess.Popen[str], *delays: float) -> str:
    for delay in delays:
        time.sleep(delay)
        os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    return err


def test_ctrl_c_while_the_commands_import_exits_130_with_one_line(tmp_path: Path) -> None:
    script = console_script(tmp_path)
    for i, delay in enumerate((0.0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4)):
        proc = start(script, tmp_path / f"started{i}", *LONG_RUN)
        err = interrupt(proc, delay)
        assert proc.returncode == 130, (delay, err)
        assert err == "interrupted\n", (delay, err)


SWALLOWED = """
import os, signal, sys, weakref
import paiqi_core.cli
from paiqi_core import entry

class Lock:
    pass

def callback(_):  # where Python drops exceptions, as the import system's module locks do
    os.kill(os.getpid(), signal.SIGINT)
    total = 0
    for i in range(100_000):  # the KeyboardInterrupt is raised in here, and dropped
        total += i

def command():
    lock = Lock()
    ref = weakref.ref(lock, callback)
    del lock
    for i in range(3 * 10**7):  # seconds of work the Ctrl-C must stop
        pass
    return 0

paiqi_core.cli.main = command
sys.exit(entry.main())
"""


def test_a_ctrl_c_dropped_by_a_weak_references_callback_still_ends_the_command() -> None:
    """A Ctrl-C can arrive while Python runs code whose exceptions it drops (a weak
    reference's callback, as the import system's module locks have): the command still
    ends at once, exit status 130 and the one line, with no "Exception ignored" report."""
    done = subprocess.run(
        [sys.executable, "-c", SWALLOWED],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (130, "interrupted\n")


def test_a_second_ctrl_c_while_the_command_ends_changes_nothing(tmp_path: Path) -> None:
    script = console_script(tmp_path)
    for i, second in enumerate((0.0, 0.005, 0.02, 0.1, 0.3)):
        proc = start(script, tmp_path / f"started{i}", *LONG_RUN, "--workers", "2")
        err = interrupt(proc, 2.5, second)
        assert proc.returncode == 130, (second, err)
        assert err == "interrupted\n", (second, err)


# -- a full disk ---------------------------------------------------------------------------
FULL = Path("/dev/full")
needs_dev_full = pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this system")


def paiqi(*args: str, stdout: Any = subprocess.DEVNULL) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "paiqi_core.cli", *args],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=300,
    )


@needs_dev_full
@pytest.mark.parametrize(
    "args",
    [["explain", "doujue"], ["list", "--json"], ["validate", "doujue"], ["rulebook", "pagat"]],
    ids=" ".join,
)
def test_output_to_a_full_disk_is_one_line_and_exit_1(args: list[str]) -> None:
    with FULL.open("w") as full:
        done = paiqi(*args, stdout=full)
    assert done.returncode == 1, done.stderr
    assert done.stderr == "cannot write the output: No space left on device\n"


@needs_dev_full
@pytest.mark.parametrize("engine", ["python", "fast"])
def test_records_to_a_full_disk_are_one_line_and_exit_1(engine: str) -> None:
    done = paiqi(
        "simulate", "doujue", "--games", "300", "--engine", engine, "--workers", "1", "-q",
        "--records", str(FULL),
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[-1] == "cannot write /dev/full: No space left on device"
    assert "Traceback" not in done.stderr


class FillsUp(io.FileIO):
    """A file on a disk that fills up after ``room`` bytes: the write that reaches it
    writes part of its bytes, the next fails with ENOSPC."""

    def __init__(self, path: Path, room: int) -> None:
        super().__init__(path, "w")
        self.room = room

    def write(self, data: Any) -> int:
        if self.room <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        part = bytes(data)[: self.room]
        self.room -= len(part)
        return super().write(part)


@pytest.mark.parametrize("room", [0, 1, 99, 4096, 70_000, 150_001])
def test_a_records_file_on_a_full_disk_keeps_only_whole_lines(tmp_path: Path, room: int) -> None:
    path = tmp_path / "games.jsonl"
    line = json.dumps({"game": 0, "actions": ["H7"] * 40}) + "\n"
    writer = RecordWriter(path, raw=FillsUp(path, room))
    with pytest.raises(WriteFailed) as failed:
        for _ in range(10_000):
            writer.write(line)
        writer.close()
    writer.close()
    assert str(failed.value) == f"cannot write {path}: No space left on device"
    text = path.read_text(encoding="utf-8")
    assert text == line * (len(text) // len(line))  # whole lines, none cut
    assert len(text) <= room


def test_records_are_written_whole(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    with RecordWriter(path) as writer:
        writer.write('{"a": 1}\n{"b"')
        writer.write(": 2}")
    assert path.read_text(encoding="utf-8") == '{"a": 1}\n{"b": 2}\n'


# -- replay --------------------------------------------------------------------------------
@pytest.fixture
def record_file(tmp_path: Path, capsys: Capsys) -> Path:
    path = tmp_path / "games.jsonl"
    status, _, err = run(
        capsys, "simulate", "doujue", "--games", "2", "--engine", "python", "--workers", "1",
        "--records", str(path), "-q",
    )  # fmt: skip
    assert status == 0, err
    return path


def rewrite(path: Path, change: Any) -> Path:
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for r in records:
        change(r)
    edited = path.with_name("edited.jsonl")
    edited.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return edited


def test_a_finished_game_recorded_without_its_result_disagrees(
    record_file: Path, capsys: Capsys
) -> None:
    edited = rewrite(record_file, lambda r: r.update(result=None))
    status, out, err = run(capsys, "replay", str(edited))
    assert status == 1, err
    assert out.count("result: the record has none; the game is over and gives {") == 2
    assert out.splitlines()[-1] == "0 replayed exactly, 2 disagreed, 0 malformed"


@pytest.mark.parametrize("name", ["/etc/passwd", "../games.yaml", "doujue.yaml", "nope"])
def test_a_records_profile_is_never_opened_as_a_file(
    record_file: Path, capsys: Capsys, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(record_file.parent)
    (record_file.parent / "nope.yaml").write_text("extends: doujue\n", encoding="utf-8")
    edited = rewrite(record_file, lambda r: r.update(profile=name))
    status, out, err = run(capsys, "replay", str(edited))
    assert status == 2
    only_located(err)
    assert err.splitlines() == [
        f"{edited}:{n}:1: profile: {name!r} is not a built-in profile (built-ins: "
        f"{', '.join(builtin_profiles())}), and the record carries no rules (records of "
        "other profiles store them)"
        for n in (1, 2)
    ]
    assert out.splitlines()[-1] == "0 replayed exactly, 0 disagreed, 2 malformed"


# -- verify --------------------------------------------------------------------------------
FENCE = "```"
JOKER_DOOR = f"""# Blocks

{FENCE}paiqi
name: the joker cut as the door card
profile: platform
set: {{deck.jokers: 1}}
game:
  door_card: JOKER
expect:
  terminal: false
{FENCE}

{FENCE}paiqi
name: spades 6..8 on the table
profile: doujue
position:
  table: [S6-S8]
  hand: [S5, S9, SK]
expect:
  legal: [S5, S9]
{FENCE}
"""


def test_a_block_the_engine_cannot_start_is_located_and_the_file_goes_on(
    tmp_path: Path, capsys: Capsys
) -> None:
    page = tmp_path / "page.md"
    page.write_text(JOKER_DOOR, encoding="utf-8")
    status, out, err = run(capsys, "verify", str(page))
    assert status == 2
    assert err.splitlines() == [
        f"ERROR {page}:4:1: game: the engine cannot play this game: this opening needs a door "
        "card (a suited card)"
    ]
    assert f"PASS {page}:14  spades 6..8 on the table  [doujue]" in out
    assert out.splitlines()[-1] == "1 passed, 0 failed, 1 malformed"


# -- built-in profiles are named, not their files -------------------------------------------
def test_an_error_in_a_built_in_parent_names_the_built_in(tmp_path: Path, capsys: Capsys) -> None:
    kid = tmp_path / "kid.yaml"
    kid.write_text("id: kid\nextends: shichinarabe-tunnel\nlayout:\n  ace: high\n", "utf-8")
    status, _, err = run(capsys, "validate", str(kid))
    assert status == 2
    # the clash is located at the rule the user gave last: the kid's ace, not the parent's
    # tunnel (which the message names)
    assert err == (
        f"{kid}:4:8: layout.ace: layout.ace_king tunnel needs layout.ace: low "
        "(this profile has high)\n"
    )
    status, out, _ = run(capsys, "explain", "bicycle")
    assert "from: parent profile pagat (pagat (built-in):" in out
    assert str(builtin_profiles()["pagat"].parent) not in out


# -- YAML 1.1 surprises --------------------------------------------------------------------
def test_values_yaml_reads_unlike_they_look_are_warned_of_where_written(
    tmp_path: Path, capsys: Capsys
) -> None:
    path = tmp_path / "sixty.yaml"
    path.write_text(
        "id: sixty\nextends: doujue\nname: 1e5\nsession:\n  hands: 1:00\n"
        "turn:\n  must_play: no\nscoring:\n  stake: 010\n",
        encoding="utf-8",
    )
    hands = (
        f"{path}:5:10: warning: session.hands: 1:00 is read as the number 60 (YAML 1.1 reads "
        'numbers joined by colons in base 60): write 60, or quote it for the text ("1:00")'
    )
    stake = (
        f"{path}:9:10: warning: scoring.stake: 010 is read as 8 (YAML 1.1 reads a leading 0 as "
        "octal): write 10 for the decimal number, or quote it for the text"
    )
    for command in ("validate", "explain"):
        status, _, err = run(capsys, command, str(path))
        assert status == 0
        assert err.splitlines() == [hands, stake]  # once each; no word on no, nor on 1e5
    status, _, err = run(capsys, "explain", str(path), "--set", "scoring.stake=1e2")
    assert status == 2
    assert err.splitlines() == [
        hands,
        stake,
        "--set:1:15: warning: scoring.stake: 1e2 is read as text, not a number (YAML 1.1 "
        "needs a dot and a signed exponent): write 1.0e+2 for the number",
        "--set:1:15: scoring.stake: '1e2' is not of type 'number'",
    ]


# -- compiling the fast engine -------------------------------------------------------------
COMPILING = (
    "compiling the fast engine, once (usually 20 s to a minute; later runs load it in a second)\n"
)


@pytest.fixture
def uncompiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process as one that finds nothing in numba's cache."""
    if not fast.available():
        pytest.skip("numba is not installed")
    from paiqi_core.fast import compiled

    monkeypatch.setattr(compiled, "_UNCOMPILED", [True])
    monkeypatch.setattr(compiled, "_COMPILED", {})  # no rules compiled yet in this process
    monkeypatch.delenv("PAIQI_QUIET", raising=False)


@pytest.mark.usefixtures("uncompiled")
def test_the_first_use_of_the_compiled_engine_says_it_compiles_once(capsys: Capsys) -> None:
    status, _, err = run(
        capsys, "simulate", "doujue", "doujue-tunnel", "--games", "5", "--engine", "fast",
        "--workers", "1",
    )  # fmt: skip
    assert status == 0
    assert err == COMPILING  # not a terminal: one line, and only the first time
    status, _, err = run(capsys, "simulate", "doujue", "--games", "5", "--engine", "fast")
    assert (status, err) == (0, "")


@pytest.mark.usefixtures("uncompiled")
def test_compiling_is_quiet_with_q(capsys: Capsys) -> None:
    status, _, err = run(
        capsys, "simulate", "doujue", "--games", "5", "--engine", "fast", "--workers", "1", "-q",
    )  # fmt: skip
    assert (status, err) == (0, "")
    assert "PAIQI_QUIET" not in os.environ


# -- progress ------------------------------------------------------------------------------
def as_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """stderr (captured) as a terminal, where progress bars are drawn."""
    monkeypatch.setattr(sys, "stderr", _Terminal(sys.stderr))


class _Terminal:
    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def isatty(self) -> bool:
        return True

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def test_replay_shows_progress_on_a_terminal_and_not_with_q(
    record_file: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    as_terminal(monkeypatch)
    status, out, err = run(capsys, "replay", str(record_file))
    assert status == 0
    assert "replay [" in err and "2/2" in err and err.endswith("\n")
    assert out == "2 replayed exactly, 0 disagreed, 0 malformed\n"
    status, out, err = run(capsys, "replay", str(record_file), "-q")
    assert (status, err) == (0, "")


def test_verify_shows_progress_on_a_terminal_and_not_with_q(
    tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    as_terminal(monkeypatch)
    page = tmp_path / "page.md"
    page.write_text(JOKER_DOOR, encoding="utf-8")
    status, _, err = run(capsys, "verify", str(page))
    assert status == 2
    assert "verify [" in err and "2/2" in err
    assert "\r\x1b[KERROR " in err  # the bar's line is cleared before the error is written
    status, _, err = run(capsys, "verify", str(page), "-q")
    assert err.startswith("ERROR ") and "verify [" not in err


def test_rows_begun_anywhere_with_a_joker_or_without_the_wrap_name_both_rules(
    capsys: Capsys,
) -> None:
    # a joker stands in for a card of a row whose centre is fixed; a row begun at a middle
    # rank without the A-K wrap could never reach both ends of its line
    status, out, err = run(capsys, "simulate", "play-or-pay", "--set", "deck.jokers=1")
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("--set:1:13: deck.jokers: layout.start any")
    status, out, err = run(capsys, "explain", "play-or-pay", "--set", "layout.ace_king=none")
    assert (status, out) == (2, "")
    assert err.startswith("--set:1:17: layout.ace_king: layout.start any lets any card begin")
    assert "take layout.ace_king wrap" in err and err.count("\n") == 1
