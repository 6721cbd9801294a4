"""Solve times of the exact-cover reduction past the format's size limit (issue 47 §2).

``data/hard/exact-cover.txt`` stops at 138x138 (the formats read at most 20,000 cells, and a
clause costs 7 tiles of 6 columns), so this builds larger members in memory: planted banded
1-in-3 formulas of width 3 with ``M`` clauses (0.6 clauses per variable), reduced by
``reductions.one_in_three``, each solved once per configuration with a time limit::

    nice -n 10 python experiments/exact_cover_scaling.py 3 6 12 24 48 --timeout 60

It prints one Markdown row per member and configuration: clauses, variables, grid, white
cells, the model count (over the band), the status and the seconds.
"""

from __future__ import annotations

import argparse
import itertools
import random
import time

from kakurolab.errors import KakuroError
from kakurolab.reductions.one_in_three import band_count, banded, to_kakuro
from kakurolab.uniqueness import solve

CONFIGS = ("cpsat", "native", "pysat:encoding=fast")
WIDTH = 3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("clauses", type=int, nargs="+")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("| clauses | variables | grid | white cells | models | config | status | seconds |")
    print("| ---: | ---: | --- | ---: | ---: | --- | --- | ---: |")
    for m in args.clauses:
        layers = max(2, round(m / (0.6 * WIDTH)))
        for attempt in itertools.count():  # a plant with no room for a clause: draw again
            rng = random.Random(f"{args.seed}/{m}/{attempt}")
            try:
                source = banded(WIDTH, layers, m / (WIDTH * layers), rng)
                break
            except KakuroError:
                continue
        puzzle = to_kakuro(source.formula, f"exact-cover-m{m}").puzzle
        models = band_count(source.formula, WIDTH)
        rows, cols = puzzle.shape
        for config in CONFIGS:
            start = time.perf_counter()
            result = solve(puzzle, backend=config, timeout=args.timeout)
            seconds = time.perf_counter() - start
            print(
                f"| {len(source.formula.clauses)} | {source.formula.n} | {rows}x{cols} | "
                f"{len(puzzle.whites)} | {models} | {config} | {result.status.value} | "
                f"{seconds:.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
