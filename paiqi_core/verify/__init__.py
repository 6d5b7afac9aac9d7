"""``paiqi verify``: run the executable examples of Markdown docs and scenario files."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from paiqi_core.profile import ProfileError
from paiqi_core.verify.check import Outcome, run_example
from paiqi_core.verify.extract import Example, find_files, load_examples


@dataclass
class Report:
    """The verdicts of a verify run, and the examples that could not be read."""

    outcomes: list[Outcome] = field(default_factory=list)
    errors: list[ProfileError] = field(default_factory=list)

    @property
    def passed(self) -> int:
        """Examples that passed."""
        return sum(o.passed for o in self.outcomes)

    @property
    def failed(self) -> int:
        """Examples that failed."""
        return len(self.outcomes) - self.passed

    def as_dict(self) -> dict[str, Any]:
        """The report as data, for ``--json``."""
        return {
            "passed": self.passed,
            "failed": self.failed,
            "errors": [str(e) for e in self.errors],
            "examples": [
                {
                    "location": str(o.example.location),
                    "name": o.example.name,
                    "profiles": o.profiles,
                    "passed": o.passed,
                    "failures": o.failures,
                }
                for o in self.outcomes
            ],
        }


class Writes(Protocol):
    """Where verdicts are written: anything with ``write(text)``."""

    def write(self, text: str, /) -> int:
        """Write ``text``."""
        ...


def collect(paths: Sequence[Path]) -> list[Example | ProfileError]:
    """Every example under ``paths``, in order, and a located error for each block that
    cannot be read (examples are small: reading them all first gives their count)."""
    return [item for path in find_files(list(paths)) for item in load_examples(path)]


def verify_paths(
    paths: Sequence[Path],
    out: Writes | None = None,
    *,
    quiet: bool = False,
    err: Writes | None = None,
    items: Sequence[Example | ProfileError] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Report:
    """Run every example under ``paths`` (or the ``items`` collected from them);
    verdicts go to ``out``, malformed examples (located errors) to ``err`` (default:
    ``out``); ``progress`` is told how many examples have run."""
    err = err or out
    report = Report()
    done = 0
    for item in collect(paths) if items is None else items:
        if not isinstance(item, ProfileError):
            try:
                outcome = run_example(item)
            except ProfileError as e:  # a setup the engine refuses: an error of its own
                item = e
            done += 1
            if progress:
                progress(done)
        if isinstance(item, ProfileError):
            report.errors.append(item)
            if err:
                for problem in item.problems:
                    err.write(f"ERROR {problem}\n")
            continue
        report.outcomes.append(outcome)
        if out and (not quiet or not outcome.passed):
            status = "PASS" if outcome.passed else "FAIL"
            out.write(
                f"{status} {item.location.file}:{item.location.line}  {item.name}"
                f"  [{', '.join(outcome.profiles)}]\n"
            )
            for failure in outcome.failures:
                out.write("".join(f"    {line}\n" for line in failure.splitlines()))
    if out:
        errors = f", {len(report.errors)} malformed" if report.errors else ""
        out.write(f"{report.passed} passed, {report.failed} failed{errors}\n")
    return report


__all__ = ["Report", "collect", "verify_paths"]
