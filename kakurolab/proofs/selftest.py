"""The encoder self-test: an encoding's models against brute force on every single run.

The encoder is part of what a certificate's reader trusts (docs/certificates.md); this keeps
that part checked, for every clue a run of 1..N cells can have and one past the largest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import permutations

from ..encodings import encode, parse_spec
from ..encodings.cnf import CNFEncoding
from ..encodings.spec import Spec
from ..errors import KakuroError
from ..model import Block, Clue, ClueCell, Puzzle, Square, White
from .formula import REFERENCE_ENCODING, certificate_spec


@dataclass
class SelfTest:
    """Per spec, the (length, clue) pairs whose models differ from brute force."""

    spec: str
    pairs: int = 0
    models: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


def single_run(length: int, total: int) -> Puzzle:
    """One across run of ``length`` cells with clue ``total`` (the cells' down runs have no
    clue and allow any digit), built directly so impossible clues can be encoded too."""
    row: tuple[Square, ...] = (
        ClueCell(across=Clue(value=total)),
        *(White() for _ in range(length)),
    )
    return Puzzle(f"run{length}-{total}", (row, (Block(),) * (length + 1)))


def brute_force(length: int, total: int) -> set[tuple[int, ...]]:
    return {t for t in permutations(range(1, 10), length) if sum(t) == total}


def run_models(spec: Spec, length: int, total: int, solver: str = "minisat22") -> set[tuple]:
    """Every filling of a single run the encoding admits (models projected on the cells)."""
    from pysat.solvers import Solver

    puzzle = single_run(length, total)
    enc = encode(puzzle, spec)
    assert isinstance(enc, CNFEncoding)
    found: set[tuple[int, ...]] = set()
    with Solver(name=solver, bootstrap_with=enc.clauses) as sat:
        while sat.solve():
            solution = enc.decode(sat.get_model())
            grid = tuple(solution.values[cell] for cell in puzzle.whites)
            if grid in found:
                raise KakuroError(f"{spec}: the same filling {grid} came back after blocking")
            found.add(grid)
            sat.add_clause([-lit for lit in enc.solution_lits(solution)])
    return found


def self_test(spec: str | Spec, max_length: int = 4) -> SelfTest:
    """Compare the encoding's models with brute force on every run of 1..max_length cells
    and every clue from 0 to one past the largest sum (impossible clues included)."""
    canon = certificate_spec(spec)
    result = SelfTest(str(canon))
    for length in range(1, max_length + 1):
        top = sum(range(10 - length, 10))
        for total in range(0, top + 2):
            got, want = run_models(canon, length, total), brute_force(length, total)
            result.pairs += 1
            result.models += len(got)
            if got != want:
                extra, missing = sorted(got - want)[:2], sorted(want - got)[:2]
                result.failures.append(
                    f"{length} cells, clue {total}: {len(got)} models, brute force "
                    f"{len(want)} (extra {extra}, missing {missing})"
                )
    return result


def self_test_specs() -> list[str]:
    """The reference encoding, then every sum encoding with direct cells, then the CNF
    presets (lazy excluded: its sums are not clauses)."""
    from ..encodings import PRESETS
    from ..encodings.cnf.sums import SUMS

    specs = [REFERENCE_ENCODING]
    for record in SUMS.values():
        if record.lazy:
            continue
        for arg in record.args or (None,):
            value = record.name if arg is None else f"{record.name}:{arg}"
            alldiff = "" if record.implies_alldiff else ",alldiff=pairwise"
            specs.append(f"cell=direct,sum={value}{alldiff}")
    for name, preset in PRESETS.items():
        spec = parse_spec(preset.spec)
        if spec.family == "cnf" and spec.name("sum") != "lazy":
            specs.append(name)
    unique: dict[str, str] = {}
    for text in specs:
        unique.setdefault(str(parse_spec(text)), text)
    return list(unique.values())
