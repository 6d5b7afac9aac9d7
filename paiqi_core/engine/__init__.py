"""The game engine: ``Game`` (compiled rules and their deals) and ``State`` (a game in
progress), with the observation a seat receives and the error an illegal action raises."""

from paiqi_core.engine.game import Game, game_of
from paiqi_core.engine.state import IllegalAction, State
from paiqi_core.observation import History, Observation

__all__ = ["Game", "History", "IllegalAction", "Observation", "State", "game_of"]
