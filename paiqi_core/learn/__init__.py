"""Learned players: a model of where the unseen cards lie, trained for one rule set.

``paiqi train PROFILE`` plays games with the compiled engine's players, reads each seat's
observation as rows of numbers (``features``), and fits a small network (``model``) that
scores, for each unseen card, each place it may be in. The ``expert`` player
(``paiqi_core.search.expert``) draws the deals it searches from the belief that model tilts.
Training needs the ``[learn]`` extra (JAX and optax); play needs numpy only.
"""
