"""Positive 1-in-3 SAT (exact cover) to Kakuro, parsimoniously, and back (issue 47 §2).

A formula is ``n`` variables and clauses of three variables (repeats allowed), each
satisfied when exactly one of its three is true.  ``to_kakuro`` lays it out with
``layout.exact_cover_board``: each satisfying assignment is exactly one solution of the
puzzle and ``decode`` reads it back, so the puzzle's solution count *is* the formula's
model count, known without any Kakuro solver:

* ``count_models`` counts small formulas by brute force (bit-parallel, n up to ~24);
* ``banded`` makes the *banded* source of the hard family: ``L`` layers of ``w``
  variables, each clause inside two neighbouring layers, planted (every clause true under a
  random assignment), and ``band_count`` counts it by dynamic programming over the layers
  (2^w states), at any length.

``from_3sat`` takes 3-SAT to 1-in-3 SAT (Schaefer's gadget, with a false constant for the
negated literals); it keeps satisfiability, and its count relation is stated there.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import KakuroError
from ..model import Puzzle, Solution
from .gadgets import TILE
from .layout import Wired, exact_cover_board, wire

__all__ = [
    "TILE", "Banded", "Formula", "FromThreeSat", "Reduction", "band_count", "banded",
    "clause_text", "cnf_weighted_count", "completions", "count_models", "exact_cover_board",
    "from_3sat", "models", "parse_clauses", "to_kakuro", "wire",
]

Clause = tuple[int, int, int]


@dataclass(frozen=True)
class Formula:
    """A positive 1-in-3 formula: variables ``0..n-1``, clauses of three variables."""

    n: int
    clauses: tuple[Clause, ...]

    def __post_init__(self) -> None:
        for clause in self.clauses:
            if len(clause) != 3 or not all(0 <= v < self.n for v in clause):
                raise KakuroError(f"clause {clause} is not three of the {self.n} variables")

    def satisfied(self, assignment: Sequence[int]) -> bool:
        return all(sum(assignment[v] for v in clause) == 1 for clause in self.clauses)


def count_models(formula: Formula) -> int:
    """The number of satisfying assignments, by brute force over all 2^n (bit-parallel:
    bit j of ``vals[v]`` is variable v in assignment j)."""
    n = formula.n
    if n > 26:
        raise KakuroError(f"brute force over 2^{n} assignments is too many; use band_count")
    size = 1 << n
    full = (1 << size) - 1
    vals = []
    for v in range(n):
        block = ((1 << (1 << v)) - 1) << (1 << v)  # 2^v ones after 2^v zeros
        period = 1 << (v + 1)
        vals.append(block * (full // ((1 << period) - 1)))  # the block, repeated
    ok = full
    for a, b, c in formula.clauses:
        x, y, z = vals[a], vals[b], vals[c]
        ok &= (x ^ y ^ z) & ~(x & y & z)  # odd count, not three: exactly one
    return ok.bit_count()


def models(formula: Formula) -> list[tuple[int, ...]]:
    """Every satisfying assignment (small n), in counting order."""
    found = []
    for j in range(1 << formula.n):
        assignment = tuple((j >> v) & 1 for v in range(formula.n))
        if formula.satisfied(assignment):
            found.append(assignment)
    return found


@dataclass(frozen=True)
class Banded:
    """A banded source: ``layers`` of ``width`` variables (variable ``t*width + k``), each
    clause within layers t and t+1, and the planted assignment that satisfies it."""

    width: int
    layers: int
    formula: Formula
    planted: tuple[int, ...]


def banded(
    width: int, layers: int, ratio: float, rng: random.Random, *, planted: bool = True
) -> Banded:
    """A banded formula with about ``ratio * n`` clauses: each clause draws three distinct
    variables of two neighbouring layers, exactly one true under the plant (``planted``),
    or any three (then the plant need not satisfy it)."""
    if width < 2 or layers < 2:
        raise KakuroError("a band needs width and length of at least 2")
    n = width * layers
    plant = tuple(rng.randrange(2) for _ in range(n))
    clauses: list[Clause] = []
    want = max(1, round(ratio * n))
    tries = 0
    while len(clauses) < want:
        tries += 1
        if tries > 1000 * want:
            raise KakuroError("the plant leaves no window one true and two false variables")
        t = rng.randrange(layers - 1)
        window = list(range(t * width, (t + 2) * width))
        trues = [v for v in window if plant[v]]
        falses = [v for v in window if not plant[v]]
        if not planted:
            picked = rng.sample(window, 3)
        elif not trues or len(falses) < 2:
            continue
        else:
            picked = [rng.choice(trues), *rng.sample(falses, 2)]
        rng.shuffle(picked)
        clauses.append((picked[0], picked[1], picked[2]))
    clauses.sort(key=lambda clause: min(clause) // width)  # along the band: short loops
    return Banded(width, layers, Formula(n, tuple(clauses)), plant)


def clause_text(formula: Formula) -> str:
    """The formula on one line, ``n=N: a b c; ...`` (a member's ``clauses`` metadata)."""
    return f"n={formula.n}: " + "; ".join(" ".join(map(str, c)) for c in formula.clauses)


def parse_clauses(text: str) -> Formula:
    """The formula ``clause_text`` wrote."""
    head, _, body = text.partition(":")
    if not head.startswith("n="):
        raise KakuroError(f"not a clause text: {text[:40]!r}")
    clauses = []
    for part in body.split(";"):
        if part.strip():
            a, b, c = (int(x) for x in part.split())
            clauses.append((a, b, c))
    return Formula(int(head[2:]), tuple(clauses))


def band_count(formula: Formula, width: int) -> int:
    """The model count of a banded formula (every clause within two neighbouring layers of
    ``width`` variables), by a transfer over layer states: 2^width states per layer."""
    n = formula.n
    if n % width:
        raise KakuroError(f"{n} variables do not make layers of {width}")
    layers = n // width
    by_window: dict[int, list[Clause]] = {}
    for clause in formula.clauses:
        lo, hi = min(clause) // width, max(clause) // width
        if hi - lo > 1:
            raise KakuroError(f"clause {clause} spans more than two layers of {width}")
        by_window.setdefault(min(lo, layers - 2) if layers > 1 else 0, []).append(clause)
    states = 1 << width
    if layers == 1:
        return sum(
            all(sum((s >> v) & 1 for v in c) == 1 for c in by_window.get(0, []))
            for s in range(states)
        )
    ways = [1] * states
    for t in range(layers - 1):
        base = t * width
        local = [tuple(v - base for v in c) for c in by_window.get(t, [])]
        nxt = [0] * states
        for s in range(states):
            if not ways[s]:
                continue
            for s2 in range(states):
                both = s | (s2 << width)
                if all(sum((both >> v) & 1 for v in c) == 1 for c in local):
                    nxt[s2] += ways[s]
        ways = nxt
    return sum(ways)


@dataclass(frozen=True)
class Reduction:
    """A formula and its puzzle: ``values`` maps an assignment to its solution,
    ``decode`` a solution back to its assignment."""

    formula: Formula
    wired: Wired

    @property
    def puzzle(self) -> Puzzle:
        return self.wired.puzzle

    def solution(self, assignment: Sequence[int]) -> Solution:
        return Solution(self.wired.values(assignment))

    def decode(self, solution: Solution) -> tuple[int, ...]:
        return self.wired.decode(solution.values)


def to_kakuro(formula: Formula, pid: str = "exact-cover") -> Reduction:
    """The puzzle of a 1-in-3 formula: its solutions are the formula's models, one each."""
    board = exact_cover_board(formula.n, formula.clauses)
    return Reduction(formula, wire(board, pid))


# ---------------------------------------------------------------------------------------
# 3-SAT to 1-in-3 SAT


@dataclass(frozen=True)
class FromThreeSat:
    """A 1-in-3 formula made from a 3-CNF: variable ``v`` of the CNF (1-based) is variable
    ``v - 1`` here; ``false`` is a variable every model sets false."""

    formula: Formula
    n_cnf: int
    false: int


def from_3sat(n: int, cnf: Sequence[Sequence[int]]) -> FromThreeSat:
    """Schaefer's translation: clause (l1 ∨ l2 ∨ l3) becomes R(¬l1, a, b), R(b, l2, c),
    R(c, d, ¬l3) with four fresh variables; a negated literal ¬x is a fresh x' with
    R(x, x', F), and F (with its partner T) is made false by R(F, F, T).

    Satisfiability is kept, and the 1-in-3 models are exactly the CNF's models each extended
    by the clause gadgets' completions: the count is the sum over the CNF's models of the
    product over clauses of that clause's completions (1 or 2; ``completions`` below), not
    the CNF's model count (the gadget is not parsimonious)."""
    clauses: list[Clause] = []
    nxt = n
    false, true = nxt, nxt + 1
    nxt += 2
    clauses.append((false, false, true))
    negated: dict[int, int] = {}

    def lit(value: int) -> int:
        nonlocal nxt
        if value > 0:
            return value - 1
        var = -value - 1
        if var not in negated:
            negated[var] = nxt
            clauses.append((var, nxt, false))
            nxt += 1
        return negated[var]

    def neg(value: int) -> int:
        return lit(-value)

    for clause in cnf:
        if len(clause) != 3:
            raise KakuroError(f"3-SAT clauses have three literals, not {list(clause)}")
        l1, l2, l3 = clause
        a, b, c, d = nxt, nxt + 1, nxt + 2, nxt + 3
        nxt += 4
        clauses += [(neg(l1), a, b), (b, lit(l2), c), (c, d, neg(l3))]
    return FromThreeSat(Formula(nxt, tuple(clauses)), n, false)


def completions(l1: int, l2: int, l3: int) -> int:
    """How many (a, b, c, d) complete Schaefer's gadget for literal values l1, l2, l3."""
    found = 0
    for j in range(16):
        a, b, c, d = (j >> 0) & 1, (j >> 1) & 1, (j >> 2) & 1, (j >> 3) & 1
        found += (1 - l1) + a + b == 1 and b + l2 + c == 1 and c + d + (1 - l3) == 1
    return found


def cnf_weighted_count(n: int, cnf: Sequence[Sequence[int]]) -> int:
    """The 1-in-3 model count ``from_3sat`` promises: over the CNF's 2^n assignments, the
    product of each clause's ``completions``."""
    total = 0
    for j in range(1 << n):
        product = 1
        for clause in cnf:
            vals = [((j >> (abs(x) - 1)) & 1) ^ (x < 0) for x in clause]
            product *= completions(*vals)
            if not product:
                break
        total += product
    return total
