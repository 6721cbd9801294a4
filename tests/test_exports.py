"""Exports to the other modelling tools, solved in those tools: XCSP3 by ACE (bundled with
pycsp3, run on Java), MiniZinc ``.mzn`` and ``.dzn`` by Debian's ``minizinc`` (Gecode).  Each
tool's grid must equal the native backend's, and each tool must find no second grid; the
MiniZinc benchmarks' own ``.dzn`` files (data/) import as the same unique puzzles.

The tools are part of the test environment (``.ci/run`` installs minizinc and a Java runtime
when missing; pycsp3 is in the test extra), so a missing one fails rather than skips.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from functools import cache
from pathlib import Path

import pytest

import kakurolab as kl
from kakurolab import datasets
from kakurolab.errors import FormatError, KakuroError
from kakurolab.formats import FORMATS, detect, dumps, load, loads, solutions_from_text
from kakurolab.formats.cpmodels import CP_MODELS, letter_tuples, run_tuples
from kakurolab.formats.format import MAX_CELLS
from kakurolab.formats.minizinc import MODEL
from kakurolab.model import LETTERS, Puzzle, Solution

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "data" / "tiny.kakuro"
BENCHMARK_DZN = [
    datasets.DATA_DIR / "minizinc_kakuro_6_6_easy.dzn",  # classic layout (h, w, [| |] clues)
    datasets.DATA_DIR / "minizinc_kakuro_8_8_super.dzn",  # records (row:, col:, len:, sum:)
]
TIMEOUT = 120
MODELS = list(CP_MODELS)
"""Every CP model the mzn and xcsp3 writers offer (``--model``), each a test item."""
AMBIGUOUS = """\
id: two-ways
  #    3\\   3\\
  \\3    .    .
  \\3    .    .
"""
"""A 2x2 square of 1s and 2s: exactly two grids, the second the first mirrored."""


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not on PATH (.ci/run installs it)")
    return path


@cache
def _puzzles() -> tuple[Puzzle, ...]:
    """The tiny puzzle, the three smallest janko.at puzzles and the benchmarks' two."""
    janko = sorted(load(datasets.JANKO_DEV), key=lambda p: len(p.whites))[:3]
    benchmarks = [load(path)[0].with_id(path.stem) for path in BENCHMARK_DZN]
    return (load(TINY)[0], *janko, *benchmarks)


def _ids() -> list[str]:
    return [p.id for p in _puzzles()]


def _native(puzzle: Puzzle) -> Solution:
    verdict = kl.prove_unique(puzzle, backend="native")
    assert verdict.verdict is kl.Verdict.UNIQUE, puzzle.id
    return verdict.solutions[0]


# ---------------------------------------------------------------- XCSP3 / ACE


def _ace_jar() -> Path:
    from importlib.util import find_spec

    spec = find_spec("pycsp3")  # not imported: importing pycsp3 compiles a model at exit
    if spec is None or not spec.submodule_search_locations:
        pytest.fail("pycsp3 is not installed: pip install 'kakurolab[test]'")
    home = Path(next(iter(spec.submodule_search_locations)))
    jars = sorted((home / "solvers" / "ace").glob("ACE-*.jar"))
    assert jars, "pycsp3 ships no ACE jar"
    return jars[-1]


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _ace_solutions(xml: Path, puzzle: Puzzle, limit: int = 2) -> tuple[list[Solution], bool]:
    """Every solution ACE finds (at most ``limit``) and whether it explored the whole space
    (``-xe``: a ``v`` line for each solution; without it ACE prints the last one only)."""
    run = subprocess.run(
        [_tool("java"), "-jar", str(_ace_jar()), str(xml), f"-s={limit}", "-xe"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    out = _ANSI.sub("", run.stdout)
    solutions = []
    for values in re.findall(r"<values>(.*?)</values>", out):
        flat: list[str] = []
        for word in values.split():
            star = re.fullmatch(r"\*x(\d+)", word)
            flat += ["*"] * int(star.group(1)) if star else [word]
        cells = puzzle.nrows * puzzle.ncols
        assert len(flat) == cells + (10 if puzzle.is_cryptic else 0), out[-500:]
        grid = {(i // puzzle.ncols, i % puzzle.ncols): v for i, v in enumerate(flat[:cells])}
        letters = dict(zip(LETTERS, map(int, flat[cells:]), strict=False))
        solutions.append(Solution({cell: int(grid[cell]) for cell in puzzle.whites}, letters))
    return solutions, "d COMPLETE EXPLORATION" in out


def _ace_cases() -> list[object]:
    """Each puzzle in each model; ACE (a Java start each) takes 3-8 s on the table model of a
    real puzzle on a loaded machine, so those are ``slow`` and the tiny one stays fast."""
    return [
        pytest.param(index, model, id=f"{pid}-{model}",
                     marks=[pytest.mark.slow] if model != "sum" and index else [])
        for index, pid in enumerate(_ids())
        for model in MODELS
    ]


@pytest.mark.parametrize(("index", "model"), _ace_cases())
def test_ace_solves_the_xcsp3_export(index: int, model: str, tmp_path: Path) -> None:
    puzzle = _puzzles()[index]
    xml = tmp_path / "p.xml"
    xml.write_text(dumps([puzzle], "xcsp3", model=model))
    assert loads(xml.read_text())[0].grid == puzzle.grid
    solutions, complete = _ace_solutions(xml, puzzle)
    assert solutions == [_native(puzzle)] and complete  # one grid, ours, and no other


# ---------------------------------------------------------------- MiniZinc


def _minizinc(*files: Path) -> tuple[list[str], bool]:
    """Each solution's printed text, and whether MiniZinc proved there are no more."""
    run = subprocess.run(
        [_tool("minizinc"), "--solver", "gecode", "--all-solutions", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert run.returncode == 0, run.stderr[-500:]
    body, _, tail = run.stdout.partition("==========")
    parts = [part.strip() for part in body.split("----------") if part.strip()]
    return parts, tail is not None and "==========" in run.stdout


def _rows(text: str, puzzle: Puzzle) -> Solution:
    return solutions_from_text(text + "\n", [puzzle], "minizinc")[puzzle.id]


@pytest.mark.parametrize("cp_model", MODELS)
@pytest.mark.parametrize("index", range(6), ids=_ids())
def test_minizinc_solves_the_mzn_export(index: int, cp_model: str, tmp_path: Path) -> None:
    puzzle = _puzzles()[index]
    model = tmp_path / "p.mzn"
    model.write_text(dumps([puzzle], "mzn", model=cp_model))
    assert loads(model.read_text())[0].grid == puzzle.grid
    printed, complete = _minizinc(model)
    assert complete and len(printed) == 1, printed
    assert _rows(printed[0], puzzle) == _native(puzzle)


@pytest.mark.parametrize("index", [0, 4], ids=["tiny", "benchmark-classic"])
def test_minizinc_solves_the_dzn_export_with_the_model(index: int, tmp_path: Path) -> None:
    """The .dzn alone, with the model kakurolab writes into .mzn files."""
    puzzle = _puzzles()[index]
    (tmp_path / "model.mzn").write_text(MODEL)
    (tmp_path / "p.dzn").write_text(dumps([puzzle], "dzn"))
    printed, complete = _minizinc(tmp_path / "model.mzn", tmp_path / "p.dzn")
    assert complete and len(printed) == 1
    assert _rows(printed[0], puzzle) == _native(puzzle)


def test_the_benchmark_file_itself_runs_with_the_model(tmp_path: Path) -> None:
    """The MiniZinc benchmarks' classic .dzn, unchanged, is data for our model too."""
    (tmp_path / "model.mzn").write_text(MODEL)
    printed, complete = _minizinc(tmp_path / "model.mzn", BENCHMARK_DZN[0])
    puzzle = load(BENCHMARK_DZN[0])[0]
    assert complete and len(printed) == 1
    assert _rows(printed[0], puzzle) == _native(puzzle)


# ---------------------------------------------------------------- both models, two grids


def _count_two(puzzle: Puzzle) -> list[Solution]:
    """The built-in backends' grids of the ambiguous puzzle: exactly two, by both."""
    found = {
        backend: kl.count(puzzle, backend=backend, limit=10)
        for backend in ("native", "cpsat")
    }
    for result in found.values():
        assert result.complete and result.n_solutions == 2
    native = sorted(found["native"].solutions, key=lambda s: sorted(s.values.items()))
    assert native == sorted(found["cpsat"].solutions, key=lambda s: sorted(s.values.items()))
    return native


def _ordered(solutions: list[Solution]) -> list[Solution]:
    return sorted(solutions, key=lambda s: sorted(s.values.items()))


@pytest.mark.parametrize("cp_model", MODELS)
def test_minizinc_counts_two_grids_of_an_ambiguous_puzzle(cp_model: str, tmp_path: Path) -> None:
    (puzzle,) = loads(AMBIGUOUS)
    model = tmp_path / "p.mzn"
    model.write_text(dumps([puzzle], "mzn", model=cp_model))
    printed, complete = _minizinc(model)  # --all-solutions: the whole space
    assert complete and len(printed) == 2
    assert _ordered([_rows(text, puzzle) for text in printed]) == _count_two(puzzle)


@pytest.mark.parametrize("model", MODELS)
def test_ace_counts_two_grids_of_an_ambiguous_puzzle(model: str, tmp_path: Path) -> None:
    (puzzle,) = loads(AMBIGUOUS)
    xml = tmp_path / "p.xml"
    xml.write_text(dumps([puzzle], "xcsp3", model=model))
    solutions, complete = _ace_solutions(xml, puzzle, limit=3)
    assert complete and _ordered(solutions) == _count_two(puzzle)


def test_the_table_model_states_each_clue_once_with_every_permutation() -> None:
    """The tiny puzzle's table export: its 3-cell 10 clue is the 24 orderings of {1,2,7},
    {1,3,6}, {1,4,5} and {2,3,5}; a table shared by two runs is one <group> with two <args>."""
    tuples = run_tuples(3, 10)
    assert len(tuples) == 4 * 6 and len(set(tuples)) == 24
    assert all(sum(t) == 10 and len(set(t)) == 3 for t in tuples)
    assert len(run_tuples(9, 45)) == 362_880 and run_tuples(2, 2) == ()
    assert all(t[-2] > 0 and 10 * t[-2] + t[-1] == sum(t[:-2]) for t in letter_tuples(3, "XY"))
    assert {sum(t[:-1]) for t in letter_tuples(3, "XX")} == {11, 22}  # AA is 11A
    (puzzle,) = loads(AMBIGUOUS)  # four runs, all "2 cells, 3": one table, four lists
    xml = dumps([puzzle], "xcsp3", model="table")
    assert xml.count("<supports>") == 1 and xml.count("<args>") == 4
    mzn = dumps([puzzle], "mzn", model="table")
    assert mzn.count("array2d(") == 1 and mzn.count("constraint table(") == 4


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.replace("(1,2)(2,1)", "(1,2)"), "not the tuples of a 2-cell run's clue 3"),
        (lambda t: t.replace("(1,2)(2,1)", "(1,2)(2,1)(3,0)"), "not the tuples"),
        (lambda t: t.replace("(1,2)(2,1)", ""), "tuples \\(d,d,...\\) of numbers, at least one"),
        (lambda t: t.replace("(1,2)(2,1)", "(1,2)x(2,1)"), "tuples \\(d,d,...\\)"),
    ],
)
def test_a_table_that_is_not_a_run_is_refused(change: object, message: str) -> None:
    """The reader takes a table only when it is exactly a clue's tuples: a table missing one
    ordering says less than a Kakuro run, and reading it as one would be a wrong puzzle."""
    assert callable(change)
    (puzzle,) = loads(AMBIGUOUS)
    xml = dumps([puzzle], "xcsp3", model="table")
    with pytest.raises(FormatError, match=message):
        loads(change(xml), format="xcsp3")


@pytest.mark.parametrize("fmt", ["dzn", "kakuro", "pzpr"])
def test_a_model_is_refused_by_formats_without_constraints(fmt: str) -> None:
    (puzzle,) = loads(AMBIGUOUS)
    with pytest.raises(KakuroError, match=f"the {fmt} format cannot write the table model"):
        dumps([puzzle], fmt, model="table")
    with pytest.raises(KakuroError, match="unknown model 'nosuch'; known: sum, table"):
        dumps([puzzle], "mzn", model="nosuch")


def test_the_formats_with_a_model_choice_offer_every_model() -> None:
    assert {name for name, fmt in FORMATS.items() if fmt.models} == {"mzn", "xcsp3"}
    assert all(fmt.models in ((), tuple(CP_MODELS)) for fmt in FORMATS.values())
    (puzzle,) = loads(AMBIGUOUS)
    for fmt in ("mzn", "xcsp3"):  # no model named: the sum model, as before models had names
        assert dumps([puzzle], fmt) == dumps([puzzle], fmt, model="sum")


# ---------------------------------------------------------------- reading


def test_the_two_benchmark_layouts_read_as_unique_puzzles() -> None:
    easy, hard = (load(path)[0] for path in BENCHMARK_DZN)
    assert easy.shape == (6, 6) and hard.shape == (8, 8)
    assert len(easy.runs) == 12 and len(hard.runs) == 26  # n_h + n_v, one run per clue
    assert all(detect(path.read_text()) is FORMATS["dzn"] for path in BENCHMARK_DZN)
    for puzzle in (easy, hard):
        again = loads(dumps([puzzle], "dzn"))[0]  # the records layout is written classic
        assert again.grid == puzzle.grid


def test_the_pycsp3_compiled_layout_reads() -> None:
    """The docs' example is what PyCSP3 2.6.1 compiles from the Kakuro model of PyCSP3-models
    for the tiny puzzle (``<group>`` templates, ranges ``x[1..3][2]``); it reads as the tiny
    grid."""
    doc = (ROOT / "docs" / "formats.md").read_text()
    assert "<group>" in doc and "%..." in doc
    pattern = r"<instance[^>]*>((?!</instance>).)*x\[1\.\.3\]\[2\].*?</instance>"
    found = re.search(pattern, doc, re.S)
    assert found is not None
    assert load_text(found.group(0)).grid == load(TINY)[0].grid
    # text after a template (mixed content, legal XML) is not part of it: once a crash
    mixed = found.group(0).replace("</sum>\n      <args>", "</sum> 4 <args>", 1)
    assert mixed != found.group(0) and load_text(mixed).grid == load(TINY)[0].grid


def load_text(text: str) -> Puzzle:
    (puzzle,) = loads(text)
    return puzzle


@pytest.mark.parametrize(
    "model",
    # ACE on PE424's table model took 3-8 s on a loaded machine: slow; the cryptic sample's
    # table model (with its AA clue) keeps ACE's cryptic tables in the default suite
    [pytest.param(m, marks=[pytest.mark.slow] if m != "sum" else []) for m in MODELS],
)
@pytest.mark.parametrize("select", ["1", "7"])
def test_ace_solves_a_cryptic_xcsp3_export(select: str, model: str, tmp_path: Path) -> None:
    """Letters are the array l (A-J), all different; a clue XY is cells - 10X - Y = 0 (sum
    model), or a table over the run's cells and then X and Y (table model)."""
    (puzzle,) = load(datasets.PE424, select=select)
    xml = tmp_path / "p.xml"
    xml.write_text(dumps([puzzle], "xcsp3", model=model))
    assert loads(xml.read_text())[0].grid == puzzle.grid
    solutions, complete = _ace_solutions(xml, puzzle)
    ours = _native(puzzle)
    assert solutions == [ours] and complete
    assert solutions[0].answer == ours.answer and ours.answer is not None


@pytest.mark.parametrize("model", MODELS)
def test_the_cryptic_sample_with_shown_letters(model: str, tmp_path: Path) -> None:
    (puzzle,) = load(ROOT / "kakurolab" / "data" / "samples" / "cryptic.kakuro")
    assert puzzle.shown_letters  # eq(x[r][c],l[k]) constraints
    xml = tmp_path / "p.xml"
    xml.write_text(dumps([puzzle], "xcsp3", model=model))
    assert "<intension> eq(x[1][2],l[8]) </intension>" in xml.read_text()
    assert loads(xml.read_text())[0].grid == puzzle.grid
    solutions, complete = _ace_solutions(xml, puzzle)
    assert complete and [s.answer for s in solutions] == ["2561079384"]


def test_cryptic_puzzles_are_refused_by_dzn() -> None:
    """The benchmarks' data layout has no letters (a model reading it would reject extra
    items); the self-contained .mzn carries them."""
    cryptic = load(datasets.PE424, select="1")
    with pytest.raises(KakuroError, match=r"^puzzle 1: the dzn format holds numeric clues"):
        dumps(cryptic, "dzn")


@pytest.mark.parametrize("cp_model", MODELS)
@pytest.mark.parametrize(
    "path", [datasets.PE424, ROOT / "kakurolab" / "data" / "samples" / "cryptic.kakuro"],
    ids=["pe424-1", "sample-shown-letters"],
)
def test_minizinc_solves_a_cryptic_mzn_export(path: Path, cp_model: str, tmp_path: Path) -> None:
    puzzle = load(path)[0]
    model = tmp_path / "p.mzn"
    model.write_text(dumps([puzzle], "mzn", model=cp_model))
    assert loads(model.read_text())[0].grid == puzzle.grid
    printed, complete = _minizinc(model)
    assert complete and len(printed) == 1, printed
    assert printed[0].startswith("solution: ")  # the letters, then the grid rows
    theirs, ours = _rows(printed[0], puzzle), _native(puzzle)
    assert theirs == ours and theirs.answer == ours.answer is not None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("grid_data = [| 0, 1 |];\nh_clue = [| 1, 1, 1, 5 |];\n", "missing v_clue"),
        ("grid_data = [| 0, 1 |];\nh_clue = [| 1, 1, 2, 5 |];\nv_clue = [| |];\n",
         "run length 2, but 1 white cells follow"),
        ("grid_data = [| 0, 1 |];\nh_clue = [| 1, 2, 0, 5 |];\nv_clue = [| |];\n",
         "clue cell \\(1, 2\\) is white"),
        ("grid_data = [| 0, 1 |];\nh_clue = [| 1, 1, 1 |];\nv_clue = [| |];\n", "4 numbers"),
        ("grid_data = [| 0, 2 |];\nh_clue = [| |];\nv_clue = [| |];\n", "entries are 0 or 1"),
        ("h = 3;\ngrid_data = [| 0, 1 |];\nh_clue = [| |];\nv_clue = [| |];\n", "h = 3"),
        ("grid_data = [| 0, 1 |];\nfoo = 1;\n", "unknown data item 'foo'"),
        ("grid_data = [| 0, 1 ", "at the end of the data"),
        ("grid_data = [| 0, 1 |];\nh_clue = [(row: 1, col: 1, len: 1)];\nv_clue = [| |];\n",
         "fields row, col, len, sum"),
        ("grid_data = [| 0, 1 |];\nh_clue = [| 1, 1, 1, " + "9" * 30 + " |];\n", "too long"),
    ],
)
def test_dzn_errors_are_located_lines(text: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        loads(text, format="dzn")


_ONE = "grid_data = [| 0, 1 |];\nh_clue = [| 1, 1, 1, 0 |];\nv_clue = [| |];\n"


@pytest.mark.parametrize(
    ("items", "message"),
    [
        ("h_letters = [| 0, 1 | 0, 2 |];", "one row per clue"),
        ("h_letters = [| 1, 0 |];", "needs a units letter"),
        ("h_letters = [| 0, 11 |];", "letter numbers 1-10"),
        ("h_letters = [| 0, 1 |];\nshown = [| 1, 1, 3 |];", "\\(1, 1\\) is not a white cell"),
        ("h_letters = [| 0, 1 |];\nshown = [| 1, 2, 0 |];", "letter number 0"),
    ],
)
def test_mzn_letter_items_are_checked(items: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        loads(f"{_ONE}{items}\nsolve satisfy;\n", format="mzn")


def test_mzn_letter_items_read() -> None:
    (puzzle,) = loads(f"{_ONE}h_letters = [| 0, 1 |];\nsolve satisfy;\n", check=False)
    assert str(puzzle.grid[0][0].across) == "A"
    with pytest.raises(FormatError, match="unknown data item 'h_letters'"):
        loads(f"{_ONE}h_letters = [| 0, 1 |];\n", format="dzn")  # not in the benchmarks' layout


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('<instance format="XCSP3"><variables/></instance>', 'one variable array id="x"'),
        ('<instance format="XCSP3"><variables><array id="x" size="[2][2]">1..9</array>'
         "</variables><constraints><intension>eq(x[0][0],1)</intension></constraints></instance>",
         "cannot read the intension"),
        ('<instance format="XCSP3"><variables><array id="x" size="[3][3]">1..9</array>'
         "</variables><constraints><sum><list>x[1][1] x[2][2]</list><condition>(eq,3)"
         "</condition></sum></constraints></instance>", "not one row or column segment"),
        ('<instance format="XCSP3"><variables><array id="x" size="[2][2]">1..9</array>'
         "</variables><constraints><sum><list>x[1][5]</list><condition>(eq,3)"
         "</condition></sum></constraints></instance>", "index 5 is outside the array"),
        ('<instance format="XCSP3"><variables><array id="x" size="[2][2]">1..9</array>'
         "</variables><constraints><sum><list>x[1][1]</list><condition>(le,3)"
         "</condition></sum></constraints></instance>", "must be \\(eq,SUM\\)"),
        ('<instance format="XCSP3"><variables><array id="x" size="[2][2]">1..9</array>'
         "</variables><constraints><regular><list>x[0][0]</list>"
         "</regular></constraints></instance>", "cannot read a <regular>"),
        ('<instance format="XCSP3"><variables><array id="x" size="[2][2]">1..9</array>'
         "</variables><constraints><extension><list>x[1][1]</list><supports>(1)(2)</supports>"
         "</extension></constraints></instance>", "not the tuples of a 1-cell run's clue 1"),
        ('<instance format="XCSP3"><variables><array id="x" size="[2][2]">1..9</array>'
         '<array id="l" size="[10]">0..9</array></variables><constraints><sum><list>x[1][1] '
         "l[0]</list><coeffs>1 -10</coeffs><condition>(eq,0)</condition></sum></constraints>"
         "</instance>", "coefficients 1 -1 and \\(eq,0\\)"),
        ('<instance format="XCSP3"><variables><array id="x" size="[2][2]">1..9</array>'
         "</variables><constraints><group><sum><list>%...</list><condition>(eq,%1)</condition>"
         "</sum><args>3</args></group></constraints></instance>", "its template uses 2"),
        ('<instance format="XCSP3"><variables', "invalid XML"),
        ('<!DOCTYPE x [<!ENTITY a "aaaa">]><instance format="XCSP3"/>', "DOCTYPE"),
    ],
)
def test_xcsp3_errors_are_one_line(text: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        loads(text, format="xcsp3")


@pytest.mark.parametrize(
    ("text", "fmt", "message"),
    [
        ('<instance format="XCSP3"><variables><array id="x" size="[2][2]">1..9</array>'
         "</variables><constraints><sum><list>x[0..999999999][0]</list><condition>(eq,3)"
         "</condition></sum></constraints></instance>", "xcsp3", "index 999999999 is outside"),
        ("grid_data = [| " + "0, " * 100_000 + "0 |];", "dzn", "array too large"),
        ("h_clue = [" + "(row: 1, col: 1, len: 1, sum: 1), " * (MAX_CELLS + 1) + "];", "dzn",
         "array too large"),
        ("% " + "x" * 16_000_001, "dzn", "too large"),
    ],
)
def test_huge_inputs_are_refused_at_once(text: str, fmt: str, message: str) -> None:
    start = time.perf_counter()
    with pytest.raises(FormatError, match=message):
        loads(text, format=fmt)
    assert time.perf_counter() - start < 5


def test_convert_writes_each_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from kakurolab.cli import main

    for fmt, suffix in (("xcsp3", "xml"), ("mzn", "mzn"), ("dzn", "dzn")):
        out = tmp_path / f"p.{suffix}"
        assert main(["convert", str(TINY), "--select", "tiny-a", "--to", fmt, "-o", str(out)]) == 0
        assert load(out)[0].grid == load(TINY)[0].grid
        assert detect(out.read_text()) is FORMATS[fmt]
    capsys.readouterr()


@pytest.mark.parametrize("fmt", ["mzn", "xcsp3"])
def test_convert_model_writes_the_table_model(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kakurolab.cli import main

    out = tmp_path / f"p.{fmt}"
    args = ["convert", str(TINY), "--select", "tiny-a", "--to", fmt, "-o", str(out)]
    assert main([*args, "--model", "table"]) == 0
    assert load(out)[0].grid == load(TINY)[0].grid
    assert ("<extension>" if fmt == "xcsp3" else "constraint table(") in out.read_text()
    assert "alldifferent" not in out.read_text().lower()  # no run is a sum any more
    assert main([*args, "--to", "dzn", "--model", "table"]) == 2  # the last --to wins: dzn
    assert "the dzn format cannot write the table model" in capsys.readouterr().err
