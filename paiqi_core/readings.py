"""Readings: how paiqi settles points the rule sources leave open.

Each reading has a key, a statement, and says which rule sets it touches: either a
predicate over the compiled ``Rules`` (readings of rules combined across families, such as
the joker in a covering game) or the hooks that embody it (``register(...,
readings=...)``). ``paiqi explain`` lists the readings of a profile; the rule pages show
each with an example tagged ``reading: KEY``, which ``paiqi verify`` checks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from paiqi_core.cards import SEVEN
from paiqi_core.core.play_rules import PLAY_RULES, PlayRule
from paiqi_core.pack import ALL_RANKS

if TYPE_CHECKING:
    from paiqi_core.rules import Rules


@dataclass(frozen=True)
class Reading:
    """One settled point: its key, the statement, and (for combined rules) when it holds."""

    key: str
    text: str
    applies: Callable[[Rules], bool] | None = None  # None: declared by the hooks it concerns


def _jokers(rules: Rules) -> bool:
    return rules.jokers > 0


def _swaps(rules: Rules) -> bool:
    """Jokers that the holder of their place takes back (turn.joker_handover not never)."""
    return rules.jokers > 0 and rules.profile.get("turn.joker_handover") != "never"


def _opens_with_a_card(rules: Rules) -> bool:
    """Whether the opening names a card the first move must play (asked of a deal where
    seat 0 holds every card, the door card being SA)."""
    try:
        start = rules.opening.start([(1 << 52) - 1] + [0] * (rules.players - 1), 0)
    except Exception:  # a plugin opening that cannot answer this probe: no reading
        return False
    return start.first_card is not None


def pays_by_pairs(rules: Rules) -> bool:
    """Whether every two players settle the difference of their totals (QQ 排七)."""
    data = rules.profile.data.get("scoring", {})
    return bool(data.get("method") == "covering" and data.get("pay") == "pairs")


def keeps_totals(rules: Rules) -> bool:
    """Whether each player's money is its own covering total (twstar 排7, the poker7 app)."""
    data = rules.profile.data.get("scoring", {})
    return bool(data.get("method") == "covering" and data.get("pay") == "totals")


def _spares_least(rules: Rules) -> bool:
    return keeps_totals(rules) and bool(rules.profile.get("scoring.spare_least"))


def _chips_rule(rules: Rules, key: str) -> bool:
    """Whether the chips scoring sets ``scoring.KEY`` (Hoyle's and Bicycle's chips)."""
    data = rules.profile.data.get("scoring", {})
    return bool(data.get("method") == "chips" and data.get(key))


def _is_on(rule: PlayRule) -> Callable[[Rules], bool]:
    """Whether the rules of play set ``rule`` to a value that does something."""
    return lambda rules: not rule.inert_in(rules.profile.get)


READINGS: dict[str, Reading] = {
    r.key: r
    for r in (
        Reading(
            "joker-across-junction",
            "A joker move follows the row across the A-K junction: the card just beyond X may "
            "lie past K or past A, even when X and that card are the row's last two empty "
            "places.",
            lambda r: _jokers(r) and r.topology.ring,
        ),
        Reading(
            "joker-skips-laid-cards",
            "The card just beyond the joker's place is the next empty place in that "
            "direction: cards laid there by a burst are skipped.",
            lambda r: _jokers(r) and r.stuck.may_burst,
        ),
        Reading(
            "joker-swap-not-a-turn",
            "The holder of the card the joker replaced plays it at once and takes the joker; "
            "this is not a turn of theirs: play goes on after the player who used the joker.",
            _swaps,
        ),
        Reading(
            "joker-swap-after-the-end",
            "The swap happens even when the joker move ends the game.",
            _swaps,
        ),
        Reading(
            "joker-leaves-with-leaver",
            "A player whose hand becomes the joker alone leaves the game at once, and the "
            "joker leaves with them, like the joker of a burst hand.",
            _jokers,
        ),
        Reading(
            "jokers-alike",
            "Several jokers are alike: a joker move uses one of those the player holds, and the "
            "holder of the card it stands for takes that one; the jokers are one cover "
            "action. A player whose hand comes down to jokers alone leaves with all of them; "
            "players who leave so rank in the order they left, the earliest highest.",
            lambda r: r.jokers > 1,
        ),
        Reading(
            "joker-covered-points",
            "A covered joker counts 0 points, and in the |points - 7| tie-break it is 7 away, "
            "the same point value as in the total.",
            lambda r: _jokers(r) and r.stuck.covers and r.facts.covered_points_count,
        ),
        Reading(
            "joker-real-completion",
            "A suit is complete only with its 13 real cards on the table: a joker standing in "
            "for a card leaves it incomplete (for good if that card was covered), and the swap "
            "that lays the 13th real card completes it for the swapping player.",
            lambda r: _jokers(r) and any(r.facts.closure_bonus) and not r.topology.cut,
        ),
        Reading(
            "joker-leaver-not-covered",
            "Leaving with only the joker covers nothing: a leaver who covered no card scores "
            "全脫手, and a 7 played just before is not 尾張7 (the hand was emptied by "
            "leaving, not by the 7).",
            lambda r: _jokers(r) and bool(r.facts.clean_bonus or r.facts.last_seven_bonus),
        ),
        Reading(
            "door-card-joker",
            "A door card cut as the joker names no suit: the deck is cut again.",
            lambda r: _jokers(r) and r.opening.uses_door_card,
        ),
        Reading(
            "pass-limit-zero",
            "A pass limit of 0 allows no pass at all: a player who can play must, and a stuck "
            "player takes out_of_passes at once (bursts, or covers); passes never let the "
            "player who must open skip the opening card.",
            lambda r: r.stuck.pass_limit is not None,
        ),
        Reading(
            "sides-filled-place",
            "Where a row leaves its 7 in a set order, the 6 or the 8 counts as down once its "
            "place is filled: by the card itself, by a burst's card laid there face up, or by "
            "the joker standing in for it.",
            lambda r: r.topology.sides not in ("either", "up"),
        ),
        Reading(
            "extra-after-end-chains",
            "An extra card that ends its line too gives another play, as often as it happens; "
            "a player with nothing playable after an end card, or with no cards left, simply "
            "ends the turn.",
            lambda r: r.extra_after_end != "none",
        ),
        Reading(
            "extra-after-end-stop",
            "A player who stops instead of playing the extra card says pass: it is not counted "
            "among the passes (nor by the stall rule), and it tells nothing about the hand.",
            lambda r: r.extra_after_end == "may",
        ),
        Reading(
            "extra-after-end-joker",
            "A joker move whose card played beyond the joker ends its line gives the extra play "
            "too; the holder who lays the replaced card and takes the joker gets none.",
            lambda r: r.extra_after_end != "none" and _jokers(r),
        ),
        Reading(
            "leftover-face-up-plays",
            "A card lying face up (deck.leftover: face_up) is played as if from the hand of "
            "the player to move: it is that turn's one card, a player who can play one is not "
            "stuck (and must play it where a player who can play must), and it is counted in "
            "nobody's hand. Only the hand empties a hand: the face-up cards never make anyone "
            "finish, and may still lie there when the game ends.",
            lambda r: r.leftover == "face_up",
        ),
        Reading(
            "leftover-face-up-opening",
            "An opening card that lies face up is played by the seat that moves first when "
            "nobody holds it (seat 0, the dealer's left); with sevens_out, a 7 lying face up "
            "is not laid out with the dealt ones but played like any other face-up card.",
            lambda r: r.leftover == "face_up",
        ),
        Reading(
            "stock-draw-then-play",
            "A stuck player draws one card from the stock (turn.draw: one) instead of "
            "passing, and that is its turn, unless the card drawn fits: then it may play "
            "it at once as the turn's one card (and must, where a player who can play "
            "must); keeping it ends the turn with a stop that is not counted as a pass. "
            "Only a stuck player draws: one who can play, or passes by choice, does not.",
            lambda r: r.draw != "none",
        ),
        Reading(
            "stock-draws-grow",
            "Where draws grow (turn.draw: increasing, the stinia518.amebaownd.com stock), a "
            "stop is a turn on which a stuck player draws: the player's own first stop draws one "
            "card, its second two, its third three, and so on; under increasing_shared the "
            "count is the table's, so the game's n-th stop draws n cards whoever is stuck; under "
            "increasing_run, the source's own sequence, it counts the stops in a row since a "
            "card was last laid, whoever is stuck, and starts again from one once any player "
            "lays a card (a card drawn and laid at once included). The "
            "cards of a stop are drawn one after another, all of them, before anything else "
            "(a card that fits does not end the drawing), and a stop that empties the stock "
            "draws what there is and still counts. Then the player may play one card that "
            "fits, as after a single card drawn (and must, where a player who can play must), "
            "or stop with a pass that is no pass.",
            lambda r: r.draw in ("increasing", "increasing_shared", "increasing_run"),
        ),
        Reading(
            "stock-empty-passes",
            "A draw is no pass: it counts against no pass limit. Once the stock is empty a "
            "stuck player passes (or covers, bursts) as the stuck rule says; the cards of a "
            "stock nobody draws from stay out of play, and the stall rule ends a game their "
            "gaps block.",
            lambda r: r.leftover == "stock",
        ),
        Reading(
            "decks-stacked",
            "With several decks (deck.decks) a suit's copies lie stacked: the k-th copy of a "
            "card goes down only where k copies of every card between it and the centre lie "
            "(Board Game Arena's count), the k-th centre card at any time. Where a row's two "
            "sides grow apart from each other this is the game of one row of each suit per "
            "deck (badam-sat), a card going on any row of its suit where it fits; a hand laid "
            "by a burst lies in place, every copy. The copies of a card are alike: a play names "
            "the card, not the deck. Where the opening card is held twice, the first holder "
            "from the dealer's left opens.",
            lambda r: r.decks > 1,
        ),
        Reading(
            "pass-takes-from-previous-holder",
            "Where a pass takes a card, it comes from the previous player still holding "
            "cards (the seat that moved just before, unless it has gone out), who chooses "
            "which and hands it over face down: the two of them see the card, the others "
            "only that a card changed hands. Then the turn moves on from the player who "
            "passed; handing the card on is not a turn of the giver's.",
            lambda r: r.pass_takes != "none",
        ),
        Reading(
            "pass-takes-last-card",
            "A giver who hands on its last card has emptied its hand and is out, as if it "
            "had played it; a giver left holding only jokers leaves.",
            lambda r: r.pass_takes != "none",
        ),
        Reading(
            "cover-after-passes-finishes",
            "With passes that run out into covers, a hand emptied by covering finishes like "
            "any other.",
            lambda r: r.stuck.pass_limit is not None and r.stuck.covers,
        ),
        Reading(
            "burst-on-own-turn",
            "A player with no passes left and nothing to play bursts when their turn comes "
            "round, logged with the move that handed them the turn; several players may burst "
            "one after another.",
            lambda r: r.stuck.may_burst,
        ),
        Reading(
            "stuck-pass-counts",
            "Where a pass is allowed only with nothing to play, such a pass still uses up one "
            "of the passes.",
            lambda r: r.must_play and r.stuck.pass_limit is not None,
        ),
        Reading(
            "tunnel-closes-next-to-reach",
            "In a tunnel the closed side closes next to the card the row already reaches on "
            "that side (H4 when hearts run 5..K), not necessarily next to the 7.",
            lambda r: r.topology.ace_king == "tunnel",
        ),
        Reading(
            "zhanlong-bonus-by-order",
            "斬龍 closes a suit when its A or K is played; the closure bonus uses the same "
            "opening-order table as the 接龍 completion bonus.",
            lambda r: r.topology.cut and any(r.facts.closure_bonus),
        ),
        Reading(
            "centre-takes-the-sevens-part",
            "Where the rows start from another rank (layout.centre), its cards take every part "
            "the rules give the 7s: they open the rows, the door card names the suit whose "
            "centre card opens, sevens_out and cover_sevens mean them, and going out on one "
            "earns the last-seven bonus (尾張七). The 鬥雀 tie-break on covered cards still "
            "measures each card's points from 7.",
            lambda r: r.topology.centre != SEVEN,
        ),
        Reading(
            "short-pack-complete-row",
            "With a short pack (deck.ranks) a row is complete, and earns a completion bonus, "
            "once every rank of the pack lies in it (9 cards with 36, 8 with 32); all covered "
            "(十三蓋, 全蓋) means every card dealt was covered.",
            lambda r: r.topology.ranks != ALL_RANKS,
        ),
        Reading(
            "sevens-placed-at-once",
            "The 7s are placed all at once after the deal, logged suit by suit (S, H, D, C) "
            "under the seats that held them; placing them is nobody's turn.",
        ),
        Reading(
            "seven-holder-none",
            "With seven_holder the seats are asked in turn from the dealer's left, and the "
            "first holding a 7 moves first; it may open with any 7 it holds, and a seat before "
            "it shows by that alone that it was dealt none. Where no player holds a 7 (every "
            "one lies in a stock), the player at the dealer's left moves first.",
        ),
        Reading(
            "opening-card-compulsory",
            "The card that must open the game stays compulsory where passes are voluntary: its "
            "holder may not pass instead of playing it.",
            lambda r: not r.must_play and _opens_with_a_card(r),
        ),
        Reading(
            "count-covers-cards",
            "Where covered cards are counted rather than their points (scoring.count: cards), "
            "a covered joker is a covered card and costs 1 like any other; equal totals still "
            "rank the player with fewer covered cards first, then the one whose covered cards "
            "lie nearer the 7.",
            lambda r: r.facts.bust_above is not None and not r.facts.covered_points_count,
        ),
        Reading(
            "totals-add-up",
            "Where each player keeps its total (scoring.pay: totals), a player is out only by "
            "playing every card without covering one (脫手), and the finishers table reads how "
            "many are out; a player out on a 7 takes the 尾張7 bonus in place of its own amount "
            "from the table but is still counted, so the others get the table's amount for "
            "that count; each player out collects the whole of the others' covered points "
            "where they collect (finishers_collect), however many are out; a player who "
            "covered every card (全蓋) loses its covered points like anyone and is counted "
            "among the others of the table; every part adds up to the total, which is also "
            "the player's money, and the heads, the bust and the winner's multipliers do not "
            "apply.",
            keeps_totals,
        ),
        Reading(
            "spare-least-ties",
            "With nobody out and scoring.spare_least, every player tied at the fewest covered "
            "points keeps them: none of them loses anything for the cards covered.",
            _spares_least,
        ),
        Reading(
            "pairs-no-special-hands",
            "Where every two players settle the difference of their totals (scoring.pay: "
            "pairs), covering every card is no special hand (its covered cards count like "
            "anyone's), a clean finish multiplies the payments once however many players "
            "finish clean, and the heads, the bust and the winner's multipliers do not apply.",
            pays_by_pairs,
        ),
        Reading(
            "bust-after-melds",
            "The bust threshold counts the covered points left after the meld exemption.",
            lambda r: r.facts.melds_exempt and r.facts.bust_above is not None,
        ),
        Reading(
            "meld-choice",
            "When covered cards allow several sets of melds, the most 同花順 is taken, then the "
            "most 鐵支, then the most 葫蘆, then the most points forgiven.",
            lambda r: r.facts.melds_exempt,
        ),
        Reading(
            "no-ace-high-straight-flush",
            "10-J-Q-K-A is not a 同花順 (the ace sits below the 2); A-2-3-4-5 is.",
            lambda r: r.facts.melds_exempt,
        ),
        Reading(
            "middle-ties-share-label",
            "Players tied in the middle of the ranking share the label of their rank (1, 2, 2, "
            "4: both are 小頭 and 中頭 is unused).",
        ),
        Reading(
            "penalty-card-values",
            "Where penalty points count the cards' values (scoring.penalty: pips or ranks), "
            "an ace counts 1 even where it ranks above the king, a joker still held counts as "
            "the count's highest card (10 in pips, 13 in ranks), and with several decks each "
            "copy held counts.",
            lambda r: r.profile.get("scoring.penalty") in ("pips", "ranks"),
        ),
        Reading(
            "match-lead-winner",
            "Under match.next_lead: last_winner the previous game's winner moves first in the "
            "next game of a match; the match's first game begins as the opening says (the "
            "asahi-net rule page lets the player at the screen begin it; paiqi keeps the "
            "opening's first mover). Where several players share first place (a game the "
            "stall rule ended), the one with the lowest seat number begins.",
            lambda r: r.match.next_lead == "last_winner" and r.match.games > 1,
        ),
        Reading(
            "centre-pick",
            "Under match.next_centre: last_picks the player placed last picks the next game's "
            "centre before its deal, from every rank of the pack (dokopa.com's センター変更; "
            "the first game's centre is layout.centre, 7 there). Where several share last "
            "place, the one with the lowest seat number picks. The card that decides who "
            "moves first follows the centre (D7 becomes D9). paiqi's players pick a rank at "
            "random: picked before the deal, no centre gives any seat a better chance.",
            lambda r: r.match.next_centre == "last_picks" and r.match.games > 1,
        ),
        Reading(
            "losers-by-penalty",
            "Under scoring.losers: by_penalty the players still holding cards are placed "
            "behind the first out by their penalty points, the fewest first (gamerules.com's "
            "Satte pe Satta ranks them by the cards they hold); players with equal points "
            "share a place, and the next place after them is skipped (1, 2, 3, 3). In a game "
            "the stall rule ends with nobody out, the fewest penalty points win it.",
            lambda r: r.profile.get("scoring.losers") == "by_penalty",
        ),
        Reading(
            "stall-ends-game",
            "Where a game could go on for ever (passes by choice without limit), the stall rule "
            "ends it: once every player still holding cards has passed ending.stall times in "
            "a row (10 by default), the game ends where it stands and is scored as it stands, "
            "the players still holding cards tied with one another after those who finished.",
            lambda r: r.stall is not None,
        ),
        Reading(
            "all-covered-never-busts",
            "By default a 十三蓋 player's covered cards are not counted, so a 十三蓋 player who "
            "loses never busts; with scoring.all_covered_busts, one whose covered points after "
            "the meld exemption are above the bust threshold pays double.",
        ),
        Reading(
            "extra-ante-uneven-deal",
            "The extra ante (scoring.extra_ante) is paid only where the deal comes out "
            "uneven: by each player dealt fewer cards than the longest hands "
            "(extra_ante_from: short, Bicycle) or more than the shortest (long, Hoyle). "
            "Where every hand is the same size, nobody pays it.",
            lambda r: _chips_rule(r, "extra_ante"),
        ),
        Reading(
            "able-pass-price",
            "A pass is made when able if the player could have played a card (or made a "
            "joker move). Its price (scoring.able_pass_cost) goes into the pot at once, on "
            "top of pass_cost: the engine sees every hand, so every such pass is found out. "
            "Hoyle charges nothing for a pass made when stuck (pass_cost 0).",
            lambda r: _chips_rule(r, "able_pass_cost"),
        ),
        Reading(
            "held-seven-pay",
            "A pass made while holding a 7 that could have been played pays "
            "scoring.held_seven_pay to the holder of that suit's 6 and to the holder of its 8 "
            "as they stand at the moment of the pass (neither card can go down before its 7, "
            "so they are the players dealt them). A player holding both is paid twice, the "
            "passer pays nothing for its own 6 or 8, a pass holding two such 7s pays for each, "
            "and every such pass pays again. The chips go from player to player, not into "
            "the pot, whoever wins.",
            lambda r: _chips_rule(r, "held_seven_pay"),
        ),
        Reading(
            "no-dead-hand",
            "Hoyle's dead hand (nobody can open with a 7, so the deal is void) never arises "
            "with the whole pack dealt: every 7 is in a hand, so someone can always open. A "
            "round in which every holder of a 7 passes instead is no dead hand but passes "
            "made when able, each paying its price.",
            lambda r: _chips_rule(r, "held_seven_pay") and r.leftover == "dealt",
        ),
        # the readings of the rules of play declared in ``core.play_rules``
        *(
            Reading(rule.reading, rule.reading_texts["en"], _is_on(rule))
            for rule in PLAY_RULES
            if rule.reading and rule.reading_texts
        ),
    )
}


def applicable(rules: Rules, declared: tuple[str, ...] = ()) -> tuple[Reading, ...]:
    """The readings that touch ``rules``: those its hooks declare and those of combined
    rules whose condition holds, in the order of ``READINGS``."""
    return tuple(
        r
        for r in READINGS.values()
        if r.key in declared or (r.applies is not None and r.applies(rules))
    )
