"""A game's rules as the core reads them: the rules vector (``layout.R_*``) of the rules of
play, from the forms its slot objects declare (``paiqi_core.forms``) and the public numbers
of ``Rules``. A slot whose hook declares no form gets the code ``PLUGIN``: the core asks
the hook itself (``plain``). The compiled engine adds the scoring's numbers
(``paiqi_core.fast.plan``) and plays only rules with no ``PLUGIN``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from paiqi_core.core import layout as L
from paiqi_core.core.play_rules import PLAY_RULES
from paiqi_core.forms import Form, form_of

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
    if rules.profile.get("layout.start") == "any":  # any card of the pack begins a row
        ext0 = rules.topology.ranks
    R[L.R_EMPTY_FRONTIER] = sum(ext0 << (13 * suit) for suit in range(4))
    R[L.R_BEYOND] = int(rules.jokers > 0)
    R[L.R_EXTRA] = L.EXTRAS.index(rules.extra_after_end)
    R[L.R_LEFTOVER] = L.LEFTOVERS.index(rules.leftover)
    R[L.R_TAKE] = int(rules.pass_takes == "chosen")
    R[L.R_HAND] = rules.hand or 0
    R[L.R_DECKS] = rules.pack.decks
    R[L.R_DRAW] = L.DRAWS_BY.index(rules.draw)
    R[L.R_TALLY] = int(counts_able_passes(rules))
    for rule in PLAY_RULES:
        R[rule.slot] = rule.code(rules.profile.get(rule.key))
    line = rules.topology.line
    R[L.R_ENDS] = 0 if rules.topology.ring else 1 << line[0] | 1 << line[-1]
    R[L.R_CENTRE] = rules.topology.centre
    R[L.R_ROW] = rules.topology.ranks
    return R


def packed(values: Sequence[int]) -> int:
    """``values`` (at most ``layout.FIELDS``, each -32768 .. 32767) in one slot of the rules
    vector, a signed 64-bit integer; ``scoring.field`` reads them back."""
    assert len(values) <= L.FIELDS and all(-(1 << 15) <= v < 1 << 15 for v in values)
    slot = sum((v & 0xFFFF) << (16 * i) for i, v in enumerate(values))
    return slot - (1 << 64) if slot >= 1 << 63 else slot


def counts_able_passes(rules: Rules) -> bool:
    """Whether the core counts the passes made when able (``layout.TALLY``): the chips
    scoring charges for them."""
    get = rules.profile.get
    return get("scoring.method") == "chips" and bool(
        get("scoring.able_pass_cost") or get("scoring.held_seven_pay")
    )


def fill_scoring(R: list[int], f: Form) -> None:
    """The rules vector's slots of the scoring ``f`` (a built-in scoring's form)."""
    R[L.R_SCORING] = L.SCORINGS.index(f.kind)
    R[L.R_FEE_DEN] = 1
    R[L.R_NPOINTS] = -1
    if f.kind in ("covering", "platform"):
        R[L.R_BUST_ABOVE] = int(f["bust_above"])
        R[L.R_LAST_SEVEN] = int(f["last_seven_bonus"])
        R[L.R_CLEAN] = int(f["clean_bonus"])
        R[L.R_BUST_MULT] = int(f["bust_multiplier"])
        last_seven, all_covered, clean = f["winner_multiplier"]
        R[L.R_WM_LAST_SEVEN] = int(last_seven)
        R[L.R_WM_ALL_COVERED] = int(all_covered)
        R[L.R_WM_CLEAN] = int(clean)
    if f.kind == "covering":
        R[L.R_COMPLETION] = int(f["completion_bonus"])
        R[L.R_COUNT_CARDS] = int(f.get("count", "points") == "cards")
        R[L.R_PAY] = L.PAYS.index(f.get("pay", "winner"))
        R[L.R_PAIRS_CLEAN] = int(f.get("clean_multiplier", 1))
        R[L.R_BASE] = int(f.get("base", 0))
        R[L.R_ALL_COVERED_PAY] = packed(f.get("all_covered_pay", (0, 0)))
        R[L.R_TOTALS_RULES] = L.TOTALS_COLLECT * bool(f.get("finishers_collect", False)) + (
            L.TOTALS_SPARE * bool(f.get("spare_least", False))
        )
        table = [x for entry in f.get("finishers", ()) for x in entry]
        table += [0] * (2 * L.MAX_FINISHERS - len(table))
        for i in range(0, 2 * L.MAX_FINISHERS, L.FIELDS):
            R[L.R_FINISHERS + i // L.FIELDS] = packed(table[i : i + L.FIELDS])
        R[L.R_BIG] = int(f["big_head"])
        R[L.R_MIDDLE] = int(f["middle_head"])
    elif f.kind == "platform":
        R[L.R_SETTLEMENT] = 0 if f["settlement"] == "heads" else 1
        R[L.R_HEAD_SMALL], R[L.R_HEAD_MIDDLE], R[L.R_HEAD_BIG] = (int(x) for x in f["head_amounts"])
        R[L.R_RATE] = int(f["rate"])
        for i, bonus in enumerate(f["closure_bonus"]):
            R[L.R_CLOSURE + i] = int(bonus)
        R[L.R_ALL_COVERED_TOTAL] = int(f["all_covered_total"])
        R[L.R_ALL_COVERED_BUSTS] = int(bool(f["all_covered_busts"]))
        R[L.R_MELDS] = int(bool(f["melds"]))
        fee = Fraction(f["fee"])
        R[L.R_FEE_NUM], R[L.R_FEE_DEN] = fee.numerator, fee.denominator
    elif f.kind == "placement":
        points = f.get("place_points")
        if points:
            R[L.R_NPOINTS] = min(len(points), L.MAX_PLACE_POINTS)
            for i, p in enumerate(points[: L.MAX_PLACE_POINTS]):
                R[L.R_POINTS + i] = int(p)
    elif f.kind == "first_out":
        R[L.R_PENALTY] = L.PENALTIES.index(f.get("penalty", "none"))
        R[L.R_LOSERS] = int(f.get("losers", "unranked") == "by_penalty")
    elif f.kind == "chips":
        R[L.R_ANTE] = int(f["ante"])
        R[L.R_PASS_COST] = int(f["pass_cost"])
        R[L.R_CARD_COST] = int(f.get("card_cost", 0))
        R[L.R_EXTRA_ANTE] = int(f.get("extra_ante", 0))
        R[L.R_EXTRA_ANTE_LONG] = int(f.get("extra_ante_from", "short") == "long")
        R[L.R_ABLE_PASS_COST] = int(f.get("able_pass_cost", 0))
        R[L.R_HELD_SEVEN_PAY] = int(f.get("held_seven_pay", 0))
