"""``match.next_centre: last_picks`` (WILD_RULES row 26, dokopa.com's センター変更): the
player placed last picks the next game's centre; the opening card follows it; both engines,
records, simulated matches and rooms play it; a rank that cannot be a centre is refused."""

from __future__ import annotations

import io
import json

import pytest

from paiqi_core.cards import card_text, parse_card
from paiqi_core.engine.game import game_of
from paiqi_core.games import game_for, with_centre
from paiqi_core.match import last_placed, pick_centre, run_match
from paiqi_core.outcome import Result
from paiqi_core.profile import ProfileError, load_profile
from paiqi_core.records import replay
from paiqi_core.rules import rules_of
from paiqi_core.serve.rooms import Room, RoomError
from paiqi_core.simulate import simulate_matches

PICKS = {"match.games": 3, "match.next_centre": "last_picks"}


def test_a_picked_centre_moves_the_rows_and_the_opening_card() -> None:
    game = game_for("shichinarabe", dict(PICKS))
    nines = with_centre(game, 8)  # rank index 8: the 9
    assert nines.rules.topology.centre == 8
    assert nines.rules.profile.get("opening.card") == "D9"  # D7 followed the centre
    assert with_centre(game, 6) is game  # the 7 again: the profile's own game
    hands = [[parse_card(c) for c in h] for h in (["D9", "D7"], ["S9"], ["H9"], ["C9"])]
    rest = [c for c in range(52) if all(c not in h for h in hands)]
    for i, c in enumerate(rest):
        hands[i % 4].append(c)
    state = nines.new_state(hands=hands)
    assert sorted(card_text(c) for c in state.table_cards) == ["C9", "D9", "H9", "S9"]
    assert state.turn == 0  # the holder of D9, not of D7 (also seat 0 here)
    moved = [list(h) for h in hands]
    moved[0].remove(parse_card("D9"))
    moved[2].append(parse_card("D9"))
    assert nines.new_state(hands=moved).turn == 2  # D9 is seat 2's now


def test_a_card_that_is_no_centre_card_stays() -> None:
    game = game_for("shichinarabe", {**PICKS, "opening.card": "S2"})
    assert with_centre(game, 8).rules.profile.get("opening.card") == "S2"


def test_the_last_placed_picks_the_lowest_seat_on_a_tie() -> None:
    assert last_placed(Result(rank=(1, 2, 3, 4), winners=(0,), money=())) == 3
    assert last_placed(Result(rank=(1, 3, 2, 3), winners=(0,), money=())) == 1
    games = [
        Result(rank=r, winners=(), money=(), total=t)
        for r, t in (((1, 2, 3, 4), (3, 2, 1, 0)), ((2, 1, 4, 3), (2, 3, 0, 1)))
    ]
    assert run_match(games, None, False, True).pickers == (3,)


def test_a_pick_is_a_rank_of_the_pack_drawn_from_the_next_deal() -> None:
    ranks = list(range(13))
    picks = [pick_centre(ranks, seed) for seed in range(400)]
    assert set(picks) == set(ranks)  # every rank is picked at times
    assert picks == [pick_centre(ranks, seed) for seed in range(400)]  # the same each run
    short = [6, 7, 8, 9, 10, 11, 12, 0]  # Karten-Domino's 7..A
    assert {pick_centre(short, seed) for seed in range(200)} == set(short)


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_simulated_matches_play_each_later_game_from_its_picked_centre(engine: str) -> None:
    game = game_for("shichinarabe", dict(PICKS))
    out = io.StringIO()
    simulate_matches(game, 8, 2, records=out, engine=engine)
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(records) == 24
    centres = set()
    for m in range(8):
        first, *later = records[3 * m : 3 * m + 3]
        assert "layout.centre" not in first["options"]  # the match's first game: the 7s
        for r in later:
            centre = str(r["options"].get("layout.centre", 7))
            centres.add(centre)
            placed = [a["card"] for a in r["actions"] if a["type"] == "place"]
            assert sorted(placed) == sorted(f"{s}{centre}" for s in "SHDC")  # out at once
        assert all(replay(r) == [] for r in (first, *later))
    assert len(centres) > 3  # the picks vary


def test_the_engines_agree_on_matches_with_picked_centres() -> None:
    game = game_for("shichinarabe", {**PICKS, "match.next_lead": "last_winner"})
    seen = {}
    for engine in ("python", "compiled"):
        out = io.StringIO()
        simulate_matches(game, 4, 6, records=out, engine=engine)
        seen[engine] = out.getvalue()
    assert seen["python"] == seen["compiled"]


def test_a_rank_that_cannot_be_a_centre_is_refused_naming_both_rules() -> None:
    with pytest.raises(ProfileError) as refused:
        load_profile(
            "shichinarabe",
            ["match.next_centre=last_picks", "layout.ends=cut", "turn.pass_limit=3"],
        )
    text = str(refused.value)
    assert "match.next_centre" in text and "layout.centre: A" in text and "layout.ends" in text


def _room() -> Room:
    game = game_of(rules_of("shichinarabe", ["match.games=3", "match.next_centre=last_picks"]))
    room = Room(game, ["person", "easy", "easy", "easy"], 3, {"options": []})
    room.join(0, "Ann")
    return room


def _finish(room: Room) -> None:
    while not room.table.state.over:
        room.stand_in(room.table.state.turn, "easy")


def test_a_room_waits_for_the_person_placed_last_to_pick() -> None:
    for seed in range(40):  # a deal in which Ann, at seat 0, places last
        room = _room()
        room.seed = seed
        room.table = room._new_table()
        _finish(room)
        if last_placed(room.results[-1]) == 0:
            break
    else:
        raise AssertionError("seat 0 never placed last")
    pick = room.view(0)["room"]["centre_pick"]
    assert pick["seat"] == 0 and pick["person"] and pick["picked"] is None
    assert pick["ranks"] == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    with pytest.raises(RoomError, match="picks the next deal's centre first"):
        room.next_deal()
    with pytest.raises(RoomError, match="not you"):
        room.pick(1, "9")
    with pytest.raises(RoomError, match="rank: one of A, 2"):
        room.pick(0, "11")
    room.pick(0, "J")
    assert room.view(0)["room"]["centre_pick"]["picked"] == "J"
    room.next_deal()
    state = room.table.state
    assert sorted(card_text(c) for c in state.table_cards) == ["CJ", "DJ", "HJ", "SJ"]
    assert room.view(0)["room"]["centre"] == "J" and room.view(0)["room"]["centre_pick"] is None
    _finish(room)
    assert room.records[-1]["options"]["layout.centre"] == "J"
    assert replay(room.records[-1]) == []


def test_a_computer_placed_last_picks_as_the_next_deal_is_dealt() -> None:
    for seed in range(40):
        room = _room()
        room.seed = seed
        room.table = room._new_table()
        _finish(room)
        last = last_placed(room.results[-1])
        if last != 0:
            break
    else:
        raise AssertionError("a computer never placed last")
    pick = room.view(0)["room"]["centre_pick"]
    assert pick["seat"] == last and not pick["person"]
    room.next_deal()  # nobody waits for a computer
    ranks = list(range(13))
    expected = pick_centre(ranks, room._seed_of(1))
    assert room.table.game.rules.topology.centre == expected
