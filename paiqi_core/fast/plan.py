"""From compiled ``Rules`` to the kernel's rules vector, or the reason there is none.

Only the slot objects' declared forms (``forms``), the rank topology and the public
numbers of ``Rules`` are read, never a profile key, so a plugin hook that declares no form
is simply not compiled. Pure Python: ``why_not`` answers whether or not numba is installed.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from paiqi_core.core import layout as L
from paiqi_core.core.vector import fill_scoring, play_vector
from paiqi_core.forms import Form, form_of

if TYPE_CHECKING:
    from paiqi_core.rules import Rules

SLOT_WORDS = {
    "opening": "opening",
    "stuck": "stuck rule",
    "ending": "ending",
    "scoring": "scoring",
}
INT64_ROOM = 1 << 62  # money numerators stay below this


def forms_of(rules: Rules) -> dict[str, Form | None]:
    """The declared form of each slot of ``rules`` (None: none the kernel knows)."""
    return {
        "opening": form_of("opening", rules.opening),
        "stuck": form_of("stuck", rules.stuck),
        "ending": form_of("ending", rules.ending),
        "scoring": form_of("scoring", rules.scoring),
    }


def why_not(rules: Rules) -> str | None:
    """Why the kernel cannot play ``rules`` (None: it can)."""
    missing = [slot for slot, f in forms_of(rules).items() if f is None]
    if missing:
        named = ", ".join(f"the {SLOT_WORDS[s]} '{rules.hook_name(s)}'" for s in missing)
        return f"{named} of {rules.id} {'has' if len(missing) == 1 else 'have'} no compiled form"
    if rules.players > L.MAX_SEATS:
        most = L.MAX_SEATS
        return f"{rules.id} seats {rules.players} players; the compiled engine seats at most {most}"
    scoring = forms_of(rules)["scoring"]
    assert scoring is not None
    if scoring.kind == "platform":
        fee = Fraction(scoring["fee"])
        amounts = max(*scoring["head_amounts"], 13_000 * int(scoring["rate"]))
        bound = amounts * int(scoring["bust_multiplier"]) * max(scoring["winner_multiplier"])
        if bound * L.MAX_SEATS * fee.denominator >= INT64_ROOM:
            return f"the house fee of {rules.id} ({fee}) is too fine for the compiled engine"
    return None


def rules_vector(rules: Rules) -> list[int]:
    """The kernel's rules vector (``layout.R_*``); ``why_not(rules)`` must be None."""
    forms = forms_of(rules)
    opening, stuck, ending, scoring = (forms[s] for s in ("opening", "stuck", "ending", "scoring"))
    assert opening and stuck and ending and scoring
    R = play_vector(rules)
    fill_scoring(R, scoring)
    R[L.R_COURSE_COVERS] = int(bool(rules.stuck.covers))
    R[L.R_CLEAN_EVENT] = int(bool(rules.facts.clean_bonus))
    bust = rules.facts.bust_above
    R[L.R_H_BUST] = -1 if bust is None else int(bust)
    for i, bonus in enumerate(rules.facts.closure_bonus):
        R[L.R_H_CLOSURE + i] = int(bonus)
    return R


def stake(rules: Rules) -> Fraction:
    """What every payment of the kernel's money is multiplied by (the covering stake)."""
    f = forms_of(rules)["scoring"]
    if f is not None and f.kind == "covering":
        return Fraction(f["stake"])
    return Fraction(1)
