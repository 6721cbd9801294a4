"""The verified bank: generated puzzles proved unique at build time, for instant play.

PuzzleHub's approach (docs/sources/puzzlehub-kakuro-v2.es.txt): generating a unique puzzle
can take seconds, a player should not wait, so the expensive work happens once.  For every
size x difficulty the bank holds ``PER_CELL`` canonical *bases*, each generated from its seed
and proved unique by two independent backends (the native search and CP-SAT) when the bank is
built; at play time :func:`pick` draws a base and one of its 16 symmetry/complement variants
(``generator.transforms``), which keep the puzzle's single solution, so picking is a table
lookup and a transform.

The bases ship in the package (``kakurolab/data/bank/``: one ``kakuro``-format file per cell,
with solutions, and ``manifest.json``: base id, seed, size, difficulty, grade and a hash of
puzzle and solution).  ``kakuro bank build`` regenerates them from their seeds, ``kakuro bank
verify`` re-checks them; the default tests re-verify every base, the slow tests every variant.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import random
import time
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .errors import KakuroError
from .fileio import write_text
from .formats import dumps, loads
from .generator.transforms import Transform, all_transforms, transform_puzzle, transform_solution
from .model import BLOCK, ClueCell, Puzzle, Solution, White
from .rulebook import solution_problems

# Building and proving (generator.core, logic, uniqueness and the backends) are imported in
# the functions that need them: a game that only picks stays light.

SIZES: tuple[str, ...] = ("6x6", "8x8", "10x10", "12x12", "16x22", "20x20")
"""PuzzleHub's four sizes and the rulebook's two Grand Master sheets (rows x cols)."""

DIFFICULTIES: tuple[str, ...] = ("easy", "normal", "hard", "expert")
"""``logic.levels.LEVEL_NAMES`` (written out: picking stays free of the logic imports; a test
ties the two)."""

PER_CELL = 16
"""Bases per size x difficulty."""

BACKENDS: tuple[str, ...] = ("native", "cpsat")
"""The two independent backends every base is proved unique by at build time."""

BANK_DIR = Path(__file__).resolve().parent / "data" / "bank"
MANIFEST = "manifest.json"

VARIANTS: tuple[Transform, ...] = tuple(all_transforms())
"""The 16 variants a base is played in (8 geometric x digit complement)."""

IDENTITY: Transform = VARIANTS[0]
"""The base as built (its grade is the manifest's: rotations may change the order, and so
the count, of deduction steps)."""


@dataclass(frozen=True)
class BankPuzzle:
    """A puzzle picked from the bank: a variant of a verified base, with its solution."""

    puzzle: Puzzle
    solution: Solution
    base: str
    variant: Transform
    size: str
    difficulty: str


@dataclass(frozen=True)
class Base:
    """One verified base as the manifest records it, with its puzzle and solution."""

    id: str
    seed: int
    size: str
    difficulty: str
    grade: str
    score: float
    ambiguity: float
    hash: str
    puzzle: Puzzle
    solution: Solution

    def record(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "seed": self.seed,
            "size": self.size,
            "difficulty": self.difficulty,
            "grade": self.grade,
            "score": round(self.score, 3),
            "ambiguity": round(self.ambiguity, 3),
            "hash": self.hash,
            "generator": self.puzzle.meta.get("generator"),
        }


def cell_file(size: str, difficulty: str) -> str:
    return f"{size}-{difficulty}.kakuro"


def _check_cell(size: str, difficulty: str) -> None:
    if size not in SIZES:
        raise KakuroError(f"unknown bank size {size!r}; known: {', '.join(SIZES)}")
    if difficulty not in DIFFICULTIES:
        raise KakuroError(
            f"unknown bank difficulty {difficulty!r}; known: {', '.join(DIFFICULTIES)}"
        )


@cache
def manifest(directory: Path = BANK_DIR) -> dict[str, Any]:
    """The bank's manifest (generator version, backends, one record per base)."""
    path = directory / MANIFEST
    if not path.exists():
        raise KakuroError(f"the puzzle bank has no manifest ({path}); run `kakuro bank build`")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def holds(size: str, difficulty: str, directory: Path = BANK_DIR) -> bool:
    """Whether the bank has bases of this size and difficulty (any name: False if unknown)."""
    return any(
        (r["size"], r["difficulty"]) == (size, difficulty) for r in manifest(directory)["bases"]
    )


@cache
def bases(size: str, difficulty: str, directory: Path = BANK_DIR) -> tuple[Base, ...]:
    """The bases of one size x difficulty, loaded on first use and kept."""
    _check_cell(size, difficulty)
    records = {
        r["id"]: r
        for r in manifest(directory)["bases"]
        if r["size"] == size and r["difficulty"] == difficulty
    }
    path = directory / cell_file(size, difficulty)
    if not records or not path.exists():
        raise KakuroError(f"the puzzle bank has no {size} {difficulty} puzzles")
    found = []
    # the file was checked when it was built (and ``verify`` re-checks it): parse only
    for puzzle in loads(path.read_text(encoding="utf-8"), format="kakuro", check=False):
        record = records.get(puzzle.id)
        solution = puzzle.meta.get("solution")
        if record is None or not isinstance(solution, Solution):
            raise KakuroError(f"bank file {path.name}: puzzle {puzzle.id} is not in the manifest")
        found.append(_base(record, puzzle, solution))
    return tuple(found)


def _base(record: dict[str, Any], puzzle: Puzzle, solution: Solution) -> Base:
    return Base(
        record["id"],
        int(record["seed"]),
        record["size"],
        record["difficulty"],
        record["grade"],
        float(record["score"]),
        float(record["ambiguity"]),
        record["hash"],
        puzzle,
        solution,
    )


def pick(size: str, difficulty: str, seed: int | str | None = None) -> BankPuzzle:
    """A random variant of a random base of the cell; the same ``seed`` gives the same one."""
    _check_cell(size, difficulty)
    choices = bases(size, difficulty)
    rng = random.Random(f"bank:{size}:{difficulty}:{seed}") if seed is not None else random
    base = choices[rng.randrange(len(choices))]
    variant = VARIANTS[rng.randrange(len(VARIANTS))]
    return variant_of(base, variant)


def variant_of(base: Base, variant: Transform) -> BankPuzzle:
    """``base`` seen through ``variant``, with the solution mapped along."""
    puzzle = transform_puzzle(base.puzzle, variant)
    solution = transform_solution(base.solution, base.puzzle.shape, variant)
    return BankPuzzle(puzzle, solution, base.id, variant, base.size, base.difficulty)


def puzzle_hash(puzzle: Puzzle, solution: Solution) -> str:
    """A digest of the grid (blocks, clues, white cells) and the solution's digits."""
    rows = []
    for row in puzzle.grid:
        tokens = []
        for square in row:
            if isinstance(square, White):
                tokens.append(".")
            elif isinstance(square, ClueCell):
                tokens.append(f"{square.down or ''}\\{square.across or ''}")
            else:
                tokens.append("#" if square == BLOCK else "?")
        rows.append(" ".join(tokens))
    digits = ",".join(f"{r}:{c}={d}" for (r, c), d in sorted(solution.values.items()))
    text = "\n".join(rows) + "\n" + digits
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def proof_problems(
    puzzle: Puzzle, solution: Solution, backends: Iterable[str] = BACKENDS
) -> list[str]:
    """Why ``solution`` is not the proved single solution of ``puzzle`` (empty: it is),
    by each backend in turn."""
    from .uniqueness import Verdict, prove_unique

    problems = [f"solution: {p}" for p in solution_problems(puzzle, solution)]
    for backend in backends:
        proof = prove_unique(puzzle, backend=backend)
        if proof.verdict is not Verdict.UNIQUE:
            problems.append(f"{backend}: {proof.verdict.value}")
        elif proof.solutions[0].values != solution.values:
            problems.append(f"{backend}: its one solution is not the stored one")
    return problems


Progress = Callable[[str], None]


def build_cell(
    size: str,
    difficulty: str,
    *,
    per_cell: int = PER_CELL,
    first_seed: int = 0,
    max_seeds: int = 200,
    max_layouts: int = 12,
    backends: tuple[str, ...] = BACKENDS,
    report: Progress | None = None,
    have: Collection[int] = (),
    on_base: Callable[[Base], None] | None = None,
) -> list[Base]:
    """``per_cell`` verified bases of one cell from seeds ``first_seed``, ``first_seed`` + 1,
    ...: each generated, graded, solved by deduction and proved unique by ``backends``.  A
    seed whose puzzle fails any check, or that finds none within ``max_layouts`` layouts,
    is skipped (and reported).  Seeds in ``have`` (bases already built) count and are not
    made again; ``on_base`` gets each new base as soon as it is proved (a long build keeps
    what it made when stopped)."""
    _check_cell(size, difficulty)
    from .generator import parse_size

    nrows, ncols = parse_size(size)
    say = report or (lambda line: None)
    found: list[Base] = []
    for seed in range(first_seed, first_seed + max_seeds):
        if len(found) + len(have) >= per_cell:
            break
        if seed in have:
            continue
        start = time.perf_counter()
        base = _seed_base(size, difficulty, (nrows, ncols), seed, max_layouts, backends, say)
        if base is None:
            continue
        found.append(base)
        if on_base:
            on_base(base)
        say(
            f"{size} {difficulty} seed {seed}: base {len(found) + len(have)}/{per_cell} "
            f"({base.grade}, {time.perf_counter() - start:.1f} s)"
        )
    return found


def _seed_base(
    size: str,
    difficulty: str,
    shape: tuple[int, int],
    seed: int,
    max_layouts: int,
    backends: tuple[str, ...],
    say: Progress,
) -> Base | None:
    """The base one seed makes, proved and graded, or None (said why) when it fails."""
    from .generator import generate
    from .logic.grading import grade

    try:
        made = generate(*shape, difficulty, seed=seed, max_layouts=max_layouts)
    except KakuroError as exc:
        say(f"{size} {difficulty} seed {seed}: skipped ({exc})")
        return None
    problems = proof_problems(made.puzzle, made.solution, backends)
    graded = grade(made.puzzle)
    if not graded.solved:
        problems.append("deduction does not solve it")
    elif graded.grade != difficulty:
        problems.append(f"it grades {graded.grade}")
    if problems:
        say(f"{size} {difficulty} seed {seed}: rejected ({'; '.join(problems)})")
        return None
    pid = f"{size}-{difficulty}-{seed}"
    puzzle = Puzzle(pid, made.puzzle.grid, {**made.puzzle.meta, "solution": made.solution})
    return Base(
        pid,
        seed,
        size,
        difficulty,
        graded.grade,
        graded.score,
        graded.ambiguity,
        puzzle_hash(puzzle, made.solution),
        puzzle,
        made.solution,
    )


def add_base(base: Base, directory: Path = BANK_DIR) -> None:
    """Add (or replace) one base in its cell file and the manifest."""
    directory.mkdir(parents=True, exist_ok=True)
    lock = os.open(directory, os.O_RDONLY)  # two builds may share a bank directory
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        path = directory / cell_file(base.size, base.difficulty)
        old = (
            loads(path.read_text(encoding="utf-8"), format="kakuro", check=False)
            if path.exists()
            else []
        )
        kept = {p.id: p for p in old if p.id != base.id}
        puzzles = sorted([*kept.values(), base.puzzle], key=lambda p: int(p.id.rsplit("-", 1)[1]))
        write_text(path, dumps(puzzles, "kakuro"))
        ids = {p.id for p in puzzles}
        _update(
            directory / MANIFEST,
            lambda r: (
                r["id"] != base.id
                and ((r["size"], r["difficulty"]) != (base.size, base.difficulty) or r["id"] in ids)
            ),
            [base.record()],
        )
    finally:
        os.close(lock)
    manifest.cache_clear()
    bases.cache_clear()


def seeds_built(size: str, difficulty: str, directory: Path = BANK_DIR) -> set[int]:
    """Seeds of the cell's bases already in the bank (none when there is no bank yet).

    Refused when another generator version built the bank: its seeds now make other
    puzzles, and resuming would stamp the old bases with the new version."""
    path = directory / MANIFEST
    if not path.exists():
        return set()
    data = json.loads(path.read_text(encoding="utf-8"))
    from .generator import GENERATOR_VERSION

    if data.get("generator_version") != GENERATOR_VERSION:
        raise KakuroError(
            f"the bank in {directory} was built by generator {data.get('generator_version')}, "
            f"this is {GENERATOR_VERSION}: its seeds may now make other puzzles; build it afresh"
        )
    return {
        int(r["seed"]) for r in data["bases"] if (r["size"], r["difficulty"]) == (size, difficulty)
    }


def write_cell(
    found: list[Base],
    directory: Path = BANK_DIR,
    *,
    size: str | None = None,
    difficulty: str | None = None,
) -> None:
    """One cell's bases into its file, and their records into the manifest, replacing what
    the cell held (``found`` empty: the cell named by ``size`` and ``difficulty`` is
    emptied)."""
    if found:
        size, difficulty = found[0].size, found[0].difficulty
    if size is None or difficulty is None:
        return
    directory.mkdir(parents=True, exist_ok=True)
    cell = directory / cell_file(size, difficulty)
    if found:
        write_text(cell, dumps([b.puzzle for b in found], "kakuro"))
    elif cell.exists():
        cell.unlink()
    path = directory / MANIFEST
    lock = os.open(directory, os.O_RDONLY)  # two builds may share a bank directory
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _merge(path, size, difficulty, found)
    finally:
        os.close(lock)
    manifest.cache_clear()
    bases.cache_clear()


def _merge(path: Path, size: str, difficulty: str, found: list[Base]) -> None:
    """Replace one cell's records in the manifest at ``path``."""
    _update(
        path,
        lambda r: (r["size"], r["difficulty"]) != (size, difficulty),
        [b.record() for b in found],
    )


def _update(path: Path, keep: Callable[[dict[str, Any]], bool], new: list[dict[str, Any]]) -> None:
    """The manifest at ``path`` with the records ``keep`` accepts plus ``new``."""
    old: dict[str, Any] = (
        json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"bases": []}
    )
    records = [r for r in old["bases"] if keep(r)] + new
    order = {(s, d): i for i, (s, d) in enumerate((s, d) for s in SIZES for d in DIFFICULTIES)}
    records.sort(key=lambda r: (order.get((r["size"], r["difficulty"]), 99), r["seed"]))
    from .generator import GENERATOR_VERSION

    data = {
        "generator_version": GENERATOR_VERSION,
        "backends": list(BACKENDS),
        "command": "kakuro bank build",
        "per_cell": PER_CELL,
        "bases": records,
    }
    write_text(path, json.dumps(data, indent=1) + "\n")


def verify(
    directory: Path = BANK_DIR,
    backends: tuple[str, ...] = ("native",),
    *,
    variants: Iterable[Transform] = (),
    report: Progress | None = None,
) -> list[str]:
    """Every problem of the shipped bank (empty: all verified): each manifest record has its
    base, hashes match, solutions break no rule, and ``backends`` prove each base (and each
    of ``variants`` of it) unique with the stored solution."""
    problems: list[str] = []
    data = manifest(directory)
    cells = sorted({(r["size"], r["difficulty"]) for r in data["bases"]})
    for size, difficulty in cells:
        loaded = {b.id: b for b in bases(size, difficulty, directory)}
        wanted = [
            r["id"] for r in data["bases"] if (r["size"], r["difficulty"]) == (size, difficulty)
        ]
        problems += [
            f"{pid}: in the manifest, not in the file" for pid in wanted if pid not in loaded
        ]
        for base in loaded.values():
            if puzzle_hash(base.puzzle, base.solution) != base.hash:
                problems.append(f"{base.id}: hash does not match the manifest")
            found = [
                f"{base.id}: {p}" for p in proof_problems(base.puzzle, base.solution, backends)
            ]
            for variant in variants:
                picked = variant_of(base, variant)
                found += [
                    f"{base.id}~{variant.name}: {p}"
                    for p in proof_problems(picked.puzzle, picked.solution, backends)
                ]
            problems += found
            if report:
                report(f"{base.id}: {'ok' if not found else 'FAILED'}")
    return problems


@dataclass(frozen=True)
class CellFigures:
    """How one bank cell meets a solver: the grades of its bases and the means of what
    deduction needs (the level table of docs/generator.md)."""

    size: str
    difficulty: str
    grades: tuple[str, ...]
    steps: float
    """Mean deduction steps."""
    hard_steps: float
    """Mean steps of run sets and above (weight 5 or more)."""
    hardest_weight: float
    """Mean weight of the hardest technique."""
    hardest: str
    """The hardest technique most bases need."""
    hardest_uses: float
    """Mean uses of each base's hardest technique."""
    ambiguity: float
    score: float


def cell_figures(size: str, difficulty: str, directory: Path = BANK_DIR) -> CellFigures:
    """Deduce and grade every base of a cell (about 20 ms a base at 20x20)."""
    from collections import Counter

    from .logic import BY_NAME, deduce
    from .logic.grading import grade

    grades, steps, hard, weights, uses, amb, scores = [], [], [], [], [], [], []
    hardest: Counter[str] = Counter()
    for base in bases(size, difficulty, directory):
        deduction = deduce(base.puzzle)
        graded = grade(base.puzzle, deduction)
        step_weights = [BY_NAME[s.technique].weight for s in deduction.steps]
        grades.append(graded.grade)
        steps.append(len(step_weights))
        hard.append(sum(w >= 5 for w in step_weights))
        weights.append(max(step_weights, default=0))
        uses.append(graded.hardest_uses)
        amb.append(graded.ambiguity)
        scores.append(graded.score)
        hardest[graded.hardest or "none"] += 1
    n = max(len(grades), 1)
    return CellFigures(
        size,
        difficulty,
        tuple(grades),
        sum(steps) / n,
        sum(hard) / n,
        sum(weights) / n,
        hardest.most_common(1)[0][0] if hardest else "none",
        sum(uses) / n,
        sum(amb) / n,
        sum(scores) / n,
    )
