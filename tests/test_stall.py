"""The stall rule (RULES.md section 5): a rule set whose games need not end ends anyway."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from paiqi_core import Game, resources
from paiqi_core.actions import PASS
from paiqi_core.agents import make_agent
from paiqi_core.cards import parse_card
from paiqi_core.engine.state import State
from paiqi_core.profile import ProfileError, load_profile
from paiqi_core.profile.explain import explain_text
from paiqi_core.profile.load import load_resolved


def _passer(state_game: Game, seeds: int = 4) -> list[int]:
    """Play games in which every seat passes whenever it may; the passes each made."""
    out = []
    for seed in range(seeds):
        state = state_game.new_state(seed=seed)
        moves = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(PASS if PASS in legal else legal[0])
            moves += 1
            assert moves < 10_000, "the game did not end"
        out.append(sum(state.passes))
    return out


def test_auto_gives_ten_rounds_only_where_passes_by_choice_are_unlimited() -> None:
    assert Game("shichinarabe", ["turn.pass_limit=null"]).rules.stall == 10
    assert Game("pagat", ["turn.must_play=false"]).rules.stall == 10
    assert Game("doujue-passes", ["turn.pass_limit=null"]).rules.stall == 10
    # games of these always end by themselves: no stall rule
    for name, sets in [
        ("shichinarabe", []),  # three passes
        ("pagat", []),  # passes only when stuck
        ("doujue", ["turn.must_play=false"]),  # covers by choice use up the hand
        ("doujue-passes", []),
    ]:
        assert Game(name, sets).rules.stall is None, name
    assert Game("shichinarabe", ["ending.stall=2"]).rules.stall == 2


def test_players_who_always_pass_end_after_ten_rounds() -> None:
    # 七並べ with unlimited passes: every 7 is out before play, nobody has to play, and
    # every seat passes whenever it may: four holders, ten rounds, forty passes
    game = Game("shichinarabe", ["turn.pass_limit=null"])
    assert _passer(game) == [40, 40, 40, 40]
    state = game.new_state(seed=0)
    for _ in range(40):
        state.apply("pass")
    assert state.stalled and state.is_terminal()
    assert state.passes == [10, 10, 10, 10]
    result = state.result()
    assert result.rank == (1, 1, 1, 1)  # nobody went out: all four tied
    assert result.total == (3, 3, 3, 3)  # rank 1's points, 3/2/1/0


def test_thirty_nine_passes_do_not_end_it() -> None:
    state = Game("shichinarabe", ["turn.pass_limit=null"]).new_state(seed=3)
    for _ in range(39):
        state.apply("pass")
    assert not state.is_terminal() and not state.stalled
    assert state.idle == 39 and PASS in state.legal_actions()


def _position(
    game: Game, hands: list[list[str]], passes: list[int] | None = None, turn: int = 0
) -> State:
    """A game with every 7 on the table, ``hands`` by seat, ``turn`` to move."""
    masks = [sum(1 << parse_card(c) for c in h) for h in hands]
    table = sum(1 << parse_card(c) for c in ("S7", "H7", "D7", "C7"))
    return State(game, masks, table=table, turn=turn, passes=passes)


def test_a_card_starts_the_count_again() -> None:
    game = Game("pagat", ["turn.must_play=false", "ending.stall=1"])
    state = _position(game, [["S8", "HA"], ["H8", "SK"], ["D8", "DK"], ["C8", "CK"]])
    for move in ("pass", "pass", "D8", "pass", "pass", "pass"):
        state.apply(move)
        assert not state.is_terminal()
    assert state.idle == 3
    state.apply("pass")
    assert state.is_terminal() and state.stalled


def test_a_burst_starts_the_count_again() -> None:
    # 甲 has used its three passes and holds only SA: when the turn comes round it bursts,
    # which lays a card on the table and starts the count again
    game = Game("shichinarabe", ["ending.stall=1"])
    state = _position(game, [["SA"], ["H8", "SK"], ["D8", "DK"], ["C8", "CK"]], [3, 0, 0, 0], 1)
    for _ in range(3):
        state.apply("pass")
    assert state.bursts == [0] and state.idle == 0 and not state.is_terminal()
    state.apply("pass")
    state.apply("pass")
    assert not state.is_terminal()
    state.apply("pass")  # three holders, three passes in a row
    assert state.is_terminal() and state.stalled


def test_search_players_that_prefer_to_wait_still_finish() -> None:
    # the case that never ended: search players at the end of a game with unlimited
    # passes, each better off waiting for the other
    game = Game("shichinarabe", ["turn.pass_limit=null"])
    for seed in range(3):
        state = game.new_state(seed=seed)
        agents = [make_agent("pimc:4x1", random.Random(seed * 10 + s), game) for s in range(4)]
        moves = 0
        while not state.is_terminal():
            state.apply(agents[state.turn].act(state.observation(state.turn)))
            moves += 1
            assert moves < 2_000
        assert len(state.result().rank) == 4


def test_an_explicit_number_is_checked() -> None:
    for bad in ("0", "101", "soon", "2.5"):
        with pytest.raises(ProfileError, match=r"ending\.stall"):
            load_profile("pagat", [f"ending.stall={bad}"])


def test_explain_shows_the_rule_and_its_reading_where_it_is_in_effect() -> None:
    text = explain_text(load_profile("shichinarabe", ["turn.pass_limit=null"]))
    assert "ending.stall = auto" in text
    assert "stall-ends-game" in text
    assert "stall-ends-game" not in explain_text(load_profile("shichinarabe"))


def _omitted_at_default(schema: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """The (section, key) of every rule the schema leaves out of a fingerprint at its
    default (``x-fingerprint: omit-default``): the keys added after rules were first stored."""
    for section, sub in schema["properties"].items():
        for key, rule in sub.get("properties", {}).items():
            if rule.get("x-fingerprint") == "omit-default":
                yield section, key


def test_rules_stored_before_the_stall_rule_keep_their_fingerprint() -> None:
    # a run or record stored by an earlier paiqi holds resolved rules without
    # ending.stall and the fingerprint of exactly those rules: they must load alike
    later = list(_omitted_at_default(resources.schema("profile")))
    assert ("ending", "stall") in later and ("turn", "sevens_first") in later
    for name in ("doujue", "shichinarabe", "pagat"):
        data = Game(name).rules.profile.resolved()
        for section, key in later:  # ending.stall, nor the keys that came later still
            data[section].pop(key, None)
        then = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
        earlier = hashlib.sha256(then.encode("utf-8")).hexdigest()
        assert load_resolved(data, source="stored").fingerprint == earlier
    # a stall rule that is set is part of the rules
    assert (
        load_profile("pagat", ["ending.stall=3"]).fingerprint != load_profile("pagat").fingerprint
    )
    for set_later in ("turn.extra_after_end=may", "layout.sides=high_first", "deck.decks=2",
                      "turn.sevens_first=true", "opening.method=seven_holder"):  # fmt: skip
        assert load_profile("pagat", [set_later]).fingerprint != load_profile("pagat").fingerprint


def test_the_compiled_engine_ends_a_stalled_game_where_python_does() -> None:
    pytest.importorskip("numba")
    from paiqi_core.core import layout as L
    from paiqi_core.fast.finish import encode, fast_finish

    game = Game("pagat", ["turn.must_play=false", "ending.stall=1"])
    state = _position(game, [["S8", "HA"], ["H8", "SK"], ["D8"], ["CK"]])
    for _ in range(3):  # three holders pass by choice
        state.apply("pass")
    assert encode(state)[L.IDLE] == 3 and not state.is_terminal()
    # the fourth holds only CK, which does not fit: its forced pass completes the round,
    # so nobody wins and each of the four holds a quarter share; a game played on would
    # give one seat the whole win
    values = fast_finish([state], "random", [0], objective="win")
    assert values.tolist() == [[0.25, 0.25, 0.25, 0.25]]
    state.apply("pass")
    assert state.stalled and state.result().winners == (0, 1, 2, 3)


def test_an_environment_of_endless_passes_terminates_by_the_stall_rule() -> None:
    pytest.importorskip("pettingzoo")
    from paiqi_core.adapters.encoding import PASS_ACTION
    from paiqi_core.adapters.pettingzoo import paiqi_env

    for engine in ("python", "fast"):
        env = paiqi_env("shichinarabe", ["turn.pass_limit=null"], engine=engine)
        env.reset(seed=0)
        steps = 0
        for _agent in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                assert terminated and not truncated  # the game ended; nothing cut it
                env.step(None)
                continue
            env.step(PASS_ACTION)  # every seat passes whenever it may, as in the case that hung
            steps += 1
        assert steps == 40  # four holders, ten rounds
