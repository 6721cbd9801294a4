"""The solving commands end to end through ``kakurolab.cli.main``: text, JSON, exit codes.

Tests that take ``backend_name`` run once per registered backend (see ``conftest``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _registries import reference_for

from kakurolab.backends import BACKENDS
from kakurolab.cli import main

# 2x2 white squares (down sums over the columns, across sums over the rows)
AMBIGUOUS = "3 3\n- 10, 10,\n,10 0 0\n,10 0 0\n"  # eight grids
UNSAT = "3 3\n- 3, 5,\n,3 0 0\n,4 0 0\n"
UNIQUE = "3 3\n- 3, 4,\n,3 0 0\n,4 0 0\n"  # 21 / 13


@pytest.fixture
def write(tmp_path: Path):
    def _write(text: str, name: str = "p.txt") -> str:
        path = tmp_path / name
        path.write_text(text)
        return str(path)

    return _write


def _json_lines(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def test_solve_text_shows_grid_and_answer(pe424_path, capsys, backend_name: str) -> None:
    code = main(["solve", str(pe424_path), "--select", "1", "--backend", backend_name])
    out = capsys.readouterr().out
    assert code == 0
    assert "1: sat" in out
    assert "answer 8426039571" in out
    assert "--41--" in out  # row 2 of puzzle 1's grid
    assert "1 puzzle(s): sat 1 in" in out and f"[{backend_name}]" in out


def test_solve_json(pe424_path, capsys, backend_name: str) -> None:
    code = main(["solve", str(pe424_path), "--select", "1,2", "--backend", backend_name, "--json"])
    captured = capsys.readouterr()
    rows = _json_lines(captured.out)
    assert code == 0
    assert [r["id"] for r in rows] == ["1", "2"]
    first = rows[0]
    assert first["status"] == "sat"
    assert first["answer"] == "8426039571"
    assert first["solution"][1] == "--41--"
    assert first["backend"] == backend_name
    assert first["time_s"] >= 0 and isinstance(first["stats"], dict)
    assert "2 puzzle(s)" in captured.err  # the summary stays off stdout under --json


def test_solve_default_backend_is_native(write, capsys) -> None:
    assert main(["solve", write(UNIQUE)]) == 0
    out = capsys.readouterr().out
    assert "[native]" in out and "-21" in out and "-13" in out


def test_solve_unsat_exits_1(write, capsys, backend_name: str) -> None:
    assert main(["solve", write(UNSAT), "--backend", backend_name, "--json"]) == 1
    (row,) = _json_lines(capsys.readouterr().out)
    assert row["status"] == "unsat" and row["solution"] is None
    assert "answer" not in row  # standard puzzles have no letters


def _no_time(command: str, pe424_path) -> list[str]:
    """PE424 puzzle 1 on CP-SAT with no time at all: the run ends unknown."""
    return [command, str(pe424_path), "--select", "1", "--backend", "cpsat", "--option",
            "max_time_in_seconds=0", "--json"]  # fmt: skip


def test_solve_timeout_exits_1(pe424_path, capsys) -> None:
    code = main(_no_time("solve", pe424_path))
    assert code == 1
    (row,) = _json_lines(capsys.readouterr().out)
    assert row["status"] == "unknown" and row["answer"] is None


def test_unique_verdicts(write, capsys, backend_name: str) -> None:
    assert main(["unique", write(UNIQUE), "--backend", backend_name]) == 0
    assert "unique" in capsys.readouterr().out
    assert main(["unique", write(UNSAT), "--backend", backend_name]) == 1
    assert ": unsat" in capsys.readouterr().out


def test_unique_multiple_names_differing_cells(write, capsys, backend_name: str) -> None:
    assert main(["unique", write(AMBIGUOUS), "--backend", backend_name]) == 1
    out = capsys.readouterr().out
    assert ": multiple" in out and "solutions differ at r2c2" in out
    assert main(["unique", write(AMBIGUOUS), "--backend", backend_name, "--json"]) == 1
    (row,) = _json_lines(capsys.readouterr().out)
    assert (row["status"], row["verdict"], row["n_solutions"]) == ("sat", "multiple", 2)
    assert row["differences"] == ["r2c2", "r2c3", "r3c2", "r3c3"]
    first, second = row["solutions"]
    assert first != second


def test_unique_pe424_json(pe424_path, capsys) -> None:
    assert (
        main(["unique", str(pe424_path), "--select", "1,2,3", "--backend", "cpsat", "--json"]) == 0
    )
    rows = _json_lines(capsys.readouterr().out)
    assert [(r["status"], r["verdict"]) for r in rows] == [("sat", "unique")] * 3
    assert rows[0]["answer"] == "8426039571"


@pytest.mark.parametrize(
    ("limit", "expected", "status"),
    [
        (["--limit", "3"], "at least 3 solutions (stopped at --limit 3)", "multiple"),
        (["--limit", "0"], "8 solutions (exact)", "multiple"),
        (["--all"], "8 solutions (exact)", "multiple"),
    ],
)
def test_count(write, capsys, backend_name: str, limit, expected: str, status: str) -> None:
    assert main(["count", write(AMBIGUOUS), "--backend", backend_name, *limit]) == 0
    assert expected in capsys.readouterr().out
    assert main(["count", write(AMBIGUOUS), "--backend", backend_name, *limit, "--json"]) == 0
    (row,) = _json_lines(capsys.readouterr().out)
    assert (row["status"], row["verdict"]) == ("sat", status)
    assert row["n_solutions"] == (3 if limit == ["--limit", "3"] else 8)
    assert row["complete"] is (limit != ["--limit", "3"])


@pytest.mark.parametrize(
    ("text", "status", "verdict", "n"), [(UNIQUE, "sat", "unique", 1), (UNSAT, "unsat", "unsat", 0)]
)
def test_count_exact_statuses(write, capsys, text: str, status: str, verdict: str, n: int) -> None:
    # 0 solutions is unsat, and unsat exits 1 on every command (issue 29's exit-code rule)
    assert main(["count", write(text), "--backend", "cpsat", "--json"]) == (n == 0)
    (row,) = _json_lines(capsys.readouterr().out)
    assert (row["status"], row["verdict"], row["n_solutions"], row["complete"]) == (
        status,
        verdict,
        n,
        True,
    )


def test_euler424_answers_match_the_reference(pe424_path, capsys, backend_name: str) -> None:
    """The first three answers and their sum, as an independent backend finds them."""
    args = ["euler424", str(pe424_path), "--select", "1,2,3", "--json"]
    assert main([*args, "--backend", reference_for(backend_name)]) == 0
    reference = _json_lines(capsys.readouterr().out)
    assert main([*args, "--backend", backend_name]) == 0
    rows = _json_lines(capsys.readouterr().out)
    assert [r.get("answer") for r in rows] == [r.get("answer") for r in reference]
    assert rows[0]["answer"] == "8426039571"
    assert rows[-1]["answer_sum"] == sum(int(r["answer"]) for r in rows[:-1])


def test_euler424_first_ten(pe424_path, capsys) -> None:
    ids = ",".join(str(i) for i in range(1, 11))
    assert main(["euler424", str(pe424_path), "--select", ids]) == 0
    out = capsys.readouterr().out
    assert "1: 8426039571" in out
    assert "sum: 64414157580" in out


def test_euler424_json(pe424_path, capsys) -> None:
    ids = ",".join(str(i) for i in range(1, 11))
    assert main(["euler424", str(pe424_path), "--select", ids, "--backend", "cpsat", "--json"]) == 0
    rows = _json_lines(capsys.readouterr().out)
    assert len(rows) == 11
    assert rows[0]["answer"] == "8426039571"
    assert rows[-1]["answer_sum"] == 64414157580 and rows[-1]["puzzles"] == 10


def test_euler424_refuses_standard_puzzles(write, capsys) -> None:
    assert main(["euler424", write(UNIQUE), "--backend", "cpsat"]) == 2
    assert "is not cryptic" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--backend", "nosuch"], "unknown backend 'nosuch'; known: "),
        (["--backend", "cpsat", "--option", "bogus=1"], "does not take option 'bogus'"),
        (["--backend", "cpsat", "--encoding", "direct"], "does not take option 'encoding'"),
        (["--backend", "cpsat", "--solver", "cadical195"], "does not take option 'solver'"),
        (["--backend", "cpsat", "--option", "novalue"], "--option expects KEY=VALUE"),
        (["--backend", "cpsat", "--timeout", "-1"], "--timeout must be positive"),
    ],
)
@pytest.mark.parametrize("command", ["solve", "unique", "count", "euler424"])
def test_bad_backend_arguments_are_one_line_errors(
    pe424_path, capsys, command: str, extra: list[str], message: str
) -> None:
    code = main([command, str(pe424_path), "--select", "1", *extra])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("kakuro: error: ") and message in err
    assert err.count("\n") == 1


def test_every_backend_refuses_unknown_options_in_one_line(
    pe424_path, capsys, backend_name: str
) -> None:
    """``--option`` always; ``--encoding``/``--solver`` unless the backend declares them."""
    accepted = BACKENDS[backend_name].accepted_options
    cases = [(["--option", "bogus=1"], "bogus")]
    cases += [([f"--{key}", "x"], key) for key in ("encoding", "solver") if key not in accepted]
    for extra, key in cases:
        code = main(["solve", str(pe424_path), "--select", "1", "--backend", backend_name, *extra])
        err = capsys.readouterr().err
        assert code == 2, extra
        assert err.startswith("kakuro: error: ") and err.count("\n") == 1
        assert f"backend '{backend_name}' does not take option '{key}'" in err


@pytest.mark.parametrize("command", ["solve", "unique", "count"])
def test_every_backend_times_out_to_unknown(pe424_path, capsys, backend_name: str, command: str):
    code = main(
        [
            command,
            str(pe424_path),
            "--select",
            "100",
            "--backend",
            backend_name,
            "--timeout",
            "0.000001",
            "--json",
        ]
    )
    (row,) = _json_lines(capsys.readouterr().out)
    assert (code, row["status"]) == (1, "unknown")
    assert row["backend"] == backend_name


def test_count_rejects_negative_limit(write, capsys) -> None:
    assert main(["count", write(UNIQUE), "--backend", "cpsat", "--limit", "-1"]) == 2
    assert "--limit must be 0" in capsys.readouterr().err


def test_help_documents_exit_codes(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    assert "exit status: 0" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["unique", "count"])
def test_time_limit_reached_exits_1(pe424_path, capsys, command: str) -> None:
    code = main(_no_time(command, pe424_path))
    (row,) = _json_lines(capsys.readouterr().out)
    assert (code, row["status"], row["verdict"]) == (1, "unknown", "unknown")


def test_multi_puzzle_summary_counts_statuses(write, capsys) -> None:
    files = [write(UNIQUE, "a.txt"), write(UNSAT, "b.txt"), write(AMBIGUOUS, "c.txt")]
    assert main(["unique", *files, "--backend", "cpsat"]) == 1
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("3 puzzle(s): multiple 1, unique 1, unsat 1 in ")
