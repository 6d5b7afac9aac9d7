"""What the adapter tests share: importing an optional ecosystem (skipped without it, except
under CI, where every path must be tested), and the documented action numbering written out
independently of the adapters' code."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

from paiqi_core.actions import COVER, DRAW, DRAW_CARD, GIVE, JOKER, PASS

# house rules with a stock to draw from (deck.hand, deck.leftover: stock, turn.draw: one), as
# overrides: a stuck player draws (a card that fits is played at once, or may be kept where
# it need not play); the adapters' action 211, and the stock's count in observations
STOCK_VARIANTS: list[tuple[str, dict[str, object]]] = [
    ("pagat", {"deck.hand": 7, "deck.leftover": "stock", "turn.draw": "one"}),
    (
        "pagat",
        {"deck.hand": 7, "deck.leftover": "stock", "turn.draw": "one", "turn.must_play": False},
    ),
    ("shichinarabe", {"deck.hand": 10, "deck.leftover": "stock", "turn.draw": "one"}),
    # draws that grow from stop to stop: a stop is several draws of one seat in a row
    ("sevens-stock", {"turn.draw": "increasing"}),
    # a turn's block of cards (turn.lay: blocks): one seat lays several cards in a row and
    # may stop, with a pass that is no pass
    ("sevens-stock", {"turn.lay": "blocks"}),
]


def overrides_list(overrides: dict[str, object]) -> tuple[str, ...]:
    """``{"deck.hand": 7}`` as ``("deck.hand=7",)`` (booleans as the profiles write them)."""
    return tuple(
        f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in overrides.items()
    )


def options_string(overrides: dict[str, object]) -> str:
    """``{"deck.hand": 7}`` as OpenSpiel's options ``"deck.hand:7"``."""
    return ";".join(o.replace("=", ":", 1) for o in overrides_list(overrides))


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
    handed on 158 + card, the draw 211 (the log's draw of a card too: the card is chance's),
    a trump in the place x of another suit 212 + x."""
    if action < 52:
        return action
    if COVER <= action <= COVER + 52:
        return 52 + action - COVER
    if action == PASS:
        return 105
    if GIVE <= action <= GIVE + 52:
        return 158 + action - GIVE
    if action == DRAW or DRAW_CARD <= action < DRAW_CARD + 52:
        return 211
    if action >= JOKER + 4096:  # a trump laid in the place x of another suit: 212 + x
        return 212 + (action - JOKER - 4096) // 64
    assert action >= JOKER
    return 106 + (action - JOKER) // 64
