"""Independent backends must agree: verdicts and grids of native vs the CP-SAT peer.

The two share nothing but the model and the rule checker (native propagates digit sets,
CP-SAT runs lazy clause generation on the plain Sum + AllDifferent model), so agreement on
real puzzles is evidence for both.
"""

from __future__ import annotations

import pytest
from _puzzles import square

from kakurolab.backends import BACKENDS
from kakurolab.check import solution_problems
from kakurolab.model import LETTERS, Puzzle
from kakurolab.uniqueness import Verdict, prove_unique

PAIRS = [("native", "cpsat")]
BACKENDS_UNDER_TEST = sorted({name for pair in PAIRS for name in pair})
PE424_SAMPLE = [str(i) for i in range(1, 201, 10)]
JANKO_SAMPLE = list(range(0, 105, 5))


def _need(*names: str) -> None:
    for name in names:
        if name not in BACKENDS:
            pytest.skip(f"backend {name!r} is not registered yet")
        if not BACKENDS[name].available():
            pytest.skip(f"backend {name!r} is not installed here")


def _agree(puzzle: Puzzle, pair: tuple[str, str]) -> None:
    _need(*pair)
    left, right = (prove_unique(puzzle, backend=name) for name in pair)
    assert left.verdict == right.verdict, f"{pair[0]}: {left.verdict}, {pair[1]}: {right.verdict}"
    if left.verdict is Verdict.UNIQUE:
        assert left.solutions[0] == right.solutions[0]
        assert left.solutions[0].answer == right.solutions[0].answer


@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
@pytest.mark.parametrize("puzzle_id", PE424_SAMPLE)
def test_pe424(pe424_puzzles, puzzle_id: str, pair: tuple[str, str]) -> None:
    _agree(pe424_puzzles[int(puzzle_id) - 1], pair)


@pytest.mark.slow
@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
@pytest.mark.parametrize("puzzle_id", [str(i) for i in range(1, 201) if str(i) not in PE424_SAMPLE])
def test_pe424_all(pe424_puzzles, puzzle_id: str, pair: tuple[str, str]) -> None:
    _agree(pe424_puzzles[int(puzzle_id) - 1], pair)


@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
@pytest.mark.parametrize("index", JANKO_SAMPLE)
def test_janko(janko_puzzles, index: int, pair: tuple[str, str]) -> None:
    _agree(janko_puzzles[index], pair)


@pytest.mark.slow
@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
@pytest.mark.parametrize("index", [i for i in range(105) if i not in JANKO_SAMPLE])
def test_janko_all(janko_puzzles, index: int, pair: tuple[str, str]) -> None:
    _agree(janko_puzzles[index], pair)


# Small puzzles built here: a 2x2 white square with column (down) and row (across) sums.
AMBIGUOUS = square((10, 10), (10, 10))  # b = c, d = a for any a != 5: eight grids
UNSAT = square((3, 5), (3, 4))  # a+b = a+c = 3, c+d = 4 force b = c = 1, a = 2, d = 3: b+d = 4
UNIQUE = square((3, 4), (3, 4))  # the same forcing, consistent this time


@pytest.mark.parametrize("backend", BACKENDS_UNDER_TEST)
def test_ambiguous_gives_two_distinct_valid_witnesses(backend: str) -> None:
    _need(backend)
    proof = prove_unique(AMBIGUOUS, backend=backend)
    assert proof.verdict is Verdict.MULTIPLE
    first, second = proof.solutions
    assert first != second
    assert not solution_problems(AMBIGUOUS, first)
    assert not solution_problems(AMBIGUOUS, second)
    assert proof.differences  # the two grids differ somewhere


@pytest.mark.parametrize("backend", BACKENDS_UNDER_TEST)
def test_unsat(backend: str) -> None:
    _need(backend)
    proof = prove_unique(UNSAT, backend=backend)
    assert proof.verdict is Verdict.UNSAT
    assert proof.solutions == []


@pytest.mark.parametrize("backend", BACKENDS_UNDER_TEST)
def test_unique_small(backend: str) -> None:
    _need(backend)
    proof = prove_unique(UNIQUE, backend=backend)
    assert proof.verdict is Verdict.UNIQUE
    assert proof.solutions[0].rows(UNIQUE) == ["---", "-21", "-13"]


# -- counting many solutions of cryptic puzzles -----------------------------------------------
# PE424 puzzles with every shown letter turned into a plain white cell have dozens of
# solutions; lines 4 and 7 then leave two letters unused, so each grid stands for two answers.
COUNT_CONFIGS = {
    "native": {},
    "cpsat": {},
    "pysat-fast": {"encoding": "fast"},
    "pysat-presolved": {"encoding": "presolved"},
    "pysat-lazy": {"encoding": "lazy"},
    "z3": {},
}


def _pe424_fields(pe424_path, line: int) -> list[str]:
    """The comma-separated fields of one line of the PE424 file (1-based)."""
    return pe424_path.read_text().splitlines()[line - 1].split(",")


def _shown_letters(fields: list[str]) -> list[int]:
    """Indices of the white cells that show a letter."""
    return [i for i, f in enumerate(fields) if len(f) == 1 and f in LETTERS]


def _from_fields(fields: list[str]) -> Puzzle:
    from kakurolab.formats import loads

    return loads(",".join(fields), format="pe424")[0]


@pytest.mark.parametrize("config", sorted(COUNT_CONFIGS))
@pytest.mark.parametrize("line", [1, 4, 7, 10])
def test_counts_of_letterless_cryptic_puzzles_agree(pe424_path, line: int, config: str) -> None:
    from kakurolab.uniqueness import count

    backend = config.split("-")[0]
    _need("native", backend)
    fields = _pe424_fields(pe424_path, line)
    for i in _shown_letters(fields):
        fields[i] = "O"  # a plain white cell
    puzzle = _from_fields(fields)
    reference = count(puzzle, None, backend="native")
    found = count(puzzle, None, backend=backend, **COUNT_CONFIGS[config])
    assert reference.complete and found.complete
    assert len(reference.solutions) > 2
    assert set(found.solutions) == set(reference.solutions)
    assert len(found.solutions) == len(reference.solutions)


@pytest.mark.parametrize("config", sorted(COUNT_CONFIGS))
@pytest.mark.parametrize("letter", list("ABCDEFGHIJO"))
def test_verdicts_of_relettered_cryptic_puzzles_agree(pe424_path, letter: str, config: str):
    """PE424 puzzle 1 with its last shown letter replaced (or hidden, ``O``): most variants
    are unsatisfiable, one is ambiguous; every configuration gives native's verdict."""
    backend = config.split("-")[0]
    _need("native", backend)
    fields = _pe424_fields(pe424_path, 1)
    fields[max(_shown_letters(fields))] = letter
    puzzle = _from_fields(fields)
    reference = prove_unique(puzzle, backend="native")
    found = prove_unique(puzzle, backend=backend, **COUNT_CONFIGS[config])
    assert found.verdict == reference.verdict
    if reference.verdict is Verdict.UNIQUE:
        assert found.solutions[0] == reference.solutions[0]
