"""Runs on a Dask cluster give the rows of a local run, even when a worker is killed."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from dask.distributed import Client, LocalCluster

from paiqi_core.cli import main
from paiqi_core.runs.run import run
from paiqi_core.runs.store import RunSpec, Store

SPEC = RunSpec("compare", ("doujue", "pagat"), (), (), False, 11, 160, 20, 4)


def rows(tmp_path: Path, name: str, **kwargs: object) -> list[tuple[object, ...]]:
    store = Store(tmp_path / f"{name}.db")
    run_id = store.new_run(SPEC)
    run(store, run_id, 1, **kwargs)  # type: ignore[arg-type]
    sql = "SELECT * FROM seats WHERE run = ?"
    found = sorted(r[1:] for r in store.expand(run_id).query(sql, run_id))
    assert len(found) == 2 * 160 * 4  # every row of both profiles
    return found


def test_dask_local_cluster_gives_the_same_rows(tmp_path: Path) -> None:
    assert rows(tmp_path, "dask", dask="local") == rows(tmp_path, "local")


def test_a_killed_worker_has_its_batches_redone(tmp_path: Path) -> None:
    expected = rows(tmp_path, "local")
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=None)  # fmt: skip
    client = Client(cluster)
    killed: list[int] = []

    def kill_one_worker(done: int) -> None:
        if done and not killed:
            pid = next(iter(client.run(os.getpid).values()))
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    try:
        got = rows(tmp_path, "killed", dask=cluster.scheduler_address, progress=kill_one_worker)
    finally:
        client.close()
        cluster.close()
    assert killed
    assert got == expected


def test_an_unusable_scheduler_address_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["compare", "doujue", "pagat", "--games", "4", "--db", str(tmp_path / "x.db")]
    assert main([*args, "--dask", "nope://host", "-q"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("--dask nope://host: cannot reach a Dask scheduler (unknown address")
    assert "Traceback" not in err
