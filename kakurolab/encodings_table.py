"""The statistics table behind ``docs/encodings.md`` (``kakuro encodings --table-md FILE``).

For each encoding (every preset, CNF and SMT alike, plus one variant per sum encoding) it
encodes every puzzle of a set and aggregates the formula size and, for CNF, the cells that unit
propagation alone fixes (by PySAT's propagator with the root units as assumptions, which the
tests show equal to the pure-Python closure of :func:`~.encodings.up_fixed_cells`, and is much
faster on the large puzzles).  SMT encodings appear through the same registry: their rows show the
size their ``stats()`` reports (assertions instead of clauses) and no UP column.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .encodings import PRESETS, encode, parse_spec
from .encodings.cnf import CNFEncoding
from .encodings.cnf.propagation import candidates, pysat_closure
from .encodings.cnf.sums import PB_ENCODINGS
from .formats import load
from .model import Puzzle

VARIANTS = [
    *(f"sum=pb:{name}" for name in PB_ENCODINGS),
    "cell=order,sum=combo",
    "cell=log,sum=combo",
    "sum=combo,alldiff=pairwise",
    "sum=combo:lean",
    "sum=pb:bdd,redundant=domain",
    "sum=pb:bdd,redundant=combo",
]
"""Part variants listed after the presets, so every sum encoding has a row."""


@dataclass
class Row:
    """Aggregates of one encoding over a puzzle set."""

    label: str
    spec: str
    family: str
    puzzles: int = 0
    sizes: dict[str, int] = field(default_factory=dict)
    fixed: int = 0
    cells: int = 0
    solved_by_up: int = 0
    encode_time: float = 0.0
    notes: int = 0

    def mean(self, key: str) -> float:
        return self.sizes.get(key, 0) / max(1, self.puzzles)


def measure(label: str, spec: str, puzzles: Sequence[Puzzle]) -> Row:
    canon = parse_spec(spec)
    row = Row(label, str(canon), canon.family)
    for puzzle in puzzles:
        start = time.perf_counter()
        enc = encode(puzzle, canon)
        row.encode_time += time.perf_counter() - start
        row.puzzles += 1
        for key, value in enc.stats().items():
            row.sizes[key] = row.sizes.get(key, 0) + int(value)
        if isinstance(enc, CNFEncoding):
            row.notes += len(enc.notes)
            closure = pysat_closure(enc.clauses)
            fixed = (
                len(puzzle.whites)
                if closure is None
                else sum(1 for cell in puzzle.whites if len(candidates(enc, cell, closure)) == 1)
            )
            row.fixed += fixed
            row.cells += len(puzzle.whites)
            row.solved_by_up += fixed == len(puzzle.whites)
    return row


def rows(puzzles: Sequence[Puzzle], specs: Sequence[str] | None = None) -> list[Row]:
    if specs:
        chosen = [(s, PRESETS[s].spec if s in PRESETS else s) for s in specs]
    else:
        chosen = [(name, preset.spec) for name, preset in PRESETS.items()]
        chosen += [(spec, spec) for spec in VARIANTS]
    return [measure(label, spec, puzzles) for label, spec in chosen]


def _cnf_table(table: list[Row]) -> list[str]:
    out = [
        "| encoding | spec | variables | clauses | literals | UP-fixed cells | solved by UP "
        "| encode ms |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in table:
        share = 100.0 * row.fixed / max(1, row.cells)
        out.append(
            f"| {row.label} | `{row.spec}` | {row.mean('variables'):,.0f} "
            f"| {row.mean('clauses'):,.0f} | {row.mean('literals'):,.0f} "
            f"| {row.fixed}/{row.cells} ({share:.1f}%) | {row.solved_by_up}/{row.puzzles} "
            f"| {1000 * row.encode_time / max(1, row.puzzles):.1f} |"
        )
    return out


def _smt_table(table: list[Row]) -> list[str]:
    keys = sorted({key for row in table for key in row.sizes})
    out = [
        "| encoding | spec | " + " | ".join(keys) + " | encode ms |",
        "|---|---|" + "---:|" * (len(keys) + 1),
    ]
    for row in table:
        sizes = " | ".join(f"{row.mean(key):,.0f}" for key in keys)
        out.append(
            f"| {row.label} | `{row.spec}` | {sizes} "
            f"| {1000 * row.encode_time / max(1, row.puzzles):.1f} |"
        )
    return out


EXPLANATION = """\
## What the numbers mean

*variables*, *clauses* and *literals* are means per puzzle; *UP-fixed cells* counts the white
cells whose digit unit propagation alone decides, with no decision at all, computed over the whole
clause list including root-level units (PySAT's `propagate()` leaves those out, so the units are
passed as assumptions; the tests check this equals our own pure-Python closure,
`kakurolab.encodings.up_fixed_cells`, also behind `kakuro solve --up-only`).  *solved by UP*
counts puzzles whose every cell is fixed that way.  *encode ms* is wall time on a shared machine:
compare rows, not runs.

* Decomposed encodings (`pb:*` sums with a separate all-different) fix nothing: each sum and
  each at-most-one propagates on its own, and a pseudo-Boolean decomposition over one-hot digits
  does not even remove digits no digit set allows (`redundant=domain` adds exactly that, and
  `redundant=combo` adds digit-set reasoning on top of a PB sum).
* `combo` propagates through digit *sets*: a digit in no admissible set of a run is gone, a digit
  in every set must appear.  Adding the explicit all-different (`alldiff=pairwise`) lets a placed
  digit leave the rest of its run at once, which nearly doubles the fixed cells for a few more
  clauses; `combo:lean` drops the selectors' at-most-one (implied), saving clauses on cryptic
  runs that admit up to 126 sets.  That pair is the `fast` preset, the default.
* `table` and `mdd` enforce generalised arc consistency on each whole run (sum and all-different
  together), the strongest a per-run encoding can give; `mdd` (the `strong` preset) alone solves
  every janko puzzle by propagation.  `table` falls back to `combo` on runs with more than its
  tuple cap, so it fixes fewer cells than `mdd`.
* Strength costs size: `mdd` is about ten times larger than `fast`, and on these puzzles the time
  goes into building and loading the formula, not into search, so the fastest preset is the
  smallest formula that still propagates well (`kakuro bench janko --config
  'pysat:encoding=fast'`).
* `lazy` writes no sum clauses, so it fixes nothing; the solver loop adds cuts instead.
* Exact counts (`kakuro count --exact`) run pyganak on the same CNF, projected on the cell and
  letter variables, so auxiliary variables never multiply the count.
"""


def markdown(path: str | Path, specs: Sequence[str] | None = None, limit: int | None = None) -> str:
    puzzles = load(path)
    if limit is not None:
        puzzles = puzzles[:limit]
    table = rows(puzzles, specs)
    cnf = [row for row in table if row.family == "cnf"]
    smt = [row for row in table if row.family != "cnf"]
    lines = [
        "# Encodings",
        "",
        "Generated by `kakuro encodings --table-md "
        f"{Path(path).name}{f' --limit {limit}' if limit else ''} -o docs/encodings.md`; "
        "do not edit by hand.",
        "",
        f"Puzzle set: `{Path(path).name}`, {len(puzzles)} puzzles, "
        f"{sum(len(p.whites) for p in puzzles)} white cells.  "
        "`kakuro encodings` lists every part and preset.",
        "",
        "## CNF encodings (pysat backend)",
        "",
        *_cnf_table(cnf),
        "",
    ]
    if any(row.notes for row in cnf):
        lines += [
            "Fallbacks: "
            + ", ".join(f"{row.label} {row.notes} runs" for row in cnf if row.notes)
            + " (table/mdd runs over their size cap encoded as combo).",
            "",
        ]
    if smt:
        lines += ["## SMT encodings", "", *_smt_table(smt), ""]
    lines.append(EXPLANATION)
    return "\n".join(lines)
