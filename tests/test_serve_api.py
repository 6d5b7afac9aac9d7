"""``paiqi serve``: the JSON API over real HTTP, its limits, and the settlement breakdown."""

from __future__ import annotations

import dataclasses
import http.client
import json
import subprocess
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from paiqi_core.cards import bits, card_text, parse_card
from paiqi_core.engine import Game
from paiqi_core.engine.reasons import CATEGORIES
from paiqi_core.outcome import PlayerOutcome
from paiqi_core.records import replay, state_record
from paiqi_core.serve.server import MAX_BODY, STATIC, PaiqiServer, static_file
from paiqi_core.serve.settlement import settlement
from paiqi_core.serve.view import seat_view
from paiqi_core.simulate import play_game
from paiqi_core.slots import Scoring

from .serve_support import serving

FAMILIES = ("doujue", "platform", "shichinarabe", "pagat")


class Client:
    def __init__(self, server: PaiqiServer) -> None:
        self.host, self.port = server.server_address[:2]

    def raw(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any]:
        conn = http.client.HTTPConnection(str(self.host), int(self.port), timeout=30)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            data = response.read()
        finally:
            conn.close()
        kind = response.getheader("Content-Type") or ""
        return response.status, json.loads(data) if "json" in kind else data

    def get(self, path: str) -> Any:
        status, data = self.raw("GET", path)
        assert status == 200, data
        return data

    def post(self, path: str, body: dict[str, Any], status: int = 200) -> Any:
        got, data = self.raw(
            "POST", path, json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        assert got == status, data
        return data


@pytest.fixture
def server(tmp_path: Path) -> Iterator[PaiqiServer]:
    with serving(db=tmp_path / "runs.db") as srv:
        yield srv


@pytest.fixture
def client(server: PaiqiServer) -> Client:
    return Client(server)


def play_through(client: Client, profile: str, seat: int = 1, **extra: Any) -> dict[str, Any]:
    """Play a whole game through the API: the person takes the first legal move, after
    trying an illegal one (refused with the engine's reason, nothing changed)."""
    body = {"profile": profile, "seat": seat, "levels": ["normal"], "seed": 11, **extra}
    view = client.post("/api/games", body)
    table = view["table"]
    moves = 0
    for _ in range(2000):
        if view["over"]:
            break
        if view["waiting"]:
            view = client.post(f"/api/games/{table}/advance", {"max_moves": 5})
            continue
        assert view["turn"] == seat and view["legal"]
        hand = set(view["hand"])
        for move in view["legal"]:  # every legal move names cards of the person's hand
            if move["kind"] in ("play", "cover", "joker"):
                assert move["card"] in hand
        refused = client.post(f"/api/games/{table}/act", {"action": "cover JOKER"})
        assert refused["refused"].split(":")[0] in CATEGORIES
        assert refused["history"] == view["history"]
        view = client.post(f"/api/games/{table}/act", {"action": view["legal"][-1]["text"]})
        assert view["refused"] is None
        moves += 1
    assert view["over"] and moves > 0
    assert view["seed"] == 11  # shown once the game is over, to deal it again
    return view


@pytest.mark.parametrize("profile", FAMILIES)
def test_a_whole_game_of_each_family(client: Client, profile: str) -> None:
    view = play_through(client, profile)
    s = view["settlement"]
    assert len(s["seats"]) == view["rules"]["players"]
    money = [Fraction(str(x["money"])) for x in s["seats"]]
    assert sum(money) + Fraction(str(s["house"])) == 0
    assert [x["winner"] for x in s["seats"]].count(True) >= 1
    record = client.get(f"/api/games/{view['table']}/record")
    assert record["profile"] == profile
    assert replay(record) == []  # the game the page played is a game the engine replays
    assert all(len(h) for h in record["hands"])


# named house profiles of WILD_RULES.md, each played through the page like a family
NAMED = ("qq",)


@pytest.mark.parametrize("profile", NAMED)
def test_a_whole_game_of_each_named_profile(client: Client, profile: str) -> None:
    view = play_through(client, profile)
    money = [Fraction(str(x["money"])) for x in view["settlement"]["seats"]]
    assert sum(money) == 0
    record = client.get(f"/api/games/{view['table']}/record")
    assert record["profile"] == profile
    assert replay(record) == []


# where each player keeps its own total (WILD_RULES rows 35 and 37) the money is the total
KEEPING = ("twstar", "poker7")


@pytest.mark.parametrize("profile", KEEPING)
def test_a_whole_game_where_each_keeps_its_total(client: Client, profile: str) -> None:
    view = play_through(client, profile)
    seats = view["settlement"]["seats"]
    assert [Fraction(str(x["money"])) for x in seats] == [Fraction(x["total"]) for x in seats]
    for seat in seats:  # the parts shown make the total
        assert sum(part["points"] for part in seat["parts"]) == seat["total"]
    record = client.get(f"/api/games/{view['table']}/record")
    assert record["profile"] == profile
    assert replay(record) == []


# the named games of WILD_RULES.md won by the first player out: the pack each deals (shared
# by four), the card that opens (None: any card of the centre rank, here the 8), and whether
# the others score a penalty point for each card they hold
FIRST_OUT = {
    "karten-domino": (32, None, False),
    "nines": (52, "H9", False),
    "ristiseiska": (52, "C7", True),
}


@pytest.mark.parametrize("profile", sorted(FIRST_OUT))
def test_a_whole_game_of_each_first_out_named_profile(client: Client, profile: str) -> None:
    pack, opening, penalty = FIRST_OUT[profile]
    view = play_through(client, profile)
    seats = view["settlement"]["seats"]
    out = [s["seat"] for s in seats if s["cards_left"] == 0]
    assert len(out) == 1 and view["settlement"]["winners"] == out
    for s in seats:
        assert s["total"] == (-s["cards_left"] if penalty else None)
    record = client.get(f"/api/games/{view['table']}/record")
    assert record["profile"] == profile
    assert [len(h) for h in record["hands"]] == [pack // 4] * 4
    first = record["actions"][0]
    assert first["card"] == opening if opening else first["card"][1:] == "8"
    assert first["card"] in record["hands"][first["seat"]]
    assert replay(record) == []


def test_profiles_and_levels(client: Client) -> None:
    data = client.get("/api/profiles")
    ids = [p["id"] for p in data["profiles"]]
    assert set(FAMILIES) <= set(ids)
    assert [lv["id"] for lv in data["levels"]] == ["easy", "normal", "hard", "expert"]
    source = client.get("/api/profiles/doujue/source")
    assert "id: doujue" in source["yaml"]
    status, _ = client.raw("GET", "/api/profiles/nothing/source")
    assert status == 404


def test_the_view_is_the_persons_observation_only() -> None:
    """Two deals that differ only in the other players' hands look the same to seat 0."""
    game = Game("pagat")
    hands = game.deal(3)
    other = [list(h) for h in hands]
    a, b = other[1][0], other[2][0]
    other[1][0], other[2][0] = b, a  # swap a card between seats 1 and 2
    names = ["you", "x", "y", "z"]
    views = []
    for h in (hands, other):
        state = game.new_state(hands=h)
        views.append(seat_view(game.rules, state.observation(0), names, None))
    assert views[0] == views[1]
    assert views[0]["hand"] == [c for c in views[0]["hand"]]
    assert set(views[0]) >= {"hand", "rows", "seats", "history", "legal"}
    assert "hands" not in views[0]


def test_opponents_hands_are_never_sent(client: Client) -> None:
    view = client.post("/api/games", {"profile": "doujue", "seat": 2, "seed": 4})
    table = view["table"]
    while not view["over"]:
        text = json.dumps(view)
        assert '"hands"' not in text and "covered_cards" not in text
        assert view["seed"] is None  # the deal number would give every hand
        if view["waiting"]:
            view = client.post(f"/api/games/{table}/advance", {})
        else:
            view = client.post(f"/api/games/{table}/act", {"action": view["legal"][0]["action"]})
        # another seat's cover shows only as "cover"
        for h in view["history"]:
            if h["kind"] == "cover" and h["seat"] != 2:
                assert h["text"] == "cover" and "card" not in h


def test_an_illegal_choice_gets_the_engines_reason(client: Client) -> None:
    game = Game("doujue")
    seed = 21
    holder = next(s for s, h in enumerate(game.deal(seed)) if parse_card("S7") in h)
    view = client.post("/api/games", {"profile": "doujue", "seat": holder, "seed": seed})
    assert view["turn"] == holder and [m["text"] for m in view["legal"]] == ["S7"]
    other = next(c for c in view["hand"] if c != "S7")
    out = client.post(f"/api/games/{view['table']}/act", {"action": other})
    assert out["refused"] == "not legal: the first card of the game must be S7"
    out = client.post(f"/api/games/{view['table']}/act", {"action": "pass"})
    assert out["refused"].startswith(("not legal", "must play when able"))
    out = client.post(f"/api/games/{view['table']}/act", {"action": "HX"})
    assert out["refused"].startswith("not an action")
    assert out["history"] == view["history"]


def test_cover_pass_and_joker_moves_are_offered_exactly_when_legal(client: Client) -> None:
    seen: set[str] = set()
    for seed in range(12):
        view = client.post(
            "/api/games",
            {"profile": "shichinarabe", "seat": 0, "seed": seed, "options": ["deck.jokers=1"]},
        )
        table = view["table"]
        while not view["over"]:
            if view["waiting"]:
                view = client.post(f"/api/games/{table}/advance", {})
                continue
            kinds = {m["kind"] for m in view["legal"]}
            seen |= kinds
            joker = [m for m in view["legal"] if m["kind"] == "joker"]
            choice = joker[0] if joker else view["legal"][0]
            view = client.post(f"/api/games/{table}/act", {"action": choice["text"]})
            assert view["refused"] is None
        if {"joker", "pass"} <= seen:
            break
    assert {"play", "pass", "joker"} <= seen
    view = play_through(client, "doujue", seat=0)
    kinds = {h["kind"] for h in view["history"]}
    assert "cover" in kinds or "play" in kinds


FACE_UP = ["players=5", "deck.leftover=face_up"]


def test_the_cards_face_up_are_in_the_view_until_played(client: Client) -> None:
    """Pagat for five with the leftovers face up, deal 24: the two cards an even share
    leaves are in the view; the person plays each of them when it fits (the same play
    action as a card of the hand), and it leaves the pool for its place on the table."""
    seed = 24
    dealt = Game("pagat", FACE_UP).new_state(seed=seed)
    expected = [card_text(c) for c in bits(dealt.pool)]
    assert len(expected) == 2
    view = client.post(
        "/api/games", {"profile": "pagat", "seat": 0, "seed": seed, "options": FACE_UP}
    )
    table = view["table"]
    assert view["pool"] == expected and len(view["hand"]) == 10
    played: list[str] = []
    while not view["over"]:
        if view["waiting"]:
            view = client.post(f"/api/games/{table}/advance", {})
            continue
        plays = [m for m in view["legal"] if m["kind"] == "play"]
        face_up = [m for m in plays if m["card"] in view["pool"]]
        if not face_up:
            choice = plays[0]["text"] if plays else "pass"
            view = client.post(f"/api/games/{table}/act", {"action": choice})
            continue
        move = face_up[0]
        assert move["action"] == parse_card(move["card"])  # the card's own number
        before = view
        view = client.post(f"/api/games/{table}/act", {"action": move["action"]})
        assert view["refused"] is None
        assert view["pool"] == [c for c in before["pool"] if c != move["card"]]
        assert view["hand"] == before["hand"]  # not from the hand
        cell = next(c for r in view["rows"] for c in r["cells"] if c["card"] == move["card"])
        assert cell["state"] == "played"
        assert view["history"][len(before["history"])] == {
            "seat": 0,
            "kind": "play",
            "text": move["card"],
            "card": move["card"],
        }
        played.append(move["card"])
    assert sorted(played, key=parse_card) == expected  # deal 24: the person plays both
    assert view["pool"] == []
    # the replay of the game shows the pool as it was at each step
    record = client.get(f"/api/games/{table}/record")
    steps = client.post("/api/replay", {"record": record})["steps"]
    assert steps[0]["pool"] == expected
    for step in steps:
        on_table = {c["card"] for r in step["rows"] for c in r["cells"] if c["state"] == "played"}
        assert step["pool"] == [c for c in expected if c not in on_table]
    assert steps[-1]["pool"] == []


PASS_TAKES = ["turn.pass_takes=chosen"]


def test_a_card_handed_on_after_a_pass(client: Client, server: PaiqiServer) -> None:
    """Pagat where a pass takes a card (Ristiseiska, Sjuan), seat 1 against easy players,
    deal 4, the person making the first legal move: the person hands a card on twice and
    takes one twice. The card handed on leaves the giver's hand for the taker's; the
    history names it to those two seats only; the replay names every one."""
    seed, me = 4, 1
    view = client.post(
        "/api/games",
        {"profile": "pagat", "seat": me, "seed": seed, "levels": ["easy"], "options": PASS_TAKES},
    )
    table_id = view["table"]
    table = server.api.tables.get(table_id)
    assert view["rules"]["pass_takes"] == "chosen"
    assert view["hand_on"] is False and view["taker"] is None and view["handed"] == []
    gave: list[str] = []
    took: list[str] = []
    while not view["over"]:
        if view["waiting"]:
            before = view
            view = client.post(f"/api/games/{table_id}/advance", {})
            new = view["history"][len(before["history"]) :]
            got = [h["card"] for h in new if h["kind"] == "give" and h["to"] == me]
            if before["hand_on"] and before["taker"] == me:
                # the person passed; the seat before, to move, chose a card for them
                giver = before["turn"]
                assert new[0]["seat"] == giver and new[0]["kind"] == "give"
                assert new[0]["text"] == f"give {new[0]['card']}"
                assert got and got[0] == new[0]["card"]
            for card in got:
                assert card not in before["hand"] and card in view["hand"]
            assert len(view["hand"]) == len(before["hand"]) + len(got)
            took += got
            continue
        legal = view["legal"]
        if view["hand_on"]:
            taker = view["taker"]
            assert view["history"][-1] == {"seat": taker, "kind": "pass", "text": "pass"}
            assert taker != me and view["turn"] == me
            assert {m["kind"] for m in legal} == {"give"}
            assert sorted(m["card"] for m in legal) == sorted(view["hand"])
            card = legal[0]["card"]
            taker_held, at = table.state.hands[taker], len(view["history"])
            view = client.post(f"/api/games/{table_id}/act", {"action": f"give {card}"})
            assert view["refused"] is None
            assert card not in view["hand"] and view["handed"][-1] == card
            line = {"seat": me, "kind": "give", "text": f"give {card}", "card": card, "to": taker}
            assert view["history"][at] == line
            assert table.state.hands[taker] == taker_held | 1 << parse_card(card)
            gave.append(card)
            continue
        assert "give" not in {m["kind"] for m in legal}
        view = client.post(f"/api/games/{table_id}/act", {"action": legal[0]["text"]})
        assert view["refused"] is None
        if legal[0]["kind"] == "pass" and view["hand_on"]:
            assert view["taker"] == me and view["waiting"] and view["turn"] != me
    assert len(gave) == 2 and len(took) == 2  # deal 4: the person gave twice, took twice
    # the person sees the card of each give they took part in, in order, and no other
    gives = [h for h in view["history"] if h["kind"] == "give"]
    mine = [h for h in gives if me in (h["seat"], h["to"])]
    others = [h for h in gives if me not in (h["seat"], h["to"])]
    assert [h["card"] for h in mine] == view["handed"]
    assert sorted(view["handed"]) == sorted(gave + took)
    assert others, "no give between two computer players in this deal"
    assert all("card" not in h and h["text"] == "give" for h in others)
    for i, h in enumerate(view["history"]):
        if h["kind"] == "give":
            assert view["history"][i - 1] == {"seat": h["to"], "kind": "pass", "text": "pass"}
    # the record and its replay show every card handed on
    record = client.get(f"/api/games/{table_id}/record")
    assert replay(record) == []
    recorded = [a for a in record["actions"] if a["type"] == "give"]
    assert len(recorded) == len(gives)
    steps = client.post("/api/replay", {"record": record})["steps"]
    shown = [h for h in steps[-1]["history"] if h["kind"] == "give"]
    assert [(h["seat"], h["card"]) for h in shown] == [(a["seat"], a["card"]) for a in recorded]
    assert [h["to"] for h in shown] == [h["to"] for h in gives]
    moves = [s["move"] for s in steps[1:] if s["move"]["kind"] == "give"]
    assert moves == shown
    for step in steps[1:]:
        if step["move"]["kind"] == "give":
            giver, taker, card = step["move"]["seat"], step["move"]["to"], step["move"]["card"]
            assert card in step["hands"][taker] and card not in step["hands"][giver]


STOCK = ["deck.hand=7", "deck.leftover=stock", "turn.draw=one"]


@pytest.mark.parametrize("must_play", [True, False], ids=["must-play", "may-play"])
def test_a_stuck_player_draws_from_the_stock(
    client: Client, server: PaiqiServer, must_play: bool
) -> None:
    """Pagat with a stock, seat 0 against easy players, deal 1, the person making the first
    legal move (and keeping the first card drawn that fits, where it need not be played).
    Stuck, the person's one move is ``draw``; a draw naming its card is refused (the card is
    chance's), in the same words whether or not the stock holds it. The card drawn joins
    the hand, is named in the person's history and ``drawn``, and the stock counts one
    fewer; a card that fits is the one card offered (``drew_card``), with a stop where the
    person need not play it. The record replays, naming every card drawn."""
    from paiqi_core.actions import DRAW_CARD

    options = STOCK + ([] if must_play else ["turn.must_play=false"])
    body = {"profile": "pagat", "seat": 0, "seed": 1, "levels": ["easy"], "options": options}
    view = client.post("/api/games", body)
    table_id = view["table"]
    state = server.api.tables.get(table_id).state
    assert view["rules"]["leftover"] == "stock" and view["rules"]["draw"] == "one"
    assert view["rules"]["hand"] == 7 and len(view["hand"]) == 7
    draws = fits = stops = 0
    while not view["over"]:
        assert (
            view["stock"]
            == state.stock.bit_count()
            == 24 - len([h for h in view["history"] if h["kind"] == "draw"])
        )
        if view["waiting"]:
            view = client.post(f"/api/games/{table_id}/advance", {})
            continue
        legal = view["legal"]
        if view["drew"]:
            fits += 1
            card = view["drew_card"]
            assert card == view["drawn"][-1] and card in view["hand"]
            assert view["history"][-1] == {
                "seat": 0,
                "kind": "draw",
                "text": f"draw {card}",
                "card": card,
            }
            plays = [m for m in legal if m["kind"] != "pass"]
            assert [m["card"] for m in plays] == [card]
            assert ("pass" in {m["kind"] for m in legal}) != must_play
            if not must_play and not stops:
                passes = view["seats"][0]["passes"]
                view = client.post(f"/api/games/{table_id}/act", {"action": "pass"})
                assert view["refused"] is None and card in view["hand"]
                line = [h for h in view["history"] if h["seat"] == 0][-1]
                assert line == {"seat": 0, "kind": "pass", "text": "pass", "kept": True}
                assert view["seats"][0]["passes"] == passes  # a stop is not a pass
                stops += 1
                continue
        else:
            assert view["drew_card"] is None
        if [m["kind"] for m in legal] != ["draw"]:
            assert "draw" not in {m["kind"] for m in legal}
            view = client.post(f"/api/games/{table_id}/act", {"action": legal[0]["text"]})
            assert view["refused"] is None
            continue
        assert legal == [{"action": 129, "text": "draw", "kind": "draw"}]
        draws += 1
        before = view
        inside = card_text(next(bits(state.stock)))
        outside = card_text(next(c for c in range(52) if not state.stock >> c & 1))
        said = set()
        for named in (f"draw {inside}", f"draw {outside}", DRAW_CARD + parse_card(inside)):
            refused = client.post(f"/api/games/{table_id}/act", {"action": named})
            assert refused["refused"].startswith("not legal: the stock lies face down")
            assert refused["history"] == before["history"] and refused["stock"] == before["stock"]
            said.add(refused["refused"])
        assert len(said) == 1  # nothing said of what the stock holds
        view = client.post(f"/api/games/{table_id}/act", {"action": "draw"})
        assert view["refused"] is None
        card = view["drawn"][-1]
        assert view["drawn"][:-1] == before["drawn"] and card not in before["hand"]
        assert card in view["hand"] and len(view["hand"]) == len(before["hand"]) + 1
        assert view["history"][len(before["history"])] == {
            "seat": 0,
            "kind": "draw",
            "text": f"draw {card}",
            "card": card,
        }
        assert view["stock"] < before["stock"]
    assert draws > 2 and fits > 1 and stops == (0 if must_play else 1), (draws, fits, stops)
    mine = [h["card"] for h in view["history"] if h["kind"] == "draw" and h["seat"] == 0]
    assert mine == view["drawn"] and len(mine) == draws
    others = [h for h in view["history"] if h["kind"] == "draw" and h["seat"] != 0]
    assert others and all(h == {"seat": h["seat"], "kind": "draw", "text": "draw"} for h in others)
    # the record and its replay name every card drawn; the replay's stock counts down
    record = client.get(f"/api/games/{table_id}/record")
    assert replay(record) == []
    recorded = [(a["seat"], a["card"]) for a in record["actions"] if a["type"] == "draw"]
    steps = client.post("/api/replay", {"record": record})["steps"]
    shown = [(h["seat"], h["card"]) for h in steps[-1]["history"] if h["kind"] == "draw"]
    assert shown == recorded and len(shown) == len(mine) + len(others)
    assert steps[0]["stock"] == 24 and steps[-1]["stock"] == 24 - len(shown)
    moved = [s["move"] for s in steps[1:] if s["move"]["kind"] == "draw"]
    assert [(m["seat"], m["card"]) for m in moved] == recorded
    for step in steps[1:]:
        if step["move"]["kind"] == "draw":
            assert step["move"]["card"] in step["hands"][step["move"]["seat"]]


def test_profile_checks_are_located(client: Client) -> None:
    text = "id: house\nextends: doujue\nscoring:\n  bust_above: -3\n"
    out = client.post("/api/check", {"yaml": text, "name": "house.yaml"})
    assert out["ok"] is False
    [p] = out["problems"]
    assert (p["file"], p["line"], p["col"], p["rule"]) == (
        "house.yaml",
        4,
        15,
        "scoring.bust_above",
    )
    assert "minimum of 0" in p["message"]
    out = client.post("/api/check", {"profile": "doujue", "options": ["scoring.stake=0"]})
    assert out["problems"][0]["option"] == 1 and out["problems"][0]["line"] is None
    out = client.post("/api/check", {"yaml": "id: house\nextends: doujue\nscoring: {stake: 2}\n"})
    assert out["ok"] and "scoring.stake = 2" in out["explain"]
    assert "paiqi-serve-" not in out["explain"]  # the temporary file is never named
    assert "my-profile.yaml:3" in out["explain"]
    # the same loader and limits as files: YAML syntax, aliases, size
    out = client.post("/api/check", {"yaml": "id: [\n"})
    assert out["problems"][0]["line"] is not None
    out = client.post("/api/check", {"yaml": "a: &x 1\nb: *x\n"})
    assert not out["ok"] and "alias" in out["problems"][0]["message"]
    out = client.post("/api/check", {"yaml": "# " + "x" * (1 << 20)})
    assert not out["ok"] and "larger than" in out["problems"][0]["message"]


def test_a_profile_from_the_browser_extends_built_ins_only(client: Client, tmp_path: Path) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text("id: secret\nplayers: 4\n")
    for ref in (str(secret), "../secret", "/etc/passwd"):
        out = client.post("/api/check", {"yaml": f"id: x\nextends: {ref}\n"})
        assert not out["ok"]
        [p] = out["problems"]
        assert p["line"] == 2 and "not a built-in profile" in p["message"]
    out = client.post("/api/games", {"yaml": f"id: x\nextends: {secret}\n"}, status=400)
    assert out["problems"][0]["rule"] == "extends"


def test_play_a_profile_from_the_editor(client: Client) -> None:
    text = "id: quick\nextends: pagat\nname: Quick house\n"
    view = play_through(client, "", yaml=text, name="quick.yaml")
    assert view["rules"]["id"] == "quick" and view["rules"]["name"] == "Quick house"


def test_requests_are_bounded_and_checked(client: Client, server: PaiqiServer) -> None:
    status, data = client.raw(
        "POST",
        "/api/check",
        b"",
        {"Content-Type": "application/json", "Content-Length": str(MAX_BODY + 1)},
    )
    assert status == 413
    status, data = client.raw("POST", "/api/check", b'{"profile": "doujue"}')
    assert status == 415  # not said to be JSON: a form of another site cannot post it
    status, data = client.raw("POST", "/api/check", b"[1, 2]", {"Content-Type": "application/json"})
    assert status == 400
    status, data = client.raw(
        "POST", "/api/check", b'{"a": 1' + b"0" * 5000 + b"}", {"Content-Type": "application/json"}
    )
    assert status == 400 and "not JSON" in data["error"]
    status, data = client.raw(
        "POST", "/api/check", b"[" * 100_000, {"Content-Type": "application/json"}
    )
    assert status == 400
    status, data = client.raw("GET", "/api/nothing")
    assert status == 404
    status, data = client.raw("GET", "/api/profiles", headers={"Host": "evil.example:80"})
    assert status == 421
    status, data = client.raw("GET", "/api/profiles", headers={"Host": f"localhost:{client.port}"})
    assert status == 200
    status, data = client.raw("POST", "/api/games", b'{"profile": "doujue", "seat": 9}',
                              {"Content-Type": "application/json"})  # fmt: skip
    assert status == 400 and "seat 9" in data["error"]
    status, data = client.raw("GET", "/api/games/nope")
    assert status == 404


@pytest.mark.parametrize(
    "path",
    [
        "/../pyproject.toml",
        "/%2e%2e/%2e%2e/pyproject.toml",
        "/..%2f..%2fpyproject.toml",
        "/static/../../server.py",
        "/../server.py",
        "/%2e%2e/server.py",
        "/.hidden",
        "//etc/passwd",
        "/%00index.html",
        "/..\\server.py",
    ],
)
def test_static_files_stay_in_their_folder(client: Client, path: str) -> None:
    status, _ = client.raw("GET", path)
    assert status == 404


def test_the_page_names_only_files_it_ships() -> None:
    import re

    page = (STATIC / "index.html").read_text(encoding="utf-8")
    names = re.findall(r'(?:src|href)="([^"#:]+)"', page)
    scripts = "".join(p.read_text(encoding="utf-8") for p in STATIC.glob("*.js"))
    names += re.findall(r'from "\./([^"]+)"', scripts)
    assert "main.js" in names and "render.js" in names
    for name in names:
        assert (STATIC / name).is_file(), name


def test_a_game_against_hard_players(client: Client) -> None:
    """The search player moves in bounded requests: each advance returns promptly."""
    import time

    view = client.post("/api/games", {"profile": "pagat", "seat": 0, "seed": 2, "levels": ["hard"]})
    table = view["table"]
    while not view["over"]:
        if view["waiting"]:
            start = time.monotonic()
            view = client.post(f"/api/games/{table}/advance", {})
            assert time.monotonic() - start < 5
            assert view["moved"] >= 1
        else:
            view = client.post(f"/api/games/{table}/act", {"action": view["legal"][0]["text"]})
    assert view["levels"] == [None, "hard", "hard", "hard"]


def test_static_files_are_served(client: Client) -> None:
    status, page = client.raw("GET", "/")
    assert status == 200 and b"paiqi" in page
    for name in ("main.js", "style.css", "render.js"):
        status, _ = client.raw("GET", "/" + name)
        assert status == 200
    assert static_file("/index.html") == STATIC / "index.html"
    assert static_file("/../server.py") is None


def test_a_failing_game_does_not_stop_the_server(client: Client, server: PaiqiServer) -> None:
    view = client.post("/api/games", {"profile": "doujue", "seat": 0, "seed": 3})
    table = server.api.tables.get(view["table"])

    class Broken:
        name = "broken"

        def act(self, observation: Any) -> int:
            raise RuntimeError("boom")

    table.agents = [None if a is None else Broken() for a in table.agents]  # type: ignore[misc]
    while not view["waiting"]:
        view = client.post(f"/api/games/{view['table']}/act", {"action": view["legal"][0]["text"]})
    out = client.post(f"/api/games/{view['table']}/advance", {})
    assert out["broken"] and "boom" in out["broken"]
    status, data = client.raw(
        "POST", f"/api/games/{view['table']}/act", b'{"action": "pass"}',
        {"Content-Type": "application/json"},
    )  # fmt: skip
    assert status == 409 and "stopped" in data["error"]
    # the server and the other games go on
    play_through(client, "pagat")

    def explode(body: Any) -> Any:
        raise ValueError("a bug")

    server.api.profiles = explode  # type: ignore[method-assign]
    status, data = client.raw("GET", "/api/profiles")
    assert status == 500 and "a bug" in data["error"]
    assert client.post("/api/check", {"profile": "pagat"})["ok"]


def records_text(profile: str, seeds: range, agents: list[str] | None = None) -> str:
    game = Game(profile)
    return "".join(
        json.dumps(state_record(play_game(game, seed, agents or []))) + "\n" for seed in seeds
    )


def test_replay_of_a_record_file(client: Client) -> None:
    text = records_text("doujue", range(2)) + "not json\n" + records_text("shichinarabe", range(1))
    listing = client.post("/api/replays", {"jsonl": text, "name": "games.jsonl"})
    assert [g["line"] for g in listing["games"]] == [1, 2, 4]
    [problem] = listing["problems"]
    assert problem["line"] == 3 and problem["file"] == "games.jsonl"
    game = listing["games"][0]
    out = client.post("/api/replay", {"record": game["record"], "line": 1})
    record = game["record"]
    actions = [a for a in record["actions"] if a["type"] in ("play", "cover", "pass", "joker")]
    assert len(out["steps"]) == len(actions) + 1
    assert out["problems"] == []
    first, last = out["steps"][0], out["steps"][-1]
    assert first["hands"] == [
        sorted_like(h, first["hands"][i]) for i, h in enumerate(record["hands"])
    ]
    assert "settlement" in last and not any(last["hands"])
    covered = [c for cards in last["covered_cards"] for c in cards]
    assert sorted(covered) == sorted(a["card"] for a in record["actions"] if a["type"] == "cover")


def sorted_like(hand: list[str], shown: list[str]) -> list[str]:
    assert sorted(hand) == sorted(shown)
    return shown


def test_a_record_must_name_a_built_in_or_carry_its_rules(client: Client) -> None:
    record = json.loads(records_text("pagat", range(1)))
    record["profile"] = "/etc/passwd"
    out = client.post("/api/replay", {"record": record}, status=400)
    assert "not a built-in profile" in out["problems"][0]["message"]


def test_a_disagreeing_record_is_shown_up_to_the_disagreement(client: Client) -> None:
    record = json.loads(records_text("pagat", range(1)))
    record["actions"][3]["card"] = "SA" if record["actions"][3].get("card") != "SA" else "SK"
    out = client.post("/api/replay", {"record": record})
    assert out["problems"] and len(out["steps"]) <= 4


def test_replay_a_stored_runs_game(client: Client, server: PaiqiServer, tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    done = subprocess.run(
        [sys.executable, "-m", "paiqi_core.cli", "simulate", "pagat", "--games", "3", "--seed",
         "5", "--db", str(db), "--workers", "1", "-q"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    runs = client.get("/api/runs")
    [run] = runs["runs"]
    assert run["profiles"] == ["pagat"]
    out = client.post("/api/replay", {"run": run["run"], "profile": "pagat", "game": 2})
    assert out["problems"] == [] and "settlement" in out["steps"][-1]
    expected = state_record(play_game(Game("pagat"), 5 * (1 << 32) + 2, []))
    assert out["record"]["actions"] == expected["actions"]
    out = client.post("/api/replay", {"run": run["run"], "profile": "pagat", "game": 99}, 400)
    assert "games 0 to 2" in out["error"]


def doujue_worked_example() -> list[PlayerOutcome]:
    """The specification's worked 鬥雀 game: 全脫手; 接龍 with S3 covered; S10 and D10
    covered; SJ SQ SK DJ DK covered."""
    c = parse_card
    return [
        PlayerOutcome(played=13, finish=0),
        PlayerOutcome(covered=(c("S3"),), played=12, completions=(1,), finish=1),
        PlayerOutcome(covered=(c("S10"), c("D10")), played=11, finish=2),
        PlayerOutcome(covered=tuple(map(c, ("SJ", "SQ", "SK", "DJ", "DK"))), played=8, finish=3),
    ]


def test_doujue_worked_example_settlement() -> None:
    """The specification's worked example: +800 / 0 / -80 / -720, every payment explained."""
    rules = Game("doujue").rules
    outcomes = doujue_worked_example()
    result = rules.scoring.score(outcomes)
    s = settlement(rules, outcomes, result)
    assert [x["money"] for x in s["seats"]] == [800, 0, -80, -720]
    assert s["seats"][0]["multiplier"] == 2 and s["seats"][0]["multiplier_for"] == "全脫手"
    assert s["seats"][0]["parts"] == [{"what": "全脫手", "points": 10, "rule": "clean_bonus"}]
    assert s["seats"][3]["bust"] is True and s["seats"][2]["bust"] is False
    pays = {(p["from"], p["to"]): p for p in s["payments"]}
    assert set(pays) == {(2, 0), (3, 0)}
    assert pays[2, 0]["why"] == "20 points × 2 (中頭) × stake 1 × 2 (seat 0's 全脫手) = 80"
    assert pays[3, 0]["why"] == (
        "60 points × 3 (大頭) × 2 (爆點: 60 covered points > 55) × stake 1 "
        "× 2 (seat 0's 全脫手) = 720"
    )
    assert any(r["rule"] == "scoring.bust_above" and "爆點" in r["means"] for r in s["rules"])


def test_the_settlement_is_what_the_scoring_spells_out_not_what_its_name_suggests() -> None:
    # the same 鬥雀 game under a scoring that scores alike but spells nothing out: the
    # totals, ranks and money only, no parts, multipliers or reasons guessed from the
    # profile's covering parameters
    rules = Game("doujue").rules
    outcomes = doujue_worked_example()
    plain = Scoring(rules.scoring.score, rules.scoring.facts)
    quiet = dataclasses.replace(rules, scoring=plain)
    s = settlement(quiet, outcomes, plain.score(outcomes))
    assert [x["money"] for x in s["seats"]] == [800, 0, -80, -720]
    assert [x["total"] for x in s["seats"]] == [10, 2, -20, -60]  # 全脫手 10, 接龍 5 - 3
    assert all(x["parts"] == [] for x in s["seats"])
    assert s["seats"][0]["multiplier"] == 1 and "bust" not in s["seats"][3]
    assert [(p["from"], p["to"], p["amount"], p["why"]) for p in s["payments"]] == [
        (2, 0, 80, ""),
        (3, 0, 720, ""),
    ]


def test_platform_settlement_with_bonuses() -> None:
    rules = Game("platform").rules
    c = parse_card
    outcomes = [
        PlayerOutcome(played=13, completions=(1, 3), finish=0),
        PlayerOutcome(played=13, last_play=c("H7"), finish=1),
        PlayerOutcome(covered=(c("C4"),), played=12, finish=2),
        PlayerOutcome(covered=(c("C5"), c("HK")), played=11, finish=3),
    ]
    result = rules.scoring.score(outcomes)
    s = settlement(rules, outcomes, result)
    assert [x["money"] for x in s["seats"]] == [600, -100, -200, -300]
    assert [p["points"] for p in s["seats"][0]["parts"]] == [4, 2, 10]
    assert [x["label"] for x in s["seats"]] == ["winner", "小頭", "中頭", "大頭"]
    assert [p["why"] for p in s["payments"]] == [
        "50 (小頭) × 2 (seat 0's 脫手) = 100",
        "100 (中頭) × 2 (seat 0's 脫手) = 200",
        "150 (大頭) × 2 (seat 0's 脫手) = 300",
    ]


def test_chips_settlement_says_what_each_player_paid() -> None:
    rules = Game("bicycle").rules
    outcomes = [
        PlayerOutcome(played=13, finish=0, passes=1),
        PlayerOutcome(played=5, passes=3, hand_left=8),
        PlayerOutcome(played=5, passes=0, hand_left=8),
        PlayerOutcome(played=5, passes=2, hand_left=8),
    ]
    s = settlement(rules, outcomes, rules.scoring.score(outcomes))
    # each loser also pays the winner a chip for each of its 8 cards still held
    assert [p["why"] for p in s["payments"]] == [
        "ante 1 + 3 passes × 1 + 8 cards held × 1 = 12",
        "ante 1 + 8 cards held × 1 = 9",
        "ante 1 + 2 passes × 1 + 8 cards held × 1 = 11",
    ]
    # the winner put in 1 + 1 and collects 12 + 9 + 11 + 2 = 34
    assert [x["money"] for x in s["seats"]] == [32, -12, -9, -11]


def test_hoyles_settlement_shows_the_pot_and_the_chips_for_a_7_held_back() -> None:
    # five at Hoyle's table (seats 0 and 1 dealt 11 cards: ante 2). Seat 1 passed once when
    # able holding D7: 3 into the pot, and 5 each to seat 2 (dealt D6) and seat 3 (D8)
    rules = Game("hoyle", ["players=5"]).rules
    c = parse_card
    outcomes = [
        PlayerOutcome(played=11, finish=0, passes=2, hand_size=11, able_passes=1),
        PlayerOutcome(played=8, passes=1, hand_left=3, hand_size=11, able_passes=1,
                      held_back=(0, 0, 1, 0)),
        PlayerOutcome(played=8, hand_left=2, hand_size=10, neighbours=(c("D6"),)),
        PlayerOutcome(played=6, passes=3, hand_left=4, hand_size=10, neighbours=(c("D8"),)),
        PlayerOutcome(played=9, hand_left=1, hand_size=10),
    ]  # fmt: skip
    s = settlement(rules, outcomes, rules.scoring.score(outcomes))
    assert [x["money"] for x in s["seats"]] == [18, -18, 2, 0, -2]
    assert [(p["from"], p["to"], p["amount"], p["why"]) for p in s["payments"]] == [
        (1, 0, 8, "ante 2 + 1 passes when able × 3 + 3 cards held × 1 = 8"),
        (2, 0, 3, "ante 1 + 2 cards held × 1 = 3"),
        (3, 0, 5, "ante 1 + 4 cards held × 1 = 5"),
        (4, 0, 2, "ante 1 + 1 cards held × 1 = 2"),
        (1, 2, 5, "1 passes holding D7 × 5 (D6)"),
        (1, 3, 5, "1 passes holding D7 × 5 (D8)"),
    ]


def test_pairs_settlement_shows_totals_and_money_without_invented_payments() -> None:
    # QQ 排七: covered points 0, 13, 8, 25 (46); 甲 went clean, so everything doubles:
    # 46 x 2 = 92; (33 - 39) x 2 = -12; (38 - 24) x 2 = 28; (21 - 75) x 2 = -108. Money flows
    # between every two players, so no payer-to-winner payments are shown
    rules = Game("qq").rules
    outcomes = [
        PlayerOutcome(played=13),
        PlayerOutcome(covered=(12,), played=12),
        PlayerOutcome(covered=(13, 14, 15, 27), played=9),
        PlayerOutcome(covered=(50, 51), played=11),
    ]
    s = settlement(rules, outcomes, rules.scoring.score(outcomes))
    assert [x["total"] for x in s["seats"]] == [0, -13, -8, -25]
    assert [x["money"] for x in s["seats"]] == [92, -12, 28, -108]
    assert [x["covered_points"] for x in s["seats"]] == [0, 13, 8, 25]
    assert s["payments"] == []
    assert all("bust" not in x for x in s["seats"])


def test_twstar_settlement_adds_the_base_and_the_table_to_each_total() -> None:
    # twstar 排7: 甲 the only player out: 50 + 100; 乙 covered SK: 50 - 13 - 10 = 27; 丙 H2 H3
    # and 丁 D5: 50 - 5 - 10 = 35. Nobody pays anybody
    rules = Game("twstar").rules
    outcomes = [
        PlayerOutcome(played=13),
        PlayerOutcome(covered=(12,), played=12),
        PlayerOutcome(covered=(14, 15), played=11),
        PlayerOutcome(covered=(30,), played=12),
    ]
    s = settlement(rules, outcomes, rules.scoring.score(outcomes))
    assert [x["total"] for x in s["seats"]] == [150, 27, 35, 35]
    assert [x["money"] for x in s["seats"]] == [150, 27, 35, 35]
    for seat in s["seats"]:
        assert sum(part["points"] for part in seat["parts"]) == seat["total"]
    assert [p["points"] for p in s["seats"][0]["parts"] if p.get("rule") != "clean_bonus"] == [
        50,
        100,
    ]
    assert [p["points"] for p in s["seats"][1]["parts"]] == [50, -13, -10]
    assert s["payments"] == []


def test_paiqi_serve_command_starts_and_stops(tmp_path: Path) -> None:
    """``paiqi serve --port 0`` prints its address and answers there."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "paiqi_core.cli", "serve", "--port", "0", "--db",
         str(tmp_path / "none.db")],
        stdout=subprocess.PIPE, text=True, cwd=tmp_path,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("paiqi serve: http://127.0.0.1:")
        port = int(line.split(":")[3].split("/")[0])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/api/profiles")
        assert conn.getresponse().status == 200
        conn.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    done = subprocess.run(
        [sys.executable, "-m", "paiqi_core.cli", "serve", "--port", "70000"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and "--port" in done.stderr
