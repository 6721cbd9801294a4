"""Every published puzzle, from a fresh clone: it loads with default options, solves, proves
unique and matches its published solution, on every backend; separate white areas are counted
area by area; a collection with broken puzzles loses none of its good ones.

The janko.at oddities are valid Kakuro the old loader refused: one-cell runs with a clue
(947, 986) and white cells in separate areas (977).
"""

from __future__ import annotations

import json
import re
import time
from functools import cache
from pathlib import Path

import pytest

from kakurolab import datasets
from kakurolab.backends import BACKENDS, Status, get_backend
from kakurolab.cli import main
from kakurolab.errors import FormatError
from kakurolab.formats import embedded_solution, load, loads
from kakurolab.model import Puzzle, Solution
from kakurolab.rulebook import structure_info, structure_problems
from kakurolab.uniqueness import Verdict, count, prove_unique, solve, split_components

BACKEND_NAMES = ["native", "cpsat", "pysat", "z3"]
FAST_BACKENDS = {"native", "cpsat"}
"""Backends that prove the whole janko dev set in the default suite (measured: native ~2 s,
cpsat ~25 s on 2 cores); the others run a sample by default and the whole set under -m slow."""
SAMPLE = 10
GENERATED = Path(__file__).resolve().parents[1] / "kakurolab" / "data" / "generated"


def _backend(name: str) -> str:
    assert name in BACKENDS and BACKENDS[name].available(), f"backend {name} is not installed"
    return name


@cache
def _oddities() -> list[Puzzle]:
    return load(datasets.JANKO_ODDITIES)


@cache
def _janko() -> list[Puzzle]:
    return load(datasets.JANKO_DEV)


def _janko_cases() -> list:
    """(backend, index) pairs: the whole set on the fast backends, else the SAMPLE smallest
    puzzles by default and the rest marked slow."""
    puzzles = _janko()
    smallest = set(sorted(range(len(puzzles)), key=lambda i: len(puzzles[i].whites))[:SAMPLE])
    cases = []
    for name in BACKEND_NAMES:
        for i, puzzle in enumerate(puzzles):
            marks = () if name in FAST_BACKENDS or i in smallest else (pytest.mark.slow,)
            cases.append(pytest.param(name, i, marks=marks, id=f"{name}-{puzzle.id}"))
    return cases


# ---------------------------------------------------------------- independent structure facts


def _areas(puzzle: Puzzle) -> list[int]:
    """Sizes of the white areas by flood fill over orthogonal neighbours (no networkx)."""
    whites = set(puzzle.whites)
    sizes = []
    while whites:
        stack = [whites.pop()]
        size = 0
        while stack:
            r, c = stack.pop()
            size += 1
            for cell in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if cell in whites:
                    whites.remove(cell)
                    stack.append(cell)
        sizes.append(size)
    return sizes


def test_the_oddities_are_what_the_data_note_says() -> None:
    by_number = {p.id.split("_")[0]: p for p in _oddities()}
    assert sorted(by_number) == ["947", "977", "986"]
    for puzzle in by_number.values():
        assert structure_problems(puzzle) == []
        info = structure_info(puzzle)
        one_cell = [run for run in puzzle.runs if len(run) == 1]
        assert len(info.short_runs) == len(one_cell)
        assert all(run.clue is not None for run in one_cell)  # a one-cell run carries a clue
        assert sorted(info.component_sizes) == sorted(_areas(puzzle))
        assert sum(info.component_sizes) == len(puzzle.whites)
    assert structure_info(by_number["947"]).short_runs
    assert structure_info(by_number["986"]).short_runs
    assert structure_info(by_number["977"]).components == 3
    assert structure_info(by_number["947"]).connected


# ---------------------------------------------------------------- published puzzles, every backend


@pytest.mark.parametrize("backend", BACKEND_NAMES)
@pytest.mark.parametrize("index", range(3), ids=["947", "977", "986"])
def test_oddity_is_unique_and_published(backend: str, index: int) -> None:
    puzzle = _oddities()[index]
    published = embedded_solution(puzzle)
    assert published is not None
    proof = prove_unique(puzzle, backend=_backend(backend), timeout=120)
    assert proof.verdict is Verdict.UNIQUE
    assert proof.solutions[0] == published
    assert solve(puzzle, backend=backend).solution == published


@pytest.mark.parametrize(("backend", "index"), _janko_cases())
def test_janko_dev_is_unique_and_published(backend: str, index: int) -> None:
    puzzle = _janko()[index]
    published = embedded_solution(puzzle)
    assert published is not None
    proof = prove_unique(puzzle, backend=_backend(backend), timeout=120)
    assert proof.verdict is Verdict.UNIQUE, proof.result.message
    assert proof.solutions[0] == published


def test_janko_dev_loads_whole_with_default_options() -> None:
    puzzles = _janko()
    assert len(puzzles) == 105
    assert len({p.id for p in puzzles}) == 105
    assert all(embedded_solution(p) is not None for p in puzzles)


# ---------------------------------------------------------------- separate areas


TWO_AND_THREE = "  #  3\\  3\\   #  5\\  6\\\n\\3   .   .  \\5   .   .\n\\3   .   .  \\6   .   .\n"
"""Two 2x2 areas: the left has 2 solutions (1 2 / 2 1 and its mirror), the right 3."""


def _whole_count(puzzle: Puzzle, backend: str) -> int:
    """Every grid of the puzzle as ONE formula, no splitting: the backend session itself."""
    session = get_backend(backend).open(puzzle)
    found: set[Solution] = set()
    try:
        while True:
            status, solution = session.next(60)
            if solution is None:
                assert status is Status.UNSAT
                return len(found)
            found.add(solution)
            session.block(solution)
    finally:
        session.close()


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_separate_areas_multiply(backend: str) -> None:
    (puzzle,) = loads(TWO_AND_THREE, format="kakuro")
    parts = split_components(puzzle)
    assert len(parts) == 2
    assert [_whole_count(part, _backend(backend)) for part in parts] == [2, 3]
    whole = _whole_count(puzzle, backend)
    assert whole == 6
    result = count(puzzle, None, backend=backend)
    assert (result.n_solutions, result.complete, result.stats["areas"]) == (whole, True, 2)
    assert len(set(result.solutions)) == 6
    for solution in result.solutions:
        assert set(solution.values) == set(puzzle.whites)
    cut = count(puzzle, 4, backend=backend)
    assert (cut.n_solutions, cut.complete) == (4, False)
    assert count(puzzle, 7, backend=backend).complete
    proof = prove_unique(puzzle, backend=backend)
    assert proof.verdict is Verdict.MULTIPLE
    assert proof.solutions[0] != proof.solutions[1]


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_an_unsat_area_makes_the_whole_unsat(backend: str) -> None:
    text = TWO_AND_THREE.replace("\\6   .", "\\7   .")  # right area: rows 12, columns 11
    (puzzle,) = loads(text, format="kakuro")
    assert _whole_count(puzzle, _backend(backend)) == 0
    result = count(puzzle, None, backend=backend)
    assert (result.status, result.n_solutions, result.complete) == (Status.UNSAT, 0, True)
    assert prove_unique(puzzle, backend=backend).verdict is Verdict.UNSAT


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_977_split_count_matches_the_whole_formula(backend: str) -> None:
    puzzle = next(p for p in _oddities() if p.id.startswith("977"))
    parts = split_components(puzzle)
    assert sorted(len(part.whites) for part in parts) == sorted(_areas(puzzle))
    for part in parts:
        assert structure_problems(part) == []
    assert count(puzzle, None, backend=_backend(backend)).n_solutions == 1
    assert _whole_count(puzzle, backend) == 1


def test_cryptic_puzzles_are_never_split() -> None:
    # two areas joined only by the letters: A in the left area's clue, shown in the right one
    text = "  #  3\\  4\\   #  5\\  6\\\n\\A   .   .  \\5   A   .\n\\4   .   .  \\6   .   .\n"
    (puzzle,) = loads(text, format="kakuro")
    assert puzzle.is_cryptic and structure_info(puzzle).components == 2
    assert split_components(puzzle) == [puzzle]


# ---------------------------------------------------------------- collections with broken puzzles


def _broken_pe424(tmp_path: Path, n: int = 12, broken: tuple[int, ...] = (3, 8)) -> Path:
    """The first ``n`` PE424 lines with the first clue cell of lines ``broken`` (1-based)
    turned into a block: those puzzles still parse, but a run has lost its clue."""
    lines = datasets.PE424.read_text().splitlines()[:n]
    for number in broken:
        lines[number - 1] = re.sub(r"\([^)]*\)", "X", lines[number - 1], count=1)
    path = tmp_path / "broken.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def _rows(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


@pytest.mark.parametrize("command", ["solve", "unique", "count", "euler424"])
def test_broken_puzzles_lose_no_neighbour(capsys, tmp_path, command: str) -> None:
    path = _broken_pe424(tmp_path)
    code = main([command, str(path), "--json"])
    captured = capsys.readouterr()
    assert code == 2
    rows = _rows(captured.out)
    if command == "euler424":
        *rows, total = rows
        assert (total["puzzles"], total["answered"]) == (12, 10)
    assert [row["id"] for row in rows] == [str(i) for i in range(1, 13)]
    invalid = [row for row in rows if row["status"] == "invalid"]
    assert [row["id"] for row in invalid] == ["3", "8"]
    assert all("has no clue" in row["message"] for row in invalid)
    errors = [line for line in captured.err.splitlines() if line.startswith("kakuro: error:")]
    assert errors == [f"kakuro: error: {row['message']}" for row in invalid]
    assert "invalid 2" in captured.err  # the summary counts them (stderr under --json)
    good = [row for row in rows if row["status"] != "invalid"]
    originals = {p.id: p for p in load(datasets.PE424, select=[row["id"] for row in good])}
    for row in good:
        expected = solve(originals[row["id"]], backend="cpsat").solution
        assert row["answer"] == expected.answer
    assert next(row for row in good if row["id"] == "1")["answer"] == "8426039571"  # public


def test_puzzles_that_do_not_parse_lose_no_neighbour(capsys, tmp_path) -> None:
    """A PE424 line with a bad token and one cut short are invalid rows of their own; the
    other lines solve, and the library's ``loads`` still raises the located FormatError."""
    lines = datasets.PE424.read_text().splitlines()[:6]
    lines[1] = lines[1].replace(",O,", ",Q,", 1)  # puzzle 2: an unknown cell
    lines[4] = lines[4][: len(lines[4]) // 2]  # puzzle 5: cut short
    path = tmp_path / "unparsable.txt"
    path.write_text("\n".join(lines) + "\n")
    code = main(["solve", str(path), "--json"])
    captured = capsys.readouterr()
    rows = _rows(captured.out)
    assert code == 2 and [row["id"] for row in rows] == ["1", "2", "3", "4", "5", "6"]
    bad = {row["id"]: row["message"] for row in rows if row["status"] == "invalid"}
    assert set(bad) == {"2", "5"} and "unknown cell 'Q'" in bad["2"]
    assert all(f"puzzle {pid}, line {pid}" in bad[pid] for pid in bad)
    originals = {p.id: p for p in load(datasets.PE424, select=["1", "3", "4", "6"])}
    for row in rows:
        if row["id"] in originals:
            assert row["answer"] == solve(originals[row["id"]], backend="cpsat").solution.answer
    with pytest.raises(FormatError, match="unknown cell 'Q'"):
        load(path)


def test_a_janko_entry_that_does_not_parse_loses_no_neighbour(capsys, tmp_path) -> None:
    data = json.loads(datasets.JANKO_ODDITIES.read_text())
    first = next(iter(data["data"]))
    data["data"][first]["problem"] = data["data"][first]["problem"].replace(" 0 ", " 0x ", 1)
    path = tmp_path / "oddities.json"
    path.write_text(json.dumps(data))
    code = main(["unique", str(path), "--json"])
    rows = _rows(capsys.readouterr().out)
    assert code == 2 and len(rows) == len(data["data"])
    assert [row["status"] == "invalid" for row in rows] == [r["id"] == first for r in rows]
    assert all(row["verdict"] == "unique" for row in rows if row["id"] != first)


def test_a_file_in_another_format_is_one_error(capsys) -> None:
    """When no entry parses, the file is not in that format: one line, not one per line."""
    code = main(["info", str(datasets.JANKO_ODDITIES), "--format", "pe424"])
    err = capsys.readouterr().err.splitlines()
    assert code == 2 and len(err) == 1 and err[0].startswith("kakuro: error:")


@pytest.mark.parametrize("command", ["info", "show", "grade", "explain", "check", "convert"])
def test_every_command_reports_invalid_puzzles_the_same_way(capsys, tmp_path, command) -> None:
    tiny = (Path(__file__).parent / "data" / "tiny.kakuro").read_text()
    assert "\\10   .     .     #" in tiny
    path = tmp_path / "mixed.kakuro"
    path.write_text(tiny.replace("\\10   .     .     #", "\\30   .     .     #"))
    extra = ["--to", "kakuro"] if command == "convert" else []
    code = main([command, str(path), "--json", *extra])
    captured = capsys.readouterr()
    assert code == 2
    lines = _rows(captured.out)
    assert [row["id"] for row in lines] == ["tiny-a", "tiny-b"]
    assert lines[1] == {
        "id": "tiny-b",
        "status": "invalid",
        "message": f"{path}: puzzle tiny-b: clue 30 of run r4c1 across is impossible for 2 "
        "cells (sums 3-17)",
    }
    assert lines[0].get("status") != "invalid"
    assert captured.err.count("kakuro: error:") == 1


def test_text_summary_counts_invalid_puzzles(capsys, tmp_path) -> None:
    path = _broken_pe424(tmp_path, n=5, broken=(2,))
    assert main(["info", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out.splitlines()[-1] == "5 puzzle(s), 4 valid, 1 invalid"
    assert captured.err.count("kakuro: error:") == 1
    assert main(["unique", str(path)]) == 2
    assert "5 puzzle(s): invalid 1, unique 4" in capsys.readouterr().out


# ---------------------------------------------------------------- --select ranges


def _ids(capsys, *args: str) -> list[str]:
    assert main(["info", str(datasets.PE424), "--json", *args]) == 0
    return [row["id"] for row in _rows(capsys.readouterr().out)]


def test_select_ranges_and_lists(capsys) -> None:
    assert _ids(capsys, "--select", "1-10") == [str(i) for i in range(1, 11)]
    assert _ids(capsys, "--select", "1-3,7") == ["1", "2", "3", "7"]
    assert _ids(capsys, "--select", "198-205") == ["198", "199", "200"]
    assert _ids(capsys, "--select", "5", "--select", "2-3,3") == ["5", "2", "3"]


def test_a_huge_range_is_intersected_not_expanded(capsys) -> None:
    start = time.perf_counter()
    ids = _ids(capsys, "--select", "1-100000000000")
    assert ids == [str(i) for i in range(1, 201)]
    assert time.perf_counter() - start < 30  # expanding 10^11 ids would never finish


@pytest.mark.parametrize(
    ("select", "message"),
    [
        ("10-1", "selection 10-1: the range is reversed (write 1-10)"),
        ("300-400", "no puzzle with an id in 300-400 (200 puzzles, ids 1 ... 200)"),
        ("1-3,abc", "no puzzle with id 'abc'"),
        (",", "--select needs at least one id"),
    ],
)
def test_bad_selections_are_one_line(capsys, select: str, message: str) -> None:
    assert main(["info", str(datasets.PE424), "--select", select]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith("kakuro: error: ") and message in line


# ---------------------------------------------------------------- info and check --strict


def test_info_reports_short_runs_and_areas(capsys) -> None:
    assert main(["info", str(datasets.JANKO_ODDITIES), "--json"]) == 0
    rows = {row["id"].split("_")[0]: row for row in _rows(capsys.readouterr().out)}
    for puzzle in _oddities():
        row = rows[puzzle.id.split("_")[0]]
        assert row["short_runs"] == sum(len(run) == 1 for run in puzzle.runs)
        assert sorted(row["component_sizes"]) == sorted(_areas(puzzle))
        assert row["strict"] is False
    assert rows["977"]["components"] == 3
    assert main(["info", str(datasets.JANKO_ODDITIES), "--select", "977_15x15"]) == 0
    assert "3 separate white areas (136+2+2 cells)" in capsys.readouterr().out


def test_check_strict_refuses_the_oddities_one_line_each(capsys) -> None:
    assert main(["check", str(datasets.JANKO_ODDITIES)]) == 0  # valid puzzles, right solutions
    capsys.readouterr()
    assert main(["check", str(datasets.JANKO_ODDITIES), "--strict"]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 3
    assert "947_16x16: run r3c1 across and " in errors[0] and "(strict: runs of 2-9" in errors[0]
    for line, number in zip(errors, ("947", "977", "986"), strict=True):
        assert line.startswith(f"kakuro: error: {datasets.JANKO_ODDITIES}: puzzle {number}_")
        assert "(strict: " in line


def test_check_strict_janko_dev(capsys) -> None:
    """Published standard puzzles keep the generator's promises except where they do not:
    --strict refuses exactly those the structure facts flag."""
    flagged = {p.id for p in _janko() if structure_info(p).strict_problems()}
    code = main(["check", str(datasets.JANKO_DEV), "--strict", "--json"])
    rows = _rows(capsys.readouterr().out)
    assert code == (2 if flagged else 0)
    assert {row["id"] for row in rows if row.get("status") == "invalid"} == flagged
    assert all(row["correct"] for row in rows if row.get("status") != "invalid")


SHIPPED = sorted(p.name for p in GENERATED.glob("*") if p.suffix in (".kakuro", ".txt"))


@pytest.mark.parametrize("name", SHIPPED)
def test_generated_sets_pass_strict(capsys, name: str) -> None:
    path = GENERATED / name
    for puzzle in load(path):
        info = structure_info(puzzle)
        assert info.connected and not info.short_runs
        assert _areas(puzzle) == [len(puzzle.whites)]
    assert main(["check", str(path), "--strict"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""


def test_allow_short_runs_is_a_no_op(capsys) -> None:
    path = str(datasets.JANKO_ODDITIES)
    assert main(["info", path, "--json"]) == 0
    plain = capsys.readouterr().out
    assert main(["info", path, "--json", "--allow-short-runs"]) == 0
    assert capsys.readouterr().out == plain


@pytest.mark.parametrize("command", [["hint"], ["encode", "-o", "-"], ["render", "-o", "x.svg"]])
def test_single_puzzle_commands_refuse_an_invalid_one_in_one_line(capsys, tmp_path, command):
    path = _broken_pe424(tmp_path, n=5, broken=(2,))
    assert main([command[0], str(path), "--select", "2", *command[1:]]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert re.fullmatch(
        rf"kakuro: error: {re.escape(str(path))}: puzzle 2: run at \S+ \w+ has no clue", line
    )
    assert main([command[0], str(path), "--select", "1-2", *command[1:]]) == 2
    (line,) = capsys.readouterr().err.splitlines()  # two selected: the command asks for one
    assert re.search(r"holds 2 puzzles|the input has 2", line), line
