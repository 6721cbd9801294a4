"""The shipped puzzle bank: every base re-verified, picks deterministic and correct.

The default suite re-checks every base cheaply (manifest hash, the solution against the
rules, uniqueness by the native backend and by CP-SAT); the slow suite proves all 16
variants of every base unique with CP-SAT, independent of the native search the generator
used."""

from __future__ import annotations

import statistics

import pytest
from _registries import require_backend

from kakurolab import bank
from kakurolab.errors import KakuroError
from kakurolab.generator.transforms import transform_puzzle
from kakurolab.rulebook import solution_problems, structure_problems
from kakurolab.shape import layout_stats
from kakurolab.uniqueness import Verdict, prove_unique

RECORDS = bank.manifest()["bases"]
CELLS = sorted({(r["size"], r["difficulty"]) for r in RECORDS})
BASES = [b for size, level in CELLS for b in bank.bases(size, level)]


def test_every_cell_holds_its_bases():
    """6 sizes x 4 levels, ``PER_CELL`` bases each, ids unique, files and manifest agree."""
    every = [(s, d) for s in bank.SIZES for d in bank.DIFFICULTIES]
    assert set(CELLS) == set(every)
    short = {
        cell
        for cell in every
        if len([r for r in RECORDS if (r["size"], r["difficulty"]) == cell]) != bank.PER_CELL
    }
    assert short == set()
    assert len({r["id"] for r in RECORDS}) == len(RECORDS) == len(BASES)


@pytest.mark.parametrize("base", BASES, ids=lambda b: b.id)
def test_base_is_what_the_manifest_says(base):
    assert bank.puzzle_hash(base.puzzle, base.solution) == base.hash
    assert structure_problems(base.puzzle) == []
    assert solution_problems(base.puzzle, base.solution) == []
    assert f"{base.puzzle.nrows}x{base.puzzle.ncols}" == base.size


@pytest.mark.parametrize("backend", ["native", "pysat"])
def test_every_base_is_unique(backend):
    """By two independent backends: native and CNF on CaDiCaL (CP-SAT took 13.5 s for the
    384 bases, CNF 3.0 s)."""
    require_backend(backend)
    for base in BASES:
        proof = prove_unique(base.puzzle, backend=backend)
        assert proof.verdict is Verdict.UNIQUE, base.id
        assert proof.solutions[0].values == base.solution.values, base.id


def test_hash_catches_changed_clues():
    base = BASES[0]
    complement = next(t for t in bank.VARIANTS if t.complement and t.name == "c")
    changed = transform_puzzle(base.puzzle, complement)  # same cells, other clues
    assert bank.puzzle_hash(changed, base.solution) != base.hash


def test_pick_is_deterministic_and_correct():
    seen = set()
    for seed in range(12):
        a = bank.pick("8x8", "normal", seed)
        b = bank.pick("8x8", "normal", seed)
        assert a == b
        assert a.size == "8x8" and a.difficulty == "normal"
        assert solution_problems(a.puzzle, a.solution) == []
        assert a.puzzle.id == f"{a.base}~{a.variant.name}"
        seen.add((a.base, a.variant))
    assert len(seen) > 6  # seeds spread over bases and variants


def test_pick_draws_from_every_cell():
    for size, level in CELLS:
        picked = bank.pick(size, level, seed=1)
        rows, cols = map(int, size.split("x"))
        assert picked.puzzle.shape in ((rows, cols), (cols, rows))
        assert solution_problems(picked.puzzle, picked.solution) == []


def test_unknown_cell_is_a_one_line_error():
    with pytest.raises(KakuroError, match="unknown bank size"):
        bank.pick("7x7", "easy")
    with pytest.raises(KakuroError, match="unknown bank difficulty"):
        bank.pick("8x8", "insane")


def test_levels_rise_at_every_size():
    """Mean grade score and mean clue ambiguity rise strictly from easy to expert (over the
    levels the bank holds for the size)."""
    for size in bank.SIZES:
        levels = [lv for lv in bank.DIFFICULTIES if (size, lv) in CELLS]
        assert len(levels) >= 2, size
        scores = [statistics.mean(b.score for b in bank.bases(size, lv)) for lv in levels]
        ambiguity = [statistics.mean(b.ambiguity for b in bank.bases(size, lv)) for lv in levels]
        assert scores == sorted(scores) and len(set(scores)) == len(levels), (size, scores)
        assert ambiguity == sorted(ambiguity) and len(set(ambiguity)) == len(levels), size


def test_recorded_grades_are_recomputed():
    """The manifest's grades are what grading says now (first base of every cell)."""
    from kakurolab.logic.grading import grade

    for size, level in CELLS:
        base = bank.bases(size, level)[0]
        graded = grade(base.puzzle)
        assert graded.solved, base.id
        assert round(graded.ambiguity, 3) == pytest.approx(base.ambiguity)


def test_every_base_looks_published():
    for base in BASES:
        stats = layout_stats(base.puzzle)
        assert stats.symmetric, base.id


@pytest.mark.slow
@pytest.mark.parametrize("base", BASES, ids=lambda b: b.id)
def test_every_variant_is_unique_by_cpsat(base):
    require_backend("cpsat")
    for variant in bank.VARIANTS:
        picked = bank.variant_of(base, variant)
        proof = prove_unique(picked.puzzle, backend="cpsat")
        assert proof.verdict is Verdict.UNIQUE, (base.id, variant.name)
        assert proof.solutions[0].values == picked.solution.values


def test_holds_names_exactly_the_cells_with_bases() -> None:
    held = {(b["size"], b["difficulty"]) for b in bank.manifest()["bases"]}
    for size in (*bank.SIZES, "14x14"):
        for difficulty in (*bank.DIFFICULTIES, "grand"):
            assert bank.holds(size, difficulty) == ((size, difficulty) in held)


def test_resume_refuses_a_bank_of_another_generator(tmp_path, capsys) -> None:
    """Another generator version makes other puzzles from the same seeds: resuming such a
    bank would stamp its old bases with the new version, so it is refused in one line."""
    import json

    data = bank.manifest()
    (tmp_path / bank.MANIFEST).write_text(json.dumps({**data, "generator_version": "0.0"}))
    with pytest.raises(KakuroError, match="build it afresh"):
        bank.seeds_built("8x8", "easy", tmp_path)
    from kakurolab.cli import main

    args = ["bank", "build", "--size", "8x8", "--difficulty", "easy", "--resume"]
    assert main([*args, "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "without --resume" in err and err.count("\n") == 1
    from kakurolab.generator import GENERATOR_VERSION

    # a bank of this generator resumes (the shipped one may be of an earlier version)
    current = {**data, "generator_version": GENERATOR_VERSION}
    (tmp_path / bank.MANIFEST).write_text(json.dumps(current))
    assert bank.seeds_built("8x8", "easy", tmp_path) == {
        r["seed"] for r in RECORDS if (r["size"], r["difficulty"]) == ("8x8", "easy")
    }
