"""Subsets inside a run: naked and hidden pairs and triples.

A *naked* subset: k empty cells of a run whose candidates together are only k digits hold
those digits between them, so no other cell of the run can.  A *hidden* subset: k digits that
every admissible set of the run needs and that only k cells can hold fill those cells, which
lose every other candidate.  Exact run consistency (run permutations) implies both; they sit
below it on the ladder because a person sees them without trying fillings.
"""

from __future__ import annotations

from itertools import combinations

from .. import combos
from ..combos import digits_of, format_mask, popcount
from ..model import Run
from .candidates import State, cells_text, run_label
from .techniques import Finding, digit_words

_NAMES = {2: "pair", 3: "triple"}


def run_subsets(state: State, run: Run) -> Finding | None:
    """The first naked or hidden pair/triple of the run that removes something."""
    empty = state.unplaced(run)
    if len(empty) < 3:
        return None
    return _naked(state, run, empty) or _hidden(state, run, empty)


def _naked(state: State, run: Run, empty: list) -> Finding | None:
    cands = state.cands
    for k in (2, 3):
        if len(empty) <= k:
            break
        for group in combinations(empty, k):
            union = 0
            for cell in group:
                union |= cands[cell]
            if popcount(union) != k:
                continue
            others = [c for c in empty if c not in group]
            removed = {c: cands[c] & union for c in others if cands[c] & union}
            if removed:
                return Finding(
                    tuple(empty),
                    f"{run_label(run)}: {cells_text(group)} can only hold "
                    f"{format_mask(union)} between them (a naked {_NAMES[k]}); the other "
                    f"cells of the run cannot take {digit_words(union)}",
                    eliminations=removed,
                    evidence={c: combos.ALL_DIGITS & ~cands[c] for c in group},
                )
    return None


def _hidden(state: State, run: Run, empty: list) -> Finding | None:
    if state.total(run) is None:
        return None
    _, _, sets = state.remaining_sets(run)
    if not sets:
        return None
    required = combos.ALL_DIGITS
    for m in sets:
        required &= m
    cands = state.cands
    for k in (2, 3):
        for digits in combinations(digits_of(required), k):
            mask = combos.mask_of(digits)
            holders = [c for c in empty if cands[c] & mask]
            if len(holders) != k:
                continue
            removed = {c: cands[c] & ~mask for c in holders if cands[c] & ~mask}
            if removed:
                others = [c for c in empty if c not in holders]
                return Finding(
                    tuple(empty),
                    f"{run_label(run)}: every digit set left ({_sets(sets)}) needs "
                    f"{digit_words(mask)}, and only {cells_text(holders)} can hold them "
                    f"(a hidden {_NAMES[k]}; {cells_text(others) or 'no other cell'} cannot), "
                    "and those cells hold nothing else",
                    eliminations=removed,
                    evidence={c: mask for c in others},
                )
    return None


def _sets(sets: tuple[int, ...]) -> str:
    return " or ".join(format_mask(m) for m in sets)
