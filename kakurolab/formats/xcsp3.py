"""XCSP3: a Kakuro puzzle as an XCSP3 constraint instance (XML), as PyCSP3 compiles its model.

One array ``x`` of ``nRows x nCols`` variables with domain 1..9 (only the white cells occur in
constraints, the others are left out, as PyCSP3 does for cells whose domain is None), and per
run a ``<sum>`` (``(eq,CLUE)``) and an ``<allDifferent>`` over its cells.  ACE (the solver
bundled with PyCSP3) and any other XCSP3 solver solve the file as it is.

The reader rebuilds the grid from the ``<sum>`` constraints: each one's cells must form one
row or column segment, whose clue cell is the one before it.  It reads the files written here
and the ones PyCSP3 compiles from the Kakuro model (cell lists such as ``x[1..3][2]``);
``<group>`` templates and other constraint kinds are not Kakuro runs and are refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from xml.etree import ElementTree

from ..errors import FormatError
from ..model import BLOCK, WHITE, Clue, ClueCell, Direction, Puzzle, Square, White
from .base import MAX_JSON_CHARS, Format, NumberTooLong, check_size, parse_int, short

MAX_XML_CHARS = MAX_JSON_CHARS
"""Characters an XML input may have (decoded whole, like JSON, before a size is known)."""

ARRAY = "x"
_CELL = re.compile(r"x\[(\d+(?:\.\.\d+)?)\]\[(\d+(?:\.\.\d+)?)\]")
_CONDITION = re.compile(r"\(\s*eq\s*,\s*(\d+)\s*\)")
_SIZE = re.compile(r"\[(\d+)\]\[(\d+)\]")
IGNORED = {"allDifferent", "block"}
"""Constraint elements the reader passes over (a block's own constraints are read)."""


class Xcsp3Format(Format):
    name = "xcsp3"
    doc = "XCSP3 instance (XML): sum and allDifferent per run, as PyCSP3 compiles its model"
    suffixes = (".xml",)

    @classmethod
    def sniff(cls, text: str) -> bool:
        head = text.lstrip()[:2000]
        return head.startswith("<") and bool(re.search(r"<instances?\b", head)) and "XCSP3" in head

    @classmethod
    def parse(cls, text: str, source: str | None = None) -> list[Puzzle]:
        root = _xml(text, source)
        if root.tag == "instance":
            instances = [root]
        elif root.tag == "instances":
            instances = list(root)
        else:
            raise FormatError(f"expected <instance>, got <{short(root.tag)}>", source=source)
        if not instances or any(item.tag != "instance" for item in instances):
            raise FormatError("<instances> must hold <instance> elements", source=source)
        ids = ID_COMMENT.findall(text)
        if len(ids) != len(instances) or len(set(ids)) != len(ids):
            ids = [str(i) for i in range(1, len(instances) + 1)]
        return [_puzzle(item, pid, source) for pid, item in zip(ids, instances, strict=True)]

    @classmethod
    def cannot_write(cls, puzzle: Puzzle) -> str | None:
        if puzzle.is_cryptic:
            return "the xcsp3 format holds numeric clues only"
        return None

    @classmethod
    def dump(cls, puzzles: Sequence[Puzzle]) -> str:
        if len(puzzles) == 1:
            return _instance(puzzles[0], "")
        body = "".join(_instance(puzzle, "  ") for puzzle in puzzles)
        return '<instances format="XCSP3">\n' + body + "</instances>\n"


def _instance(puzzle: Puzzle, indent: str) -> str:
    lines = ['<instance format="XCSP3" type="CSP">']
    if _plain(puzzle.id):
        lines.append(f"  <!-- kakuro puzzle {puzzle.id} -->")
    lines += [
        "  <variables>",
        f'    <array id="{ARRAY}" size="[{puzzle.nrows}][{puzzle.ncols}]"> 1..9 </array>',
        "  </variables>",
        "  <constraints>",
    ]
    for run in puzzle.runs:
        assert run.clue is not None and run.clue.value is not None  # valid, numeric
        cells = " ".join(f"{ARRAY}[{r}][{c}]" for r, c in run.cells)
        lines += [
            "    <sum>",
            f"      <list> {cells} </list>",
            f"      <condition> (eq,{run.clue.value}) </condition>",
            "    </sum>",
            f"    <allDifferent> {cells} </allDifferent>",
        ]
    lines += ["  </constraints>", "</instance>"]
    return "".join(f"{indent}{line}\n" for line in lines)


def _plain(pid: str) -> bool:
    """Whether an id reads back from an XML comment as it is."""
    return bool(pid) and pid == " ".join(pid.split()) and "-->" not in pid and "--" not in pid


ID_COMMENT = re.compile(r"<!-- kakuro puzzle (.+?) -->")


def _xml(text: str, source: str | None) -> ElementTree.Element:
    if len(text) > MAX_XML_CHARS:
        raise FormatError(
            f"XML too large: {len(text):,} characters (at most {MAX_XML_CHARS:,})", source=source
        )
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise FormatError("XML with a DOCTYPE or ENTITY declaration is refused", source=source)
    try:
        return ElementTree.fromstring(text)
    except ElementTree.ParseError as exc:
        line, column = exc.position
        message = str(exc).split(":")[0]
        raise FormatError(
            f"invalid XML: {message}", source=source, line=line, column=column + 1
        ) from None


def _puzzle(instance: ElementTree.Element, pid: str, source: str | None) -> Puzzle:
    def fail(message: str) -> FormatError:
        return FormatError(message, source=source, puzzle_id=pid)

    arrays = instance.findall("variables/array")
    if len(arrays) != 1 or arrays[0].get("id") != ARRAY:
        raise fail(f'expected one variable array id="{ARRAY}" (the grid)')
    size = _SIZE.fullmatch((arrays[0].get("size") or "").strip())
    if size is None:
        raise fail('the array size must be "[ROWS][COLS]"')
    nrows, ncols = (_number(size.group(i), fail) for i in (1, 2))
    if nrows <= 0 or ncols <= 0:
        raise fail("the array size must be positive")
    check_size(nrows, ncols, source=source, puzzle_id=pid)
    constraints = instance.find("constraints")
    if constraints is None:
        raise fail("no <constraints>")
    grid: list[list[Square]] = [[BLOCK] * ncols for _ in range(nrows)]
    runs: list[tuple[Direction, list[tuple[int, int]], int]] = []
    singles: list[tuple[tuple[int, int], int, Callable[[str], FormatError]]] = []
    covered: dict[tuple[int, int], set[Direction]] = {}
    for number, element in enumerate(_constraints(constraints, fail), start=1):
        where = _where(fail, number)
        cells, total = _sum(element, nrows, ncols, where)
        for cell in cells:
            grid[cell[0]][cell[1]] = WHITE
        if len(cells) == 1:  # a one-cell run reads either way: decided below
            singles.append((cells[0], total, where))
            continue
        direction = _direction(cells, where)
        runs.append((direction, cells, total))
        for cell in cells:
            covered.setdefault(cell, set()).add(direction)
    for cell, total, where in singles:
        free = [d for d in (Direction.ACROSS, Direction.DOWN) if d not in covered.get(cell, set())]
        if not free:
            raise where(f"the cell x[{cell[0]}][{cell[1]}] is in an across and a down sum already")
        covered.setdefault(cell, set()).add(free[0])
        runs.append((free[0], [cell], total))
    clues: dict[tuple[int, int], dict[Direction, int]] = {}
    for direction, cells, total in runs:
        dr, dc = direction.step
        r, c = cells[0][0] - dr, cells[0][1] - dc
        if r < 0 or c < 0:
            raise fail(f"the run from x[{cells[0][0]}][{cells[0][1]}] has no cell for its clue")
        if isinstance(grid[r][c], White):
            raise fail(f"the clue cell x[{r}][{c}] of a sum is a cell of another sum")
        after = (cells[-1][0] + dr, cells[-1][1] + dc)
        if after[0] < nrows and after[1] < ncols and isinstance(grid[after[0]][after[1]], White):
            raise fail(f"the sum ending at x[{cells[-1][0]}][{cells[-1][1]}] stops inside a run")
        sides = clues.setdefault((r, c), {})
        if direction in sides:
            raise fail(f"two {direction.value} sums start after x[{r}][{c}]")
        sides[direction] = total
    for (r, c), sides in clues.items():
        grid[r][c] = ClueCell(
            down=Clue(value=sides[Direction.DOWN]) if Direction.DOWN in sides else None,
            across=Clue(value=sides[Direction.ACROSS]) if Direction.ACROSS in sides else None,
        )
    return Puzzle(pid, tuple(tuple(row) for row in grid))


def _constraints(
    parent: ElementTree.Element, fail: Callable[[str], FormatError]
) -> Iterator[ElementTree.Element]:
    for element in parent:
        if element.tag == "sum":
            yield element
        elif element.tag == "block":
            yield from _constraints(element, fail)
        elif element.tag not in IGNORED:
            raise fail(f"cannot read a <{short(element.tag)}> constraint (Kakuro runs are <sum>s)")


def _sum(
    element: ElementTree.Element, nrows: int, ncols: int, fail: Callable[[str], FormatError]
) -> tuple[list[tuple[int, int]], int]:
    listing = element.find("list")
    condition = element.find("condition")
    if listing is None or condition is None or element.find("coeffs") is not None:
        raise fail("expected <list> and <condition> (no coefficients)")
    match = _CONDITION.fullmatch((condition.text or "").strip())
    if match is None:
        raise fail(f"the condition must be (eq,SUM), got {short((condition.text or '').strip())!r}")
    total = _number(match.group(1), fail)
    cells: list[tuple[int, int]] = []
    for word in (listing.text or "").split():
        found = _CELL.fullmatch(word)
        if found is None:
            raise fail(f"expected cells x[ROW][COL], got {short(word)!r}")
        rows, cols = (_span(found.group(i), fail) for i in (1, 2))
        cells += [(r, c) for r in rows for c in cols]
    if not cells:
        raise fail("the list is empty")
    for r, c in cells:
        if r >= nrows or c >= ncols:
            raise fail(f"cell x[{r}][{c}] is outside the {nrows}x{ncols} array")
    return cells, total


def _span(text: str, fail: Callable[[str], FormatError]) -> range:
    low, _, high = text.partition("..")
    first = _number(low, fail)
    last = _number(high, fail) if high else first
    if last < first:
        raise fail(f"empty range {text}")
    return range(first, last + 1)


def _where(fail: Callable[[str], FormatError], number: int) -> Callable[[str], FormatError]:
    return lambda message: fail(f"sum {number}: {message}")


def _direction(cells: list[tuple[int, int]], fail: Callable[[str], FormatError]) -> Direction:
    """The direction of a run's cells (two or more), or an error when they are not one row
    or column segment in order."""
    (r0, c0) = cells[0]
    for direction in (Direction.ACROSS, Direction.DOWN):
        dr, dc = direction.step
        if cells == [(r0 + i * dr, c0 + i * dc) for i in range(len(cells))]:
            return direction
    raise fail("its cells are not one row or column segment in order")


def _number(text: str, fail: Callable[[str], FormatError]) -> int:
    try:
        return parse_int(text)
    except NumberTooLong as exc:
        raise fail(str(exc)) from None
    except ValueError:
        raise fail(f"expected a number, got {short(text)!r}") from None
