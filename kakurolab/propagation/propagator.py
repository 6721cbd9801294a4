"""The :class:`Propagator`: a puzzle as slot indices and the fixpoint on a state of masks.

One kernel (:mod:`.kernel`: the memoized revision of a run, generalized arc consistency on
sum + all-different) revised to a fixpoint over a flat state of masks (cells first, then the
ten letters of a cryptic puzzle).  The three searches (:mod:`.searches`) run on it.

Cryptic puzzles add ten letter variables (digits 0-9, a bijection): all-different by
singleton elimination and hidden singles, two-way filtering between a clue's letters and its
run's feasible sums, and shown letters tied to their cells.
"""

from __future__ import annotations

import copy
import functools
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import itemgetter

from ..combos import ALL_DIGITS, ALL_LETTER_DIGITS, MAX_RUN, feasible_sums
from ..model import LETTERS, Cell, Puzzle, Run, Solution
from . import depth_first
from .kernel import (
    ALL_SUMS,
    PAIR_FILTER,
    PAIR_SUMS,
    TABLES,
    pair_filter,
    pair_sums,
    revise_cached,
    run_table,
)
from .protocol import POP, Found, Key
from .totals import CutSums

_POP = POP
_LOW_DIGIT = [(m & -m).bit_length() for m in range(1 << 10)]  # the digit of a cell singleton
_SLOT_OF = {ch: i for i, ch in enumerate(LETTERS)}
_REACH = {n: sum(1 << t for t in feasible_sums(n)) for n in range(1, MAX_RUN + 1)}

NUMBER, ONE_LETTER, TWO_LETTERS, SAME_LETTERS = range(4)
"""A run's clue shape (:attr:`Propagator.kind`): a number (or none), one letter ``X`` (its
digit is the sum), two letters ``XY`` and a doubled letter ``XX`` (11 times its digit)."""


class Propagator:
    """A puzzle's structure as slot indices, its initial state, and the fixpoint on a state.

    ``initial`` is the state before any propagation; :meth:`propagate` revises the given runs
    (and letters) until nothing changes, in place, and answers False on a wiped-out domain;
    :meth:`root` is the fixpoint of the initial state.  Only values that no solution uses are
    ever removed, so every solution lies inside a propagated state.
    """

    propagations: int = 0

    def __init__(self, puzzle: Puzzle, *, cut_sums: bool = True) -> None:
        """``cut_sums=False`` leaves out the band totals check (:mod:`.totals`): tests that
        need the searches themselves to refute a puzzle whose clue totals do not balance."""
        self.cells = cells = puzzle.whites
        self.n_cells = n = len(cells)
        self.cryptic = puzzle.is_cryptic
        self.base = n  # state slot of letter A (cryptic only)
        n_slots = n + (len(LETTERS) if self.cryptic else 0)
        index = dict(zip(cells, range(n), strict=True))

        runs = puzzle.runs
        run_cells = [_members(run.cells, index) for run in runs]
        cell_runs: list[list[int]] = [[] for _ in range(n)]
        for r, members in enumerate(run_cells):
            for c in members:
                cell_runs[c].append(r)
        fixed, kinds, tables, clue_slots, letter_runs = _clue_kinds(runs, n, n_slots)
        self.run_cells, self.cell_runs, self.letter_runs = run_cells, cell_runs, letter_runs
        self.run_get = [
            itemgetter(*members) if len(members) > 1 else _single(members[0])
            for members in run_cells
        ]
        self.reach = [_REACH.get(len(members), 0) for members in run_cells]
        self.fixed, self.kind, self.tables, self.clue_slots = fixed, kinds, tables, clue_slots
        self.cell_letter = [-1] * n
        self.letter_cells: list[list[int]] = [[] for _ in range(n_slots)]
        for cell, letter in puzzle.shown_letters.items():
            slot = n + _SLOT_OF[letter]
            self.cell_letter[index[cell]] = slot
            self.letter_cells[slot].append(index[cell])

        state = [ALL_DIGITS] * n
        self.order = list(range(n))
        if self.cryptic:
            state += self._letter_start(n_slots)
            # Letters first on ties (they decide whole clues).  A letter that no clue or cell
            # shows is never branched on: it changes no grid, and branching on it would reach
            # the same grid twice; it gets a free digit once the grid is complete.
            used = [s for s in range(n, n_slots) if self.letter_runs[s] or self.letter_cells[s]]
            self.order = used + self.order
        self.initial = state
        self.letter_slots = tuple(range(n, n_slots))
        self._puzzle: Puzzle | None = puzzle
        self._puzzle_of: Callable[[], Puzzle] | None = None
        self.use_cuts = cut_sums
        self._cuts: CutSums | None = None
        self._root: tuple[list[int] | None] | None = None  # root()'s answer, once known

    def _letter_start(self, n_slots: int) -> list[int]:
        """The letters' initial masks: 0-9, but a leading letter and a shown one are not 0."""
        n = self.n_cells
        letters = [ALL_LETTER_DIGITS] * len(LETTERS)
        for r, kind in enumerate(self.kind):
            if kind in (TWO_LETTERS, SAME_LETTERS):
                letters[self.clue_slots[r][0] - n] &= ~1  # a leading digit is never 0
        for slot in range(n, n_slots):
            if self.letter_cells[slot]:
                letters[slot - n] &= ~1  # a letter shown in a cell is a digit 1-9
        return letters

    @classmethod
    def numeric(
        cls,
        cells: Sequence[Cell],
        runs: Sequence[Sequence[Cell]],
        totals: Sequence[int],
        puzzle: Callable[[], Puzzle],
    ) -> Propagator:
        """The propagator of a numeric puzzle with these white ``cells`` (row-major) and
        ``runs`` (across first, each in reading order of its first cell, as ``Puzzle.runs``
        lists them) summing to ``totals``: the same as ``Propagator(puzzle(),
        cut_sums=False)``, without building the puzzle (``puzzle`` is called only if
        :attr:`puzzle` is read).  The generator checks thousands of grown layouts of
        2,400 cells, and building each one's puzzle and run tables from its grid was a
        tenth of a 60x60 generation.  No cut sums: for a caller that holds a solution of
        the clues, whose totals therefore balance."""
        self = cls.__new__(cls)
        self.cells = cells = tuple(cells)
        self.n_cells = n = len(cells)
        self.cryptic = False
        self.base = n
        index = dict(zip(cells, range(n), strict=True))
        self.run_cells = run_cells = [_members(tuple(run), index) for run in runs]
        cell_runs: list[list[int]] = [[] for _ in range(n)]
        for r, members in enumerate(run_cells):
            for c in members:
                cell_runs[c].append(r)
        self.cell_runs = cell_runs
        self.letter_runs = [[] for _ in range(n)]
        self.run_get = [
            itemgetter(*members) if len(members) > 1 else _single(members[0])
            for members in run_cells
        ]
        self.reach = [_REACH.get(len(members), 0) for members in run_cells]
        self.fixed = [1 << total for total in totals]
        if len(self.fixed) != len(run_cells):
            raise ValueError("one total per run")
        self.kind = [NUMBER] * len(run_cells)
        self.tables = [run_table(sums) for sums in self.fixed]
        self.clue_slots = [(0, 0)] * len(run_cells)
        self.cell_letter = [-1] * n
        self.letter_cells = [[] for _ in range(n)]
        self.order = list(range(n))
        self.initial = [ALL_DIGITS] * n
        self.letter_slots = ()
        self._puzzle = None
        self._puzzle_of = puzzle
        self.use_cuts = False
        self._cuts = None
        self._root = None
        return self

    @functools.cached_property
    def slot_of(self) -> dict[Cell, int]:
        """Each white cell's state slot (shared with the propagators :meth:`with_totals`
        derives from this one after the first use: the same cells)."""
        return {cell: i for i, cell in enumerate(self.cells)}

    @property
    def puzzle(self) -> Puzzle:
        """The puzzle this propagator was built from (its clues: the base's, for a
        propagator derived by :meth:`with_totals`)."""
        if self._puzzle is None:
            if self._puzzle_of is None:  # pragma: no cover - every constructor sets one
                raise AssertionError("a propagator without its puzzle")
            self._puzzle = self._puzzle_of()
        return self._puzzle

    def with_totals(self, totals: Mapping[int, int]) -> Propagator:
        """This propagator with new totals for some numeric runs (run index -> total): the
        generator's look-ahead tries many one-digit changes of one grid, which change two
        runs' clues and nothing else, so the tables of the rest are shared, not rebuilt."""
        other = copy.copy(self)
        other.fixed, other.tables = self.fixed[:], self.tables[:]
        other._root = None  # other clues, another fixpoint
        for r, total in totals.items():
            if self.kind[r] != NUMBER:
                raise ValueError(f"run {r} has a letter clue")
            other.fixed[r] = 1 << total
            other.tables[r] = run_table(other.fixed[r])
        # The base's cuts are built once and each variant's redone for its runs only (the
        # look-ahead roots many variants of one propagator).
        base = self.cuts
        if base is not None:
            other._cuts = base.with_totals(totals)
        return other

    @property
    def cuts(self) -> CutSums | None:
        """The cut sums (:mod:`.totals`), built on first use (None with ``cut_sums=False``):
        most published puzzles are settled by propagation and never need them."""
        if self._cuts is None and self.use_cuts:
            self._cuts = CutSums.of(self.puzzle)
        return self._cuts

    @property
    def refuted(self) -> bool:
        """The clue totals of some band do not balance (:mod:`.totals`): no grid exists."""
        cuts = self.cuts
        return cuts is not None and cuts.refuted

    def cuts_refute(self, state: list[int]) -> bool:
        """Whether the cut sums refute a propagated ``state`` that propagation left open.

        A state propagation completed is a grid, whose totals balance, so the cuts are only
        built (a few milliseconds on a 250-cell grid, several times its root fixpoint) when
        search would otherwise start."""
        pop = _POP
        return any(pop[m] > 1 for m in state[: self.n_cells]) and self.refuted

    def root(self) -> list[int] | None:
        """The fixpoint of the initial state (None when the clues contradict each other),
        a fresh copy each time: computed once per propagator, since the generator's check
        and its repairs' look-ahead both root the same grid."""
        if self._root is None:
            state = self.initial[:]
            letters = self.letter_slots if self.cryptic else ()
            runs = range(len(self.run_cells))
            fine = self._propagate(state, runs, letters) and not self.cuts_refute(state)
            self._root = (state if fine else None,)
        known = self._root[0]
        return None if known is None else known[:]

    def propagate(self, state: list[int], runs: Iterable[int], letters: Iterable[int] = ()) -> bool:
        """Revise ``runs`` and ``letters`` of ``state`` (in place) to the fixpoint."""
        return self._propagate(state, runs, letters)

    def assign(self, state: list[int], slot: int, mask: int) -> bool:
        """Narrow ``slot`` of ``state`` to ``mask`` (in place) and propagate what it touches."""
        state[slot] &= mask
        return self.narrowed(state, slot)

    search = depth_first.search
    """The depth-first search from a start state (:func:`.depth_first.search`, which says
    what its options do), this propagator handed in as its fixpoint."""

    def solution(self, found: Found) -> Solution:
        """The :class:`Solution` of a grid the search reached."""
        return self._solution(*found)

    def narrowed(self, state: list[int], var: int) -> bool:
        """Propagate after a search narrowed ``var`` (a cell or a letter slot) of ``state``, in
        place; False on a wiped-out domain."""
        if var >= self.n_cells:
            return self._propagate(state, (), (var,))
        slot = self.cell_letter[var]
        if slot < 0:
            return self._propagate(state, self.cell_runs[var], ())
        tied = state[slot] & (state[var] << 1)
        if not tied:
            return False
        if tied == state[slot]:
            return self._propagate(state, self.cell_runs[var], ())
        state[slot] = tied
        return self._propagate(state, self.cell_runs[var], (slot,))

    def _propagate(self, s: list[int], runs: Iterable[int], letters: Iterable[int]) -> bool:
        """Revise runs (and letters) until nothing changes; False on a wiped-out domain.

        ``runs`` are the runs to revise first; ``letters`` the letter slots whose masks changed
        and whose consequences (all-different, shown cells, clue runs) are still to draw.
        """
        if not self.cryptic:
            return self._propagate_numeric(s, runs)
        run_get, run_cells, cell_runs = self.run_get, self.run_cells, self.cell_runs
        tables, fixed, kind, reach = self.tables, self.fixed, self.kind, self.reach
        clue_slots, cell_letter = self.clue_slots, self.cell_letter
        tables_get, pair_sums_get, pair_filter_get = TABLES.get, PAIR_SUMS.get, PAIR_FILTER.get
        queued = bytearray(len(run_cells))
        queue = deque(runs)
        for r in queue:
            queued[r] = 1
        dirty = set(letters)
        check_letters = False
        revisions = 0
        try:
            while True:
                while queue and not dirty:
                    r = queue.popleft()
                    queued[r] = 0
                    revisions += 1
                    table = tables[r]
                    doms = run_get[r](s)
                    if table is not None:
                        found = table.get(doms)
                        if found is None:
                            found = revise_cached(table, doms, fixed[r])
                    else:
                        tens, units = clue_slots[r]
                        k = kind[r]
                        if k == ONE_LETTER:
                            sums = s[tens]
                        else:
                            # Inline pair_key() and the cache lookups: this is the hot loop.
                            pair = s[tens] << 11 | s[units] << 1 | (k == SAME_LETTERS)
                            cached = pair_sums_get(pair)
                            sums = (
                                cached
                                if cached is not None
                                else pair_sums(s[tens], s[units], k == SAME_LETTERS)
                            )
                        # Totals the run's length cannot reach change nothing: drop them
                        # from the key so that more letter states share one answer.
                        reachable = sums & reach[r]
                        table = tables_get(reachable)
                        if table is None:
                            table = run_table(reachable)
                        found = table.get(doms)
                        if found is None:
                            found = revise_cached(table, doms, reachable)
                        if found and found[0] != sums:
                            # Feasible sums cut the clue's letters.
                            if k == ONE_LETTER:
                                news: tuple[tuple[int, int], ...] = ((tens, s[tens] & found[0]),)
                            else:
                                cut = pair_filter_get((pair, found[0]))
                                if cut is None:
                                    cut = pair_filter(
                                        s[tens], s[units], k == SAME_LETTERS, found[0]
                                    )
                                news = ((tens, cut[0]), (units, cut[1]))
                            for slot, new in news:
                                if new != s[slot]:
                                    if not new:
                                        return False
                                    s[slot] = new
                                    dirty.add(slot)
                    if not found:
                        return False
                    if len(found) > 1:
                        members = run_cells[r]
                        for j in range(1, len(found), 2):
                            c = members[found[j]]
                            new = found[j + 1]
                            s[c] = new
                            for r2 in cell_runs[c]:
                                if r2 != r and not queued[r2]:
                                    queued[r2] = 1
                                    queue.append(r2)
                            slot = cell_letter[c]
                            if slot >= 0:
                                tied = s[slot] & (new << 1)
                                if not tied:
                                    return False
                                if tied != s[slot]:
                                    s[slot] = tied
                                    dirty.add(slot)
                if dirty:
                    if not self._letters_changed(s, dirty, queue, queued):
                        return False
                    check_letters = True
                    continue
                if not check_letters:
                    return True
                # The run queue is empty: only now look for hidden singles (a full scan).
                check_letters = False
                found_singles = self._hidden_singles(s)
                if found_singles is None:
                    return False
                dirty.update(found_singles)
        finally:
            self.propagations += revisions

    def _propagate_numeric(self, s: list[int], runs: Iterable[int]) -> bool:
        """:meth:`_propagate` for a numeric puzzle: the same revisions in the same order,
        without the letter bookkeeping (no letter slots, every run a numeric table).  The
        generator roots and searches numeric grids of 2,400 cells thousands of times, and
        this loop is most of that work."""
        run_get, run_cells, cell_runs = self.run_get, self.run_cells, self.cell_runs
        tables, fixed = self.tables, self.fixed
        queued = bytearray(len(run_cells))
        queue = deque(runs)
        for r in queue:
            queued[r] = 1
        pop, push = queue.popleft, queue.append
        revisions = 0
        try:
            while queue:
                r = pop()
                queued[r] = 0
                revisions += 1
                table = tables[r]
                doms = run_get[r](s)
                found = table.get(doms)  # type: ignore[union-attr]
                if found is None:
                    found = revise_cached(table, doms, fixed[r])  # type: ignore[arg-type]
                if not found:
                    return False
                if len(found) > 1:
                    members = run_cells[r]
                    for j in range(1, len(found), 2):
                        c = members[found[j]]
                        s[c] = found[j + 1]
                        for r2 in cell_runs[c]:
                            if r2 != r and not queued[r2]:
                                queued[r2] = 1
                                push(r2)
            return True
        finally:
            self.propagations += revisions

    def _letters_changed(
        self, s: list[int], dirty: set[int], queue: deque[int], queued: bytearray
    ) -> bool:
        """Draw the cheap consequences of changed letter masks (``dirty`` is emptied): their
        clue runs are queued, shown cells follow them, and a decided letter's digit leaves
        the other letters.  False on a contradiction."""
        cell_runs, letter_runs, letter_cells = self.cell_runs, self.letter_runs, self.letter_cells
        letters = self.letter_slots
        while dirty:
            slot = dirty.pop()
            for r in letter_runs[slot]:
                if not queued[r]:
                    queued[r] = 1
                    queue.append(r)
            mask = s[slot]
            for c in letter_cells[slot]:
                new = s[c] & (mask >> 1)
                if new != s[c]:
                    if not new:
                        return False
                    s[c] = new
                    for r in cell_runs[c]:
                        if not queued[r]:
                            queued[r] = 1
                            queue.append(r)
                mask &= new << 1
            if mask != s[slot]:  # its cells cut the letter further
                if not mask:
                    return False
                s[slot] = mask
            if not mask & (mask - 1):
                s[slot] = 0  # skip itself below (a failing state is dropped anyway)
                for other in letters:
                    if s[other] & mask:
                        new = s[other] & ~mask
                        if not new:
                            return False
                        s[other] = new
                        dirty.add(other)
                s[slot] = mask
        return True

    def _hidden_singles(self, s: list[int]) -> list[int] | None:
        """Ten letters onto ten digits: a digit only one letter can take is that letter's.
        Returns the letter slots decided here, None when a digit has no letter left or one
        letter is the only taker of two digits."""
        base = self.base
        once = twice = 0
        for m in s[base : base + len(LETTERS)]:
            twice |= once & m
            once |= m
        if once != ALL_LETTER_DIGITS:
            return None
        hidden = once & ~twice
        decided = []
        if hidden:
            for slot in range(base, base + len(LETTERS)):
                h = s[slot] & hidden
                if h and h != s[slot]:
                    if h & (h - 1):
                        return None
                    s[slot] = h
                    decided.append(slot)
        return decided

    # -- answers ---------------------------------------------------------------------------

    def key(self, state: list[int]) -> Key:
        """The grid of a complete state: its cell digits in cell order."""
        low = _LOW_DIGIT
        return tuple([low[m] for m in state[: self.n_cells]])

    def letter_digits(self, state: list[int]) -> tuple[int, ...] | None:
        """Digits for A..J at a complete grid: the letters the grid shows are decided by now;
        the others take the lowest free digits (a small matching, None if there is none)."""
        if not self.cryptic:
            return ()
        masks = state[self.base : self.base + len(LETTERS)]
        if sum([_POP[m] for m in masks]) == len(masks):  # all decided: the usual case
            return tuple([_LOW_DIGIT[m] - 1 for m in masks])

        def place(i: int, taken: int) -> list[int] | None:
            if i == len(masks):
                return []
            free = masks[i] & ~taken
            while free:
                low = free & -free
                rest = place(i + 1, taken | low)
                if rest is not None:
                    return [low.bit_length() - 1, *rest]
                free ^= low
            return None

        digits = place(0, 0)
        return None if digits is None else tuple(digits)

    def _solution(self, key: Key, letters: tuple[int, ...]) -> Solution:
        return Solution(
            dict(zip(self.cells, key, strict=True)),
            dict(zip(LETTERS, letters, strict=True)) if self.cryptic else {},
        )


def _clue_kinds(
    runs: Sequence[Run], n: int, n_slots: int
) -> tuple[
    list[int],
    list[int],
    list[dict[tuple[int, ...], tuple[int, ...]] | None],
    list[tuple[int, int]],
    list[list[int]],
]:
    """Per run, a numeric clue's sum mask and its cache table, or for a letter clue its shape
    and the state slots of its tens and units letters (one letter: the same twice); and per
    letter slot, the runs its clues are on."""
    fixed: list[int] = []
    kinds: list[int] = []
    tables: list[dict[tuple[int, ...], tuple[int, ...]] | None] = []
    clue_slots: list[tuple[int, int]] = []
    letter_runs: list[list[int]] = [[] for _ in range(n_slots)]
    for r, run in enumerate(runs):
        clue = run.clue
        if clue is None or clue.letters is None:
            sums = ALL_SUMS if clue is None else 1 << (clue.value or 0)
            fixed.append(sums)
            kinds.append(NUMBER)
            tables.append(run_table(sums))
            clue_slots.append((0, 0))
            continue
        letters = clue.letters
        tens, units = n + _SLOT_OF[letters[0]], n + _SLOT_OF[letters[-1]]
        letter_runs[tens].append(r)
        if units != tens:
            letter_runs[units].append(r)
        fixed.append(0)
        same = tens == units
        kinds.append(ONE_LETTER if len(letters) == 1 else SAME_LETTERS if same else TWO_LETTERS)
        tables.append(None)
        clue_slots.append((tens, units))
    return fixed, kinds, tables, clue_slots, letter_runs


def _members(cells: tuple[Cell, ...], index: dict[Cell, int]) -> tuple[int, ...]:
    """The state slots of a run's cells."""
    return itemgetter(*cells)(index) if len(cells) > 1 else (index[cells[0]],)


def _single(slot: int) -> Callable[[list[int]], tuple[int, ...]]:
    """``state -> (mask,)`` for a one-cell run (``itemgetter`` of one item is no tuple)."""
    return lambda state: (state[slot],)
