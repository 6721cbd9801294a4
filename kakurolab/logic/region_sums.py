"""Region sums: the Kakuro form of the killer-sudoku "45 rule" (innies and outies).

Take an area S of white cells that is a union of whole across runs (a connected piece of a band
of rows; or, transposed, of down runs in a band of columns).  Its across clues add up to the sum
of S.  The down runs through S cover S too, but some reach out of it: for each such run a
solver either counts it (its clue, minus its cells outside S: *outies*) or leaves it out (its
cells inside S stay unknown: *innies*), whichever leaves fewer empty cells.  Then

    innies - outies = (across clues) - (down clues counted)

and that small equation narrows its few cells like a clue of its own.  Areas are built once per
puzzle from the grid's shape; the arithmetic is redone from the current digits each time.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate

from .. import deadline as deadlines
from ..combos import bit, digits_of
from ..model import Cell, Direction, Puzzle, Run
from ..propagation.kernel import RunTable, revise_cached, run_table
from ..shape import pieces
from .candidates import Contradiction, State, cell_name, run_label
from .techniques import Finding

MAX_UNKNOWN = 6
"""Empty cells an equation may have: beyond this a person would not add it up."""
MAX_TUPLES = 50_000
"""Search nodes spent at most on one equation's fillings (larger ones are skipped)."""
MAX_EQUATIONS = 200
MAX_REGION_NODES = 4_000
"""Search nodes one area's equation may spend (areas are many; each is re-read often)."""
MAX_REGION_FILLINGS = 20_000
"""Candidate combinations an area's equation may have."""
MAX_GROUP_NODES = 40_000
"""Search nodes one look of the run-group rung may spend over all its equations."""
MAX_FILLINGS = 100_000
"""Candidate combinations (product of the cells' candidate counts) an equation may have."""
"""Run-group equations tried at most per look, smallest borders first."""
MAX_AREA = 40
"""White cells an area may have (bigger areas almost never leave few unknowns)."""


@dataclass(frozen=True, eq=False)
class Region:
    """An area of whole runs of one direction and the runs of the other direction meeting it.

    ``parts`` holds, per crossing run, its cells inside and outside the area.
    """

    name: str
    cells: frozenset[Cell]
    inside: tuple[Run, ...]
    parts: tuple[tuple[Run, tuple[Cell, ...], tuple[Cell, ...]], ...]
    watch: tuple[Cell, ...]


def regions_of(puzzle: Puzzle) -> tuple[Region, ...]:
    """Every connected area of whole runs in a band of consecutive rows (across runs inside)
    or columns (down runs inside) that some crossing run leaves; smallest areas first."""
    found: dict[frozenset[Cell], Region] = {}
    whites = puzzle.whites
    for direction in (Direction.ACROSS, Direction.DOWN):
        axis = 0 if direction is Direction.ACROSS else 1
        lines = sorted({cell[axis] for cell in whites})
        by_line: dict[int, list[Cell]] = {}
        for cell in whites:
            by_line.setdefault(cell[axis], []).append(cell)
        for i in range(len(lines)):
            band: set[Cell] = set()
            for last in lines[i:]:
                deadlines.check()
                band.update(by_line[last])
                areas = _components(band)
                if all(len(area) > MAX_AREA for area in areas):
                    break  # areas only grow as the band does
                for area in areas:
                    if len(area) > MAX_AREA or area in found:
                        continue
                    region = _region(puzzle, direction, area)
                    if region is not None:
                        found[area] = region
    return tuple(sorted(found.values(), key=lambda r: len(r.cells)))


def _components(cells: set[Cell]) -> list[frozenset[Cell]]:
    """The 4-connected pieces of ``cells`` (in the set's own order, as before)."""
    return [frozenset(piece) for piece in pieces(cells)]


def _region(puzzle: Puzzle, direction: Direction, area: frozenset[Cell]) -> Region | None:
    inside: dict[Run, None] = {}
    crossing: dict[Run, None] = {}
    for cell in area:
        for run in puzzle.runs_of[cell]:
            (inside if run.direction is direction else crossing)[run] = None
    parts = []
    for run in crossing:
        inner = tuple(c for c in run.cells if c in area)
        outer = tuple(c for c in run.cells if c not in area)
        parts.append((run, inner, outer))
    if all(not outer for _, _, outer in parts):
        return None  # no run leaves the area: the equation says nothing
    rows = [c[0] for c in area]
    cols = [c[1] for c in area]
    whole = "across" if direction is Direction.ACROSS else "down"
    name = (
        f"the area r{min(rows) + 1}-{max(rows) + 1}, c{min(cols) + 1}-{max(cols) + 1} "
        f"({len(area)} cells, whole {whole} runs)"
    )
    watch = tuple(sorted({c for run in (*inside, *crossing) for c in run.cells}))
    return Region(name, area, tuple(inside), tuple(parts), watch)


def region_sum(state: State, region: Region) -> Finding | None:
    """Innies minus outies equal the difference of the clue totals; narrow those cells."""
    across = 0
    for run in region.inside:
        total = state.total(run)
        if total is None:
            return None
        across += total
    plus, minus, counted = _innies_outies(state, region)
    placed = state.placed
    open_plus = [c for c in plus if c not in placed]
    open_minus = [c for c in minus if c not in placed]
    n_open = len(open_plus) + len(open_minus)
    if n_open > MAX_UNKNOWN:
        return None
    down = sum(t for _, t in counted)
    target = across - down - sum(placed[c] for c in plus if c in placed)
    target += sum(placed[c] for c in minus if c in placed)
    if not n_open:
        if target:
            raise Contradiction(f"{region.name}: the clue totals do not add up")
        return None
    cells = open_plus + open_minus
    if _fillings(state, cells) > MAX_REGION_FILLINGS:
        return None
    signs = [1] * len(open_plus) + [-1] * len(open_minus)
    support = _support(state, cells, signs, target, [MAX_REGION_NODES])
    if support is None:
        return None
    if not any(support):
        raise Contradiction(f"{region.name}: no digits make its region sum")
    removed = {c: state.cands[c] & ~s for c, s in zip(cells, support, strict=True)}
    removed = {c: m for c, m in removed.items() if m}
    if not removed:
        return None
    return Finding(
        tuple(cells),
        _region_words(region, across, (plus, minus, counted), (open_plus, open_minus))
        + f" = {target}"
        + _written_words(sum(c in placed for c in plus + minus)),
        eliminations=removed,
        evidence={c: 0x1FF & ~state.cands[c] for c in cells},
    )


def _innies_outies(
    state: State, region: Region
) -> tuple[list[Cell], list[Cell], list[tuple[Run, int]]]:
    """The region's crossing runs split: a run with a known total and no more empty cells
    outside than inside is counted (its outside cells become outies), the others leave their
    inside cells as innies."""
    plus: list[Cell] = []
    minus: list[Cell] = []
    counted: list[tuple[Run, int]] = []
    placed = state.placed
    for run, inner, outer in region.parts:
        total = state.total(run)
        open_in = sum(c not in placed for c in inner)
        open_out = sum(c not in placed for c in outer)
        if total is not None and open_out <= open_in:
            counted.append((run, total))
            minus.extend(outer)
        else:
            plus.extend(inner)
    return plus, minus, counted


def _region_words(
    region: Region,
    across: int,
    split: tuple[list[Cell], list[Cell], list[tuple[Run, int]]],
    open_cells: tuple[list[Cell], list[Cell]],
) -> str:
    """The region sum's explanation up to its equation's left side."""
    plus, minus, counted = split
    open_plus, open_minus = open_cells
    down = sum(t for _, t in counted)
    inside_word = "across" if region.inside[0].direction is Direction.ACROSS else "down"
    other_word = "down" if inside_word == "across" else "across"
    terms = " + ".join(cell_name(c) for c in open_plus)
    for c in open_minus:
        terms = f"{terms} - {cell_name(c)}" if terms else f"-{cell_name(c)}"
    counted_words = (
        f"the {other_word} clues {' + '.join(str(t) for _, t in counted)} = {down} "
        f"({'; '.join(run_label(r) for r, _ in counted)}) cover it and reach out to "
        f"{_cells_word(len(minus))} beyond it"
        if counted
        else f"no {other_word} clue lies wholly inside it"
    )
    left = len(plus)
    left_words = (
        f", and {_cells_word(left)} of it lie in {other_word} runs left out (innies)"
        if left
        else ""
    )
    return (
        f"region sum over {region.name}: its {inside_word} clues total {across}; "
        f"{counted_words}{left_words}; so {terms}"
    )


def _written_words(written: int) -> str:
    return f" (taking off the digit{'s' if written > 1 else ''} already written)" if written else ""


def _shared_runs(
    state: State, cells: list[Cell]
) -> list[tuple[RunTable, int, tuple[int, ...], list[tuple[int, int]]]]:
    """Runs holding two or more of ``cells`` with a known total: the kernel's cache table and
    sum mask for that total, the run's candidates, and (position in run, index in ``cells``)
    pairs."""
    where: dict[Run, list[tuple[int, int]]] = {}
    for k, cell in enumerate(cells):
        for run in state.puzzle.runs_of[cell]:
            where.setdefault(run, []).append((run.cells.index(cell), k))
    shared = []
    for run, positions in where.items():
        total = state.total(run)
        if len(positions) < 2 or total is None:
            continue
        sums = 1 << total
        shared.append((run_table(sums), sums, tuple(state.cands[c] for c in run.cells), positions))
    return shared


def _fillings(state: State, cells: list[Cell]) -> int:
    product = 1
    for cell in cells:
        product *= state.cands[cell].bit_count()
    return product


def _cells_word(n: int) -> str:
    return f"{n} cell{'s' if n != 1 else ''}"


def _support(
    state: State,
    cells: list[Cell],
    signs: list[int],
    target: int,
    budget: list[int] | None = None,
) -> list[int] | None:
    """Per cell, the digits some filling of ``sum(sign * digit) == target`` uses, with cells
    that share a run taking different digits and every run holding two or more of them still
    completable (the one kernel's exact run revision); None when the search budget runs out.

    Answers are remembered by their inputs: an area is re-read often with nothing changed.
    """
    if budget is None:
        budget = [MAX_TUPLES]
    key = (
        tuple(cells),
        tuple(signs),
        target,
        tuple(state.cands[c] for c in cells),
        tuple((entry[1], entry[2], tuple(entry[3])) for entry in _shared_runs(state, cells)),
    )
    if key in _SUPPORTS:
        return _SUPPORTS[key]
    fresh = budget[0]
    found = _enumerate(state, cells, signs, target, budget)
    if found is not None or fresh <= MAX_REGION_NODES:
        # A failure is remembered only when its budget was an equation's own (a shared
        # budget may have been nearly spent before this call).
        if len(_SUPPORTS) > 50_000:
            _SUPPORTS.clear()
        _SUPPORTS[key] = found
    return found


_SUPPORTS: dict[tuple, list[int] | None] = {}
"""Answers of :func:`_support` by its inputs."""


def _enumerate(
    state: State, cells: list[Cell], signs: list[int], target: int, budget: list[int]
) -> list[int] | None:
    """:func:`_support` without the memo: a depth-first search over the cells, fewest
    candidates first, pruned by the sum's bounds, repeats and run completion."""
    order = sorted(range(len(cells)), key=lambda i: state.cands[cells[i]].bit_count())
    search = _SupportSearch(
        state, [cells[i] for i in order], [signs[i] for i in order], target, budget
    )
    if not search.place(0, 0):
        return None
    back = [0] * len(cells)
    for pos, i in enumerate(order):
        back[i] = search.support[pos]
    return back


class _SupportSearch:
    """:func:`_enumerate`'s search over ``cells`` (in search order): ``support`` gathers, per
    cell, the digits some filling with the signed sum ``target`` uses."""

    def __init__(
        self, state: State, cells: list[Cell], signs: list[int], target: int, budget: list[int]
    ) -> None:
        self.cells, self.signs, self.target, self.spend = cells, signs, target, budget
        masks = self.masks = [state.cands[c] for c in cells]
        runs = [set(state.puzzle.runs_of[c]) for c in cells]
        self.clash = [[j for j in range(i) if runs[i] & runs[j]] for i in range(len(cells))]
        lows = [min(s * d for d in digits_of(m)) for s, m in zip(signs, masks, strict=True)]
        highs = [max(s * d for d in digits_of(m)) for s, m in zip(signs, masks, strict=True)]
        self.rest_low = [*reversed(list(accumulate(reversed(lows)))), 0]
        self.rest_high = [*reversed(list(accumulate(reversed(highs)))), 0]
        self.support = [0] * len(cells)
        self.values = [0] * len(cells)
        # Each run holding two or more of the cells is checked (can its other cells still
        # complete it?) as soon as its last such cell has a digit.
        self.checks: list[list[tuple[RunTable, int, tuple[int, ...], list[tuple[int, int]]]]] = [
            [] for _ in cells
        ]
        for entry in _shared_runs(state, cells):
            self.checks[max(k for _, k in entry[3])].append(entry)

    def completable(self, i: int) -> bool:
        """Whether every run checked at cell ``i`` can still be completed."""
        values = self.values
        for table, sums, base, positions in self.checks[i]:
            doms = list(base)
            for pos, k in positions:
                doms[pos] = bit(values[k])
            key = tuple(doms)
            found = table.get(key)
            if found is None:
                found = revise_cached(table, key, sums)
            if not found:
                return False
        return True

    def place(self, i: int, total: int) -> bool:
        """Try every digit of cell ``i`` on; False once the budget is spent."""
        spend, values = self.spend, self.values
        spend[0] -= 1
        if spend[0] <= 0:
            return False
        if i == len(self.cells):
            if total == self.target:
                for k, v in enumerate(values):
                    self.support[k] |= bit(v)
            return True
        if not self.rest_low[i] <= self.target - total <= self.rest_high[i]:
            return True
        for d in digits_of(self.masks[i]):
            if any(values[j] == d for j in self.clash[i]):
                continue
            values[i] = d
            if self.checks[i] and not self.completable(i):
                continue
            if not self.place(i + 1, total + self.signs[i] * d):
                return False
        values[i] = 0
        return True


MAX_GROUP = 8
"""Runs a run group may have."""
MAX_GROUPS = 5_000
"""Connected run groups enumerated at most per look (the budget that keeps the rung fast)."""
MAX_BORDER = 8
"""Border cells (the equation's unknowns) a run group may have."""


def run_group_sum(state: State, _grid: object) -> Finding | None:
    """Region sums over any connected group of runs that still have empty cells.

    The runs with empty cells form a graph: a run is a node and an empty cell joins its across
    run to its down run.  For a group G of runs, the across clues in G minus the down clues in
    G (less the digits written in them) equals the empty cells whose across run is in G and
    down run is not, minus those the other way round: the cells on the group's border.  A
    group with a small border is a small equation; the smallest useful one is applied.
    """
    placed = state.placed
    open_cells = [c for c in state.puzzle.whites if c not in placed]
    if not open_cells:
        return None
    graph = _open_run_graph(state, open_cells)
    if graph is None:
        return None
    runs, ends, constant = graph
    adjacent: list[set[int]] = [set() for _ in runs]
    touching: list[list[int]] = [[] for _ in runs]
    for k, (a, d) in enumerate(ends):
        adjacent[a].add(d)
        adjacent[d].add(a)
        touching[a].append(k)
        touching[d].append(k)
    groups = _small_border_groups(adjacent, touching, ends)
    tried: set[tuple[tuple[Cell, ...], tuple[Cell, ...], int]] = set()
    budget = [MAX_GROUP_NODES]
    for border, group in sorted(groups, key=lambda g: (len(g[0]), len(g[1]))):
        plus = [open_cells[k] for k in border if ends[k][0] in group]
        minus = [open_cells[k] for k in border if ends[k][1] in group]
        target = sum(constant[i] for i in group)
        equation = (tuple(plus), tuple(minus), target)
        if equation in tried:
            continue
        if len(tried) >= MAX_EQUATIONS:
            break
        tried.add(equation)
        if _fillings(state, plus + minus) > MAX_FILLINGS:
            continue  # too open to add up by hand (and to enumerate quickly)
        if budget[0] <= 0:
            break
        removed = _group_removals(state, plus, minus, target, budget)
        if removed:
            return _group_finding(
                state, [runs[i] for i in sorted(group)], plus, minus, target, removed
            )
    return None


def _open_run_graph(
    state: State, open_cells: list[Cell]
) -> tuple[list[Run], list[tuple[int, int]], list[int]] | None:
    """The runs with empty cells, each empty cell's (across, down) run indices, and each
    run's total less its written digits (negated for down runs); None when a cell lacks a
    run or a run's total is not known yet."""
    placed = state.placed
    runs: list[Run] = []
    index: dict[Run, int] = {}
    ends: list[tuple[int, int]] = []
    for cell in open_cells:
        pair = []
        for run in state.puzzle.runs_of[cell]:
            if run not in index:
                index[run] = len(runs)
                runs.append(run)
            pair.append(index[run])
        if len(pair) != 2:
            return None
        ends.append((pair[0], pair[1]))
    constant: list[int] = []
    for run in runs:
        total = state.total(run)
        if total is None:
            return None
        rest = total - sum(placed[c] for c in run.cells if c in placed)
        constant.append(rest if run.direction is Direction.ACROSS else -rest)
    return runs, ends, constant


def _group_removals(
    state: State, plus: list[Cell], minus: list[Cell], target: int, budget: list[int]
) -> dict[Cell, int] | None:
    """The candidates no filling of ``plus - minus = target`` uses (None: out of budget)."""
    cells = plus + minus
    support = _support(state, cells, [1] * len(plus) + [-1] * len(minus), target, budget)
    if support is None:
        return None
    if not any(support):
        raise Contradiction("a group of runs has no digits for its region sum")
    removed = {c: state.cands[c] & ~s for c, s in zip(cells, support, strict=True)}
    return {c: m for c, m in removed.items() if m}


def _small_border_groups(
    adjacent: list[set[int]], touching: list[list[int]], ends: list[tuple[int, int]]
) -> list[tuple[tuple[int, ...], frozenset[int]]]:
    """Connected groups of at most :data:`MAX_GROUP` runs whose border (empty cells with one
    run inside) has 1 to :data:`MAX_BORDER` cells, as ``(border cells, group)``."""
    seen: set[frozenset[int]] = set()
    found = []
    stack: list[frozenset[int]] = [frozenset((i,)) for i in range(len(adjacent))]
    while stack and len(seen) < MAX_GROUPS:
        group = stack.pop()
        if group in seen:
            continue
        seen.add(group)
        border = tuple(
            sorted(
                {
                    k
                    for i in group
                    for k in touching[i]
                    if (ends[k][0] in group) != (ends[k][1] in group)
                }
            )
        )
        if 0 < len(border) <= MAX_BORDER:
            found.append((border, group))
        if len(group) < MAX_GROUP:
            for i in group:
                for j in adjacent[i]:
                    if j not in group:
                        bigger = group | {j}
                        if bigger not in seen:
                            stack.append(bigger)
    return found


def _group_finding(
    state: State,
    group: list[Run],
    plus: list[Cell],
    minus: list[Cell],
    target: int,
    removed: dict[Cell, int],
) -> Finding:
    across = [r for r in group if r.direction is Direction.ACROSS]
    down = [r for r in group if r.direction is Direction.DOWN]
    terms = " + ".join(cell_name(c) for c in plus)
    for c in minus:
        terms = f"{terms} - {cell_name(c)}" if terms else f"-{cell_name(c)}"

    def listed(runs: list[Run]) -> str:
        return "; ".join(f"{run_label(r)} ({state.total(r)})" for r in runs) or "none"

    cells = tuple(plus + minus)
    return Finding(
        cells,
        f"region sum over a group of runs: across {listed(across)}; down {listed(down)}. "
        f"Their empty cells coincide except {cells_text_list(cells)}, so (across clues minus "
        f"down clues, less the digits written in these runs) {terms} = {target}",
        eliminations=removed,
        evidence={c: 0x1FF & ~state.cands[c] for c in cells},
    )


def cells_text_list(cells: tuple[Cell, ...]) -> str:
    return ", ".join(cell_name(c) for c in cells)
