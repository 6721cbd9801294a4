"""Hard instance families (issue 26): each shipped file is what its command and seed make,
and each family is what it claims (unique, multiple, unsat) by independent backends.

The seed is read from the file's provenance line in data/README.md (the command that made
it), so the test checks that the documented command rebuilds the shipped file, not a copy of
a seed kept here.  Only the smallest
member of each family is rebuilt and solved: the large ones are what the experiments are for.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _registries import require_backend

from kakurolab import hard
from kakurolab.formats import load
from kakurolab.uniqueness import count

DATA = Path(__file__).resolve().parents[1] / "data" / "hard"
README = DATA.parent / "README.md"


def shipped_first(family: str):
    """The file's first puzzle, after checking that the file holds the family's sizes in
    order (a prefix of them: a build stopped early keeps the members it made)."""
    puzzles = load(DATA / f"{family}.txt")
    sizes = sorted(hard.FAMILIES[family].sizes)
    assert 1 <= len(puzzles) <= len(sizes)
    fam = hard.FAMILIES[family]
    assert [p.shape for p in puzzles] == [fam.shape(n) for n in sizes[: len(puzzles)]]
    return puzzles[0]


def documented_seed(family: str) -> int:
    """The seed of the command data/README.md gives for ``hard/FAMILY.txt``."""
    for line in README.read_text(encoding="utf-8").splitlines():
        if f"`hard/{family}.txt`" in line:
            found = re.search(rf"`python -m kakurolab\.hard build {family} --seed (\d+)`", line)
            assert found, line
            return int(found.group(1))
    raise AssertionError(f"data/README.md has no provenance line for hard/{family}.txt")


@pytest.mark.parametrize("family", list(hard.FAMILIES))
def test_smallest_member_rebuilds_identically(family):
    shipped = shipped_first(family)
    size = min(hard.FAMILIES[family].sizes)
    assert shipped.shape == hard.FAMILIES[family].shape(size)
    (rebuilt,) = hard.build(family, documented_seed(family), [size])
    assert rebuilt.grid == shipped.grid
    # and the file format writes it back byte for byte
    assert hard.family_text(family, [rebuilt]) == hard.family_text(family, [shipped])


@pytest.mark.parametrize(
    ("family", "backend"),
    [(name, backend) for name, fam in hard.FAMILIES.items() for backend in fam.checked_by],
)
def test_smallest_member_has_the_claimed_property(family, backend):
    require_backend(backend)
    puzzle = shipped_first(family)
    result = count(puzzle, 2, backend=backend, timeout=120)
    found = len(result.solutions)
    claim = hard.FAMILIES[family].claim
    if claim == "multiple":
        assert found == 2
    else:
        assert result.complete
        assert found == {"unique": 1, "unsat": 0}[claim]


def test_moved_clue_keeps_the_run_ambiguous_and_breaks_the_totals():
    shipped = shipped_first("unsat")
    across = sum(r.clue.value for r in shipped.runs if r.direction == "across")
    down = sum(r.clue.value for r in shipped.runs if r.direction == "down")
    assert abs(across - down) == 1  # the counting argument that makes it unsat


def test_build_refuses_unknown_family_and_bad_sizes(capsys):
    assert hard.main(["build", "nonesuch"]) == 2
    assert "unknown family" in capsys.readouterr().err
    assert hard.main(["build", "loose", "--sizes", "x"]) == 2
    assert "bad sizes" in capsys.readouterr().err


def test_smallest_unsat_member_has_a_checked_drat_refutation():
    """``kakuro certify`` writes certificates of uniqueness only; the unsat family's
    smallest member gets the same kind of evidence here: CaDiCaL's DRAT proof that the
    certificate encoding of the puzzle has no model, replayed by dratify."""
    import dratify
    from pysat.solvers import Solver

    from kakurolab.encodings import encode
    from kakurolab.proofs import REFERENCE_ENCODING

    enc = encode(shipped_first("unsat"), REFERENCE_ENCODING)
    with Solver(name="cadical195", bootstrap_with=enc.clauses, with_proof=True) as solver:
        assert solver.solve() is False
        proof = "".join(line + "\n" for line in solver.get_proof())
    formula = dratify.parse_dimacs(enc.to_text(), strict=True)
    assert dratify.check_proof(formula, proof, engine="python").ok


def test_tiled_members_are_independent_bank_tiles_past_10000_white_cells():
    """The scaling control: (side/20)^2 separate white areas, one per bank tile, each with
    the bank's verified solution; the largest member passes 10,000 white cells."""
    from kakurolab import bank
    from kakurolab.rulebook import white_components

    puzzles = load(DATA / "tiled.txt")
    assert max(len(p.whites) for p in puzzles) >= 10_000
    for puzzle in puzzles[:3]:
        tiles = puzzle.meta["tiles"].split()
        assert len(tiles) == (puzzle.shape[0] // hard.TILE) ** 2
        assert len(white_components(puzzle)) == len(tiles)
    first = puzzles[0]
    (tile,) = first.meta["tiles"].split()
    base_id, _, variant = tile.partition("/")
    (base,) = [b for b in bank.bases("20x20", "hard") if b.id == base_id]
    (seen,) = [bank.variant_of(base, v) for v in bank.VARIANTS if v.name == variant]
    assert seen.puzzle.grid == first.grid
