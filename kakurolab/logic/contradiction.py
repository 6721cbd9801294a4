"""Bounded contradiction, the last rung: suppose one digit, propagate, see it fail.

"If r5c3 were 7": the engine writes 7 there in a copy of the pencil marks and applies exact run
consistency (and, for cryptic puzzles, the letter rules) to a fixpoint with the one propagation
kernel (:class:`kakurolab.propagation.Propagator`).  When that empties some cell or letter
within :data:`MAX_REVISIONS` run revisions, 7 goes.  It is one level of supposition, never
nested, and the step says so: it is trial and error in its mildest form, so it is the most
expensive rung and the grader counts it.
"""

from __future__ import annotations

from .. import deadline
from ..combos import bit, digits_of
from ..model import LETTERS, Puzzle
from ..propagation import Propagator
from .candidates import State, cell_name
from .techniques import Finding

MAX_REVISIONS = 5_000
"""Run revisions a supposition may take to fail (the bound of "bounded")."""

_PROPAGATORS: dict[int, tuple[Puzzle, Propagator]] = {}


def propagator(puzzle: Puzzle) -> Propagator:
    """The puzzle's propagator, built once per puzzle object."""
    entry = _PROPAGATORS.get(id(puzzle))
    if entry is None or entry[0] is not puzzle:
        if len(_PROPAGATORS) >= 16:
            _PROPAGATORS.clear()
        entry = _PROPAGATORS[id(puzzle)] = (puzzle, Propagator(puzzle))
    return entry[1]


def flat_state(state: State, prop: Propagator) -> list[int]:
    """The pencil marks as the propagator's flat state (cells, then letters A-J)."""
    flat = [state.cands[cell] for cell in prop.cells]
    if prop.cryptic:
        flat += [state.letters[ch] for ch in LETTERS]
    return flat


def bounded_contradiction(state: State, _grid: object) -> Finding | None:
    """The first supposition (cells with fewest candidates first) that propagation refutes."""
    prop = propagator(state.puzzle)
    base = flat_state(state, prop)
    index = {cell: i for i, cell in enumerate(prop.cells)}
    open_cells = sorted(
        (c for c in prop.cells if c not in state.placed),
        key=lambda c: (state.cands[c].bit_count(), c),
    )
    for cell in open_cells:
        if deadline.passed():  # 23 s over a 60x60 grid: the engine reports the timeout
            return None
        i = index[cell]
        for digit in digits_of(state.cands[cell]):
            trial = base[:]
            before = prop.propagations
            ok = prop.assign(trial, i, bit(digit))  # the search's own step: letter tied too
            revisions = prop.propagations - before
            if ok or revisions > MAX_REVISIONS:
                continue
            name = cell_name(cell)
            return Finding(
                (cell,),
                f"bounded contradiction (one supposition, no nesting): if {name} were {digit}, "
                f"making every run consistent again ({revisions} run revision"
                f"{'s' if revisions != 1 else ''}) would leave some cell or letter with no "
                f"digit; so {name} is not {digit}",
                eliminations={cell: bit(digit)},
                evidence={c: 0x1FF & ~state.cands[c] for c in prop.cells},
            )
    return None
