"""``paiqi serve`` rooms: several people and computer players at one table, through the API.

Driven with Starlette's TestClient (the application in the test's own thread), and the
event stream over real HTTP. What a seat is shown is checked against the engine's own
deal of the same number; the scoreboard against the games' records.
"""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import anyio
import pytest
from starlette.testclient import TestClient

from paiqi_core.cards import card_text
from paiqi_core.engine.game import game_of
from paiqi_core.rules import rules_of
from paiqi_core.serve import profiles, rooms
from paiqi_core.serve.api import Api
from paiqi_core.serve.app import MAX_ROOM_BODY, STATIC, Clients, Settings, build_app
from paiqi_core.serve.rooms import MAX_LISTENERS, MOVES_BURST, Room, RoomError, Rooms

from .serve_support import serving

SEATS = ["person", "normal", "person", "easy"]  # doujue seats four


def app_client(api: Api, clients: Clients | None = None) -> TestClient:
    settings = Settings(api, STATIC, False, None, anyio.CapacityLimiter(4), clients=clients)
    return TestClient(build_app(lambda: settings))


@pytest.fixture
def api() -> Api:
    return Api()


@pytest.fixture
def client(api: Api) -> Iterator[TestClient]:
    with app_client(api) as c:
        yield c


def post(client: TestClient, path: str, body: dict[str, Any], status: int = 200) -> Any:
    r = client.post(path, json=body)
    assert r.status_code == status, r.text
    return r.json()


def dealt(seed: int, seat: int) -> list[str]:
    """The hand the engine deals ``seat`` for deal ``seed`` of doujue (sorted)."""
    profile, _ = profiles.load(profile="doujue", text=None, name="", options=[])
    state = game_of(rules_of(profile)).new_state(seed=seed)
    return sorted(card_text(c) for c in state.dealt_cards(seat))


def open_room(client: TestClient, seed: int = 11, seats: list[str] = SEATS) -> dict[str, Any]:
    return post(client, "/api/rooms", {"profile": "doujue", "seats": seats, "seed": seed})


def seated(client: TestClient, seed: int = 11) -> tuple[dict[str, Any], dict[int, str]]:
    """A room with Ann at seat 0 and Bo at seat 2; their tokens by seat."""
    room = open_room(client, seed)
    rid = room["room"]
    tokens = {}
    for seat, name in ((0, "Ann"), (2, "Bo")):
        joined = post(client, f"/api/rooms/{rid}/join", {"seat": seat, "name": name})
        tokens[seat] = joined["token"]
    return room, tokens


def play_deal(client: TestClient, rid: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Play the deal to its end: each person takes their first legal move in turn."""
    view = post(client, f"/api/rooms/{rid}", {"token": tokens[0]})
    for _ in range(500):
        if view["over"]:
            return view
        turn = view["turn"]
        assert turn in tokens, f"seat {turn} is a computer player: it should have moved"
        mine = (
            view
            if view["seat"] == turn
            else post(client, f"/api/rooms/{rid}", {"token": tokens[turn]})
        )
        assert mine["legal"], mine
        move = {"token": tokens[turn], "action": mine["legal"][0]["text"]}
        view = post(client, f"/api/rooms/{rid}/act", move)
        assert view["refused"] is None
        # a spectator sees no hand and no covered card, whoever covered it
        watching = post(client, f"/api/rooms/{rid}", {})
        assert watching["hand"] == [] and watching["own_covered"] == []
        if not watching["over"]:
            covers = [h for h in watching["history"] if h["kind"] == "cover"]
            assert all("card" not in h for h in covers), covers
    raise AssertionError("the deal did not end")


def test_each_person_sees_their_own_hand_only(client: TestClient) -> None:
    room, tokens = seated(client, seed=11)
    rid = room["room"]
    assert len(room["code"]) == 6 and room["host"]
    for seat, token in tokens.items():
        view = post(client, f"/api/rooms/{rid}", {"token": token})
        assert view["seat"] == seat
        held = sorted(view["hand"])
        played = [h["card"] for h in view["history"] if h["kind"] == "play" and h["seat"] == seat]
        assert sorted(held + played) == dealt(11, seat)
        assert "dealt" not in view and "settlement" not in view
        others = {c for s in range(4) if s != seat for c in dealt(11, s)}
        assert not set(view["hand"]) & others
        assert not {m.get("card") for m in view["legal"]} & others
        names = [s["name"] for s in view["seats"]]
        assert names[seat].endswith("(you)")
        assert names[1] == "seat 1 (normal)" and names[3] == "seat 3 (easy)"
    spectator = post(client, f"/api/rooms/{rid}", {})
    assert spectator["seat"] == -1 and spectator["hand"] == [] and spectator["legal"] == []
    assert spectator["room"]["spectator"] and spectator["room"]["code"] is None
    assert "dealt" not in spectator


def test_a_move_needs_the_seats_own_token(client: TestClient) -> None:
    room, tokens = seated(client, seed=3)
    rid = room["room"]
    view = post(client, f"/api/rooms/{rid}", {"token": tokens[0]})
    turn = view["turn"]
    other = 2 if turn == 0 else 0
    mine = post(client, f"/api/rooms/{rid}", {"token": tokens[turn]})
    move = mine["legal"][0]["text"]
    # the other person's token cannot make this seat's move: it is not their turn
    refused = post(client, f"/api/rooms/{rid}/act", {"token": tokens[other], "action": move})
    assert refused["refused"] and "turn" in refused["refused"]
    assert len(refused["history"]) == len(mine["history"])
    # no token, the host's token or a made-up one make no move at all
    post(client, f"/api/rooms/{rid}/act", {"action": move}, 403)
    post(client, f"/api/rooms/{rid}/act", {"host": room["host"], "action": move}, 403)
    post(client, f"/api/rooms/{rid}/act", {"token": "x" * 24, "action": move}, 403)
    made = post(client, f"/api/rooms/{rid}/act", {"token": tokens[turn], "action": move})
    assert made["refused"] is None and len(made["history"]) > len(mine["history"])


def test_seats_are_taken_once_and_rejoined_by_token(client: TestClient) -> None:
    room, tokens = seated(client)
    rid = room["room"]
    post(client, f"/api/rooms/{rid}/join", {"seat": 0, "name": "Cy"}, 409)
    post(client, f"/api/rooms/{rid}/join", {"seat": 1, "name": "Cy"}, 400)  # a computer's
    post(client, f"/api/rooms/{rid}/join", {"seat": 9}, 400)
    again = post(client, f"/api/rooms/{rid}", {"token": tokens[2]})  # after a reload
    assert again["seat"] == 2 and again["seats"][2]["name"] == "Bo (you)"
    assert again["room"]["open"] == []
    assert post(client, "/api/rooms/find", {"code": room["code"].lower()})["room"] == rid
    post(
        client, "/api/rooms/find", {"code": "ZZZZZZ" if room["code"] != "ZZZZZZ" else "YYYYYY"}, 404
    )
    post(client, "/api/rooms/nosuchroom", {}, 404)


def test_a_room_is_checked_when_opened(client: TestClient) -> None:
    post(client, "/api/rooms", {"profile": "doujue", "seats": ["person"] * 3}, 400)
    post(client, "/api/rooms", {"profile": "doujue", "seats": ["normal"] * 4}, 400)
    post(
        client,
        "/api/rooms",
        {"profile": "doujue", "seats": ["person", "wizard", "easy", "easy"]},
        400,
    )
    bad = post(
        client, "/api/rooms", {"profile": "doujue", "options": ["nope=1"], "seats": SEATS}, 400
    )
    assert bad["problems"]


def test_a_session_of_three_deals_adds_up(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rooms, "MOVES_BURST", 100_000)  # the test moves faster than people
    room, tokens = seated(client, seed=21)
    rid = room["room"]
    money = [Fraction(0)] * 4
    for deal in range(3):
        end = play_deal(client, rid, tokens)
        assert end["room"]["deal"] == deal + 1
        # at the end every hand as dealt is shown, to spectators too
        spectator = post(client, f"/api/rooms/{rid}", {})
        assert spectator["dealt"] == [
            [card_text(c) for c in sorted_deal] for sorted_deal in _deal_cards(21 + deal)
        ]
        settled = [Fraction(s["money"]) for s in end["settlement"]["seats"]]
        money = [a + b for a, b in zip(money, settled, strict=True)]
        board = end["scoreboard"]
        assert len(board["deals"]) == deal + 1
        assert [Fraction(m) for m in board["money"]] == money
        assert sum(money) + Fraction(board["house"]) == 0
        if deal < 2:
            post(client, f"/api/rooms/{rid}/next", {"token": tokens[0], "action": 0}, 403)
            post(client, f"/api/rooms/{rid}/next", {"host": room["host"]})
    post(client, f"/api/rooms/{rid}/next", {"host": room["host"]})
    fresh = post(client, f"/api/rooms/{rid}", {"token": tokens[0]})
    assert fresh["room"]["deal"] == 4 and not fresh["over"] and "dealt" not in fresh
    post(client, f"/api/rooms/{rid}/next", {"host": room["host"]}, 409)  # not over yet


def _deal_cards(seed: int) -> list[list[int]]:
    profile, _ = profiles.load(profile="doujue", text=None, name="", options=[])
    state = game_of(rules_of(profile)).new_state(seed=seed)
    return [state.dealt_cards(s) for s in range(4)]


def test_the_host_lets_a_computer_move_for_a_slow_person(client: TestClient) -> None:
    room, tokens = seated(client, seed=5)
    rid = room["room"]
    view = post(client, f"/api/rooms/{rid}", {"token": tokens[0]})
    turn = view["turn"]
    before = len(view["history"])
    post(client, f"/api/rooms/{rid}/stand-in", {"token": tokens[turn], "seat": turn}, 403)
    not_turn = 2 if turn == 0 else 0
    post(client, f"/api/rooms/{rid}/stand-in", {"host": room["host"], "seat": not_turn}, 409)
    after = post(client, f"/api/rooms/{rid}/stand-in", {"host": room["host"], "seat": turn})
    assert after["history"][before]["seat"] == turn
    assert after["room"]["host"] and after["room"]["code"] == room["code"]


def test_on_the_network_a_room_needs_its_code() -> None:
    api = Api(require_code=True)
    with app_client(api) as client:
        room = open_room(client)
        rid, code = room["room"], room["code"]
        post(client, f"/api/rooms/{rid}", {}, 403)
        post(client, f"/api/rooms/{rid}", {"code": "AAAAAA" if code != "AAAAAA" else "BBBBBB"}, 403)
        post(client, f"/api/rooms/{rid}/join", {"seat": 0}, 403)
        token = post(client, f"/api/rooms/{rid}/join", {"seat": 0, "code": code})["token"]
        assert post(client, f"/api/rooms/{rid}", {"token": token})["seat"] == 0  # a token suffices
        assert post(client, f"/api/rooms/{rid}", {"code": code})["seat"] == -1
        assert post(client, f"/api/rooms/{rid}", {"host": room["host"]})["room"]["code"] == code
        assert client.get(f"/api/rooms/{rid}/events").status_code == 403


def test_rooms_are_bounded(api: Api) -> None:
    api.rooms = Rooms(limit=1)
    with app_client(api, Clients(rate=1.0, burst=5)) as client:
        room, tokens = seated(client)
        rid = room["room"]
    with app_client(api) as client:
        post(client, "/api/rooms", {"profile": "doujue", "seats": SEATS}, 503)
        big = json.dumps({"token": tokens[0], "action": "x" * MAX_ROOM_BODY})
        r = client.post(
            f"/api/rooms/{rid}/act", content=big, headers={"Content-Type": "application/json"}
        )
        assert r.status_code == 413
        statuses = [
            client.post(f"/api/rooms/{rid}", json={"token": tokens[0]}).status_code
            for _ in range(MOVES_BURST * 3)
        ]
        assert statuses[:MOVES_BURST] == [200] * MOVES_BURST and 429 in statuses
        other = client.post(f"/api/rooms/{rid}", json={"token": tokens[2]})
        assert other.status_code == 200  # one seat's rate is its own


def test_a_client_of_the_network_is_rate_limited(api: Api) -> None:
    with app_client(api, Clients(rate=1.0, burst=5)) as client:  # TestClient's is no loopback
        statuses = [
            client.post("/api/rooms/find", json={"code": "AAAAAA"}).status_code for _ in range(8)
        ]
        assert statuses[:5] == [404] * 5 and statuses[5:] == [429] * 3
    assert Clients(rate=1.0, burst=1).allow("127.0.0.1")


def test_every_open_page_is_told_of_a_move_at_once() -> None:
    with serving() as srv:
        host, port = srv.server_address[:2]

        def call(path: str, body: dict[str, Any]) -> Any:
            conn = http.client.HTTPConnection(host, port, timeout=10)
            conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
            data = json.loads(conn.getresponse().read())
            conn.close()
            return data

        room = call("/api/rooms", {"profile": "doujue", "seats": SEATS, "seed": 4})
        rid = room["room"]
        tokens = {s: call(f"/api/rooms/{rid}/join", {"seat": s})["token"] for s in (0, 2)}
        pages = []
        for _ in range(3):
            conn = http.client.HTTPConnection(host, port, timeout=10)
            conn.request("GET", f"/api/rooms/{rid}/events")
            response = conn.getresponse()
            assert response.status == 200
            assert response.getheader("Content-Type", "").startswith("text/event-stream")
            pages.append((conn, response))
        first = [_next_version(r) for _, r in pages]
        assert len(set(first)) == 1
        view = call(f"/api/rooms/{rid}", {"token": tokens[0]})
        turn = view["turn"]
        mine = call(f"/api/rooms/{rid}", {"token": tokens[turn]})
        got: list[float] = []

        def read(response: Any) -> None:
            _next_version(response)
            got.append(time.monotonic())

        readers = [threading.Thread(target=read, args=(r,)) for _, r in pages]
        for t in readers:
            t.start()
        sent = time.monotonic()
        call(f"/api/rooms/{rid}/act", {"token": tokens[turn], "action": mine["legal"][0]["text"]})
        for t in readers:
            t.join(5)
        assert len(got) == 3 and max(got) - sent < 1.0
        for conn, _ in pages:
            conn.close()


def _next_version(response: Any) -> int:
    """The next version event of an event stream."""
    while True:
        line = response.readline().decode()
        assert line, "the stream ended"
        if line.startswith("data: "):
            return int(json.loads(line[6:])["version"])


def test_served_to_the_network_a_room_needs_its_code_over_http() -> None:
    """``paiqi serve --host 0.0.0.0``: joining and watching need the code; bound to loopback
    the room's id is enough, and a request to another name is still refused."""

    def call(srv: Any, path: str, body: dict[str, Any], host: str | None = None) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", srv.server_address[1], timeout=10)
        headers = {"Content-Type": "application/json"}
        if host:
            headers["Host"] = host
        conn.request("POST", path, json.dumps(body), headers)
        response = conn.getresponse()
        status, data = response.status, json.loads(response.read())
        conn.close()
        return status, data

    opening = {"profile": "doujue", "seats": SEATS, "seed": 2}
    with serving(host="0.0.0.0") as srv:
        made = call(srv, "/api/rooms", opening)[1]
        rid, code = made["room"], made["code"]
        assert call(srv, f"/api/rooms/{rid}", {})[0] == 403
        assert call(srv, f"/api/rooms/{rid}/join", {"seat": 0})[0] == 403
        assert call(srv, f"/api/rooms/{rid}/join", {"seat": 0, "code": code})[0] == 200
        assert call(srv, f"/api/rooms/{rid}", {"code": code})[0] == 200
    with serving() as srv:
        rid = call(srv, "/api/rooms", opening)[1]["room"]
        assert call(srv, f"/api/rooms/{rid}", {})[0] == 200
        assert call(srv, f"/api/rooms/{rid}", {}, host="evil.example:80")[0] == 421


def test_a_rooms_deals_are_a_run_of_the_results_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each finished deal is stored as the room's run's next game: ``paiqi sql`` reads its
    rows, whose money per seat is the settlement's, and ``paiqi report`` reports it."""
    monkeypatch.setattr(rooms, "MOVES_BURST", 100_000)
    db = tmp_path / "evening.db"
    with app_client(Api(db=db)) as client:
        room, tokens = seated(client, seed=8)
        rid = room["room"]
        settled = []
        for deal in range(2):
            end = play_deal(client, rid, tokens)
            settled.append([str(x["money"]) for x in end["settlement"]["seats"]])
            assert end["room"]["run"] and end["room"]["unstored"] is None
            if deal == 0:
                post(client, f"/api/rooms/{rid}/next", {"host": room["host"]})
    run = end["room"]["run"]
    cli = [sys.executable, "-m", "paiqi_core.cli"]
    query = "SELECT game, deal, seat, agent, money FROM seats ORDER BY game, seat"
    out = subprocess.run(
        [*cli, "sql", "--db", str(db), "--run", run, "--json", query],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    rows = json.loads(out.stdout)
    got = [[str(r["money"]) for r in rows[g * 4 : g * 4 + 4]] for g in range(2)]
    assert got == settled
    assert [r["deal"] for r in rows[::4]] == [8, 9]  # the room's deal numbers, in turn
    assert [r["agent"] for r in rows[:4]] == SEATS
    report = subprocess.run(
        [*cli, "report", "--db", str(db), "--json", run],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert report.returncode == 0, report.stderr
    listed = subprocess.run(
        [*cli, "report", "--db", str(db)], capture_output=True, text=True, check=True
    )
    assert run in listed.stdout and "room" in listed.stdout
    # played by people: the run's games cannot be played again from its seed and players
    with app_client(Api(db=db)) as client:
        body = {"run": run, "profile": "doujue", "game": 0}
        refused = post(client, "/api/replay", body, 400)
        assert "played by people" in refused["error"]


def test_the_record_of_a_deal_once_it_is_over(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rooms, "MOVES_BURST", 100_000)
    room, tokens = seated(client, seed=12)
    rid = room["room"]
    post(client, f"/api/rooms/{rid}/record", {"token": tokens[0]}, 409)
    end = play_deal(client, rid, tokens)
    record = post(client, f"/api/rooms/{rid}/record", {})
    assert record["seed"] == 12 and record["hands"] == end["dealt"]
    assert len(record["actions"]) >= len([h for h in end["history"] if h["kind"] != "cut"])
    replayed = post(client, "/api/replay", {"record": record})
    assert replayed["record"] == record


def test_a_room_for_the_profile_file_given_to_the_server(tmp_path: Path) -> None:
    """``paiqi serve house.yaml``: the file is offered beside the built-ins, for a game or a
    room, read when asked for; a file with problems stops the command before it serves."""
    house = tmp_path / "house.yaml"
    house.write_text("extends: doujue\nname: Our house rules\n", encoding="utf-8")
    api = Api(files={"file:house.yaml": house})
    with app_client(api) as client:
        listed = client.get("/api/profiles").json()["profiles"]
        assert {"id": "file:house.yaml", "name": "Our house rules"}.items() <= listed[-1].items()
        room = post(client, "/api/rooms", {"profile": "file:house.yaml", "seats": SEATS})
        assert room["view"]["rules"]["name"] == "Our house rules"
        assert (
            client.get("/api/profiles/file:house.yaml/source").json()["yaml"].startswith("extends")
        )
    cli = [sys.executable, "-m", "paiqi_core.cli", "serve", "--port", "0"]
    missing = subprocess.run([*cli, str(tmp_path / "none.yaml")], capture_output=True, text=True)
    assert missing.returncode == 2 and "no such profile file" in missing.stderr
    house.write_text("extends: doujue\nplayers: 99\n", encoding="utf-8")
    bad = subprocess.run([*cli, str(house)], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "house.yaml:2:" in bad.stderr, bad.stderr


def test_the_profiles_session_and_match_end_with_their_winners(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With session.hands = 2 the session is over after the second deal, won by the most
    money; a Japanese match of 3 games by points is won by the most points."""
    monkeypatch.setattr(rooms, "MOVES_BURST", 100_000)
    cases = (
        ("doujue", ["session.hands=2"], 2, "money"),
        ("shichinarabe", ["match.games=3"], 3, "points"),
    )
    for profile, options, length, what in cases:
        body = {"profile": profile, "options": options, "seats": SEATS, "seed": 40}
        room = post(client, "/api/rooms", body)
        rid = room["room"]
        tokens = {s: post(client, f"/api/rooms/{rid}/join", {"seat": s})["token"] for s in (0, 2)}
        for deal in range(length):
            end = play_deal(client, rid, tokens)
            board = end["scoreboard"]
            if deal < length - 1:
                assert board["ended"] is None and board["winners"] == []
                post(client, f"/api/rooms/{rid}/next", {"host": room["host"]})
        totals = board[what]
        assert board["ended"] == length
        best = max(Fraction(t) for t in totals)
        leaders = [s for s, t in enumerate(totals) if Fraction(t) == best]
        assert set(board["winners"]) <= set(leaders) and board["winners"]


def test_a_match_to_a_limit_ends_with_the_deal_that_reaches_it(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ristiseiska's match is played to a total of penalty points (match.limit), with
    match.games only a cap: the room's match is over after the deal in which a player's
    penalty points reach the limit, not after the cap, and the fewest penalty points win."""
    monkeypatch.setattr(rooms, "MOVES_BURST", 100_000)
    body = {"profile": "ristiseiska", "options": ["match.limit=4"], "seats": SEATS, "seed": 3}
    room = post(client, "/api/rooms", body)
    rid = room["room"]
    tokens = {s: post(client, f"/api/rooms/{rid}/join", {"seat": s})["token"] for s in (0, 2)}
    for deal in range(1, 30):
        board = play_deal(client, rid, tokens)["scoreboard"]
        assert board["match_games"] == 100 and board["match_limit"] == 4
        # a round's points are minus the cards each player still holds: the first out has 0
        last = board["deals"][-1]["points"]
        assert max(last) == 0 and all(p <= 0 for p in last)
        totals = board["points"]
        if min(totals) > -4:
            assert board["ended"] is None and board["winners"] == []
            post(client, f"/api/rooms/{rid}/next", {"host": room["host"]})
            continue
        assert board["ended"] == deal < 100
        assert totals == [sum(d["points"][s] for d in board["deals"]) for s in range(4)]
        best = max(totals)
        assert board["winners"] and all(totals[w] == best for w in board["winners"])
        break
    else:
        raise AssertionError("nobody reached the limit in 29 deals")


def _doujue_room(seed: int = 1) -> Room:
    profile, _ = profiles.load(profile="doujue", text=None, name="", options=[])
    return Room(game_of(rules_of(profile)), SEATS, seed, {"options": []})


def test_an_unused_room_goes_and_its_code_with_it() -> None:
    now = [0.0]
    kept = Rooms(clock=lambda: now[0])
    room = kept.add(_doujue_room())
    assert kept.find(room.code) is room
    now[0] += Rooms.IDLE - 1
    assert kept.get(room.id) is room  # used: kept for IDLE more from now
    now[0] += Rooms.IDLE
    with pytest.raises(RoomError) as gone:
        kept.get(room.id)
    assert gone.value.status == 404 and "6 hours" in str(gone.value)
    with pytest.raises(RoomError):
        kept.find(room.code)
    assert len(kept) == 0


def test_a_room_is_followed_by_a_bounded_number_of_pages() -> None:
    room = _doujue_room()
    told: list[int] = []
    stops = [room.listen(lambda: told.append(1)) for _ in range(MAX_LISTENERS)]
    with pytest.raises(RoomError) as full:
        room.listen(lambda: None)
    assert full.value.status == 503
    room.join(0, "Ann")  # a change tells every page once
    assert len(told) == MAX_LISTENERS
    stops[0]()
    room.listen(lambda: None)  # a page gone makes way for another


def test_a_siebener_raus_match_counts_the_pip_values_of_the_cards_left(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """WILD_RULES row 20 at the table: each deal scores minus the pip values (A 1, 2-10 their
    number, J Q K 10) of the cards each seat was dealt and did not play, the settlement
    names them, and the match adds the deals up."""
    monkeypatch.setattr(rooms, "MOVES_BURST", 100_000)
    pips = {"A": 1, "J": 10, "Q": 10, "K": 10}
    body = {"profile": "siebener-raus", "options": ["match.games=2"], "seats": SEATS, "seed": 40}
    room = post(client, "/api/rooms", body)
    rid = room["room"]
    tokens = {s: post(client, f"/api/rooms/{rid}/join", {"seat": s})["token"] for s in (0, 2)}
    added = [0, 0, 0, 0]
    for deal in range(2):
        end = play_deal(client, rid, tokens)
        for s, row in enumerate(end["settlement"]["seats"]):
            played = {h["card"] for h in end["history"] if h["seat"] == s and "card" in h}
            left = [c for c in end["dealt"][s] if c not in played]
            assert row["cards_left"] == len(left)
            assert row["total"] == -sum(pips.get(c[1:], 0) or int(c[1:]) for c in left)
            if left:
                assert row["parts"][0]["what"].endswith(" ".join(left))
            added[s] += row["total"]
        assert end["scoreboard"]["points"] == added
        assert any(added)  # somebody was left holding cards
        if deal == 0:
            post(client, f"/api/rooms/{rid}/next", {"host": room["host"]})
    assert end["scoreboard"]["ended"] == 2
    leaders = {s for s in range(4) if added[s] == max(added)}  # the fewest penalty points
    assert end["scoreboard"]["winners"] and set(end["scoreboard"]["winners"]) <= leaders


def test_a_trump_fan_tan_room_plays_a_deal_out_with_trump_moves(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann, with three computer players, lays a trump in another suit's place whenever she
    may (a move like any other for the room); the deal ends, every trump lies where it was
    laid, the cards they displaced that were played lie in the trump row, and the record
    replays to the same table. (Deal 1 offers Ann trump moves, as a search of deals found.)"""
    monkeypatch.setattr(rooms, "MOVES_BURST", 100_000)
    seats = ["person", "normal", "easy", "normal"]
    room = post(client, "/api/rooms", {"profile": "trump-fan-tan", "seats": seats, "seed": 1})
    rid = room["room"]
    token = post(client, f"/api/rooms/{rid}/join", {"seat": 0, "name": "Ann"})["token"]
    view = post(client, f"/api/rooms/{rid}", {"token": token})
    suit = view["trumps"]["suit"]
    for _ in range(100):
        if view["over"]:
            break
        assert view["turn"] == 0, "a computer player should have moved"
        trumps = [m for m in view["legal"] if m["kind"] == "trump"]
        move = (trumps or view["legal"])[0]
        view = post(client, f"/api/rooms/{rid}/act", {"token": token, "action": move["text"]})
        assert view["refused"] is None
    assert view["over"]
    laid = [h for h in view["history"] if h["kind"] == "trump"]
    assert any(h["seat"] == 0 for h in laid), "Ann was never offered a trump move"
    rows = {r["suit"]: {c["card"]: c for c in r["cells"]} for r in view["rows"]}
    followed = 0
    for h in laid:
        # the trump lies in the place it took; the card displaced belongs to the trump row
        assert h["card"][0] == suit and h["at"][0] != suit and h["at"][1:] == h["card"][1:]
        assert rows[h["at"][0]][h["card"]] == {
            "card": h["card"], "rank": h["at"][1:], "down": 1, "place": h["at"],
            "displaced": False, "state": "trump",
        }  # fmt: skip
        home = rows[suit][h["at"]]
        assert (home["place"], home["displaced"]) == (h["card"], True)
        played = any(x["kind"] == "play" and x["card"] == h["at"] for x in view["history"])
        assert home["state"] in (("played",) if played else ("open", "empty"))
        followed += played and h["seat"] == 0
    assert followed, "no card a trump of Ann's displaced was played"
    watching = post(client, f"/api/rooms/{rid}", {})  # a spectator sees the same table
    assert (watching["rows"], watching["trumps"]) == (view["rows"], view["trumps"])
    record = post(client, f"/api/rooms/{rid}/record", {"token": token})
    replayed = post(client, "/api/replay", {"record": record})
    assert replayed["steps"][-1]["rows"] == view["rows"]
    assert replayed["steps"][-1]["trumps"] == view["trumps"]
