"""A game's rules as the core reads them: the rules vector (``layout.R_*``) of the rules of
play, from the forms its slot objects declare (``paiqi_core.forms``) and the public numbers
of ``Rules``. A slot whose hook declares no form gets the code ``PLUGIN``: the core asks
the hook itself (``plain``). The compiled engine adds the scoring's numbers
(``paiqi_core.fast.plan``) and plays only rules with no ``PLUGIN``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paiqi_core.core import layout as L
from paiqi_core.forms import form_of

if TYPE_CHECKING:
    from paiqi_core.rules import Rules


def play_vector(rules: Rules) -> list[int]:
    """The rules vector's slots for the rules of play (the scoring's are left 0)."""
    R = [0] * L.RULES
    R[L.R_PLAYERS] = rules.players
    R[L.R_DECK] = len(rules.deck)
    R[L.R_JOKERS] = rules.jokers
    R[L.R_MUST_PLAY] = int(rules.must_play)
    R[L.R_STALL] = -1 if rules.stall is None else rules.stall
    opening = form_of("opening", rules.opening)
    R[L.R_OPENING] = L.PLUGIN if opening is None else L.OPENINGS.index(opening.kind)
    R[L.R_OPENING_CARD] = -1 if opening is None else int(opening.get("card", -1))
    R[L.R_DOOR] = int(bool(rules.opening.uses_door_card))
    stuck = form_of("stuck", rules.stuck)
    R[L.R_MAY_BURST] = int(bool(rules.stuck.may_burst))
    R[L.R_PASS_LIMIT] = -1
    if stuck is None:
        R[L.R_STUCK] = L.PLUGIN
    elif stuck.kind == "cover":
        R[L.R_STUCK] = L.STUCKS.index("cover")
        R[L.R_COVERABLE] = int(stuck["coverable"])
    else:
        R[L.R_STUCK] = L.STUCKS.index(stuck.kind)
        limit = stuck["pass_limit"]
        R[L.R_PASS_LIMIT] = -1 if limit is None else int(limit)
        R[L.R_THEN_COVER] = int(bool(stuck["then_cover"]))
    ending = form_of("ending", rules.ending)
    R[L.R_ENDING] = L.PLUGIN if ending is None else L.ENDINGS.index(ending.kind)
    ext0 = rules.topology.extensions[0]
    R[L.R_EMPTY_FRONTIER] = sum(ext0 << (13 * suit) for suit in range(4))
    R[L.R_BEYOND] = int(rules.jokers > 0)
    R[L.R_EXTRA] = L.EXTRAS.index(rules.extra_after_end)
    line = rules.topology.line
    R[L.R_ENDS] = 0 if rules.topology.ring else 1 << line[0] | 1 << line[-1]
    R[L.R_CENTRE] = rules.topology.centre
    R[L.R_ROW] = rules.topology.ranks
    return R
