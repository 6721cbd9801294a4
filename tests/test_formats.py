"""Formats: every writer round-trips every real puzzle it can express; readers locate errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from kakurolab.errors import FormatError, KakuroError
from kakurolab.formats import (
    FORMATS,
    detect,
    dumps,
    embedded_solution,
    load,
    loads,
    solutions_from_text,
)

DATA = Path(__file__).parent / "data"
SAMPLES = Path(__file__).resolve().parents[1] / "kakurolab" / "data" / "samples"

DATASETS = ("pe424", "janko")
"""The shipped collections every writer is tried on: cryptic (pe424) and numeric (janko)."""
EXPRESSIBLE = {
    "kakuro": {"pe424", "janko"},
    "pe424": {"pe424"},  # letters only
    "puzzlekit": {"janko"},  # numeric clues only
    "pycsp3": {"janko"},
    "pzpr": {"janko"},
}
"""What the documented writers can express; a format not named here must write one of the
data sets, and is otherwise held to the generic round-trip rules below."""
KEEPS_IDS = {"kakuro", "puzzlekit"}  # pe424, pycsp3 and pzpr number puzzles by position
KEEPS_SOLUTIONS = {"kakuro", "puzzlekit"}


def test_registered_formats_are_documented(format_name: str) -> None:
    fmt = FORMATS[format_name]
    assert fmt.name == format_name and fmt.doc and fmt.suffixes


def test_data_sets_parse_and_validate(pe424_puzzles, janko_puzzles) -> None:
    assert [p.id for p in pe424_puzzles] == [str(i) for i in range(1, 201)]
    assert all(p.is_cryptic for p in pe424_puzzles)
    assert len(janko_puzzles) == 105
    assert not any(p.is_cryptic for p in janko_puzzles)
    assert all(embedded_solution(p) is not None for p in janko_puzzles)


def _writable(format_name: str, request) -> set[str]:
    fmt = FORMATS[format_name]
    return {
        name
        for name in DATASETS
        if not any(fmt.cannot_write(p) for p in request.getfixturevalue(f"{name}_puzzles"))
    }


def test_writers_express_the_expected_data_sets(format_name: str, request) -> None:
    writable = _writable(format_name, request)
    assert writable, f"{format_name} writes none of {', '.join(DATASETS)}"
    if format_name in EXPRESSIBLE:
        assert writable == EXPRESSIBLE[format_name]


@pytest.mark.parametrize("dataset", DATASETS)
def test_round_trip_or_refusal(dataset: str, format_name: str, request) -> None:
    """Every puzzle the writer can express round-trips (same grid; ids kept or numbered by
    position; embedded solutions all kept or all dropped); the others are refused in one
    line naming the puzzle."""
    fmt = FORMATS[format_name]
    puzzles = request.getfixturevalue(f"{dataset}_puzzles")
    refused = [p for p in puzzles if fmt.cannot_write(p)]
    for puzzle in refused[:3]:
        with pytest.raises(KakuroError, match=rf"^puzzle {puzzle.id}: the \w+ format"):
            dumps([puzzle], format_name)
    written = [p for p in puzzles if not fmt.cannot_write(p)]
    if not written:
        return
    text = dumps(written, format_name)
    assert detect(text) is fmt
    again = loads(text)  # detected, parsed and validated
    assert len(again) == len(written)
    assert [p.grid for p in again] == [p.grid for p in written]
    ids = [p.id for p in again]
    assert ids in ([p.id for p in written], [str(i) for i in range(1, len(written) + 1)])
    solutions = [embedded_solution(p) for p in again]
    assert solutions == [embedded_solution(p) for p in written] or not any(solutions)
    if format_name in KEEPS_IDS:
        assert ids == [p.id for p in written]
    if format_name in KEEPS_SOLUTIONS:
        assert solutions == [embedded_solution(p) for p in written]
        assert [p.meta.get("source") for p in again] == [p.meta.get("source") for p in written]
    assert dumps(again, format_name) == text  # writing is deterministic


def test_janko_solutions_pass_the_rule_checker(janko_puzzles) -> None:
    from kakurolab.rulebook import solution_problems

    for puzzle in janko_puzzles:
        assert solution_problems(puzzle, embedded_solution(puzzle)) == [], puzzle.id


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("tiny.kakuro", "kakuro"),
        ("tiny_puzzlekit.txt", "puzzlekit"),
        ("tiny_pycsp3.json", "pycsp3"),
    ],
)
def test_the_tiny_puzzle_reads_alike_in_every_format(name: str, fmt: str) -> None:
    reference = load(DATA / "tiny.kakuro")[0]
    assert load(DATA / name)[0].grid == reference.grid
    assert detect((DATA / name).read_text()) is FORMATS[fmt]


def test_samples_are_valid_and_agree() -> None:
    txt = load(SAMPLES / "cryptic.txt")[0]
    kak = load(SAMPLES / "cryptic.kakuro")[0]
    assert txt.grid == kak.grid and txt.id == kak.id == "1"
    assert embedded_solution(kak).answer == "2561079384"
    assert embedded_solution(load(SAMPLES / "standard.kakuro")[0]) is not None


def test_exactly_one_sniffer_accepts_each_format(format_name: str) -> None:
    samples = [load(SAMPLES / "cryptic.txt"), load(DATA / "tiny.kakuro")]
    fmt = FORMATS[format_name]
    puzzles = next(s for s in samples if not any(fmt.cannot_write(p) for p in s))
    text = dumps(puzzles, format_name)
    assert [name for name, f in FORMATS.items() if f.sniff(text)] == [format_name]


# ---------------------------------------------------------------- the kakuro format


def test_kakuro_ids_meta_comments_and_separators() -> None:
    text = (
        "; comment\n"
        "  #  3\\  4\\\n"
        "\\3   .   .\n"
        "\\4   .   .\n"
        "difficulty: easy\n"  # a header right after a grid starts the next puzzle
        "  #  3\\  4\\\n"
        "\\3   .   .\n"
        "\\4   .   .\n"
        "\n\n"
        "id: last\n"
        "\n"  # blank lines inside a header are fine
        "  #  3\\  4\\\n"
        "\\3   .   .\n"
        "\\4   .   .\n"
    )
    puzzles = loads(text, check=False)
    assert [p.id for p in puzzles] == ["1", "2", "last"]
    assert puzzles[1].meta == {"difficulty": "easy"}
    assert puzzles[0].grid == puzzles[1].grid == puzzles[2].grid


def test_kakuro_cryptic_tokens_and_compact_solution() -> None:
    text = (
        "id: c\n"
        "  #    A\\   BC\\\n"
        "\\AB    .     D\n"
        "\\C     J     .\n"
        "solution: 0123456789\n"
        "---\n"
        "-12\n"
        "-3.\n"
    )
    (puzzle,) = loads(text, check=False)
    assert puzzle.is_cryptic and dict(puzzle.shown_letters) == {(1, 2): "D", (2, 1): "J"}
    solution = embedded_solution(puzzle)
    assert dict(solution.values) == {(1, 1): 1, (1, 2): 2, (2, 1): 3}
    assert solution.answer == "0123456789"


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("  #  3\\\n\\3  x\n", 2, 5, "unknown cell 'x'"),
        ("  #  3\\\n\\3  \\\n", 2, 5, "needs a clue on one side"),
        ("  #  3\\  #\n\\3  .\n", 2, 6, "expected 3 cells like the first row, got 2"),
        ("id: a\nid: b\n#\n", 2, None, "a second 'id:' line"),
        ("id:\n#\n", 1, None, "empty id"),
        ("solution:\n", 1, None, "'solution:' must follow"),
        ("id: a\n", 1, None, "header lines without a grid"),
        ("  #  3\\\n\\3  .\nsolution: 12\n- -\n- 1\n", 3, None, "ten digits of A..J"),
        ("  #  3\\\n\\3  .\nsolution:\n- -\n", 5, None, "solution has 1 rows, the grid 2"),
        ("  #  3\\\n\\3  .\nsolution:\n- -\n- x\n", 5, 3, "unknown solution cell 'x'"),
        ("  #  3\\\n\\3  .\nsolution:\n- -\n- 1 1\n", 5, 6, "expected 2 solution cells"),
        ("id: a\n#\n\nid: a\n#\n", 4, None, "duplicate puzzle id"),
        ("  # 3\\ : x\n", 1, None, "bad header line"),
    ],
)
def test_kakuro_errors_are_located(text: str, line: int, column: int | None, message: str) -> None:
    with pytest.raises(FormatError) as info:
        FORMATS["kakuro"].parse(text, "f.kakuro")
    err = info.value
    assert (err.source, err.line, err.column) == ("f.kakuro", line, column)
    assert message in err.detail
    assert "\n" not in str(err)


# ---------------------------------------------------------------- pycsp3


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"nRows": 1, "nCols": 1}', "missing 'clues'"),
        ('{"nRows": 0, "nCols": 1, "clues": []}', "nRows must be a positive integer"),
        ('{"nRows": 2, "nCols": 1, "clues": [[{"x": 0, "y": 0}]]}', "nRows=2 rows, got 1"),
        ('{"nRows": 1, "nCols": 2, "clues": [[{"x": 0, "y": 0}]]}', "clues[0] must be a list"),
        ('{"nRows": 1, "nCols": 1, "clues": [[{"x": 0}]]}', "clues[0][0] must be an object"),
        ('{"nRows": 1, "nCols": 1, "clues": [[{"x": 0, "y": 5}]]}', "0 only appears"),
        ('{"nRows": 1, "nCols": 1, "clues": [[{"x": -2, "y": 5}]]}', "-1 or more"),
        ('{"nRows": 1, "nCols": 1, "clues": [[{"x": true, "y": 5}]]}', "must be integers"),
        ("[]", "or a list of them"),
    ],
)
def test_pycsp3_errors(text: str, message: str) -> None:
    with pytest.raises(FormatError, match=r"^d\.json") as info:
        FORMATS["pycsp3"].parse(text, "d.json")
    assert message in str(info.value)


def test_pycsp3_layout_follows_pycsp3_models() -> None:
    # x is the across sum, y the down sum, -1 no clue, {0, 0} a white cell
    (puzzle,) = load(DATA / "tiny_pycsp3.json")
    clue_cell = puzzle.grid[1][3]  # {"x": -1, "y": 9}
    assert clue_cell.down.value == 9 and clue_cell.across is None
    row_clue = puzzle.grid[2][0]  # {"x": 10, "y": -1}
    assert row_clue.across.value == 10 and row_clue.down is None
    text = dumps([puzzle, puzzle.with_id("2")], "pycsp3")
    assert [p.id for p in loads(text)] == ["1", "2"]


def test_invalid_json_is_located() -> None:
    with pytest.raises(FormatError) as info:
        FORMATS["pycsp3"].parse('{"nRows": 1,\n "nCols" 1}', "d.json")
    assert (info.value.line, info.value.column) == (2, 10)


# ---------------------------------------------------------------- solution files


@pytest.fixture(scope="module")
def tiny():
    return load(DATA / "tiny.kakuro", select=["tiny-a"])[0]


@pytest.mark.parametrize(
    "text",
    [
        (DATA / "tiny_puzzlekit_solution.txt").read_text(),
        "----\n-21-\n-352\n--97\n",
        "solution:\n- - - -\n- 2 1 -\n- 3 5 2\n- - 9 7\n",
        "; a comment\n# # # #\n# 2 1 #\n# 3 5 2\n# # 9 7\n",
        (DATA / "tiny.kakuro").read_text(),  # a puzzle file: matched by id
        dumps(load(DATA / "tiny.kakuro", select=["tiny-a"]), "puzzlekit"),
    ],
)
def test_solution_file_forms(tiny, text: str) -> None:
    found = solutions_from_text(text, [tiny], "s")
    assert found == {"tiny-a": embedded_solution(tiny)}


def test_solution_matched_by_grid_when_ids_differ(tiny) -> None:
    renamed = tiny.with_id("other")
    found = solutions_from_text((DATA / "tiny.kakuro").read_text(), [renamed], "s")
    assert found["other"] == embedded_solution(tiny)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ((SAMPLES / "standard.kakuro").read_text(), "puzzle standard has a different grid"),
        ((DATA / "tiny_pycsp3.json").read_text(), "carries no solution"),
        ("----\n-21-\n", "solution has 2 rows, the grid 4"),
    ],
)
def test_solution_file_errors(tiny, text: str, message: str) -> None:
    with pytest.raises(KakuroError, match=message):
        solutions_from_text(text, [tiny], "s")


def test_solution_file_without_the_puzzle() -> None:
    standard = load(SAMPLES / "standard.kakuro")
    with pytest.raises(KakuroError, match="no puzzle with id 'standard' or its grid"):
        solutions_from_text((DATA / "tiny.kakuro").read_text(), standard, "s")


def test_bare_solution_needs_one_puzzle() -> None:
    puzzles = load(DATA / "tiny.kakuro")
    with pytest.raises(KakuroError, match="fits one puzzle, not 2"):
        solutions_from_text("----\n-21-\n-352\n--97\n", puzzles, "s")


def test_writers_refuse_what_they_cannot_express() -> None:
    cryptic = load(SAMPLES / "cryptic.txt")
    for fmt in ("puzzlekit", "pycsp3", "pzpr"):
        assert "numeric clues only" in FORMATS[fmt].cannot_write(cryptic[0])
    standard = load(DATA / "tiny.kakuro")[0]
    assert "letters only" in FORMATS["pe424"].cannot_write(standard)
    assert FORMATS["kakuro"].cannot_write(cryptic[0]) is None


@pytest.mark.parametrize(("pid", "ok"), [("a b", True), (" a", False), ("a\nb", False)])
def test_kakuro_ids(pid: str, ok: bool) -> None:
    puzzle = load(DATA / "tiny.kakuro")[0].with_id(pid)
    if ok:
        assert loads(dumps([puzzle], "kakuro"))[0].id == pid
    else:
        with pytest.raises(KakuroError, match="one-line id"):
            dumps([puzzle], "kakuro")


def test_a_clue_cell_without_clues_is_written_as_a_block() -> None:
    from kakurolab.model import ClueCell, Puzzle

    tiny = load(DATA / "tiny.kakuro")[0]
    rows = [list(row) for row in tiny.grid]
    rows[0][0] = ClueCell()
    odd = Puzzle("odd", tuple(map(tuple, rows)))
    for fmt in ("kakuro", "puzzlekit", "pycsp3", "pzpr"):
        assert loads(dumps([odd], fmt))[0].grid == tiny.grid, fmt


def test_the_examples_in_the_format_docs_parse() -> None:
    import re

    doc = (Path(__file__).resolve().parents[1] / "docs" / "formats.md").read_text()
    blocks = re.findall(r"```(?:json)?\n(.*?)```", doc, flags=re.S)
    tiny = load(DATA / "tiny.kakuro")[0]
    parsed = {}
    for block in blocks:
        matches = [name for name, fmt in FORMATS.items() if fmt.sniff(block)]
        if block.startswith("kakuro: error") or "DJ\\" in block:
            continue  # sample error lines, and the two-row excerpt of the cryptic sample
        if matches:
            (puzzle, *_) = loads(block, check=False)
            parsed.setdefault(matches[0], []).append(puzzle)
    assert sorted(parsed) == sorted(FORMATS)
    for name, puzzles in parsed.items():
        if name != "pe424":
            assert all(p.grid == tiny.grid for p in puzzles), name
    assert parsed["pe424"][0].grid == load(SAMPLES / "cryptic.txt")[0].grid


@pytest.mark.parametrize("name", ["tiny.kakuro", "tiny_pycsp3.json", "tiny_puzzlekit.txt"])
def test_a_byte_order_mark_and_crlf_are_tolerated(tmp_path, name: str) -> None:
    text = (DATA / name).read_text()
    path = tmp_path / name
    path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    assert load(path)[0].grid == load(DATA / name)[0].grid
