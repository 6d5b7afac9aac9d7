"""The learned policy: what it reads of each move, how it plays, and how it is trained."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from paiqi_core import Game
from paiqi_core.agents import HeuristicAgent
from paiqi_core.cards import parse_card, parse_cards
from paiqi_core.learn.data import positions_and_choices
from paiqi_core.learn.model import POLICY, BeliefModel, ModelError
from paiqi_core.learn.move_features import MOVE_FEATURES, MOVE_NAMES, WEIGHTS, Terms
from paiqi_core.learn.policy import MAX_ACTIONS, LearnedPolicy, read_moves

from .test_learn import HANDS  # (the Fan Tan deal of the belief's tests)


def _choice() -> tuple[Game, object]:
    """Fan Tan (ace high): S7 S8 S6 D7 H7 laid; 乙 (seat 1) chooses among S9, H6, D6, D8."""
    g = Game("pagat")
    state = g.new_state(hands=[parse_cards(h) for h in HANDS])
    for move in ("S7", "S8", "S6", "D7", "H7"):
        state.apply(move)
    return g, state.observation(1)


def _rows() -> dict[str, dict[str, float]]:
    g, obs = _choice()
    rows = read_moves(g, obs, Terms(g), None)  # type: ignore[arg-type]
    assert rows is not None and rows.shape == (4, MOVE_FEATURES)
    names = {parse_card(c): c for c in ("S9", "H6", "D6", "D8")}
    return {
        names[a]: dict(zip(MOVE_NAMES, row.tolist(), strict=True))
        for a, row in zip(obs.legal, rows, strict=True)  # type: ignore[attr-defined]
    }


def test_a_move_reads_as_the_rule_based_player_weighs_it_term_by_term() -> None:
    rows = _rows()
    # H6 brings H5 H4 H3 H2 of this hand closer (run weight 1 each) and releases nothing
    assert rows["H6"]["worth"] == pytest.approx(4.0) and rows["H6"]["term_run_weight"] == 4
    assert rows["H6"]["chosen"] == 1 and rows["H6"]["below_best"] == 0
    # S9 brings S10 closer
    assert rows["S9"]["worth"] == pytest.approx(1.0) and rows["S9"]["below_best"] == -3
    # D6 lets D5 (unseen) down at once and D4 D3 D2 later, a quarter each: blocking 0.5
    assert rows["D6"]["term_block_weight"] == pytest.approx(-(1 + 3 / 4))
    assert rows["D6"]["worth"] == pytest.approx(-0.5 * (1 + 3 / 4))
    # D8 lets D9 down at once and D10 J Q K A later
    assert rows["D8"]["worth"] == pytest.approx(-0.5 * (1 + 5 / 4))
    for row in rows.values():
        assert row["chosen"] == (row is rows["H6"])
        assert row["play"] == 1 and row["pass"] == row["cover"] == row["joker"] == 0


def test_the_cards_a_move_releases_are_placed_by_the_belief() -> None:
    rows = _rows()
    # D6 releases D5 alone; uniformly it lies in a hand in proportion to its size: 丙 and 丁
    # hold 12 cards, 甲 11
    d6 = rows["D6"]
    assert d6["released"] == 1
    assert d6["released_to_seat+1"] == pytest.approx(12 / 35)
    assert d6["released_to_seat+2"] == pytest.approx(12 / 35)
    assert d6["released_to_seat+3"] == pytest.approx(11 / 35)
    assert d6["released_to_others"] == pytest.approx(1.0)
    assert rows["H6"]["released"] == 0  # H5 is this hand's own
    assert rows["S9"]["released"] == 0  # S10 too
    assert d6["hand"] == pytest.approx(12 / 13) and d6["shortest_hand"] == pytest.approx(11 / 13)


@pytest.mark.parametrize("profile", ["pagat", "doujue", "shichinarabe"])
def test_the_terms_add_up_to_the_worth_under_the_default_weights(profile: str) -> None:
    g = Game(profile)
    terms = Terms(g)
    player = HeuristicAgent(random.Random(0), game=g)
    state = g.new_state(seed=5)
    rng = random.Random(5)
    seen = 0
    while not state.over:
        obs = state.observation(state.turn)
        if len(obs.legal) > 1:
            read, chosen = terms.read(obs)
            weights = np.array([getattr(player, w) for w in WEIGHTS])
            rebuilt = read[:, 3 : 3 + len(WEIGHTS)] @ weights + read[:, 3 + len(WEIGHTS)]
            assert np.allclose(rebuilt, read[:, 0])
            assert chosen == player.choices(obs)
            seen += 1
        state.apply_unchecked(obs.legal[rng.randrange(len(obs.legal))])
    assert seen > 10


def _policy_on(feature: str, sign: float = 1.0) -> BeliefModel:
    """A policy model whose score rises with one feature (tanh layers keep the order)."""
    weights = {
        "w0": np.zeros((MOVE_FEATURES, 1)),
        "b0": np.zeros(1),
        "w1": np.ones((1, 1)),
        "b1": np.zeros(1),
        "w2": np.ones((1, 1)),
        "b2": np.zeros(1),
    }
    weights["w0"][MOVE_NAMES.index(feature), 0] = sign
    ones = np.ones(MOVE_FEATURES)
    return BeliefModel(weights, np.zeros(MOVE_FEATURES), ones, {"kind": POLICY})


def test_the_learned_policy_plays_the_move_its_model_scores_highest() -> None:
    g, obs = _choice()
    rng = random.Random(0)
    best = LearnedPolicy(rng, game=g, policy=_policy_on("worth"))
    assert best.act(obs) == parse_card("H6")  # type: ignore[arg-type]
    # D8 releases most: D9 at once, five more later
    giving = LearnedPolicy(rng, game=g, policy=_policy_on("term_block_weight", -1.0))
    assert giving.act(obs) == parse_card("D8")  # type: ignore[arg-type]
    # D6 and D8 release as much: the tie goes to neither rule-based choice, drawn
    releasing = LearnedPolicy(rng, game=g, policy=_policy_on("released"))
    assert {releasing.act(obs) for _ in range(30)} == {parse_card("D6"), parse_card("D8")}  # type: ignore[arg-type]


def test_decisions_are_read_with_the_action_taken() -> None:
    """The rule-based player read as the chooser: its action is always one it would
    choose, at every decision with a choice (and none other is read)."""
    g = Game("pagat")
    cards, choices = positions_and_choices(g, ["normal"], [1, 2], 0.2, chooser="normal")
    assert len(cards) > 0 and len(choices) > 20
    assert choices.x.shape == (len(choices), MAX_ACTIONS, MOVE_FEATURES)
    legal = (choices.offset == 0).sum(axis=1)
    assert (legal >= 2).all()
    picked = choices.x[np.arange(len(choices)), choices.label]
    assert (picked[:, MOVE_NAMES.index("chosen")] == 1).all()
    assert (choices.label < legal).all()
    assert set(choices.game.tolist()) == {1, 2}
    none = positions_and_choices(g, ["normal"], [1], 0.2)[1]
    assert len(none) == 0


def test_a_policy_file_is_not_read_as_a_belief(tmp_path: Path) -> None:
    path = tmp_path / "p.npz"
    model = _policy_on("worth")
    model.meta["fingerprint"] = "f" * 64
    model.save(path)
    assert BeliefModel.load(path, POLICY).kind == POLICY
    with pytest.raises(ModelError, match="a policy model, not a belief model"):
        BeliefModel.load(path)


def test_the_policy_goes_beside_the_belief_model(tmp_path: Path) -> None:
    from paiqi_core.learn.model import file_name
    from paiqi_core.learn.train import Plan

    g = Game("pagat")
    key = g.rules.fingerprint
    named = Plan(g, "pagat", [], out=tmp_path / file_name(key))
    assert named.policy_path == tmp_path / file_name(key, POLICY)
    other = Plan(g, "pagat", [], out=tmp_path / "house.npz")
    assert other.policy_path == tmp_path / "house-policy.npz"


def test_expert_beats_the_policy_only_where_it_guessed_the_search_better() -> None:
    from paiqi_core.learn.policy import predicts_search

    model = _policy_on("worth")
    assert not predicts_search(model)  # (no measure: never)
    model.meta["over_rules"] = {"mean": 0.002, "error": 0.008}  # within chance
    assert not predicts_search(model)
    model.meta["over_rules"] = {"mean": 0.03, "error": 0.01}  # 3 errors clear
    assert predicts_search(model)


def test_the_gain_over_the_rule_based_guess_is_paired_and_shares_its_ties() -> None:
    from paiqi_core.learn.data import Rows
    from paiqi_core.learn.fit import gain_over

    # four decisions of two or three actions; the labels 0, 1, 0, 2
    offset = np.array([[0, 0, -1e9], [0, 0, -1e9], [0, 0, 0], [0, 0, 0]], np.float32)
    rows = Rows(np.zeros((4, 3, 1), np.float32), offset, np.array([0, 1, 0, 2]), np.arange(4))
    logits = offset + np.array([[1, 0, 0], [1, 0, 0], [1, 0, 0], [0, 0, 1]])  # right 3 of 4
    baseline = offset + np.array([[1, 1, 0], [0, 1, 0], [1, 1, 1], [1, 0, 0]])
    # the baseline: a tie of two (1/2), right (1), a tie of three (1/3), wrong (0)
    d = np.array([1 - 1 / 2, 0 - 1, 1 - 1 / 3, 1 - 0])
    mean, error = gain_over(rows, logits, baseline)
    assert mean == pytest.approx(d.mean())
    assert error == pytest.approx(d.std(ddof=1) / 2)


def test_without_decisions_to_learn_from_no_policy_is_left_beside_the_belief(
    tmp_path: Path,
) -> None:
    from paiqi_core.learn.data import _empty
    from paiqi_core.learn.train import Plan, Report, _fit_policy

    g = Game("pagat")
    plan = Plan(g, "pagat", [], out=tmp_path / "m.npz")
    plan.policy_path.write_bytes(b"a policy of an earlier run")
    said: list[str] = []
    got = _fit_policy(plan, _empty(MAX_ACTIONS, MOVE_FEATURES), 0.0, said.append, Report())
    assert got is None and not plan.policy_path.exists()
    assert said == ["no policy: too few of expert's decisions were read"]
