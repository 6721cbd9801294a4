"""Every shipped generated puzzle, re-verified: valid, connected, runs 2-9, unique by two
independent backends (native and CP-SAT), and matching the manifest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _registries import require_backend

from kakurolab.formats import load
from kakurolab.generator import GENERATOR_VERSION, generate
from kakurolab.model import Solution
from kakurolab.rulebook import structure_problems
from kakurolab.uniqueness import Verdict, prove_unique

DATA = Path(__file__).resolve().parents[1] / "kakurolab" / "data" / "generated"
MANIFEST = json.loads((DATA / "manifest.json").read_text()) if DATA.exists() else {"sets": []}
SETS = MANIFEST["sets"]
CASES = [(entry, index) for entry in SETS for index in range(len(entry["seeds"]))]
SAME_PUZZLES = {GENERATOR_VERSION: {}, "3.5": {"dense_area": 0}}
"""Generator versions whose seeds this generator still makes into their puzzles, with the
options that do it: 3.6 draws grids of 100 to 200 interior cells denser, and ``dense_area=0``
draws them as 3.5 did (the shipped sets were built by 3.5 and are not rebuilt for 3.6)."""
OPTIONS = SAME_PUZZLES.get(MANIFEST.get("generator_version", ""), {})


def _id(case) -> str:
    entry, index = case
    return f"{entry['file']}#{index}"


def test_manifest_records_version_and_seeds():
    assert SETS, "no shipped sets"
    assert MANIFEST["generator_version"] in SAME_PUZZLES
    kinds = {(e["kind"], e["size"]) for e in SETS}
    assert ("cryptic", "6x6") in kinds and ("cryptic", "7x7") in kinds
    for entry in SETS:
        assert (DATA / entry["file"]).exists()
        assert len(load(DATA / entry["file"])) == len(entry["seeds"])


@pytest.fixture(scope="module")
def loaded():
    return {e["file"]: load(DATA / e["file"]) for e in SETS}


@pytest.mark.parametrize("case", CASES, ids=_id)
@pytest.mark.parametrize("backend", ["native", "cpsat"])
def test_shipped_puzzle_is_unique(loaded, case, backend):
    require_backend(backend)
    entry, index = case
    puzzle = loaded[entry["file"]][index]
    assert structure_problems(puzzle) == []
    assert all(2 <= len(run) <= 9 for run in puzzle.runs)
    assert f"{puzzle.nrows}x{puzzle.ncols}" == entry["size"]
    proof = prove_unique(puzzle, backend=backend, timeout=120)
    assert proof.verdict is Verdict.UNIQUE
    published = puzzle.meta.get("solution")
    if isinstance(published, Solution):
        assert proof.solutions[0] == published
    if entry["kind"] == "cryptic":
        assert proof.solutions[0].answer == entry["answers"][index]


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_shipped_puzzle_uses_every_row_and_column(loaded, case):
    """Generated with ``full_frame``: row 0 and column 0 hold the clues, and every other row
    and column holds at least one white cell (so the puzzle is as big as its stated size,
    not a smaller one padded with blocks).  Row 0 (column 0) then holds a clue above (left
    of) each white cell of row 1 (column 1), so no line at all is blank."""
    entry, index = case
    assert entry["params"]["full_frame"] is True
    puzzle = loaded[entry["file"]][index]
    whites = set(puzzle.whites)
    assert not any(r == 0 or c == 0 for r, c in whites)
    blank = [
        f"row {r + 1}"
        for r in range(1, puzzle.nrows)
        if all((r, c) not in whites for c in range(puzzle.ncols))
    ]
    blank += [
        f"column {c + 1}"
        for c in range(1, puzzle.ncols)
        if all((r, c) not in whites for r in range(puzzle.nrows))
    ]
    assert blank == []


def test_smallest_set_regenerates_from_its_seed(loaded):
    entry = next(e for e in SETS if e["kind"] == "standard" and e["size"] == "8x8")
    rows, cols = map(int, entry["size"].split("x"))
    again = generate(rows, cols, entry["difficulty"], seed=entry["seeds"][0], **OPTIONS)
    assert again.puzzle.grid == loaded[entry["file"]][0].grid


def test_smallest_cryptic_set_regenerates_from_its_seed(loaded):
    """Cryptic checks are bounded by search nodes, not seconds: the seed alone decides."""
    from kakurolab.generator.encrypt import generate_cryptic

    entry = next(e for e in SETS if e["kind"] == "cryptic" and e["size"] == "6x6")
    size = int(entry["size"].split("x")[0])
    again = generate_cryptic(size, seed=entry["seeds"][0], **OPTIONS)
    assert again.puzzle.grid == loaded[entry["file"]][0].grid
    assert again.solution.answer == entry["answers"][0]
