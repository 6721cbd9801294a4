"""Pictures of puzzles: one scene of primitives, painted as SVG text or as a PNG by matplotlib.

The layout is decided once, in :func:`scene`, as a flat list of rectangles, lines, polygons
and texts in pixel units; :func:`to_svg` writes them as XML and :func:`to_png` draws the same
list with matplotlib's Agg canvas, so the two pictures cannot drift apart.

Clue cells are split by a diagonal: the across sum sits top right and the down sum bottom
left, each with a small arrow badge (right / down) so the direction does not rely on position
or colour alone.  Cryptic puzzles show their letter clues and the letters of white cells.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from xml.sax.saxutils import escape, quoteattr

from .combos import digits_of
from .errors import KakuroError, require
from .fileio import replacing, write_text
from .model import Block, Cell, Clue, ClueCell, Puzzle, White

CELL = 40.0
"""Side of a cell in pixels (SVG user units; PNG pixels at scale 1)."""

INK = "#222222"
CLUE_FILL = "#3b4451"
BLOCK_FILL = "#1f242b"
CLUE_INK = "#ffffff"
DIGIT_INK = "#1a4f9c"
GIVEN_INK = "#222222"
MARK_INK = "#6b6b6b"
LETTER_INK = "#b3261e"
FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str
    stroke: str
    cls: str


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str
    width: float
    cls: str


@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: str
    cls: str


@dataclass(frozen=True, slots=True)
class Text:
    """A single-line text centred vertically on ``y``; ``anchor`` places it horizontally."""

    x: float
    y: float
    text: str
    size: float
    fill: str
    cls: str
    anchor: str = "middle"
    bold: bool = False


@dataclass
class Scene:
    width: float
    height: float
    title: str
    items: list[Rect | Line | Polygon | Text] = field(default_factory=list)


def scene(
    puzzle: Puzzle,
    *,
    values: Mapping[Cell, int] | None = None,
    given: Mapping[Cell, int] | None = None,
    candidates: Mapping[Cell, int] | None = None,
    cell: float = CELL,
) -> Scene:
    """Lay out a puzzle: cells, clues with badges, digits, pencil marks, cryptic letters.

    ``values`` are solution digits (drawn blue), ``given`` digits written in a state (drawn
    black), ``candidates`` masks of pencil marks for cells that hold no digit.
    """
    s = cell
    margin = 2.0
    out = Scene(puzzle.ncols * s + 2 * margin, puzzle.nrows * s + 2 * margin, puzzle.id)
    items = out.items
    values = values or {}
    given = given or {}
    candidates = candidates or {}
    for r, row in enumerate(puzzle.grid):
        for c, square in enumerate(row):
            x, y = margin + c * s, margin + r * s
            if isinstance(square, White):
                items.append(Rect(x, y, s, s, "#ffffff", INK, "cell white"))
                _white(items, x, y, s, (r, c), square, values, given, candidates)
            elif isinstance(square, ClueCell):
                items.append(Rect(x, y, s, s, CLUE_FILL, INK, "cell clue"))
                items.append(Line(x, y, x + s, y + s, CLUE_INK, max(1.0, s / 40), "diagonal"))
                _clues(items, x, y, s, square)
            else:
                assert isinstance(square, Block)
                items.append(Rect(x, y, s, s, BLOCK_FILL, INK, "cell block"))
    return out


def _clues(items: list, x: float, y: float, s: float, square: ClueCell) -> None:
    if square.across is not None:
        size = _clue_size(square.across, s)
        items.append(
            Text(x + 0.6 * s, y + 0.3 * s, str(square.across), size, CLUE_INK, "clue-across")
        )
        bx, by, b = x + 0.89 * s, y + 0.3 * s, 0.065 * s  # right-pointing badge
        items.append(
            Polygon(((bx - b, by - b), (bx + b, by), (bx - b, by + b)), CLUE_INK, "badge-across")
        )
    if square.down is not None:
        size = _clue_size(square.down, s)
        items.append(Text(x + 0.3 * s, y + 0.66 * s, str(square.down), size, CLUE_INK, "clue-down"))
        bx, by, b = x + 0.3 * s, y + 0.89 * s, 0.065 * s  # down-pointing badge
        items.append(
            Polygon(((bx - b, by - b), (bx + b, by - b), (bx, by + b)), CLUE_INK, "badge-down")
        )


def _clue_size(clue: Clue, s: float) -> float:
    """Letter pairs are wider than digit pairs: shrink them to clear the diagonal and badge."""
    return 0.26 * s if clue.is_cryptic and len(str(clue)) > 1 else 0.3 * s


def _white(
    items: list,
    x: float,
    y: float,
    s: float,
    cell: Cell,
    square: White,
    values: Mapping[Cell, int],
    given: Mapping[Cell, int],
    candidates: Mapping[Cell, int],
) -> None:
    digit = given.get(cell) or values.get(cell)
    if digit:
        ink = GIVEN_INK if cell in given else DIGIT_INK
        items.append(Text(x + s / 2, y + 0.54 * s, str(digit), 0.6 * s, ink, "digit"))
    if square.letter is not None:
        if digit:  # the letter as a small corner tag next to its digit
            items.append(
                Text(
                    x + 0.06 * s,
                    y + 0.16 * s,
                    square.letter,
                    0.24 * s,
                    LETTER_INK,
                    "letter",
                    "start",
                    True,
                )
            )
        else:
            items.append(
                Text(
                    x + s / 2,
                    y + 0.54 * s,
                    square.letter,
                    0.55 * s,
                    LETTER_INK,
                    "letter",
                    bold=True,
                )
            )
        return
    if digit or cell not in candidates:
        return
    for d in digits_of(candidates[cell]):
        row, col = divmod(d - 1, 3)
        items.append(
            Text(
                x + (0.2 + 0.3 * col) * s,
                y + (0.2 + 0.3 * row) * s,
                str(d),
                0.24 * s,
                MARK_INK,
                "candidate",
            )
        )


# --- painters --------------------------------------------------------------------------------


def _n(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def to_svg(sc: Scene) -> str:
    """The scene as a standalone SVG document (text escaped, no external resources)."""
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(sc.width)}" '
        f'height="{_n(sc.height)}" viewBox="0 0 {_n(sc.width)} {_n(sc.height)}" '
        f"font-family={quoteattr(FONT)}>",
        f"<title>{escape(sc.title)}</title>",
    ]
    for item in sc.items:
        if isinstance(item, Rect):
            out.append(
                f'<rect class="{item.cls}" x="{_n(item.x)}" y="{_n(item.y)}" '
                f'width="{_n(item.w)}" height="{_n(item.h)}" fill="{item.fill}" '
                f'stroke="{item.stroke}" stroke-width="1"/>'
            )
        elif isinstance(item, Line):
            out.append(
                f'<line class="{item.cls}" x1="{_n(item.x1)}" y1="{_n(item.y1)}" '
                f'x2="{_n(item.x2)}" y2="{_n(item.y2)}" stroke="{item.stroke}" '
                f'stroke-width="{_n(item.width)}"/>'
            )
        elif isinstance(item, Polygon):
            points = " ".join(f"{_n(px)},{_n(py)}" for px, py in item.points)
            out.append(f'<polygon class="{item.cls}" points="{points}" fill="{item.fill}"/>')
        else:
            weight = ' font-weight="bold"' if item.bold else ""
            out.append(
                f'<text class="{item.cls}" x="{_n(item.x)}" y="{_n(item.y)}" '
                f'font-size="{_n(item.size)}" fill="{item.fill}" text-anchor="{item.anchor}" '
                f'dominant-baseline="central"{weight}>{escape(item.text)}</text>'
            )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def to_png(sc: Scene, path: Path | str | IO[bytes], *, scale: float = 1.0) -> None:
    """Paint the scene with matplotlib's Agg canvas (no display needed) and save a PNG.

    Shapes go in as three collections, so the cost is dominated by the texts.
    """
    require("matplotlib", extra="render", feature="PNG rendering")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.figure import Figure

    dpi = 100.0
    fig = Figure(figsize=(sc.width * scale / dpi, sc.height * scale / dpi), dpi=dpi)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, sc.width)
    ax.set_ylim(sc.height, 0)
    ax.set_axis_off()
    rects = [i for i in sc.items if isinstance(i, Rect)]
    lines = [i for i in sc.items if isinstance(i, Line)]
    polys = [i for i in sc.items if isinstance(i, Polygon)]
    texts = [i for i in sc.items if isinstance(i, Text)]
    ax.add_collection(
        PolyCollection(
            [
                ((i.x, i.y), (i.x + i.w, i.y), (i.x + i.w, i.y + i.h), (i.x, i.y + i.h))
                for i in rects
            ],
            facecolors=[i.fill for i in rects],
            edgecolors=[i.stroke for i in rects],
            linewidths=scale,
        )
    )
    if lines:
        ax.add_collection(
            LineCollection(
                [((i.x1, i.y1), (i.x2, i.y2)) for i in lines],
                colors=[i.stroke for i in lines],
                linewidths=[i.width * scale for i in lines],
            )
        )
    if polys:
        ax.add_collection(
            PolyCollection(
                [i.points for i in polys], facecolors=[i.fill for i in polys], linewidths=0
            )
        )
    if texts:
        ax.add_collection(_glyphs(texts))
    fig.savefig(path, dpi=dpi, format="png", pil_kwargs={"compress_level": 1})


def _glyphs(texts: list[Text]) -> Any:
    """All texts as glyph outlines: one compound path per colour.

    A matplotlib ``Text`` artist costs about a millisecond to lay out and draw, and a big
    puzzle has thousands; instead each distinct string becomes an outline once and is copied
    into place with numpy (y flipped, since the picture's y axis points down).
    """
    import numpy as np
    from matplotlib.collections import PathCollection
    from matplotlib.font_manager import FontProperties
    from matplotlib.path import Path as MplPath
    from matplotlib.textpath import TextPath

    fonts = {
        bold: FontProperties(family="DejaVu Sans", weight="bold" if bold else "normal")
        for bold in (False, True)
    }
    outlines: dict[tuple[str, float, bool], tuple[np.ndarray, np.ndarray, float, float, float]] = {}
    by_colour: dict[str, tuple[list[np.ndarray], list[np.ndarray]]] = {}
    for t in texts:
        key = (t.text, t.size, t.bold)
        if key not in outlines:
            glyph = TextPath((0, 0), t.text, size=t.size, prop=fonts[t.bold])
            verts = np.asarray(glyph.vertices, dtype=float)
            codes = np.asarray(glyph.codes, dtype=MplPath.code_type)
            drawn = verts[codes != MplPath.CLOSEPOLY]  # control points bound the outline
            (x0, y0), (x1, y1) = drawn.min(axis=0), drawn.max(axis=0)
            outlines[key] = (verts, codes, x0, x1, (y0 + y1) / 2)
        verts, codes, x0, x1, ymid = outlines[key]
        dx = {"start": -x0, "middle": -(x0 + x1) / 2, "end": -x1}[t.anchor]
        placed = np.empty_like(verts)
        placed[:, 0] = verts[:, 0] + (t.x + dx)
        placed[:, 1] = (t.y + ymid) - verts[:, 1]
        vert_list, code_list = by_colour.setdefault(t.fill, ([], []))
        vert_list.append(placed)
        code_list.append(codes)
    paths = [MplPath(np.concatenate(v), np.concatenate(c)) for v, c in by_colour.values()]
    return PathCollection(paths, facecolors=list(by_colour), linewidths=0)


def write(sc: Scene, path: Path | str, *, scale: float = 1.0) -> None:
    """Write the scene to ``path``: SVG or PNG by the file's suffix, whole or not at all
    (:mod:`kakurolab.fileio`)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".svg":
        write_text(path, to_svg(sc))
    elif suffix == ".png":
        with replacing(path) as handle:  # a full disk leaves no half picture behind
            to_png(sc, handle, scale=scale)
    else:
        raise KakuroError(f"cannot render to {path.name!r}: use a .svg or .png file name")
