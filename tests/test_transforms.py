"""The 16 symmetries: every variant stays valid and unique, and solutions map across."""

from __future__ import annotations

import pytest
from _registries import require_backend

from kakurolab.cli import main
from kakurolab.errors import KakuroError
from kakurolab.formats import load
from kakurolab.generator import generate
from kakurolab.generator.transforms import (
    Transform,
    all_transforms,
    transform_puzzle,
    transform_solution,
)
from kakurolab.rulebook import solution_problems, structure_problems
from kakurolab.uniqueness import Verdict, prove_unique

VARIANTS = list(all_transforms())


@pytest.fixture(scope="module", params=[(8, 8), (7, 11)], ids=["square", "oblong"])
def made(request):
    return generate(*request.param, "hard", seed=4, symmetric=False)  # no symmetry of its own


def test_sixteen_distinct_variants(made):
    assert len(VARIANTS) == 16
    grids = {transform_puzzle(made.puzzle, t).grid for t in VARIANTS}
    # a random layout has no symmetry of its own, so every variant is a different grid
    assert len(grids) == 16


@pytest.mark.parametrize("t", VARIANTS, ids=lambda t: t.name)
@pytest.mark.parametrize("backend", ["native", "cpsat"])
def test_variant_is_valid_unique_and_maps_the_solution(made, t, backend):
    require_backend(backend)
    puzzle = transform_puzzle(made.puzzle, t)
    assert puzzle.shape == t.shape(*made.puzzle.shape)
    assert structure_problems(puzzle) == []
    mapped = transform_solution(made.solution, made.puzzle.shape, t)
    assert solution_problems(puzzle, mapped) == []
    proof = prove_unique(puzzle, backend=backend)
    assert proof.verdict is Verdict.UNIQUE
    assert proof.solutions[0] == mapped


@pytest.mark.parametrize(
    ("steps", "same_as"),
    [
        ([Transform(90)] * 4, Transform()),
        ([Transform(180), Transform(flip="h")], Transform(flip="v")),
        ([Transform(complement=True)] * 2, Transform()),
        ([Transform(90), Transform(270)], Transform()),
    ],
)
def test_compositions(made, steps, same_as):
    puzzle = made.puzzle
    for t in steps:
        puzzle = transform_puzzle(puzzle, t)
    assert puzzle.grid == transform_puzzle(made.puzzle, same_as).grid


def test_complement_clue_is_10k_minus_s(made):
    flipped = transform_puzzle(made.puzzle, Transform(complement=True))
    for before, after in zip(made.puzzle.runs, flipped.runs, strict=True):
        assert after.clue.value == 10 * len(before) - before.clue.value


def test_cryptic_takes_geometric_transforms_only(pe424_puzzles):
    puzzle = pe424_puzzles[0]
    base = prove_unique(puzzle, backend="native").solutions[0]
    for t in VARIANTS:
        if t.complement:
            with pytest.raises(KakuroError, match="complement"):
                transform_puzzle(puzzle, t)
            continue
        moved = transform_puzzle(puzzle, t)
        proof = prove_unique(moved, backend="native")
        assert proof.verdict is Verdict.UNIQUE
        assert proof.solutions[0] == transform_solution(base, puzzle.shape, t)
        assert proof.solutions[0].answer == base.answer


@pytest.mark.parametrize("bad", [dict(rotate=45), dict(flip="d")])
def test_bad_transform_is_a_one_line_error(bad):
    with pytest.raises(KakuroError):
        Transform(**bad)


def test_cli_transform(tmp_path, made):
    from kakurolab.formats import dumps
    from kakurolab.model import Puzzle

    src = tmp_path / "p.kakuro"
    src.write_text(dumps([Puzzle("p", made.puzzle.grid, {"solution": made.solution})], "kakuro"))
    out = tmp_path / "t.kakuro"
    argv = ["transform", str(src), "--rotate", "270", "--flip", "h", "--complement", "-o", str(out)]
    assert main(argv) == 0
    moved = load(out)[0]
    t = Transform(270, "h", True)
    assert moved.grid == transform_puzzle(made.puzzle, t).grid
    assert moved.meta["solution"] == transform_solution(made.solution, made.puzzle.shape, t)
    assert main(["check", str(out)]) == 0
    with pytest.raises(SystemExit) as exc:  # argparse rejects the choice
        main(["transform", str(src), "--rotate", "45"])
    assert exc.value.code == 2
