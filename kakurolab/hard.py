"""Hard instance families: reproducible puzzles where solvers differ (issue 26).

Every real puzzle solves in milliseconds, so encoding and solver comparisons need instances
that are hard on purpose.  Each family here is a list of sizes and one function that makes
the member of a size from a seed, through the generator's public functions only; so
``python -m kakurolab.hard build FAMILY --seed S`` rebuilds ``data/hard/FAMILY.txt`` exactly,
and ``tests/test_hard.py`` checks that for the smallest member of each family.

* ``large-unique``: unique puzzles 20x20 .. 60x60 (the generator's published look, search
  mode: uniqueness needs search beyond root propagation).
* ``loose``: a published layout filled once and clued from that fill, without the
  generator's uniqueness repairs: many solutions, so uniqueness must be *refuted* on grids of
  a few hundred to over 10,000 white cells.
* ``unsat``: a unique puzzle with one clue moved by one.  Every white cell lies in exactly one
  across and one down run, so the across clues and the down clues both sum to the digits of
  the grid; after the change they differ, so no solution exists.  The changed run stays
  locally consistent, but the rest of a unique grid is pinned, so root propagation refutes
  it at once: the family is the control for ``loose-unsat``.
* ``loose-unsat``: a ``loose`` grid with one clue moved by one: the same counting argument,
  but on a grid whose clues pin nothing, so propagation does not stumble on the contradiction
  (on a unique puzzle, root propagation refutes the moved clue at once).
* ``ambiguous``: unique puzzles at the ``expert`` level (mean clue ambiguity 2.65-4.0, clues
  of up to five digit sets, runs up to nine cells) in search mode, which per-run propagation
  does not finish.
* ``cryptic``: Project Euler 424 style letter puzzles 10x10 .. 20x20, unique in grid and
  letter mapping (``generator.encrypt``).
* ``tiled``: the scaling control, 20x20 .. 140x140 (about 250 to 12,000 white cells): verified
  20x20 bank puzzles side by side, each tile a random one of its base's 16 variants.  Each
  tile's clue row and column end its neighbours' runs, so the tiles are independent and the
  whole has one solution; no search is hard here, so the growth of a solver's time with the
  grid is its per-cell cost (encoding, propagation, bookkeeping), up to 10,000 cells and
  beyond where no generated puzzle reaches.
* ``domino``: the full n x n board's domino tilings as a Kakuro (``reductions.domino``, a
  parsimonious reduction): the solution count is the tiling count (Kasteleyn), recorded in
  each member's ``tilings`` line.  Size is the board's side, not the grid's.
* ``domino-unsat``: the mutilated board (two opposite corners removed, both of one colour):
  no tiling, so no solution.  Its clue totals differ by 2 (the cut identity refutes it at
  once for an LP or cut sums), while resolution needs exponential size (Alekhnovich 2004):
  the exact form of ``loose-unsat``.  Both domino families ignore the seed but for the id.
* ``exact-cover``: a planted banded 1-in-3 SAT formula through the parsimonious reduction of
  ``reductions.one_in_three``: the solution count is the formula's model count, counted
  over the band without any Kakuro solver (each member's ``solutions`` metadata).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import bank, combos
from .errors import KakuroError
from .fileio import write_text
from .formats import dumps
from .generator import (
    Layout,
    build_puzzle,
    derive_seed,
    fill_grid,
    from_clues,
    generate,
    generate_cryptic,
    published_layout,
)
from .model import Cell, Clue, Direction, Puzzle
from .reductions import domino

Maker = Callable[[int, int], Puzzle]


@dataclass(frozen=True)
class Family:
    """One family: its sizes (square side), the format of its file and what every member is
    claimed to be (``unique``, ``multiple`` or ``unsat``: what the tests check)."""

    name: str
    sizes: tuple[int, ...]
    claim: str
    format: str
    make: Maker
    why: str
    checked_by: tuple[str, ...] = ("native", "cpsat", "pysat")
    """Backends that settle the smallest member within a test's time (tests/test_hard.py)."""
    grid: Callable[[int], tuple[int, int]] | None = None
    """The grid shape of the member of a size, when it is not size x size (the reductions,
    whose size is the source's)."""

    def shape(self, size: int) -> tuple[int, int]:
        return self.grid(size) if self.grid else (size, size)

    def member_id(self, size: int, seed: int) -> str:
        return f"{self.name}-{size}x{size}-s{seed}"


def _large_unique(size: int, seed: int) -> Puzzle:
    # large_cells=None: the 40x40 to 60x60 members are generator 3.3's grids, the ones
    # results/hard measured (3.4 and later fill grids of 1,000+ white cells another way)
    made = generate(
        size, size, "normal", seed=f"hard/{seed}", logic_only=False, white_goal=None,
        pid=FAMILIES["large-unique"].member_id(size, seed), large_cells=None,
    )
    return made.puzzle


def _ambiguous(size: int, seed: int) -> Puzzle:
    made = generate(
        size, size, "expert", seed=f"hard-ambiguous/{seed}", logic_only=False, white_goal=None,
        pid=FAMILIES["ambiguous"].member_id(size, seed),
    )
    return made.puzzle


def _loose(size: int, seed: int) -> Puzzle:
    """A published layout and one fill, clued from the fill: no repairs, so many solutions
    (the fill proves one exists; the tests prove there are more)."""
    rng = random.Random(derive_seed(seed, "hard-loose", size))
    for _ in range(20):
        layout = published_layout(size, size, rng, full_frame=True)
        values = fill_grid(layout, rng)
        if values is not None:
            return build_puzzle(layout, values, FAMILIES["loose"].member_id(size, seed))
    raise KakuroError(f"no loose {size}x{size} grid for seed {seed} in 20 fills")


def moved_clue(puzzle: Puzzle, rng: random.Random) -> tuple[int, int, int]:
    """A run (its index in ``runs``) whose clue can move by one to a sum its length
    still reaches with at least two digit sets, and the old and new sums.  Long runs with
    mid-range sums come first: the change then stays invisible to per-run reasoning."""
    options: list[tuple[int, int, int, int]] = []
    for index, run in enumerate(puzzle.runs):
        if run.clue is None or run.clue.value is None:
            continue
        old = run.clue.value
        for new in (old - 1, old + 1):
            sets = combos.count(len(run), new)
            if sets >= 2:
                options.append((len(run) * sets, index, old, new))
    if not options:
        raise KakuroError(f"puzzle {puzzle.id}: no clue can move to an ambiguous sum")
    options.sort(key=lambda o: (-o[0], o[1], o[3]))
    _, index, old, new = options[rng.randrange(min(5, len(options)))]
    return index, old, new


def _unsat(size: int, seed: int) -> Puzzle:
    base = generate(
        size, size, "hard", seed=f"hard-unsat/{seed}", logic_only=False, white_goal=None
    ).puzzle
    return _near_miss(base, "unsat", size, seed)


def _loose_unsat(size: int, seed: int) -> Puzzle:
    return _near_miss(_loose(size, seed), "loose-unsat", size, seed)


def _near_miss(base: Puzzle, family: str, size: int, seed: int) -> Puzzle:
    """``base`` with one clue moved by one (``moved_clue``): unsat by the clue totals."""
    rng = random.Random(derive_seed(seed, f"hard-{family}", size))
    index, old, new = moved_clue(base, rng)
    layout = Layout.of(base)
    clues: dict[tuple[Direction, Cell], Clue] = {}
    for i, run in enumerate(base.runs):
        assert run.clue is not None
        clues[(run.direction, run.cells[0])] = Clue(new) if i == index else run.clue
    meta = {"changed": f"{base.runs[index].name}: {old} -> {new}"}
    return from_clues(layout, clues, FAMILIES[family].member_id(size, seed), meta)


def _cryptic(size: int, seed: int) -> Puzzle:
    made = generate_cryptic(
        size, seed=f"hard/{seed}", pid=FAMILIES["cryptic"].member_id(size, seed),
        white_goal=None,
    )
    return made.puzzle


TILE = 20
"""The side of a ``tiled`` family's tiles (bank cell ``20x20``, level ``hard``)."""


def _tiled(size: int, seed: int) -> Puzzle:
    if size % TILE:
        raise KakuroError(f"tiled sizes are multiples of {TILE}, not {size}")
    n = size // TILE
    picks = [
        [bank.pick(f"{TILE}x{TILE}", "hard", derive_seed(seed, "hard-tiled", size, i, j))
         for j in range(n)]
        for i in range(n)
    ]
    grid = tuple(
        tuple(square for tile in row for square in tile.puzzle.grid[r])
        for row in picks
        for r in range(TILE)
    )
    meta = {"tiles": " ".join(f"{t.base}/{t.variant.name}" for row in picks for t in row)}
    return Puzzle(FAMILIES["tiled"].member_id(size, seed), grid, meta)


def _domino(size: int, seed: int) -> Puzzle:
    return _domino_member("domino", domino.full_board(size), size, seed)


def _domino_unsat(size: int, seed: int) -> Puzzle:
    return _domino_member("domino-unsat", domino.mutilated_board(size), size, seed)


def _domino_member(family: str, board: domino.Board, size: int, seed: int) -> Puzzle:
    """The board's Kakuro, with the board and its tiling count (the ground truth, by a
    dynamic programme over the board, not by any solver) in its header."""
    meta = {"board": domino.board_text(board), "tilings": str(domino.count_tilings(board))}
    return domino.build(board, FAMILIES[family].member_id(size, seed), meta).puzzle


def _domino_shape(size: int) -> tuple[int, int]:
    return domino.build(domino.full_board(size), "shape").puzzle.shape


def _mutilated_shape(size: int) -> tuple[int, int]:
    return domino.build(domino.mutilated_board(size), "shape").puzzle.shape


def _exact_cover(size: int, seed: int) -> Puzzle:
    """A planted banded 1-in-3 formula (width 3, clauses within two neighbouring layers)
    laid out by ``reductions.one_in_three`` in a ``size`` square: as many clauses as the
    width holds (a clause costs 7 tiles of 6 columns), then the longest band whose loops fit
    the height, with at least two models.  The model count, by dynamic programming over the
    band, is the puzzle's solution count (the ``solutions`` metadata)."""
    from .reductions import one_in_three as xc

    family = "exact-cover"
    tiles = size // xc.TILE
    clauses = (tiles - 1) // 7
    for layers in range(tiles, 1, -1):
        n = EXACT_COVER_WIDTH * layers
        for attempt in range(20):
            rng = random.Random(derive_seed(seed, f"hard-{family}", size, layers, attempt))
            try:
                source = xc.banded(EXACT_COVER_WIDTH, layers, clauses / n, rng)
            except KakuroError:
                continue
            count = xc.band_count(source.formula, EXACT_COVER_WIDTH)
            board = xc.exact_cover_board(source.formula.n, source.formula.clauses)
            if count >= 2 and board.rows <= tiles and board.cols <= tiles:
                break
        else:
            continue
        board.rows = board.cols = tiles
        meta = {
            "solutions": str(count),
            "source": f"banded 1-in-3, width {EXACT_COVER_WIDTH}, {layers} layers, "
            f"{source.formula.n} variables, {len(source.formula.clauses)} clauses",
            "clauses": xc.clause_text(source.formula),
        }
        wired = xc.wire(board, FAMILIES[family].member_id(size, seed))
        return Puzzle(wired.puzzle.id, wired.puzzle.grid, meta)
    raise KakuroError(f"no {family} source fits {size}x{size}")


EXACT_COVER_WIDTH = 3
"""The band width (variables per layer) of the exact-cover families."""


FAMILIES: dict[str, Family] = {
    family.name: family
    for family in (
        Family(
            "large-unique", (20, 30, 40, 50, 60), "unique", "kakuro", _large_unique,
            "big unique grids whose uniqueness needs search: cost grows with the grid",
        ),
        Family(
            "loose", (10, 20, 40, 60, 80, 100, 120), "multiple", "kakuro", _loose,
            "many solutions: a solver must find one, then a second, on up to 10,000 cells",
        ),
        Family(
            "unsat", (10, 15, 20, 25, 30), "unsat", "kakuro", _unsat,
            "one clue off by one on a unique grid: the clue totals differ, and root"
            " propagation of the pinned grid already refutes it (the control for loose-unsat)",
        ),
        Family(
            "loose-unsat", (10, 20, 40, 60, 80), "unsat", "kakuro", _loose_unsat,
            "a loose grid with one clue moved by one: nothing pins the cells, so no propagation"
            " reaches the contradiction of the totals",
            # native and CNF search need minutes even at 10x10: a counting argument
            checked_by=("cpsat", "z3", "cvc5"),
        ),
        Family(
            "ambiguous", (10, 15, 20, 25, 30), "unique", "kakuro", _ambiguous,
            "clues with many digit sets: per-run propagation leaves most cells open",
        ),
        Family(
            "cryptic", (10, 12, 14, 16, 18, 20), "unique", "pe424", _cryptic,
            "letter clues: the digit bijection couples every run of the grid",
        ),
        Family(
            "tiled", (20, 40, 60, 80, 100, 120, 140), "unique", "kakuro", _tiled,
            "independent verified 20x20 tiles: easy, so time grows with the per-cell cost"
            " alone (the scaling control, up to 12,000 white cells)",
        ),
        Family(
            "domino", (4, 6, 8, 10, 12), "multiple", "kakuro", _domino,
            "a full board's domino tilings, one solution each: the count is known exactly",
            grid=_domino_shape,
        ),
        Family(
            "domino-unsat", (4, 6, 8, 10, 12, 14), "unsat", "kakuro", _domino_unsat,
            "the mutilated board: no tiling; the clue totals differ by 2, which cuts see at"
            " once and resolution only after exponentially many steps",
            grid=_mutilated_shape,
        ),
        Family(
            "exact-cover", (84, 96, 120, 138), "multiple", "kakuro", _exact_cover,
            "planted banded 1-in-3 SAT through a parsimonious reduction: the solution count"
            " is the formula's model count (each member's meta); the holes of all-different"
            " carry the search, but the format's 20,000 cells hold 1-3 clauses only",
        ),
    )
}
"""The families by name, in the order ``build all`` makes them."""


def build(family: str, seed: int, sizes: Sequence[int] | None = None) -> list[Puzzle]:
    """The members of ``family`` for ``seed``, smallest first (all its sizes by default)."""
    chosen = get_family(family)
    return [chosen.make(size, seed) for size in sorted(sizes or chosen.sizes)]


def get_family(name: str) -> Family:
    try:
        return FAMILIES[name]
    except KeyError:
        raise KakuroError(f"unknown family {name!r}; known: {', '.join(FAMILIES)}") from None


def family_text(family: str, puzzles: Sequence[Puzzle]) -> str:
    """The file text of a family's members, in its format."""
    return dumps(puzzles, get_family(family).format)


def _parse_sizes(text: str | None) -> list[int] | None:
    if not text:
        return None
    try:
        sizes = [int(part) for part in text.split(",")]
    except ValueError:
        raise KakuroError(f"bad sizes {text!r}: use side lengths such as 10,20") from None
    if any(size < 4 for size in sizes):
        raise KakuroError(f"bad sizes {text!r}: every side is at least 4")
    return sizes


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m kakurolab.hard build FAMILY [--seed S] [--sizes 10,20] [-o FILE]``."""
    parser = argparse.ArgumentParser(prog="python -m kakurolab.hard", description=__doc__)
    sub = parser.add_subparsers(dest="action", required=True)
    make = sub.add_parser("build", help="write one family's members to data/hard/FAMILY.txt")
    make.add_argument("family", help=f"one of: {', '.join(FAMILIES)}")
    make.add_argument("--seed", type=int, default=1)
    make.add_argument("--sizes", help="side lengths (default: the family's)")
    make.add_argument("-o", "--output", help="file to write (default data/hard/FAMILY.txt)")
    sub.add_parser("list", help="the families, their sizes and claims")
    args = parser.parse_args(argv)
    try:
        if args.action == "list":
            for fam in FAMILIES.values():
                listed = ",".join(str(s) for s in fam.sizes)
                print(f"{fam.name}: {fam.claim}, sizes {listed}, {fam.format} format: {fam.why}")
            return 0
        family = get_family(args.family)
        sizes = _parse_sizes(args.sizes) or list(family.sizes)
        out = Path(args.output or f"data/hard/{family.name}.txt")
        out.parent.mkdir(parents=True, exist_ok=True)
        puzzles = []
        for size in sorted(sizes):
            start = time.perf_counter()
            puzzles.append(family.make(size, args.seed))
            print(
                f"{family.member_id(size, args.seed)}: {len(puzzles[-1].whites)} white cells, "
                f"{time.perf_counter() - start:.1f} s",
                file=sys.stderr,
            )
            # rewritten after each member: a long build that is stopped keeps what it made
            write_text(out, family_text(family.name, puzzles))
        print(out)
        return 0
    except KakuroError as exc:
        print(f"python -m kakurolab.hard: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
