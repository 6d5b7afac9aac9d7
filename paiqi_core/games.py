"""One cached lookup of compiled games, shared by records, runs and the verifier.

``game_for(ref, overrides)`` loads a profile (a built-in id or a file, found beside
``beside`` when given) with its overrides, compiles it once, and returns the same ``Game``
to every later caller in the process. A file is read again when it changed on disk (its
modification time is part of the key).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from paiqi_core.engine.game import Game, game_of
from paiqi_core.profile import load_profile
from paiqi_core.profile.load import find_profile, load_resolved, parse_override
from paiqi_core.profile.load import with_centre as centred
from paiqi_core.profile.model import thaw
from paiqi_core.rules import rules_of

Overrides = Sequence[str] | Mapping[str, Any]
_CACHE: dict[tuple[str, int, str], Game] = {}
_LIMIT = 256


def overrides_key(overrides: Overrides) -> str:
    """A canonical text of overrides, equal for ``["a.b=2"]`` and ``{"a.b": 2}``."""
    if isinstance(overrides, Mapping):
        pairs = [(str(k), v) for k, v in overrides.items()]
    else:
        pairs = []
        for i, text in enumerate(overrides, start=1):
            path, value, _ = parse_override(str(text), i)
            pairs.append((".".join(map(str, path)), value))
    return json.dumps(pairs, sort_keys=True, ensure_ascii=False, default=str)


def game_for(ref: str, overrides: Overrides = (), *, beside: Path | None = None) -> Game:
    """The compiled game of profile ``ref`` with ``overrides`` (ProfileError if invalid)."""
    path = find_profile(ref, beside=beside)
    mtime = path.stat().st_mtime_ns if path is not None else 0
    key = (str(path) if path is not None else ref, mtime, overrides_key(overrides))
    game = _CACHE.get(key)
    if game is None:
        if len(_CACHE) >= _LIMIT:
            _CACHE.clear()
        overrides = dict(overrides) if isinstance(overrides, Mapping) else list(overrides)
        profile = load_profile(str(path) if path is not None else ref, overrides)
        game = _CACHE[key] = game_of(rules_of(profile))
    return game


def with_centre(game: Game, rank: int) -> Game:
    """``game`` with ``rank`` as its centre (a match's centre picked by its last player,
    ``match.next_centre``); the opening card follows the centre where it is a centre card.
    Records of the game name the centre among their options, so they replay."""
    rules = game.rules
    if rules.topology.centre == rank:
        return game
    profile = rules.profile
    key = (profile.source, rank, profile.fingerprint)
    known = _CENTRED.get(key)
    if known is None:
        data = centred(profile.resolved(), rank)
        overrides = {
            **thaw(profile.overrides),
            "layout.centre": data["layout"]["centre"],
            "opening.card": data["opening"]["card"],
        }
        changed = load_resolved(
            data, source=profile.source, chain=profile.chain, overrides=overrides
        )
        known = _CENTRED[key] = game_of(rules_of(changed))
    return known


_CENTRED: dict[tuple[str, int, str], Game] = {}
