"""Runs: batches of games executed on local processes and stored in an SQLite file, so
that long runs survive interruption and can be queried and compared later."""

from __future__ import annotations

from paiqi_core.resources import install_hint, source_checkout

__all__ = ["install_hint", "source_checkout"]
