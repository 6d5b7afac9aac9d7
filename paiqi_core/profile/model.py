"""The frozen, validated Profile and where each of its rules came from."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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
        if self.kind == "default":
            return "built-in default"
        if self.kind == "set":
            return "--set on the command line"
        where = f" ({self.location})" if self.location else ""
        if self.kind == "parent":
            return f"parent profile {self.profile}{where}"
        return f"this profile{where}"


def freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


@dataclass(frozen=True)
class Profile:
    id: str
    data: Mapping[str, Any]
    origins: Mapping[Path_, Origin]
    source: str  # file the profile was read from
    chain: tuple[str, ...]  # this profile, then its parents (ids)
    overrides: Mapping[str, Any]  # dotted key -> value, from --set

    @property
    def name(self) -> str:
        return str(self.data.get("name", self.id))

    def get(self, dotted: str) -> Any:
        value: Any = self.data
        for part in dotted.split("."):
            value = value[part]
        return value

    def section(self, name: str) -> Mapping[str, Any]:
        result: Mapping[str, Any] = self.data[name]
        return result

    def origin(self, path: Path_) -> Origin:
        return self.origins.get(tuple(path), Origin("default"))
