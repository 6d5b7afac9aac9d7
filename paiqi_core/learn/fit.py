"""Fitting a belief model to rows read from games (JAX and optax: ``pip install 'paiqi[learn]'``).

``fit(train, held, ...)`` minimises the cross-entropy of each row's true choice (a card's
group, or the action a strong player took) under the softmax of the choices' offsets plus
the network's scores (``BeliefModel.scores``), with Adam,
in minibatches, and reports after each pass over the rows the loss and how the model does on
the held-out rows (``measure``): the mean probability it gives the true group and how often
its likeliest group is the true one, each beside the uniform belief's own.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from queue import Empty
from typing import Any

import numpy as np

from paiqi_core.learn.data import Rows
from paiqi_core.learn.model import BELIEF, BeliefModel, softmax

HIDDEN = 32  # units in each of the two hidden layers


class MissingExtra(RuntimeError):
    """The training libraries are not installed."""


def _jax() -> tuple[Any, Any, Any]:
    try:
        import jax
        import jax.numpy as jnp
        import optax
    except ImportError as e:
        raise MissingExtra("training needs JAX and optax: pip install 'paiqi[learn]'") from e
    return jax, jnp, optax


@dataclass
class Measure:
    """How well a belief places held-out cards: the mean probability of the true group,
    the share of cards whose likeliest group is the true one, the mean log-loss."""

    p_true: float
    top: float
    loss: float


def measure(rows: Rows, logits: np.ndarray) -> Measure:
    """``Measure`` of ``logits`` ``(rows, groups)`` against the rows' labels."""
    p = softmax(logits)
    at = np.arange(len(rows))
    true = p[at, rows.label]
    return Measure(
        float(true.mean()),
        float((p.argmax(axis=1) == rows.label).mean()),
        float(-np.log(np.maximum(true, 1e-12)).mean()),
    )


def gain_over(rows: Rows, logits: np.ndarray, baseline: np.ndarray) -> tuple[float, float]:
    """How much more often the likeliest choice of ``logits`` is the rows' label than a
    choice drawn from ``baseline``'s best (its ties shared), paired row by row: the mean
    difference and its standard error."""
    at = np.arange(len(rows))
    right = (logits.argmax(axis=1) == rows.label).astype(np.float64)
    best = baseline >= baseline.max(axis=1, keepdims=True)
    shared = best[at, rows.label] / best.sum(axis=1)
    d = right - shared
    n = len(d)
    error = float(d.std(ddof=1) / np.sqrt(n)) if n > 1 else float("inf")
    return float(d.mean()) if n else 0.0, error


@dataclass
class Epoch:
    """One pass over the training rows: its mean loss, the held-out measure, the time."""

    epoch: int
    loss: float
    held: Measure
    seconds: float


def fit(
    train: Rows,
    held: Rows,
    *,
    seconds: float,
    seed: int = 0,
    epochs: int = 60,
    batch: int = 2048,
    rate: float = 3e-3,
    report: Callable[[Epoch], None] | None = None,
    kind: str = BELIEF,
) -> tuple[BeliefModel, list[Epoch]]:
    """A model of ``kind`` fitted to ``train`` for at most ``epochs`` passes or
    ``seconds``; the held-out measure after each pass (to ``report`` as it goes)."""
    if not len(train):
        raise ValueError("no rows to learn from")
    jax, jnp, optax = _jax()
    features = train.x.shape[-1]
    flat = train.x.reshape(-1, features)
    real = (train.offset > -1e8).reshape(-1)
    mean = flat[real].mean(axis=0).astype(np.float64)
    scale = flat[real].std(axis=0).astype(np.float64)
    scale[scale < 1e-6] = 1.0
    key = jax.random.PRNGKey(seed)
    k0, k1, k2 = jax.random.split(key, 3)

    def init(k: Any, n_in: int, n_out: int) -> Any:
        return jax.random.normal(k, (n_in, n_out)) * math.sqrt(1.0 / n_in)

    params = {
        "w0": init(k0, features, HIDDEN),
        "b0": jnp.zeros(HIDDEN),
        "w1": init(k1, HIDDEN, HIDDEN),
        "b1": jnp.zeros(HIDDEN),
        "w2": init(k2, HIDDEN, 1) * 0.1,
        "b2": jnp.zeros(1),
    }
    mu, sd = jnp.asarray(mean, jnp.float32), jnp.asarray(scale, jnp.float32)

    def scores(p: Any, x: Any) -> Any:
        h = jnp.tanh(((x - mu) / sd) @ p["w0"] + p["b0"])
        h = jnp.tanh(h @ p["w1"] + p["b1"])
        return (h @ p["w2"] + p["b2"])[..., 0]

    def loss_of(p: Any, x: Any, offset: Any, label: Any) -> Any:
        logits = offset + jnp.where(offset > -1e8, scores(p, x), 0.0)
        logp = jax.nn.log_softmax(logits, axis=1)
        return -jnp.take_along_axis(logp, label[:, None], axis=1).mean()

    optimiser = optax.adam(rate)
    state = optimiser.init(params)

    @jax.jit
    def step(p: Any, s: Any, x: Any, offset: Any, label: Any) -> Any:
        value, grads = jax.value_and_grad(loss_of)(p, x, offset, label)
        updates, s = optimiser.update(grads, s, p)
        return optax.apply_updates(p, updates), s, value

    @jax.jit
    def held_logits(p: Any, x: Any, offset: Any) -> Any:
        return offset + jnp.where(offset > -1e8, scores(p, x), 0.0)

    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    history: list[Epoch] = []
    n = len(train)
    for epoch in range(1, epochs + 1):
        order = rng.permutation(n)
        total, count = 0.0, 0
        for at in range(0, n - batch + 1 if n >= batch else 1, batch):
            pick = order[at : at + batch]
            params, state, value = step(
                params, state, train.x[pick], train.offset[pick], train.label[pick]
            )
            total += float(value) * len(pick)
            count += len(pick)
        logits = np.asarray(held_logits(params, held.x, held.offset), np.float64)
        done = Epoch(
            epoch, total / max(count, 1), measure(held, logits), time.perf_counter() - start
        )
        history.append(done)
        if report is not None:
            report(done)
        if done.seconds > seconds:
            break
    weights = {k: np.asarray(v, np.float64) for k, v in params.items()}
    return BeliefModel(weights, mean, scale, {"kind": kind}), history


def _fit_child(
    rows: str, held: str, out: str, queue: Any, options: dict[str, Any]
) -> None:  # pragma: no cover - runs in the child process
    """The child of ``fit_apart``: fits, writes the model to ``out``, and tells ``queue``
    each pass (``("epoch", Epoch)``), then ``("done", None)`` or ``("error", text)``."""
    try:
        model, _ = fit(
            Rows.load(Path(rows)), Rows.load(Path(held)),
            report=lambda e: queue.put(("epoch", e)), **options,
        )  # fmt: skip
        model.save(Path(out))
        queue.put(("done", None))
    except Exception as e:
        queue.put(("error", f"{type(e).__name__}: {e}"))


def fit_apart(
    train: Rows, held: Rows, *, report: Callable[[Epoch], None] | None = None,
    **options: Any,
) -> BeliefModel:  # fmt: skip
    """``fit`` in a child process that is not a fork: the fitting library starts threads,
    and a process that holds them cannot safely fork the workers of later games. The rows
    go through files; each pass is reported here as it ends."""
    import multiprocessing
    import tempfile

    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="paiqi-fit-") as folder:
        where = Path(folder)
        train.save(where / "train.npz")
        held.save(where / "held.npz")
        queue = context.Queue()
        child = context.Process(
            target=_fit_child,
            args=(str(where / "train.npz"), str(where / "held.npz"), str(where / "m.npz"),
                  queue, options),
            daemon=True,
        )  # fmt: skip
        child.start()
        try:
            while True:
                try:
                    kind, value = queue.get(timeout=1.0)
                except Empty:
                    if not child.is_alive():
                        raise RuntimeError(
                            f"the fitting process ended unexpectedly (exit {child.exitcode})"
                        ) from None
                    continue
                if kind == "epoch" and report is not None:
                    report(value)
                elif kind == "error":
                    raise RuntimeError(f"fitting failed: {value}")
                elif kind == "done":
                    break
            return BeliefModel.load(where / "m.npz", options.get("kind", BELIEF))
        finally:
            if child.is_alive():
                child.terminate()
            child.join()
