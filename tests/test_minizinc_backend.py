"""The ``minizinc`` backend: the mzn export in each CP model, solved by MiniZinc's Gecode.

The generic backend tests (test_registries, test_crosscheck, ...) run it like every backend;
here: each model against the built-in backends, two grids in one run, the batch doubling,
and the one-line refusals.  MiniZinc is in the test environment (``.ci/run``), so these fail
when it is missing; the generic tests skip it then (``Backend.optional``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from _registries import require_backend

import kakurolab as kl
from kakurolab import datasets
from kakurolab.backends import BACKENDS, get_backend
from kakurolab.errors import KakuroError
from kakurolab.formats import load, loads
from kakurolab.formats.cpmodels import CP_MODELS
from kakurolab.model import Puzzle

ROOT = Path(__file__).resolve().parents[1]
MODELS = list(CP_MODELS)
AMBIGUOUS = """\
id: two-ways
  #    3\\   3\\
  \\3    .    .
  \\3    .    .
"""


def _small() -> list[Puzzle]:
    """The tiny puzzle, the smallest janko.at puzzle, PE424's first (cryptic), the cryptic
    sample with shown letters."""
    janko = min(load(datasets.JANKO_DEV), key=lambda p: len(p.whites))
    cryptic = load(ROOT / "kakurolab" / "data" / "samples" / "cryptic.kakuro")[0]
    return [load(ROOT / "tests" / "data" / "tiny.kakuro")[0], janko, load(datasets.PE424)[0],
            cryptic]


@pytest.fixture(autouse=True)
def _program() -> None:
    if shutil.which("minizinc") is None:
        pytest.fail("minizinc is not on PATH (.ci/run installs it)")


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("index", range(4), ids=["tiny", "janko", "pe424-1", "cryptic-sample"])
def test_each_model_proves_the_small_puzzles_unique_with_natives_grid(
    index: int, model: str
) -> None:
    for puzzle in _small()[index : index + 1]:
        ours = kl.prove_unique(puzzle, backend="native")
        theirs = kl.prove_unique(puzzle, backend="minizinc", model=model, timeout=60)
        assert theirs.verdict is ours.verdict is kl.Verdict.UNIQUE, puzzle.id
        assert theirs.solutions == ours.solutions, puzzle.id
        assert theirs.solutions[0].answer == ours.solutions[0].answer
        assert theirs.result.stats["model"] == model
        assert theirs.result.stats["solve_calls"] == 1  # two asked for, one found, complete


@pytest.mark.parametrize("model", MODELS)
def test_each_model_counts_two_grids_of_an_ambiguous_puzzle(model: str) -> None:
    (puzzle,) = loads(AMBIGUOUS)
    ours = kl.count(puzzle, limit=10, backend="native")
    theirs = kl.count(puzzle, limit=10, backend="minizinc", model=model)
    assert ours.complete and theirs.complete and theirs.n_solutions == ours.n_solutions == 2
    key = sorted  # grids as sorted cell-value items
    assert key(s.values.items() for s in theirs.solutions) == key(
        s.values.items() for s in ours.solutions
    )
    proof = kl.prove_unique(puzzle, backend="minizinc", model=model)
    assert proof.verdict is kl.Verdict.MULTIPLE and proof.result.stats["solve_calls"] == 1


def test_later_runs_ask_for_twice_as_many_grids() -> None:
    """The 8-grid puzzle of test_cli_solve's count test: runs asking for 2, 4 and 8 grids
    (2 + 4 found, then the last 2 and a complete search), not one run per grid."""
    from test_cli_solve import AMBIGUOUS as EIGHT

    (puzzle,) = loads(EIGHT)
    native = kl.count(puzzle, limit=None, backend="native")
    result = kl.count(puzzle, limit=None, backend="minizinc", model="table")
    assert native.complete and result.complete and result.n_solutions == native.n_solutions == 8
    assert result.stats["solve_calls"] == 3


def test_an_unknown_model_or_option_is_one_line() -> None:
    with pytest.raises(KakuroError, match=r"^unknown model 'strong'; known: sum, table"):
        get_backend("minizinc", model="strong")
    with pytest.raises(KakuroError, match=r"does not take option 'modle'.*did you mean model"):
        get_backend("minizinc", modle="table")


def test_a_missing_program_is_one_line_and_skips_the_generic_tests(tmp_path: Path) -> None:
    """Without minizinc on PATH the backend refuses in one line (exit 2, no traceback), and
    the registry-parametrized tests skip it, naming the program; a core backend still fails."""
    env = {**os.environ, "PATH": str(tmp_path), "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-m", "kakurolab", "solve", str(ROOT / "tests" / "data" / "tiny.kakuro"),
         "--backend", "minizinc"],
        capture_output=True, text=True, env=env, timeout=60,
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.strip().splitlines() == [
        "kakuro: error: backend 'minizinc': the minizinc program is not on PATH "
        "(apt-get install minizinc)"
    ]
    old = os.environ["PATH"]
    try:
        os.environ["PATH"] = str(tmp_path)
        with pytest.raises(pytest.skip.Exception, match="needs the minizinc program"):
            require_backend("minizinc")
        assert BACKENDS["minizinc"].optional and not BACKENDS["dimacs"].optional
    finally:
        os.environ["PATH"] = old
