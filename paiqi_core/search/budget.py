"""How hard a search player works: a number of iterations, or a time per decision.

Written after the player's name in ``--agents``: ``ismcts:2000`` (2,000 iterations),
``pimc:64x8`` (64 deals, 8 playouts of each action in each), ``ismcts:50ms`` or
``pimc:0.2s`` (a time per decision). A budget in iterations makes a player reproducible
under its random stream; a budget in time does not (how far it gets depends on the machine).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

_TIME = re.compile(r"^(\d+(?:\.\d+)?)(ms|s)$")


@dataclass(frozen=True)
class Budget:
    """Iterations (or deals and playouts), or seconds per decision."""

    iterations: int = 0
    per_iteration: int = 1  # playouts per deal (pimc)
    seconds: float = 0.0

    @staticmethod
    def parse(text: str, *, pairs: bool = False) -> Budget:
        """``2000``, ``64x8`` (with ``pairs``), ``50ms`` or ``0.5s``; ValueError otherwise."""
        t = text.strip().lower()
        timed = _TIME.match(t)
        if timed:
            value = float(timed.group(1)) / (1000 if timed.group(2) == "ms" else 1)
            if not 0 < value <= 600:
                raise ValueError(f"'{text}': a time per decision between 1ms and 600s")
            return Budget(seconds=value)
        parts = t.split("x")
        if pairs and len(parts) == 2 and all(p.isdigit() for p in parts):
            deals, playouts = int(parts[0]), int(parts[1])
        elif len(parts) == 1 and t.isdigit():
            deals, playouts = int(t), 1
        else:
            shape = "N, NxM" if pairs else "N"
            raise ValueError(f"'{text}' is not a strength ({shape}, or a time such as 50ms)")
        if not (1 <= deals <= 1_000_000 and 1 <= playouts <= 10_000):
            raise ValueError(f"'{text}': iterations between 1 and 1,000,000")
        return Budget(iterations=deals, per_iteration=playouts)

    def clock(self) -> Clock:
        """A countdown for one decision."""
        return Clock(self)


class Clock:
    """Counts a decision's iterations against its budget."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.done = 0
        self.deadline = time.perf_counter() + budget.seconds if budget.seconds else 0.0

    def more(self) -> bool:
        """Whether another iteration fits (the first one always does)."""
        if self.done == 0:
            return True
        if self.deadline:
            return time.perf_counter() < self.deadline
        return self.done < self.budget.iterations

    def tick(self) -> None:
        """Count one iteration."""
        self.done += 1
