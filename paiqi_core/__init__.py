"""paiqi: declarative rule profiles for 排七 / Sevens / Fan Tan, compiled into an exact engine.

The names below are imported when first used, so that importing a part of the package (the
``paiqi`` command's entry point, which must answer Ctrl-C from its first instant) does not
import all of it first.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing takes longer than the rest here
if TYPE_CHECKING:
    from typing import Any

    from paiqi_core.cards import card_text, parse_card, parse_cards
    from paiqi_core.engine import Game, IllegalAction, State
    from paiqi_core.profile import ProfileError, load_profile

_HOMES = {
    "Game": "paiqi_core.engine",
    "IllegalAction": "paiqi_core.engine",
    "State": "paiqi_core.engine",
    "ProfileError": "paiqi_core.profile",
    "load_profile": "paiqi_core.profile",
    "card_text": "paiqi_core.cards",
    "parse_card": "paiqi_core.cards",
    "parse_cards": "paiqi_core.cards",
}

__all__ = [
    "Game",
    "IllegalAction",
    "ProfileError",
    "State",
    "card_text",
    "load_profile",
    "parse_card",
    "parse_cards",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """A public name of the package, imported from its module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'paiqi_core' has no attribute '{name}'")
    import importlib

    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
