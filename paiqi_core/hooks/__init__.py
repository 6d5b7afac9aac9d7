"""The built-in hook library. Importing this package registers every built-in hook."""

from paiqi_core.hooks import (
    flow,
    scoring_covering,
    scoring_placement,
    scoring_platform,
    scoring_simple,
)
from paiqi_core.hooks.registry import hooks, load_plugins, lookup, register

load_plugins()

__all__ = [
    "flow",
    "hooks",
    "lookup",
    "register",
    "scoring_covering",
    "scoring_placement",
    "scoring_platform",
    "scoring_simple",
]
