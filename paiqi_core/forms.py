"""What a slot object declares to the compiled fast path: its *form*.

A built-in hook's slot object carries a ``compiled`` attribute: a ``Form`` naming the
behaviour (``kind``) and its parameters, in the terms of the compiled kernel
(``paiqi_core.fast``). The kernel implements exactly the kinds listed in ``KINDS``; a slot
object whose ``compiled`` is missing or None (every plugin hook unless its author declares
one of these forms) has no compiled form, and its games are played by the Python engine.

This module imports nothing beyond the standard library and belongs to the rule core, below
the compiled engine: hooks declare their forms whether or not numba is installed, and
without importing the engine that reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# the behaviours the kernel implements, by slot
KINDS: dict[str, tuple[str, ...]] = {
    "opening": ("holder_leads", "first_seat", "door_card", "sevens_out", "seven_holder"),
    "stuck": ("cover", "pass"),
    "ending": ("all_empty", "first_out", "one_left"),
    "scoring": ("covering", "platform", "placement", "first_out", "chips"),
}


@dataclass(frozen=True)
class Form:
    """A behaviour the compiled kernel implements (``kind``) and its parameters."""

    kind: str
    params: tuple[tuple[str, Any], ...] = ()

    def get(self, name: str, default: Any = None) -> Any:
        """The parameter ``name`` (``default`` when not given)."""
        for key, value in self.params:
            if key == name:
                return value
        return default

    def __getitem__(self, name: str) -> Any:
        for key, value in self.params:
            if key == name:
                return value
        raise KeyError(name)


def form(kind: str, **params: Any) -> Form:
    """The form ``kind`` with ``params`` (kept in name order)."""
    return Form(kind, tuple(sorted(params.items())))


def form_of(slot: str, obj: object) -> Form | None:
    """The compiled form ``obj`` declares for ``slot``, or None when it declares none the
    kernel knows."""
    declared = getattr(obj, "compiled", None)
    if isinstance(declared, Form) and declared.kind in KINDS[slot]:
        return declared
    return None
