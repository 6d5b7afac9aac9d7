"""The random stream of a deal (``paiqi_core.streams``): SplitMix64, the same words in
Python and in the compiled engine, keyed by the seed, drawn as 32-bit halves with Lemire's
method; and the deals made before it (``splitmix64``: whole words, top bits by rejection;
``mt19937``, CPython's ``random.Random``) still replay and resume as they were played.

Expected words come from SplitMix64's published reference outputs (Vigna's
``splitmix64.c``; the Rosetta Code task "Pseudo-random numbers/Splitmix64" lists the first
five for seed 1234567), the draws from Lemire's rule worked by hand on those words, and the
rest from the rules the module's docstring states.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import shutil
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from paiqi_core import Game
from paiqi_core.cli import main
from paiqi_core.records import replay, state_record
from paiqi_core.runs.block import decode
from paiqi_core.runs.store import RunSpec, Store
from paiqi_core.seeds import game_seed, shuffled
from paiqi_core.simulate import play_game, replay_stream
from paiqi_core.streams import (
    GAMMA,
    GENERATOR,
    LEGACY,
    MASK,
    WORDS,
    Stream,
    WordStream,
    below,
    derived_key,
    key_of,
    mix64,
    prefetch,
    signed,
    stream,
)

from .conftest import ROOT

LEGACY_DATA = ROOT / "tests" / "data" / "legacy"
# SplitMix64 from state 1234567: its first five outputs (the reference values)
REFERENCE_1234567 = [
    6457827717110365317,
    3203168211198807973,
    9817491932198370423,
    4593380528125082431,
    16408922859458223821,
]
FIRST_OF_ZERO = 0xE220A8397B1DCDAF  # SplitMix64's first output from state 0


# -- the generator -------------------------------------------------------------------------
def test_the_words_of_a_key_are_splitmix64s_outputs_from_that_state() -> None:
    s = WordStream.from_key(1234567)
    assert [s.getrandbits(64) for _ in range(5)] == REFERENCE_1234567
    assert WordStream.from_key(0).getrandbits(64) == FIRST_OF_ZERO
    # paiqi's stream draws the same words in halves: top 32 bits, then low 32 bits
    h = Stream.from_key(1234567)
    halves = [h.getrandbits(32) for _ in range(10)]
    assert halves == [x for w in REFERENCE_1234567 for x in (w >> 32, w & 0xFFFFFFFF)]
    assert h.drawn == 10


def test_an_index_is_lemires_multiply_shift_on_the_next_half() -> None:
    # the first word from state 1234567 is 0x599ED017FB08FC85: halves 0x599ED017 and
    # 0xFB08FC85; the next is 0x2C73F08458540FA5: halves 0x2C73F084 and 0x58540FA5
    top, low = 0x599ED017, 0xFB08FC85
    assert REFERENCE_1234567[0] == top << 32 | low
    s = Stream.from_key(1234567)
    assert below(s, 52) == 18  # 0x599ED017 * 52 >> 32 = 1503580183 * 52 // 2**32
    assert 1503580183 * 52 // 2**32 == 18 and top == 1503580183
    assert below(s, 4) == 3  # 0xFB08FC85 * 4 >> 32: its top two bits, 0b11
    assert s.drawn == 2
    # a draw whose low part falls below 2**32 mod n is drawn again: with n = 3 and a half
    # of 0 (its low part 0 < 2**32 mod 3 = 1) the next half is taken
    zero_then = iter([0, 0x80000000])
    from paiqi_core.streams import _lemire

    assert _lemire(zero_then.__next__, 3) == 1  # 0x80000000 * 3 >> 32
    assert next(zero_then, None) is None  # both halves drawn
    # a single choice draws nothing in below(); randrange(1) draws one half
    before = s.drawn
    assert below(s, 1) == 0 and s.drawn == before
    assert s.randrange(1) == 0 and s.drawn == before + 1


def test_the_key_of_a_seed_is_splitmix64s_first_output_from_it() -> None:
    assert key_of(0) == FIRST_OF_ZERO
    assert key_of(1234567) == REFERENCE_1234567[0]
    # more than 64 bits: each limb, least significant first, folded into the key
    assert key_of(2**64 + 5) == mix64(((key_of(5) ^ 1) + GAMMA) & MASK)
    assert key_of(3 * 2**128) == mix64(
        ((mix64(((key_of(0) ^ 0) + GAMMA) & MASK) ^ 3) + GAMMA) & MASK
    )
    assert key_of(-5) == key_of(5) ^ MASK  # a negative seed: every bit flipped
    # the int64 the kernel holds is the same 64 bits
    assert signed(2**64 - 1) == -1 and signed(5) == 5


@pytest.mark.parametrize("run_seed", [0, 1, 2**32 - 1, 2**32, 2**40 + 7, 2**63 - 1, 2**70])
def test_the_keys_of_a_run_are_the_keys_of_its_game_seeds(run_seed: int) -> None:
    pytest.importorskip("numba")
    from paiqi_core.core.rng import keys_of, run_keys

    indices = [0, 1, 7, 1000, 2**32 - 1]
    want = [signed(key_of(game_seed(run_seed, i))) for i in indices]
    assert run_keys(run_seed, indices).tolist() == want
    assert keys_of(game_seed(run_seed, i) for i in indices).tolist() == want


def test_draws_of_k_bits_are_the_top_bits_of_each_word() -> None:
    words = [WordStream(42).getrandbits(64)]
    s = WordStream(42)
    assert s.getrandbits(5) == words[0] >> 59
    assert s.drawn == 1
    assert s.getrandbits(0) == 0 and s.drawn == 1  # nothing drawn for no bits
    with pytest.raises(ValueError, match="non-negative"):
        s.getrandbits(-1)
    # more than 64 bits: as many words as needed, least significant first
    twin = WordStream(7)
    low, high = twin.getrandbits(64), twin.getrandbits(64)
    assert WordStream(7).getrandbits(100) == low | (high >> 28) << 64
    # random(): the top 53 bits of a word
    assert WordStream(9).random() == (WordStream(9).getrandbits(64) >> 11) / 2**53
    # paiqi's stream: bits from halves, least significant first beyond 32; random() as
    # CPython makes it from two 32-bit outputs
    word = WordStream(7).getrandbits(64)
    assert Stream(7).getrandbits(64) == (word >> 32) | (word & 0xFFFFFFFF) << 32
    a, b = word >> 32, word & 0xFFFFFFFF
    assert Stream(7).random() == ((a >> 5) * 67108864 + (b >> 6)) / 2**53


def test_randrange_draws_by_rejection_even_for_one_choice() -> None:
    s, twin = WordStream(3), WordStream(3)
    for n in (1, 2, 3, 5, 52, 1000):
        k = n.bit_length()
        r = twin.getrandbits(k)
        while r >= n:
            r = twin.getrandbits(k)
        assert s.randrange(n) == r
    assert s.drawn == twin.drawn
    # paiqi's below() draws nothing for a single choice
    before = s.drawn
    assert below(s, 1) == 0 and s.drawn == before


def test_a_stream_copies_pickles_and_goes_on_from_its_state() -> None:
    s = Stream(2026)
    for _ in range(300):  # past the first block of words
        s.getrandbits(7)
    assert s.getstate() == (GENERATOR, key_of(2026), 300)
    for other in (copy.copy(s), copy.deepcopy(s), pickle.loads(pickle.dumps(s))):
        assert [other.getrandbits(64) for _ in range(5)] == [s.getrandbits(64) for _ in range(5)]
        s.setstate((GENERATOR, key_of(2026), 300))
    again = Stream.from_key(key_of(2026), 300)
    assert again.getrandbits(64) == s.getrandbits(64)
    # from an odd number of halves: the low half of a word, then on
    odd = Stream.from_key(key_of(2026), 301)
    word = mix64((key_of(2026) + 151 * GAMMA) & MASK)  # word 150 holds halves 300 and 301
    assert odd.getrandbits(32) == word & 0xFFFFFFFF
    assert odd.getstate() == (GENERATOR, key_of(2026), 302)
    with pytest.raises(ValueError, match="splitmix64-lemire"):
        s.setstate(random.Random(1).getstate())
    with pytest.raises(ValueError, match="splitmix64-lemire"):
        s.setstate((WORDS, key_of(2026), 3))
    with pytest.raises(TypeError, match="int"):
        Stream("seed")  # type: ignore[arg-type]


def test_prefetched_streams_are_the_same_streams() -> None:
    seeds = [5, 2**70, -3]
    prefetch(seeds)
    for seed in seeds:  # the first words made together, the rest one stream at a time
        s, key = WordStream(seed), key_of(seed)
        assert [s.getrandbits(64) for _ in range(300)] == [
            mix64((key + (t + 1) * GAMMA) & MASK) for t in range(300)
        ]
        assert s.drawn == 300
    again = WordStream(5)  # taken once: a second stream of the seed makes its own
    assert again.getrandbits(64) == mix64((key_of(5) + GAMMA) & MASK)
    prefetch([7])  # paiqi's stream takes them as halves
    first = mix64((key_of(7) + GAMMA) & MASK)
    assert Stream(7).getrandbits(32) == first >> 32
    prefetch([])


@pytest.mark.parametrize(
    "rng", [Stream(11), WordStream(11), random.Random(11)], ids=[GENERATOR, WORDS, LEGACY]
)
def test_the_quick_shuffle_is_below_at_each_position(rng: random.Random) -> None:
    twin = copy.deepcopy(rng)
    deck = list(range(52))
    want = list(deck)
    for i in range(51, 0, -1):
        r = below(twin, i + 1)
        want[i], want[r] = want[r], want[i]
    assert shuffled(deck, rng) == want
    assert rng.getstate() == twin.getstate()
    if type(rng) is random.Random:  # the deals of mt19937 were random.shuffle's
        again = random.Random(11)
        again.shuffle(deck)
        assert deck == want


def test_mt19937_is_cpythons_generator_and_unknown_ones_are_refused() -> None:
    legacy = stream(5, LEGACY)
    assert type(legacy) is random.Random
    assert legacy.getrandbits(32) == random.Random(5).getrandbits(32)
    assert type(stream(5)) is Stream
    assert type(stream(5, WORDS)) is WordStream
    with pytest.raises(ValueError, match="unknown generator 'pcg'"):
        stream(5, "pcg")


def test_the_streams_of_replays_are_their_own() -> None:
    assert replay_stream(8, 1).getstate() == (GENERATOR, derived_key(8, 1), 0)
    assert replay_stream(8, 1, WORDS).getstate() == (WORDS, derived_key(8, 1), 0)
    keys = {derived_key(8, r) for r in range(1, 50)} | {key_of(8)}
    assert len(keys) == 50
    legacy = replay_stream(8, 1, LEGACY)
    assert legacy.getstate() == random.Random("paiqi replay 8 1").getstate()


# -- the compiled engine makes the same words ----------------------------------------------
def test_the_kernel_makes_the_words_python_makes() -> None:
    pytest.importorskip("numba")
    from paiqi_core.core import layout as L
    from paiqi_core.core.rng import below as kernel_below
    from paiqi_core.core.rng import getrandbits, randbelow, word

    for key in (0, 1234567, 2**63, MASK, key_of(99)):
        s = WordStream.from_key(key)
        assert [int(word(signed(key), t)) for t in range(300)] == [
            s.getrandbits(64) for _ in range(300)
        ]
    st = np.zeros(L.STATE, np.int64)
    st[L.KEY], st[L.GEN] = signed(key_of(31)), L.WORDS
    s = WordStream(31)
    for n in (1, 2, 3, 7, 52, 53, 158):
        assert getrandbits(st, n.bit_length()) == s.getrandbits(n.bit_length())
        assert kernel_below(st, n) == below(s, n)
        assert randbelow(st, n) == s.randrange(n)
    assert st[L.DRAWN] == s.drawn
    # paiqi's stream: halves, Lemire's method, the same indices, the same halves drawn
    st = np.zeros(L.STATE, np.int64)
    st[L.KEY] = signed(key_of(31))
    h = Stream(31)
    for n in (1, 2, 3, 7, 52, 53, 158, 3, 5, 2**31 - 1):
        assert kernel_below(st, n) == below(h, n)
        assert randbelow(st, n) == h.randrange(n)
        assert st[L.DRAWN] == h.drawn
    # a stream put in a state vector part way through a word goes on with its low half
    from paiqi_core.core.rng import resume

    if h.drawn % 2 == 0:
        h.getrandbits(32)
    resume(st, 0, h.key, h.drawn)  # an odd number of halves drawn
    assert [randbelow(st, 1000) for _ in range(9)] == [h.randrange(1000) for _ in range(9)]


def test_the_kernel_deals_every_seed_as_python_does() -> None:
    pytest.importorskip("numba")
    from paiqi_core.core import layout as L
    from paiqi_core.fast.compiled import compiled_game

    game = Game("platform", {"deck.jokers": 1})  # a door card cut, the joker cut again
    seeds = [0, 1, -1, 2**63, 2**64 + 9, 10**40, *range(2, 300)]
    played = compiled_game(game.rules).play_seeds(seeds, keep=True)
    assert played.states is not None
    for seed, st in zip(seeds, played.states, strict=True):
        state = game.new_state(seed)
        assert st[L.DEALT : L.DEALT + 4].tolist() == list(state.dealt), seed
        assert st[L.DOOR] == state.door_card, seed


# -- records and results files ---------------------------------------------------------------
def test_a_record_says_which_generator_dealt_it() -> None:
    game = Game("doujue")
    new = state_record(play_game(game, 12))
    assert new["generator"] == GENERATOR
    assert replay(new) == []
    old = state_record(play_game(game, 12, generator=LEGACY))
    assert old["generator"] == LEGACY
    assert old["hands"] != new["hands"]  # the same seed, another generator: another deal
    assert replay(old) == []
    wrong = dict(old, generator=GENERATOR)
    assert "hands: not the deal of seed 12" in replay(wrong)
    by_hand = state_record(game.new_state(hands=game.deal(3)))
    assert "generator" not in by_hand  # dealt from no seed: nothing to say


def test_records_written_before_generators_were_named_replay() -> None:
    lines = (LEGACY_DATA / "records-mt19937.jsonl").read_text().splitlines()
    assert len(lines) == 16  # 4 families, the joker's door cut, agents, the compiled engine
    for line in lines:
        record = json.loads(line)
        assert "generator" not in record and record["seed"] is not None
        assert replay(record) == [], record["profile"]
        # read as a splitmix64 deal, the hands are not the seed's
        assert replay(dict(record, generator=GENERATOR)), record["profile"]


def test_records_dealt_by_splitmix64_words_replay() -> None:
    # written by paiqi before splitmix64-lemire: the four families by both engines, the
    # joker's door cut again, a table with a rule-based player
    lines = (LEGACY_DATA / "records-splitmix64.jsonl").read_text().splitlines()
    assert len(lines) == 16
    for line in lines:
        record = json.loads(line)
        assert record["generator"] == WORDS and record["seed"] is not None
        assert replay(record) == [], record["profile"]
        assert replay(dict(record, generator=GENERATOR)), record["profile"]
    # the compiled engine deals them as they were dealt
    from paiqi_core.core import layout as L
    from paiqi_core.fast.compiled import compiled_game

    game = Game("pagat")
    seeds = [json.loads(x)["seed"] for x in lines if json.loads(x)["profile"] == "pagat"]
    played = compiled_game(game.rules).play_keys(
        np.array([signed(key_of(x)) for x in seeds]), keep=True, generator=WORDS
    )
    assert played.states is not None
    for seed, st in zip(seeds, played.states, strict=True):
        assert st[L.DEALT : L.DEALT + 4].tolist() == list(
            game.new_state(seed, generator=WORDS).dealt
        )


def _resumes_as_stored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, generator: str,
    cut: Sequence[str], *options: str,
) -> None:  # fmt: skip
    """A run stored by an earlier version (``LEGACY_DATA / name``: doujue and pagat, games
    0-99 and 100-199), cut short by the SQL of ``cut`` and resumed, has every batch it had."""
    db = tmp_path / "runs.db"
    shutil.copy(LEGACY_DATA / name, db)
    with Store.reader(db) as store:
        (info,) = store.runs()
        spec = store.spec(info.id)
    assert spec is not None and spec.generator == generator
    before = _blocks(db, info.id)
    assert len(before) == 4
    with sqlite3.connect(db) as con:  # as if the run had stopped before these batches
        for sql in cut:
            con.execute(sql)
    status = main(["compare", "--resume", info.id, "--db", str(db), "-q", *options])
    assert status == 0, capsys.readouterr().err
    after = _blocks(db, info.id)
    for key in before:
        assert decode(after[key]).as_rows() == decode(before[key]).as_rows(), key


def _blocks(db: Path, run_id: str) -> dict[tuple[str, int], bytes]:
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT profile, start, rows FROM batches WHERE run = ?", (run_id,))
        return {(p, s): bytes(b) for p, s, b in rows}


def test_a_run_dealt_by_splitmix64_words_resumes_in_the_kernel(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cut = ["DELETE FROM batches WHERE start = 100"]
    _resumes_as_stored(tmp_path, capsys, "runs-splitmix64.db", WORDS, cut, "--engine", "fast")


def test_a_run_stored_before_generators_were_named_resumes_with_its_deals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cut = ["DELETE FROM batches WHERE start = 100", "DELETE FROM seats WHERE game >= 100"]
    _resumes_as_stored(tmp_path, capsys, "runs-mt19937.db", LEGACY, cut, "--json")


def test_a_new_run_stores_its_generator(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "runs.db"
    assert main(["compare", "doujue", "pagat", "--games", "20", "--db", str(db), "-q"]) == 0
    capsys.readouterr()
    with sqlite3.connect(db) as con:
        (text,) = con.execute("SELECT spec FROM runs").fetchone()
    assert json.loads(text)["generator"] == GENERATOR
    assert RunSpec.from_json(text).generator == GENERATOR
    # a spec stored without one was dealt before generators were named
    older = {k: v for k, v in json.loads(text).items() if k != "generator"}
    assert RunSpec.from_json(json.dumps(older)).generator == LEGACY


def test_the_same_seed_deals_alike_on_every_path() -> None:
    game = Game("pagat")
    rng = Stream(77)
    deck = shuffled(game.deck, rng)
    assert [sorted(deck[s::4]) for s in range(4)] == game.deal(77)
    # the deal's stream goes on where the shuffle left it: the agents draw next
    state = game.new_state(77)
    assert state.rng is not None and state.rng.getstate() == rng.getstate()
