"""The reports written through the shared tables module: the bank's level table has the shape
docs/generator.md publishes, row by row as ``kakuro bank levels`` prints it."""

from __future__ import annotations

from pathlib import Path

from kakurolab.bank import CellFigures
from kakurolab.reports import levels_table
from kakurolab.tables import Table

DOCS = Path(__file__).resolve().parents[1] / "docs" / "generator.md"

FIGURES = CellFigures(
    "6x6", "easy", ("easy", "easy", "normal"), 25.4, 0.625, 3.4375, "run sets", 3.0, 1.234, 27.25
)


def test_level_table_head_is_the_published_one() -> None:
    head = levels_table().markdown_head().splitlines()
    lines = DOCS.read_text(encoding="utf-8").splitlines()
    at = lines.index(head[0])
    assert lines[at + 1] == head[1]


def test_level_row_prints_each_figure_in_its_place() -> None:
    row = levels_table().markdown_row(FIGURES)
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells == ["6x6", "easy", "2/3", "25", "0.6", "run sets (3.44)", "3.0", "1.23", "27.2"]


def test_streamed_rows_equal_the_whole_table() -> None:
    table = levels_table([FIGURES, FIGURES])
    streamed = [table.markdown_head(), table.markdown_row(FIGURES), table.markdown_row(FIGURES)]
    assert table.markdown() == "\n".join(streamed) + "\n"
    assert isinstance(table, Table)
