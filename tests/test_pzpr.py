"""pzpr: puzz.link / pzprjs Kakuro URLs and pzprv3 files, checked against pzprjs's own test data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kakurolab.cli import main
from kakurolab.errors import FormatError, KakuroError
from kakurolab.formats import FORMATS, detect, dumps, embedded_solution, load, loads
from kakurolab.formats.pzpr import dump_pzprv3, encode_url, is_url, parse_pzprv3, parse_url
from kakurolab.model import BLOCK, WHITE, Clue, ClueCell, Puzzle
from kakurolab.rulebook import solution_problems, structure_problems
from kakurolab.uniqueness import Verdict, prove_unique

DATA = Path(__file__).parent / "data"
SAMPLES = Path(__file__).resolve().parents[1] / "kakurolab" / "data" / "samples"

# pzprjs's test script for Kakuro (test/script/kakuro.js): its board as a URL, and the same
# board as pzprv3 files ('/' stands for a line break) with a correct answer and three wrong ones.
TEST_URL = "https://puzz.link/p?kakuro/5/5/48la0.na0lh3l0Bn.0cl.c4a3"
_BOARD = (
    "pzprv3/kakuro/5/5/0 0 12 4 0 0 /0 8,4 . . 0,10 0,0 /10 . . . . 0,10 /3 . . 3,17 . . /"
    "0 21,0 . . . . /0 0,0 12,0 . . 0,0 /"
)
CORRECT_FILE = _BOARD + ". 5 3 . . /3 4 1 2 . /1 2 . 1 2 /. 1 9 3 8 /. . 8 4 . /"
WRONG_FILES = {
    "nmDupRow": _BOARD + ". . . . . /2 . . . . /2 . . . . /. . . . . /. . . . . /",
    "nmSumRowNe": _BOARD + ". . 3 . . /3 4 1 5 . /1 2 . . . /. . . . . /. . . . . /",
    "ceNoNum": _BOARD + ". . 3 . . /3 4 1 2 . /1 2 . 1 2 /. . 9 . 8 /. . 8 4 . /",
}
# The URL that pzprjs 0.10.1 (npm 'pzpr', getURL) wrote for janko puzzle 1_10x12.
JANKO_1_BY_PZPRJS = (
    "http://pzv.jp/p.html?kakuro/11/9/D7l0glg0.a4o4Dm46regn.lb7mO3lg0.03lh7mh3lh0.aclhDmE3l4Jng"
    "Or0Em0Do..0hl0al.gfAh63Dgd63"
)


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# ---------------------------------------------------------------- pzprjs's own test board


def test_the_test_board_decodes_to_a_valid_unique_puzzle() -> None:
    puzzle = parse_url(TEST_URL, "1")
    assert puzzle.shape == (6, 6)  # 5x5 playable cells plus the clue row and column
    assert structure_problems(puzzle) == []
    assert puzzle.grid[0][:3] == (BLOCK, BLOCK, ClueCell(down=Clue(12)))
    assert puzzle.grid[1][1] == ClueCell(down=Clue(4), across=Clue(8))  # '48': down, across
    assert puzzle.grid[2][0] == ClueCell(across=Clue(10))  # a border clue from the tail 'c4a3'
    assert puzzle.grid[4][1] == ClueCell(across=Clue(21))  # 'B' is 21
    assert len(puzzle.whites) == 16
    verdict = prove_unique(puzzle, backend="native")
    assert verdict.verdict is Verdict.UNIQUE
    assert solution_problems(puzzle, verdict.solutions[0]) == []


def _today(url: str) -> str:
    """A URL as puz.link writes it today: '-' for a missing clue where older pzprjs wrote '0'
    (every '0' of a Kakuro body is a clue character: skips are k-z, blocks '.')."""
    head, _, body = url.rpartition("/")
    return f"{head}/{body.replace('0', '-')}"


def test_the_test_board_re_encodes_to_the_same_board_in_todays_form() -> None:
    modern = _today(TEST_URL)
    assert modern != TEST_URL and "0" not in modern.rpartition("/")[2]
    assert encode_url(parse_url(TEST_URL, "1")) == modern
    assert parse_url(modern, "1").grid == parse_url(TEST_URL, "1").grid


def test_a_puzz_link_url_comes_back_byte_for_byte() -> None:
    modern = _today(TEST_URL)
    assert encode_url(parse_url(modern, "1")) == modern
    assert dumps(loads(modern), "pzpr") == modern + "\n"


def test_pzprjs_correct_answer_is_the_solvers_solution() -> None:
    from_url = parse_url(TEST_URL, "1")
    from_file = parse_pzprv3(CORRECT_FILE)
    assert from_file.grid == from_url.grid
    answer = embedded_solution(from_file)
    assert answer is not None and solution_problems(from_file, answer) == []
    assert prove_unique(from_url, backend="native").solutions == [answer]


def test_the_pzprv3_writer_reproduces_pzprjs_file_exactly() -> None:
    assert dump_pzprv3(parse_pzprv3(CORRECT_FILE)) == CORRECT_FILE.replace("/", "\n")
    board_only = Puzzle("1", parse_url(TEST_URL, "1").grid)
    empty_answers = _BOARD + ". . . . . /" * 5
    assert dump_pzprv3(board_only) == empty_answers.replace("/", "\n")


@pytest.mark.parametrize("name", sorted(WRONG_FILES))
def test_unfinished_answers_are_no_solution(name: str) -> None:
    puzzle = parse_pzprv3(WRONG_FILES[name])
    assert puzzle.grid == parse_url(TEST_URL, "1").grid
    assert embedded_solution(puzzle) is None  # pzprjs saves work in progress too


def test_newer_pzprjs_no_clue_marks_read_alike() -> None:
    """Newer pzprjs writes '-' (URL) and -1 (file) where older versions write 0."""
    newer_url = TEST_URL.replace("a0.", "a-.").replace("0B", "-B").replace("0c", "-c")
    assert newer_url != TEST_URL
    assert parse_url(newer_url, "1").grid == parse_url(TEST_URL, "1").grid
    newer_file = CORRECT_FILE.replace(" 0,", " -1,").replace(",0 ", ",-1 ").replace("/0 ", "/-1 ")
    assert newer_file != CORRECT_FILE
    assert parse_pzprv3(newer_file).grid == parse_url(TEST_URL, "1").grid


def test_a_url_written_by_pzprjs_on_another_host_reads() -> None:
    janko = load(_janko_path())
    puzzle = loads(JANKO_1_BY_PZPRJS)[0]
    assert puzzle.grid == next(p for p in janko if p.id == "1_10x12").grid
    assert encode_url(puzzle).split("?")[1] == _today(JANKO_1_BY_PZPRJS).split("?")[1]


def test_the_file_tolerates_real_line_breaks_crlf_and_trailing_history() -> None:
    text = CORRECT_FILE.replace("/", "\r\n") + 'history:{\r\n "type": "pzpr"\r\n}\r\n'
    puzzle = loads(text)[0]
    assert detect(text) is FORMATS["pzpr"]
    assert puzzle.grid == parse_url(TEST_URL, "1").grid
    assert embedded_solution(puzzle) == embedded_solution(parse_pzprv3(CORRECT_FILE))


# ---------------------------------------------------------------- round trips over real data


def _janko_path() -> Path:
    from kakurolab import datasets

    return datasets.JANKO_DEV


def test_every_janko_puzzle_round_trips_through_urls(janko_puzzles) -> None:
    assert not any(FORMATS["pzpr"].cannot_write(p) for p in janko_puzzles)
    text = dumps(janko_puzzles, "pzpr")
    assert detect(text) is FORMATS["pzpr"]
    lines = text.splitlines()
    assert len(lines) == len(janko_puzzles) and all(is_url(line) for line in lines)
    again = loads(text)  # detected, parsed and validated
    assert [p.id for p in again] == [str(i) for i in range(1, len(janko_puzzles) + 1)]
    assert [p.grid for p in again] == [p.grid for p in janko_puzzles]
    assert dumps(again, "pzpr") == text


def test_every_janko_puzzle_round_trips_through_pzprv3_files(janko_puzzles) -> None:
    for puzzle in janko_puzzles:
        text = dump_pzprv3(puzzle)
        assert detect(text) is FORMATS["pzpr"]
        (again,) = loads(text)
        assert again.grid == puzzle.grid, puzzle.id
        assert embedded_solution(again) == embedded_solution(puzzle), puzzle.id
        assert dump_pzprv3(again) == text


def test_long_white_stretches_use_several_skips() -> None:
    """'z' skips at most 16 cells, so a wide board needs more than one skip in a row."""
    cols = 20
    top = (BLOCK, *[ClueCell(down=Clue(3))] * cols)
    rows = [(ClueCell(across=Clue(5)), *[WHITE] * cols) for _ in range(2)]
    puzzle = Puzzle("wide", (top, *rows))
    url = encode_url(puzzle)
    assert url.endswith("/20/2/zzr" + "3" * cols + "55")  # 16 + 16 + 8 white cells
    assert parse_url(url, "wide").grid == puzzle.grid


# ---------------------------------------------------------------- what pzpr cannot write


def _tiny() -> Puzzle:
    return load(DATA / "tiny.kakuro")[0]


def _with(puzzle: Puzzle, cell: tuple[int, int], square) -> Puzzle:
    rows = [list(row) for row in puzzle.grid]
    rows[cell[0]][cell[1]] = square
    return Puzzle(puzzle.id, tuple(map(tuple, rows)))


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda p: load(SAMPLES / "cryptic.txt")[0], "holds numeric clues only"),
        (lambda p: _with(p, (0, 1), ClueCell(down=Clue(46))), "clue 46 (pzprjs clues are 1-45)"),
        (lambda p: _with(p, (0, 1), ClueCell(down=Clue(0))), "clue 0"),
        (lambda p: _with(p, (0, 0), WHITE), "r1c1: a white cell in the first row"),
        (lambda p: _with(p, (0, 3), ClueCell(down=Clue(9))), "r1c4: a border clue without"),
        (lambda p: _with(p, (0, 1), ClueCell(across=Clue(9))), "r1c2: a border clue without"),
        (lambda p: Puzzle("1", (p.grid[0],)), "needs a clue row and column"),
    ],
)
def test_the_writer_refuses_what_pzprjs_cannot_hold(change, reason: str) -> None:
    puzzle = change(_tiny())
    refusal = FORMATS["pzpr"].cannot_write(puzzle)
    assert refusal is not None and refusal.startswith("the pzpr format") and reason in refusal
    with pytest.raises(KakuroError, match=r"^puzzle \S+: the pzpr format"):
        dumps([puzzle], "pzpr")


def test_a_clueless_clue_cell_is_written_as_a_block() -> None:
    tiny = _tiny()
    odd = _with(tiny, (3, 0), ClueCell())
    assert FORMATS["pzpr"].cannot_write(odd) is None
    assert loads(dumps([odd], "pzpr"))[0].grid == tiny.grid


# ---------------------------------------------------------------- malformed input


_GOOD = "https://puzz.link/p?kakuro/5/5/"


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("https://puzz.link/p?sudoku/4/4/abc", 21, "pzprjs puzzle 'sudoku', not 'kakuro'"),
        ("https://puzz.link/p?kakuro/5/5", 28, "expected COLS/ROWS/BODY"),
        ("https://puzz.link/p?kakuro/x/5/abc", 28, "number of columns, got 'x'"),
        ("https://puzz.link/p?kakuro/5/0/abc", 30, "number of rows, got '0'"),
        (_GOOD + "48la0.na0lh3l0Bn.0cl.c4a", 56, "ends before the clues of the border"),
        (_GOOD + "48la0.na0lh3l0Bn.0cl.c4a3X", 57, "unexpected 'X' after the clues"),
        (_GOOD + "48la0.na0lh3l0Bn.0cl", 52, "ends after 24 of the 5x5 cells"),
        (_GOOD + "48la0.na0lh3l0Bn.0czz", 51, "skips 16 white cells past the last cell"),
        (_GOOD + "4*la0.na0lh3l0Bn.0cl.c4a3", 33, "bad clue character '*'"),
        (_GOOD + "4", 32, "a clue cell needs two characters"),
    ],
)
def test_malformed_urls_give_one_located_line(text: str, column: int, message: str) -> None:
    with pytest.raises(FormatError) as info:
        loads("\n" + text, source="u.txt")  # on line 2: the id is the line number
    error = info.value
    assert (error.source, error.puzzle_id, error.line, error.column) == ("u.txt", "2", 2, column)
    assert message in error.detail and "\n" not in str(error)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("pzprv3\nsudoku\n4\n4\n", 2, "puzzle 'sudoku', not 'kakuro'"),
        ("pzprv3\nkakuro\n5\n", 4, "ends before the number of columns"),
        ("pzprv3\nkakuro\nfive\n5\n", 3, "number of rows, got 'five'"),
        (_BOARD.replace("/10 . .", "/10 .") + ". 5 /", 7, "expected 6 tokens, got 5"),
        (_BOARD.replace("3,17", "3;17"), 8, "a clue cell 'ACROSS,DOWN', got '3;17'"),
        (_BOARD.replace("0 0 12", "0 x 12"), 5, "expected a clue number, got 'x'"),
        (_BOARD.replace("/0 0 12", "/? 0 12"), 5, "expected a clue number, got '?'"),
        (_BOARD[: -len("0 0,0 12,0 . . 0,0 /")], 10, "ends before clue row 6"),
        (_BOARD + ". 5 3 . . /3 4 1 2 . /", 13, "ends before answer row 3"),
        (_BOARD + ". 5 3 . . /3 4 ? 2 . /1 2 . 1 2 /. 1 9 3 8 /. . 8 4 . /", 12, "got '?'"),
    ],
)
def test_malformed_pzprv3_files_give_one_located_line(text: str, line: int, message: str) -> None:
    with pytest.raises(FormatError) as info:
        loads(text, source="p.txt")
    assert (info.value.source, info.value.line) == ("p.txt", line)
    assert message in info.value.detail and "\n" not in str(info.value)


def test_a_collection_numbers_its_urls_by_line() -> None:
    tiny = load(DATA / "tiny.kakuro")
    text = dumps(tiny, "pzpr")
    first, second = text.splitlines()
    puzzles = loads(f"{first}\n\n  {second}  \n")
    assert [p.id for p in puzzles] == ["1", "3"]
    assert [p.grid for p in puzzles] == [p.grid for p in tiny]


# ---------------------------------------------------------------- the command line


def test_cli_converts_to_pzpr_and_back(capsys, janko_path, tmp_path) -> None:
    pid = next(iter(json.loads(janko_path.read_text())["data"]))
    urls = tmp_path / "janko.url"
    code, out, err = run(capsys, "convert", janko_path, "--select", pid, "--to", "pzpr", "-o", urls)
    assert (code, out, err) == (0, "", "")
    assert urls.read_text().startswith("https://puzz.link/p?kakuro/")
    back = tmp_path / "back.kakuro"
    code, out, err = run(capsys, "convert", urls, "--to", "kakuro", "-o", back)
    assert (code, out, err) == (0, "", "")
    original = next(p for p in load(janko_path) if p.id == pid)
    assert load(back)[0].grid == original.grid


def test_cli_takes_a_url_in_place_of_a_file(capsys) -> None:
    code, out, _ = run(capsys, "unique", TEST_URL)
    assert code == 0 and out.startswith("1: unique")
    code, out, _ = run(capsys, "convert", _today(TEST_URL), "--to", "pzpr")
    assert (code, out) == (0, _today(TEST_URL) + "\n")


def test_cli_checks_the_answer_of_a_pzprv3_file(capsys, tmp_path) -> None:
    good = tmp_path / "good.txt"
    good.write_text(CORRECT_FILE.replace("/", "\n"))
    code, out, _ = run(capsys, "check", good)
    assert (code, out) == (0, "1: correct\n")
    unfinished = tmp_path / "unfinished.txt"
    unfinished.write_text(WRONG_FILES["ceNoNum"])
    code, _, err = run(capsys, "check", unfinished)
    assert code == 2 and "has no embedded solution" in err


def test_cli_reports_a_bad_url_on_one_line(capsys) -> None:
    code, out, err = run(capsys, "solve", TEST_URL + "Q")
    assert (code, out) == (2, "")
    where = "URL, puzzle 1, line 1, column 57"
    assert err == f"kakuro: error: {where}: unexpected 'Q' after the clues of the border\n"
