"""paiqi: declarative rule profiles for 排七 / Sevens / Fan Tan, compiled into an exact engine."""

from paiqi_core.cards import card_text, parse_card, parse_cards
from paiqi_core.engine import Game, IllegalAction, State
from paiqi_core.profile import ProfileError, load_profile

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
