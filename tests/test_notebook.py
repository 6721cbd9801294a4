"""Jupyter shows puzzles, solutions, solve results and explanation steps as pictures.

The formatters are registered with a real IPython ``DisplayFormatter`` (what a Jupyter kernel
asks), so these tests fail if a class moves and the registration by name goes stale.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest
from IPython.core.formatters import DisplayFormatter  # the test extra's ipykernel brings it

import kakurolab as kl
from kakurolab import notebook
from kakurolab.logic import deduce, next_hint

SAMPLES = Path(kl.__file__).parent / "data" / "samples"
SVG = "image/svg+xml"
HTML = "text/html"


@pytest.fixture(scope="module")
def formatter() -> DisplayFormatter:
    shown = DisplayFormatter()
    notebook.register(shown)
    return shown


@pytest.fixture(scope="module")
def puzzle() -> kl.Puzzle:
    return kl.load(SAMPLES / "standard.kakuro")[0]


def shown(formatter: DisplayFormatter, obj: object) -> dict[str, str]:
    data, _ = formatter.format(obj)
    return data


def test_registered_names_are_the_classes_modules() -> None:
    for (module, name), _ in notebook.FORMATTERS.items():
        cls = getattr(importlib.import_module(module), name)
        assert (cls.__module__, cls.__qualname__) == (module, name)


def test_puzzle_shows_its_grid(formatter, puzzle) -> None:
    svg = shown(formatter, puzzle)[SVG]
    assert svg.count('class="cell white"') == len(puzzle.whites)
    assert svg.count('class="cell clue"') == sum(
        isinstance(sq, kl.ClueCell) for row in puzzle.grid for sq in row
    )
    assert 'class="digit"' not in svg


def test_solution_shows_its_digits(formatter, puzzle) -> None:
    solution = kl.solve(puzzle).solution
    svg = shown(formatter, solution)[SVG]
    assert svg.count('class="digit"') == len(solution.values)
    for digit in set(solution.values.values()):
        assert f">{digit}</text>" in svg


def test_cryptic_solution_is_titled_by_its_answer(formatter) -> None:
    cryptic = kl.load(SAMPLES / "cryptic.txt")[0]
    solution = kl.solve(cryptic).solution
    assert f"<title>answer {solution.answer}</title>" in shown(formatter, solution)[SVG]


def test_result_shows_status_and_grid(formatter, puzzle) -> None:
    html = shown(formatter, kl.solve(puzzle, backend="native"))[HTML]
    assert "<b>sat</b>" in html and "native" in html and "1 solution" in html
    assert html.count('class="digit"') == len(puzzle.whites)
    assert "<?xml" not in html  # an SVG fragment inside HTML, not a document


def test_unsolved_result_shows_no_grid(formatter, puzzle) -> None:
    html = shown(formatter, kl.Result(kl.Status.UNKNOWN, backend="z3", message="timeout"))[HTML]
    assert "<b>unknown</b>" in html and "timeout" in html and "<svg" not in html


def test_step_and_hint_show_the_reasoning(formatter, puzzle) -> None:
    hint = next_hint(puzzle)
    assert hint.step is not None
    step_html = shown(formatter, hint.step)[HTML]
    assert hint.step.technique in step_html
    hint_html = shown(formatter, hint)[HTML]
    assert hint.step.technique in hint_html
    assert hint_html.count('class="highlight"') == len(hint.step.cells)


def test_deduction_shows_the_grid_it_reached(formatter, puzzle) -> None:
    deduction = deduce(puzzle)
    html = shown(formatter, deduction)[HTML]
    assert f"in {len(deduction.steps)} steps" in html
    assert html.count('class="digit"') == len(puzzle.whites)  # solved: every cell written


def test_picture_draws_a_solved_puzzle_with_its_clues(puzzle) -> None:
    solution = kl.solve(puzzle).solution
    svg = notebook.picture(puzzle, solution)._repr_svg_()
    assert svg.count('class="digit"') == len(puzzle.whites)
    assert svg.count('class="cell clue"') > 0


def test_import_in_ipython_registers_and_stays_lazy() -> None:
    """``import kakurolab`` inside an IPython shell registers the pictures without importing
    the model, the backends or the renderer."""
    code = (
        "from IPython.core.interactiveshell import InteractiveShell\n"
        "import sys\n"
        "shell = InteractiveShell.instance()\n"
        "import kakurolab\n"
        "heavy = {'kakurolab.model', 'kakurolab.render', 'kakurolab.backends'}\n"
        "assert not heavy & set(sys.modules)\n"
        "svg = shell.display_formatter.formatters['image/svg+xml']\n"
        "assert ('kakurolab.model', 'Puzzle') in svg.deferred_printers\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
