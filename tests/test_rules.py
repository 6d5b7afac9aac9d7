"""The compiled rule set: what each built-in slot object declares, copies and pickles of
games and states, the engine's invariants on every built-in profile, one summary path for
every command, and a light import."""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
from typing import Any

import pytest

from paiqi_core import Game, State
from paiqi_core.actions import COVER, PASS
from paiqi_core.cards import parse_card
from paiqi_core.cli import main
from paiqi_core.games import game_for
from paiqi_core.records import state_record
from paiqi_core.resources import builtin_profiles
from paiqi_core.rules import Rules, rules_of
from paiqi_core.slots import ScoringFacts, Stuck
from paiqi_core.testing import GameCheckFailed, check_game

from .conftest import profiles_taking

PROFILES = sorted(builtin_profiles())
JOKER_TABLES = [
    ("shichinarabe", ("deck.jokers=1",)),
    ("shichinarabe-wrap", ("deck.jokers=1",)),
    ("shichinarabe-tunnel", ("deck.jokers=1", "players=3")),
    ("doujue-passes", ("deck.jokers=1",)),
    ("doujue-tunnel", ("deck.jokers=1",)),
]


def test_built_in_slots_declare_what_they_do() -> None:
    doujue = rules_of("doujue")
    assert (doujue.stuck.loop, doujue.stuck.covers, doujue.stuck.pass_limit) == (
        "cover",
        True,
        None,
    )
    assert doujue.ending.most_holding(4) == 0  # every hand empties
    assert doujue.facts == ScoringFacts(
        objective="money", closure_bonus=(5, 5, 5, 5), last_seven_bonus=20, clean_bonus=10,
        covered_points_count=True, bust_above=55,
    )  # fmt: skip
    platform = rules_of("platform")
    assert platform.facts.closure_bonus == (4, 1, 2, 3)
    assert (platform.facts.bust_above, platform.facts.melds_exempt) == (50, True)
    assert platform.stuck.coverable >> parse_card("S7") & 1 == 0  # 7s are never covered
    assert platform.opening.uses_door_card
    japanese = rules_of("shichinarabe")
    assert (japanese.stuck.loop, japanese.stuck.pass_limit, japanese.stuck.may_burst) == (
        None, 3, True,
    )  # fmt: skip
    assert japanese.ending.most_holding(4) == 1 and japanese.facts.objective == "points"
    passes = rules_of("doujue-passes")
    assert passes.stuck.covers and not passes.stuck.may_burst and passes.stuck.pass_limit == 3
    pagat = rules_of("pagat")
    assert (pagat.stuck.loop, pagat.ending.most_holding(4), pagat.facts.objective) == (
        "pass",
        3,
        "win",
    )
    assert rules_of("bicycle").facts.objective == "money"
    assert rules_of("shichinarabe", ["scoring.place_points=[5, 2, 1, 0]"]).facts.place_points == (
        5, 2, 1, 0,
    )  # fmt: skip
    assert (doujue.session.hands, doujue.session.bankroll, doujue.match.games) == (6, None, 1)


def test_rules_are_shared_by_fingerprint_and_options_change_it() -> None:
    assert rules_of("doujue") is rules_of("doujue")
    assert rules_of("doujue") is Game("doujue").rules
    staked = rules_of("doujue", ["scoring.stake=2"])
    assert staked.fingerprint != rules_of("doujue").fingerprint
    assert staked is rules_of("doujue", {"scoring.stake": 2})
    assert dict(staked.options) == {"scoring.stake": 2}
    assert game_for("doujue", ["scoring.stake=2"]) is game_for("doujue", {"scoring.stake": 2})


def _play_on(state: State, seed: int) -> tuple[list[tuple[int, int]], Any]:
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state.log, state.result()


@pytest.mark.parametrize(("profile", "overrides"), [(p, ()) for p in PROFILES] + JOKER_TABLES)
def test_a_clone_and_an_unpickled_state_play_on_alike(
    profile: str, overrides: tuple[str, ...]
) -> None:
    game = Game(profile, list(overrides))
    state = game.new_state(seed=21)
    _play_on_for(state, 15)
    clone = state.clone()
    assert clone.game is state.game  # the compiled game is shared
    copied = pickle.loads(pickle.dumps(state))
    # in the same process a copy comes back to the first game compiled for these rules
    from paiqi_core.engine import game_of

    assert copied.game is game_of(game.rules) and copied.game.rules is game.rules
    import copy

    deep = copy.deepcopy(state)
    assert deep.game is copied.game and deep.log == state.log and deep.log is not state.log
    ends = [_play_on(s, 5) for s in (state, clone, copied)]
    assert ends[0] == ends[1] == ends[2]
    # the clone is independent: the original's moves did not touch it
    assert clone is not state and clone.log is not state.log


def _play_on_for(state: State, moves: int) -> None:
    rng = random.Random(0)
    for _ in range(moves):
        if state.is_terminal():
            return
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


def test_a_game_pickles_as_its_rules() -> None:
    game = Game("platform", ["scoring.settlement=difference"])
    copied = pickle.loads(pickle.dumps(game))
    assert copied.rules is game.rules  # in the same process: the same compiled rules
    assert copied.new_state(seed=3).hands == game.new_state(seed=3).hands
    rules = pickle.loads(pickle.dumps(game.rules))
    assert isinstance(rules, Rules) and rules.fingerprint == game.rules.fingerprint


def test_a_pickled_state_plays_on_in_another_process() -> None:
    state = Game("doujue-passes", ["deck.jokers=1"]).new_state(seed=8)
    _play_on_for(state, 20)
    code = (
        "import pickle, random, sys\n"
        "state = pickle.loads(sys.stdin.buffer.read())\n"
        "rng = random.Random(5)\n"
        "while not state.is_terminal():\n"
        "    legal = state.legal_actions()\n"
        "    state.apply(legal[rng.randrange(len(legal))])\n"
        "print(state.result().money)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], input=pickle.dumps(state), capture_output=True, check=True
    )
    assert done.stdout.decode().strip() == str(_play_on(state, 5)[1].money)


@pytest.mark.parametrize(("profile", "overrides"), [(p, ()) for p in PROFILES] + JOKER_TABLES)
def test_built_in_profiles_keep_the_engine_invariants(
    profile: str, overrides: tuple[str, ...]
) -> None:
    check_game(Game(profile, list(overrides)), games=6)


class _CoverAnything(Stuck):
    """Broken on purpose: offers to cover a card the player does not hold."""

    name = "cover"
    covers = True

    def actions(self, hand: int, passes_used: int) -> list[int]:
        return [COVER + next(c for c in range(52) if not hand >> c & 1)]


def test_check_game_catches_broken_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    from paiqi_core.hooks import registry
    from paiqi_core.outcome import Result
    from paiqi_core.slots import Scoring

    monkeypatch.setitem(registry._REGISTRY, "stuck", dict(registry._REGISTRY["stuck"]))
    monkeypatch.setitem(registry._REGISTRY, "scoring", dict(registry._REGISTRY["scoring"]))
    registry.register("stuck", "cover_anything", summary="broken")(lambda p: _CoverAnything())

    def lopsided(p: Any) -> Scoring:
        return Scoring(lambda o: Result(rank=(1,) * len(o), winners=(0,), money=(1,) * len(o)))

    registry.register("scoring", "lopsided", summary="money that does not add up")(lopsided)
    with pytest.raises(GameCheckFailed, match=r"in two places at once|went missing"):
        check_game(Game("doujue", ["turn.stuck=cover_anything"]), games=3)
    with pytest.raises(GameCheckFailed, match=r"money \(1, 1, 1, 1\) .* do not sum to 0"):
        check_game(Game("pagat", ["scoring.method=lopsided"]), games=1)


def test_an_illegal_action_of_any_kind_is_refused_with_a_reason() -> None:
    from paiqi_core.engine import IllegalAction

    state = Game("doujue").new_state(seed=1)
    for action in (999, -5, None, "pass", 3.5, COVER + 60):
        with pytest.raises(IllegalAction):
            state.apply(action)  # type: ignore[arg-type]
    assert state.why_illegal(999) == "not an action: 999 is no action's number"
    assert state.why_illegal(PASS) == "must play when able: the game opens with S7"


def _cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    assert main([*args, "--json", "-q"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("jokers", [0, 1])
def test_simulate_with_and_without_records_and_compare_agree(
    capsys: pytest.CaptureFixture[str], tmp_path: Any, jokers: int
) -> None:
    # (every four-seat built-in that takes the joker: not one with a stock, sevens-stock, nor
    # one whose rows begin with any card, play-or-pay)
    joker = f"deck.jokers={jokers}"
    profiles = [p for p in profiles_taking(joker) if Game(p).players == 4]
    assert len(profiles) >= len(PROFILES) - 3
    common = ["--games", "40", "--seed", "3", "--workers", "1", "--set", joker]
    plain = _cli_json(capsys, "simulate", *profiles, *common)
    records = tmp_path / "games.jsonl"
    recorded = _cli_json(capsys, "simulate", *profiles, *common, "--records", str(records))
    assert plain == recorded
    lines = records.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 40 * len(profiles)
    compared = _cli_json(capsys, "compare", *profiles, *common, "--db", str(tmp_path / "r.db"))
    for summary in plain:
        data = compared["profiles"][summary["profile"]]
        assert summary["games"] == data["per_game"]["actions"]["n"] == 40
        assert summary["mean_actions"] == round(data["per_game"]["actions"]["mean"], 2)
        assert summary["win_rate"] == [round(r["win"]["mean"], 4) for r in data["per_seat"]]
        assert summary["mean_money"] == [round(r["money"]["mean"], 4) for r in data["per_seat"]]
    # the per-game length is the actions of the records: plays, covers, passes and joker
    # moves, not the automatic events
    mine = [json.loads(line) for line in lines[:40]]
    events = ("place", "swap", "burst", "leave", "cut")
    acted = sum(sum(a["type"] not in events for a in r["actions"]) for r in mine) / 40
    assert plain[0]["mean_actions"] == round(acted, 2)


def test_importing_paiqi_does_not_import_networkx() -> None:
    code = "import sys, paiqi_core; print('networkx' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_observations_share_one_public_log() -> None:
    state = Game("doujue").new_state(seed=2)
    _play_on_for(state, 30)
    first = state.observation(0)
    second = state.observation(1)
    assert len(first.history) == len(state.log) == 30
    assert first.history == second.history
    state_record(state)  # records still read the full log
    _play_on_for(state, 5)
    assert len(first.history) == 30  # an observation is a snapshot
    assert first.history[:30] == state.observation(0).history[:30]


def test_resolved_rules_load_back_to_the_same_rules() -> None:
    from paiqi_core import ProfileError, load_profile
    from paiqi_core.profile.load import load_resolved

    profile = load_profile("platform-zhanlong", ["scoring.settlement=difference"])
    again = load_resolved(
        profile.resolved(), source="stored", chain=profile.chain, overrides=dict(profile.overrides)
    )
    assert again.fingerprint == profile.fingerprint
    assert rules_of(again) is rules_of(profile)
    broken = profile.resolved()
    broken["turn"]["stuck"] = "juggle"
    with pytest.raises(ProfileError, match=r"^stored:1:1: turn.stuck: unknown stuck hook 'juggle'"):
        load_resolved(broken, source="stored")


def test_a_profile_error_survives_pickling() -> None:
    from paiqi_core import ProfileError

    with pytest.raises(ProfileError) as info:
        Game("doujue", ["players=99"])
    copied = pickle.loads(pickle.dumps(info.value))
    assert copied.problems == info.value.problems and str(copied) == str(info.value)


def test_the_families_are_the_built_in_profiles_that_extend_nothing() -> None:
    import yaml

    from paiqi_core.profile import load_profile
    from paiqi_core.profile.ranges import family
    from paiqi_core.resources import families

    roots = {
        name
        for name, path in builtin_profiles().items()
        if "extends" not in yaml.safe_load(path.read_text(encoding="utf-8"))
    }
    # in the order the README and reports give them: 鬥雀 first, the baseline of `compare`
    assert families() == ("doujue", "platform", "shichinarabe", "pagat")
    assert set(families()) == roots
    assert family(load_profile("bicycle")) == "pagat"
    assert family(load_profile("platform-zhanlong")) == "platform"


def test_the_same_rules_reached_another_way_keep_their_own_options() -> None:
    """An override naming a default (doujue's opening card, S7) plays the same rules, but
    the options a record carries are the loader's own, whichever was loaded first."""
    named = rules_of("doujue", ["opening.card=S7"])
    plain = rules_of("doujue")
    assert named.fingerprint == plain.fingerprint
    assert dict(named.options) == {"opening.card": "S7"} and dict(plain.options) == {}
    assert rules_of("doujue") is plain  # still shared by every caller of the same rules
