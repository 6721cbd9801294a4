"""``kakuro encodings``: the encoding parts and presets, or the generated encoding pages.

``--table-md`` regenerates ``docs/encodings.md``: variables, clauses and cells fixed by unit
propagation per preset on a puzzle set (see :mod:`kakurolab.reports.encodings`).
``--smt-md`` regenerates ``docs/encodings-smt.md``: the SMT encodings, their sizes and their
same-run speed against CP-SAT (see :mod:`kakurolab.reports.smt`; minutes of benchmarks).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ._output import check_writable, write_text, written


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("encodings", help="list encoding parts and presets (CNF and SMT)")
    parser.add_argument(
        "--json",
        action="store_true",
        help="presets and parts as one JSON object (with --table-md: the table, or the record "
        "of the file written)",
    )
    parser.add_argument(
        "--table-md",
        metavar="PUZZLES",
        help="write the statistics table (Markdown) of every preset on this puzzle file",
    )
    parser.add_argument(
        "--smt-md",
        action="store_true",
        help="write the SMT encodings page (Markdown): sizes and same-run times against cpsat",
    )
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="with --table-md or --smt-md: output file"
    )
    parser.add_argument(
        "--encoding",
        action="append",
        metavar="SPEC",
        help="with --table-md: only these presets/specs (repeatable; default: all presets)",
    )
    parser.add_argument("--limit", type=int, metavar="N", help="with --table-md: first N puzzles")
    parser.set_defaults(func=run)


def listing() -> dict[str, Any]:
    from ..encodings import ENCODERS, PRESETS, parse_spec

    return {
        "presets": [
            {"name": p.name, "spec": str(parse_spec(p.spec)), "doc": p.doc}
            for p in PRESETS.values()
        ],
        "parts": {
            kind: {
                name: {
                    "doc": part.doc,
                    **({"args": list(part.args)} if part.args else {}),
                    **({"cells": list(part.cells)} if part.cells else {}),
                }
                for name, part in table.items()
            }
            for kind, table in ENCODERS.items()
        },
    }


def _page(args: argparse.Namespace) -> str | None:
    """The generated page the arguments ask for, or None for the listing."""
    if args.table_md:
        from ..reports.encodings import markdown

        if args.output:
            check_writable(args.output)  # before the table's minutes of solving
        return markdown(args.table_md, specs=args.encoding, limit=args.limit)
    if args.smt_md:
        from ..reports import smt

        if args.output:
            check_writable(args.output)  # before the benchmarks' minutes of solving
        return smt.markdown(smt.PE424_COUNT, smt.JANKO_COUNT, smt.TIMEOUT)
    return None


def run(args: argparse.Namespace) -> int:
    text = _page(args)
    if text is not None:
        if args.output:
            write_text(args.output, text)
            if args.json:
                print(json.dumps(written(args.output, "markdown")))
            else:
                print(f"wrote {args.output}", file=sys.stderr)
        elif args.json:
            print(json.dumps({"format": "markdown", "text": text}))
        else:
            sys.stdout.write(text)
        return 0
    data = listing()
    if args.json:
        print(json.dumps(data))
        return 0
    print("presets:")
    for preset in data["presets"]:
        print(f"  {preset['name']:<10} {preset['spec']}")
        print(f"  {'':<10} {preset['doc']}")
    for kind, table in data["parts"].items():
        print(f"{kind}=")
        for name, info in table.items():
            args_ = f":{{{','.join(info['args'])}}}" if "args" in info else ""
            print(f"  {name}{args_}: {info['doc']}")
    return 0
