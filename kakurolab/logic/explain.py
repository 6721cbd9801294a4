"""Deductions and hints: run the deduction engine (:mod:`kakurolab.logic.engine`) over a
puzzle and report it as a :class:`Deduction` (its steps, the final state, solved or stuck), an
explanation, or the next :class:`Hint` for a player's position."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from .. import combos
from .. import deadline as deadlines
from ..combos import format_mask
from ..model import Cell, Puzzle, Solution
from ..rulebook import solution_problems
from .candidates import Contradiction, State, cell_name
from .engine import Engine
from .engine import digit_list as digit_list  # kept importable from here
from .engine import letters_effect as letters_effect  # kept importable from here
from .ladder import BY_NAME, TECHNIQUES
from .techniques import Step, Technique


@dataclass
class Deduction:
    """The outcome of deduction: the steps in order, the final state, where it stopped.

    ``ambiguous`` is set (by :func:`explain`) when the puzzle has more than one solution: the
    open cells where two solutions differ, which no deduction can decide.

    Examples:
        >>> from kakurolab.logic import deduce
        >>> deduction = deduce(puzzle)
        >>> deduction.solved, len(deduction.steps), deduction.steps[0].technique
        (True, 23, 'unique partition')
    """

    puzzle: Puzzle
    steps: list[Step]
    state: State
    start: State
    ambiguous: tuple[Cell, ...] | None = None
    timeout: float | None = None
    """Set (to the limit in seconds) when the deadline stopped the deduction early."""

    @property
    def timed_out(self) -> bool:
        return self.timeout is not None

    @property
    def solved(self) -> bool:
        return self.state.solved

    @property
    def placed_by_deduction(self) -> int:
        return len(self.state.placed) - len(self.start.placed)

    def technique_counts(self) -> dict[str, int]:
        """How often each technique was needed, in ladder order (unused ones omitted)."""
        counts = {t.name: 0 for t in TECHNIQUES}
        for step in self.steps:
            counts[step.technique] = counts.get(step.technique, 0) + 1
        return {name: n for name, n in counts.items() if n}

    def hardest(self) -> str | None:
        """The hardest technique used, by ladder position."""
        order = {t.name: i for i, t in enumerate(TECHNIQUES)}
        used = [s.technique for s in self.steps if s.technique in order]
        return max(used, key=order.__getitem__) if used else None

    @property
    def assumed_unique(self) -> bool:
        """Whether some step rests on the puzzle having one solution (a swap rectangle)."""
        return any(
            BY_NAME[s.technique].assumes_unique for s in self.steps if s.technique in BY_NAME
        )

    def letters(self) -> dict[str, int | None]:
        """Cryptic puzzles: each letter's digit, None while undecided."""
        return {
            ch: (m.bit_length() - 1 if not m & (m - 1) else None)
            for ch, m in self.state.letters.items()
        }

    def summary(self) -> str:
        total = len(self.puzzle.whites)
        if self.solved:
            answer = ""
            if self.state.letters:
                digits = "".join(str(d) for d in self.letters().values())
                answer = f"; letters A-J = {digits}"
            return (
                f"solved by deduction alone in {len(self.steps)} steps "
                f"(hardest technique: {self.hardest() or 'none'}){answer}"
            )
        open_cells = [c for c in self.state.cands if c not in self.state.placed]
        marks = sum(combos.popcount(self.state.cands[c]) for c in open_cells)
        stop = (
            f"deduction stops after {len(self.steps)} steps with {len(self.state.placed)} of "
            f"{total} cells written; {len(open_cells)} cells still have {marks} candidates "
            "between them"
        )
        if self.timeout is not None:
            return f"timeout after {self.timeout:g} s: {stop}"
        if self.ambiguous is not None:
            cells = ", ".join(cell_name(c) for c in self.ambiguous) or "no open cell"
            return (
                f"{stop}: the puzzle has more than one solution (two solutions found by the "
                f"native solver differ in {cells}), so no deduction can decide them"
            )
        return f"{stop}: search (trying a digit and backtracking) is needed from here"

    def to_json(self) -> dict[str, object]:
        found: dict[str, object] = {
            "id": self.puzzle.id,
            "solved": self.solved,
            "steps": [s.to_json() for s in self.steps],
            "technique_counts": self.technique_counts(),
            "hardest": self.hardest(),
            "written": len(self.state.placed),
            "white_cells": len(self.puzzle.whites),
            "state": self.state.grid_rows(),
            "ambiguous": None if self.ambiguous is None else [cell_name(c) for c in self.ambiguous],
        }
        if self.timeout is not None:
            found |= {"status": "unknown", "message": f"timeout after {self.timeout:g} s"}
        if self.state.letters:
            found["letters"] = self.letters()
        return found


def deduce(
    puzzle: Puzzle,
    start: State | None = None,
    *,
    techniques: Iterable[Technique] = TECHNIQUES,
    limit: int | None = None,
    timeout: float | None = None,
) -> Deduction:
    """Solve by deduction alone from ``start`` (the blank grid by default).

    When a uniqueness argument (which assumes one solution) leads to a contradiction, the
    puzzle has more than one solution: the deduction is redone without such arguments.
    ``timeout`` (seconds) stops it early: the result then says ``timed_out`` and holds the
    steps found so far.  A grid completed by deduction that breaks a rule (the techniques
    narrow candidates run by run, and a run's sum is only checked once it is full) proves the
    puzzle has no solution: that is a :class:`Contradiction`, never "solved".

    Examples:
        >>> from kakurolab.logic import deduce
        >>> deduce(puzzle, limit=3).solved, deduce(puzzle).solved
        (False, True)
    """
    start = State.initial(puzzle) if start is None else start
    ladder = tuple(techniques)
    with deadlines.deadline(_at(timeout)):
        engine = Engine(start.copy(), ladder)
        try:
            engine.run(limit=limit)
            _check_full_grid(puzzle, engine.state)
        except Contradiction:
            if not engine.assumed_unique:
                raise
            engine = Engine(start.copy(), [t for t in ladder if not t.assumes_unique])
            engine.run(limit=limit)
            _check_full_grid(puzzle, engine.state)
    result = Deduction(puzzle, engine.steps, engine.state, start)
    if engine.timed_out:
        result.timeout = timeout
    return result


def _check_full_grid(puzzle: Puzzle, state: State) -> None:
    """Raise :class:`Contradiction` when deduction filled every cell with a grid (and every
    letter) that breaks a rule: then no solution exists (or a uniqueness step erred)."""
    if not state.solved:
        return
    letters = {ch: m.bit_length() - 1 for ch, m in state.letters.items() if not m & (m - 1)}
    if len(letters) < len(state.letters):
        return
    problems = solution_problems(puzzle, Solution(dict(state.placed), letters))
    if problems:
        raise Contradiction(f"deduction completes a grid that breaks a rule: {problems[0]}")


def _at(timeout: float | None) -> float | None:
    """The deadline ``timeout`` seconds from now (None: none)."""
    return None if timeout is None else time.perf_counter() + timeout


def _left(at: float | None) -> float | None:
    """Seconds left until ``at`` (None: no deadline)."""
    return None if at is None else max(0.0, at - time.perf_counter())


def explain_puzzle(
    puzzle: Puzzle,
    start: State | None = None,
    *,
    techniques: Iterable[Technique] = TECHNIQUES,
    backend: str = "native",
    timeout: float | None = None,
) -> Deduction:
    """:func:`deduce`, then, when it stops or leaned on uniqueness, ask a solver whether the
    puzzle has more than one solution; if so, deduce again without uniqueness arguments and
    name the open cells where two solutions differ (deduction never guesses between them).
    ``timeout`` bounds the whole: past it the result is ``timed_out``.

    Examples:
        >>> from kakurolab.logic import explain_puzzle
        >>> explanation = explain_puzzle(puzzle)  # also says where two solutions differ, if any
        >>> explanation.solved, explanation.ambiguous
        (True, None)
    """
    start = State.initial(puzzle) if start is None else start
    ladder = tuple(techniques)
    at = _at(timeout)
    result = deduce(puzzle, start, techniques=ladder, timeout=timeout)
    if result.timed_out or (result.solved and not result.assumed_unique):
        return result
    from ..uniqueness import Verdict, prove_unique

    verdict = prove_unique(puzzle, backend=backend, timeout=_left(at))
    if verdict.verdict is Verdict.UNKNOWN and at is not None:
        result.timeout = timeout
        return result
    if verdict.verdict is not Verdict.MULTIPLE:
        return result
    if result.assumed_unique:
        sound = [t for t in ladder if not t.assumes_unique]
        result = deduce(puzzle, start, techniques=sound, timeout=_left(at))
        if result.timed_out:
            result.timeout = timeout
    open_cells = {c for c in result.state.cands if c not in result.state.placed}
    result.ambiguous = tuple(c for c in verdict.differences if c in open_cells)
    return result


@dataclass
class Hint:
    """The next cell(s) deduction fixes, the step that fixes them and the steps it rests on.

    Examples:
        >>> from kakurolab.logic import next_hint
        >>> hint = next_hint(puzzle)
        >>> print(hint.text().splitlines()[-1])
        Fixes: r5c4 = 3
    """

    step: Step | None
    premises: list[Step]
    state: State
    timeout: float | None = None
    """Set (to the limit in seconds) when the deadline passed before a hint was found."""

    def text(self) -> str:
        if self.step is None:
            if self.timeout is not None:
                return f"timeout after {self.timeout:g} s before deduction wrote a digit"
            if self.state.solved:
                return "the grid is already complete"
            return (
                "no technique finds anything from here: the next move needs search "
                "(try a digit and backtrack)"
            )
        lines = []
        if self.premises:
            lines.append("First:")
            lines.extend(f"  - [{s.technique}] {s.text}" for s in self.premises)
            lines.append("Then:")
        lines.append(f"  [{self.step.technique}] {self.step.text}")
        fixed = ", ".join(f"{cell_name(c)} = {d}" for c, d in sorted(self.step.placements.items()))
        lines.append(f"Fixes: {fixed}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, object]:
        late = {} if self.timeout is None else {
            "status": "unknown", "message": f"timeout after {self.timeout:g} s"
        }
        return {
            **late,
            "step": None if self.step is None else self.step.to_json(),
            "premises": [s.to_json() for s in self.premises],
            "fixes": {}
            if self.step is None
            else {cell_name(c): d for c, d in sorted(self.step.placements.items())},
        }


def next_hint(
    puzzle: Puzzle,
    start: State | None = None,
    *,
    techniques: Iterable[Technique] = TECHNIQUES,
    timeout: float | None = None,
) -> Hint:
    """The next deduction that writes a digit, with the earlier removals it depends on.

    Removal-only steps on the way are kept only when the writing step (or a step it rests on)
    needs them, so the hint reads as a short argument, not a transcript.  As in
    :func:`deduce`, a uniqueness argument that ends in a contradiction is dropped.
    ``timeout`` (seconds) bounds the search: past it the hint is empty and says so.

    Examples:
        >>> from kakurolab.logic import State, next_hint
        >>> hint = next_hint(puzzle, State.from_digits(puzzle, {(4, 3): 3}))
        >>> hint.step.technique, hint.step.placements
        ('naked single', {(4, 2): 1})
    """
    start = State.initial(puzzle) if start is None else start
    ladder = tuple(techniques)
    sound = [t for t in ladder if not t.assumes_unique]
    at = _at(timeout)
    with deadlines.deadline(at):
        engine = Engine(start.copy(), ladder)
        try:
            engine.run(until=lambda step: bool(step.placements))
        except Contradiction:
            if not engine.assumed_unique:
                raise
            engine = Engine(start.copy(), sound)
            engine.run(until=lambda step: bool(step.placements))
        if (
            not engine.timed_out
            and engine.assumed_unique
            and not _proved_unique(puzzle, _left(at))
        ):
            # A uniqueness argument would pick one of several solutions: never hint with it.
            engine = Engine(start.copy(), sound)
            engine.run(until=lambda step: bool(step.placements))
    if engine.timed_out:
        return Hint(None, [], engine.state, timeout=timeout)
    steps = engine.steps
    if not steps or not steps[-1].placements:
        return Hint(None, [], engine.state)
    needed: set[int] = set()
    frontier = list(steps[-1].premises)
    while frontier:
        i = frontier.pop()
        if i not in needed:
            needed.add(i)
            frontier.extend(steps[i].premises)
    return Hint(steps[-1], [steps[i] for i in sorted(needed)], engine.state)


def _proved_unique(puzzle: Puzzle, timeout: float | None) -> bool:
    """Whether the native solver proves one solution in time (asked only before a uniqueness
    step: when it cannot, multiple, unsat or out of time, the hint does without one)."""
    from ..uniqueness import Verdict, prove_unique

    return prove_unique(puzzle, backend="native", timeout=timeout).verdict is Verdict.UNIQUE


def candidates_text(state: State) -> str:
    """Candidates of the open cells, one per line (for 'where search would be needed').

    Examples:
        >>> from kakurolab.logic import candidates_text, deduce
        >>> print(candidates_text(deduce(puzzle, limit=1).state).splitlines()[0])
        r2c3: {8, 9}
    """
    return "\n".join(
        f"{cell_name(c)}: {format_mask(m)}"
        for c, m in sorted(state.cands.items())
        if c not in state.placed
    )
