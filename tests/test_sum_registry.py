"""Every registered sum encoding (``kakurolab.encodings.cnf.sums.SUMS``) against brute force.

The cases come from the registry, so a new sum record is checked here without an edit: on
small grids under every cell encoding, the set of grids the pysat backend enumerates must be
exactly the set a plain enumeration of digit rows finds.  The record's facts are checked too:
``implies_alldiff`` sums need no all-different clauses, ``prunes`` sums remove dead digits.
"""

from __future__ import annotations

from itertools import permutations, product

import pytest
from _cnf_cases import sum_specs

from kakurolab.encodings import encode, parse_spec
from kakurolab.encodings.cnf import CNF_ENCODERS
from kakurolab.encodings.cnf.sums import SUMS
from kakurolab.formats import loads
from kakurolab.model import Puzzle, Solution
from kakurolab.uniqueness import count

GRIDS = [
    ((4, 6), (3, 7)),  # 2x2, one grid
    ((10, 10), (10, 10)),  # 2x2, eight grids
    ((3, 4), (3, 4)),  # 2x2, no grid (a 1+2 row and a 1+3 column share a cell twice)
    ((6, 9, 7), (6, 16)),  # 2x3
    ((17, 16), (16, 17)),  # 2x2, tight sums
]


def grid(down: tuple[int, ...], across: tuple[int, ...]) -> Puzzle:
    """A full rectangle of white cells with the given column and row sums."""
    width = len(down)
    lines = [f"{len(across) + 1} {width + 1}", "- " + " ".join(f"{d}," for d in down)]
    lines += [f",{a} " + " ".join("0" for _ in range(width)) for a in across]
    return loads("\n".join(lines) + "\n")[0]


def brute_force(down: tuple[int, ...], across: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Every grid, row by row: rows of distinct digits with their sums, columns checked."""
    rows = [
        [p for p in permutations(range(1, 10), len(down)) if sum(p) == total] for total in across
    ]
    out = set()
    for choice in product(*rows):
        columns = list(zip(*choice, strict=True))
        if all(len(set(c)) == len(c) and sum(c) == d for c, d in zip(columns, down, strict=True)):
            out.add(tuple(d for row in choice for d in row))
    return out


@pytest.mark.parametrize("cell", list(CNF_ENCODERS["cell"]))
@pytest.mark.parametrize("spec", sum_specs())
def test_every_sum_encoding_matches_brute_force(spec: str, cell: str) -> None:
    for down, across in GRIDS:
        puzzle = grid(down, across)
        result = count(puzzle, None, backend="pysat", encoding=f"cell={cell},{spec}")
        assert result.complete
        found = {tuple(s.values[c] for c in puzzle.whites) for s in result.solutions}
        assert found == brute_force(down, across), (spec, cell, down, across)


@pytest.mark.parametrize("name", list(SUMS))
def test_record_facts(name: str) -> None:
    """What a record claims, checked on the formula it builds."""
    record = SUMS[name]
    part = CNF_ENCODERS["sum"][name]
    assert (part.doc, part.args, part.implies_alldiff) == (
        record.doc,
        record.args,
        record.implies_alldiff,
    )
    canon = parse_spec(f"sum={name}")
    assert canon["alldiff"] == ("none" if record.implies_alldiff else "pairwise")
    # A 2-cell run summing to 3 holds only 1 and 2: a pruning sum never declares digit 9.
    enc = encode(grid((3, 3), (3, 3)), f"sum={name},alldiff=pairwise")
    cell = enc.puzzle.whites[0]
    assert (9 not in enc.cells.allowed[cell]) == record.prunes
    assert enc.lazy == record.lazy


def test_lazy_cuts_hook_is_generic() -> None:
    """``Encoding.cuts`` is empty unless a sum is left out; a lazy encoding's cut excludes the
    grid that breaks a sum (every literal of the cut is false under that grid)."""
    puzzle = grid((4, 6), (3, 7))
    bad = Solution(dict(zip(puzzle.whites, (1, 2, 2, 5), strict=True)), {})  # columns 3 and 7
    eager, lazy = encode(puzzle, "fast"), encode(puzzle, "lazy")
    assert eager.cuts(bad) == [] and not eager.lazy
    assert lazy.lazy
    cuts = lazy.cuts(bad)
    assert len(cuts) == 2  # both columns miss their sums; the rows are right
    true = set(lazy.solution_lits(bad))
    assert all(-lit in true for cut in cuts for lit in cut)
    good = Solution(dict(zip(puzzle.whites, (1, 2, 3, 4), strict=True)), {})
    assert lazy.cuts(good) == []
