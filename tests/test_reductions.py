"""The exact-cover reduction (issue 47 §2): 1-in-3 SAT to Kakuro, parsimoniously.

Ground truth here never comes from a Kakuro solver: a formula's models are counted by brute
force over its assignments (or over the band), and the puzzle's count by projected model
counting (pyganak, as ``kakuro count --exact``) or by enumerating with backends of the
BACKENDS registry, which must agree with it.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from _registries import require_backend

from kakurolab.formats import load
from kakurolab.proofs.analysis import exact_count
from kakurolab.reductions.gadgets import GADGETS, brute_relation
from kakurolab.reductions.one_in_three import (
    Formula,
    band_count,
    banded,
    cnf_weighted_count,
    count_models,
    from_3sat,
    models,
    parse_clauses,
    to_kakuro,
)
from kakurolab.rulebook import solution_problems, structure_problems
from kakurolab.uniqueness import count, solutions

DATA = Path(__file__).resolve().parents[1] / "data" / "hard"


def random_formula(rng: random.Random, n: int, m: int, repeats: float = 0.15) -> Formula:
    """``m`` clauses over ``n`` variables: mostly three distinct, sometimes repeats."""
    clauses = []
    for _ in range(m):
        if n >= 3 and rng.random() > repeats:
            a, b, c = rng.sample(range(n), 3)
        else:
            a, b, c = (rng.randrange(n) for _ in range(3))
        clauses.append((a, b, c))
    return Formula(n, tuple(clauses))


@pytest.mark.parametrize("gadget", GADGETS, ids=[g.name for g in GADGETS])
def test_gadget_relation_by_brute_force(gadget):
    """Every assignment of the gadget's cells (ports in their pairs, the rest 1-9) that
    meets its runs projects to the declared relation, each tuple in exactly one way."""
    found = brute_relation(gadget)
    assert set(found) == set(gadget.relation)
    assert set(found.values()) == {1}


def test_brute_force_count_agrees_with_enumeration():
    rng = random.Random(3)
    for _ in range(20):
        formula = random_formula(rng, rng.randint(1, 9), rng.randint(0, 5))
        assert count_models(formula) == len(models(formula))


def check_parsimony(formula: Formula) -> None:
    reduction = to_kakuro(formula)
    assert structure_problems(reduction.puzzle) == []
    assert exact_count(reduction.puzzle) == count_models(formula)


@pytest.mark.parametrize("n", range(1, 13))
def test_kakuro_count_equals_model_count_on_a_sample(n):
    """Two random formulas per n (up to four clauses: a few seconds each); the slow sweep
    below takes more and larger ones."""
    rng = random.Random(1000 + n)
    for _ in range(2):
        check_parsimony(random_formula(rng, n, rng.randint(1, min(4, n + 1))))


def test_satisfiable_and_unsatisfiable_sources_keep_their_counts():
    """A source with no model gives a puzzle with no solution; free variables double it."""
    check_parsimony(Formula(3, ((0, 1, 2), (0, 0, 1))))  # 2*x0 + x1 = 1: one model
    check_parsimony(Formula(2, ((0, 0, 0),)))  # 3*x0 = 1: none
    check_parsimony(Formula(5, ((0, 1, 2),)))  # 3 models, times 4 for x3, x4


@pytest.mark.slow
def test_kakuro_count_equals_model_count_on_every_small_formula():
    """Every formula of up to two clauses over three variables (clauses as multisets), and
    20 random formulas per n up to 12 with up to 0.7 n clauses."""
    triples = list(itertools.combinations_with_replacement(range(3), 3))
    for m in (1, 2):
        for clauses in itertools.combinations_with_replacement(triples, m):
            check_parsimony(Formula(3, clauses))
    rng = random.Random(12)
    for n in range(1, 13):
        for _ in range(20):
            check_parsimony(random_formula(rng, n, rng.randint(1, max(1, round(0.7 * n)))))


def test_every_solution_decodes_to_a_distinct_model():
    """Enumerated solutions map one to one onto the models, and each model's planted
    grid passes the rule checker."""
    rng = random.Random(7)
    for n, m in ((5, 2), (7, 3), (4, 3)):
        formula = random_formula(rng, n, m)
        reduction = to_kakuro(formula)
        decoded = [reduction.decode(s) for s in solutions(reduction.puzzle, timeout=60)]
        assert sorted(decoded) == sorted(models(formula))
        for model in models(formula):
            assert solution_problems(reduction.puzzle, reduction.solution(model)) == []


@pytest.mark.parametrize("backend", ["native", "cpsat", "pysat"])
def test_backends_count_the_models(backend):
    """Two backends of the registry (and a third) enumerate exactly the model count."""
    require_backend(backend)
    formula = Formula(6, ((0, 1, 2), (2, 3, 4), (1, 4, 5)))
    reduction = to_kakuro(formula)
    result = count(reduction.puzzle, None, backend=backend, timeout=120)
    assert result.complete
    assert result.n_solutions == count_models(formula)


def random_cnf(rng: random.Random, n: int, m: int) -> list[list[int]]:
    return [[v * rng.choice((1, -1)) for v in rng.sample(range(1, n + 1), 3)] for _ in range(m)]


def cnf_satisfied(cnf, bits) -> bool:
    return all(any(bits[abs(x) - 1] ^ (x < 0) for x in clause) for clause in cnf)


def check_3sat(n: int, cnf: list[list[int]]) -> None:
    made = from_3sat(n, cnf)
    satisfiable = any(cnf_satisfied(cnf, [(j >> v) & 1 for v in range(n)]) for j in range(1 << n))
    reduction = to_kakuro(made.formula)
    found = next(solutions(reduction.puzzle, backend="cpsat", timeout=120), None)
    assert (found is not None) == satisfiable
    if found is not None:
        assignment = reduction.decode(found)
        assert made.formula.satisfied(assignment)
        assert cnf_satisfied(cnf, assignment[:n])
        assert assignment[made.false] == 0


@pytest.mark.parametrize("n", [3, 5, 8, 12, 16, 20])
def test_3sat_through_1in3_end_to_end(n):
    """Random 3-SAT: satisfiable exactly when its Kakuro is, and the solution decodes to
    an assignment that satisfies the CNF (one CNF of one or two clauses per n)."""
    rng = random.Random(n)
    check_3sat(n, random_cnf(rng, n, rng.randint(1, 2)))


@pytest.mark.slow
def test_3sat_through_1in3_end_to_end_sweep():
    """Five random CNFs of up to four clauses for every n from 3 to 20, and each made
    unsatisfiable by (x ∨ x ∨ x) ∧ (¬x ∨ ¬x ∨ ¬x)."""
    rng = random.Random(20)
    for n in range(3, 21):
        for _ in range(5):
            cnf = random_cnf(rng, n, rng.randint(1, 4))
            check_3sat(n, cnf)
            x = rng.randint(1, n)
            check_3sat(n, [*cnf[:2], [x, x, x], [-x, -x, -x]])


def test_unsatisfiable_3sat_gives_no_solution():
    """(x ∨ x ∨ x) ∧ (¬x ∨ ¬x ∨ ¬x): no model, and the Kakuro has no solution."""
    cnf = [[1, 1, 1], [-1, -1, -1]]
    made = from_3sat(1, cnf)
    assert count_models(made.formula) == 0 == cnf_weighted_count(1, cnf)
    assert exact_count(to_kakuro(made.formula).puzzle) == 0


def test_3sat_count_relation():
    """``from_3sat`` is not parsimonious: its count is the weighted count it states."""
    cnf = [[1, -2, 3]]
    made = from_3sat(3, cnf)
    assert exact_count(to_kakuro(made.formula).puzzle) == cnf_weighted_count(3, cnf)
    assert count_models(made.formula) == cnf_weighted_count(3, cnf) > 7  # not parsimonious


def test_band_count_equals_brute_force():
    rng = random.Random(4)
    for width, layers in ((2, 3), (3, 4), (2, 8), (4, 3)):
        for planted in (True, False):
            source = banded(width, layers, 0.6, rng, planted=planted)
            assert band_count(source.formula, width) == count_models(source.formula)
            if planted:
                assert source.formula.satisfied(source.planted)


def test_shipped_members_carry_their_ground_truth():
    """Each member's formula (its ``clauses`` metadata) counts by the band to its
    ``solutions``; it lays out to the member's grid (the rest blocks); the smallest member's
    exact count equals it."""
    from kakurolab.hard import EXACT_COVER_WIDTH

    puzzles = load(DATA / "exact-cover.txt")
    for puzzle in puzzles:
        formula = parse_clauses(str(puzzle.meta["clauses"]))
        assert band_count(formula, EXACT_COVER_WIDTH) == int(str(puzzle.meta["solutions"]))
        made = to_kakuro(formula).puzzle
        rows, cols = made.shape
        assert tuple(row[:cols] for row in puzzle.grid[:rows]) == made.grid
        assert not set(puzzle.whites) - set(made.whites)
    assert exact_count(puzzles[0]) == int(str(puzzles[0].meta["solutions"]))


def test_a_node_clue_moved_by_one_port_step_changes_the_count():
    """The nodes carry the clauses: with one node's clue raised by one port's difference
    (2), its phase asks for another number of true variables than the other node's, and the
    puzzle has no solution, where the formula has three models."""
    from kakurolab.generator import Layout, from_clues
    from kakurolab.model import Clue

    reduction = to_kakuro(Formula(3, ((0, 1, 2),)))
    assert exact_count(reduction.puzzle) == 3
    node = set(reduction.wired.nodes[0])
    clues = {}
    for run in reduction.puzzle.runs:
        value = run.clue.value + (2 if node <= set(run.cells) else 0)
        clues[(run.direction, run.cells[0])] = Clue(value)
    moved = from_clues(Layout.of(reduction.puzzle), clues, "moved")
    assert moved.grid != reduction.puzzle.grid
    assert exact_count(moved) == 0
