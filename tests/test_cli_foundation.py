"""The foundation commands (show, check, combos, convert) and one-line errors on bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kakurolab.cli import main

DATA = Path(__file__).parent / "data"
SAMPLES = Path(__file__).resolve().parents[1] / "kakurolab" / "data" / "samples"
STANDARD = SAMPLES / "standard.kakuro"
CRYPTIC_TXT = SAMPLES / "cryptic.txt"
CRYPTIC = SAMPLES / "cryptic.kakuro"
TINY = DATA / "tiny.kakuro"


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def one_error_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("kakuro: error: "), err
    return lines[0]


# ---------------------------------------------------------------- corrupted copies of real data


def _pe424_lines(pe424_path: Path) -> list[str]:
    return pe424_path.read_text().splitlines()


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def corrupt_pe424_token(pe424_path, tmp_path):
    lines = _pe424_lines(pe424_path)
    column = lines[0].index(",O,") + 2
    lines[0] = lines[0].replace(",O,", ",Q,", 1)
    return _write(tmp_path, "bad.txt", "\n".join(lines)), [
        "puzzle 1, line 1",
        f"column {column}",
        "unknown cell 'Q'",
    ]


def corrupt_pe424_truncated(pe424_path, tmp_path):
    lines = _pe424_lines(pe424_path)
    lines[2] = lines[2][: len(lines[2]) // 2]
    return _write(tmp_path, "cut.txt", "\n".join(lines)), ["puzzle 3, line 3, column"]


def corrupt_pe424_cell_count(pe424_path, tmp_path):
    lines = _pe424_lines(pe424_path)
    size = int(lines[6].split(",")[0])
    lines[6] = lines[6].rsplit(",", 1)[0]
    expected = f"expected {size * size} cells for a {size}x{size} grid, got {size * size - 1}"
    return _write(tmp_path, "short.txt", "\n".join(lines)), ["puzzle 7, line 7", expected]


def corrupt_janko_token(janko_path, tmp_path):
    data = json.loads(janko_path.read_text())
    first = next(iter(data["data"]))
    problem = data["data"][first]["problem"].split("\n")
    problem[2] = problem[2].replace(" 0 ", " 0x ", 1)
    data["data"][first]["problem"] = "\n".join(problem)
    return _write(tmp_path, "bad.json", json.dumps(data)), [
        f"puzzle {first}: problem text line 3, column",
        "unknown cell '0x'",
    ]


def corrupt_janko_truncated(janko_path, tmp_path):
    text = janko_path.read_text()
    return _write(tmp_path, "cut.json", text[: len(text) // 3]), ["line", "invalid JSON"]


def corrupt_long_run(_, tmp_path):
    text = "#" + " 3\\" * 10 + "\n\\45" + " ." * 10 + "\n\\10" + " ." * 10 + "\n"
    return _write(tmp_path, "long.kakuro", text), [
        "puzzle 1: run r2c1 across has 10 cells (at most 9)"
    ]


def corrupt_impossible_clue(_, tmp_path):
    text = STANDARD.read_text().replace("\\4 ", "\\40")
    return _write(tmp_path, "impossible.kakuro", text), [
        "puzzle standard: clue 40 of run r5c2 across is impossible for 2 cells (sums 3-17)"
    ]


def corrupt_kakuro_row(_, tmp_path):
    lines = STANDARD.read_text().splitlines()
    number = next(i for i, line in enumerate(lines) if line.strip().startswith("\\17"))
    lines[number] = lines[number].rsplit(" ", 1)[0]
    return _write(tmp_path, "row.kakuro", "\n".join(lines)), [
        f"puzzle standard, line {number + 1}, column",
        "expected 5 cells like the first row, got 4",
    ]


CORRUPTIONS = {
    "pe424 bad token": ("pe424_path", corrupt_pe424_token),
    "pe424 truncated line": ("pe424_path", corrupt_pe424_truncated),
    "pe424 wrong cell count": ("pe424_path", corrupt_pe424_cell_count),
    "janko bad token": ("janko_path", corrupt_janko_token),
    "janko truncated file": ("janko_path", corrupt_janko_truncated),
    "run of 10 cells": (None, corrupt_long_run),
    "impossible clue": (None, corrupt_impossible_clue),
    "kakuro short row": (None, corrupt_kakuro_row),
}


@pytest.mark.parametrize("command", ["info", "show", "check", "convert"])
@pytest.mark.parametrize("case", sorted(CORRUPTIONS))
def test_corrupted_input_is_one_line_error(capsys, request, tmp_path, case, command) -> None:
    fixture, corrupt = CORRUPTIONS[case]
    real = request.getfixturevalue(fixture) if fixture else None
    path, fragments = corrupt(real, tmp_path)
    extra = ["--to", "kakuro"] if command == "convert" else []
    if command == "check" and fixture == "pe424_path":
        # PE424 carries no solutions: check stops at the first valid puzzle, asking for them
        fragments = ["has no embedded solution (give a SOLUTION file)"]
    code, out, err = run(capsys, command, path, *extra)
    assert code == 2
    # one error line for the broken puzzle (plus at most a summary line); in a collection
    # the other puzzles still run, so a real data set still fills stdout
    errors = [line for line in err.splitlines() if line.startswith("kakuro: error: ")]
    assert len(errors) == 1 and len(err.splitlines()) <= 2, err
    line = errors[0]
    assert line.startswith(f"kakuro: error: {path}")
    for fragment in fragments:
        assert fragment in line, line
    if real is not None and "truncated file" not in case and command != "check":
        assert out.strip(), "the valid puzzles of the collection were lost"


def test_no_traceback_from_the_console_script(pe424_path, tmp_path) -> None:
    path, fragments = corrupt_pe424_cell_count(pe424_path, tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "kakurolab", "info", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith("kakuro: error: ")]
    assert len(errors) == 1 and all(fragment in errors[0] for fragment in fragments)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["info", "missing.kakuro"], "missing.kakuro: no such file"),
        (["info", TINY, "--select", "nope"], "no puzzle with id 'nope'"),
        (["info", TINY, "--format", "pe424"], "expected the grid size"),
        (["check", CRYPTIC_TXT], "puzzle 1 has no embedded solution"),
        (["check", TINY, DATA / "tiny_puzzlekit_solution.txt"], "fits one puzzle, not 2"),
        (["convert", CRYPTIC_TXT, "--to", "puzzlekit"], "puzzle 1: the puzzlekit format holds"),
        (["convert", CRYPTIC_TXT, "--to", "pycsp3"], "numeric clues only"),
        (["combos", "10"], "LENGTH must be 1-9"),
        (["combos", "2", "18"], "2 distinct digits sum to 3-17, not 18"),
    ],
)
def test_bad_requests_are_one_line_errors(capsys, args, message) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2
    assert message in one_error_line(err)


# ---------------------------------------------------------------- check


def test_check_janko_solutions_through_the_cli(capsys, janko_path) -> None:
    ids = list(json.loads(janko_path.read_text())["data"])
    picked = [ids[0], ids[len(ids) // 2], ids[-1]]
    code, out, _ = run(capsys, "check", janko_path, *(f"--select={i}" for i in picked))
    assert code == 0
    assert out.splitlines() == [f"{i}: correct" for i in picked] + ["3 of 3 solution(s) correct"]


@pytest.mark.parametrize(
    ("puzzle", "solution"),
    [
        (STANDARD, None),
        (CRYPTIC, None),
        (CRYPTIC_TXT, CRYPTIC),
        (DATA / "tiny_puzzlekit.txt", DATA / "tiny_puzzlekit_solution.txt"),
        (DATA / "tiny_pycsp3.json", TINY),
    ],
)
def test_check_accepts_correct_solutions(capsys, puzzle, solution) -> None:
    args = ["check", puzzle] + ([solution] if solution else [])
    code, out, err = run(capsys, *args)
    assert (code, err) == (0, "")
    assert re.fullmatch(r"\S+: correct( \(answer 2561079384\))?\n", out), out


def test_check_lists_every_broken_rule(capsys, tmp_path) -> None:
    text = TINY.read_text().replace(
        "  -     2     1     -\n  -     3     5     2",  # tiny-a rows 2 and 3
        "  -     12    .     -\n  -     3     3     2",
    )
    path = _write(tmp_path, "wrong.kakuro", text)
    code, out, _ = run(capsys, "check", path)
    assert code == 1
    assert "tiny-a: " in out and "tiny-b: correct" in out
    for fragment in (
        "r2c2 holds 12, outside 1-9",
        "r2c3 is empty",
        "run r3c1 across repeats 3",
        "run r1c2 down sums to 15, not its clue 5",
    ):
        assert fragment in out
    code, out, _ = run(capsys, "check", path, "--json", "--select", "tiny-a")
    (record,) = map(json.loads, out.splitlines())
    assert record["id"] == "tiny-a" and record["correct"] is False and record["problems"]


def test_check_reports_a_letter_mismatch(capsys, tmp_path) -> None:
    lines = CRYPTIC.read_text().splitlines()
    row = lines.index("  -     6     8     -     3     2")
    lines[row] = "  -     6     9     -     3     2"  # r2c3 shows I, which is 8
    code, out, _ = run(capsys, "check", _write(tmp_path, "c.kakuro", "\n".join(lines)))
    assert code == 1
    assert "r2c3 shows I=8 but holds 9" in out


# ---------------------------------------------------------------- show, combos, convert


def test_show_draws_clue_cells(capsys) -> None:
    code, out, _ = run(capsys, "show", STANDARD)
    assert code == 0
    assert "puzzle standard: 5x5 standard" in out
    assert "  #    6\\17   .     .   17\\" in out.splitlines()


def test_show_solution_and_json(capsys) -> None:
    code, out, _ = run(capsys, "show", CRYPTIC, "--solution")
    assert code == 0 and "answer (A..J): 2561079384" in out
    assert "  \\AA   8     1     7     2     4" in out.splitlines()
    code, out, _ = run(capsys, "show", STANDARD, "--solution", "--json")
    record = json.loads(out)
    assert record["id"] == "standard" and record["solution_origin"] == "embedded"
    assert record["solution"][2] == "-5489"


def test_combos(capsys) -> None:
    code, out, _ = run(capsys, "combos", "2", "4")
    assert (code, out) == (0, "2 cells, sum  4: {1,3}\n")
    code, out, _ = run(capsys, "combos", "3")
    assert len(out.splitlines()) == 24 - 6 + 1
    assert "3 cells, sum  8: {1,2,5} {1,3,4}  (always {1})" in out.splitlines()
    code, out, _ = run(capsys, "combos", "4", "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["sum"] for r in records] == list(range(10, 31))
    assert records[0]["sets"] == [[1, 2, 3, 4]] and records[0]["n_sets"] == 1


@pytest.mark.parametrize("to", ["kakuro", "puzzlekit", "pycsp3"])
def test_convert_round_trips_a_janko_puzzle(capsys, janko_path, tmp_path, to) -> None:
    pid = next(iter(json.loads(janko_path.read_text())["data"]))
    out_path = tmp_path / f"out.{to}"
    code, out, err = run(capsys, "convert", janko_path, "--select", pid, "--to", to, "-o", out_path)
    assert (code, out, err) == (0, "", "")
    code, out, _ = run(capsys, "info", out_path, "--json")
    assert json.loads(out)["rows"] > 0
    if to != "pycsp3":  # the others carry the published solution along
        code, out, _ = run(capsys, "check", out_path)
        assert code == 0 and out == f"{pid}: correct\n"


def test_convert_to_stdout_and_json(capsys) -> None:
    code, out, _ = run(capsys, "convert", CRYPTIC, "--to", "pe424")
    assert (code, out) == (0, CRYPTIC_TXT.read_text())
    code, out, _ = run(capsys, "convert", TINY, "--to", "pycsp3", "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["id"] for r in records] == ["tiny-a", "tiny-b"]
    assert json.loads(records[0]["text"])["nRows"] == 4


@pytest.mark.parametrize(
    "args",
    [
        ["info"],
        ["show"],
        ["show", "--solution"],
        ["check"],
        ["convert", "--to", "kakuro"],
    ],
)
def test_every_puzzle_command_takes_select_and_json(capsys, args) -> None:
    code, out, _ = run(capsys, args[0], TINY, *args[1:], "--select", "tiny-b", "--json")
    assert code == 0
    (record,) = [json.loads(line) for line in out.splitlines()]
    assert record["id"] == "tiny-b"


@pytest.mark.parametrize("path", [STANDARD, CRYPTIC, TINY])
def test_samples_have_exactly_their_embedded_solution(path) -> None:
    from kakurolab.formats import embedded_solution, load
    from kakurolab.uniqueness import count

    for puzzle in load(path):
        result = count(puzzle, 2, backend="native", timeout=60)
        assert result.complete and result.solutions == [embedded_solution(puzzle)], puzzle.id


def test_show_solves_when_nothing_is_embedded(capsys) -> None:
    code, out, _ = run(capsys, "show", CRYPTIC_TXT, "--solution", "--json")
    record = json.loads(out)
    assert code == 0 and record["solution_origin"] == "native"
    assert record["answer"] == "2561079384"


def test_check_reads_cryptic_letters_off_a_bare_grid(capsys, tmp_path) -> None:
    rows = CRYPTIC.read_text().split("solution: 2561079384\n")[1]
    path = _write(tmp_path, "grid.txt", rows)
    code, out, _ = run(capsys, "check", CRYPTIC_TXT, path)
    assert (code, out) == (0, "1: correct (answer 2561079384)\n")
    wrong = _write(tmp_path, "wrong.txt", rows.replace("3     2\n", "3     3\n", 1))
    code, out, _ = run(capsys, "check", CRYPTIC_TXT, wrong, "--json")
    record = json.loads(out)
    assert code == 1 and "run r2c4 across repeats 3" in record["problems"]
