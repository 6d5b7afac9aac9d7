"""The ``paiqi`` command finds its profiles and schemas from any working directory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import paiqi_core


def paiqi_command() -> tuple[list[str], dict[str, str]]:
    """The installed ``paiqi`` console script beside this Python if there is one (as after
    ``pip install .``), else this Python running the package from the source tree."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    bindir = Path(sys.executable).parent
    for name in ("paiqi", "paiqi.exe"):
        script = bindir / name
        if script.is_file():
            return [str(script)], env
    # Not installed: run the package from where this test imported it.
    env["PYTHONPATH"] = str(Path(paiqi_core.__file__).resolve().parent.parent)
    return [sys.executable, "-m", "paiqi_core.cli"], env


def test_paiqi_runs_from_any_directory(tmp_path: Path) -> None:
    command, env = paiqi_command()
    env["PYTHONIOENCODING"] = "utf-8"

    def paiqi(*args: str) -> str:
        done = subprocess.run(
            [*command, *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
        return done.stdout

    listing = paiqi("list")
    for pid in ("doujue", "pagat", "bicycle"):
        assert pid in listing
    explained = paiqi("explain", "doujue")
    lines = explained.splitlines()
    assert "scoring.bust_above = 55" in lines
    assert "layout.ace = low" in lines
    # Schema defaults were found too: rules the profile leaves out come from them.
    assert "scoring.big_head = 3" in lines
    assert "built-in default" in explained
    # The working directory holds nothing the command could have read.
    assert list(tmp_path.iterdir()) == []
