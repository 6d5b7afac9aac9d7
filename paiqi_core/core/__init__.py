"""The rules of play, written once: the state of a game as one vector of integers
(``layout``), the moves, legal options, bursts and endings on it (``kernel``), the deal's
random stream (``rng``) and the bit operations they use (``bits``).

The functions are written in the subset of Python that numba compiles. The compiled
engine (``paiqi_core.fast``) runs them compiled where numba is installed; ``plain`` gives
the very same functions as plain Python, which is how ``engine.State`` plays every game,
plugin hooks included, with or without numba.
"""
