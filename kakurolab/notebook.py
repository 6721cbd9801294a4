"""Pictures in Jupyter: a puzzle, a solution, a solve result and an explanation step show as
grids drawn by the project's own renderer (:mod:`kakurolab.render`, SVG text, no matplotlib).

IPython asks an object for ``_repr_svg_`` / ``_repr_html_`` or, the same way, asks the display
formatters registered for its type.  The classes live in layers below the renderer (the model,
the backends, the logic engine), so they cannot import it; the formatters are registered here
instead, by class *name*, so registering imports none of them.  ``import kakurolab`` registers
them when it runs inside IPython (every Jupyter kernel); ``%load_ext kakurolab.notebook`` does
it in a shell that imported kakurolab before IPython.

A :class:`~kakurolab.Solution` and a :class:`~kakurolab.Result` do not know their puzzle, so
they show their digits on the white cells alone; :func:`picture` draws a puzzle with its
solution or a deduction state, clues included:

Examples:
    >>> from kakurolab.notebook import picture
    >>> svg = picture(puzzle, kl.solve(puzzle).solution)._repr_svg_()
    >>> svg.count('class="digit"') == len(puzzle.whites)
    True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .backends import Result
    from .logic import Deduction, Hint, State, Step
    from .model import Cell, Puzzle, Solution
    from .render import Scene

HIGHLIGHT = "#f4c430"
"""Fill of the cells an explanation step looked at (drawn at 40% opacity under the digits)."""


@dataclass(frozen=True)
class Picture:
    """A puzzle drawn with solution digits, a deduction state, or highlighted cells; shown as
    SVG by Jupyter.  Build it with :func:`picture`.

    Examples:
        >>> from kakurolab.notebook import Picture
        >>> Picture(puzzle, highlight=((2, 1),)).svg().count('class="highlight"')
        1
    """

    puzzle: Puzzle
    values: Mapping[Cell, int] = field(default_factory=dict)
    given: Mapping[Cell, int] = field(default_factory=dict)
    candidates: Mapping[Cell, int] = field(default_factory=dict)
    highlight: tuple[Cell, ...] = ()

    def scene(self) -> Scene:
        from .render import CELL, Rect, scene

        drawn = scene(
            self.puzzle, values=self.values, given=self.given, candidates=self.candidates
        )
        if self.highlight:
            marked = set(self.highlight)
            items: list[Any] = []
            for item in drawn.items:
                items.append(item)
                if isinstance(item, Rect) and item.cls == "cell white":
                    cell = (round((item.y - 2) / CELL), round((item.x - 2) / CELL))
                    if cell in marked:
                        items.append(
                            Rect(item.x, item.y, item.w, item.h, HIGHLIGHT, "none", "highlight")
                        )
            drawn.items[:] = items
        return drawn

    def svg(self) -> str:
        """The picture as a standalone SVG document."""
        from .render import to_svg

        svg = to_svg(self.scene())
        return svg.replace('class="highlight"', 'class="highlight" fill-opacity="0.4"')

    def _repr_svg_(self) -> str:
        return self.svg()


def picture(
    puzzle: Puzzle,
    solution: Solution | None = None,
    *,
    state: State | None = None,
    highlight: tuple[Cell, ...] = (),
) -> Picture:
    """A puzzle's picture: bare, with a solution's digits (blue), or with a deduction
    ``state`` (placed digits black, pencil marks for the open cells).

    Examples:
        >>> from kakurolab.logic import deduce
        >>> from kakurolab.notebook import picture
        >>> drawing = picture(puzzle, state=deduce(puzzle, limit=3).state)
        >>> drawing.svg().count('class="cell white"') == len(puzzle.whites)
        True
    """
    if state is None:
        return Picture(puzzle, dict(solution.values) if solution else {}, highlight=highlight)
    from .logic import cross_candidates

    open_cells = {c: m for c, m in cross_candidates(state).items() if c not in state.placed}
    return Picture(
        puzzle,
        dict(solution.values) if solution else {},
        dict(state.placed),
        open_cells,
        highlight,
    )


# --- the formatters, one per type -------------------------------------------------------------


def puzzle_svg(puzzle: Puzzle) -> str:
    """A puzzle as IPython shows it: the grid with its clues, cells empty."""
    return picture(puzzle).svg()


def solution_svg(solution: Solution) -> str:
    """A solution without its puzzle: its digits on its white cells, everything else dark (a
    cryptic solution's answer is the picture's title)."""
    from .model import BLOCK, WHITE, Puzzle

    rows = max((r for r, _ in solution.values), default=0) + 1
    cols = max((c for _, c in solution.values), default=0) + 1
    grid = tuple(
        tuple(WHITE if (r, c) in solution.values else BLOCK for c in range(cols))
        for r in range(rows)
    )
    title = f"answer {solution.answer}" if solution.answer else "solution"
    return Picture(Puzzle(title, grid), dict(solution.values)).svg()


def result_html(result: Result) -> str:
    """A solve result: status, backend, solution count and times, then its first grid."""
    facts = [
        f"<b>{escape(str(result.status))}</b>",
        escape(result.backend or "?"),
        f"{result.n_solutions} solution{'s' if result.n_solutions != 1 else ''}",
        f"{result.time:.3f} s",
    ]
    if result.message:
        facts.append(escape(result.message))
    body = solution_svg(result.solution) if result.solution else ""
    return f'<div class="kakurolab-result"><p>{" · ".join(facts)}</p>{_inline(body)}</div>'


def step_html(step: Step) -> str:
    """An explanation step without its puzzle: the technique, the reasoning in words, the cells
    and what changed (a :class:`~kakurolab.logic.Hint` shows it on the grid)."""
    from .logic import cell_name

    placed = ", ".join(f"{cell_name(c)}={d}" for c, d in sorted(step.placements.items()))
    cells = " ".join(cell_name(c) for c in step.cells)
    rows = [("technique", step.technique), ("cells", cells), ("text", step.text)]
    if placed:
        rows.append(("places", placed))
    table = "".join(f"<tr><th>{k}</th><td>{escape(v)}</td></tr>" for k, v in rows)
    return f'<table class="kakurolab-step">{table}</table>'


def hint_html(hint: Hint) -> str:
    """A hint: its step in words over the grid the step leaves, the step's cells highlighted."""
    if hint.step is None:
        drawing = picture(hint.state.puzzle, state=hint.state)
        return f"<p>{escape(hint.text())}</p>" + _inline(drawing.svg())
    drawing = picture(hint.state.puzzle, state=hint.state, highlight=hint.step.cells)
    return step_html(hint.step) + _inline(drawing.svg())


def deduction_html(deduction: Deduction) -> str:
    """A whole explanation: how many steps, whether it solved the puzzle, and the grid it
    reached."""
    solved = "solved" if deduction.solved else "not solved"
    head = f"<p><b>{solved}</b> in {len(deduction.steps)} steps</p>"
    drawing = picture(deduction.puzzle, state=deduction.state)
    return head + _inline(drawing.svg())


def _inline(svg: str) -> str:
    """An SVG document as a fragment to embed in HTML (without its XML declaration)."""
    return svg.split("?>", 1)[1] if svg.startswith("<?xml") else svg


FORMATTERS: dict[tuple[str, str], tuple[str, Callable[[Any], str]]] = {
    ("kakurolab.model", "Puzzle"): ("image/svg+xml", puzzle_svg),
    ("kakurolab.model", "Solution"): ("image/svg+xml", solution_svg),
    ("kakurolab.backends.session", "Result"): ("text/html", result_html),
    ("kakurolab.logic.techniques", "Step"): ("text/html", step_html),
    ("kakurolab.logic.explain", "Hint"): ("text/html", hint_html),
    ("kakurolab.logic.explain", "Deduction"): ("text/html", deduction_html),
}
"""(defining module, class name) -> (MIME type, formatter).  By name, so that registering
imports nothing; tests/test_notebook.py checks each against the class's real module."""


def register(display_formatter: Any) -> None:
    """Register the formatters with an IPython ``DisplayFormatter``.

    Examples:
        >>> from IPython.core.formatters import DisplayFormatter
        >>> from kakurolab.notebook import register
        >>> shown = DisplayFormatter()
        >>> register(shown)
        >>> data, _ = shown.format(puzzle)
        >>> sorted(data)
        ['image/svg+xml', 'text/plain']
    """
    for (module, name), (mime, formatter) in FORMATTERS.items():
        display_formatter.formatters[mime].for_type_by_name(module, name, formatter)


def register_ipython() -> None:
    """Register with the running IPython shell, if there is one (else do nothing)."""
    from IPython import get_ipython

    shell = get_ipython()
    if shell is not None:
        register(shell.display_formatter)


def load_ipython_extension(shell: Any) -> None:
    """``%load_ext kakurolab.notebook``: register in a shell that imported kakurolab first.

    Examples:
        >>> from types import SimpleNamespace
        >>> from IPython.core.formatters import DisplayFormatter
        >>> from kakurolab.notebook import load_ipython_extension
        >>> shell = SimpleNamespace(display_formatter=DisplayFormatter())  # as IPython's
        >>> load_ipython_extension(shell)
        >>> "image/svg+xml" in shell.display_formatter.format(puzzle)[0]
        True
    """
    register(shell.display_formatter)
