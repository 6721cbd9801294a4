"""Named human techniques, simplest first, each looking at one cell or one run.

A technique reads the state and returns a :class:`Finding` (what it may remove or write, and
why, in words) or ``None``.  It never changes the state: the engine in
:mod:`kakurolab.logic.engine` applies findings, so every change is recorded as a
:class:`Step` a person can check.  The registry :data:`TECHNIQUES` is the ladder: the engine
always uses the simplest technique that still finds something, which is what makes "the
hardest technique needed" a difficulty measure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from .. import combos
from ..combos import bit, digits_of, format_mask, popcount
from ..model import Cell, Run
from ..propagation.kernel import revise_run
from .candidates import Contradiction, State, cell_name, cells_text, letter_digits, run_label


@dataclass(frozen=True)
class Finding:
    """What one technique found: digits to remove, digits to write, and the reason.

    ``evidence`` names the candidates whose *absence* the reasoning relies on (cell -> mask);
    a hint uses it to show the earlier steps that removed them.

    Examples:
        >>> from kakurolab.logic import BY_NAME, State
        >>> finding = BY_NAME["unique partition"].find(State.initial(puzzle), puzzle.runs[0])
        >>> finding.cells, finding.reason
        (((1, 2), (1, 3)), ...)
    """

    cells: tuple[Cell, ...]
    reason: str
    eliminations: Mapping[Cell, int] = field(default_factory=dict)
    placements: Mapping[Cell, int] = field(default_factory=dict)
    evidence: Mapping[Cell, int] = field(default_factory=dict)
    letter_eliminations: Mapping[str, int] = field(default_factory=dict)
    """Cryptic puzzles: digits (bit ``d`` for ``d``) a letter can no longer stand for."""


@dataclass(frozen=True)
class Step:
    """One applied deduction: the technique, the cells it looked at, what changed, in words.

    ``eliminations`` maps a cell to the mask of digits removed from it (including the
    no-repeat removals that writing a digit implies); ``placements`` maps a cell to the digit
    written.  ``premises`` are indices of earlier steps whose removals this one relies on.

    Examples:
        >>> from kakurolab.logic import deduce
        >>> step = deduce(puzzle).steps[0]
        >>> step.to_json()["text"]
        'row 2, cells 3-4: 17 in two cells is only {8, 9}, so removes 1-7 from r2c3, r2c4'
    """

    technique: str
    cells: tuple[Cell, ...]
    eliminations: Mapping[Cell, int]
    placements: Mapping[Cell, int]
    text: str
    premises: tuple[int, ...] = ()
    letter_eliminations: Mapping[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        extra: dict[str, object] = {}
        if self.letter_eliminations:
            extra["letter_eliminations"] = {
                ch: list(letter_digits(m)) for ch, m in sorted(self.letter_eliminations.items())
            }
        return {
            **extra,
            "technique": self.technique,
            "cells": [cell_name(c) for c in self.cells],
            "placements": {cell_name(c): d for c, d in sorted(self.placements.items())},
            "eliminations": {
                cell_name(c): list(digits_of(m)) for c, m in sorted(self.eliminations.items())
            },
            "premises": list(self.premises),
            "text": self.text,
        }


Scope = Literal["cell", "run", "region", "rectangle", "grid"]
"""What a technique looks at; :mod:`.scopes` lists a puzzle's targets of each."""


@dataclass(frozen=True)
class Technique:
    """A rung of the ladder: its name, difficulty weight, scope and finder.

    ``assumes_unique`` marks an argument that holds only if the puzzle has one solution (a
    swap rectangle); the engine drops such steps when that assumption fails.

    Examples:
        >>> from kakurolab.logic import TECHNIQUES
        >>> first = TECHNIQUES[0]
        >>> first.name, first.weight, first.scope
        ('clue bounds', 1, 'run')
    """

    name: str
    weight: int
    scope: Scope
    find: Callable[[State, Any], Finding | None]
    summary: str
    assumes_unique: bool = False


def _clue_words(run: Run, total: int) -> str:
    """``16 in two cells`` (``AB = 16 in two cells`` for a decided letter clue): a clue the
    way a solver says it."""
    n = len(run)
    letters = run.clue.letters if run.clue is not None else None
    shown = f"{letters} = {total}" if letters else str(total)
    return f"{shown} in {_count_word(n)} cell{'s' if n != 1 else ''}"


_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _count_word(n: int) -> str:
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def _sets_text(sets: tuple[int, ...] | list[int]) -> str:
    if not sets:
        return "no digit set"
    if len(sets) == 1:
        return "only " + format_mask(sets[0])
    return " or ".join(format_mask(m) for m in sets)


def digit_words(mask: int) -> str:
    """``4``, ``4 or 5``, ``1, 2 or 9``: digits in a sentence."""
    digits = [str(d) for d in digits_of(mask)]
    return digits[0] if len(digits) == 1 else ", ".join(digits[:-1]) + " or " + digits[-1]


def _union(sets: tuple[int, ...] | list[int]) -> int:
    mask = 0
    for m in sets:
        mask |= m
    return mask


def _restrict(state: State, cells: list[Cell] | tuple[Cell, ...], allowed: int) -> dict[Cell, int]:
    """Removals that confine ``cells`` to ``allowed``."""
    removed = {}
    for cell in cells:
        extra = state.cands[cell] & ~allowed
        if extra:
            removed[cell] = extra
    return removed


def _absent(state: State, cells: list[Cell] | tuple[Cell, ...]) -> dict[Cell, int]:
    """The removed candidates of ``cells``: what a run-level argument rests on."""
    return {c: combos.ALL_DIGITS & ~state.cands[c] for c in cells if c not in state.placed}


# --- the techniques -------------------------------------------------------------------------


def naked_single(state: State, cell: Cell) -> Finding | None:
    """A cell with one candidate left gets that digit."""
    mask = state.cands[cell]
    if cell in state.placed or popcount(mask) != 1:
        return None
    (digit,) = digits_of(mask)
    return Finding(
        (cell,),
        f"{cell_name(cell)} has only {digit} left as a candidate",
        placements={cell: digit},
        evidence={cell: combos.ALL_DIGITS & ~mask},
    )


def unique_partition(state: State, run: Run) -> Finding | None:
    """A clue whose length and sum admit one digit set confines its cells to that set."""
    total = state.total(run)
    if total is None:
        return None
    sets = combos.combos(len(run), total)
    if len(sets) != 1:
        return None
    removed = _restrict(state, run.cells, sets[0])
    if not removed:
        return None
    return Finding(
        run.cells,
        f"{run_label(run)}: {_clue_words(run, total)} is {_sets_text(sets)}",
        eliminations=removed,
    )


def _allowed(state: State, run: Run) -> tuple[int, tuple[int, ...]]:
    """Digits the run's empty cells may take given its clue and written digits (any digit
    while a letter clue is undecided)."""
    if state.total(run) is None:
        return combos.ALL_DIGITS, ()
    _, _, sets = state.remaining_sets(run)
    return _union(sets), sets


def cross_intersection(state: State, cell: Cell) -> Finding | None:
    """A cell must hold a digit both of its runs allow; when only one fits, it is written."""
    if cell in state.placed:
        return None
    runs = state.puzzle.runs_of[cell]
    if len(runs) != 2 or any(state.total(run) is None for run in runs):
        return None
    (a_mask, _), (d_mask, _) = (_allowed(state, run) for run in runs)
    both = state.cands[cell] & a_mask & d_mask
    if popcount(both) != 1 or both == state.cands[cell]:
        return None
    (digit,) = digits_of(both)
    parts = []
    for run, mask in zip(runs, (a_mask, d_mask), strict=True):
        placed = [c for c in run.cells if c in state.placed]
        total = state.total(run) or 0
        if placed:
            rest = total - sum(state.placed[c] for c in placed)
            n = len(run) - len(placed)
            words = (
                f"the last empty cell must be {rest}"
                if n == 1
                else f"the {_count_word(n)} empty cells must make {rest}"
            )
        else:
            words = _clue_words(run, total)
        parts.append(f"{run_label(run)} ({words}) allows {format_mask(mask)}")
    others = state.cands[cell] & ~both
    also = f"; {format_mask(others)} are already ruled out" if others & a_mask & d_mask else ""
    return Finding(
        (cell,),
        f"{cell_name(cell)}: {parts[0]} and {parts[1]}; only {digit} fits both{also}",
        placements={cell: digit},
        evidence={cell: a_mask & d_mask & ~both},
    )


def cross_candidates(state: State) -> dict[Cell, int]:
    """The pencil marks a solver starts with: for each empty cell, its candidates that both of
    its runs allow given their clues and written digits (cross-intersection, not applied).

    Examples:
        >>> from kakurolab.logic import State, cross_candidates
        >>> marks = cross_candidates(State.initial(puzzle))
        >>> bin(marks[1, 2])  # r2c3: 17 in two cells and 15 in two cells allow 8 or 9
        '0b110000000'
    """
    marks = {}
    for cell, mask in state.cands.items():
        if cell not in state.placed:
            for run in state.puzzle.runs_of[cell]:
                mask &= _allowed(state, run)[0]
        marks[cell] = mask
    return marks


def excluded_digits(state: State, run: Run) -> Finding | None:
    """Digits that no admissible set of the clue contains leave every cell of the run."""
    total = state.total(run)
    if total is None:
        return None
    sets = combos.combos(len(run), total)
    if len(sets) < 2:
        return None
    union = _union(sets)
    removed = _restrict(state, run.cells, union)
    if not removed:
        return None
    return Finding(
        run.cells,
        f"{run_label(run)}: {_clue_words(run, total)} is {_sets_text(sets)}; "
        f"none of them uses {digit_words(combos.ALL_DIGITS & ~union)}",
        eliminations=removed,
    )


def hidden_single(state: State, run: Run) -> Finding | None:
    """A digit every remaining set of the run needs, with one cell left to hold it."""
    if state.total(run) is None:
        return None
    empty, used, sets = state.remaining_sets(run)
    if not empty or not sets:
        return None
    required = combos.ALL_DIGITS
    for m in sets:
        required &= m
    for digit in digits_of(required):
        holders = [cell for cell in empty if state.cands[cell] & bit(digit)]
        if len(holders) == 0:
            raise Contradiction(f"{run_label(run)} needs a {digit} but no cell can hold it")
        if len(holders) != 1:
            continue
        (cell,) = holders
        total = state.total(run) or 0
        if used:
            rest = total - combos.mask_sum(used)
            left = _count_word(len(empty))
            words = f"the {left} empty cells must make {rest} ({_sets_text(sets)})"
        else:
            words = f"{_clue_words(run, total)} is {_sets_text(sets)}"
        others = [c for c in empty if c != cell]
        return Finding(
            tuple(empty),
            f"{run_label(run)}: {words}, which always needs a {digit}; "
            f"{cells_text(others) or 'no other cell'} cannot hold {digit}",
            placements={cell: digit},
            evidence={c: bit(digit) for c in others},
        )
    return None


def sum_arithmetic(state: State, run: Run) -> Finding | None:
    """Once digits are written in a run, the empty cells must sum to the remainder."""
    if state.total(run) is None:
        return None
    empty, used, sets = state.remaining_sets(run)
    if not used or not empty:
        return None
    removed = _restrict(state, empty, _union(sets))
    if not removed:
        return None
    rest = (state.total(run) or 0) - combos.mask_sum(used)
    written = ", ".join(str(d) for d in digits_of(used))
    return Finding(
        tuple(empty),
        f"{run_label(run)}: with {written} written, the {_count_word(len(empty))} empty "
        f"cell{'s' if len(empty) != 1 else ''} must make {rest} from unused digits: "
        f"{_sets_text(sets)}",
        eliminations=removed,
    )


def run_sets(state: State, run: Run) -> Finding | None:
    """Only digit sets that every empty cell can take part in (and whose digits all have a
    cell) stay admissible; digits outside the surviving sets go."""
    if state.total(run) is None:
        return None
    empty, _, sets = state.remaining_sets(run)
    if not empty:
        return None
    available = _union([state.cands[c] for c in empty])
    fitting = [m for m in sets if not m & ~available and all(state.cands[c] & m for c in empty)]
    if not fitting:
        raise Contradiction(f"{run_label(run)}: no digit set fits the candidates of its cells")
    removed = _restrict(state, empty, _union(fitting))
    if not removed:
        return None
    dropped = [m for m in sets if m not in fitting]
    return Finding(
        tuple(empty),
        f"{run_label(run)}: of the sets {_sets_text(sets)}, "
        f"{' and '.join(format_mask(m) for m in dropped)} cannot be placed in the candidates "
        f"of its cells, leaving {_sets_text(fitting)}",
        eliminations=removed,
        evidence=_absent(state, empty),
    )


@lru_cache(maxsize=1 << 16)
def supported_digits(total: int, cands: tuple[int, ...]) -> tuple[int, ...]:
    """For each cell of a run, the candidates that occur in some complete valid filling
    (distinct digits, within candidates, summing to ``total``): exact run consistency.

    The one propagation kernel answers (:func:`kakurolab.propagation.kernel.revise_run`, the
    native solver's and the presolve's too); here its answer, the cells that shrank, becomes
    every cell's support, all zero when no filling exists.
    """
    if not 0 <= total <= combos.MAX_SUM or not all(cands):
        return (0,) * len(cands)
    found = revise_run(cands, 1 << total)
    if not found:
        return (0,) * len(cands)
    support = list(cands)
    for pos, mask in zip(found[1::2], found[2::2], strict=True):
        support[pos] = mask
    return tuple(support)


def run_permutations(state: State, run: Run) -> Finding | None:
    """Exact per-run consistency: a candidate stays only if some complete filling of the run
    (distinct digits from the candidates, summing to the clue) uses it."""
    total = state.total(run)
    if total is None:
        return None
    cands = tuple(state.cands[c] for c in run.cells)
    support = supported_digits(total, cands)
    removed = {
        cell: cands[i] & ~support[i] for i, cell in enumerate(run.cells) if cands[i] & ~support[i]
    }
    if not removed:
        return None
    if any(not s for s in support):
        raise Contradiction(f"{run_label(run)}: no filling fits the candidates of its cells")
    detail = "; ".join(
        f"{cell_name(c)} never takes {', '.join(map(str, digits_of(m)))}"
        for c, m in removed.items()
    )
    return Finding(
        run.cells,
        f"{run_label(run)}: trying every filling of {_clue_words(run, total)} that fits the "
        f"candidates, {detail}",
        eliminations=removed,
        evidence=_absent(state, run.cells),
    )


BASIC: tuple[Technique, ...] = (
    Technique("naked single", 1, "cell", naked_single, "a cell with one candidate left"),
    Technique(
        "unique partition",
        1,
        "run",
        unique_partition,
        "a clue whose length and sum admit one digit set",
    ),
    Technique(
        "cross-intersection",
        2,
        "cell",
        cross_intersection,
        "the digits both runs of a cell allow leave one candidate",
    ),
    Technique(
        "excluded digits",
        2,
        "run",
        excluded_digits,
        "digits in no admissible set of the clue",
    ),
    Technique(
        "hidden single",
        3,
        "run",
        hidden_single,
        "a digit every admissible set needs, with one cell left for it",
    ),
    Technique(
        "sum arithmetic",
        3,
        "run",
        sum_arithmetic,
        "the empty cells of a run must sum to the remainder",
    ),
    Technique(
        "run sets",
        5,
        "run",
        run_sets,
        "admissible sets consistent with the candidates of every cell",
    ),
    Technique(
        "run permutations",
        8,
        "run",
        run_permutations,
        "exact run consistency: each candidate extends to a full filling of the run",
    ),
)
"""The per-run rungs (the first ladder); :mod:`.ladder` adds the rungs that look across runs."""


__all__ = ["BASIC", "Finding", "Step", "Technique"]
