"""``kakuro combos``: the digit sets a run of given length can hold for a sum."""

from __future__ import annotations

import argparse
import json

from .. import combos
from ..errors import KakuroError


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "combos", help="list the digit sets of LENGTH distinct digits summing to SUM"
    )
    parser.add_argument("length", type=int, metavar="LENGTH", help="run length, 1-9")
    parser.add_argument(
        "total", type=int, nargs="?", metavar="SUM", help="the clue (default: every sum)"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per sum and line")
    parser.set_defaults(func=run)


def describe(length: int, total: int) -> dict[str, object]:
    """Sets, and the digits every set shares or no set uses: what a solver reads off a clue."""
    sets = sorted_sets(length, total)
    return {
        "length": length,
        "sum": total,
        "n_sets": len(sets),
        "sets": [list(digits) for digits in sets],
        "always": list(combos.digits_of(combos.intersection(length, total))),
        "possible": list(combos.digits_of(combos.union(length, total))),
    }


def sorted_sets(length: int, total: int) -> list[tuple[int, ...]]:
    """The digit sets in dictionary order ({1,2,5} before {1,3,4}), as people list them."""
    return sorted(combos.digits_of(m) for m in combos.combos(length, total))


def run(args: argparse.Namespace) -> int:
    length = args.length
    if not 1 <= length <= combos.MAX_RUN:
        raise KakuroError(f"LENGTH must be 1-{combos.MAX_RUN}, got {length}")
    lo, hi = combos.sum_range(length)
    if args.total is not None and not lo <= args.total <= hi:
        raise KakuroError(f"{length} distinct digits sum to {lo}-{hi}, not {args.total}")
    totals = [args.total] if args.total is not None else list(combos.feasible_sums(length))
    for total in totals:
        info = describe(length, total)
        if args.json:  # json directly: the puzzle loaders behind _common are not needed here
            print(json.dumps(info), flush=True)
            continue
        sets = sorted_sets(length, total)
        text = " ".join("{" + ",".join(map(str, digits)) + "}" for digits in sets)
        always = combos.intersection(length, total)
        note = f"  (always {combos.format_mask(always)})" if always and len(sets) > 1 else ""
        print(f"{length} cells, sum {total:2}: {text}{note}")
    return 0
