"""Domino tilings as Kakuro (issue 47 section 2): every gadget's port relation by brute force,
and the reduction parsimonious: solution counts equal Kasteleyn's formula (computed here, on
its own), decoded tilings are valid and distinct and the same from two backends, mutilated
boards have no solution (a checked DRAT refutation and two backends), and regions with one
tiling give unique puzzles (two backends)."""

from __future__ import annotations

import json
import random
from decimal import Decimal, localcontext
from itertools import combinations
from pathlib import Path

import pytest
from _registries import require_backend

from kakurolab import hard
from kakurolab.cli import main
from kakurolab.formats import dumps, load
from kakurolab.reductions import domino
from kakurolab.reductions.domino_gadgets import (
    SIDES,
    exactly_one_low,
    node,
    port_relation,
    wire_relation,
)
from kakurolab.rulebook import structure_problems
from kakurolab.uniqueness import count

ROOT = Path(__file__).resolve().parents[1]
BACKENDS = ("cpsat", "native")


PI = Decimal("3.14159265358979323846264338327950288419716939937510582097494459")


def _cos(x: Decimal) -> Decimal:
    """cos by its Taylor series, in the 60-digit context (floats lose 12 x 12's count)."""
    term, total, k = Decimal(1), Decimal(1), 0
    while abs(term) > Decimal(10) ** -70:
        k += 2
        term *= -x * x / (k * (k - 1))
        total += term
    return total


def kasteleyn(m: int, n: int) -> int:
    """Kasteleyn (1961): the m x n board has prod over j <= ceil(m/2), k <= ceil(n/2) of
    (4cos^2(pi j/(m+1)) + 4cos^2(pi k/(n+1))) tilings (an odd side's middle index has
    cos = 0; an odd board gets a zero factor)."""
    with localcontext() as ctx:
        ctx.prec = 80
        product = Decimal(1)
        for j in range(1, (m + 1) // 2 + 1):
            for k in range(1, (n + 1) // 2 + 1):
                product *= 4 * _cos(PI * j / (m + 1)) ** 2 + 4 * _cos(PI * k / (n + 1)) ** 2
        return int(product.to_integral_value())


def tilings_by_search(board: frozenset) -> set[frozenset]:
    """Every tiling, by plain recursion: the first uncovered square pairs right or down."""
    found: set[frozenset] = set()

    def cover(left: frozenset, chosen: tuple) -> None:
        if not left:
            found.add(frozenset(chosen))
            return
        i, j = min(left)
        for other in ((i, j + 1), (i + 1, j)):
            if other in left:
                cover(left - {(i, j), other}, (*chosen, ((i, j), other)))

    cover(board, ())
    return found


def is_tiling(board: frozenset, tiling: frozenset) -> bool:
    covered = [square for pair in tiling for square in pair]
    adjacent = all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in tiling)
    return adjacent and sorted(covered) == sorted(board)


# --- the gadgets, by brute force -------------------------------------------------------


@pytest.mark.parametrize("across", [True, False], ids=["across", "down"])
@pytest.mark.parametrize(
    "present",
    [set(c) for k in range(5) for c in combinations(SIDES, k)],
    ids=lambda sides: "".join(side for side in SIDES if side in sides) or "none",
)
def test_every_node_lets_exactly_one_end_be_high_in_one_way(across, present):
    """The 1-of-k relation on the wire ends (1 = port high), each completed in exactly one
    way: any other count would break parsimony (or correctness)."""
    relation = port_relation(node(across, present))
    assert set(relation) == exactly_one_low(len(present))
    assert set(relation.values()) <= {1}


@pytest.mark.parametrize("length", [1, 2, 3, 4])
def test_a_wire_copies_its_bit_in_one_way(length):
    assert wire_relation(length) == {(1, 1): 1, (2, 2): 1}


def test_kasteleyn_formula_here_matches_the_board_count_and_the_known_values():
    assert [kasteleyn(2, 3), kasteleyn(4, 4), kasteleyn(6, 6), kasteleyn(8, 8)] == [
        3, 36, 6728, 12_988_816,
    ]
    for m, n in [(2, 3), (3, 4), (4, 5), (5, 6), (6, 6), (7, 8), (8, 8)]:
        assert domino.count_tilings(domino.full_board(m, n)) == kasteleyn(m, n), (m, n)
        if m * n <= 30:
            assert len(tilings_by_search(domino.full_board(m, n))) == kasteleyn(m, n)
    assert kasteleyn(3, 3) == domino.count_tilings(domino.full_board(3)) == 0


# --- the puzzles ----------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(2, 3), (4, 4), (3, 4)])
def test_every_solution_is_one_tiling_and_every_tiling_one_solution(shape):
    """All solutions, from two backends: the decoded tilings are valid, distinct, the same
    set from both, and exactly the board's tilings found by a plain search."""
    board = domino.full_board(*shape)
    made = domino.build(board, "t")
    assert structure_problems(made.puzzle) == []
    expected = tilings_by_search(board)
    assert len(expected) == kasteleyn(*shape)
    for backend in BACKENDS:
        require_backend(backend)
        result = count(made.puzzle, 0, backend=backend, timeout=60)
        assert result.complete
        decoded = [made.tiling(s) for s in result.solutions]
        assert len(set(decoded)) == len(decoded) == len(expected), backend
        assert all(is_tiling(board, t) for t in decoded)
        assert set(decoded) == expected, backend


@pytest.mark.parametrize("shape", [(2, 3), (4, 4), (6, 6)])
def test_kakuro_count_exact_equals_kasteleyn(shape, tmp_path, capsys):
    """The CLI's exact count (projected model counting, pyganak) on the written file."""
    pytest.importorskip("pyganak")
    made = domino.build(domino.full_board(*shape), "b")
    path = tmp_path / "b.kakuro"
    path.write_text(dumps([made.puzzle], "kakuro"))
    assert main(["count", "--exact", str(path), "--json"]) == 0
    line = json.loads(capsys.readouterr().out.splitlines()[0])
    assert line["n_solutions"] == kasteleyn(*shape)


@pytest.mark.slow
def test_the_8x8_board_counts_12988816():
    pytest.importorskip("pyganak")
    from kakurolab.proofs.analysis import exact_count

    made = domino.build(domino.full_board(8), "b8")
    assert exact_count(made.puzzle, timeout=300) == kasteleyn(8, 8) == 12_988_816


def test_a_mutilated_board_has_clue_totals_two_apart():
    """The cut identity: every white cell is in one across and one down run, so a solvable
    puzzle has equal totals; the two missing squares of one colour leave them 2 apart."""
    puzzle = domino.build(domino.mutilated_board(6), "m").puzzle
    across = sum(r.clue.value for r in puzzle.runs if r.direction == "across")
    down = sum(r.clue.value for r in puzzle.runs if r.direction == "down")
    assert abs(across - down) == 2
    full = domino.build(domino.full_board(6), "f").puzzle
    assert sum(r.clue.value if r.direction == "across" else -r.clue.value for r in full.runs) == 0


@pytest.mark.parametrize("n", [4, 6])
def test_mutilated_boards_are_unsat_by_two_backends(n):
    board = domino.mutilated_board(n)
    assert domino.count_tilings(board) == 0 == len(tilings_by_search(board))
    puzzle = domino.build(board, "m").puzzle
    for backend in BACKENDS:
        require_backend(backend)
        result = count(puzzle, 2, backend=backend, timeout=60)
        assert result.complete and not result.solutions, backend


def test_the_4x4_mutilated_board_has_a_checked_drat_refutation(tmp_path):
    pytest.importorskip("dratify")
    from kakurolab.proofs import certify, verify_certificate, write_certificate
    from kakurolab.uniqueness import Verdict

    cert = certify(domino.build(domino.mutilated_board(4), "m4").puzzle, steps=False)
    assert cert.verdict is Verdict.UNSAT and cert.certified
    report = verify_certificate(write_certificate(cert, tmp_path / "c"))
    assert report.ok and report.claim == "unsat", report.reason


def _single_tiling_regions(count_wanted: int) -> list[frozenset]:
    """Regions of a 4 x 5 box with exactly one tiling (and at least 8 squares), drawn from a
    fixed seed: found by the board count, checked against the plain search."""
    rng = random.Random(47)
    box = sorted(domino.full_board(4, 5))
    found: list[frozenset] = []
    while len(found) < count_wanted:
        region = frozenset(s for s in box if rng.random() < 0.7)
        if len(region) >= 8 and domino.count_tilings(region) == 1 and region not in found:
            found.append(region)
    return found


@pytest.mark.parametrize("index", range(3))
def test_regions_with_one_tiling_are_unique_by_two_backends(index):
    region = _single_tiling_regions(3)[index]
    (tiling,) = tilings_by_search(region)
    made = domino.build(region, "u")
    for backend in BACKENDS:
        require_backend(backend)
        result = count(made.puzzle, 2, backend=backend, timeout=60)
        assert result.complete and len(result.solutions) == 1, backend
        assert made.tiling(result.solutions[0]) == tiling


def test_a_solution_whose_ports_disagree_is_refused():
    made = domino.build(domino.full_board(2, 2), "x")
    solution = count(made.puzzle, 1, backend="native", timeout=60).solutions[0]
    edge = made.edges[0]
    values = dict(solution.values)
    low = edge.across_low
    values[edge.across_port] = low + 1 if values[edge.across_port] == low else low
    with pytest.raises(domino.KakuroError, match="disagree"):
        made.tiling(type(solution)(values))


# --- the families in data/hard ---------------------------------------------------------


def test_the_shipped_domino_members_record_their_board_and_count():
    """Each member's header holds its board and its tiling count; the count is the board's
    (dynamic programme) and Kasteleyn's, and the grid is the board's reduction."""
    for family, board_of in (("domino", domino.full_board), ("domino-unsat",
                                                              domino.mutilated_board)):
        for puzzle, size in zip(load(ROOT / "data" / "hard" / f"{family}.txt"),
                                sorted(hard.FAMILIES[family].sizes), strict=True):
            board = board_of(size)
            assert puzzle.meta["board"] == domino.board_text(board)
            expected = kasteleyn(size, size) if family == "domino" else 0
            assert int(puzzle.meta["tilings"]) == domino.count_tilings(board) == expected
            if size <= 8:
                assert puzzle.grid == domino.build(board, puzzle.id).puzzle.grid


@pytest.mark.parametrize("index", [0, 1])
def test_the_smallest_shipped_full_boards_count_exactly(index):
    pytest.importorskip("pyganak")
    from kakurolab.proofs.analysis import exact_count

    puzzle = load(ROOT / "data" / "hard" / "domino.txt")[index]
    assert exact_count(puzzle, timeout=60) == int(puzzle.meta["tilings"])


def test_a_shipped_member_decodes_through_its_board_line():
    """``of_puzzle`` rebuilds the reduction from the header; a solver's grid of the shipped
    6x6 board reads back as a tiling of it, and a changed clue is refused."""
    shipped = load(ROOT / "data" / "hard" / "domino.txt")
    puzzle = shipped[1]
    made = domino.of_puzzle(puzzle)
    assert made.board == domino.parse_board(puzzle.meta["board"]) == domino.full_board(6)
    solution = count(puzzle, 1, backend="cpsat", timeout=60).solutions[0]
    assert is_tiling(made.board, made.tiling(solution))
    assert domino.board_text(made.board) == puzzle.meta["board"]
    other = shipped[0]
    with pytest.raises(domino.KakuroError, match="not the Kakuro of its board"):
        domino.of_puzzle(type(puzzle)(puzzle.id, other.grid, puzzle.meta))
    with pytest.raises(domino.KakuroError, match="not a board"):
        domino.parse_board("##/x#")
