"""Pictures: the SVG is checked structurally (xml.etree), the PNG by its header and size."""

from __future__ import annotations

import struct
import time
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from _registries import require_module

from kakurolab import combos
from kakurolab.cli import main
from kakurolab.logic import State
from kakurolab.logic.techniques import cross_candidates
from kakurolab.model import ClueCell, White
from kakurolab.render import CELL, scene, to_png, to_svg

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def by_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(SVG + tag) if cls in (e.get("class") or "").split()]


def by_id(puzzles, puzzle_id):
    found = [p for p in puzzles if p.id == puzzle_id]
    assert found, puzzle_id
    return found[0]


def squares(puzzle):
    return [(r, c, sq) for r, row in enumerate(puzzle.grid) for c, sq in enumerate(row)]


@pytest.mark.parametrize("puzzle_id", ["91_6x6", "1_10x12", "942_16x16"])
def test_svg_structure_matches_puzzle(janko_puzzles, puzzle_id):
    puzzle = by_id(janko_puzzles, puzzle_id)
    root = parse(to_svg(scene(puzzle)))
    clue_cells = [sq for _, _, sq in squares(puzzle) if isinstance(sq, ClueCell)]
    assert len(by_class(root, "rect", "cell")) == puzzle.nrows * puzzle.ncols
    assert len(by_class(root, "rect", "white")) == len(puzzle.whites)
    assert len(by_class(root, "line", "diagonal")) == len(clue_cells)
    across = Counter(str(sq.across) for sq in clue_cells if sq.across is not None)
    down = Counter(str(sq.down) for sq in clue_cells if sq.down is not None)
    assert Counter(e.text for e in by_class(root, "text", "clue-across")) == across
    assert Counter(e.text for e in by_class(root, "text", "clue-down")) == down
    assert len(by_class(root, "polygon", "badge-across")) == sum(across.values())
    assert len(by_class(root, "polygon", "badge-down")) == sum(down.values())
    assert not by_class(root, "text", "digit")
    assert float(root.get("width")) == pytest.approx(puzzle.ncols * CELL + 4)


def cell_of(element: ET.Element, margin: float = 2.0) -> tuple[int, int]:
    x, y = float(element.get("x")), float(element.get("y"))
    return int((y - margin) // CELL), int((x - margin) // CELL)


def test_svg_solution_digits_sit_in_their_cells(janko_puzzles):
    puzzle = by_id(janko_puzzles, "1_10x12")
    published = puzzle.meta["solution"].values
    root = parse(to_svg(scene(puzzle, values=published)))
    digits = {cell_of(e): int(e.text) for e in by_class(root, "text", "digit")}
    assert digits == dict(published)


def test_svg_candidates_are_the_pencil_marks(janko_puzzles):
    puzzle = by_id(janko_puzzles, "91_6x6")
    marks = cross_candidates(State.initial(puzzle))
    root = parse(to_svg(scene(puzzle, candidates=marks)))
    drawn: dict[tuple[int, int], int] = {}
    for e in by_class(root, "text", "candidate"):
        cell = cell_of(e)
        drawn[cell] = drawn.get(cell, 0) | combos.bit(int(e.text))
    assert drawn == {c: m for c, m in marks.items() if m}


def test_svg_cryptic_letters(pe424_puzzles):
    puzzle = pe424_puzzles[0]
    root = parse(to_svg(scene(puzzle)))
    letters = Counter(e.text for e in by_class(root, "text", "letter"))
    assert letters == Counter(puzzle.shown_letters.values())
    clues = [
        str(clue)
        for _, _, sq in squares(puzzle)
        if isinstance(sq, ClueCell)
        for clue in (sq.across, sq.down)
        if clue is not None
    ]
    drawn = [
        e.text for e in by_class(root, "text", "clue-across") + by_class(root, "text", "clue-down")
    ]
    assert Counter(drawn) == Counter(clues)
    assert all(text.isalpha() for text in drawn)


def test_svg_escapes_text(janko_puzzles):
    puzzle = by_id(janko_puzzles, "91_6x6").with_id('<a & "b">')
    root = parse(to_svg(scene(puzzle)))
    assert root.find(SVG + "title").text == '<a & "b">'


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_png_has_the_scene_size(janko_puzzles, tmp_path):
    require_module("matplotlib")
    puzzle = by_id(janko_puzzles, "91_6x6")
    sc = scene(puzzle, values=puzzle.meta["solution"].values)
    to_png(sc, tmp_path / "p.png", scale=2)
    assert png_size(tmp_path / "p.png") == (round(sc.width * 2), round(sc.height * 2))


@pytest.mark.parametrize("options", [[], ["--solution"], ["--candidates"], ["--after-steps", "5"]])
def test_render_cli(janko_path, tmp_path, capsys, options):
    out = tmp_path / "p.svg"
    assert main(["render", str(janko_path), "--select", "91_6x6", *options, "-o", str(out)]) == 0
    root = parse(out.read_text())
    assert len(by_class(root, "rect", "cell")) == 36
    if "--solution" in options:
        assert len(by_class(root, "text", "digit")) == 21
    if "--candidates" in options:
        assert by_class(root, "text", "candidate")
    if "--after-steps" in options:
        assert 1 <= len(by_class(root, "text", "digit")) <= 5


def test_render_cli_rejects_unknown_suffix(janko_path, tmp_path, capsys):
    code = main(["render", str(janko_path), "--select", "91_6x6", "-o", str(tmp_path / "p.gif")])
    assert code == 2 and ".svg or .png" in capsys.readouterr().err


def test_render_state_digits(janko_path, janko_puzzles, tmp_path):
    puzzle = by_id(janko_puzzles, "91_6x6")
    cell, digit = next(iter(puzzle.meta["solution"].values.items()))
    rows = [
        "".join(
            str(digit) if (r, c) == cell else "." if isinstance(sq, White) else "-"
            for c, sq in enumerate(row)
        )
        for r, row in enumerate(puzzle.grid)
    ]
    out = tmp_path / "s.svg"
    args = ["render", str(janko_path), "--select", puzzle.id, f"--state={'/'.join(rows)}"]
    assert main([*args, "-o", str(out)]) == 0
    digits = {cell_of(e): int(e.text) for e in by_class(parse(out.read_text()), "text", "digit")}
    assert digits == {cell: digit}


@pytest.mark.bench
@pytest.mark.parametrize("kind", ["svg", "png"])
def test_bench_render_31x46(janko_puzzles, tmp_path, benchmark, kind):
    """Scene plus painting of the largest janko puzzle with its solution (target < 2 s)."""
    require_module("matplotlib")
    import matplotlib.figure  # noqa: F401  (import time is not rendering time)

    puzzle = by_id(janko_puzzles, "960_31x46")
    values = puzzle.meta["solution"].values

    def render() -> None:
        sc = scene(puzzle, values=values)
        if kind == "svg":
            (tmp_path / "big.svg").write_text(to_svg(sc))
        else:
            to_png(sc, tmp_path / "big.png")

    start = time.perf_counter()
    benchmark.pedantic(render, rounds=3, iterations=1)
    print(f"960_31x46 {kind}: {(time.perf_counter() - start) / 3:.3f} s per render")
    if benchmark.stats is not None:
        assert benchmark.stats.stats.mean < 2.0
