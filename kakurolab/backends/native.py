"""The native backend: constraint propagation and depth-first search in plain Python.

It is the baseline every encoding is compared against, so it is built to be fast rather than
general.  The whole search state is one flat list of masks (cells first, then the ten letters
of a cryptic puzzle), copied once per decision; propagation revises runs from a queue until a
fixpoint, and each run revision is *exact* (generalized arc consistency on sum + all-different,
memoized in :mod:`._propagate`), so published puzzles solve almost without search.

Cryptic puzzles add ten letter variables (digits 0-9, a bijection): all-different by singleton
elimination and hidden singles, two-way filtering between a clue's letters and its run's
feasible sums, and shown letters tied to their cells.

Search is depth-first with 2-way branching (``x = v`` first, then ``x != v``) on the variable
with the fewest values left (letters before cells on ties), lowest value first: deterministic,
and it enumerates every solution exactly once, which is why :meth:`NativeSession.block` only
has to remember grids the search has not reached yet.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator
from operator import itemgetter
from typing import Any, ClassVar

from ..combos import ALL_DIGITS
from ..errors import KakuroError
from ..model import LETTERS, Puzzle, Solution
from ._propagate import ALL_SUMS, pair_filter, pair_sums, revise_cached, run_table
from .base import Backend, Session, Status

ALL_LETTER_DIGITS = 0x3FF
"""A letter's initial mask: digits 0-9, bit ``d`` for digit ``d``."""

CHECK_EVERY = 256
"""Nodes between two looks at the clock (a node costs tens of microseconds)."""

_POP = [m.bit_count() for m in range(1 << 10)]
_LOW_DIGIT = [(m & -m).bit_length() for m in range(1 << 10)]  # cell digit of a cell singleton

# How a run's sum mask is obtained (the ``_kind`` of a run).
_FIXED, _ONE_LETTER, _TWO_LETTERS = 0, 1, 2

_Key = tuple[int, ...]
"""What identifies a solution: its cell digits in cell order.  Like every backend, native
counts grids, never letter assignments: letters that the grid fixes add nothing, and letters
shown nowhere are not part of the grid."""


class NativeBackend(Backend):
    name = "native"
    doc = "exact per-run propagation + MRV depth-first search in pure Python (the baseline)"
    extra = None
    accepted_options: ClassVar[dict[str, str]] = {}

    def __init__(self, **options: Any) -> None:
        if options:
            raise KakuroError(
                f"backend 'native' takes no options, got {', '.join(sorted(options))}"
            )
        super().__init__()

    def _open(self, puzzle: Puzzle) -> Session:
        return NativeSession(puzzle)


class NativeSession(Session):
    """One puzzle, solved by a resumable search.

    ``next`` resumes a generator that yields each solution once (or ``None`` when the deadline
    passes, so the next call continues where the search stopped).
    """

    def __init__(self, puzzle: Puzzle) -> None:
        start = time.perf_counter()
        self.puzzle = puzzle
        self.cells = puzzle.whites
        n = len(self.cells)
        index = {cell: i for i, cell in enumerate(self.cells)}
        self.cryptic = puzzle.is_cryptic
        self.n_cells = n
        self.base = n  # state index of letter A (cryptic only)
        n_vars = n + (len(LETTERS) if self.cryptic else 0)

        runs = puzzle.runs
        self.run_cells: list[tuple[int, ...]] = [tuple(index[c] for c in r.cells) for r in runs]
        self.run_get = [_getter(cells) for cells in self.run_cells]
        self.cell_runs: list[list[int]] = [[] for _ in range(n)]
        for r, cells in enumerate(self.run_cells):
            for c in cells:
                self.cell_runs[c].append(r)
        # Per run: how to get its sum mask, and which letter state slots its clue reads.
        self.kind: list[int] = []
        self.fixed: list[int] = []
        self.clue_slots: list[tuple[int, int]] = []
        self.letter_runs: list[list[int]] = [[] for _ in range(n_vars)]
        for r, run in enumerate(runs):
            clue = run.clue
            slots = (-1, -1)
            if clue is None:
                self.kind.append(_FIXED)
                self.fixed.append(ALL_SUMS)
            elif clue.value is not None:
                self.kind.append(_FIXED)
                self.fixed.append(1 << clue.value)
            else:
                assert clue.letters is not None
                slot = [self.base + LETTERS.index(ch) for ch in clue.letters]
                self.kind.append(_ONE_LETTER if len(slot) == 1 else _TWO_LETTERS)
                self.fixed.append(0)
                slots = (slot[0], slot[-1])
                for s in set(slot):
                    self.letter_runs[s].append(r)
            self.clue_slots.append(slots)
        self.tables = [run_table(sums) if sums else {} for sums in self.fixed]
        # Shown letters: cell slot <-> letter slot.
        self.cell_letter = [-1] * n
        self.letter_cells: list[list[int]] = [[] for _ in range(n_vars)]
        for cell, letter in puzzle.shown_letters.items():
            slot = self.base + LETTERS.index(letter)
            self.cell_letter[index[cell]] = slot
            self.letter_cells[slot].append(index[cell])

        state = [ALL_DIGITS] * n
        if self.cryptic:
            state += [ALL_LETTER_DIGITS] * len(LETTERS)
            for r, kind in enumerate(self.kind):
                if kind == _TWO_LETTERS:
                    state[self.clue_slots[r][0]] &= ~1  # a leading digit is never 0
            for slot in set(self.cell_letter) - {-1}:
                state[slot] &= ~1  # a letter shown in a cell is a digit 1-9
        self.initial = state
        # Branching order: letters first (they decide whole clues), then cells.  A letter that
        # no clue or cell shows is never branched on: it changes no grid, and branching on it
        # would reach the same grid twice; it gets a free digit when the grid is complete.
        used = [s for s in range(n, n_vars) if self.letter_runs[s] or self.letter_cells[s]]
        self.order = used + list(range(n))

        self.blocked: set[_Key] = set()
        self.deadline: float | None = None
        self.nodes = self.propagations = self.fails = self.max_depth = self.solutions = 0
        self.search = self._search()
        self.done = False
        self.encode_time = time.perf_counter() - start

    # -- the session interface -------------------------------------------------------------

    def next(self, timeout: float | None = None) -> tuple[Status, Solution | None]:
        """The next solution not blocked, ``UNSAT`` once none is left, ``UNKNOWN`` on timeout."""
        if self.done:
            return Status.UNSAT, None
        self.deadline = None if timeout is None else time.perf_counter() + timeout
        for found in self.search:
            if found is None:
                return Status.UNKNOWN, None
            key, letters = found
            if key in self.blocked:
                continue
            self.solutions += 1
            return Status.SAT, self._solution(key, letters)
        self.done = True
        return Status.UNSAT, None

    def block(self, solution: Solution) -> None:
        """Exclude a grid from later answers.

        The search never reaches a grid twice, so a grid already returned needs nothing; a grid
        not reached yet is remembered and skipped when the search gets there.
        """
        values = solution.values
        if all(cell in values for cell in self.cells):  # else no grid of this puzzle
            self.blocked.add(tuple(values[cell] for cell in self.cells))

    def stats(self) -> dict[str, Any]:
        return {
            "nodes": self.nodes,
            "propagations": self.propagations,
            "fails": self.fails,
            "max_depth": self.max_depth,
            "solutions": self.solutions,
        }

    # -- search ----------------------------------------------------------------------------

    def _search(self) -> Iterator[tuple[_Key, tuple[int, ...]] | None]:
        """Depth-first search: yields each grid once with its letter digits (A..J, empty for
        standard puzzles), or ``None`` when the deadline has passed."""
        propagate = self._propagate
        order = self.order
        pop = _POP
        state = self.initial[:]
        if not propagate(state, range(len(self.run_cells)), self._all_letters()):
            return
        stack: list[tuple[list[int], int, int]] = []  # pending "x != v" branches
        current: list[int] | None = state
        countdown = CHECK_EVERY
        while True:
            if current is not None:
                self.nodes += 1
                countdown -= 1
                if not countdown:
                    countdown = CHECK_EVERY
                    if self.deadline is not None and time.perf_counter() > self.deadline:
                        yield None
                var, best = -1, 11
                for i in order:
                    size = pop[current[i]]
                    if 1 < size < best:
                        var, best = i, size
                        if size == 2:
                            break
                if var < 0:
                    letters = self._letter_digits(current)
                    if letters is not None:
                        yield self._key(current), letters
                    else:
                        self.fails += 1
                else:
                    mask = current[var]
                    low = mask & -mask
                    stack.append((current, var, low))
                    if len(stack) > self.max_depth:
                        self.max_depth = len(stack)
                    child = current[:]
                    child[var] = low
                    if self._assign(child, var):
                        current = child
                        continue
                    self.fails += 1
            # Backtrack: take the most recent pending "x != v" branch that propagates.
            while True:
                if not stack:
                    return
                current, var, low = stack.pop()
                current[var] &= ~low
                if self._assign(current, var):
                    break
                self.fails += 1

    def _assign(self, state: list[int], var: int) -> bool:
        """Propagate after the search narrowed ``var``."""
        if var < self.n_cells:
            letters = []
            slot = self.cell_letter[var]
            if slot >= 0:
                tied = state[slot] & (state[var] << 1)
                if not tied:
                    return False
                if tied != state[slot]:
                    state[slot] = tied
                    letters.append(slot)
            return self._propagate(state, self.cell_runs[var], letters)
        return self._propagate(state, (), [var])

    def _all_letters(self) -> list[int]:
        return list(range(self.base, self.base + len(LETTERS))) if self.cryptic else []

    def _propagate(self, s: list[int], runs: Any, letters: list[int]) -> bool:
        """Revise runs (and letters) until nothing changes; False on a wiped-out domain.

        ``runs`` are the runs to revise first; ``letters`` the letter slots whose masks changed
        and whose consequences (all-different, shown cells, clue runs) are still to draw.
        """
        run_get, run_cells, cell_runs = self.run_get, self.run_cells, self.cell_runs
        tables = self.tables
        kind, fixed, clue_slots = self.kind, self.fixed, self.clue_slots
        cell_letter = self.cell_letter
        queued = bytearray(len(run_cells))
        queue = deque(runs)
        for r in queue:
            queued[r] = 1
        dirty = set(letters)
        revisions = 0
        try:
            while True:
                while queue:
                    r = queue.popleft()
                    queued[r] = 0
                    revisions += 1
                    k = kind[r]
                    if k == _FIXED:
                        sums = fixed[r]
                        table = tables[r]
                    else:
                        tens, units = clue_slots[r]
                        if k == _ONE_LETTER:
                            sums = s[tens]
                        else:
                            sums = pair_sums(s[tens], s[units], tens == units)
                        table = run_table(sums)
                    doms = run_get[r](s)
                    found = table.get(doms)
                    if found is None:
                        found = revise_cached(table, doms, sums)
                    if not found:
                        return False
                    feasible = found[0]
                    if len(found) > 1:
                        cells = run_cells[r]
                        for j in range(1, len(found), 2):
                            c = cells[found[j]]
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
                    if k != _FIXED and feasible != sums:
                        tens, units = clue_slots[r]
                        if k == _ONE_LETTER:
                            new_tens = new_units = s[tens] & feasible
                        else:
                            new_tens, new_units = pair_filter(
                                s[tens], s[units], tens == units, feasible
                            )
                        for slot, new in ((tens, new_tens), (units, new_units)):
                            if new != s[slot]:
                                if not new:
                                    return False
                                s[slot] = new
                                dirty.add(slot)
                if not dirty:
                    return True
                changed = self._letters_alldiff(s, dirty)
                if changed is None:
                    return False
                dirty = set()
                for slot in changed:
                    for r2 in self.letter_runs[slot]:
                        if not queued[r2]:
                            queued[r2] = 1
                            queue.append(r2)
                    letter = s[slot]
                    for c in self.letter_cells[slot]:
                        new = s[c] & (letter >> 1)
                        if new != s[c]:
                            if not new:
                                return False
                            s[c] = new
                            for r2 in cell_runs[c]:
                                if not queued[r2]:
                                    queued[r2] = 1
                                    queue.append(r2)
                        letter &= new << 1
                    if letter != s[slot]:  # cells may cut the letter further
                        if not letter:
                            return False
                        s[slot] = letter
                        dirty.add(slot)
        finally:
            self.propagations += revisions

    def _letters_alldiff(self, s: list[int], changed: set[int]) -> set[int] | None:
        """Ten letters onto ten digits: remove a decided letter's digit from the others and
        give a digit to the only letter that can still take it.  Returns every letter slot
        changed here or before (``changed`` grows in place), None on a contradiction."""
        slots = range(self.base, self.base + len(LETTERS))
        progress = True
        while progress:
            progress = False
            for i in slots:
                m = s[i]
                if m & (m - 1):
                    continue
                for j in slots:
                    if j != i and s[j] & m:
                        new = s[j] & ~m
                        if not new:
                            return None
                        s[j] = new
                        changed.add(j)
                        progress = True
            seen_once = seen_twice = 0
            for i in slots:
                m = s[i]
                seen_twice |= seen_once & m
                seen_once |= m
            if seen_once != ALL_LETTER_DIGITS:
                return None  # some digit has no letter left
            hidden = seen_once & ~seen_twice
            if hidden:
                for i in slots:
                    m = s[i] & hidden
                    if m and m != s[i]:
                        if m & (m - 1):
                            return None  # one letter would need two digits
                        s[i] = m
                        changed.add(i)
                        progress = True
        return changed

    # -- answers ---------------------------------------------------------------------------

    def _key(self, state: list[int]) -> _Key:
        low = _LOW_DIGIT
        return tuple(low[m] for m in state[: self.n_cells])

    def _letter_digits(self, state: list[int]) -> tuple[int, ...] | None:
        """Digits for A..J at a complete grid: the letters the grid shows are decided by now;
        the others take the lowest free digits (a small matching, None if there is none)."""
        if not self.cryptic:
            return ()
        masks = state[self.base : self.base + len(LETTERS)]

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

    def _solution(self, key: _Key, letters: tuple[int, ...]) -> Solution:
        return Solution(
            dict(zip(self.cells, key, strict=True)),
            dict(zip(LETTERS, letters, strict=True)) if self.cryptic else {},
        )


def _getter(cells: tuple[int, ...]) -> Any:
    """A fast ``state -> tuple of the run's masks`` (itemgetter returns a bare item for one)."""
    if len(cells) == 1:
        only = cells[0]
        return lambda state: (state[only],)
    return itemgetter(*cells)
