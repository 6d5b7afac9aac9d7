"""What the browser draws: rows in rank order, cut and complete suits, burst hands laid in
place, the joker where it stands, the history as each seat may see it."""

from __future__ import annotations

import random
from collections.abc import Iterator

from paiqi_core.actions import parse_action
from paiqi_core.cards import bits, card_text, parse_card
from paiqi_core.engine import Game, State
from paiqi_core.serve.view import rules_summary, seat_view

from .conftest import DEVYATKA

NAMES = ["a", "b", "c", "d"]


def states(profile: str, seeds: range, overrides: tuple[str, ...] = ()) -> Iterator[State]:
    """Every state of random games, move by move."""
    game = Game(profile, list(overrides))
    for seed in seeds:
        state = game.new_state(seed)
        rng = random.Random(seed)
        yield state
        while not state.over:
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randrange(len(legal))])
            yield state


def view_of(state: State, seat: int = 0) -> dict:
    first = state.first_card if not state.started else None
    return seat_view(state.game.rules, state.observation(seat), NAMES, first)


def test_rows_follow_the_rank_order() -> None:
    for profile, first, last in (("pagat", "2", "A"), ("doujue", "A", "K")):
        view = view_of(Game(profile).new_state(1))
        for row in view["rows"]:
            ranks = [c["rank"] for c in row["cells"]]
            assert (ranks[0], ranks[-1], len(ranks)) == (first, last, 13)


def test_a_short_pack_shows_its_own_ranks_and_completes_rows_with_them() -> None:
    # Девятка's 36 cards from the 9: rows of 6..A, opened by the 9s, complete at 9 cards
    sets = ("players=3", *DEVYATKA)
    game = Game("pagat", list(sets))
    summary = rules_summary(game.rules)
    assert summary["order"] == ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    assert summary["centre"] == "9"
    view = view_of(game.new_state(1))
    assert [c["card"] for r in view["rows"] for c in r["cells"] if c["state"] == "open"] == ["D9"]
    complete = set()
    for state in states("pagat", range(4), sets):
        for row in view_of(state)["rows"]:
            assert [c["rank"] for c in row["cells"]][::4] == ["6", "10", "A"]
            played = [c for c in row["cells"] if c["state"] == "played"]
            assert (row["status"] == "complete") == (len(played) == 9)
            if len(played) == 9:
                complete.add(row["suit"])
    assert complete  # some row was completed


def test_the_opening_card_is_the_only_open_place() -> None:
    state = Game("doujue").new_state(5)
    view = view_of(state)
    open_places = [c["card"] for r in view["rows"] for c in r["cells"] if c["state"] == "open"]
    assert open_places == ["S7"] and view["first_card"] == "S7"


def test_cut_and_complete_rows() -> None:
    seen = set()
    for state in states("platform-zhanlong", range(3)):
        view = view_of(state)
        for row in view["rows"]:
            cells = row["cells"]
            laid = {c["rank"] for c in cells if c["state"] == "played"}
            if len(laid) == 13:
                assert row["status"] == "complete"
            elif laid & {"A", "K"}:
                assert row["status"] == "cut"
                assert not any(c["state"] == "open" for c in cells)
            seen.add(row["status"])
    assert "cut" in seen


def test_burst_hands_lie_in_place_with_their_gaps() -> None:
    for state in states("shichinarabe", range(40)):
        if state.bursts and not state.over:
            view = view_of(state)
            laid = [c for r in view["rows"] for c in r["cells"] if c["state"] == "laid"]
            assert laid and all(c["by"] == state.bursts[0] for c in laid)
            expected = {card_text(c) for c in range(52) if state.laid[0] >> c & 1}
            assert {c["card"] for c in laid} <= expected
            return
    raise AssertionError("no burst in 40 random games")


def test_the_joker_shows_where_it_stands() -> None:
    # it stays on the table only when nobody holds its card: the card was covered
    for jokers in (1, 2):
        for state in states("doujue", range(60), (f"deck.jokers={jokers}",)):
            if state.jokers_at:
                places = [card_text(c) for c in bits(state.jokers_at)]
                view = view_of(state)
                cells = [c for r in view["rows"] for c in r["cells"] if c["state"] == "joker"]
                assert sorted(c["card"] for c in cells) == sorted(places)
                assert view["jokers_at"] == places
                break
        else:
            raise AssertionError(f"no joker of {jokers} stood on the table in 60 random games")


def test_covers_show_their_card_to_their_owner_only() -> None:
    for state in states("doujue", range(5)):
        covers = [(s, a) for s, a in state.log if 64 <= a < 128]
        if len(covers) >= 3:
            break
    for seat in range(4):
        view = view_of(state, seat)
        for h in view["history"]:
            if h["kind"] == "cover":
                assert ("card" in h) == (h["seat"] == seat)
        own = [h["card"] for h in view["history"] if h["kind"] == "cover" and h["seat"] == seat]
        assert own == view["own_covered"]


def test_seats_show_passes_left() -> None:
    state = next(s for s in states("shichinarabe", range(5)) if any(s.passes))
    view = view_of(state)
    for seat in view["seats"]:
        assert seat["passes_left"] == 3 - seat["passes"]


def test_the_extra_play_after_an_end_card_is_shown_to_every_seat() -> None:
    # Ristiseiska's rows (ace low): a laid SK ends the spade line and a moves again, its
    # pass now a stop; every seat's view says so, and it ends with the stop
    from paiqi_core.cards import parse_card

    game = Game("pagat", ["turn.extra_after_end=may", "layout.ace=low"])
    table = ["S7", "S8", "S9", "S10", "SJ", "SQ", "H7", "D7", "C7"]
    hands = [["SK", "H8", "CQ"], ["S6", "H9"], ["D8", "D9"], ["C8", "C9"]]
    state = State(
        game,
        [sum(1 << parse_card(c) for c in h) for h in hands],
        table=sum(1 << parse_card(c) for c in table),
        turn=0,
    )
    assert not any(view_of(state, s)["extra_play"] for s in range(4))
    state.apply("SK")
    views = [view_of(state, s) for s in range(4)]
    assert all(v["extra_play"] and v["turn"] == 0 for v in views)
    assert {m["kind"] for m in views[0]["legal"]} == {"play", "pass"}
    state.apply("pass")
    assert not view_of(state, 1)["extra_play"] and view_of(state, 1)["turn"] == 1


def test_the_cards_face_up_beside_the_rows_are_shown_to_every_seat() -> None:
    # deck.leftover=face_up: five players get ten cards each, the two left over lie face
    # up; every seat's view names them (ascending) until they are played, then not at all
    sets = ("players=5", "deck.leftover=face_up")
    played_from_pool = 0
    for state in states("pagat", range(6), sets):
        expected = [card_text(c) for c in bits(state.pool)]
        for seat in range(5):
            assert view_of(state, seat)["pool"] == expected
        if state.log and state.leftover >> state.log[-1][1] & 1:
            played_from_pool += 1
            assert card_text(state.log[-1][1]) not in expected
    assert played_from_pool  # some face-up card was played in six random games
    first = Game("pagat", list(sets)).new_state(3)
    assert view_of(first)["pool"] == [card_text(c) for c in bits(first.pool)]
    assert len(view_of(first)["pool"]) == 2 and len(view_of(first)["hand"]) == 10
    # without the rule nothing lies face up, in any built-in family
    for profile in ("pagat", "doujue", "shichinarabe", "platform"):
        assert all(view_of(s)["pool"] == [] for s in states(profile, range(1)))


def test_a_card_handed_on_is_shown_to_its_giver_and_taker_only() -> None:
    # turn.pass_takes=chosen: after a pass the seat before hands a card on (its own move);
    # each seat's history names the card of a give it took part in, the others' say only
    # who gave a card to whom; while the card is to be chosen, every view names the taker
    from paiqi_core.actions import GIVE

    gives = 0
    for state in states("pagat", range(3), ("turn.pass_takes=chosen",)):
        views = [view_of(state, s) for s in range(4)]
        if state.observation(0).hand_on:
            taker = state.log[-1][0]
            assert all(v["hand_on"] and v["taker"] == taker for v in views)
            legal = views[state.turn]["legal"]
            assert {m["kind"] for m in legal} == {"give"}
            assert sorted(m["card"] for m in legal) == sorted(views[state.turn]["hand"])
            assert all(v["legal"] == [] for v in views if v["seat"] != state.turn)
        else:
            assert not any(v["hand_on"] or v["taker"] is not None for v in views)
        if not state.over or not state.log:
            continue
        for i, (giver, action) in enumerate(state.log):
            if not GIVE <= action < GIVE + 64:
                continue
            gives += 1
            taker, card = state.log[i - 1][0], card_text(action - GIVE)
            for v in views:
                line = v["history"][i]
                assert (line["seat"], line["kind"], line["to"]) == (giver, "give", taker)
                if v["seat"] in (giver, taker):
                    assert (line["card"], line["text"]) == (card, f"give {card}")
                else:
                    assert "card" not in line and line["text"] == "give"
        for v in views:
            shown = [h["card"] for h in v["history"] if h["kind"] == "give" and "card" in h]
            assert shown == v["handed"]
    assert gives > 5


STOCK = ("deck.hand=7", "deck.leftover=stock", "turn.draw=one")


def test_a_card_drawn_is_shown_to_the_seat_that_drew_it_only() -> None:
    # deck.leftover=stock, turn.draw=one: every view counts the stock; a draw's line names
    # the card to the seat that drew it (``drawn``, in order), the others' say only "draw";
    # while the seat to move may play the card it drew, its view names it (``drew_card``);
    # a stop then (where a player need not play) is marked ``kept``, and only such a stop
    from paiqi_core.actions import DRAW_CARD, GIVE, PASS

    draws = fits = kept = 0
    for overrides in (STOCK, (*STOCK, "turn.must_play=false")):
        stops: set[int] = set()  # where a stop after a card drawn that fits would stand
        for state in states("pagat", range(3), overrides):
            views = [view_of(state, s) for s in range(4)]
            assert all(v["stock"] == state.stock.bit_count() for v in views)
            if not state.over and state.observation(0).drew:
                fits += 1
                seat, card = state.turn, card_text(state.log[-1][1] - DRAW_CARD)
                assert state.log[-1][0] == seat
                assert views[seat]["drew_card"] == card and views[seat]["drawn"][-1] == card
                plays = {m["card"] for m in views[seat]["legal"] if m["kind"] == "play"}
                assert plays == {card}
                may = "turn.must_play=false" in overrides
                assert ("pass" in {m["kind"] for m in views[seat]["legal"]}) == may
                assert all(v["drew"] for v in views)
                assert all(v["drew_card"] is None for v in views if v["seat"] != seat)
                stops.add(len(state.log))
            else:
                assert not any(v["drew"] or v["drew_card"] for v in views)
            if not state.over:
                continue
            for i, (seat, action) in enumerate(state.log):
                lines = [v["history"][i] for v in views]
                if DRAW_CARD <= action < GIVE:
                    draws += 1
                    card = card_text(action - DRAW_CARD)
                    for v, line in zip(views, lines, strict=True):
                        assert (line["seat"], line["kind"]) == (seat, "draw")
                        if v["seat"] == seat:
                            assert (line["card"], line["text"]) == (card, f"draw {card}")
                        else:
                            assert "card" not in line and line["text"] == "draw"
                stop = action == PASS and i in stops
                kept += stop
                assert all(line.get("kept", False) == stop for line in lines), (i, lines)
            for v in views:
                shown = [h["card"] for h in v["history"] if h["kind"] == "draw" and "card" in h]
                assert shown == v["drawn"]
            stops = set()
    assert draws > 40 and fits > 10 and kept > 2, (draws, fits, kept)


def test_the_rules_say_whether_a_game_has_a_stock() -> None:
    game = Game("pagat", list(STOCK))
    summary = rules_summary(game.rules)
    assert (summary["leftover"], summary["hand"], summary["draw"]) == ("stock", 7, "one")
    view = view_of(game.new_state(1))
    assert view["stock"] == 24 and len(view["hand"]) == 7
    assert (view["drawn"], view["drew"], view["drew_card"]) == ([], False, None)
    plain = Game("pagat")
    summary = rules_summary(plain.rules)
    assert (summary["leftover"], summary["hand"], summary["draw"]) == ("dealt", None, "none")
    assert view_of(plain.new_state(1))["stock"] is None  # no stock at all, not an empty one


# Trump Fan Tan (layout.trumps): spades are trumps, named by SK, the last card dealt (seat
# 3's). Seat 0 opens hearts with H7, seat 1 lays H8, seat 2 lays the trump S9 in H9's place,
# seat 3 opens spades with S7, seat 0 lays S8; H9, displaced, then fits the spade row's 9.
TRUMP_HANDS = (
    "H7 S8 SA S2 S3 S4 S5 S6 S10 SJ SQ HA H2",
    "H8 H9 H3 H4 H5 H6 H10 HJ HQ HK DA D2 D3",
    "S9 D4 D5 D6 D7 D8 D9 D10 DJ DQ DK CA C2",
    "S7 SK C3 C4 C5 C6 C7 C8 C9 C10 CJ CQ CK",
)
TRUMP_MOVES = ("H7", "H8", "trump S9 H9", "S7", "S8", "H9")


def trump_game(moves: int) -> State:
    """Trump Fan Tan's hand-made deal above, after its first ``moves`` moves."""
    hands = [[parse_card(c) for c in hand.split()] for hand in TRUMP_HANDS]
    state = Game("trump-fan-tan").new_state(hands=hands, door_card=parse_card("SK"))
    for text in TRUMP_MOVES[:moves]:
        state.apply(parse_action(text))
    return state


def cells(view: dict, suit: str) -> dict[str, dict]:
    """The cells of ``suit``'s row, by rank, each without its rank and count of copies."""
    row = next(r for r in view["rows"] if r["suit"] == suit)
    return {
        c["rank"]: {k: v for k, v in c.items() if k not in ("rank", "down")} for c in row["cells"]
    }


def test_the_table_says_trumps_and_the_card_that_named_them() -> None:
    view = view_of(trump_game(0), 1)
    assert view["trumps"] == {"suit": "S", "name": "spades", "symbol": "♠", "card": "SK"}
    assert [r["trumps"] for r in view["rows"]] == [True, False, False, False]
    plain = view_of(Game("bicycle").new_state(1))
    assert plain["trumps"] is None and not any(r["trumps"] for r in plain["rows"])


def test_a_trump_move_is_offered_with_its_card_and_place() -> None:
    # seat 2 to move after H7 H8: the D7 opens diamonds, or the trump S9 takes H9's place
    # (H9 fits beyond H8); the trump 7 and SK could never, and seat 2 holds no other trump
    view = view_of(trump_game(2), 2)
    assert view["legal"] == [
        {"action": parse_action("D7"), "text": "D7", "kind": "play", "card": "D7"},
        {
            "action": parse_action("trump S9 H9"),
            "text": "trump S9 H9",
            "kind": "trump",
            "at": "H9",
            "card": "S9",
        },
    ]


def test_a_trump_lies_in_the_place_it_took_and_the_displaced_card_goes_to_the_trump_row() -> None:
    for seat in range(4):  # the table is public: every seat sees it alike
        view = view_of(trump_game(3), seat)
        line = view["history"][2]
        assert line == {"seat": 2, "kind": "trump", "text": "trump S9 H9", "at": "H9", "card": "S9"}
        hearts = cells(view, "H")
        assert hearts["9"] == {"card": "S9", "place": "H9", "displaced": False, "state": "trump"}
        # the heart row grows on from the trump as from H9: H10 fits, and H6 below
        states = [hearts[r]["state"] for r in ("6", "7", "8", "10")]
        assert states == ["open", "played", "played", "open"]
        # H9 goes to the spade row's 9, not yet begun; the spade row's other places are
        # their own cards'
        spades = cells(view, "S")
        assert spades["9"] == {"card": "H9", "place": "S9", "displaced": True, "state": "empty"}
        assert spades["8"] == {"card": "S8", "state": "empty"}
        assert all("place" not in c for s in "DC" for c in cells(view, s).values())


def test_the_card_a_trump_displaced_is_played_to_the_trump_row() -> None:
    # S7 and S8 down: the spade row's 9 is open, for H9 (seat 1 holds it), and H9 is
    # played by its ordinary action; the trump S9 stays in hearts
    view = view_of(trump_game(5), 1)
    assert cells(view, "S")["9"] == {
        "card": "H9",
        "place": "S9",
        "displaced": True,
        "state": "open",
    }
    h9 = {"action": parse_action("H9"), "text": "H9", "kind": "play", "card": "H9"}
    assert h9 in view["legal"]
    assert not any(m["kind"] == "trump" for m in view["legal"])  # seat 1 holds no spade
    view = view_of(trump_game(6), 0)
    spades, hearts = cells(view, "S"), cells(view, "H")
    assert spades["9"] == {"card": "H9", "place": "S9", "displaced": True, "state": "played"}
    assert hearts["9"] == {"card": "S9", "place": "H9", "displaced": False, "state": "trump"}
    assert view["history"][5] == {"seat": 1, "kind": "play", "text": "H9", "card": "H9"}
    # the spade row is open at both ends now: S6 below, S10 beyond H9
    assert (spades["6"]["state"], spades["10"]["state"]) == ("open", "open")
