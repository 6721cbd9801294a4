"""The level table of docs/generator.md (``kakuro bank levels``): per bank cell, how its
bases grade and what deduction needs, one row per :class:`~kakurolab.bank.CellFigures`."""

from __future__ import annotations

from collections.abc import Sequence

from ..bank import CellFigures
from ..tables import Column, Table


def _agree(figures: CellFigures) -> str:
    agree = sum(g == figures.difficulty for g in figures.grades)
    return f"{agree}/{len(figures.grades)}"


LEVEL_COLUMNS: tuple[Column[CellFigures], ...] = (
    Column("size", lambda f: f.size),
    Column("level", lambda f: f.difficulty),
    Column("grade = level", _agree, align="right"),
    Column("steps", lambda f: f.steps, "{:.0f}", "right"),
    Column("steps of weight 5+", lambda f: f.hard_steps, "{:.1f}", "right"),
    Column("hardest technique (mean weight)", lambda f: f"{f.hardest} ({f.hardest_weight:.2f})"),
    Column("its uses", lambda f: f.hardest_uses, "{:.1f}", "right"),
    Column("mean ambiguity", lambda f: f.ambiguity, "{:.2f}", "right"),
    Column("score", lambda f: f.score, "{:.1f}", "right"),
)


def levels_table(figures: Sequence[CellFigures] = ()) -> Table[CellFigures]:
    """The level table over these cells (print its :meth:`~kakurolab.tables.Table.markdown`,
    or its head and then a row per cell as each is measured)."""
    return Table(LEVEL_COLUMNS, figures)
