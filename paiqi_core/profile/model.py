"""The frozen, validated Profile and where each of its rules came from."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from types import MappingProxyType
from typing import Any

from paiqi_core.profile.errors import Location, Path_


@dataclass(frozen=True)
class Origin:
    """Where a rule's value was set: ``default``, ``profile``, ``parent`` or ``set``."""

    kind: str
    location: Location | None = None
    profile: str = ""

    def describe(self) -> str:
        """Where the value came from, in words."""
        if self.kind == "default":
            return "built-in default"
        if self.kind == "set":
            return "--set on the command line"
        where = f" ({self.location})" if self.location else ""
        if self.kind == "parent":
            return f"parent profile {self.profile}{where}"
        return f"this profile{where}"


def freeze(value: Any) -> Any:
    """A read-only copy: mappings become mapping proxies, lists tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """A plain, mutable copy of a frozen value (dicts and lists)."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


@dataclass(frozen=True)
class Described:
    """Which profile wrote the description a profile shows, and the rules in effect that
    differ from that profile's (dotted keys; empty when the description holds as written)."""

    by: str
    differs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Profile:
    """A validated profile: every rule with its value (defaults filled) and origin."""

    id: str
    data: Mapping[str, Any]
    origins: Mapping[Path_, Origin]
    source: str  # file the profile was read from
    chain: tuple[str, ...]  # this profile, then its parents (ids)
    overrides: Mapping[str, Any]  # dotted key -> value, from --set
    described: Described | None = None  # whose description this is; None: no description

    @property
    def name(self) -> str:
        """The human name (the id when the profile gives none)."""
        return str(self.data.get("name", self.id))

    def get(self, dotted: str) -> Any:
        """The value of a dotted rule key such as ``scoring.stake``."""
        value: Any = self.data
        for part in dotted.split("."):
            value = value[part]
        return value

    def section(self, name: str) -> Mapping[str, Any]:
        """One section of rules, such as ``scoring``."""
        result: Mapping[str, Any] = self.data[name]
        return result

    def origin(self, path: Path_) -> Origin:
        """Where the value at ``path`` came from."""
        return self.origins.get(tuple(path), Origin("default"))

    def resolved(self) -> dict[str, Any]:
        """Every rule in effect as plain data: parents merged, overrides applied, defaults
        filled. Loading it again gives the same rules."""
        data: dict[str, Any] = thaw(self.data)
        return data

    @cached_property
    def fingerprint(self) -> str:
        """SHA-256 of the resolved rules: two profiles with equal fingerprints play alike."""
        data = self.resolved()
        for path, default in _unfingerprinted_defaults():
            *sections, key = path
            node = data
            for part in sections:
                node = node.get(part, {})
            if key in node and node[key] == default:
                del node[key]
        text = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def __reduce__(self) -> tuple[Any, ...]:
        state = (self.id, self.resolved(), dict(self.origins), self.source, self.chain)
        return (_restore, (*state, thaw(self.overrides), self.described))


@cache
def _unfingerprinted_defaults() -> tuple[tuple[tuple[str, ...], Any], ...]:
    """The rules that the fingerprint leaves out while they hold their default: keys
    added to the rule language after rules were first stored, marked ``x-fingerprint:
    omit-default`` in the schema because their default plays every earlier rule set as
    before. Rules written before such a key existed keep their fingerprint (stored runs
    resume, records replay)."""
    from paiqi_core import resources

    out = []

    def walk(node: Mapping[str, Any], path: tuple[str, ...]) -> None:
        for key, sub in node.get("properties", {}).items():
            if sub.get("x-fingerprint") == "omit-default":
                out.append(((*path, key), sub.get("default")))
            walk(sub, (*path, key))

    walk(resources.schema("profile"), ())
    return tuple(out)


def _restore(
    id: str,
    data: dict[str, Any],
    origins: dict[Path_, Origin],
    source: str,
    chain: tuple[str, ...],
    overrides: dict[str, Any],
    described: Described | None = None,
) -> Profile:
    """A pickled Profile, frozen again (its data was validated when it was first loaded)."""
    return Profile(id, freeze(data), origins, source, chain, freeze(overrides), described)
