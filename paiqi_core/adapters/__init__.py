"""paiqi games in other ecosystems: a PettingZoo AEC environment, a Gymnasium single-seat
environment, and OpenSpiel games.

- ``paiqi_core.adapters.pettingzoo`` (extra ``[pettingzoo]``): ``paiqi_env(profile,
  overrides)``, an AEC environment for every profile.
- ``paiqi_core.adapters.gymnasium`` (extra ``[pettingzoo]``, which brings Gymnasium):
  ``paiqi_gym_env(profile, ...)``, one learning seat against paiqi players.
- ``paiqi_core.adapters.openspiel`` (extra ``[openspiel]``): every profile as an OpenSpiel
  game, ``pyspiel.load_game("paiqi", {"profile": "doujue"})``.

All three share one action space and one observation layout (``paiqi_core.adapters.encoding``)
and the bounds of a game's length and utilities (``paiqi_core.adapters.bounds``). They play
their games through ``paiqi_core.adapters.steps``: in paiqi's compiled kernel where it can
play the profile (``paiqi_core.fast``, numba installed), in the Python engine otherwise. The
Python engine stays the reference: both give the same games, observations and results.
"""
