"""Reports: generated documentation pages and report tables, above the layers they measure.

``kakuro encodings --table-md`` writes ``docs/encodings.md`` (:mod:`.encodings`: sizes and
unit-propagation strength of every encoding) and ``kakuro encodings --smt-md`` writes
``docs/encodings-smt.md`` (:mod:`.smt`: the SMT encodings and their same-run speed); both are
imported by path, only when they run.  The face holds the light ones: ``kakuro grade
--report``'s data-set findings (:mod:`.grades`) and the bank's level table (:mod:`.levels`),
each written through :mod:`kakurolab.tables`.
"""

from __future__ import annotations

from .grades import END, START, merged, report_markdown
from .levels import LEVEL_COLUMNS, levels_table

__all__ = ["END", "LEVEL_COLUMNS", "START", "levels_table", "merged", "report_markdown"]
