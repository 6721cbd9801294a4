"""The generator's fingerprint: the sha256 of the puzzles a spread of seeds makes.

A seed pins its puzzle (``core.derive_seed``, node budgets instead of clocks), so a change
meant to keep the puzzles (a refactor, a speed-up that takes the same decisions sooner)
proves it by leaving these hashes alone; a change that makes other puzzles renews them in
the same commit and says why.  The cases cover each level, the shapes of the pipeline
(easy's shaping, a search-allowed puzzle, a whole-grid check through another backend, an
asymmetric layout, the large grid's local restarts at a lowered ``large_cells``, whitening at
every size) and a cryptic puzzle; ``tests/test_generator_hashes.py`` recomputes them, the
fast ones in the default suite.

``python -m kakurolab.generator.hashcheck`` checks every case (``--fast``: the quick ones),
``--write`` renews the file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..formats import dumps
from ..model import Puzzle, Solution
from .core import generate
from .encrypt import generate_cryptic

HASHES = Path(__file__).resolve().parents[2] / "tests" / "data" / "generator_hashes.json"
"""The committed hashes (a checkout's test data: the check is a developer's tool)."""


@dataclass(frozen=True)
class HashCase:
    """One generation whose puzzle text is hashed: ``generate(nrows, ncols, level,
    seed=seed, **options)``, or ``generate_cryptic(nrows, seed=seed, difficulty=level)``
    when ``cryptic``.  ``slow``: over about two seconds, outside the default test run."""

    nrows: int
    ncols: int
    level: str
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    cryptic: bool = False
    slow: bool = False

    @property
    def name(self) -> str:
        kind = "cryptic" if self.cryptic else self.level
        extra = "".join(f"-{k}={v}" for k, v in sorted(self.options.items()))
        return f"{self.nrows}x{self.ncols}-{kind}-s{self.seed}{extra}"

    def text(self) -> str:
        """The puzzle with its solution in the kakuro format, as ``kakuro generate`` writes
        it (metadata, the generator's version among it, included)."""
        puzzle: Puzzle
        solution: Solution
        if self.cryptic:
            made = generate_cryptic(
                self.nrows, seed=self.seed, difficulty=self.level, **self.options
            )
            puzzle, solution = made.puzzle, made.solution
        else:
            got = generate(self.nrows, self.ncols, self.level, seed=self.seed, **self.options)
            puzzle, solution = got.puzzle, got.solution
        meta = {**puzzle.meta, "solution": solution}
        return dumps([Puzzle(puzzle.id, puzzle.grid, meta)], "kakuro")

    def digest(self) -> str:
        return hashlib.sha256(self.text().encode("utf-8")).hexdigest()


CASES: tuple[HashCase, ...] = (
    HashCase(12, 12, "normal", 1),
    HashCase(12, 12, "normal", 3),
    HashCase(12, 12, "hard", 1, {"symmetric": False}),
    HashCase(12, 12, "expert", 0),
    HashCase(12, 12, "expert", 1),
    HashCase(8, 8, "easy", 0),
    HashCase(10, 10, "normal", 0, {"logic_only": False}),
    HashCase(8, 8, "normal", 0, {"backend": "pysat"}),
    HashCase(7, 7, "hard", 0, cryptic=True),
    HashCase(12, 12, "normal", 0, slow=True),
    HashCase(12, 12, "hard", 0, slow=True),
    HashCase(16, 22, "normal", 0, slow=True),
    HashCase(16, 22, "expert", 0, slow=True),
    HashCase(20, 20, "normal", 0, slow=True),
    HashCase(20, 20, "hard", 0, slow=True),
    HashCase(20, 20, "normal", 1, {"large_cells": 200}, slow=True),
    HashCase(30, 30, "normal", 0, slow=True),
)
"""The spread of seeds; names are unique (``HashCase.name``)."""


def load(path: Path = HASHES) -> dict[str, str]:
    """The committed hashes by case name."""
    return dict(json.loads(path.read_text(encoding="utf-8"))["cases"])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m kakurolab.generator.hashcheck",
        description="check (or renew) the hashes of the puzzles a spread of seeds makes",
    )
    parser.add_argument("--write", action="store_true", help="renew the hash file")
    parser.add_argument("--fast", action="store_true", help="only the cases of the default suite")
    parser.add_argument("--file", type=Path, default=HASHES, help=f"default {HASHES}")
    args = parser.parse_args(argv)
    cases = [c for c in CASES if not (args.fast and c.slow)]
    if args.write:
        if args.fast:
            parser.error("--write renews every case: drop --fast")
        record = {"cases": {case.name: case.digest() for case in cases}}
        args.file.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {len(cases)} hashes to {args.file}")
        return 0
    known = load(args.file)
    changed = [case.name for case in cases if known.get(case.name) != case.digest()]
    for name in changed:
        print(f"changed: {name}", file=sys.stderr)
    print(f"{len(cases) - len(changed)} of {len(cases)} cases unchanged")
    return 1 if changed else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
