"""XCSP3: a Kakuro puzzle as an XCSP3 constraint instance (XML), as PyCSP3 compiles its model.

One array ``x`` of ``nRows x nCols`` variables with domain 1..9 (only the white cells occur in
constraints, the others are left out, as PyCSP3 does for cells whose domain is None), and per
run a ``<sum>`` (``(eq,CLUE)``) and an ``<allDifferent>`` over its cells.  A cryptic puzzle adds
the letters as an array ``l`` of ten all-different digits; a letter clue ``XY`` becomes the
sum ``cells - 10*X - Y = 0``, and a letter shown in a cell an ``eq(x[r][c],l[k])``.  ACE (the solver
bundled with PyCSP3) and any other XCSP3 solver solve the file as it is.

The reader rebuilds the grid from the ``<sum>`` constraints: each one's cells must form one
row or column segment, whose clue cell is the one before it.  It reads the files written here
and the ones PyCSP3 compiles from the Kakuro model of PyCSP3-models (``<group>`` templates
with ``<args>``, cell lists such as ``x[1..3][2]``); other constraint kinds are refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from copy import deepcopy
from dataclasses import dataclass
from xml.etree import ElementTree

from ..errors import FormatError
from ..model import BLOCK, LETTERS, WHITE, Clue, ClueCell, Direction, Puzzle, Square, White
from .cpmodels import DEFAULT_MODEL, distinct_letters, letter_shape, letter_tuples, run_tuples
from .format import MAX_JSON_CHARS, Format, NumberTooLong, check_size, parse_int, short

MAX_XML_CHARS = MAX_JSON_CHARS
"""Characters an XML input may have (decoded whole, like JSON, before a size is known)."""

ARRAY = "x"
LETTER_ARRAY = "l"
"""The letters A-J of a cryptic puzzle are ``l[0]`` to ``l[9]``."""
LETTER_COEFFS = {1: ["-1"], 2: ["-10", "-1"]}
_LETTER = re.compile(r"l\[(\d)\]")
_SHOWN = re.compile(r"eq\(x\[(\d+)\]\[(\d+)\],l\[(\d)\]\)")
_LEADING = re.compile(r"ne\(l\[(\d)\],0\)")
_CELL = re.compile(r"x\[(\d+(?:\.\.\d+)?)\]\[(\d+(?:\.\.\d+)?)\]")
_CONDITION = re.compile(r"\(\s*eq\s*,\s*(\d+)\s*\)")
_SIZE = re.compile(r"\[(\d+)\]\[(\d+)\]")
IGNORED = {"allDifferent"}
"""Constraint elements the reader passes over (a block's own constraints are read)."""


class Xcsp3Format(Format):
    name = "xcsp3"
    doc = "XCSP3 instance (XML): sum and allDifferent per run, as PyCSP3 compiles its model"
    suffixes = (".xml",)
    models = ("sum", "table")

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
    def dump(cls, puzzles: Sequence[Puzzle]) -> str:
        return cls.dump_model(puzzles, DEFAULT_MODEL)

    @classmethod
    def dump_model(cls, puzzles: Sequence[Puzzle], model: str) -> str:
        runs = RUN_WRITERS[model]
        if len(puzzles) == 1:
            return _instance(puzzles[0], "", runs)
        body = "".join(_instance(puzzle, "  ", runs) for puzzle in puzzles)
        return '<instances format="XCSP3">\n' + body + "</instances>\n"


RunWriter = Callable[[Puzzle], list[str]]


def _sum_runs(puzzle: Puzzle) -> list[str]:
    """The ``sum`` model: per run a ``<sum>`` and an ``<allDifferent>``."""
    lines = []
    for run in puzzle.runs:
        assert run.clue is not None  # a valid puzzle
        cells = " ".join(f"{ARRAY}[{r}][{c}]" for r, c in run.cells)
        lines += ["    <sum>", *_sum_body(run.clue, cells), "    </sum>"]
        lines.append(f"    <allDifferent> {cells} </allDifferent>")
    return lines


def _table_runs(puzzle: Puzzle) -> list[str]:
    """The ``table`` model: per run an ``<extension>`` over its cells (then a letter clue's
    letters), grouped by table so that each table is written once (``<group>`` with one
    ``<args>`` per run, as PyCSP3 writes a table shared by several lists)."""
    groups: dict[tuple[int, int, str], list[str]] = {}
    for run in puzzle.runs:
        assert run.clue is not None  # a valid puzzle
        cells = [f"{ARRAY}[{r}][{c}]" for r, c in run.cells]
        letters = run.clue.letters or ""
        shape = letter_shape(letters) if letters else ""
        key = (len(cells), 0 if letters else run.clue.value or 0, shape)
        columns = cells + [_letter(ch) for ch in distinct_letters(letters)]
        groups.setdefault(key, []).append(" ".join(columns))
    lines = []
    for (length, total, shape), lists in groups.items():
        tuples = letter_tuples(length, shape) if shape else run_tuples(length, total)
        supports = "".join(f"({','.join(map(str, t))})" for t in tuples)
        extension = ["<extension>", "  <list> %... </list>", f"  <supports> {supports} </supports>",
                     "</extension>"]
        if len(lists) == 1:
            lines += [f"    {line.replace('%...', lists[0])}" for line in extension]
            continue
        lines += ["    <group>", *(f"      {line}" for line in extension)]
        lines += [f"      <args> {args} </args>" for args in lists]
        lines.append("    </group>")
    return lines


RUN_WRITERS: dict[str, RunWriter] = {"sum": _sum_runs, "table": _table_runs}
"""The run constraints of an instance, by CP model name (:mod:`.cpmodels`)."""


def _instance(puzzle: Puzzle, indent: str, runs: RunWriter) -> str:
    lines = ['<instance format="XCSP3" type="CSP">']
    if _plain(puzzle.id):
        lines.append(f"  <!-- kakuro puzzle {puzzle.id} -->")
    cryptic = puzzle.is_cryptic
    lines += [
        "  <variables>",
        f'    <array id="{ARRAY}" size="[{puzzle.nrows}][{puzzle.ncols}]"> 1..9 </array>',
        *([f'    <array id="{LETTER_ARRAY}" size="[10]"> 0..9 </array>'] if cryptic else []),
        "  </variables>",
        "  <constraints>",
    ]
    if cryptic:  # the letters A-J stand for the ten digits, one each
        lines.append(f"    <allDifferent> {' '.join(map(_letter, LETTERS))} </allDifferent>")
    lines += runs(puzzle)
    leading = {
        run.clue.letters[0]
        for run in puzzle.runs
        if run.clue is not None and run.clue.letters is not None and len(run.clue.letters) == 2
    }
    lines += [f"    <intension> ne({_letter(ch)},0) </intension>" for ch in sorted(leading)]
    lines += [
        f"    <intension> eq({ARRAY}[{r}][{c}],{_letter(ch)}) </intension>"
        for (r, c), ch in puzzle.shown_letters.items()
    ]
    lines += ["  </constraints>", "</instance>"]
    return "".join(f"{indent}{line}\n" for line in lines)


def _letter(ch: str) -> str:
    return f"{LETTER_ARRAY}[{LETTERS.index(ch)}]"


def _sum_body(clue: Clue, cells: str) -> list[str]:
    """A numeric clue is the sum's value; a letter clue ``XY`` moves to the left side as
    ``cells - 10*X - Y = 0`` (a one-letter clue ``X``: ``cells - X = 0``)."""
    if clue.letters is None:
        condition = f"      <condition> (eq,{clue.value}) </condition>"
        return [f"      <list> {cells} </list>", condition]
    letters = " ".join(map(_letter, clue.letters))
    coeffs = " ".join(["1"] * len(cells.split()) + LETTER_COEFFS[len(clue.letters)])
    return [
        f"      <list> {cells} {letters} </list>",
        f"      <coeffs> {coeffs} </coeffs>",
        "      <condition> (eq,0) </condition>",
    ]


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


Fail = Callable[[str], FormatError]
RunRead = tuple[Direction, list[tuple[int, int]], Clue]


def _puzzle(instance: ElementTree.Element, pid: str, source: str | None) -> Puzzle:
    def fail(message: str) -> FormatError:
        return FormatError(message, source=source, puzzle_id=pid)

    arrays = {a.get("id"): a for a in instance.findall("variables/array")}
    nrows, ncols = _grid_size(arrays, fail)
    check_size(nrows, ncols, source=source, puzzle_id=pid)
    constraints = instance.find("constraints")
    if constraints is None:
        raise fail("no <constraints>")
    grid: list[list[Square]] = [[BLOCK] * ncols for _ in range(nrows)]
    shown: dict[tuple[int, int], str] = {}
    sums = []
    for element in _constraints(constraints, fail):
        if element.tag in RUN_READERS:
            sums.append(element)
        else:
            _intension(element, shown, fail)
    runs = _runs(sums, grid, LETTER_ARRAY in arrays, fail)
    for (r, c), sides in _clues(runs, grid, fail).items():
        grid[r][c] = ClueCell(down=sides.get(Direction.DOWN), across=sides.get(Direction.ACROSS))
    for (r, c), ch in shown.items():
        if r >= nrows or c >= ncols or not isinstance(grid[r][c], White):
            raise fail(f"the letter shown in x[{r}][{c}] is not in a white cell")
        grid[r][c] = White(letter=ch)
    return Puzzle(pid, tuple(tuple(row) for row in grid))


def _grid_size(arrays: dict[str | None, ElementTree.Element], fail: Fail) -> tuple[int, int]:
    """The grid array's rows and columns (and the letter array, if any, of size 10)."""
    if ARRAY not in arrays or set(arrays) - {ARRAY, LETTER_ARRAY}:
        raise fail(f'expected one variable array id="{ARRAY}" (the grid), and "l" for letters')
    if LETTER_ARRAY in arrays and (arrays[LETTER_ARRAY].get("size") or "").strip() != "[10]":
        raise fail('the letter array "l" has the size [10]')
    size = _SIZE.fullmatch((arrays[ARRAY].get("size") or "").strip())
    if size is None:
        raise fail('the array size must be "[ROWS][COLS]"')
    nrows, ncols = (_number(size.group(i), fail) for i in (1, 2))
    if nrows <= 0 or ncols <= 0:
        raise fail("the array size must be positive")
    return nrows, ncols


def _runs(
    sums: list[ElementTree.Element], grid: list[list[Square]], letters: bool, fail: Fail
) -> list[RunRead]:
    """Each sum as a run (its cells made white in ``grid``); a one-cell sum takes the
    direction its cell has no run in yet."""
    nrows, ncols = len(grid), len(grid[0])
    runs: list[RunRead] = []
    singles: list[tuple[tuple[int, int], Clue, Fail]] = []
    covered: dict[tuple[int, int], set[Direction]] = {}
    for number, element in enumerate(sums, start=1):
        where = _where(fail, number)
        cells, total = RUN_READERS[element.tag](element, _Reading(nrows, ncols, where, letters))
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
    return runs


def _clues(
    runs: list[RunRead], grid: list[list[Square]], fail: Fail
) -> dict[tuple[int, int], dict[Direction, Clue]]:
    """Each clue cell's clues: the cell before each run, which must not be white, with no
    white cell right after the run."""
    nrows, ncols = len(grid), len(grid[0])
    clues: dict[tuple[int, int], dict[Direction, Clue]] = {}
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
    return clues


def _constraints(
    parent: ElementTree.Element, fail: Callable[[str], FormatError]
) -> Iterator[ElementTree.Element]:
    for element in parent:
        if element.tag in ("sum", "extension", "intension"):
            yield element
        elif element.tag == "block":
            yield from _constraints(element, fail)
        elif element.tag == "group":
            holder = ElementTree.Element("block")
            holder.extend(_expand(element, fail))
            yield from _constraints(holder, fail)
        elif element.tag not in IGNORED:
            raise fail(f"cannot read a <{short(element.tag)}> constraint (Kakuro runs are "
                       "<sum>s or <extension>s)")


_PARAMETER = re.compile(r"%(\d+|\.\.\.)")


def _expand(
    group: ElementTree.Element, fail: Callable[[str], FormatError]
) -> list[ElementTree.Element]:
    """A ``<group>``'s constraints: its template once per ``<args>``, ``%i`` replaced by the
    i-th argument and ``%...`` by the arguments after the highest ``%i`` (as PyCSP3 groups the
    sums and allDifferents of its Kakuro model)."""
    templates = [child for child in group if child.tag != "args"]
    if len(templates) != 1:
        raise fail("a <group> holds one template and its <args>")
    template = templates[0]
    texts = [node.text or "" for node in template.iter()]
    indices = [int(m) for text in texts for m in re.findall(r"%(\d+)", text)]
    rest = max(indices) + 1 if indices else 0
    out = []
    for args in group.iter("args"):
        values = (args.text or "").split()
        if len(values) < rest:
            raise fail(f"a group's <args> has {len(values)} values, its template uses {rest}")

        def fill(match: re.Match[str], values: list[str] = values) -> str:
            key = match.group(1)
            return " ".join(values[rest:]) if key == "..." else values[int(key)]

        filled = deepcopy(template)
        for node in filled.iter():
            node.text = _PARAMETER.sub(fill, node.text or "")
        out.append(filled)
    return out


def _intension(
    element: ElementTree.Element,
    shown: dict[tuple[int, int], str],
    fail: Callable[[str], FormatError],
) -> None:
    """A cryptic puzzle's letter shown in a cell (``eq(x[r][c],l[k])``), or a leading
    letter's ``ne(l[k],0)``, which the two-letter clue itself implies."""
    text = "".join((element.text or "").split())
    found = _SHOWN.fullmatch(text)
    if found is not None:
        r, c, k = (_number(found.group(i), fail) for i in (1, 2, 3))
        shown[(r, c)] = LETTERS[k]
    elif _LEADING.fullmatch(text) is None:
        raise fail(f"cannot read the intension {short(text)!r} (a Kakuro instance has "
                   "eq(x[R][C],l[K]) and ne(l[K],0) only)")


@dataclass(frozen=True)
class _Reading:
    """What every run reader needs besides its element: the grid's size, how to fail, and
    whether the instance has a letter array."""

    nrows: int
    ncols: int
    fail: Fail
    has_letters: bool


def _sum(element: ElementTree.Element, at: _Reading) -> tuple[list[tuple[int, int]], Clue]:
    fail = at.fail
    listing = element.find("list")
    condition = element.find("condition")
    if listing is None or condition is None:
        raise fail("expected <list> and <condition>")
    match = _CONDITION.fullmatch((condition.text or "").strip())
    if match is None:
        raise fail(f"the condition must be (eq,SUM), got {short((condition.text or '').strip())!r}")
    total = _number(match.group(1), fail)
    cells, letters = _cells_and_letters(listing.text or "", at)
    coeffs = element.find("coeffs")
    if not letters:
        if coeffs is not None:
            raise fail("a numeric clue's sum has no coefficients")
        return cells, Clue(value=total)
    expected = ["1"] * len(cells) + LETTER_COEFFS.get(len(letters), ["?"])
    if coeffs is None or (coeffs.text or "").split() != expected or total != 0:
        raise fail(f"a letter clue's sum has the coefficients {' '.join(expected)} and (eq,0)")
    return cells, Clue(letters=letters)


_TUPLE = re.compile(r"\(([0-9,]*)\)")


def _cells_and_letters(text: str, at: _Reading) -> tuple[list[tuple[int, int]], str]:
    """A run's cells ``x[R][C]`` (ranges allowed), then a letter clue's letters ``l[K]``."""
    fail = at.fail
    cells: list[tuple[int, int]] = []
    letters = ""
    for word in text.split():
        letter = _LETTER.fullmatch(word) if at.has_letters else None
        if letter is not None:
            letters += LETTERS[int(letter.group(1))]
            continue
        found = _CELL.fullmatch(word)
        if found is None or letters:
            raise fail(f"expected cells x[ROW][COL] (then letters l[K]), got {short(word)!r}")
        rows, cols = _span(found.group(1), at.nrows, fail), _span(found.group(2), at.ncols, fail)
        cells += [(r, c) for r in rows for c in cols]
    if not cells:
        raise fail("the list has no cells")
    return cells, letters


RunReader = Callable[[ElementTree.Element, _Reading], tuple[list[tuple[int, int]], Clue]]


def _table(element: ElementTree.Element, at: _Reading) -> tuple[list[tuple[int, int]], Clue]:
    """A run of the ``table`` model: an ``<extension>`` whose supports are exactly the tuples
    of one clue (:mod:`.cpmodels`); any other table is refused, since it is not a Kakuro run."""
    fail = at.fail
    listing, supports = element.find("list"), element.find("supports")
    if listing is None or supports is None:
        raise fail("an <extension> run has <list> and <supports>")
    cells, letters = _cells_and_letters(listing.text or "", at)
    text = "".join((supports.text or "").split())
    tuples = [tuple(_number(v, fail) for v in m.split(",")) for m in _TUPLE.findall(text)]
    if not tuples or "".join(f"({','.join(map(str, t))})" for t in tuples) != text:
        raise fail("the supports must be tuples (d,d,...) of numbers, at least one")
    if len(letters) == 1 and sum(tuples[0][:-1]) != tuples[0][-1]:
        letters *= 2  # one letter column, and the cells add up to 11 times it: a clue XX
    if letters:
        clue = Clue(letters=letters)
        expected = letter_tuples(len(cells), letter_shape(letters))
    else:
        total = sum(tuples[0])
        clue, expected = Clue(value=total), run_tuples(len(cells), total)
    if sorted(tuples) != list(expected):
        raise fail(f"the table is not the tuples of a {len(cells)}-cell run's clue {clue} "
                   "(every permutation of every digit set of the clue)")
    return cells, clue


RUN_READERS: dict[str, RunReader] = {"sum": _sum, "extension": _table}
"""A run's reader by constraint element: the ``sum`` model's ``<sum>``, the ``table``
model's ``<extension>``."""


def _span(text: str, size: int, fail: Callable[[str], FormatError]) -> range:
    """An index or a range ``a..b`` of indices, checked against the array's size before it
    is expanded (``x[0..99999999][0]`` costs nothing)."""
    low, _, high = text.partition("..")
    first = _number(low, fail)
    last = _number(high, fail) if high else first
    if last < first:
        raise fail(f"empty range {text}")
    if last >= size:
        raise fail(f"index {last} is outside the array (size {size})")
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
