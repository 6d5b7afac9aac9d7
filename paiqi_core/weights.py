"""The rule-based player's weights and constants, written once: ``agents.HeuristicAgent``
takes the weights as its defaults, and its compiled twin (``fast/heuristic.py``) plays with
the same numbers. Plain numbers only: this module imports nothing."""

# default weights (HeuristicAgent's keyword arguments of the same names, lower-case)
RUN_WEIGHT = 1.0  # a play is worth this for each card of its own hand that needs it
OPEN_WEIGHT = 1.0  # opening a suit with its 7
BLOCK_WEIGHT = 0.5  # a play costs this for each unseen card it makes playable at once
COVER_COST_WEIGHT = 1.0  # a cover costs its points (in cards) times this
STRAND_WEIGHT = 0.25  # a cover earns this times the points of unseen cards it strands
RESERVE_PASSES = 1  # passes kept in hand when passing by choice
JOKER_KEEP = 2.0  # what holding the joker is worth while the hand is long
JOKER_RELEASE_HAND = 6  # let the joker go once the hand is down to this many cards

# constants
POINTS_PER_CARD = 7  # a covered card costs 7 points on average: converts points to cards
# where any card begins a row and its last card gives another play: beginning a row whose
# last card this hand holds, per run_weight
END_WEIGHT = 0.5
FAR_RELEASE = 0.25  # weight of a card released further along a row, against one released now
HIGH_CARD_FIRST = 0.01  # per point: between equal plays, play the card dearer to cover
JOKER_ENDGAME = 2  # play the joker whenever possible once this few other cards would be left
ASSUMED_PASS_LIMIT = 3  # passes by choice stop short of this when no limit is known
