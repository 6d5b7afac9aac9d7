"""Search players: determinized Monte Carlo over the deals a seat's observation allows.

- ``pimc`` (perfect-information Monte Carlo): for each of N deals sampled from the seat's
  belief, every legal action is valued by M playouts; the action of best mean value wins.
- ``guided``: the ``heuristic`` player's action unless PIMC playouts show, beyond what luck
  explains, that another action is better.
- ``ismcts`` (single-observer information-set MCTS, Cowling, Powley and Whitehouse 2012):
  one tree over the seat's information, each iteration played in a freshly drawn deal.

Both see only their seat's observation, optimise the profile's objective (money, rank
points or winning; ``paiqi_core.search.objective``), and are reproducible under their random
stream when their strength is a number of iterations.
"""

from paiqi_core.search.guided import GuidedAgent
from paiqi_core.search.ismcts import ISMCTSAgent
from paiqi_core.search.pimc import PIMCAgent

__all__ = ["GuidedAgent", "ISMCTSAgent", "PIMCAgent"]
