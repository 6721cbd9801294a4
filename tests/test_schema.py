"""One result vocabulary: the CLI, the experiment rows and old results files agree on keys."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import kakurolab as kl
from kakurolab import datasets
from kakurolab.commands._solving import record
from kakurolab.experiments.runner import read_rows
from kakurolab.schema import RENAMED, ResultRecord, canonical


def _result() -> tuple[kl.Puzzle, kl.Result]:
    puzzle = kl.load(datasets.JANKO_DEV)[0]
    return puzzle, kl.solve(puzzle, backend="native")


def test_cli_record_carries_the_shared_keys() -> None:
    puzzle, result = _result()
    obj = record(puzzle, str(result.status), result, result.solution)
    shared = ResultRecord.from_result(result).to_json()
    for key in ("time_s", "encode_s", "solve_s", "backend", "options", "stats"):
        assert obj[key] == shared[key], key
    assert obj["status"] == shared["status"] == "sat"


def test_result_record_fields_are_the_documented_keys() -> None:
    documented = Path(__file__).resolve().parents[1].joinpath("docs", "json.md").read_text()
    for f in dataclasses.fields(ResultRecord):
        assert f"`{f.name}`" in documented, f.name


def test_old_rows_are_read_under_the_new_names(tmp_path: Path) -> None:
    old = {
        "key": "k",
        "instance": "1",
        "config": "native",
        "hash": "h",
        "status": "sat",
        "time": 0.5,
        "encode_time": 0.1,
        "solve_time": 0.4,
        "wall_time": 0.6,
        "timeout": 5,
        "whites": 12,
    }
    path = tmp_path / "runs.jsonl"
    path.write_text(json.dumps(old) + "\n")
    (row,) = read_rows(path)
    assert not set(RENAMED) & set(row)
    assert row["time_s"] == 0.5 and row["solve_s"] == 0.4 and row["white_cells"] == 12
    assert row == canonical(old)
