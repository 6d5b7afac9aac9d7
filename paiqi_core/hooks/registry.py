"""Registries of named behaviours (hooks) that profiles choose by name.

A hook is registered for a *slot* (``opening``, ``stuck``, ``ending``, ``scoring``) under a
name, with the parameters of its section that it reads. Compiling a profile looks the name
up here and calls the factory once with those parameters; the factory returns an object of
the slot's protocol (``paiqi_core.slots``), and the engine only calls that object. Plugins
register their own hooks the same way, from a module named under the ``paiqi.hooks``
entry-point group.
"""

from __future__ import annotations

import copy
import difflib
import importlib.metadata
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar, overload

from paiqi_core.pack import STANDARD, Pack
from paiqi_core.slots import EndingRule, OpeningRule, ScoringRule, StuckRule

Params = Mapping[str, Any]


class SectionParams(Mapping[str, Any]):
    """What a hook's factory is given: its section of the rules (a mapping of the keys it
    reads), and beside them the ``pack`` in play (``paiqi_core.pack.Pack``: the ranks, the
    centre rank, the jokers), which rules about "the 7s" read."""

    def __init__(self, section: Mapping[str, Any], pack: Pack) -> None:
        self._section = section
        self.pack = pack

    def __getitem__(self, key: str) -> Any:
        return self._section[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._section)

    def __len__(self) -> int:
        return len(self._section)


def pack_of(p: Params) -> Pack:
    """The pack beside a hook's parameters (the whole pack where none is given)."""
    pack = getattr(p, "pack", STANDARD)
    assert isinstance(pack, Pack)
    return pack


Factory = Callable[[Params], Any]
F = TypeVar("F", bound=Factory)
OpeningFactory = TypeVar("OpeningFactory", bound=Callable[[Params], OpeningRule])
StuckFactory = TypeVar("StuckFactory", bound=Callable[[Params], StuckRule])
EndingFactory = TypeVar("EndingFactory", bound=Callable[[Params], EndingRule])
ScoringFactory = TypeVar("ScoringFactory", bound=Callable[[Params], ScoringRule])

SLOTS = {
    "opening": "opening.method",
    "stuck": "turn.stuck",
    "ending": "ending.method",
    "scoring": "scoring.method",
}


@dataclass(frozen=True)
class Hook:
    """A registered behaviour: its slot, name, factory, the parameters it reads."""

    slot: str
    name: str
    factory: Factory
    params: tuple[str, ...]  # keys of the hook's section that it reads
    summary: str
    requires: Mapping[str, Any] = field(default_factory=dict)  # other rules it needs
    schema: Mapping[str, Any] = field(default_factory=dict)  # JSON Schemas of new params
    readings: tuple[str, ...] = ()  # keys of paiqi_core.readings this hook embodies


_REGISTRY: dict[str, dict[str, Hook]] = {slot: {} for slot in SLOTS}


@overload
def register(
    slot: Literal["opening"],
    name: str,
    *,
    params: tuple[str, ...] = (),
    summary: str,
    requires: Mapping[str, Any] | None = None,
    schema: Mapping[str, Any] | None = None,
    readings: tuple[str, ...] = (),
) -> Callable[[OpeningFactory], OpeningFactory]: ...
@overload
def register(
    slot: Literal["stuck"],
    name: str,
    *,
    params: tuple[str, ...] = (),
    summary: str,
    requires: Mapping[str, Any] | None = None,
    schema: Mapping[str, Any] | None = None,
    readings: tuple[str, ...] = (),
) -> Callable[[StuckFactory], StuckFactory]: ...
@overload
def register(
    slot: Literal["ending"],
    name: str,
    *,
    params: tuple[str, ...] = (),
    summary: str,
    requires: Mapping[str, Any] | None = None,
    schema: Mapping[str, Any] | None = None,
    readings: tuple[str, ...] = (),
) -> Callable[[EndingFactory], EndingFactory]: ...
@overload
def register(
    slot: Literal["scoring"],
    name: str,
    *,
    params: tuple[str, ...] = (),
    summary: str,
    requires: Mapping[str, Any] | None = None,
    schema: Mapping[str, Any] | None = None,
    readings: tuple[str, ...] = (),
) -> Callable[[ScoringFactory], ScoringFactory]: ...
@overload
def register(
    slot: str,
    name: str,
    *,
    params: tuple[str, ...] = (),
    summary: str,
    requires: Mapping[str, Any] | None = None,
    schema: Mapping[str, Any] | None = None,
    readings: tuple[str, ...] = (),
) -> Callable[[F], F]: ...
def register(
    slot: str,
    name: str,
    *,
    params: tuple[str, ...] = (),
    summary: str,
    requires: Mapping[str, Any] | None = None,
    schema: Mapping[str, Any] | None = None,
    readings: tuple[str, ...] = (),
) -> Callable[[F], F]:
    """Decorator: register ``factory`` as hook ``name`` of ``slot``.

    The factory takes the profile's section of the slot (``opening``, ``turn``, ``ending``
    or ``scoring``) and returns an object of the slot's protocol. ``params`` names the keys
    of that section the hook reads; a parameter that the profile schema does not define yet
    needs its JSON Schema (with a ``default`` and a ``description``) in ``schema``.
    ``requires`` states other rules the hook needs, e.g. ``{"ending.method": "all_empty"}``.
    ``readings`` names the readings (``paiqi_core.readings``) the hook's behaviour takes.
    """
    if slot not in _REGISTRY:
        raise ValueError(f"unknown hook slot {slot!r}; slots: {', '.join(SLOTS)}")
    for param, sub in (schema or {}).items():
        if param not in params or "default" not in sub:
            raise ValueError(f"schema for {param!r}: list it in params and give a default")

    def deco(factory: F) -> F:
        _REGISTRY[slot][name] = Hook(
            slot,
            name,
            factory,
            params,
            summary,
            dict(requires or {}),
            dict(schema or {}),
            tuple(readings),
        )
        return factory

    return deco


def extend_schema(base: Mapping[str, Any]) -> dict[str, Any]:
    """The profile schema with the parameters that registered hooks add to their section."""
    schema = copy.deepcopy(dict(base))
    for slot, dotted in SLOTS.items():
        section = dotted.split(".")[0]
        props = schema["properties"][section]["properties"]
        for hook in _REGISTRY[slot].values():
            for param, sub in hook.schema.items():
                props.setdefault(param, dict(sub))
    return schema


def load_plugins() -> None:
    """Import the modules that installed packages declare under the ``paiqi.hooks``
    entry-point group; importing them registers their hooks."""
    for entry in importlib.metadata.entry_points(group="paiqi.hooks"):
        entry.load()


def hooks(slot: str) -> dict[str, Hook]:
    """The hooks registered for ``slot``, by name."""
    return _REGISTRY[slot]


def lookup(slot: str, name: str) -> Hook:
    """The hook ``name`` of ``slot`` (KeyError when none is registered)."""
    return _REGISTRY[slot][name]


def unknown_message(slot: str, name: str) -> str:
    """The error for an unknown hook name, with the closest known name (characters that
    do not print are escaped, so that a name cannot steer the terminal)."""
    known = sorted(_REGISTRY[slot])
    close = difflib.get_close_matches(name, known, n=1)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in name)
    return f"unknown {slot} hook '{shown}'{hint} (known: {', '.join(known)})"
