"""The format registry, detection from content, loading with validation, and solution files."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..check import validate
from ..errors import FormatError, KakuroError, KakuroFileNotFoundError, UnknownNameError
from ..model import Puzzle, Solution
from .base import Format, load_json
from .kakuro import KakuroFormat, read_solution
from .pe424 import Pe424Format
from .puzzlekit import PuzzlekitFormat, parse_solution
from .pycsp3 import Pycsp3Format

FORMATS: dict[str, type[Format]] = {
    "kakuro": KakuroFormat,
    "pe424": Pe424Format,
    "puzzlekit": PuzzlekitFormat,
    "pycsp3": Pycsp3Format,
}


def get_format(name: str) -> type[Format]:
    try:
        return FORMATS[name]
    except KeyError:
        raise UnknownNameError("format", name, FORMATS) from None


def detect(text: str, source: str | None = None) -> type[Format]:
    """The format whose sniffer accepts the text (the sniffers accept disjoint shapes)."""
    if not text.strip():
        raise FormatError("the input is empty", source=source)
    for fmt in FORMATS.values():
        if fmt.sniff(text):
            return fmt
    if text.lstrip().startswith(("{", "[")):  # JSON formats sniff only well-formed JSON
        load_json(text, source)  # raises, located, when the JSON is malformed
    raise FormatError(
        f"cannot tell the format (use --format {{{','.join(FORMATS)}}})", source=source, line=1
    )


def loads(
    text: str,
    *,
    format: str | None = None,
    source: str | None = None,
    select: Iterable[str] | None = None,
    check: bool = True,
    allow_short_runs: bool = False,
) -> list[Puzzle]:
    """Parse (and by default validate) the puzzles in a text, optionally only some ids."""
    fmt = get_format(format) if format else detect(text, source)
    puzzles = fmt.parse(text, source)
    if select is not None:
        wanted = [str(s) for s in select]
        by_id = {p.id: p for p in puzzles}
        missing = [s for s in wanted if s not in by_id]
        if missing:
            raise KakuroError(
                f"{source or 'input'}: no puzzle with id {missing[0]!r} "
                f"({len(puzzles)} puzzles, ids {_id_range(puzzles)})"
            )
        puzzles = [by_id[s] for s in wanted]
    if check:
        for puzzle in puzzles:
            validate(puzzle, allow_short_runs=allow_short_runs, source=source)
    return puzzles


def load(path: str | Path, **options: object) -> list[Puzzle]:
    """Read puzzles from a file; see :func:`loads` for the options."""
    path = Path(path)
    return loads(_read(path), source=str(path), **options)  # type: ignore[arg-type]


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")  # a BOM from some editors is not content
    except FileNotFoundError:
        raise KakuroFileNotFoundError(path) from None
    except IsADirectoryError:
        raise KakuroError(f"{path}: is a directory, not a file") from None
    except UnicodeDecodeError:
        raise KakuroError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise KakuroError(f"{path}: cannot read: {exc.strerror}") from None


def dumps(puzzles: Sequence[Puzzle], format: str) -> str:
    """Write puzzles in a format, refusing clearly when it cannot express one of them."""
    fmt = get_format(format)
    for puzzle in puzzles:
        reason = fmt.cannot_write(puzzle)
        if reason:
            raise KakuroError(f"puzzle {puzzle.id}: {reason}")
    return fmt.dump(puzzles)


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
        if len(puzzles) != 1:
            raise KakuroError(
                f"{source or 'solution'}: a bare solution grid fits one puzzle, "
                f"not {len(puzzles)} (use --select ID)"
            )
        puzzle = puzzles[0]
        if bare_header:
            return {puzzle.id: parse_solution(text, puzzle, source)}
        answer, line = "", lines[0][0]
        if lines[0][1].strip().startswith("solution:"):
            answer = lines[0][1].strip()[len("solution:") :].strip()
            lines = lines[1:]
        return {puzzle.id: read_solution(answer, lines, puzzle, line, source)}
    carriers = detect(text, source).parse(text, source)
    by_id = {p.id: p for p in carriers}
    found = {}
    for puzzle in puzzles:
        carrier = by_id.get(puzzle.id)
        if carrier is None:  # ids differ between formats: fall back to the one same grid
            same = [c for c in carriers if c.grid == puzzle.grid]
            carrier = same[0] if len(same) == 1 else None
        if carrier is None and len(carriers) == 1 and len(puzzles) == 1:
            carrier = carriers[0]
        if carrier is None:
            raise KakuroError(
                f"{source or 'solution'}: no puzzle with id {puzzle.id!r} or its grid"
            )
        if carrier.grid != puzzle.grid:
            raise KakuroError(
                f"{source or 'solution'}: puzzle {carrier.id} has a different grid "
                f"than puzzle {puzzle.id}"
            )
        solution = embedded_solution(carrier)
        if solution is None:
            raise KakuroError(f"{source or 'solution'}: puzzle {carrier.id} carries no solution")
        found[puzzle.id] = solution
    return found


def load_solutions(path: str | Path, puzzles: Sequence[Puzzle]) -> dict[str, Solution]:
    """Read a SOLUTION file; see :func:`solutions_from_text` for the forms."""
    return solutions_from_text(_read(Path(path)), puzzles, source=str(path))


_SOLUTION_ROW = re.compile(r"[\d.#-]+(\s+[\d.#-]+)*")


def _id_range(puzzles: Sequence[Puzzle]) -> str:
    if not puzzles:
        return "none"
    if len(puzzles) <= 3:
        return ", ".join(p.id for p in puzzles)
    return f"{puzzles[0].id} ... {puzzles[-1].id}"


__all__ = [
    "FORMATS",
    "Format",
    "detect",
    "dumps",
    "embedded_solution",
    "get_format",
    "load",
    "load_solutions",
    "loads",
    "solutions_from_text",
]
