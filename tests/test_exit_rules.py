"""One rule for bad input on every command (issue 29): the same bad puzzle gets the same
one-line error and exit code 2 whatever the command, and every command that writes refuses an
output path it cannot use in one line with exit 2, never a traceback."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import pytest

from kakurolab.cli import build_parser, main

TINY = Path(__file__).parent / "data" / "tiny.kakuro"
IMPOSSIBLE = "\\10   .     .     #"  # tiny-b's row 4 clue; 30 in two cells is impossible


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def _takes_puzzles(parser: argparse.ArgumentParser) -> bool:
    return any(action.dest == "puzzles" for action in parser._actions)


def _output_option(parser: argparse.ArgumentParser) -> bool:
    return any("--output" in action.option_strings for action in parser._actions)


EXTRA: dict[str, Callable[[Path], list[str]]] = {
    "certify": lambda t: ["-o", str(t / "certs")],
    "convert": lambda t: ["--to", "kakuro"],
    "decode": lambda t: [_touch(t / "p.cnf", "p cnf 1 1\n1 0\n"), _touch(t / "m.txt", "v 1 0\n")],
    "encode": lambda t: ["-o", str(t / "p.cnf")],
    "render": lambda t: ["-o", str(t / "p.svg")],
    "transform": lambda t: ["--rotate", "90"],
}
"""Options a command needs beyond its puzzle file (the rest need none)."""



def _touch(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)


PUZZLE_COMMANDS = sorted(name for name, p in _subparsers().items() if _takes_puzzles(p))


def _bad_file(tmp_path: Path) -> Path:
    text = TINY.read_text()
    assert IMPOSSIBLE in text
    path = tmp_path / "mixed.kakuro"
    path.write_text(text.replace(IMPOSSIBLE, "\\30   .     .     #"))
    return path


def test_the_walk_covers_the_commands_that_read_puzzles() -> None:
    assert {"solve", "unique", "count", "certify", "hint", "explain", "grade"} <= set(
        PUZZLE_COMMANDS
    )


@pytest.mark.parametrize("command", PUZZLE_COMMANDS)
def test_an_impossible_clue_is_invalid_on_every_command(command, tmp_path, capsys) -> None:
    """Alone (``--select tiny-b``) and beside a good puzzle: exit 2, the one line naming the
    clue, and no verdict (``unsat``) for it on stdout or in the JSON rows."""
    path = _bad_file(tmp_path)
    extra = EXTRA.get(command, lambda t: [])(tmp_path)
    capsys.readouterr()
    assert main([command, str(path), "--select", "tiny-b", *extra]) == 2
    captured = capsys.readouterr()
    errors = captured.err.splitlines()
    assert len(errors) == 1 and "clue 30 of run r4c1 across is impossible" in errors[0]
    assert "unsat" not in captured.out and "Traceback" not in captured.err
    code = main([command, str(path), *extra])
    captured = capsys.readouterr()
    assert code == 2 and "Traceback" not in captured.err
    assert "kakuro: error:" in captured.err
    assert not any(
        line.startswith("tiny-b") and "unsat" in line for line in captured.out.splitlines()
    )


# --- output paths ---------------------------------------------------------------------------

WRITERS: dict[str, tuple[str, Callable[[Path, str], list[str]]]] = {
    "certify": ("dir", lambda t, out: ["certify", str(TINY), "-o", out]),
    "convert": ("file", lambda t, out: ["convert", str(TINY), "--to", "kakuro", "-o", out]),
    "encode": ("either", lambda t, out: ["encode", str(TINY), "--select", "tiny-a", "-o", out]),
    "encodings": ("file", lambda t, out: ["encodings", "--table-md", str(TINY), "-o", out]),
    "generate": ("file", lambda t, out: ["generate", "--size", "5x5", "--seed", "1", "-o", out]),
    "render": ("file", lambda t, out: ["render", str(TINY), "--select", "tiny-a", "-o", out]),
    "transform": ("file", lambda t, out: ["transform", str(TINY), "--rotate", "90", "-o", out]),
}
"""Every command with ``-o/--output``, what it writes there (a file, a directory of files,
either) and a call that writes to ``out``."""

BAD_TARGETS: dict[str, Callable[[Path], Path]] = {
    "under-a-file": lambda t: t / "plain.txt" / "out.svg",
    "missing-directory": lambda t: t / "missing" / "out.svg",
    "existing-directory": lambda t: t / "folder",
    "existing-file": lambda t: t / "plain.txt",
}
REFUSED = {
    "file": ("under-a-file", "missing-directory", "existing-directory"),
    "dir": ("under-a-file", "existing-file"),
    "either": ("under-a-file", "missing-directory"),
}
"""The targets each kind cannot use (a file writer replaces an existing file; certify makes a
missing directory; encode writes into an existing directory)."""


def test_every_writing_command_is_walked() -> None:
    writers = sorted(name for name, p in _subparsers().items() if _output_option(p))
    assert writers == sorted(WRITERS)


@pytest.mark.parametrize(
    ("command", "target"),
    [(c, t) for c, (kind, _) in WRITERS.items() for t in REFUSED[kind]],
)
def test_an_unusable_output_path_is_one_line(command, target, tmp_path, capsys) -> None:
    (tmp_path / "plain.txt").write_text("keep me\n")
    (tmp_path / "folder").mkdir()
    out = BAD_TARGETS[target](tmp_path)
    capsys.readouterr()
    code = main(WRITERS[command][1](tmp_path, str(out)))
    err = capsys.readouterr().err.splitlines()
    assert code == 2, (command, target)
    assert len(err) == 1 and err[0].startswith("kakuro: error:") and str(out) in err[0], err
    assert (tmp_path / "plain.txt").read_text() == "keep me\n"
    assert sorted(p.name for p in (tmp_path / "folder").iterdir()) == []


# --- a puzzle without a solution ----------------------------------------------------------------

VERDICT_COMMANDS: dict[str, Callable[[Path], list[str]]] = {
    "solve": lambda t: [],
    "unique": lambda t: [],
    "certify": lambda t: ["-o", str(t / "certs")],
    "count": lambda t: [],
    "explain": lambda t: [],
    "grade": lambda t: [],
}
"""The commands that give a verdict on the whole puzzle (count too: zero solutions, exact, is
``unsat``; hint answers one step, see the test below)."""


@pytest.mark.parametrize("command", sorted(VERDICT_COMMANDS))
def test_a_puzzle_without_solution_is_unsat_everywhere(command, tmp_path, capsys) -> None:
    """Clues that are each possible but clash (a+b = a+c = 3, c+d = 4, b+d = 5): ``unsat``
    and exit 1 on every command (explain and grade once called it solved, count said "0
    solutions" with exit 0)."""
    import json

    from _puzzles import square

    from kakurolab.formats import dumps

    path = tmp_path / "unsat.kakuro"
    path.write_text(dumps([square((3, 5), (3, 4))], "kakuro"))
    extra = VERDICT_COMMANDS[command](tmp_path)
    assert main([command, str(path), *extra]) == 1
    captured = capsys.readouterr()
    assert "unsat" in captured.out and "solved" not in captured.out
    assert main([command, str(path), "--json", *extra]) == 1
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert "unsat" in (rows[0].get("status"), rows[0].get("verdict"))
    if command == "count":
        assert rows[0]["n_solutions"] == 0 and rows[0]["complete"] is True


def test_a_hint_says_unsat_when_its_deduction_meets_the_contradiction(tmp_path, capsys) -> None:
    """hint answers one step and asks no solver: when the deduction leading to its step meets
    a contradiction (3 in two cells crosses 17 in two cells: no digit fits) it says ``unsat``
    and exits 1; when the step comes first (the clash above needs a written digit), the step
    is the hint, sound for any solution there may be, and exit 0."""
    import json

    from _puzzles import square

    from kakurolab.formats import dumps

    clash, later = tmp_path / "clash.kakuro", tmp_path / "later.kakuro"
    clash.write_text(dumps([square((3, 17), (3, 10))], "kakuro"))
    later.write_text(dumps([square((3, 5), (3, 4))], "kakuro"))
    assert main(["solve", str(clash)]) == 1 and main(["solve", str(later)]) == 1
    capsys.readouterr()
    assert main(["hint", str(clash)]) == 1
    assert "unsat" in capsys.readouterr().out
    assert main(["hint", str(clash), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["status"] == "unsat"
    assert main(["hint", str(later), "--json"]) == 0
    hint = json.loads(capsys.readouterr().out)
    assert hint["fixes"] and "status" not in hint
