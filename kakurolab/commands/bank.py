"""``kakuro bank``: pick a verified puzzle instantly, rebuild the bank, re-verify it."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .. import bank
from ..errors import KakuroError
from ..formats import dumps
from ..model import Puzzle
from ..reports import levels_table
from ._common import emit_json


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "bank", help="verified puzzles for instant play: pick one, rebuild or re-verify the bank"
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    pick = actions.add_parser("pick", help="a random variant of a verified base (instant)")
    pick.add_argument("--size", required=True, choices=bank.SIZES)
    pick.add_argument("--difficulty", required=True, choices=bank.DIFFICULTIES)
    pick.add_argument("--seed", type=int, help="the same seed picks the same puzzle")
    pick.add_argument("--solution", action="store_true", help="include the solution")
    pick.add_argument("--json", action="store_true", help="one JSON object")
    pick.set_defaults(func=cmd_pick)

    build = actions.add_parser(
        "build", help="regenerate the bank from its seeds, proving each base unique twice"
    )
    build.add_argument("--size", default=",".join(bank.SIZES), help="comma-separated sizes")
    build.add_argument(
        "--difficulty", default=",".join(bank.DIFFICULTIES), help="comma-separated levels"
    )
    build.add_argument("--per-cell", type=int, default=bank.PER_CELL, help="bases per cell")
    build.add_argument("--dir", type=Path, default=bank.BANK_DIR, help="bank directory")
    build.add_argument(
        "--resume",
        action="store_true",
        help="keep the bases already built (each base is written as soon as it is proved)",
    )
    build.add_argument("--json", action="store_true", help="one JSON line per cell")
    build.set_defaults(func=cmd_build)

    levels = actions.add_parser(
        "levels", help="per cell: grades of the bases and what deduction needs (a table)"
    )
    levels.add_argument("--size", default=",".join(bank.SIZES), help="comma-separated sizes")
    levels.add_argument("--dir", type=Path, default=bank.BANK_DIR, help="bank directory")
    levels.set_defaults(func=cmd_levels)

    verify = actions.add_parser("verify", help="re-verify every base of the bank")
    verify.add_argument("--cpsat", action="store_true", help="prove with CP-SAT too")
    verify.add_argument(
        "--variants", action="store_true", help="prove all 16 variants of every base too (slow)"
    )
    verify.add_argument("--dir", type=Path, default=bank.BANK_DIR, help="bank directory")
    verify.add_argument("--json", action="store_true", help="one JSON object")
    verify.set_defaults(func=cmd_verify)


def cmd_pick(args: argparse.Namespace) -> int:
    picked = bank.pick(args.size, args.difficulty, args.seed)
    meta: dict[str, object] = {"base": picked.base, "variant": picked.variant.name}
    if args.solution:
        meta["solution"] = picked.solution
    text = dumps([Puzzle(picked.puzzle.id, picked.puzzle.grid, meta)], "kakuro")
    if args.json:
        emit_json(
            {
                "id": picked.puzzle.id,
                "base": picked.base,
                "variant": picked.variant.name,
                "size": picked.size,
                "difficulty": picked.difficulty,
                "format": "kakuro",
                "text": text,
            }
        )
    else:
        print(text, end="")
    return 0


def _names(text: str, known: tuple[str, ...], what: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        raise KakuroError(
            f"unknown {what} {', '.join(unknown) or text!r}; known: {', '.join(known)}"
        )
    return names


def cmd_build(args: argparse.Namespace) -> int:
    sizes = _names(args.size, bank.SIZES, "size")
    levels = _names(args.difficulty, bank.DIFFICULTIES, "difficulty")
    if args.per_cell < 1:
        raise KakuroError(f"--per-cell must be at least 1, got {args.per_cell}")
    short = 0
    for size in sizes:
        for level in levels:
            start = time.perf_counter()
            try:
                have = bank.seeds_built(size, level, args.dir) if args.resume else set()
            except KakuroError as exc:
                raise KakuroError(f"{exc} (run without --resume)") from None
            if not args.resume:
                bank.write_cell([], args.dir, size=size, difficulty=level)  # start afresh
            found = bank.build_cell(
                size,
                level,
                per_cell=args.per_cell,
                report=lambda line: print(line, file=sys.stderr, flush=True),
                have=have,
                on_base=lambda base: bank.add_base(base, args.dir),
            )
            seconds = round(time.perf_counter() - start, 1)
            found_all = len(found) + len(have)
            short += found_all < args.per_cell
            if args.json:
                emit_json(
                    {"size": size, "difficulty": level, "bases": found_all, "time_s": seconds}
                )
            else:
                print(f"{size} {level}: {found_all} bases in {seconds} s", flush=True)
    return 1 if short else 0


def cmd_levels(args: argparse.Namespace) -> int:
    """The level table of docs/generator.md; exit 1 when a base grades off its cell."""
    table = levels_table()
    print(table.markdown_head())
    off = 0
    for size in _names(args.size, bank.SIZES, "size"):
        for level in bank.DIFFICULTIES:
            figures = bank.cell_figures(size, level, args.dir)
            off += sum(g != level for g in figures.grades)
            print(table.markdown_row(figures), flush=True)
    return 1 if off else 0


def cmd_verify(args: argparse.Namespace) -> int:
    backends = ("native", "cpsat") if args.cpsat else ("native",)
    variants = bank.VARIANTS if args.variants else ()
    verified = 0

    def report(line: str) -> None:
        nonlocal verified
        verified += 1
        if not args.json:
            print(line, file=sys.stderr, flush=True)

    problems = bank.verify(args.dir, backends, variants=variants, report=report)
    if args.json:
        emit_json({"checked": verified, "backends": list(backends), "problems": problems})
    else:
        for line in problems:
            print(line)
        print(f"{verified} base(s) checked by {', '.join(backends)}: {len(problems)} problem(s)")
    return 1 if problems else 0
