"""``paiqi serve``: the rules card of a game or room, through the API (Starlette's
TestClient): its language (the browser's Accept-Language, or the person's choice), the
rules in play of an edited profile with each house change marked, and safe HTML."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from starlette.testclient import TestClient

from paiqi_core.serve.api import Api
from paiqi_core.serve.app import STATIC, Settings, build_app
from paiqi_core.serve.rulescard import to_html

KANA = re.compile(r"[\u3040-\u30ff]")
SEATS = ["person", "normal", "person", "easy"]  # doujue seats four
# a house profile as the page's editor sends it: 鬥雀 with a stake of 3, and a bust above 40
# given as an option (doujue's own: stake 1, bust above 55 covered points)
HOUSE = "id: house\nextends: doujue\nname: Our table\nscoring:\n  stake: 3\n"
OPTIONS = ["scoring.bust_above=40"]


def app_client(api: Api) -> TestClient:
    settings = Settings(api, STATIC, False, None, anyio.CapacityLimiter(4))
    return TestClient(build_app(lambda: settings))


@pytest.fixture
def client() -> Iterator[TestClient]:
    with app_client(Api()) as c:
        yield c


def post(client: TestClient, path: str, body: dict[str, Any], status: int = 200) -> Any:
    r = client.post(path, json=body)
    assert r.status_code == status, r.text
    return r.json()


def game_card(client: TestClient, table: str, query: str = "", accept: str | None = None) -> Any:
    headers = {"Accept-Language": accept} if accept is not None else {}
    r = client.get(f"/api/games/{table}/rules{query}", headers=headers)
    assert r.status_code == 200, r.text
    return r.json()


def headings(card: dict[str, Any]) -> list[str]:
    return re.findall(r"<h3>(.*?)</h3>", card["html"])


def items(card: dict[str, Any], house: bool) -> list[str]:
    """The card's bullets that are (or are not) marked as house changes, as text."""
    found = re.findall(r'<li( class="house")?>(.*?)</li>', card["html"])
    return [re.sub(r"<[^>]+>", "", text) for mark, text in found if bool(mark) == house]


def test_the_card_speaks_the_language_the_browser_asks_for(client: TestClient) -> None:
    table = post(client, "/api/games", {"profile": "doujue", "seed": 3})["table"]
    ja = game_card(client, table, accept="ja-JP,ja;q=0.9,en;q=0.5")
    assert (ja["lang"], ja["html_lang"]) == ("ja", "ja") and KANA.search(ja["html"])
    zh = game_card(client, table, accept="zh-TW,zh;q=0.9")
    assert (zh["lang"], zh["html_lang"]) == ("zh-TW", "zh-Hant-TW")
    assert "蓋牌" in zh["html"] and not KANA.search(zh["html"])  # the Taiwanese tables' term
    assert game_card(client, table, accept="zh-CN")["lang"] == "zh-TW"  # the only Chinese
    en = game_card(client, table, accept="fr-FR,de;q=0.8")  # nothing matches: English
    assert en["lang"] == "en" and "cover" in en["html"]
    assert all(h.isascii() for h in headings(en))
    assert not any(h.isascii() for h in headings(ja)) and KANA.search("".join(headings(ja)))
    assert game_card(client, table)["lang"] == "en"
    # the person's choice in the page wins over the browser's
    assert game_card(client, table, "?lang=zh-TW", accept="ja")["lang"] == "zh-TW"
    assert [x["text"] for x in ja["langs"]] == ["中文", "日本語", "English"]
    r = client.get(f"/api/games/{table}/rules?lang=fr")
    assert r.status_code == 400 and "zh-TW" in r.json()["error"]
    assert client.get("/api/games/nosuchgame/rules").status_code == 404


def test_the_card_states_the_edited_rules_in_play(client: TestClient) -> None:
    built_in = game_card(client, post(client, "/api/games", {"profile": "doujue"})["table"])
    assert items(built_in, house=True) == []
    assert any("55" in line for line in items(built_in, house=False))
    assert built_in["title"].endswith(post(client, "/api/check", {"profile": "doujue"})["name"])

    view = post(client, "/api/games", {"yaml": HOUSE, "name": "house.yaml", "options": OPTIONS})
    card = game_card(client, view["table"])
    assert "Our table" in card["title"]
    house = items(card, house=True)
    assert len(house) == 2, house  # the stake and the bust, nothing else
    assert any("3" in line and "stake" in line.lower() for line in house)
    assert any("40" in line and "55" not in line for line in house)
    assert not any("55" in line for line in items(card, house=False))  # doujue's bust is gone
    assert all(line.startswith("[house]") for line in house)


def test_a_rooms_card_is_for_those_who_may_see_the_room() -> None:
    with app_client(Api(require_code=True)) as client:
        body = {"yaml": HOUSE, "name": "house.yaml", "options": OPTIONS, "seats": SEATS}
        room = post(client, "/api/rooms", body)
        rid = room["room"]
        post(client, f"/api/rooms/{rid}/rules", {}, 403)
        card = post(client, f"/api/rooms/{rid}/rules", {"code": room["code"], "lang": "ja"})
        assert card["lang"] == "ja" and len(items(card, house=True)) == 2
        zh = {"Accept-Language": "zh"}
        r = client.post(f"/api/rooms/{rid}/rules", json={"host": room["host"]}, headers=zh)
        assert r.status_code == 200 and r.json()["lang"] == "zh-TW"
        post(client, f"/api/rooms/{rid}/rules", {"code": room["code"], "lang": "xx"}, 400)
        post(client, "/api/rooms/nosuchroom/rules", {"code": room["code"]}, 404)


def test_the_given_profile_file_has_its_own_card(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(HOUSE, encoding="utf-8")
    with app_client(Api(files={"file:house.yaml": house})) as client:
        table = post(client, "/api/games", {"profile": "file:house.yaml"})["table"]
        card = game_card(client, table, "?lang=en")
        assert "Our table" in card["title"] and len(items(card, house=True)) == 1


def test_the_cards_html_escapes_every_text() -> None:
    text = (
        "# Rules of <b>x</b>\n\nFrom `a<i>` **b&c**.\n> <script>alert(1)</script>\n\n"
        '## Play <img src=x>\n\n- **[house]** a "<tag>"\n- *x* <y>\n'
    )
    title, body = to_html(text, "[house]")
    assert title == "Rules of <b>x</b>"  # plain text: the page writes it as text
    assert "<script" not in body and "<img" not in body and "<tag>" not in body
    assert "<y>" not in body and "&lt;script&gt;" in body
    assert body == (
        "<p>From <code>a&lt;i&gt;</code> <strong>b&amp;c</strong>.</p>\n"
        "<blockquote>&lt;script&gt;alert(1)&lt;/script&gt;</blockquote>\n"
        "<h3>Play &lt;img src=x&gt;</h3>\n"
        '<ul><li class="house"><span class="house-mark">[house]</span> '
        "a &quot;&lt;tag&gt;&quot;</li>"
        "<li><em>x</em> &lt;y&gt;</li></ul>"
    )
