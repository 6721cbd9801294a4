"""Every ``kakuro`` subcommand takes ``--json`` and prints JSON lines in one vocabulary.

The walk covers the commands the CLI discovers, so a new command without a case here fails;
every top-level key printed must be documented in docs/json.md, ``status`` must be a
:class:`~kakurolab.backends.Status` value (or ``invalid``) and a file record's ``bytes`` must
match the file on disk.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from kakurolab import datasets
from kakurolab.backends import Status
from kakurolab.cli import command_names, main
from kakurolab.uniqueness import Verdict

ROOT = Path(__file__).resolve().parents[1]
TINY = Path(__file__).parent / "data" / "tiny.kakuro"
AMBIGUOUS = "3 3\n- 10, 10,\n,10 0 0\n,10 0 0\n"
"""A 2x2 white square with eight solutions (puzzlekit text; its id is ``1``)."""
DOC = ROOT / "docs" / "json.md"

STATUSES = {s.value for s in Status} | {"invalid"}
VERDICTS = {v.value for v in Verdict}
LEGACY = {"count", "exact", "fixed", "cells", "seconds", "time", "encode_time", "solve_time"}
"""Keys the CLI printed before the shared vocabulary (their new names are in docs/json.md)."""


def _model_file(tmp: Path, cnf: Path) -> Path:
    """A model of the DIMACS file found by PySAT, written as competition ``v`` lines."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    with Solver(name="cadical195", bootstrap_with=CNF(from_file=str(cnf)).clauses) as solver:
        assert solver.solve()
        model = solver.get_model()
    path = tmp / "model.txt"
    path.write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    return path


def _experiment(tmp: Path) -> Path:
    (tmp / "pyproject.toml").touch()
    (tmp / "experiments").mkdir(exist_ok=True)
    config = tmp / "experiments" / "j.toml"
    config.write_text(
        'name = "j"\ntimeout = 10\n[[puzzles]]\n'
        f'file = "{datasets.PE424}"\nname = "pe424"\nselect = "1"\n'
        '[[configs]]\nbackend = "native"\n'
    )
    return config


def _decode(tmp: Path) -> list[str]:
    cnf = tmp / "a.cnf"
    assert main(["encode", str(TINY), "--select", "tiny-a", "-o", str(cnf)]) == 0
    return [str(TINY), "--select", "tiny-a", str(cnf), str(_model_file(tmp, cnf))]


def _ambiguous(tmp: Path) -> str:
    path = tmp / "ambiguous.txt"
    path.write_text(AMBIGUOUS)
    return str(path)


def _report(tmp: Path) -> list[str]:
    config = _experiment(tmp)
    assert main(["experiment", "run", str(config), "--results", str(tmp / "res"),
                 "--no-progress"]) == 0  # fmt: skip
    return ["report", str(tmp / "res"), "--no-plots"]


def _play(tmp: Path) -> list[str]:
    """A move in a practice game made first (``play new``), on a store in ``tmp``."""
    from kakurolab.game import GameService

    store = str(tmp / "games.sqlite")
    assert main(["play", "new", "--size", "6x6", "--seed", "1", "--store", store]) == 0
    service = GameService(store)
    (game,) = service.games(service.local_player().token)
    return ["move", game["game_id"], "shield", "hint", "--store", store]


def _verify(tmp: Path) -> list[str]:
    certs = tmp / "certs"
    assert main(["certify", str(TINY), "--select", "tiny-a", "-o", str(certs)]) == 0
    (one,) = [path for path in certs.iterdir() if path.is_dir()]
    return [str(one)]


_BANK_BUILD = ["build", "--size", "6x6", "--difficulty", "easy", "--per-cell", "1"]


def _bank_verify(tmp: Path) -> list[str]:
    """A one-base bank to verify (the shipped one takes longer)."""
    assert main(["bank", *_BANK_BUILD, "--dir", str(tmp / "bank")]) == 0
    return ["verify", "--dir", str(tmp / "bank"), "--cpsat"]


Case = Callable[[Path], list[str] | tuple[list[str], int]]
"""Arguments, or arguments and the exit code when it is not 0."""
CASES: dict[str, list[Case]] = {
    "bench": [lambda t: ["pe424", "--subset", "1", "--config", "native", "--reference", "native"]],
    "bank": [
        lambda t: ["pick", "--size", "8x8", "--difficulty", "easy", "--seed", "1"],
        lambda t: [*_BANK_BUILD, "--dir", str(t / "bank")],
        _bank_verify,
    ],
    "certify": [lambda t: [str(TINY), "--select", "tiny-a", "-o", str(t / "certs")]],
    "check": [lambda t: [str(TINY)]],
    "combos": [lambda t: ["3", "23"], lambda t: ["2"]],
    "convert": [
        lambda t: [str(TINY), "--to", "puzzlekit", "--select", "tiny-a"],
        lambda t: [str(TINY), "--to", "kakuro", "-o", str(t / "out.kakuro")],
    ],
    "count": [
        lambda t: [str(TINY)],
        lambda t: [_ambiguous(t), "--show", "--limit", "3"],
        lambda t: [_ambiguous(t), "--exact"],
    ],
    "decode": [_decode],
    "encode": [lambda t: [str(TINY), "--select", "tiny-a", "-o", str(t / "a.cnf")]],
    "encodings": [lambda t: []],
    "euler424": [lambda t: [str(datasets.PE424), "--select", "1"]],
    "experiment": [
        lambda t: ["plan", str(_experiment(t))],
        lambda t: ["run", str(_experiment(t)), "--results", str(t / "r"), "--no-progress"],
        _report,
    ],
    "explain": [lambda t: [str(TINY)]],
    "generate": [
        lambda t: ["--size", "6x6", "--seed", "1"],
        lambda t: ["--size", "6x6", "--seed", "1", "-o", str(t / "g.kakuro")],
    ],
    "grade": [lambda t: [str(TINY), "--report", str(t / "grades.md")]],
    "hint": [lambda t: [str(TINY), "--select", "tiny-a"]],
    "info": [lambda t: [str(TINY)]],
    "play": [
        lambda t: ["new", "--size", "6x6", "--seed", "1", "--store", str(t / "games.sqlite")],
        _play,
        lambda t: ["campaign", "--store", str(t / "games.sqlite")],
        lambda t: ["link", "--store", str(t / "games.sqlite")],
        lambda t: ["devices", "--store", str(t / "games.sqlite")],
    ],
    "render": [lambda t: [str(TINY), "--select", "tiny-b", "--solution", "-o", str(t / "b.svg")]],
    "show": [lambda t: [str(TINY), "--solution"]],
    "solve": [lambda t: [str(TINY)], lambda t: [str(TINY), "--up-only", "--encoding", "table"]],
    "transform": [
        lambda t: [str(TINY), "--rotate", "90"],
        lambda t: [str(TINY), "--flip", "h", "-o", str(t / "t.kakuro")],
    ],
    "unique": [lambda t: [str(TINY)], lambda t: ([_ambiguous(t)], 1)],
    "verify": [_verify],
}
"""Arguments (without --json) of each command on a small puzzle; several cases where the
command has an output-file mode."""


def documented_keys() -> set[str]:
    """The keys in the first column of the table under docs/json.md's "## Keys"."""
    section = DOC.read_text(encoding="utf-8").split("\n## Keys\n", 1)[1].split("\n## ", 1)[0]
    cells = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
    return {key for cell in cells for key in re.findall(r"`([a-z_0-9]+)`", cell)}


def test_every_command_has_a_case() -> None:
    assert sorted(CASES) == command_names()


@pytest.mark.parametrize(
    ("command", "index"), [(c, i) for c, cases in CASES.items() for i in range(len(cases))]
)
def test_json_lines_in_the_shared_vocabulary(
    command: str, index: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = CASES[command][index](tmp_path)
    args, expected = case if isinstance(case, tuple) else (case, 0)
    argv = [command, *args, "--json"]
    capsys.readouterr()
    code = main(argv)
    out = capsys.readouterr().out
    assert code == expected, argv
    lines = out.splitlines()
    assert lines, f"{argv}: nothing on stdout"
    records = [json.loads(line) for line in lines]
    assert all(isinstance(r, dict) for r in records)
    undocumented = {key for r in records for key in r} - documented_keys()
    assert not undocumented, f"{command}: keys missing from docs/json.md: {sorted(undocumented)}"
    for record in records:
        assert not LEGACY & set(record), f"{command} prints legacy keys {LEGACY & set(record)}"
        if "status" in record:
            assert record["status"] in STATUSES
        if "verdict" in record:
            assert record["verdict"] in VERDICTS
        if "id" in record:
            assert isinstance(record["id"], str) and record["id"]
        for key, value in record.items():
            if key.endswith("_s") and value is not None:
                assert isinstance(value, int | float) and value >= 0, (key, value)
        if "output" in record and "bytes" in record:
            assert Path(record["output"]).stat().st_size == record["bytes"]


def test_documented_statuses_are_the_enum_values() -> None:
    text = DOC.read_text(encoding="utf-8")
    for status in STATUSES | VERDICTS:
        assert f"`{status}`" in text


def test_file_record_names_what_render_wrote(tmp_path: Path, capsys) -> None:
    out = tmp_path / "a.svg"
    assert main(["render", str(TINY), "--select", "tiny-a", "-o", str(out), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["output"] == str(out) and record["format"] == "svg"
    assert out.read_text().startswith("<svg") or "<svg" in out.read_text()[:200]
    assert (record["id"], record["rows"], record["cols"]) == ("tiny-a", 4, 4)
