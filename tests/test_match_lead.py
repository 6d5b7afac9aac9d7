"""``match.next_lead: last_winner`` (WILD_RULES row 31, asahi-net's 七並べ): each game of a
match after the first is begun by the previous game's winner, in place of the opening's
first mover, on both engines, in records, in simulated matches and at a room's table."""

from __future__ import annotations

import io
import itertools
import json

import pytest

from paiqi_core.engine.game import game_of
from paiqi_core.games import game_for
from paiqi_core.match import next_lead, run_match
from paiqi_core.outcome import Result
from paiqi_core.profile import ProfileError, load_profile
from paiqi_core.records import replay, state_record
from paiqi_core.rules import rules_of
from paiqi_core.runs.kernel_batch import results
from paiqi_core.seeds import game_seed
from paiqi_core.serve.rooms import Room
from paiqi_core.simulate import play_game, simulate_matches

ASAHI = {"ending.method": "all_empty", "match.games": 3, "match.next_lead": "last_winner"}


def _asahi() -> object:
    return game_for("shichinarabe-wrap", dict(ASAHI))


def test_the_lead_moves_first_once_the_sevens_are_out() -> None:
    game = _asahi()
    # seat 0 holds D7 (which makes it the opening's first mover), seat 2 is the lead
    hands = [[13 * 2 + 6, 0, 1], [13, 14], [15, 16], [17, 18]]
    full = [list(h) for h in hands]
    rest = [c for c in range(52) if all(c not in h for h in hands)]
    for i, c in enumerate(rest):
        full[i % 4].append(c)
    led = game.new_state(hands=full, lead=2)
    unled = game.new_state(hands=full)
    assert unled.turn == 0 and unled.lead is None
    assert led.turn == 2 and led.lead == 2
    assert led.table_cards == unled.table_cards == [6, 19, 32, 45]  # every 7 is out
    with pytest.raises(ValueError, match="no seat 4"):
        game.new_state(hands=full, lead=4)


def test_first_seat_is_replaced_by_the_lead() -> None:
    game = game_for("pagat", {"match.next_lead": "last_winner"})
    assert game.new_state(5).turn == 0
    assert game.new_state(5, lead=3).turn == 3


@pytest.mark.parametrize("lead", [None, 0, 1, 2, 3])
def test_both_engines_play_a_led_game_alike_and_its_record_replays(lead: int | None) -> None:
    game = _asahi()
    ((_, data),) = results(game, 11, [4], records=True, leads=[lead])
    state = play_game(game, game_seed(11, 4), lead=lead)
    record = state_record(state)
    assert data is not None
    assert data["actions"] == record["actions"]
    assert data.get("lead") == record.get("lead") == lead
    if lead is not None:  # the first action after the 7s laid out is the lead's
        first = next(a for a in record["actions"] if a["type"] != "place")
        assert first["seat"] == lead
    assert replay(record) == [] and replay(data) == []
    if lead is not None:
        broken = {**record, "lead": (lead + 1) % 4}  # another seat moved first: not this game
        assert replay(broken)
        assert replay({**record, "lead": 9}) == ["lead: no seat 9 among 4 players"]


def test_next_lead_is_the_winner_or_the_lowest_seat_sharing_first_place() -> None:
    assert next_lead(Result(rank=(2, 1, 3, 4), winners=(1,), money=())) == 1
    assert next_lead(Result(rank=(3, 1, 1, 4), winners=(2, 1), money=())) == 1
    assert next_lead(Result(rank=(2, 3, 1, 4), winners=(), money=())) == 2  # ranks only


def test_a_match_of_ranks_lists_who_began_each_later_game() -> None:
    games = [
        Result(rank=r, winners=(), money=(), total=t)
        for r, t in (
            ((2, 1, 3, 4), (2, 3, 1, 0)),
            ((1, 4, 2, 3), (3, 0, 2, 1)),
            ((3, 2, 1, 4), (1, 2, 3, 0)),
        )
    ]
    assert run_match(games, None, True).leads == (1, 0)
    assert run_match(games).leads == ()  # the opening begins every game


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_simulated_matches_are_begun_by_each_last_winner(engine: str) -> None:
    game = _asahi()
    out = io.StringIO()
    simulate_matches(game, 6, 3, records=out, engine=engine)
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(records) == 18  # three games a match, played to the end
    for m in range(6):
        match = records[3 * m : 3 * m + 3]
        assert "lead" not in match[0]  # the first game begins as the opening says
        for before, after in itertools.pairwise(match):
            winner = before["result"]["rank"].index(1)
            assert after["lead"] == winner
            first = next(a for a in after["actions"] if a["type"] != "place")
            assert first["seat"] == winner
        assert all(replay(r) == [] for r in match)


def test_the_engines_agree_on_whole_led_matches() -> None:
    game = _asahi()
    outs = {}
    for engine in ("python", "compiled"):
        out = io.StringIO()
        simulate_matches(game, 4, 9, records=out, engine=engine)
        outs[engine] = [
            (r.get("lead"), r["actions"]) for r in map(json.loads, out.getvalue().splitlines())
        ]
    assert outs["python"] == outs["compiled"]


def test_an_opening_with_a_card_to_play_refuses_the_last_winner_naming_both_rules() -> None:
    with pytest.raises(ProfileError) as refused:
        load_profile("badam-satti", ["match.next_lead=last_winner"])
    text = str(refused.value)
    assert "match.next_lead" in text and "opening.method" in text
    assert "first_seat or sevens_out" in text and "holder_leads" in text
    load_profile("shichinarabe", ["match.next_lead=last_winner"])  # sevens_out takes it


def test_a_rooms_next_deal_of_the_match_is_begun_by_the_last_winner() -> None:
    game = game_of(rules_of("shichinarabe-wrap", [f"{k}={v}" for k, v in ASAHI.items()]))
    room = Room(game, ["person", "normal", "easy", "easy"], 5, {"options": []})

    def finish() -> None:  # the person's moves made by a stand-in
        while not room.table.state.over:
            room.stand_in(room.table.state.turn, "easy")

    finish()
    assert room.records[-1].get("lead") is None
    for deal in (1, 2, 3):
        winner = next_lead(room.results[-1])
        room.next_deal()
        finish()
        if deal < 3:  # the match's second and third games
            assert room.table.state.lead == winner and room.records[-1]["lead"] == winner
        else:  # a new match begins as the opening says
            assert room.table.state.lead is None and "lead" not in room.records[-1]
