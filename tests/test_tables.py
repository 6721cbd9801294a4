"""kakurolab.tables: one writer for Markdown, CSV, LaTeX and plain-text tables.

Every expected string below is written out by hand from the rules in the module's docstring,
so a change in alignment, escaping or number formatting fails here first.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from kakurolab.tables import Column, Table, tex_escape


@dataclass(frozen=True)
class Run:
    config: str
    solved: int
    seconds: float | None


ROWS = [Run("pysat:encoding=fast", 12, 1.5), Run("a|b_c", 3, None)]


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


COLUMNS: list[Column[Run]] = [
    Column("config", lambda r: r.config),
    Column("solved", lambda r: r.solved, align="right"),
    Column("time s", lambda r: r.seconds, _seconds, "right"),
]
TABLE = Table(COLUMNS, ROWS)


def test_markdown_aligns_and_escapes_pipes() -> None:
    assert TABLE.markdown() == (
        "| config | solved | time s |\n"
        "| --- | ---: | ---: |\n"
        "| pysat:encoding=fast | 12 | 1.50 |\n"
        "| a\\|b_c | 3 | - |\n"
    )


def test_markdown_compact_style_and_stated_left_alignment() -> None:
    columns = [Column("k", lambda r: r.config, align="left"), *COLUMNS[1:]]
    text = Table(columns, ROWS[:1]).markdown(style="compact")
    assert text.splitlines()[1] == "|:---|---:|---:|"


def test_markdown_keeps_a_cell_on_one_line() -> None:
    table = Table([Column("note", lambda r: r)], ["two\nlines"])
    assert table.markdown().splitlines()[-1] == "| two lines |"


def test_empty_tables() -> None:
    empty = Table(COLUMNS, [])
    assert empty.markdown() == "_(none)_\n"
    assert empty.csv() == "" and empty.latex() == ""


def test_csv_writes_raw_values_and_quotes() -> None:
    text = Table([*COLUMNS, Column("quote", lambda r: 'say "hi", ok')], ROWS).csv()
    assert text.splitlines()[0] == "config,solved,time s,quote"
    assert text.splitlines()[1] == 'pysat:encoding=fast,12,1.5,"say ""hi"", ok"'
    back = list(csv.reader(io.StringIO(text)))
    assert back[2] == ["a|b_c", "3", "", 'say "hi", ok']  # None: an empty field


def test_latex_escapes_and_aligns() -> None:
    assert TABLE.latex() == (
        "\\begin{tabular}{lrr}\n"
        "\\toprule\n"
        "config & solved & time s \\\\\n"
        "\\midrule\n"
        "pysat:encoding=fast & 12 & 1.50 \\\\\n"
        "a|b\\_c & 3 & - \\\\\n"
        "\\bottomrule\n"
        "\\end{tabular}\n"
    )
    assert tex_escape("50% of #1 & $x_2$ {~^\\}") == (
        "50\\% of \\#1 \\& \\$x\\_2\\$ \\{\\textasciitilde{}\\textasciicircum{}"
        "\\textbackslash{}\\}"
    )


def test_plain_pads_to_column_widths() -> None:
    assert TABLE.plain() == (
        "config               solved  time s\n"
        "pysat:encoding=fast      12    1.50\n"
        "a|b_c                     3       -"
    )


def test_of_dicts_reads_keys_of_the_first_row() -> None:
    rows = [{"name": "x", "n": 1.25}, {"name": "y"}]
    table = Table.of_dicts(
        rows, lambda v: "-" if v is None else str(v), lambda i: "right" if i else None
    )
    assert table.headers == ["name", "n"]
    assert table.markdown(style="compact") == "| name | n |\n|---|---:|\n| x | 1.25 |\n| y | - |\n"
    assert table.csv() == "name,n\nx,1.25\ny,\n"
