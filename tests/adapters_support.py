"""What the adapter tests share: importing an optional ecosystem (skipped without it, except
under CI, where every path must be tested), and the documented action numbering written out
independently of the adapters' code."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

from paiqi_core.actions import COVER, GIVE, JOKER, PASS


def need(module: str) -> ModuleType:
    """The module, or a skip (a failure under CI) when it is not installed."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        reason = f"{module} is not installed ({e}); pip install '.[test]'"
        if os.environ.get("CI"):
            pytest.fail(f"CI must test the adapters: {reason}")
        pytest.skip(reason)


def documented_index(action: int) -> int:
    """The index of an engine action in the adapters' action space, as docs/adapters.md
    states it: plays 0..51, covers 52 + card, the pass 105, the joker at x 106 + x, a card
    handed on 158 + card."""
    if action < 52:
        return action
    if COVER <= action <= COVER + 52:
        return 52 + action - COVER
    if action == PASS:
        return 105
    if GIVE <= action <= GIVE + 52:
        return 158 + action - GIVE
    assert action >= JOKER
    return 106 + (action - JOKER) // 64
