"""A small grid through a real Dask ``LocalCluster`` on loopback (no dashboard, no network)."""

from __future__ import annotations

from pathlib import Path

from _registries import require_backend, require_module

from kakurolab.experiments import DaskExecutor, load_experiment, read_rows, run_experiment

distributed = require_module("distributed")  # the dask extra is part of the test extra

BACKEND = require_backend("cpsat")


def test_grid_runs_on_a_local_dask_cluster(tmp_path: Path, pe424_path: Path) -> None:
    (tmp_path / "pyproject.toml").touch()
    config = tmp_path / "dask.toml"
    config.write_text(
        f'name = "d"\ntimeout = 10\nrepetitions = 2\n'
        f'[[puzzles]]\nfile = "{pe424_path}"\nname = "pe424"\nselect = "1-4"\n'
        f'[[configs]]\nbackend = "{BACKEND}"\n'
    )
    experiment = load_experiment(config)
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        executor = DaskExecutor(cluster.scheduler_address, chunk=3)
        summary = run_experiment(experiment, executor, progress=False)
    assert summary.ran == 8 and summary.statuses["sat"] == 8
    rows = read_rows(tmp_path / "results" / "d" / "runs.jsonl")
    assert len({r["key"] for r in rows}) == 8
    assert {r["answer"] for r in rows if r["instance"] == "pe424/1"} == {"8426039571"}
    assert all(r["verified"] for r in rows)
    # Measured as locally: each run in a process of its own, with its own peak and CPU time.
    assert len({r["pid"] for r in rows}) == 8
    assert all(r["peak_rss_mb"] > 0 and r["cpu_s"] > 0 and r["base_rss_mb"] > 0 for r in rows)
