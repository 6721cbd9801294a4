"""The deduction engine: apply the simplest technique that finds something, one step at a time.

Work is driven by agendas, one per technique, of the cells or runs whose candidates changed
since that technique last looked at them; a step re-queues only what it touched.  That keeps a
31x46 puzzle fast while the order stays "simplest technique first, then back to the top".
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .. import deadline as deadlines
from ..combos import bit, digits_of
from ..model import Cell
from .candidates import Contradiction, State, cell_name, letter_words
from .ladder import BY_NAME, TECHNIQUES
from .scopes import Targets, clued_cells, targets
from .techniques import Finding, Step, Technique


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
