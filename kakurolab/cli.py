"""The ``kakuro`` command: thin argument parsing over the public API.

Each subcommand lives in its own module under ``kakurolab.commands`` and exposes
``register(subparsers)``; modules are discovered, so adding a command touches no shared file.
User errors print one line on stderr and exit with code 2, never a traceback.

Start-up stays fast because only the command being run is imported: the others are listed
(``kakuro --help``, an unknown name) from the first line of their module docstring, read as
text, so neither their modules nor the solvers behind them load.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from collections.abc import Collection, Sequence

from . import commands
from .errors import KakuroError
from .lifetimes import pass_on_death

_SUMMARY = re.compile(
    r'\A\s*[rR]?(?:"""|\'\'\')\s*(?:``kakuro [^`]*``:\s*)?(.*?)\.?\s*(?:"""|\'\'\'|\n\s*\n)', re.S
)
"""The first paragraph of a command module's docstring, without its ```kakuro NAME``:`` lead."""


def command_names() -> list[str]:
    """Every subcommand: the public modules of ``kakurolab.commands``, sorted."""
    found = {
        entry[: -len(".py")]
        for directory in commands.__path__
        for entry in os.listdir(directory)
        if entry.endswith(".py") and not entry.startswith("_")
    }
    return sorted(found)


def summary(name: str) -> str:
    """A command's one-line help, read from its module docstring without importing it."""
    for directory in commands.__path__:
        path = os.path.join(directory, f"{name}.py")
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as handle:
                match = _SUMMARY.match(handle.read(1000))
            return " ".join(match.group(1).replace("``", "").split()) if match else ""
    return ""


class _Version(argparse.Action):
    """``--version``: looked up only when asked for (the metadata import is not free)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from .about import version

        print(f"kakuro {version()}")
        parser.exit()


def build_parser(full: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The parser; ``full`` names the commands to register completely (default: all), the
    rest are listed by name and summary only."""
    parser = argparse.ArgumentParser(
        prog="kakuro",
        description="Solve, prove and generate Kakuro puzzles with SAT, SMT and native solvers.",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in command_names():
        if full is None or name in full:
            importlib.import_module(f"{commands.__name__}.{name}").register(sub)
        else:
            sub.add_parser(name, help=summary(name))
    return parser


def chosen_command(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names (its first word; top-level options take no value)."""
    first = next((arg for arg in argv if not arg.startswith("-")), None)
    return first if first in command_names() else None


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    pass_on_death()  # what a command forks (a solver's session child) dies with it
    chosen = chosen_command(argv)
    parser = build_parser([chosen] if chosen else [])
    try:
        args = parser.parse_args(argv)  # an option's type may refuse a value in one line
        return int(args.func(args) or 0)
    except KakuroError as exc:
        print(f"kakuro: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("kakuro: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
