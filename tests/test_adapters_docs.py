"""docs/adapters.md: its code runs, its training example learns, its tables are the code's."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

import pytest

from paiqi_core.resources import builtin_profiles
from paiqi_core.rules import rules_of

from .adapters_support import need
from .conftest import ROOT

DOC = ROOT / "docs" / "adapters.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def run_block(
    code: str, where: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[dict[str, Any], str]:
    monkeypatch.chdir(where)
    namespace: dict[str, Any] = {"__name__": "docs_example"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"{DOC.name} example", "exec"), namespace)
    return namespace, out.getvalue()


def test_the_page_has_its_examples() -> None:
    assert len(BLOCKS) == 5


@pytest.mark.parametrize("index", range(4))
def test_each_usage_example_runs(
    index: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    need("pettingzoo")
    need("pyspiel")
    _, out = run_block(BLOCKS[index], tmp_path, monkeypatch)
    assert out.strip()


def test_the_training_example_learns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The imitation example agrees with its teacher clearly more often than a random choice
    would, and wins more chips than a random player on the same new deals. (Its interval
    clears zero on our machine; another machine's floating-point sums may tip a few close
    choices, so the test asks only for the sign.)"""
    need("gymnasium")
    ns, out = run_block(BLOCKS[4], tmp_path, monkeypatch)
    assert ns["agree"] > ns["chance"] + 0.1
    assert ns["gain"].mean() > 0
    assert "agreement with the teacher on new deals:" in out


def test_the_bounds_table_is_the_codes() -> None:
    need("numpy")
    from paiqi_core.adapters.bounds import limits, utility_bounds, utility_sum
    from paiqi_core.adapters.encoding import Layout

    text = DOC.read_text(encoding="utf-8")
    rows = re.findall(
        r"^\| `([a-z0-9-]+)` \| (\w+) \| (-?\d+) \| (-?\d+) \| (\d+) \| (\d+) \| (\d+) \| "
        r"(\d+|no fixed sum) \((zero|constant|general)-sum\) \|",
        text,
        re.M,
    )
    assert sorted(r[0] for r in rows) == sorted(builtin_profiles())
    for pid, objective, low, high, longest, chance, size, total, kind in rows:
        rules = rules_of(pid)
        lim = limits(rules)
        assert (objective, float(low), float(high)) == (
            rules.facts.objective,
            *utility_bounds(rules),
        )
        assert int(longest) == lim.turns
        assert int(chance) == len(rules.deck) + rules.opening.uses_door_card
        assert int(size) == Layout(rules.players, lim.log).size
        if kind == "general":
            assert utility_sum(rules) is None
            continue
        assert utility_sum(rules) == float(total)
        assert kind == ("zero" if float(total) == 0 else "constant")
