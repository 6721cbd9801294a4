"""Every generated puzzle stays byte-identical through changes meant to keep them: the
sha256 of a spread of seeds' puzzle texts (``kakurolab.generator.hashcheck``) against the
committed ``tests/data/generator_hashes.json``.  A change that makes other puzzles renews
the file (``python -m kakurolab.generator.hashcheck --write``) and says why."""

from __future__ import annotations

import pytest

from kakurolab.generator.hashcheck import CASES, HashCase, load

HASHES = load()


def test_the_file_holds_every_case_once() -> None:
    names = [case.name for case in CASES]
    assert len(set(names)) == len(names)
    assert set(HASHES) == set(names)


@pytest.mark.parametrize(
    "case",
    [pytest.param(c, id=c.name, marks=[pytest.mark.slow] if c.slow else []) for c in CASES],
)
def test_a_seed_makes_the_puzzle_it_made(case: HashCase) -> None:
    assert case.digest() == HASHES[case.name], f"{case.name}: another puzzle than before"
