"""Tables from typed rows, written one way: Markdown, CSV, LaTeX and aligned plain text.

A :class:`Table` is a list of :class:`Column` s (a header, how to read the value from a row,
how to print it, and its alignment) over any rows: dataclasses, tuples or dicts
(:meth:`Table.of_dicts`).  Every report of the package (the experiment reports, the
generated encoding pages, ``kakuro grade``, the generator benchmark and ``kakuro bench``)
writes through here, so escaping and alignment are decided once:

* Markdown escapes ``|`` (and puts line breaks on one line); ``style="compact"`` writes the
  separator row as ``|---|---:|`` instead of ``| --- | ---: |``;
* CSV writes the raw values (not their printed form; ``None`` as an empty field);
* LaTeX is a ``booktabs`` tabular with the special characters escaped;
* plain text pads columns to their widths (left or right), for a terminal.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

R = TypeVar("R")

Align = Literal["left", "right"] | None
"""``None``: not stated (Markdown writes a plain ``---``; LaTeX and plain text align left)."""

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "_": r"\_",
    "%": r"\%",
    "&": r"\&",
    "#": r"\#",
    "$": r"\$",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


@dataclass(frozen=True)
class Column(Generic[R]):
    """One column: its header, the value of a row (``get``), how the value prints (a format
    string such as ``"{:,.0f}"`` or a function) and its alignment."""

    header: str
    get: Callable[[R], Any]
    fmt: str | Callable[[Any], str] = "{}"
    align: Align = None

    def text(self, row: R) -> str:
        """The value of ``row`` in this column, as printed."""
        value = self.get(row)
        return self.fmt(value) if callable(self.fmt) else self.fmt.format(value)


@dataclass(frozen=True)
class Table(Generic[R]):
    """Columns over rows; each method writes the whole table as one string."""

    columns: Sequence[Column[R]]
    rows: Sequence[R]

    @staticmethod
    def of_dicts(
        rows: Sequence[Mapping[str, Any]],
        fmt: str | Callable[[Any], str] = "{}",
        align: Callable[[int], Align] = lambda i: None,
    ) -> Table[Mapping[str, Any]]:
        """A table whose columns are the keys of the first row (a missing key reads as
        ``None``); ``align(i)`` gives column ``i``'s alignment."""
        keys = list(rows[0]) if rows else []
        columns = [Column(key, _getter(key), fmt, align(i)) for i, key in enumerate(keys)]
        return Table(columns, rows)

    @property
    def headers(self) -> list[str]:
        return [column.header for column in self.columns]

    def cells(self) -> list[list[str]]:
        """Every row as printed, column by column."""
        return [[column.text(row) for column in self.columns] for row in self.rows]

    def markdown(self, style: Literal["spaced", "compact"] = "spaced") -> str:
        """A Markdown (GitHub) table, ``_(none)_`` when there are no rows."""
        if not self.rows:
            return "_(none)_\n"
        lines = [self.markdown_head(style)]
        lines += [_md_row(row) for row in self.cells()]
        return "\n".join(lines) + "\n"

    def markdown_head(self, style: Literal["spaced", "compact"] = "spaced") -> str:
        """The header and separator lines of :meth:`markdown`, for a table printed as its
        rows arrive (with :meth:`markdown_row`)."""
        marks = [_MARK[column.align] for column in self.columns]
        if style == "compact":
            rule = "|" + "|".join(marks) + "|"
        else:
            rule = "| " + " | ".join(marks) + " |"
        return _md_row(self.headers) + "\n" + rule

    def markdown_row(self, row: R) -> str:
        """One row as a line of :meth:`markdown`."""
        return _md_row([column.text(row) for column in self.columns])

    def csv(self) -> str:
        """CSV of the raw values (header line first; empty when there are no rows)."""
        if not self.rows:
            return ""
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(self.headers)
        writer.writerows([column.get(row) for column in self.columns] for row in self.rows)
        return buf.getvalue()

    def latex(self) -> str:
        """A ``booktabs`` tabular (empty when there are no rows)."""
        if not self.rows:
            return ""
        spec = "".join("r" if column.align == "right" else "l" for column in self.columns)
        lines = [
            r"\begin{tabular}{" + spec + "}",
            r"\toprule",
            _tex_row(self.headers),
            r"\midrule",
        ]
        lines += [_tex_row(row) for row in self.cells()]
        lines += [r"\bottomrule", r"\end{tabular}"]
        return "\n".join(lines) + "\n"

    def plain(self, gap: str = "  ") -> str:
        """Columns padded to their widths (right-aligned columns on the right), one line
        per row under the headers, trailing blanks stripped."""
        body = [self.headers, *self.cells()]
        widths = [max(len(row[i]) for row in body) for i in range(len(self.columns))]
        lines = []
        for row in body:
            padded = [
                text.rjust(width) if column.align == "right" else text.ljust(width)
                for text, width, column in zip(row, widths, self.columns, strict=True)
            ]
            lines.append(gap.join(padded).rstrip())
        return "\n".join(lines)


_MARK: dict[Align, str] = {None: "---", "left": ":---", "right": "---:"}


def _getter(key: str) -> Callable[[Mapping[str, Any]], Any]:
    return lambda row: row.get(key)


def _md_row(texts: Sequence[str]) -> str:
    return "| " + " | ".join(_md_escape(text) for text in texts) + " |"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\r\n", " ").replace("\n", " ")


def _tex_row(texts: Sequence[str]) -> str:
    return " & ".join(tex_escape(text) for text in texts) + r" \\"


def tex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped."""
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


__all__ = ["Align", "Column", "Table", "tex_escape"]
