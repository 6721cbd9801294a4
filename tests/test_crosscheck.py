"""Every registered backend agrees with an independent reference on the same real puzzles.

One test item per backend (``backend_name``, from the registry): janko puzzles are checked
against their published solutions, PE424 puzzles and the hand-made variants against a
reference backend that shares nothing with the one under test but the model and the rule
checker (native, or CP-SAT when native itself is under test; see ``_registries``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from _registries import reference_for

from kakurolab.formats import embedded_solution, load
from kakurolab.model import LETTERS, Puzzle, Solution
from kakurolab.uniqueness import Uniqueness, Verdict, count, prove_unique

DATA = Path(__file__).resolve().parents[1] / "data"

PE424_SAMPLE = list(range(1, 201, 20))
"""PE424 puzzle ids (1-based) every backend runs in the default suite; slow: all 200."""
JANKO_SMALLEST = 8
"""How many janko puzzles (the fewest white cells first) every backend runs by default."""

Proof = Callable[[Puzzle, str], Uniqueness]


@pytest.fixture(scope="session")
def reference_proof() -> Proof:
    """``prove_unique`` cached per (puzzle, backend): N backends cost N + 1 solves."""
    cache: dict[tuple[str, str, str], Uniqueness] = {}

    def proof(puzzle: Puzzle, backend: str) -> Uniqueness:
        key = (puzzle.id, str(puzzle.grid), backend)
        if key not in cache:
            cache[key] = prove_unique(puzzle, backend=backend)
        return cache[key]

    return proof


def _agree(puzzle: Puzzle, backend: str, reference_proof: Proof) -> Uniqueness:
    """Verdict and witnesses of ``backend`` equal the reference's on ``puzzle``."""
    reference = reference_proof(puzzle, reference_for(backend))
    found = prove_unique(puzzle, backend=backend)
    assert found.verdict is reference.verdict, f"{backend}: {found.verdict}, reference: " + (
        f"{reference_for(backend)} {reference.verdict}"
    )
    if reference.verdict is Verdict.UNIQUE:
        assert found.solutions == reference.solutions
        assert found.solutions[0].answer == reference.solutions[0].answer
    return found


def _smallest(puzzles: list[Puzzle], n: int) -> list[int]:
    return sorted(range(len(puzzles)), key=lambda i: (len(puzzles[i].whites), i))[:n]


@pytest.mark.parametrize("puzzle_id", PE424_SAMPLE)
def test_pe424(pe424_puzzles, backend_name: str, puzzle_id: int, reference_proof) -> None:
    found = _agree(pe424_puzzles[puzzle_id - 1], backend_name, reference_proof)
    assert found.verdict is Verdict.UNIQUE  # Project Euler's puzzles have one answer each


@pytest.mark.slow
@pytest.mark.parametrize("puzzle_id", [i for i in range(1, 201) if i not in PE424_SAMPLE])
def test_pe424_all(pe424_puzzles, backend_name: str, puzzle_id: int, reference_proof) -> None:
    _agree(pe424_puzzles[puzzle_id - 1], backend_name, reference_proof)


LARGE_GRID_OPTIONS: dict[str, dict[str, str]] = {"cvc5": {"encoding": "smt=bv"}}
"""What the all-janko run gives a backend whose default model is too slow on large grids:
cvc5's arithmetic on its default ``smt=lia`` gave up after 60 s on 262_15x20 and 251_20x30,
which its bit-vector model proves unique in 2 s and 13 s."""


def _published(puzzle: Puzzle, backend: str, **options: str) -> None:
    """The published puzzle is unique and its published grid is the one the backend finds."""
    proof = prove_unique(puzzle, backend=backend, **options)
    assert proof.verdict is Verdict.UNIQUE, f"{puzzle.id}: {proof.verdict}"
    assert proof.solutions[0] == embedded_solution(puzzle), puzzle.id


@pytest.mark.parametrize("rank", range(JANKO_SMALLEST))
def test_janko_published(janko_puzzles, backend_name: str, rank: int) -> None:
    _published(janko_puzzles[_smallest(janko_puzzles, JANKO_SMALLEST)[rank]], backend_name)


@pytest.mark.slow
def test_janko_all_published(janko_puzzles, backend_name: str) -> None:
    for index in _smallest(janko_puzzles, len(janko_puzzles))[JANKO_SMALLEST:]:
        _published(janko_puzzles[index], backend_name, **LARGE_GRID_OPTIONS.get(backend_name, {}))


# -- counting many solutions of cryptic puzzles -----------------------------------------------
# PE424 puzzles with every shown letter turned into a plain white cell have several to dozens
# of solutions; lines 4, 7 and 181 then leave two letters unused (58: three), so each grid
# stands for several answers.  The default run takes the two smallest (13 white cells).


def _pe424_fields(pe424_path, line: int) -> list[str]:
    """The comma-separated fields of one line of the PE424 file (1-based)."""
    return pe424_path.read_text().splitlines()[line - 1].split(",")


def _shown_letters(fields: list[str]) -> list[int]:
    """Indices of the white cells that show a letter."""
    return [i for i, f in enumerate(fields) if len(f) == 1 and f in LETTERS]


def _from_fields(fields: list[str]) -> Puzzle:
    from kakurolab.formats import loads

    return loads(",".join(fields), format="pe424")[0]


def letterless(pe424_path, line: int) -> Puzzle:
    """PE424 puzzle ``line`` with every shown letter a plain white cell (many solutions)."""
    fields = _pe424_fields(pe424_path, line)
    for i in _shown_letters(fields):
        fields[i] = "O"
    return _from_fields(fields)


def relettered(pe424_path, letter: str) -> Puzzle:
    """PE424 puzzle 1 with its last shown letter replaced by ``letter`` (``O``: hidden)."""
    fields = _pe424_fields(pe424_path, 1)
    fields[max(_shown_letters(fields))] = letter
    return _from_fields(fields)


def all_solutions(puzzle: Puzzle, backend: str, **options: object) -> set[Solution]:
    result = count(puzzle, None, backend=backend, **options)
    assert result.complete
    assert len(set(result.solutions)) == len(result.solutions)  # no grid found twice
    return set(result.solutions)


@pytest.fixture(scope="session")
def reference_solutions() -> Callable[[Puzzle, str], set[Solution]]:
    """Every solution of a puzzle by a reference backend, cached per (puzzle, backend)."""
    cache: dict[tuple[str, str], set[Solution]] = {}

    def solutions(puzzle: Puzzle, backend: str) -> set[Solution]:
        key = (str(puzzle.grid), backend)
        if key not in cache:
            cache[key] = all_solutions(puzzle, backend)
        return cache[key]

    return solutions


@pytest.mark.parametrize("line", [58, 181])
def test_counts_of_letterless_cryptic_puzzles_agree(
    pe424_path, backend_name: str, line: int, reference_solutions
) -> None:
    puzzle = letterless(pe424_path, line)
    reference = reference_solutions(puzzle, reference_for(backend_name))
    assert len(reference) > 2
    assert all_solutions(puzzle, backend_name) == reference


@pytest.mark.slow
@pytest.mark.parametrize("line", [1, 4, 7, 10])
def test_counts_of_more_letterless_cryptic_puzzles_agree(
    pe424_path, backend_name: str, line: int, reference_solutions
) -> None:
    test_counts_of_letterless_cryptic_puzzles_agree(
        pe424_path, backend_name, line, reference_solutions
    )


def _relettered_agree(pe424_path, backend: str, letters: str, reference_proof) -> set[Verdict]:
    return {
        _agree(relettered(pe424_path, letter), backend, reference_proof).verdict
        for letter in letters
    }


def test_verdicts_of_relettered_cryptic_puzzles_agree(
    pe424_path, backend_name: str, reference_proof
) -> None:
    """PE424 puzzle 1 with its last shown letter replaced (or hidden, ``O``): A makes it
    unsatisfiable, B keeps it unique, hiding it makes it ambiguous; the backend gives the
    reference's verdict on each."""
    verdicts = _relettered_agree(pe424_path, backend_name, "ABO", reference_proof)
    assert verdicts == {Verdict.UNSAT, Verdict.UNIQUE, Verdict.MULTIPLE}


@pytest.mark.slow
def test_verdicts_of_every_relettered_cryptic_puzzle_agree(
    pe424_path, backend_name: str, reference_proof
) -> None:
    _relettered_agree(pe424_path, backend_name, "CDEFGHIJ", reference_proof)


@pytest.mark.parametrize("family", ["domino", "domino-unsat"])
def test_puzzles_with_one_cell_runs_agree(backend_name: str, family: str, reference_proof) -> None:
    """The reductions' pins are one-cell runs (legal Kakuro): every backend builds its model
    of them (cvc5 refused a DISTINCT of one term in results/hard at 744ce9d) and agrees."""
    puzzle = load(DATA / "hard" / f"{family}.txt")[0]
    assert any(len(run) == 1 for run in puzzle.runs)
    found = _agree(puzzle, backend_name, reference_proof)
    assert found.verdict is (Verdict.UNSAT if family == "domino-unsat" else Verdict.MULTIPLE)
