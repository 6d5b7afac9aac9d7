"""A trained model: its weights, what it was trained for, and where it is kept.

There are two kinds, scored by the same small network: a *belief* model scores each unseen
card in each group of places (``learn.features``), a *policy* model each legal action
(``learn.move_features``). A model is one ``.npz`` file: the network's weights (``w0, b0,
w1, b1, w2, b2``: two hidden layers of ``tanh`` units and one output, the score of a row: a
card in a group, or an action), the mean and spread of every feature (``mean``,
``scale``), and a JSON ``meta`` entry: its kind, the rules' fingerprint and profile, the
feature names it reads, and what training measured. Playing needs numpy only.

Models are found by the fingerprint of the rules in play (``find(rules)``): first in the
directory named by ``PAIQI_MODELS``, then in the user's cache (``~/.cache/paiqi/models``, or
``$XDG_CACHE_HOME/paiqi/models``), then among the models that ship with paiqi.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from paiqi_core.learn.features import NAMES, Reading
from paiqi_core.learn.move_features import MOVE_NAMES

FORMAT = 1  # the file's layout; a file of another format is not read
LAYERS = ("w0", "b0", "w1", "b1", "w2", "b2")
NEVER = -1e9  # the offset of a choice that cannot be (a finite stand-in for -inf)
BELIEF, POLICY = "belief", "policy"
NAMES_OF = {BELIEF: NAMES, POLICY: MOVE_NAMES}  # the features each kind reads


class ModelError(ValueError):
    """A model file that cannot be used: unreadable, of another format, or for other rules."""


@dataclass
class BeliefModel:
    """The weights of a belief network and what it was trained for."""

    weights: dict[str, np.ndarray]
    mean: np.ndarray
    scale: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)

    def scores(self, x: np.ndarray) -> np.ndarray:
        """The learned score of every row of ``x`` (any leading shape, last axis the
        features): added to a group's offset, a softmax over groups gives where the card
        is."""
        w = self.weights
        h = (x - self.mean) / self.scale
        h = np.tanh(h @ w["w0"] + w["b0"])
        h = np.tanh(h @ w["w1"] + w["b1"])
        out: np.ndarray = (h @ w["w2"] + w["b2"])[..., 0]
        return out

    def tilt(self, reading: Reading) -> np.ndarray:
        """``(cards, groups)``: each unseen card's learned score in each group (0 where it
        cannot be)."""
        s = self.scores(reading.x)
        return np.where(np.isfinite(reading.offset), s, 0.0)

    def probabilities(self, reading: Reading, strength: float = 1.0) -> np.ndarray:
        """``(cards, groups)``: where the model says each card is, its score weighed by
        ``strength`` (0: the uniform belief's own odds, by the room of each group)."""
        return softmax(reading.offset + strength * self.tilt(reading))

    @property
    def kind(self) -> str:
        """``belief`` or ``policy``."""
        return str(self.meta.get("kind", BELIEF))

    @property
    def fingerprint(self) -> str:
        """The fingerprint of the rules it was trained for."""
        return str(self.meta.get("fingerprint", ""))

    def save(self, path: Path) -> None:
        """Write the model to ``path`` (an ``.npz`` file), creating its directory; the file
        appears whole or not at all."""
        path.parent.mkdir(parents=True, exist_ok=True)
        meta = {**self.meta, "format": FORMAT, "kind": self.kind,
                "features": list(NAMES_OF[self.kind])}  # fmt: skip
        part = path.with_name(path.name + ".part")
        with open(part, "wb") as f:
            arrays: dict[str, Any] = {
                **self.weights,
                "mean": self.mean,
                "scale": self.scale,
                "meta": np.array(json.dumps(meta)),
            }
            np.savez(f, **arrays)
        os.replace(part, path)

    @staticmethod
    def load(path: Path, kind: str = BELIEF) -> BeliefModel:
        """The model of ``kind`` in ``path``; ``ModelError`` saying why where it cannot be
        used."""
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                weights = {k: np.asarray(data[k], np.float64) for k in LAYERS}
                mean = np.asarray(data["mean"], np.float64)
                scale = np.asarray(data["scale"], np.float64)
        except (OSError, KeyError, ValueError) as e:
            raise ModelError(f"{path}: not a paiqi model ({e})") from e
        if meta.get("kind", BELIEF) != kind:
            raise ModelError(f"{path}: a {meta.get('kind', BELIEF)} model, not a {kind} model")
        if meta.get("format") != FORMAT or meta.get("features") != list(NAMES_OF[kind]):
            raise ModelError(
                f"{path}: a model of another paiqi version (format {meta.get('format')}); "
                "train it again with paiqi train"
            )
        return BeliefModel(weights, mean, scale, meta)


def softmax(logits: np.ndarray) -> np.ndarray:
    """Each row of ``logits`` as probabilities (``-inf`` a choice that cannot be)."""
    z = np.exp(logits - logits.max(axis=1, keepdims=True))
    out: np.ndarray = z / z.sum(axis=1, keepdims=True)
    return out


def shipped_dir() -> Path:
    """Where the models that ship with paiqi lie."""
    return Path(__file__).resolve().parent.parent / "_data" / "models"


def cache_dir() -> Path:
    """Where ``paiqi train`` keeps the models it makes: ``$PAIQI_MODELS``, else the user's
    cache."""
    named = os.environ.get("PAIQI_MODELS")
    if named:
        return Path(named)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "paiqi" / "models"


def file_name(fingerprint: str, kind: str = BELIEF) -> str:
    """The file name of the model of ``kind`` of the rules of ``fingerprint``."""
    return f"{kind}-{fingerprint[:16]}.npz"


def find(fingerprint: str, kind: str = BELIEF) -> Path | None:
    """The model file of ``kind`` of the rules of ``fingerprint``: in the cache
    (``cache_dir``), else among those that ship with paiqi; None where there is none."""
    name = file_name(fingerprint, kind)
    for where in (cache_dir(), shipped_dir()):
        path = where / name
        if path.is_file():
            return path
    return None


_LOADED: dict[tuple[str, str], BeliefModel | None] = {}


def model_for(fingerprint: str, kind: str = BELIEF) -> BeliefModel | None:
    """The trained model of ``kind`` of the rules of ``fingerprint`` (loaded once a
    process), or None where there is none or it cannot be used."""
    key = (fingerprint, kind)
    if key not in _LOADED:
        path = find(fingerprint, kind)
        model = None
        if path is not None:
            try:
                model = BeliefModel.load(path, kind)
            except ModelError:
                model = None
            if model is not None and model.fingerprint != fingerprint:
                model = None
        _LOADED[key] = model
    return _LOADED[key]


def forget() -> None:
    """Forget the models loaded so far (a model just trained is then found)."""
    _LOADED.clear()


def remember(fingerprint: str, model: BeliefModel | None) -> None:
    """Use ``model`` (of its kind) for the rules of ``fingerprint`` in this process (a model
    just trained, or one read from a file the search path does not name)."""
    if model is not None:
        _LOADED[(fingerprint, model.kind)] = model
