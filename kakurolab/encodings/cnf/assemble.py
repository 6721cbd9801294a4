"""Assembling a :class:`.encoding.CNFEncoding` from a spec's parts, with the presolve.

:func:`encode_cnf` alone adds the parts' clauses to the formula, in a fixed order: run
targets, cell declarations, letters, then per run its sum, redundant and all-different
clauses.  ``pre=root``/``probe`` first narrow the domains by native propagation
(:func:`presolve`), and a puzzle settled at the root is written as its units alone."""

from __future__ import annotations

import time

from ... import combos, deadline
from ...gcpause import gc_paused
from ...model import LETTERS, Cell, Puzzle, Run
from ..spec import Spec
from .alldiff import encode_alldiff
from .encoding import CNFEncoding
from .letters import (
    encode_letters,
    letter_row,
    make_live_letters,
    run_targets,
)
from .registry import DEFAULT_GUARDS, DEFAULT_LETTERS, DEFAULT_TIES
from .sums import SUMS, SumBuilder, Target, encode_combo

PRESOLVES = ("root", "probe")
"""``pre`` values that narrow domains by native propagation before encoding."""

DECLARE_CHUNK = 500
"""Cells declared between two deadline checks."""


REDUNDANT: dict[str, SumBuilder | None] = {"none": None, "domain": None, "combo": encode_combo}
"""The clauses each ``redundant`` value adds per run (``domain`` adds none: it prunes cell
domains before encoding).  ``combo`` on top of ``sum=combo`` adds nothing either."""


def redundant_part(spec: Spec) -> SumBuilder | None:
    """The builder of the spec's redundant clauses per run (None: none to add)."""
    build = REDUNDANT[spec["redundant"]]
    return None if build is SUMS[spec.name("sum")].build else build


def run_domain(run: Run, targets: list[Target]) -> int:
    """The digits (mask) some admissible digit set of the run holds."""
    allowed = 0
    for total, _ in targets:
        allowed |= combos.union(len(run), total)
    return allowed


def _presolve(enc: CNFEncoding) -> dict[Cell, int] | None:
    """``pre=root``: narrow cell and letter domains by the native propagator at the root;
    ``pre=probe``: then probe the letters too (:func:`~kakurolab.propagation.probed_state`).

    Domain filtering before encoding, as Savile Row (with Minion) and Picat's SAT compiler
    do: propagation removes only values no solution uses, so the CNF keeps every solution
    (counts and uniqueness verdicts are unchanged) and encodes what is left.  Contradictory
    clues give the empty clause, the whole formula.  Probing is the singleton consistency
    such systems offer as a stronger preprocessing level, on the ten letters alone."""
    from ...propagation import probed_state, root_state

    # The band totals (cut sums) only refute, never narrow a domain, and a letter clue
    # bounds its run by the run's length alone, so on a cryptic puzzle they are weak while
    # building them took half of the root propagation of the open hard-cryptic members
    # (0.24-0.31 ms): there the formula refutes what they would.
    cut_sums = not enc.puzzle.is_cryptic
    if enc.spec.get("pre") == "probe":
        found = probed_state(enc.puzzle, cut_sums=cut_sums)
    else:
        found = root_state(enc.puzzle, cut_sums=cut_sums)
    if found is None:
        enc.clauses.append([])
        return None
    enc.presolved = True
    enc.letter_masks.update(found.letters)
    if found.letters and (enc.spec.get("letters") or DEFAULT_LETTERS) == "live":
        enc.live_letters = True
        enc.fixed_letters.update(
            (ch, mask.bit_length() - 1)
            for ch, mask in found.letters.items()
            if not mask & (mask - 1)
        )
        make_live_letters(enc)
    return found.cells


def _encode_settled(enc: CNFEncoding, root: dict[Cell, int]) -> bool:
    """When root propagation left one digit per cell (and per letter), that grid is the
    puzzle's only solution: the formula is then its units alone (the run constraints could
    only agree).  True when it wrote them.  Published-look puzzles often settle so; on the
    hard cryptic family writing every run for them took most of the presolved preset's time.

    The grid is not rule-checked here (that took a third of the rest of the work): the
    propagator revises each run exactly, so a run whose cells are all decided keeps its
    distinct digits and its clue or is wiped out (refuted), and native's search yields such
    a state as a solution as it stands.  Every session's answers are rule-checked anyway."""
    if any(mask & (mask - 1) for mask in root.values()):
        return False
    masks = enc.letter_masks
    if enc.puzzle.is_cryptic and (
        len(masks) < len(LETTERS) or any(mask & (mask - 1) for mask in masks.values())
    ):
        return False
    letters = {ch: mask.bit_length() - 1 for ch, mask in masks.items()}
    if len(set(letters.values())) < len(letters):
        return False  # not a bijection: let the letter clauses refute it
    enc.clauses += enc.cells.declare_fixed(
        {cell: root[cell].bit_length() for cell in enc.puzzle.whites}
    )
    if not enc.live_letters:  # live: every letter is decided, a constant
        for ch, digit in letters.items():
            row = letter_row(enc, ch)
            enc.clauses += [[lit if d == digit else -lit] for d, lit in enumerate(row)]
    return True


def _filled_runs(enc: CNFEncoding, root: dict[Cell, int]) -> set[int] | None:
    """The runs root propagation filled in whose clue is known (a number, or letters it
    fixed too), each checked here: distinct digits adding up to the clue.  Their cells'
    units say all there is, so the presolved formula leaves their constraints out (most
    runs of a published-look puzzle: 653 of 682 on the 40x40 large-unique member).  None
    when a filled run breaks a rule: then no solution exists."""
    filled: set[int] = set()
    letters = enc.letter_masks
    for index, run in enumerate(enc.puzzle.runs):
        masks = [root[cell] for cell in run.cells]
        clue = run.clue
        if clue is None or any(mask & (mask - 1) for mask in masks):
            continue
        known = {ch: letters.get(ch, combos.ALL_LETTER_DIGITS) for ch in clue.letters or ""}
        if any(mask & (mask - 1) for mask in known.values()):
            continue
        target = clue.evaluate({ch: mask.bit_length() - 1 for ch, mask in known.items()})
        digits = {mask.bit_length() for mask in masks}
        if len(digits) != len(masks) or sum(digits) != target:
            return None
        filled.add(index)
    return filled


def encode_cnf(puzzle: Puzzle, spec: Spec) -> CNFEncoding:
    """The puzzle as CNF under a canonical CNF spec (see :func:`..parse_spec`), built with
    the garbage collector paused (:mod:`kakurolab.gcpause`: clause lists form no cycles)."""
    start = time.perf_counter()
    with gc_paused():
        enc = _encode_cnf(puzzle, spec)
    enc.encode_time = time.perf_counter() - start
    return enc


def _encode_cnf(puzzle: Puzzle, spec: Spec) -> CNFEncoding:
    enc = CNFEncoding(puzzle, spec)
    root = None
    filled: set[int] = set()
    if spec.get("pre") in PRESOLVES:
        root = _presolve(enc)
        if root is None or _encode_settled(enc, root):
            return enc  # refuted (the empty clause is the formula), or settled at the root
        found_filled = _filled_runs(enc, root)
        if found_filled is None:
            enc.clauses.append([])
            return enc
        filled = found_filled
    targets = _targets(enc, filled)
    _declare_cells(enc, _cell_masks(enc, root, targets, filled))
    if puzzle.is_cryptic:
        enc.clauses += encode_letters(enc, puzzle)
    _encode_runs(enc, targets)
    return enc


def _targets(enc: CNFEncoding, filled: set[int]) -> list[list[Target]]:
    """Each run's admissible sums and their guards (none for a run root propagation filled
    in: its cells' units say it all), their clauses added to the formula."""
    targets: list[list[Target]] = []
    ties = enc.spec.get("ties") or DEFAULT_TIES
    guards = enc.spec.get("guards") or DEFAULT_GUARDS
    for index, run in enumerate(enc.puzzle.runs):
        deadline.check()
        if index in filled:
            targets.append([])
            continue
        found, clauses = run_targets(enc, index, run, ties, guards)
        targets.append(found)
        enc.clauses += clauses
    return targets


def _cell_masks(
    enc: CNFEncoding,
    root: dict[Cell, int] | None,
    targets: list[list[Target]],
    filled: set[int],
) -> dict[Cell, int]:
    """Each cell's digits to declare: the presolved domain (or all nine), cut to what some
    admissible digit set of its runs holds when the sum encoding or ``redundant`` prunes."""
    puzzle, spec = enc.puzzle, enc.spec
    masks = dict(root) if root is not None else dict.fromkeys(puzzle.whites, combos.ALL_DIGITS)
    if SUMS[spec.name("sum")].prunes or spec["redundant"] in ("domain", "combo"):
        # per run, not per cell: a run's hash is not cached
        for index, (run, found) in enumerate(zip(puzzle.runs, targets, strict=True)):
            if index in filled:
                continue
            domain = run_domain(run, found)
            for cell in run.cells:
                masks[cell] &= domain
    return masks


def _declare_cells(enc: CNFEncoding, masks: dict[Cell, int]) -> None:
    """The cells' variables and their clauses, in chunks between deadline checks (declaring
    8,780 cells takes 1-2 s)."""
    declare = enc.cells.declare_all
    whites = enc.puzzle.whites
    for start in range(0, len(whites), DECLARE_CHUNK):
        deadline.check()
        chunk = whites[start : start + DECLARE_CHUNK]
        enc.clauses += declare({cell: combos.digits_of(masks[cell]) for cell in chunk})


def _encode_runs(enc: CNFEncoding, targets: list[list[Target]]) -> None:
    """Per run with targets: its sum, its redundant clauses and its all-different."""
    spec = enc.spec
    sum_encoding = SUMS[spec.name("sum")]
    build_sum = sum_encoding.build
    sum_arg = spec.arg("sum")
    alldiff = spec["alldiff"]
    redundant = redundant_part(spec)
    for index, run in enumerate(enc.puzzle.runs):
        deadline.check()  # a timeout covers building the formula too
        if not targets[index]:
            continue
        enc.clauses += build_sum(enc, index, run, targets[index], sum_arg)
        if sum_encoding.lazy:
            enc.lazy_runs.append((run, targets[index]))
        if redundant is not None:
            enc.clauses += redundant(enc, index, run, targets[index], None)
        enc.clauses += encode_alldiff(enc, run, alldiff)
