"""The deduction engine: apply the simplest technique that finds something, one step at a time.

Work is driven by agendas, one per technique, of the cells or runs whose candidates changed
since that technique last looked at them; a step re-queues only what it touched.  That keeps a
31x46 puzzle fast while the order stays "simplest technique first, then back to the top".
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .. import combos
from .. import deadline as deadlines
from ..combos import bit, digits_of, format_mask
from ..model import Cell, Puzzle, Solution
from ..rulebook import solution_problems
from .candidates import Contradiction, State, cell_name, letter_words
from .ladder import BY_NAME, TECHNIQUES
from .scopes import Targets, clued_cells, targets
from .techniques import Finding, Step, Technique


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


@dataclass
class _Agenda:
    """Items (cell or run indices) a technique has yet to look at, smallest index first."""

    heap: list[int] = field(default_factory=list)
    members: set[int] = field(default_factory=set)

    def push(self, item: int) -> None:
        if item not in self.members:
            self.members.add(item)
            heapq.heappush(self.heap, item)

    def pop(self) -> int | None:
        if not self.heap:
            return None
        item = heapq.heappop(self.heap)
        self.members.discard(item)
        return item


class Engine:
    """Applies findings to a state and records them as steps (with their premises).

    Examples:
        >>> from kakurolab.logic import Engine, State
        >>> engine = Engine(State.initial(puzzle))
        >>> engine.run(limit=2)
        >>> [step.technique for step in engine.steps]
        ['unique partition', 'unique partition']
    """

    def __init__(self, state: State, techniques: Iterable[Technique] = TECHNIQUES) -> None:
        self.state = state
        self.puzzle = state.puzzle
        self.techniques = tuple(techniques)
        self.steps: list[Step] = []
        # A scope's targets are built when its rung is first reached (region and rectangle
        # lists cost more than many a puzzle's whole deduction); until then every target
        # counts as queued.
        self._targets: list[Targets | None] = [None] * len(self.techniques)
        self._agendas = [_Agenda() for _ in self.techniques]
        self.timed_out = False
        """Whether the deadline (:mod:`kakurolab.deadline`) stopped the search for a step."""
        self.attempting: Technique | None = None
        """The technique whose finding is being applied (the culprit of a contradiction)."""
        self._removed_by: dict[Cell, list[tuple[int, int]]] = {}
        # Cryptic: the steps that narrowed each letter, and the letters an argument about a
        # cell rests on (its runs' clue letters and the letter it shows).
        self._letter_removed_by: dict[str, list[int]] = {}
        self._letters_of: dict[Cell, str] = {}
        if self.puzzle.is_cryptic:
            for cell in self.puzzle.whites:
                letters = "".join(
                    run.clue.letters or "" for run in self.puzzle.runs_of[cell] if run.clue
                )
                self._letters_of[cell] = letters + self.puzzle.shown_letters.get(cell, "")

    def next_step(self) -> Step | None:
        """Find and apply the simplest available deduction; None when nothing applies."""
        i = 0
        while i < len(self.techniques):
            if deadlines.passed():
                self.timed_out = True
                return None
            technique, agenda = self.techniques[i], self._agendas[i]
            found = self._targets[i]
            if found is None:
                try:
                    found = self._targets[i] = targets(self.puzzle, technique.scope)
                except deadlines.EncodingTimeout:
                    self.timed_out = True
                    return None
                agenda.heap = list(range(len(found.items)))
                agenda.members = set(agenda.heap)
            items = found.items
            while (item := agenda.pop()) is not None:
                if deadlines.passed():  # one clock read per target: the deadline holds
                    agenda.push(item)
                    self.timed_out = True
                    return None
                finding = technique.find(self.state, items[item])
                if finding is None:
                    continue
                agenda.push(item)  # it may find more once this step is in
                self.attempting = technique
                step = self.apply(technique.name, finding)
                if step is not None:
                    return step
            i += 1
        self.timed_out = deadlines.passed()  # a technique may have stopped early for it
        return None

    @property
    def assumed_unique(self) -> bool:
        """Whether a step so far (or the one being applied) assumes a unique solution."""
        if self.attempting is not None and self.attempting.assumes_unique:
            return True
        return any(BY_NAME[s.technique].assumes_unique for s in self.steps)

    def run(self, *, until: Callable[[Step], bool] | None = None, limit: int | None = None) -> None:
        """Step until stuck, solved, ``until(step)`` holds, or ``limit`` steps."""
        while not self.state.solved and (limit is None or len(self.steps) < limit):
            step = self.next_step()
            if step is None or (until is not None and until(step)):
                return

    def apply(self, technique: str, finding: Finding) -> Step | None:
        """Apply a finding; the recorded step lists only what actually changed."""
        state = self.state
        removed, placements = self._changes(technique, finding)
        letters_gone = {
            ch: state.letters[ch] & mask
            for ch, mask in finding.letter_eliminations.items()
            if state.letters[ch] & mask
        }
        if not removed and not placements and not letters_gone:
            return None
        index = len(self.steps)
        premises = self._premises(finding)
        self._commit(technique, index, removed, placements, letters_gone)
        step = Step(
            technique,
            finding.cells,
            removed,
            placements,
            _describe(finding, removed, placements, letters_gone),
            tuple(premises),
            letters_gone,
        )
        self.steps.append(step)
        changed = set(removed) | set(placements)
        if letters_gone:
            changed |= clued_cells(self.puzzle, letters_gone)
        self._requeue(changed)
        return step

    def _changes(
        self, technique: str, finding: Finding
    ) -> tuple[dict[Cell, int], dict[Cell, int]]:
        """What a finding would change: the candidates it removes (a placed digit's other
        candidates and its runs' copies of it included) and its new placements."""
        state = self.state
        removed: dict[Cell, int] = {}
        for cell, mask in finding.eliminations.items():
            if state.cands[cell] & mask:
                removed[cell] = removed.get(cell, 0) | (state.cands[cell] & mask)
        placements: dict[Cell, int] = {}
        for cell, digit in finding.placements.items():
            if cell in state.placed:
                if state.placed[cell] != digit:
                    raise Contradiction(
                        f"{technique} writes {digit} in {cell_name(cell)}, which holds "
                        f"{state.placed[cell]}"
                    )
                continue
            if not state.cands[cell] & bit(digit):
                raise Contradiction(f"{technique} writes {digit} in {cell_name(cell)}, ruled out")
            placements[cell] = digit
            if state.cands[cell] & ~bit(digit):
                removed[cell] = removed.get(cell, 0) | (state.cands[cell] & ~bit(digit))
            self._run_copies(cell, digit, removed)
        return removed, placements

    def _run_copies(self, cell: Cell, digit: int, removed: dict[Cell, int]) -> None:
        """Add to ``removed`` the copies of ``digit`` in the other cells of ``cell``'s runs."""
        cands = self.state.cands
        for run in self.puzzle.runs_of[cell]:
            for other in run.cells:
                if other != cell and cands[other] & bit(digit):
                    removed[other] = removed.get(other, 0) | bit(digit)

    def _premises(self, finding: Finding) -> list[int]:
        """The earlier steps whose removals the finding's evidence (and letters) rests on."""
        premises = sorted(
            {
                earlier
                for cell, mask in finding.evidence.items()
                for earlier, gone in self._removed_by.get(cell, ())
                if gone & mask
            }
        )
        if self._letters_of:
            letters = set(finding.letter_eliminations)
            for cell in finding.cells:
                letters.update(self._letters_of[cell])
            premises = sorted(
                {*premises, *(i for ch in letters for i in self._letter_removed_by.get(ch, ()))}
            )
        return premises

    def _commit(
        self,
        technique: str,
        index: int,
        removed: dict[Cell, int],
        placements: dict[Cell, int],
        letters_gone: dict[str, int],
    ) -> None:
        """Write step ``index``'s changes into the state, remembering who removed what."""
        state = self.state
        for cell, mask in removed.items():
            state.cands[cell] &= ~mask
            self._removed_by.setdefault(cell, []).append((index, mask))
        state.placed.update(placements)
        for cell in removed.keys() | placements.keys():
            if not state.cands[cell]:
                raise Contradiction(f"{technique} leaves {cell_name(cell)} without a candidate")
        for ch, mask in letters_gone.items():
            state.letters[ch] &= ~mask
            self._letter_removed_by.setdefault(ch, []).append(index)
            if not state.letters[ch]:
                raise Contradiction(f"{technique} leaves letter {ch} without a digit")

    def _requeue(self, changed: Iterable[Cell]) -> None:
        changed = list(changed)
        for agenda, found in zip(self._agendas, self._targets, strict=True):
            if found is None:
                continue
            if found.always:
                for item in range(len(found.items)):
                    agenda.push(item)
                continue
            watch = found.watch
            for cell in changed:
                for item in watch.get(cell, ()):
                    agenda.push(item)


def _describe(
    finding: Finding,
    removed: dict[Cell, int],
    placements: dict[Cell, int],
    letters: dict[str, int] | None = None,
) -> str:
    """The reason, then what it changes: written digits, else the removals."""
    if letters and not placements and not removed:
        return f"{finding.reason}, so {letters_effect(letters)}"
    if placements:
        effect = ", ".join(f"{cell_name(c)} = {d}" for c, d in sorted(placements.items()))
    else:
        by_mask: dict[int, list[Cell]] = {}
        for cell, mask in sorted(removed.items()):
            by_mask.setdefault(mask, []).append(cell)
        effect = "removes " + "; ".join(
            f"{digit_list(mask)} from {', '.join(map(cell_name, cells))}"
            for mask, cells in by_mask.items()
        )
    return f"{finding.reason}, so {effect}"


def letters_effect(letters: dict[str, int]) -> str:
    """``A is not 0; B is not 5 or 6``: letter removals in words."""
    return "; ".join(f"{ch} is not {letter_words(mask)}" for ch, mask in sorted(letters.items()))


def digit_list(mask: int) -> str:
    """``1-5, 7``: digits with runs of three or more collapsed, for compact removal lists."""
    digits = digits_of(mask)
    parts: list[str] = []
    i = 0
    while i < len(digits):
        j = i
        while j + 1 < len(digits) and digits[j + 1] == digits[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(f"{digits[i]}-{digits[j]}")
        else:
            parts.extend(str(d) for d in digits[i : j + 1])
        i = j + 1
    return ", ".join(parts)


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
