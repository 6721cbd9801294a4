"""Start-up stays light: ``kakuro --help`` and table commands load no solver or plotting stack.

Each check runs in a fresh interpreter and inspects ``sys.modules`` afterwards, so the test
fails on the import that creeps in, not on a noisy timing.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kakurolab.cli import build_parser, command_names, summary

ROOT = Path(__file__).resolve().parents[1]

HEAVY = ("z3", "networkx", "pysat", "ortools", "matplotlib", "numpy", "cvc5", "pindakaas", "tqdm")
"""Modules that cost tens to hundreds of milliseconds to import."""

PROBE = """
import json, sys
from kakurolab.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
heavy = sorted({{m.split(".")[0] for m in sys.modules}} & set({heavy}))
print(json.dumps({{"code": code, "heavy": heavy}}), file=sys.stderr)
"""
"""Runs ``kakuro ARGV`` and reports on stderr's last line (stdout is the command's)."""


def _probe(*argv: str, heavy: tuple[str, ...] = HEAVY) -> dict:
    """Run ``kakuro ARGV`` in a fresh interpreter; its exit code and the heavy modules loaded."""
    code = PROBE.format(heavy=json.dumps(list(heavy)))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, env=env, cwd=ROOT
    )
    return json.loads(proc.stderr.strip().splitlines()[-1])


@pytest.mark.parametrize(
    "argv", [["--help"], ["--version"], ["combos", "3", "23"], ["combos", "--help"], ["nosuch"]]
)
def test_light_commands_import_no_heavy_module(argv: list[str]) -> None:
    got = _probe(*argv)
    assert got["heavy"] == [], f"kakuro {' '.join(argv)} imported {got['heavy']}"
    assert got["code"] == (2 if argv == ["nosuch"] else 0)


def test_native_solve_loads_no_other_solver(pe424_path: Path) -> None:
    """The backend registry imports a backend on first use: native needs neither z3 nor PySAT."""
    got = _probe("solve", str(pe424_path), "--select", "1", heavy=("z3", "pysat", "ortools"))
    assert got == {"code": 0, "heavy": []}


def test_import_kakurolab_is_lazy_and_the_api_still_works(pe424_path: Path) -> None:
    code = (
        "import sys, kakurolab as kl\n"
        f"assert not {{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}\n"
        "from kakurolab import load, solve\n"
        f"p = load({str(pe424_path)!r}, select=['1'])[0]\n"
        "print(kl.solve(p, backend='native').solution.answer, solve is kl.solve,"
        " 'prove_unique' in dir(kl), kl.__version__)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 0, proc.stderr
    answer, same, listed, version = proc.stdout.split()
    assert len(answer) == 10 and same == listed == "True"
    assert version.count(".") >= 2


def test_unknown_api_name_is_an_attribute_error() -> None:
    import kakurolab

    with pytest.raises(AttributeError, match="no_such_name"):
        kakurolab.no_such_name  # noqa: B018


def test_version_flag(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    from kakurolab.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == f"kakuro {version('kakurolab')}\n"


def test_every_command_has_a_summary_matching_nothing_else() -> None:
    """``kakuro --help`` lists commands from their docstrings: each has a distinct one-liner."""
    summaries = {name: summary(name) for name in command_names()}
    assert all(text and "\n" not in text and '"""' not in text for text in summaries.values())
    assert len(set(summaries.values())) == len(summaries)
    full = build_parser()
    sub = next(a for a in full._actions if a.dest == "command")
    assert sorted(sub.choices) == command_names()


def test_each_summary_is_the_whole_first_paragraph() -> None:
    """``kakuro --help`` never cuts a summary short: it is the docstring's whole first paragraph
    (``verify``'s runs over two lines), read by ``ast`` here as an independent reader."""
    import ast

    from kakurolab import commands

    for name in command_names():
        path = Path(commands.__path__[0]) / f"{name}.py"
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        first = " ".join(doc.split("\n\n")[0].split()).replace("``", "")
        first = re.sub(r"^kakuro [^:]*:\s*", "", first).removesuffix(".")
        assert summary(name) == first, name
