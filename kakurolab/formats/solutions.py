"""Solution files: a bare solution grid for one puzzle, or a puzzle file whose puzzles carry
their solutions."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from ..errors import FormatError, KakuroError
from ..model import Puzzle, Solution
from .kakuro import read_solution
from .loading import read_text
from .puzzlekit import parse_solution
from .registry import detect


def embedded_solution(puzzle: Puzzle) -> Solution | None:
    """The solution a puzzle file carried along (puzzlekit JSON, kakuro ``solution:``)."""
    solution = puzzle.meta.get("solution")
    return solution if isinstance(solution, Solution) else None


def solutions_from_text(
    text: str, puzzles: Sequence[Puzzle], source: str | None = None
) -> dict[str, Solution]:
    """The solution for each puzzle in a SOLUTION text, keyed by puzzle id.

    Accepted forms: a bare solution grid (puzzlekit style with an ``R C`` header, or kakuro
    solution rows, optionally after ``solution: ANSWER``) for a single puzzle; or a puzzle file
    in any format whose puzzle with the same id (else the same grid, else its only puzzle)
    carries a solution.
    """
    lines = [
        (n, raw.rstrip())
        for n, raw in enumerate(text.splitlines(), start=1)
        if raw.strip() and not raw.strip().startswith(";")
    ]
    if not lines:
        raise FormatError("the solution file is empty", source=source)
    first = lines[0][1].split()
    bare_header = len(first) == 2 and all(part.isdigit() for part in first)
    bare_rows = lines[0][1].strip().startswith("solution:") or all(
        _SOLUTION_ROW.fullmatch(line.strip()) for _, line in lines
    )
    if bare_header or bare_rows:
        return _bare(text, lines, puzzles, source, header=bare_header)
    return _carried(text, puzzles, source)


def _bare(
    text: str,
    lines: list[tuple[int, str]],
    puzzles: Sequence[Puzzle],
    source: str | None,
    *,
    header: bool,
) -> dict[str, Solution]:
    """A bare solution grid (``R C`` header, or kakuro solution rows) for the one puzzle."""
    if len(puzzles) != 1:
        raise KakuroError(
            f"{source or 'solution'}: a bare solution grid fits one puzzle, "
            f"not {len(puzzles)} (select one puzzle by its id)"
        )
    puzzle = puzzles[0]
    if header:
        return {puzzle.id: parse_solution(text, puzzle, source)}
    answer, line = "", lines[0][0]
    if lines[0][1].strip().startswith("solution:"):
        answer = lines[0][1].strip()[len("solution:") :].strip()
        lines = lines[1:]
    return {puzzle.id: read_solution(answer, lines, puzzle, line, source)}


def _carried(text: str, puzzles: Sequence[Puzzle], source: str | None) -> dict[str, Solution]:
    """The solutions a puzzle file's puzzles carry, matched to ``puzzles`` by id, else grid."""
    carriers = detect(text, source).parse(text, source)
    by_id = {p.id: p for p in carriers}
    where = source or "solution"
    found = {}
    for puzzle in puzzles:
        carrier = by_id.get(puzzle.id)
        if carrier is None:  # ids differ between formats: fall back to the one same grid
            same = [c for c in carriers if c.grid == puzzle.grid]
            carrier = same[0] if len(same) == 1 else None
        if carrier is None and len(carriers) == 1 and len(puzzles) == 1:
            carrier = carriers[0]
        if carrier is None:
            raise KakuroError(f"{where}: no puzzle with id {puzzle.id!r} or its grid")
        if carrier.grid != puzzle.grid:
            raise KakuroError(
                f"{where}: puzzle {carrier.id} has a different grid than puzzle {puzzle.id}"
            )
        solution = embedded_solution(carrier)
        if solution is None:
            raise KakuroError(f"{where}: puzzle {carrier.id} carries no solution")
        found[puzzle.id] = solution
    return found


def load_solutions(path: str | Path, puzzles: Sequence[Puzzle]) -> dict[str, Solution]:
    """Read a SOLUTION file; see :func:`solutions_from_text` for the forms."""
    return solutions_from_text(read_text(Path(path)), puzzles, source=str(path))


_SOLUTION_ROW = re.compile(r"[\d.#-]+(\s+[\d.#-]+)*")
