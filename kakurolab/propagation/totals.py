"""Cut sums: the clue totals of a band of rows (or columns) must balance.

Every white cell lies in exactly one across run and one down run, so in any connected area
the across clues and the down clues both add up to the area's digits.  Cut an area below row
``k``: its cells in rows ``<= k`` are covered once by the across runs of those rows and once
by the down runs that start there, each either wholly above the cut or crossing it with its
first ``a`` cells above.  So

    (across totals above the cut) - (down totals wholly above) = (the crossing runs' top parts)

and a top part of ``a`` cells of a run of ``n`` cells and total ``T`` lies between
``max(low(a), T - high(n - a))`` and ``min(high(a), T - low(n - a))`` (``low`` and ``high``:
the smallest and largest sums of distinct digits).  When the two sides' intervals do not meet,
no grid exists.  Columns are the same with the roles swapped; the last cut of an area is the
plain "across total = down total" count, which is what per-run propagation cannot see on a
loose grid with one clue moved by one (the ``loose-unsat`` family of issue 26: CP-SAT's linear
relaxation refutes it at once, a run-by-run search never does).

Sound only: a cut that balances proves nothing.  The check is structural (clues and shape,
no domains), built once in time linear in the cells; a change of a few totals
(:meth:`CutSums.with_totals`, the generator's look-ahead) is redone for those runs only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..model import Direction, Puzzle, Run
from ..rulebook import white_components


def low(n: int) -> int:
    """The smallest sum of ``n`` distinct digits 1-9."""
    return n * (n + 1) // 2


def high(n: int) -> int:
    """The largest sum of ``n`` distinct digits 1-9 (meaningless past 9: no such run)."""
    return n * (19 - n) // 2


def run_interval(run: Run) -> tuple[int, int]:
    """The totals a run can have: its number, or for a clueless or letter clue every sum of
    its length (letters are bounded by the run, which is sound if weak)."""
    clue = run.clue
    if clue is not None and clue.value is not None:
        return clue.value, clue.value
    n = len(run)
    return low(n), high(n)


_Span = tuple[int, int, int, int, int, int]
"""Where one run enters the cuts of one direction, ``(base, first, last, end, sign,
length)``: cuts ``base + first .. base + last - 1`` see its top part (``a = k - first + 1``
cells), cuts ``base + last .. end`` its whole total, with ``sign`` (+1: the runs lying inside
a band, -1: the crossing ones)."""

_PARTS: dict[tuple[int, int, int], tuple[int, ...]] = {}


def _parts(n: int, t_lo: int, t_hi: int) -> tuple[int, ...]:
    """The top parts' intervals of a crossing run of ``n`` cells and totals ``t_lo..t_hi``,
    for ``a = 1 .. n - 1`` cells above the cut, flat: ``(lo1, hi1, lo2, hi2, ...)``."""
    key = (n, t_lo, t_hi)
    found = _PARTS.get(key)
    if found is None:
        flat: list[int] = []
        for a in range(1, n):
            flat += (max(low(a), t_lo - high(n - a)), min(high(a), t_hi - low(n - a)))
        if len(_PARTS) > 10_000:
            _PARTS.clear()
        found = _PARTS[key] = tuple(flat)
    return found


@dataclass
class CutSums:
    """Each cut's residual interval (across side minus down side, both as intervals): a cut
    whose interval misses 0 refutes the puzzle."""

    lo: list[int]
    hi: list[int]
    spans: list[tuple[_Span, ...]]
    intervals: list[tuple[int, int]]
    refuted: bool

    @classmethod
    def of(cls, puzzle: Puzzle) -> CutSums:
        runs = puzzle.runs
        intervals = [run_interval(run) for run in runs]
        area = _areas(puzzle)
        spans: list[list[_Span]] = [[] for _ in runs]
        n_cuts = 0
        for axis in (0, 1):  # 0: cuts between rows, across runs inside; 1: between columns
            inside = Direction.ACROSS if axis == 0 else Direction.DOWN
            span_of: dict[int, tuple[int, int]] = {}
            for cell, a in area.items():
                lo_hi = span_of.get(a)
                x = cell[axis]
                span_of[a] = (x, x) if lo_hi is None else (min(lo_hi[0], x), max(lo_hi[1], x))
            base_of = {}
            for a in sorted(span_of):
                start, stop = span_of[a]
                base_of[a] = n_cuts - start
                n_cuts += stop - start + 1
            for r, run in enumerate(runs):
                a = area[run.cells[0]]
                end = base_of[a] + span_of[a][1]
                first, last = run.cells[0][axis], run.cells[-1][axis]
                sign = 1 if run.direction is inside else -1
                spans[r].append((base_of[a], first, last, end, sign, len(run)))
        found = cls([0] * n_cuts, [0] * n_cuts, [tuple(s) for s in spans], intervals, False)
        # Whole totals go on difference arrays (one entry per run, then one running sum):
        # building stays linear in the cells, not in runs times cuts.
        d_lo, d_hi = [0] * (n_cuts + 1), [0] * (n_cuts + 1)
        for r in range(len(runs)):
            found._add(r, 1, (d_lo, d_hi))
        run_lo = run_hi = 0
        for k in range(n_cuts):
            run_lo += d_lo[k]
            run_hi += d_hi[k]
            found.lo[k] += run_lo
            found.hi[k] += run_hi
        found.refuted = found._refuted()
        return found

    def with_totals(self, totals: Mapping[int, int]) -> CutSums:
        """These cuts with new numeric totals for some runs (run index -> total)."""
        other = CutSums(self.lo[:], self.hi[:], self.spans, self.intervals[:], False)
        for r, total in totals.items():
            other._add(r, -1)
            other.intervals[r] = (total, total)
            other._add(r, 1)
        other.refuted = other._refuted()
        return other

    def _add(self, r: int, times: int, diff: tuple[list[int], list[int]] | None = None) -> None:
        """Add (``times`` 1) or take back (-1) run ``r``'s part of every cut it meets; its
        whole total onto the difference arrays ``diff`` when given."""
        t_lo, t_hi = self.intervals[r]
        lo, hi = self.lo, self.hi
        for base, first, last, end, sign, n in self.spans[r]:
            if last > first:  # sign is -1: a crossing run's top part is on the down side
                parts = _parts(n, t_lo, t_hi)
                for i, k in enumerate(range(base + first, base + last)):
                    lo[k] -= times * parts[2 * i + 1]
                    hi[k] -= times * parts[2 * i]
            w_lo, w_hi = (t_lo, t_hi) if sign > 0 else (-t_hi, -t_lo)
            if diff is not None:
                d_lo, d_hi = diff
                d_lo[base + last] += times * w_lo
                d_lo[end + 1] -= times * w_lo
                d_hi[base + last] += times * w_hi
                d_hi[end + 1] -= times * w_hi
                continue
            for k in range(base + last, end + 1):
                lo[k] += times * w_lo
                hi[k] += times * w_hi

    def _refuted(self) -> bool:
        if any(t_lo > t_hi for t_lo, t_hi in self.intervals):
            return True  # a run of ten cells or more: no distinct digits
        return any(a > 0 or b < 0 for a, b in zip(self.lo, self.hi, strict=True))


def _areas(puzzle: Puzzle) -> dict[tuple[int, int], int]:
    """Each white cell's connected area (an index), areas joined through shared runs."""
    return {cell: i for i, part in enumerate(white_components(puzzle)) for cell in part}

