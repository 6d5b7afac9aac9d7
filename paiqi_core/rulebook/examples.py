"""Worked examples of a rule book, played by the engine and written as ``paiqi`` blocks.

Each example is a small setup (a position, a game near its end, a finished game's facts)
that the engine plays; what it answers (the legal actions, the end, the totals and money)
becomes both the sentence under the example and the block's ``expect``, so ``paiqi verify``
on the book replays it. A setup the rules in effect cannot hold (a card of a short pack, a
row the rules forbid) gives no example.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from paiqi_core.actions import ActionError, action_text, is_event, parse_action
from paiqi_core.cards import SUITED, CardError, card_text, parse_cards, points, suit_of
from paiqi_core.engine import Game
from paiqi_core.hooks.scoring_placement import rank_points
from paiqi_core.match import run_match
from paiqi_core.outcome import Result
from paiqi_core.profile import ProfileError
from paiqi_core.rulebook.cards import card
from paiqi_core.session import run_session
from paiqi_core.slots import Start
from paiqi_core.verify.scenario import Seats, SetupError, build_state, outcomes_from_facts


class _Plain(yaml.SafeDumper):
    """YAML written out in full: a fact used twice is written twice, with no aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


@dataclass
class Worked:
    """One worked example: its section, the sentence saying what happens, its block data."""

    section: str
    text: str
    block: dict[str, Any]

    def fenced(self) -> str:
        """The example as a ``paiqi`` block."""
        body = yaml.dump(
            self.block,
            Dumper=_Plain,
            allow_unicode=True,
            sort_keys=False,
            width=96,
            default_flow_style=None,
        )
        return "```paiqi\n" + body + "```"


def ranges(cards: Sequence[str]) -> list[str]:
    """Cards (and ranges) as a block writes them, each once, runs of one suit as ranges
    (``H2-HK``)."""
    nums = sorted(set(parse_cards(list(cards))))
    out: list[str] = []
    run: list[int] = []
    for c in [*nums, -1]:
        if run and c >= 0 and suit_of(c) == suit_of(run[-1]) and c == run[-1] + 1:
            run.append(c)
            continue
        if run:
            first, last = card_text(run[0]), card_text(run[-1])
            out.append(first if len(run) == 1 else f"{first}-{last}")
        run = [c] if c >= 0 else []
    return out


def _shown(cards: Sequence[str]) -> str:
    """Cards on the table in words: runs as ranges (♠6-♠9)."""
    return " ".join(card(c) for c in ranges(cards)) or "—"


def _hand(cards: Sequence[str], words: Mapping[str, str]) -> str:
    """A hand in words: each card, in card order."""
    return " ".join(_one(card_text(c), words) for c in sorted(parse_cards(list(cards))))


def _said(action: str, words: Mapping[str, str]) -> str:
    """An action in words: a card, pass, cover a card."""
    if action == "pass":
        return words["act_pass"]
    if action == "draw":
        return words["act_draw"]
    if action.startswith("cover "):
        return words["act_cover"].format(card=_one(action.split()[1], words))
    if action.startswith("joker "):
        _, at, beyond = action.split()
        return words["act_joker"].format(at=card(at), card=card(beyond))
    if action.startswith("trump "):
        _, trump, at = action.split()
        return words["act_trump"].format(card=card(trump), at=card(at))
    return card(action)


def _all_said(actions: Sequence[str], words: Mapping[str, str]) -> str:
    """Actions in words, one after another."""
    return words["and"].join(_said(a, words) for a in actions)


def _one(text: str, words: Mapping[str, str]) -> str:
    """One card in words (a joker by its name in the book's language)."""
    return words["joker"] if text == "JOKER" else card(text)


def _acts(actions: Sequence[int]) -> list[str]:
    return [action_text(a) for a in sorted(actions)]


REFUSED = (ProfileError, SetupError, CardError, ActionError, ValueError, ArithmeticError)

# the positions: (section, words key, table, hand of the player to move)
POSITIONS: tuple[tuple[str, str, list[str], list[str]], ...] = (
    ("play", "ex_play", ["S6-S9", "H7"], ["S5", "S10", "H8", "D7", "CK"]),
    ("play", "ex_play", ["S7", "D2-D7", "H7-HK"], ["DA", "D8", "HA", "C3"]),
    ("play", "ex_play", ["S7", "HA-H7"], ["H8", "C3"]),
    ("stuck", "ex_stuck", ["S5-S9", "H6-H8", "D7", "C7"], ["CK", "DQ", "CA"]),
    ("jokers", "ex_joker", ["S6-S8", "H7"], ["JOKER", "S10", "HQ"]),
)


def _start(game: Game) -> Start | None:
    """How the rules start a game where seat 0 holds every card and the door card is SA
    (None where the opening cannot answer that): the opening card, the cards put out."""
    try:
        deal = [SUITED] + [0] * (game.players - 1)
        return game.rules.opening.start(deal, 0)
    except Exception:  # a plugin opening that cannot answer this probe: no opening example
        return None


def _put_out(game: Game, table: list[str], hand: list[str]) -> tuple[list[str], list[str]]:
    """A table and a hand as the rules can have them in play: the cards the opening puts
    on the table before play (every 7, where the 7s go out at once) lie there."""
    start = _start(game)
    placed = [card_text(c) for _, c in start.placed] if start else []
    if not placed:
        return table, hand
    return ranges([*table, *placed]), [c for c in hand if c not in placed]


def _trumps_named(game: Game, setup: dict[str, Any]) -> dict[str, Any]:
    """``setup`` with, where the last card dealt names trumps (``layout.trumps``), the card
    that named them: the last card given to the last seat given a hand, or else the highest
    card neither on the table nor in the hand of the player to move (it goes to another
    seat)."""
    if not game.trumps or "door_card" in setup:
        return setup
    hands = setup.get("hands") or {}
    held = [c for s in sorted(hands, reverse=True) for c in reversed(hands[s]) if c != "JOKER"]
    if held:
        return {**setup, "door_card": held[0]}
    seen = set(parse_cards([*setup.get("table", []), *setup.get("hand", [])]))
    door = max(c for c in range(52) if c not in seen)
    return {**setup, "door_card": card_text(door)}


def _opening(game: Game, ident: Mapping[str, Any], words: Mapping[str, str]) -> Worked | None:
    """The first move of a game whose opening names its card, or lets any 7 open."""
    start = _start(game)
    if start is None or start.placed or game.rules.opening.uses_door_card:
        return None
    first = card_text(start.first_card) if start.first_card is not None else None
    hand = [first, "C7" if first != "C7" else "D7", "S8"] if first else ["H7", "D7", "S8"]
    return _position(game, ident, words, ("deal", "ex_open", [], hand))


def _position(game: Game, ident: Mapping[str, Any], words: Mapping[str, str],
              setup: tuple[str, str, list[str], list[str]],
              door: str | None = None) -> Worked | None:  # fmt: skip
    section, key, table, hand = setup
    if section == "jokers" and game.rules.jokers == 0:
        return None
    table, hand = _put_out(game, table, hand) if table else (table, hand)
    given = {"table": table, "hand": hand, **({"door_card": door} if door else {})}
    position = _trumps_named(game, given)
    try:
        state = build_state(game, Seats(None, game.players), position, dealt=False)
        legal = _acts(state.legal_actions())
    except REFUSED:
        return None
    if section == "stuck" and any(a[0] in "SHDC" for a in legal):
        return None  # under these rules a card fits: no stuck player to show
    text = words[key].format(
        table=_shown(table),
        hand=_hand(hand, words),
        legal=_all_said(legal, words),
        trumps=card(door) if door else "",
    )
    block = {**ident, "position": position, "expect": {"legal": legal}}
    return Worked(section, text, block)


# a position where trumps (hearts, named by the H2) part from the plain rules: the H9 and
# the H5 may take the S9's and the S5's places as well
_TRUMP_POSITION = ("play", "ex_trump", ["S6-S8", "H7-H8"], ["H9", "H5", "CK"])


def _trump_position(game: Game, ident: Mapping[str, Any], words: Mapping[str, str],
                    every: bool) -> Worked | None:  # fmt: skip
    """The trump position under trumps; under other rules only for a comparison
    (``every``), as a plain position."""
    if game.trumps:
        return _position(game, ident, words, _TRUMP_POSITION, door="H2")
    if every:
        return _position(game, ident, words, ("play", "ex_play", *_TRUMP_POSITION[2:]))
    return None


def _joker_swap(game: Game, ident: Mapping[str, Any],
                words: Mapping[str, str]) -> Worked | None:  # fmt: skip
    """A joker laid for S9 with S10 beyond it; seat 1, who holds S9, lays it and takes the
    joker (where the holder must: turn.joker_handover forced)."""
    if game.rules.jokers == 0 or game.rules.profile.get("turn.joker_handover") != "forced":
        return None
    table, _ = _put_out(game, ["S6-S8", "H7", "D7", "C7"], [])
    hands = {0: ["JOKER", "S10", "HQ"], 1: ["S9", "C2"]}
    move = "0 joker S9 S10"
    setup = {"table": table, "turn": 0, "hands": hands, "moves": [move]}
    try:
        state = build_state(game, Seats(None, game.players), setup, dealt=True)
        since = len(state.log)
        state.apply(parse_action(move.split(" ", 1)[1]), 0)
    except REFUSED:
        return None
    events = [f"{s} {action_text(a)}" for s, a in state.log[since:] if is_event(a)]
    expect: dict[str, Any] = {
        "events": events,
        "hands": {1: [card_text(c) for c in state.held(1)]},
        "terminal": state.over,
    }
    if not state.over:
        expect["turn"] = state.turn
    text = words["ex_swap"].format(
        table=_shown(table), hand=_hand(hands[0], words), other=_hand(hands[1], words),
        move=_said(move.split(" ", 1)[1], words),
        held=_hand([card_text(c) for c in state.held(1)], words),
    )  # fmt: skip
    return Worked("jokers", text, {**ident, "game": setup, "expect": expect})


# a stuck seat 0 (CK and DQ fit nowhere) passes while the others play hearts, until its
# passes run out: the table, each seat's hand, and the hearts of each round
_STUCK_TABLE = ["SA-SK", "C2-C10", "D2-D10", "H7"]
_STUCK_HANDS = {
    0: ["CK", "DQ"],
    1: ["H8", "H10", "HQ", "HA", "CJ", "DK"],
    2: ["H6", "H5", "H4", "H3", "H2", "CA", "DJ"],
    3: ["H9", "HJ", "HK", "CQ", "DA"],
}
_ROUNDS = (("H8", "H6", "H9"), ("H10", "H5", "HJ"), ("HQ", "H4", "HK"))


def _out_of_passes(game: Game, ident: Mapping[str, Any],
                   words: Mapping[str, str]) -> Worked | None:  # fmt: skip
    """A player who cannot play uses up the pass limit, then does what the rules say
    (bursts, or covers)."""
    limit = game.rules.stuck.pass_limit
    if game.players != 4 or limit is None or not 1 <= limit <= len(_ROUNDS):
        return None
    moves = []
    for hearts in _ROUNDS[:limit]:
        moves += ["0 pass", *(f"{seat} {c}" for seat, c in enumerate(hearts, start=1))]
    setup = _trumps_named(
        game, {"table": _STUCK_TABLE, "turn": 0, "hands": _STUCK_HANDS, "moves": moves}
    )
    try:
        state = build_state(game, Seats(None, 4), setup, dealt=True)
        for move in moves:
            seat, action = move.split()
            state.apply(action, int(seat))
    except REFUSED:
        return None
    expect: dict[str, Any] = {"pass_counts": list(state.passes), "bursts": list(state.bursts)}
    hand = _hand(_STUCK_HANDS[0], words)
    if state.bursts[:1] == [0]:
        then = words["ex_burst"].format(hand=hand)
    elif not state.over and state.turn == 0:
        expect["legal"] = _acts(state.legal_actions())
        then = words["ex_then"].format(legal=_all_said(expect["legal"], words))
    else:
        return None
    text = words["ex_passes"].format(hand=hand, n=limit) + then
    return Worked("stuck", text, {**ident, "game": setup, "expect": expect})


# cards that fit nowhere while only S7 (and, where they go out at once, the other 7s) is down
_UNFIT = ["CK", "DK", "HK", "SK", "CQ", "DQ", "HQ", "SQ", "CJ", "DJ", "HJ"]


def _stuck_with_a_stock(game: Game, ident: Mapping[str, Any], words: Mapping[str, str],
                        every: bool) -> Worked | None:  # fmt: skip
    """Seat 0 holds H2 and H3 with S7 down, and nothing fits; the other seats hold a card
    each, so the rest of the pack lies in the stock where the rules keep one: the player
    draws there, and passes or covers elsewhere (``every``: shown under any rules, as a
    comparison with a game with a stock needs)."""
    if game.rules.draw == "none" and not every:
        return None
    table, _ = _put_out(game, ["S7"], [])
    hands = {0: ["H2", "H3"], **{s: [_UNFIT[s - 1]] for s in range(1, game.players)}}
    setup = _trumps_named(game, {"table": table, "turn": 0, "hands": hands})
    try:
        state = build_state(game, Seats(None, game.players), setup, dealt=True)
        legal = _acts(state.legal_actions())
    except REFUSED:
        return None
    if any(a[0] in "SHDC" for a in legal):
        return None  # a card fits under these rules: no stuck player to show
    text = words["ex_stuck"].format(
        table=_shown(table), hand=_hand(hands[0], words), legal=_all_said(legal, words)
    )
    return Worked("stuck", text, {**ident, "game": setup, "expect": {"legal": legal}})


def _ending(game: Game, ident: Mapping[str, Any], words: Mapping[str, str]) -> Worked | None:
    """Every heart of the pack down but the ace, the end of its row (whichever end the ace
    is), and the other rows opened; seat 0 lays HA, its last card."""
    pack = game.rules.pack
    if parse_cards(["HA"])[0] not in pack.cards:
        return None
    hearts = [c for c in set(pack.cards) if suit_of(c) == 1 and card_text(c) != "HA"]
    centres = [c for c in pack.centre_cards if suit_of(c) != 1]
    table = ranges([card_text(c) for c in (*centres, *hearts)])
    setup = _trumps_named(
        game, {"table": table, "turn": 0, "hands": {0: ["HA"]}, "moves": ["0 HA"]}
    )
    try:
        state = build_state(game, Seats(None, game.players), setup, dealt=True)
        state.apply("HA", 0)
    except REFUSED:
        return None
    expect: dict[str, Any] = {"terminal": state.over, "counts": state.hand_counts()}
    text = words["ex_end"].format(
        table=_shown(table), seat=0, hand=card("HA"), move=card("HA"),
        over=words["over" if state.over else "not_over"],
    )  # fmt: skip
    if state.over:
        expect["winners"] = list(state.result().winners)
        seats = words["and"].join(words["seat"].format(n=s) for s in expect["winners"])
        text += words["ex_winners"].format(winners=seats or words["none"])
    return Worked("end", text, {**ident, "game": setup, "expect": expect})


HEAVY = ["DK", "DQ", "DJ", "D10", "CK", "CQ", "CJ"]  # 82 points, no meld among them

# a 尾張7 winner, a 中頭, a bust 大頭 and a small loser
COVERED: list[dict[str, Any]] = [
    {"last": "H7"},
    {"covered": ["SK", "HQ"]},
    {"covered": HEAVY},
    {"covered": ["C2", "D3"]},
]

CHIPS: list[dict[str, Any]] = [
    {"passes": 2, "held": 4},
    {"out": 1},
    {"passes": 1, "held": 2},
    {"held": 3},
]

# facts of a finished game, by scoring: what each seat did
FACTS: dict[str, list[dict[str, Any]]] = {
    "covering": COVERED,
    "platform": COVERED,
    # (with the cards still held, which chips may charge for; the same game
    # for both, so a book against another profile shows what each scoring makes of it)
    "first_out": CHIPS,
    "chips": CHIPS,
    "placement": [{"out": 2}, {"burst": 1}, {"out": 1}, {}],
    # first out with penalty points: the cards each other seat still holds count
    "first_out+penalty": [{"played": 10}, {"out": 1}, {"played": 7}, {"played": 12}],
    # ... and where they count the cards' values, which cards they are
    "first_out+values": [{"held": ["SK", "H9", "D2"]}, {"out": 1},
                         {"held": ["CQ", "S5", "HA", "D10", "C3", "S2"]}, {"held": ["DJ"]}],
}  # fmt: skip


def _facts_of(game: Game, method: str) -> str:
    """The key in ``FACTS`` of the facts the worked settlement of ``method`` takes."""
    penalty = game.rules.profile.get("scoring.penalty") if method == "first_out" else "none"
    if penalty == "none":
        return method
    return f"{method}+penalty" if penalty == "cards" else f"{method}+values"


def _settlement(game: Game, ident: Mapping[str, Any], method: str,
                words: Mapping[str, str]) -> Worked | None:  # fmt: skip
    facts = FACTS.get(_facts_of(game, method))
    if facts is None:
        return None
    facts = (facts + [{}] * game.players)[: game.players]
    try:
        seats = Seats(None, game.players)
        outcomes = outcomes_from_facts(game, seats, facts)
        result = game.rules.scoring.score(outcomes)
    except REFUSED:
        return None
    expect: dict[str, Any] = {}
    for key in ("total", "rank", "money", "winners"):
        value = getattr(result, key)
        if value is not None and (key != "winners" or not expect):
            expect[key] = [_number(v) for v in value]
    said = []
    held = "fact_clean" if method in ("covering", "platform") else "fact_held"
    for seat, f in enumerate(facts):
        said += _facts_said(seat, f, words, held)
    text = words["ex_settle"].format(facts=words["and"].join(said))
    money = "money" in expect and any(expect["money"])
    shown = {
        "ex_total": "total" in expect and money,
        "ex_points": "total" in expect and not money,
        "ex_rank": "rank" in expect and not money,
        "ex_money": money,
    }
    for part, show in shown.items():
        if show:
            field = {"ex_total": "total", "ex_points": "total"}.get(part, part[3:])
            text += words[part].format(value=" / ".join(map(str, expect[field])))
    text += "".join(arithmetic(game, outcomes, result, words))
    return Worked("scoring", text, {**ident, "settlement": facts, "expect": expect})


def _session(game: Game, ident: Mapping[str, Any], method: str,
             words: Mapping[str, str]) -> Worked | None:  # fmt: skip
    """Two games of a session, the second the worked settlement with every seat's part moved
    one seat on: the money carried from one to the next."""
    facts = FACTS.get(_facts_of(game, method))
    if facts is None or game.players != len(facts):
        return None
    hands = [facts, facts[-1:] + facts[:-1]]
    seats = Seats(None, game.players)
    try:
        results = [game.rules.scoring.score(outcomes_from_facts(game, seats, f)) for f in hands]
    except REFUSED:
        return None
    if any(r.money is None or not any(r.money) for r in results):
        return None  # no money changes hands: nothing is carried
    rules = game.rules.session
    session = run_session(results, game.players, rules.hands, rules.bankroll, rules.target)
    money = [_number(m) for m in session.money]
    expect = {"money": money, "hands_played": session.hands_played}
    per_game = [" / ".join(str(_number(m)) for m in r.money) for r in results]
    said = "ex_session" if session.hands_played == 2 else "ex_session_target"
    text = words[said].format(
        first=per_game[0], second=per_game[1], money=" / ".join(map(str, money))
    )
    return Worked("session", text, {**ident, "session": {"hands": hands}, "expect": expect})


def _match(game: Game, ident: Mapping[str, Any], words: Mapping[str, str]) -> Worked | None:
    """A whole match scored by rank points, each game's ranks one seat on from the last."""
    games = int(game.rules.match.games)
    n = game.players
    # rank points (placement): penalty points add up too, but are no ranks
    if not 1 < games <= 5 or game.rules.profile.get("scoring.method") != "placement":
        return None
    ranks = [[(s - g) % n + 1 for s in range(n)] for g in range(games)]
    fixed = game.rules.scoring.facts.place_points
    try:
        played = [Result(rank=tuple(r), winners=(), money=(), total=rank_points(r, fixed))
                  for r in ranks]  # fmt: skip
        match = run_match(played, game.rules.match.limit)
    except REFUSED:
        return None
    if match.games < games:  # the limit ends it early: not the whole match these words tell
        return None
    expect = {"points": list(match.points), "winners": list(match.winners)}
    text = words["ex_match"].format(
        games=games,
        ranks="; ".join(" / ".join(map(str, r)) for r in ranks),
        points=" / ".join(map(str, match.points)),
        winners=words["and"].join(words["seat"].format(n=s) for s in match.winners),
    )
    return Worked("session", text, {**ident, "match": {"ranks": ranks}, "expect": expect})


def arithmetic(game: Game, outcomes: Sequence[Any], result: Any,
               words: Mapping[str, str]) -> list[str]:  # fmt: skip
    """The settlement worked out, payer by payer, as the scoring spells it out
    (``Scoring.settle``): each payer's factors, then the winner's multiplier."""
    settle = getattr(game.rules.scoring, "settle", None)
    if not callable(settle) or result.money is None:
        return []
    spelled = settle(outcomes, result, game.rules.topology.cut)
    winners = list(result.winners)
    times, why = spelled[winners[0]].multiplier if len(winners) == 1 else (1, "")
    out = []
    for seat, seat_settles in enumerate(spelled):
        if seat in winners or seat_settles.pays is None:
            continue
        amount, factors = seat_settles.pays
        said = " ".join(_localised(f, words) for f in factors)
        line = f"{said} = {_number(amount)}"
        if times != 1:
            line += f" × {times} ({why}) = {_number(amount * times)}"
        out.append(words["pays"].format(seat=seat, line=line))
    return out


def _localised(factor: str, words: Mapping[str, str]) -> str:
    """A factor of a payment (``25 points``, ``× stake 1``) in the book's words."""
    said = ("covered points", "covered cards", "cards held", "points", "stake", "passes", "ante")
    for english in said:
        factor = factor.replace(english, words[english])
    return factor


def _facts_said(seat: int, f: Mapping[str, Any], words: Mapping[str, str],
                held: str) -> list[str]:  # fmt: skip
    """What a seat did, in words; ``held``: the words for a seat with no other fact."""
    out = []
    if "covered" in f:
        pts = sum(points(c) for c in parse_cards(f["covered"]))
        out.append(words["fact_covered"].format(seat=seat, cards=_shown(f["covered"]), points=pts))
    if "last" in f:
        out.append(words["fact_last"].format(seat=seat, card=card(f["last"])))
    if "out" in f:
        out.append(words["fact_out"].format(seat=seat, n=f["out"]))
    if "burst" in f:
        out.append(words["fact_burst"].format(seat=seat))
    if "passes" in f:
        out.append(words["fact_passes"].format(seat=seat, n=f["passes"]))
    if isinstance(f.get("held"), list):
        out.append(words["fact_held_cards"].format(seat=seat, cards=_shown(f["held"])))
    elif f.get("held"):
        out.append(words["fact_cards"].format(seat=seat, n=f["held"]))
    elif not f or set(f) == {"passes"}:
        out.append(words[held].format(seat=seat))
    return out


def _number(v: Any) -> Any:
    """A total or an amount as YAML writes it: an integer where it is one."""
    try:
        return int(v) if v == int(v) else str(v)
    except (TypeError, ValueError):
        return str(v)


def worked_examples(game: Game, ident: Mapping[str, Any], words: Mapping[str, str],
                    method: str, every: bool = False) -> list[Worked]:  # fmt: skip
    """The book's examples under ``game``; ``ident`` names the rules in each block
    (``profile`` and ``set``), ``method`` is the scoring's name; ``every``: also the
    setups made for a rule these rules lack (a comparison shows them under both)."""
    makers: list[Callable[[], Worked | None]] = [
        lambda: _opening(game, ident, words),
        *(lambda p=p: _position(game, ident, words, p) for p in POSITIONS),
        lambda: _trump_position(game, ident, words, every),
        lambda: _joker_swap(game, ident, words),
        lambda: _out_of_passes(game, ident, words),
        lambda: _stuck_with_a_stock(game, ident, words, every),
        lambda: _ending(game, ident, words),
        lambda: _settlement(game, ident, method, words),
        lambda: _session(game, ident, method, words),
        lambda: _match(game, ident, words),
    ]
    out: list[Worked] = []
    for make in makers:
        worked = make()
        if worked is not None:
            name = f"{words['example']} {len(out) + 1}: {ident['profile']}"
            worked.block = {"name": name, **worked.block}
            out.append(worked)
    return out
