"""An independent checker for deduction certificates (the step list of ``kakuro explain``).

It shares no code with :mod:`kakurolab.logic`: no technique, no state class, no digit-set
table.  It replays the steps on its own candidate grid and accepts a step only when each digit
it removes is impossible in some run through that cell: no filling of that run (distinct
digits 1-9, each from the current candidates of its cell, adding up to the clue) puts the digit
there.  A step's premises are therefore one run and the current candidates, whatever the
technique's name says.  A written digit must be the last candidate of its cell.  When the
replay ends with one candidate per cell, every solution of the puzzle has those digits, so the
puzzle has at most one solution; the rule checker then shows it has exactly one.

Removals inside one step are justified in any order that works (a written digit removes
itself from the other cells of its runs only once its cell is down to it): candidates only
shrink, and a run that rules a digit out keeps ruling it out, so the order cannot make an
unsound step pass.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from ..model import Cell, Puzzle, Run

__all__ = [
    "DIGITS",
    "ClaimedStep",
    "Justified",
    "StepError",
    "StepReport",
    "allowed_here",
    "cell_label",
    "check_steps",
    "parse_cell",
    "read_steps",
    "replay",
    "run_label",
]

DIGITS = tuple(range(1, 10))
_CELL = re.compile(r"r(\d+)c(\d+)")


def cell_label(cell: Cell) -> str:
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def run_label(run: Run) -> str:
    first, last = run.cells[0], run.cells[-1]
    return f"{run.direction.value} run {cell_label(first)}-{cell_label(last)} (clue {run.clue})"


class StepError(Exception):
    """A step that does not follow; the message says which and why."""


@dataclass(frozen=True)
class ClaimedStep:
    """What a step claims, read from the certificate: removals and written digits."""

    index: int
    technique: str
    eliminations: Mapping[Cell, frozenset[int]]
    placements: Mapping[Cell, int]
    text: str = ""


@dataclass
class Justified:
    """Why one step holds: for each removed digit, the run that rules it out."""

    index: int
    technique: str
    because: list[tuple[Cell, int, Run]] = field(default_factory=list)

    def lines(self) -> list[str]:
        """One line per cell and run: the digits that run rules out there."""
        grouped: dict[tuple[Cell, Run], list[int]] = {}
        for cell, d, run in self.because:
            grouped.setdefault((cell, run), []).append(d)
        return [
            f"  {cell_label(cell)} loses {', '.join(map(str, sorted(ds)))}: {run_label(run)} "
            f"has no filling that puts {'it' if len(ds) == 1 else 'them'} there"
            for (cell, run), ds in grouped.items()
        ]


@dataclass
class StepReport:
    """The outcome: ok with the final grid, or the first step that fails and why."""

    ok: bool
    reason: str
    steps: int = 0
    removals: int = 0
    placements: int = 0
    grid: dict[Cell, int] = field(default_factory=dict)
    justified: list[Justified] = field(default_factory=list)


def parse_cell(name: str, puzzle: Puzzle) -> Cell:
    match = _CELL.fullmatch(str(name))
    if match is None:
        raise StepError(f"{name!r} is not a cell name like r3c2")
    cell = (int(match.group(1)) - 1, int(match.group(2)) - 1)
    if cell not in puzzle.runs_of:
        raise StepError(f"{name} is not a white cell of the puzzle")
    return cell


def read_steps(puzzle: Puzzle, raw: Sequence[Any]) -> list[ClaimedStep]:
    """The steps of a certificate (``Step.to_json`` objects), validated in shape only."""
    steps = []
    for i, item in enumerate(raw, 1):
        if not isinstance(item, dict):
            raise StepError(f"step {i} is not an object")
        elims: dict[Cell, frozenset[int]] = {}
        for name, digits in dict(item.get("eliminations", {})).items():
            if not isinstance(digits, list) or not all(d in DIGITS for d in digits):
                raise StepError(f"step {i}: removals from {name} are not digits 1-9")
            elims[parse_cell(name, puzzle)] = frozenset(digits)
        places: dict[Cell, int] = {}
        for name, digit in dict(item.get("placements", {})).items():
            if digit not in DIGITS:
                raise StepError(f"step {i}: {name} is written {digit!r}, not a digit 1-9")
            places[parse_cell(name, puzzle)] = digit
        steps.append(
            ClaimedStep(i, str(item.get("technique", "?")), elims, places, str(item.get("text")))
        )
    return steps


@lru_cache(maxsize=1 << 16)
def _fits(total: int, cands: tuple[frozenset[int], ...]) -> tuple[frozenset[int], ...]:
    """Per cell, the digits some filling of the run puts there.

    ``completes(i, used)``: the cells from ``i`` on can be filled, avoiding ``used``, to make
    the rest of the total.  ``reach[i]``: the digit sets the first ``i`` cells can use.  A digit
    fits cell ``i`` when some reachable prefix leaves it free and the rest completes."""

    @cache
    def completes(i: int, used: frozenset[int]) -> bool:
        rest = total - sum(used)
        if i == len(cands):
            return rest == 0
        return any(d <= rest and completes(i + 1, used | {d}) for d in cands[i] - used)

    reach: list[set[frozenset[int]]] = [{frozenset()}]
    for i in range(len(cands)):
        reach.append(
            {used | {d} for used in reach[i] for d in cands[i] - used if sum(used) + d <= total}
        )
    return tuple(
        frozenset(
            d
            for used in reach[i]
            for d in cands[i] - used
            if sum(used) + d <= total and completes(i + 1, used | {d})
        )
        for i in range(len(cands))
    )


def allowed_here(run: Run, cands: Mapping[Cell, set[int]], cell: Cell) -> frozenset[int]:
    """The digits some filling of ``run`` puts in ``cell`` under the current candidates."""
    if run.clue is None or run.clue.value is None:
        return frozenset(DIGITS)  # no numeric clue: this run rules nothing out
    support = _fits(run.clue.value, tuple(frozenset(cands[c]) for c in run.cells))
    return support[run.cells.index(cell)]


def replay(puzzle: Puzzle, steps: Sequence[ClaimedStep]) -> StepReport:
    """Replay the steps from the blank grid; the first step that does not follow fails all."""
    cands: dict[Cell, set[int]] = {cell: set(DIGITS) for cell in puzzle.runs_of}
    report = StepReport(ok=False, reason="")
    for step in steps:
        try:
            report.justified.append(_check_step(puzzle, cands, step))
        except StepError as exc:
            report.reason = f"step {step.index} [{step.technique}]: {exc}"
            return report
        report.steps += 1
        report.removals += sum(len(ds) for ds in step.eliminations.values())
        report.placements += len(step.placements)
    open_cells = sorted(c for c, ds in cands.items() if len(ds) != 1)
    if open_cells:
        report.reason = (
            f"after {len(steps)} steps {len(open_cells)} cells still have several candidates "
            f"(first {cell_label(open_cells[0])}: {sorted(cands[open_cells[0]])})"
        )
        return report
    report.grid = {cell: next(iter(ds)) for cell, ds in cands.items()}
    report.ok = True
    report.reason = (
        f"{report.steps} steps replayed: each of {report.removals} removals is ruled out by a "
        "run given the candidates before it; every cell ends with one candidate"
    )
    return report


def _check_step(puzzle: Puzzle, cands: dict[Cell, set[int]], step: ClaimedStep) -> Justified:
    pending = {(cell, d) for cell, ds in step.eliminations.items() for d in ds}
    for cell, d in sorted(pending):
        if d not in cands[cell]:
            raise StepError(f"removes {d} from {cell_label(cell)}, which no longer has it")
    done = Justified(step.index, step.technique)
    while pending:
        progress = False
        for cell, d in sorted(pending):
            for run in puzzle.runs_of[cell]:
                if d not in allowed_here(run, cands, cell):
                    cands[cell].discard(d)
                    pending.discard((cell, d))
                    done.because.append((cell, d, run))
                    progress = True
                    break
            if not cands[cell]:
                raise StepError(f"{cell_label(cell)} is left without a candidate")
        if not progress:
            cell, d = min(pending)
            runs = " and ".join(run_label(r) for r in puzzle.runs_of[cell])
            raise StepError(
                f"removing {d} from {cell_label(cell)} does not follow: {runs} "
                f"can still put {d} there"
            )
    for cell, d in sorted(step.placements.items()):
        if cands[cell] != {d}:
            raise StepError(
                f"writes {d} in {cell_label(cell)}, whose candidates are {sorted(cands[cell])}"
            )
    return done


def check_steps(puzzle: Puzzle, raw: Sequence[Any]) -> StepReport:
    """Read and replay a certificate's steps; a malformed step is a failed check."""
    try:
        steps = read_steps(puzzle, raw)
    except StepError as exc:
        return StepReport(ok=False, reason=str(exc))
    return replay(puzzle, steps)
