"""The default CNF preset's formulas stay byte-identical through speed work: the sha256 of
``encode(puzzle, "fast").to_text()`` (header, variable map, projection line and every clause
in order) for every PE424 and janko dev puzzle, against ``tests/data/fast_formulas.json``
written by the encoder before the 2026-12-04 rewrite of its hot paths.

Same text means the same variables, clauses and clause order, so certificates made before
verify unchanged (``ENCODER_VERSION`` stays).  A change meant to alter the formula renews the
file (``PYTHONPATH=. python tests/test_encodings_golden.py --write``), bumps the encoder
version and says why."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from kakurolab import datasets
from kakurolab.encodings import DEFAULT_PRESET, encode
from kakurolab.formats import load

GOLDEN = Path(__file__).parent / "data" / "fast_formulas.json"
SETS = {"pe424": datasets.PE424, "janko": datasets.JANKO_DEV}


def digests(name: str) -> dict[str, str]:
    """Puzzle id -> sha256 (16 hex digits) of its ``fast`` DIMACS text."""
    return {
        puzzle.id: hashlib.sha256(encode(puzzle, DEFAULT_PRESET).to_text().encode()).hexdigest()[
            :16
        ]
        for puzzle in load(SETS[name])
    }


def test_the_default_preset_is_the_one_pinned() -> None:
    assert json.loads(GOLDEN.read_text())["preset"] == DEFAULT_PRESET


@pytest.mark.parametrize(
    "name",
    [pytest.param("janko", marks=pytest.mark.slow), "pe424"],  # janko: 8 s, the suite's budget
)
def test_every_puzzle_encodes_to_the_pinned_formula(name: str) -> None:
    want = json.loads(GOLDEN.read_text())["sets"][name]
    got = digests(name)
    assert set(got) == set(want)
    changed = sorted(pid for pid in want if got[pid] != want[pid])
    assert not changed, f"{len(changed)} {name} formulas differ, first {changed[:5]}"


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: PYTHONPATH=. python tests/test_encodings_golden.py --write")
    data = {"preset": DEFAULT_PRESET, "sets": {name: digests(name) for name in sorted(SETS)}}
    GOLDEN.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
