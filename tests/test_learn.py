"""The learned belief: what it reads from an observation (worked by hand), the chain it tilts
(against the exact weighted list of a small position), the model file, fitting, and the
``expert`` player with and without a model."""

from __future__ import annotations

import math
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from paiqi_core import Game
from paiqi_core.agents import make_agent
from paiqi_core.belief import Belief
from paiqi_core.cards import parse_card, parse_cards
from paiqi_core.learn.data import Rows, positions, read_position
from paiqi_core.learn.duel import edge_of
from paiqi_core.learn.features import FEATURES, HAND, NAMES, read
from paiqi_core.learn.fit import Epoch
from paiqi_core.learn.model import (
    POLICY,
    BeliefModel,
    ModelError,
    forget,
    model_for,
    remember,
)
from paiqi_core.learn.policy import LearnedPolicy, predicts_search

from .test_belief import _exact, _small_position

HANDS = [
    "S7 H7 D2 D3 D4 D5 C2 C3 C4 C5 C6 SA S2",
    "S8 S9 S10 H2 H3 H4 H5 H6 D6 D8 C8 C9 C10",
    "S6 S5 S4 S3 HJ HQ HK DJ DQ DK CJ CQ CK",
    "SJ SQ SK H8 H9 H10 D7 D9 D10 C7 CA DA HA",
]


def _opening() -> tuple[Game, Belief]:
    """Fan Tan: 甲 (seat 0) lays S7, 乙 S8 (its only card that fits), 丙 S6 (its only one),
    丁 D7 though S9, S5, H7 and C7 fit too; 甲 to move reads the table."""
    g = Game("pagat")
    state = g.new_state(hands=[parse_cards(h) for h in HANDS])
    for move in ("S7", "S8", "S6", "D7"):
        state.apply(move)
    return g, Belief(g, state.observation(0), moments=True)


def _row(belief: Belief, card: str, seat: int) -> dict[str, float]:
    reading = read(belief)
    i = belief.hidden.index(parse_card(card))
    g = reading.groups.index((seat, HAND))
    return dict(zip(NAMES, reading.x[i, g].tolist(), strict=True))


def test_a_seat_that_laid_the_card_inside_another_reads_as_its_way_there() -> None:
    _, belief = _opening()
    s9 = _row(belief, "S9", 1)  # 乙 laid S8, just inside S9, with its last move
    assert s9["next_to"] == s9["next_to_last"] == 1
    assert s9["towards"] == pytest.approx(1 / 6)  # one card between the 7 and S9: S8
    assert s9["suit_laid"] == pytest.approx(1 / 6)
    assert s9["passed_by"] == 0  # S9 did not fit when 乙 moved
    assert s9["fits"] == 1 and s9["gap"] == 0
    assert _row(belief, "S10", 1)["gap"] == pytest.approx(1 / 6)  # S9 first
    assert _row(belief, "S10", 1)["next_to"] == 0
    s5 = _row(belief, "S5", 2)  # 丙 laid S6
    assert s5["next_to"] == 1 and s5["towards"] == pytest.approx(1 / 6)


def test_cards_a_seat_passed_by_are_counted_and_the_centre_card_opens_both_sides() -> None:
    _, belief = _opening()
    for card in ("S9", "S5", "C7"):  # 丁 laid D7 while these fitted (and H7, 甲's)
        row = _row(belief, card, 3)
        assert row["passed_by"] == pytest.approx(math.log(2))
        assert row["passed_by_last"] == 1
    assert _row(belief, "C7", 1)["passed_by"] == pytest.approx(math.log(2))  # 乙: S6 H7 D7 C7
    assert _row(belief, "S9", 1)["passed_by"] == 0
    for card in ("D6", "D8"):  # D7 opened diamonds: the cards on either side are next to it
        row = _row(belief, card, 3)
        assert row["opened"] == 1 and row["next_to"] == 1
        assert row["towards"] == pytest.approx(1 / 6)
    assert _row(belief, "D9", 3)["next_to"] == 0
    assert _row(belief, "D9", 3)["towards"] == pytest.approx(1 / 6)


def test_the_offset_is_the_room_a_seat_has_and_the_truth_its_real_place() -> None:
    g = Game("pagat")
    state = g.new_state(hands=[parse_cards(h) for h in HANDS])
    for move in ("S7", "S8", "S6", "D7"):
        state.apply(move)
    rows = read_position(state, 0)
    assert rows is not None
    belief = Belief(g, state.observation(0), moments=True)
    assert len(rows) == len(belief.hidden) == 39 - 4 + 1  # 3 x 13, less 3 laid (+ S7 mine)
    # 乙 and 丙 hold 12 cards each and 丁 12, none proven missing: log 12 in every group
    assert np.allclose(rows.offset[:, :3], math.log(12))
    assert (rows.offset[:, 3:] < -1e8).all()  # (no covers, no stock at Fan Tan)
    for i, card in enumerate(belief.hidden):
        owner = next(s for s, h in enumerate(HANDS) if card in parse_cards(h))
        assert rows.label[i] == owner - 1  # groups: 乙 丙 丁


def test_a_cover_proves_no_card_that_fitted_can_be_in_that_hand() -> None:
    g, state = _small_position("doujue", (), 6)
    belief = Belief(g, state.observation(0), moments=True)
    reading = read(belief)
    for i, card in enumerate(belief.hidden):
        for g_, (seat, kind) in enumerate(reading.groups):
            if kind != HAND:
                continue
            may = any(
                belief.allowed[p] >> card & 1
                for p, place in enumerate(belief.places)
                if place.seat == seat and place.cover < 0
            )
            assert np.isfinite(reading.offset[i, g_]) == may


@pytest.mark.parametrize(("profile", "seed"), [("doujue", 6), ("platform", 2)])
def test_a_tilted_chain_draws_placements_in_proportion_to_their_weights(
    profile: str, seed: int
) -> None:
    g, state = _small_position(profile, (), seed)
    belief = Belief(g, state.observation(0))
    exact = _exact(belief)
    rng = random.Random(3)
    tilt = [[rng.uniform(-1.0, 1.0) for _ in belief.places] for _ in belief.hidden]
    belief.tilt = tilt
    weights = {d: math.exp(sum(tilt[i][p] for i, p in enumerate(d))) for d in exact}
    total = sum(weights.values())
    draws = 60 * len(exact)
    chain = belief.placements(random.Random(7))
    counts: Counter[tuple[int, ...]] = Counter()
    while sum(counts.values()) < draws:
        placement = next(chain)
        if belief.state_of(placement) is not None:
            counts[tuple(placement)] += 1
    assert set(counts) <= set(exact)
    expected = [draws * weights[d] / total for d in exact]
    x = sum((counts[d] - e) ** 2 / e for d, e in zip(exact, expected, strict=True))
    k = len(exact) - 1
    z = ((x / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    assert 0.5 * math.erfc(z / math.sqrt(2)) > 0.001, x
    heaviest = max(exact, key=weights.__getitem__)
    lightest = min(exact, key=weights.__getitem__)
    assert counts[heaviest] > counts[lightest]  # (the tilt is felt, not only allowed)


def _model(seed: int = 0) -> BeliefModel:
    rng = np.random.default_rng(seed)
    weights = {
        "w0": rng.normal(size=(FEATURES, 4)),
        "b0": rng.normal(size=4),
        "w1": rng.normal(size=(4, 4)),
        "b1": rng.normal(size=4),
        "w2": rng.normal(size=(4, 1)),
        "b2": rng.normal(size=1),
    }
    return BeliefModel(weights, np.zeros(FEATURES), np.ones(FEATURES), {"fingerprint": "f" * 64})


def test_a_model_scores_a_row_through_two_tanh_layers() -> None:
    weights = {
        "w0": np.zeros((FEATURES, 1)),
        "b0": np.array([0.0]),
        "w1": np.array([[2.0]]),
        "b1": np.array([0.0]),
        "w2": np.array([[3.0]]),
        "b2": np.array([0.5]),
    }
    weights["w0"][0, 0] = 1.0
    mean, scale = np.zeros(FEATURES), np.ones(FEATURES)
    mean[0], scale[0] = 1.0, 2.0
    model = BeliefModel(weights, mean, scale)
    x = np.zeros(FEATURES)
    x[0] = 3.0  # (3 - 1) / 2 = 1: tanh(1), then tanh(2 tanh 1), times 3, plus 0.5
    assert model.scores(x) == pytest.approx(3 * math.tanh(2 * math.tanh(1.0)) + 0.5)


def test_a_model_file_reads_back_and_a_foreign_file_is_refused(tmp_path: Path) -> None:
    model = _model()
    path = tmp_path / "m.npz"
    model.save(path)
    back = BeliefModel.load(path)
    x = np.random.default_rng(1).normal(size=(5, 3, FEATURES))
    assert np.allclose(back.scores(x), model.scores(x))
    assert back.fingerprint == "f" * 64 and back.meta["features"] == list(NAMES)
    (tmp_path / "bad.npz").write_bytes(b"not a model")
    with pytest.raises(ModelError, match="not a paiqi model"):
        BeliefModel.load(tmp_path / "bad.npz")


def test_fitting_learns_a_place_the_features_give_away() -> None:
    """Synthetic rows: a card is in the group whose ``next_to`` is set, four times in five;
    the uniform belief says one in three. The fitted model must say far more."""
    from paiqi_core.learn.fit import fit_apart, measure

    rng = np.random.default_rng(0)
    n = 6000
    x = rng.normal(size=(n, 3, FEATURES)).astype(np.float32)
    hint = rng.integers(0, 3, n)
    x[:, :, NAMES.index("next_to")] = 0
    x[np.arange(n), hint, NAMES.index("next_to")] = 1
    label = np.where(rng.random(n) < 0.8, hint, rng.integers(0, 3, n))
    rows = Rows(x, np.zeros((n, 3), np.float32), label, np.arange(n))
    train, held = rows.take(rows.game % 5 != 0), rows.take(rows.game % 5 == 0)
    uniform = measure(held, held.offset.astype(np.float64))
    assert uniform.p_true == pytest.approx(1 / 3)
    history: list[Epoch] = []
    model = fit_apart(train, held, seconds=60, epochs=15, report=history.append)
    assert [e.epoch for e in history] == list(range(1, 16))  # each pass told as it ends
    assert history[-1].held.top > 0.75
    assert history[-1].held.p_true > 0.6
    logits = model.scores(held.x.astype(np.float64))
    assert measure(held, logits).top == pytest.approx(history[-1].held.top, abs=0.01)


def test_positions_read_games_of_named_players() -> None:
    g = Game("doujue")
    rows = positions(g, ["normal"], [1, 2], share=0.5)
    assert len(rows) > 100
    assert set(rows.game.tolist()) == {1, 2}
    assert (rows.label >= 0).all()
    picked = rows.offset[np.arange(len(rows)), rows.label]
    assert (picked > -1e8).all()  # the true group is always one the card may be in


def test_expert_without_a_model_says_so_once_and_plays_hard(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from paiqi_core.agents import make_agent
    from paiqi_core.search import GuidedAgent
    from paiqi_core.search.expert import _NOTED, ExpertAgent

    monkeypatch.setenv("PAIQI_MODELS", str(tmp_path))
    forget()
    _NOTED.clear()
    g = Game("bicycle")  # (no model ships for it)
    first = make_agent("expert", random.Random(0), g)
    make_agent("expert", random.Random(1), g)
    assert type(first) is GuidedAgent
    lines = [line for line in capsys.readouterr().err.splitlines() if line]
    assert lines == [
        f"note: expert has no trained model for bicycle (rules {g.rules.fingerprint[:12]}); "
        "it plays as hard. paiqi train bicycle makes one."
    ]
    remember(g.rules.fingerprint, _model())
    try:
        player = make_agent("expert:8x1", random.Random(0), g)
        assert isinstance(player, ExpertAgent)
        state = g.new_state(seed=4)
        while not state.over:
            seat = state.turn
            observation = state.observation(seat)
            action = player.act(observation) if seat == 0 else observation.legal[0]
            assert action in observation.legal
            state.apply_unchecked(action)
    finally:
        forget()
    assert model_for(g.rules.fingerprint) is None


def test_the_edge_is_a_mean_with_a_normal_interval() -> None:
    edge = edge_of([1.0, -1.0, 3.0, 1.0])
    assert edge.mean == 1.0
    sd = math.sqrt(((0) ** 2 + 2**2 + 2**2 + 0) / 3)
    assert edge.half_width == pytest.approx(1.96 * sd / 2)
    assert edge_of([]).deals == 0
    assert edge.text("wins") == f"+1.000 ± {1.96 * sd / 2:.3f} wins a deal (4 deals)"
    assert edge_of([0.5]).text("wins") == "+0.500 wins a deal (1 deal: too few for an interval)"


def test_paiqi_train_writes_a_model_expert_then_uses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from paiqi_core.cli import main

    monkeypatch.setenv("PAIQI_MODELS", str(tmp_path))
    forget()
    try:
        plot = tmp_path / "curves.png"
        argv = ["train", "pagat", "--games", "10", "--workers", "1", "-q", "--plot", str(plot)]
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and f"drawn in {plot}" in out
        assert "round 1: rule-based players at every seat (10 games)" in out
        assert "round 2: expert players beside rule-based ones (10 games)" in out
        assert "expert over hard:" in out and "wins a deal (1 deal: too few for an interval)" in out
        g = Game("pagat")
        (path,) = tmp_path.glob("belief-*.npz")
        model = BeliefModel.load(path)
        assert model.fingerprint == g.rules.fingerprint
        assert model.meta["games"] == {"rules": 10, "expert": 10}  # (a quarter, at least 10)
        assert model.meta["held_out"]["p_true"] > 0
        assert set(model.meta["seconds"]) == {"rules", "fit", "expert", "refit", "policy", "duel"}
        assert "trained in " in out and ", duel " in out
        assert model_for(g.rules.fingerprint) is not None  # found where expert looks
        # the policy, fitted to expert's decisions, lies beside it; expert beats its action
        assert "of expert's decisions" in out and "a policy from expert's" in out
        (policy_path,) = tmp_path.glob("policy-*.npz")
        policy = BeliefModel.load(policy_path, POLICY)
        assert policy.fingerprint == g.rules.fingerprint and policy.kind == POLICY
        assert policy.meta["rows"]["choices"] > 0
        assert 0 < policy.meta["rule_based"]["p_true"] <= 1
        assert set(policy.meta["over_rules"]) == {"mean", "error"}
        forget()
        agent = make_agent("expert", random.Random(0), g)
        used = isinstance(agent.prior, LearnedPolicy)  # type: ignore[attr-defined]
        assert used == predicts_search(policy)
        assert ("expert's search beats the policy's action" in out) == used
    finally:
        forget()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--minutes", "0"], "--minutes: a time between 0 and"),
        (["--games", "5"], "--games: at least 10 games a round, not 5"),
        (["--games", "20", "--minutes", "3"], "--games and --minutes: give one"),
        (["--out", "model.txt"], "--out model.txt: a model file ends in .npz"),
        (["--workers", "0"], "--workers: at least 1, not 0"),
        (["--set", "players=13"], "players"),
        (["--duel-deals", "0"], "--duel-deals: at least 1, not 0"),
        (["--plot", "curves.pdf"], "--plot curves.pdf: the curves are written as a .png file"),
        # (found before any game is played, not when the model is saved at the end)
        (["--out", "/dev/null/model.npz"], "cannot write the model to /dev/null/model.npz"),
    ],
)
def test_paiqi_train_refuses_bad_input_in_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from paiqi_core.cli import main

    assert main(["train", "pagat", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and "Traceback" not in err


def test_the_same_train_command_makes_the_same_model_on_any_number_of_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from paiqi_core.cli import main

    argv = ["train", "platform", "--games", "10", "--seed", "3", "-q"]
    for workers in ("1", "2"):
        out = tmp_path / f"m{workers}.npz"
        assert main([*argv, "--workers", workers, "--out", str(out)]) == 0
    one, two = (BeliefModel.load(tmp_path / f"m{w}.npz") for w in "12")
    for name in one.weights:
        assert np.array_equal(one.weights[name], two.weights[name]), name
    assert one.meta["edge_over_hard"] == two.meta["edge_over_hard"]
    capsys.readouterr()


def test_the_shipped_models_fit_the_rules_as_they_are_and_stay_small() -> None:
    """Each shipped model was made by ``python -m paiqi_core.learn.shipped`` for the rules
    as they are now (a change of the rules changes the fingerprint: make them again)."""
    from paiqi_core.learn.model import file_name, shipped_dir
    from paiqi_core.learn.shipped import GAMES, SEED, SHIPPED
    from paiqi_core.profile import load_profile

    total = 0
    for profile, overrides in SHIPPED:
        g = Game(load_profile(profile, list(overrides)))
        path = shipped_dir() / file_name(g.rules.fingerprint)
        assert path.is_file(), f"{profile} {overrides}: run python -m paiqi_core.learn.shipped"
        model = BeliefModel.load(path)
        assert model.fingerprint == g.rules.fingerprint
        assert (model.meta["profile"], tuple(model.meta["overrides"])) == (profile, overrides)
        assert model.meta["seed"] == SEED and model.meta["games"]["rules"] == GAMES
        held, uniform = model.meta["held_out"], model.meta["uniform"]
        assert held["loss"] < uniform["loss"]  # it places the held-out cards better
        policy_path = shipped_dir() / file_name(g.rules.fingerprint, POLICY)
        policy = BeliefModel.load(policy_path, POLICY)
        assert policy.fingerprint == g.rules.fingerprint and policy.meta["seed"] == SEED
        assert policy.meta["rows"]["choices"] > 500  # expert's decisions it was fitted to
        total += path.stat().st_size + policy_path.stat().st_size
    assert total < 5_000_000


def test_expert_weighs_the_others_moves_where_the_rule_based_player_is_compiled() -> None:
    from paiqi_core import fast
    from paiqi_core.search.expert import ExpertAgent
    from paiqi_core.search.inference import compiled_player

    for engine in ("auto", "python"):
        fast.use(engine)
        try:
            for profile in ("doujue", "pagat", "platform"):
                g = Game(profile)
                player = ExpertAgent(random.Random(0), game=g, model=_model())
                # the kernel plays every one (the platform's meld exemption too) unless
                # the Python engine is asked for: then a pool's replays would take seconds
                assert player.weigh == compiled_player(g) == (engine == "auto")
                assert player.slack is None  # the likeliest rate, read from the pool
        finally:
            fast.use("auto")


def test_paiqi_train_for_a_time_shares_it_between_the_steps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import time

    from paiqi_core.cli import main

    out = tmp_path / "m.npz"
    start = time.perf_counter()
    assert (
        main(["train", "doujue", "--minutes", "0.3", "--workers", "1", "-q", "--out", str(out)])
        == 0
    )
    took = time.perf_counter() - start
    text = capsys.readouterr().out
    assert "round 1: rule-based players at every seat (0.1 min)" in text
    assert "expert against hard on the same deals (0.1 min)" in text
    model = BeliefModel.load(out)
    assert model.meta["games"]["rules"] >= 10 and model.meta["games"]["expert"] >= 10
    assert took < 18 + 60  # the steps stop on time, but for the games under way


def test_at_a_table_of_other_players_each_of_the_two_sits_alone_on_the_same_cards() -> None:
    from paiqi_core.learn.duel import table_edge

    g = Game("pagat")
    # the same player on both sides plays the very same games: no edge at all
    assert all(table_edge(g, "normal", "normal", seed, "random") == 0.0 for seed in range(3))
    # the rule-based player among random ones wins more often than a random one would
    edges = [table_edge(g, "normal", "random", seed, "random") for seed in range(20)]
    assert sum(edges) / len(edges) > 0


def test_the_curves_split_the_passes_into_the_fits_they_belong_to() -> None:
    from paiqi_core.learn.curves import rounds_of
    from paiqi_core.learn.fit import Epoch, Measure

    held = Measure(0.4, 0.45, 1.0)
    epochs = [Epoch(k, 1.0, held, 0.1) for k in (1, 2, 3, 1, 2)]
    assert [[e.epoch for e in fit] for fit in rounds_of(epochs)] == [[1, 2, 3], [1, 2]]
