"""``kakuro encodings``: the encoding parts and presets, or the statistics table.

``--table-md`` regenerates ``docs/encodings.md``: variables, clauses and cells fixed by unit
propagation per preset on a puzzle set (see :mod:`kakurolab.encodings_table`).
"""

from __future__ import annotations

import argparse
import json
import sys

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
    parser.add_argument("-o", "--output", metavar="FILE", help="with --table-md: output file")
    parser.add_argument(
        "--encoding",
        action="append",
        metavar="SPEC",
        help="with --table-md: only these presets/specs (repeatable; default: all presets)",
    )
    parser.add_argument("--limit", type=int, metavar="N", help="with --table-md: first N puzzles")
    parser.set_defaults(func=run)


def listing() -> dict[str, object]:
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


def run(args: argparse.Namespace) -> int:
    if args.table_md:
        from ..encodings_table import markdown

        if args.output:
            check_writable(args.output)  # before the table's minutes of solving
        text = markdown(args.table_md, specs=args.encoding, limit=args.limit)
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
    for preset in data["presets"]:  # type: ignore[union-attr]
        print(f"  {preset['name']:<10} {preset['spec']}")
        print(f"  {'':<10} {preset['doc']}")
    for kind, table in data["parts"].items():  # type: ignore[union-attr]
        print(f"{kind}=")
        for name, info in table.items():
            args_ = f":{{{','.join(info['args'])}}}" if "args" in info else ""
            print(f"  {name}{args_}: {info['doc']}")
    return 0
