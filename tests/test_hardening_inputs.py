"""Issue 19, items 7, 10 and 14: inputs that used to cost minutes, gigabytes or a traceback.

7. Grids beyond the documented size limit are refused while parsing, in one line that gives
   the limit (a 1000x1000 grid took 9-17 s for ``info`` and 2.7 GB for ``solve``).
10. Numbers over 4,300 digits, JSON nested past the recursion limit and Unicode digits that
    ``isdigit`` accepts but ``int`` rejects (``'²'``) give one line and exit 2, in every
    format.
14. The generator says up front which sizes it cannot make (``4x9`` failed after 200
    layouts), and ``kakuro generate`` returns the size asked for, with no row or column of
    blocks only (``--size 5x5 --seed 0`` blocked a whole column).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from kakurolab import datasets
from kakurolab.cli import main
from kakurolab.errors import FormatError, KakuroError
from kakurolab.formats import load, loads
from kakurolab.formats.format import MAX_CELLS, MAX_DIGITS, MAX_JSON_CHARS, MAX_SIDE
from kakurolab.generator import generate, parse_size
from kakurolab.model import Block

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "data" / "tiny.kakuro"


def _refused(tmp_path: Path, capsys, text: str, *argv: str) -> str:
    """Run ``info`` (or ``argv``) on the text; it must exit 2 with one line on stderr."""
    path = tmp_path / "input"
    path.write_text(text)
    code = main([*(argv or ("info",)), str(path)])
    captured = capsys.readouterr()
    assert code == 2, captured
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kakuro: error:"), captured.err
    return lines[0]


# ------------------------------------------------------------------ item 7: grid size limit


def _pycsp3(nrows: int, ncols: int, rows: int | None = None) -> str:
    clues = [[{"x": -1, "y": -1}] * ncols for _ in range(nrows if rows is None else rows)]
    return json.dumps({"nRows": nrows, "nCols": ncols, "clues": clues})


HUGE = {
    "puzzlekit": lambda n, m: f"{n} {m}\n" + ("- " * m + "\n") * n,
    "kakuro": lambda n, m: ("# " * m + "\n") * n,
    "pe424": lambda n, m: f"{n}," + ",".join(["X"] * (n * n)) + "\n",
    "pycsp3": _pycsp3,
}


@pytest.mark.parametrize("fmt", sorted(HUGE))
def test_a_1000x1000_grid_is_refused_quickly_with_the_limit(tmp_path, capsys, fmt):
    # JSON is decoded whole before its size is known: the pycsp3 case gives the size only
    text = HUGE[fmt](1000, 1000) if fmt != "pycsp3" else _pycsp3(1000, 1000, rows=1)
    start = time.perf_counter()
    line = _refused(tmp_path, capsys, text, "info", "--format", fmt)
    assert time.perf_counter() - start < 8  # was 9-17 s and 0.9 GB before any answer
    assert "grid too large: 1000x1000" in line
    assert f"at most {MAX_SIDE} rows, {MAX_SIDE} columns and {MAX_CELLS:,} cells" in line


@pytest.mark.parametrize(
    ("nrows", "ncols"),
    [(MAX_SIDE + 1, 4), (4, MAX_SIDE + 1), (MAX_SIDE, MAX_CELLS // MAX_SIDE + 1)],
)
@pytest.mark.parametrize("fmt", ["puzzlekit", "kakuro", "pycsp3"])
def test_each_limit_is_enforced(nrows, ncols, fmt):
    with pytest.raises(FormatError, match="grid too large"):
        loads(HUGE[fmt](nrows, ncols), format=fmt, check=False)


@pytest.mark.parametrize("fmt", ["puzzlekit", "kakuro", "pycsp3"])
def test_grids_at_the_limit_still_parse(fmt):
    side = int(MAX_CELLS**0.5)
    (puzzle,) = loads(HUGE[fmt](side, side), format=fmt, check=False)
    assert puzzle.shape == (side, side)
    (tall,) = loads(HUGE[fmt](MAX_SIDE, MAX_CELLS // MAX_SIDE), format=fmt, check=False)
    assert tall.shape == (MAX_SIDE, MAX_CELLS // MAX_SIDE)


@pytest.mark.parametrize("fmt", [None, "pycsp3", "puzzlekit"])
def test_json_beyond_its_size_limit_is_refused_before_decoding(tmp_path, capsys, fmt):
    pad = "x" * MAX_JSON_CHARS
    text = '{"nRows": 2, "nCols": 2, "clues": [], "data": {}, "pad": "' + pad + '"}'
    argv = ("info",) if fmt is None else ("info", "--format", fmt)
    line = _refused(tmp_path, capsys, text, *argv)
    assert f"JSON too large: {len(text):,} characters (at most {MAX_JSON_CHARS:,})" in line


def test_the_largest_real_puzzle_is_within_the_limit():
    (puzzle,) = load(datasets.STRESS_LOOSE, allow_short_runs=True)
    assert puzzle.shape == (101, 31)


# ------------------------------------------------------------ item 10: parser limits

LONG = "9" * 5000
DEEP = 100_000

TOO_LONG = {
    "kakuro clue": ("kakuro", f"  #   {LONG}\\\n \\3   .  .\n"),
    "kakuro solution digit": (
        "kakuro",
        TINY.read_text().replace("  -     2     1     -", f"  -     {LONG}     1     -", 1),
    ),
    "puzzlekit header": ("puzzlekit", f"4 {LONG}\n"),
    "puzzlekit clue": ("puzzlekit", f"2 2\n- {LONG},\n,3 0\n"),
    "pe424 size": ("pe424", f"{LONG},X\n"),
    "pycsp3 size": ("pycsp3", '{"nRows": ' + LONG + ', "nCols": 2, "clues": []}'),
    "pycsp3 clue": ("pycsp3", '{"nRows": 1, "nCols": 1, "clues": [[{"x": ' + LONG + ', "y": 0}]]}'),
    "puzzlekit JSON metadata": (
        "puzzlekit",
        '{"data": {"a": {"problem": "2 2\\n- -\\n- -", "stars": ' + LONG + "}}}",
    ),
}


@pytest.mark.parametrize("case", sorted(TOO_LONG))
def test_a_5000_digit_number_says_number_too_long(tmp_path, capsys, case):
    fmt, text = TOO_LONG[case]
    for argv in (("info",), ("info", "--format", fmt)):
        line = _refused(tmp_path, capsys, text, *argv)
        assert "number too long" in line and f"at most {MAX_DIGITS}" in line, line
        assert len(line) < 300


DEEP_JSON = {
    "array": "[" * DEEP + "]" * DEEP,
    "pycsp3 clues": '{"nRows": 1, "nCols": 1, "clues": ' + "[" * DEEP + "]" * DEEP + "}",
    "puzzlekit data": '{"data": {"a": ' + '{"b": ' * DEEP + "1" + "}" * DEEP + "}}",
}


@pytest.mark.parametrize(
    ("case", "fmt"),
    [
        (case, fmt)
        for case in sorted(DEEP_JSON)
        for fmt in (None, "pycsp3", "puzzlekit")
        if not (case == "array" and fmt == "puzzlekit")  # not '{': puzzlekit's text form
    ],
)
def test_deeply_nested_json_says_nesting_too_deep(tmp_path, capsys, case, fmt):
    argv = ("info",) if fmt is None else ("info", "--format", fmt)
    line = _refused(tmp_path, capsys, DEEP_JSON[case], *argv)
    assert "nesting too deep" in line


UNICODE_DIGITS = {
    "kakuro clue": ("kakuro", "  #   ²\\\n \\3   .  .\n", "unknown cell"),
    "kakuro answer": (
        "kakuro",
        "  #   3\\  4\\\n \\3   .  .\n \\4   .  .\nsolution: ²²²²²²²²²²\n - - -\n - 1 2\n - 3 1\n",
        "ten digits",
    ),
    "kakuro solution row": (
        "kakuro",
        "  #   3\\  4\\\n \\3   .  .\n \\4   .  .\nsolution:\n - - -\n - ² 2\n - 3 1\n",
        "unknown solution cell",
    ),
    "puzzlekit header": ("puzzlekit", "4 ²\n", "ROWS COLS"),
    "puzzlekit clue": ("puzzlekit", "2 2\n- ,3\n,٣ 0\n", "not a number"),
    "puzzlekit solution": (
        "puzzlekit",
        '{"data": {"a": {"problem": "2 2\\n- -\\n- -", "solution": "2 2\\n- ²\\n- -"}}}',
        "unknown solution cell",
    ),
    "pe424 size": ("pe424", "²,X\n", "grid size"),
}


@pytest.mark.parametrize("case", sorted(UNICODE_DIGITS))
def test_unicode_digits_are_not_numbers(tmp_path, capsys, case):
    fmt, text, says = UNICODE_DIGITS[case]
    line = _refused(tmp_path, capsys, text, "info", "--format", fmt)
    assert says in line, line


def test_a_unicode_digit_in_a_solution_file_is_one_line(tmp_path, capsys):
    solution = tmp_path / "solution.txt"
    solution.write_text("4 4\n- - - -\n- ² 1 -\n- 3 5 2\n- - 9 7\n")
    code = main(["check", str(ROOT / "tests" / "data" / "tiny_puzzlekit.txt"), str(solution)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "unknown solution cell" in err


# ------------------------------------------------------------ item 14: generator sizes


@pytest.mark.parametrize("size", ["4x9", "9x4", "4x5", "5x20", "20x61", "3x3"])
def test_sizes_the_generator_cannot_make_are_refused_up_front(size, capsys):
    start = time.perf_counter()
    assert main(["generate", "--size", size]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kakuro: error: bad size") and err.count("\n") == 1
    assert time.perf_counter() - start < 3  # 4x9 used to fail after 200 layouts
    with pytest.raises(KakuroError):
        generate(*(int(d) for d in size.split("x")))


@pytest.mark.parametrize("size", ["4x4", "5x5", "5x15", "16x22", "20x60", "60x60"])
def test_sizes_that_work_are_accepted(size):
    assert parse_size(size) == tuple(int(d) for d in size.split("x"))


def _blank_lines(puzzle) -> list[str]:
    rows = [f"row {r + 1}" for r, row in enumerate(puzzle.grid) if all(sq == Block() for sq in row)]
    cols = [
        f"column {c + 1}"
        for c in range(puzzle.ncols)
        if all(puzzle.grid[r][c] == Block() for r in range(puzzle.nrows))
    ]
    return rows + cols


def test_generate_5x5_seed_0_uses_the_whole_grid(tmp_path, capsys):
    out = tmp_path / "g.kakuro"
    assert main(["generate", "--size", "5x5", "--seed", "0", "-o", str(out)]) == 0
    (puzzle,) = load(out)
    assert puzzle.shape == (5, 5)
    assert _blank_lines(puzzle) == []


@pytest.mark.parametrize(
    ("shape", "level"), [((5, 5), "normal"), ((6, 6), "easy"), ((8, 8), "hard")]
)
def test_full_frame_survives_repairs(shape, level):
    """Repairs and ``easy``'s shaping block cells; with ``full_frame`` none of them may
    empty a line (generator 1.4 made the shipped sets without it: 15 of 32 had a blank line)."""
    for seed in range(4):
        made = generate(*shape, level, seed=seed, full_frame=True)
        assert made.puzzle.shape == shape
        assert _blank_lines(made.puzzle) == [], (seed, _blank_lines(made.puzzle))


def test_cryptic_generation_uses_the_whole_grid(tmp_path):
    out = tmp_path / "c.txt"
    assert main(["generate", "--size", "7x7", "--cryptic", "--seed", "1", "-o", str(out)]) == 0
    (puzzle,) = load(out)
    assert puzzle.shape == (7, 7) and _blank_lines(puzzle) == []


@pytest.mark.parametrize("size", ["٥x٥", "9" * 5000 + "x5", "5x5x5"])
def test_bad_size_text_is_one_short_line(size):
    with pytest.raises(KakuroError, match="bad size") as info:
        parse_size(size)
    assert len(str(info.value)) < 200
