"""Cryptic puzzles (Project Euler 424 style) from unique standard ones.

A random bijection writes digits as letters A-J; every clue is written in letters (sums of
ten or more as two letters, the first never the letter of 0).  With clues in letters alone a
puzzle is usually ambiguous, so the generator reveals the letter of a white cell where two
solutions disagree, and repeats until the grid *and* the letters are unique.  A last pass
hides reveals that turned out unnecessary, and the text must mention at least nine of the
ten letters (the tenth then follows from the bijection).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..backends import Backend
from ..errors import KakuroError
from ..logic import deduce
from ..model import LETTERS, Cell, Clue, Direction, Puzzle, Solution
from ..uniqueness import count
from .clues import from_clues
from .core import Generated, derive_seed, generate
from .job import DENSE_AREA, NODE_LIMIT, WHITE_GOAL, GenerationLimits
from .layout import Layout


@dataclass
class CrypticGenerated:
    puzzle: Puzzle
    solution: Solution
    stats: dict[str, Any] = field(default_factory=dict)


def letter_clue(total: int, letter_of: Mapping[int, str]) -> Clue:
    """A sum written in letters: one letter below ten, else tens letter + units letter."""
    if not 0 < total <= 45:
        raise KakuroError(f"a clue of {total} cannot be written in cryptic letters")
    text = letter_of[total] if total < 10 else letter_of[total // 10] + letter_of[total % 10]
    return Clue(letters=text)


def encrypt(
    standard: Puzzle,
    solution: Solution,
    rng: random.Random,
    *,
    backend: str | Backend = "native",
    node_limit: int | None = NODE_LIMIT,
    timeout: float | None = None,
    max_reveals: int | None = None,
) -> CrypticGenerated:
    """A cryptic puzzle with one solution (grid and letters) from a unique standard one.

    Checks are bounded by a search-node budget, not the clock, so a seed gives the same puzzle
    on any machine; ``timeout`` is only a safety net for backends without a node budget.
    """
    options = GenerationLimits(backend, node_limit=node_limit, timeout=timeout).count_options()
    digits = list(range(10))
    rng.shuffle(digits)
    letters = dict(zip(LETTERS, digits, strict=True))
    work = _Encryption(standard, solution, letters, backend, options)
    limit = max_reveals if max_reveals is not None else len(work.values)
    reveals = work.hidden_unneeded(work.revealed(rng, limit), rng)
    used = work.letters_shown(reveals, rng)
    meta = {k: v for k, v in standard.meta.items() if k != "solution"}
    meta["kind"] = "cryptic"
    puzzle = from_clues(work.layout, work.clues, standard.id, meta, letters=reveals)
    stats = {"reveals": len(reveals), "letters_used": len(used), "solves": work.solves}
    return CrypticGenerated(puzzle, work.truth, stats)


class _Encryption:
    """One standard puzzle written in letters: its clues in letters, the true grid and
    letters, and the uniqueness checks of letter reveals (``solves`` counts them)."""

    def __init__(
        self,
        standard: Puzzle,
        solution: Solution,
        letters: dict[str, int],
        backend: str | Backend,
        options: Mapping[str, Any],
    ):
        self.standard, self.backend, self.options = standard, backend, options
        self.layout = Layout.of(standard)
        self.letters = letters
        self.letter_of = {d: ch for ch, d in letters.items()}
        self.clues: dict[tuple[Direction, Cell], Clue] = {}
        for run in standard.runs:
            assert run.clue is not None and run.clue.value is not None
            self.clues[(run.direction, run.cells[0])] = letter_clue(run.clue.value, self.letter_of)
        self.values = dict(solution.values)
        self.truth = Solution(self.values, letters)
        self.solves = 0

    def check(self, shown: Mapping[Cell, str]) -> list[Solution] | None:
        """The solutions found (up to two), or None when the solver ran out of time."""
        puzzle = from_clues(self.layout, self.clues, self.standard.id, letters=shown)
        result = count(puzzle, 2, backend=self.backend, **self.options)
        self.solves += 1
        if len(result.solutions) < 2 and not result.complete:
            return None
        return result.solutions

    def revealed(self, rng: random.Random, limit: int) -> dict[Cell, str]:
        """Letters revealed in cells where two solutions disagree until the grid and the
        letters are unique."""
        name, values = self.standard.id, self.values
        reveals: dict[Cell, str] = {}
        while True:
            found = self.check(reveals)
            if found is None:
                raise KakuroError(
                    f"puzzle {name}: cryptic uniqueness check ran out of its search budget"
                )
            if len(found) == 1:
                return reveals
            if len(reveals) >= limit:
                raise KakuroError(f"puzzle {name}: still ambiguous after {limit} reveals")
            other = next(s for s in found if s != self.truth)
            diff = [c for c in self.truth.differences(other) if c not in reveals]
            if not diff:
                # Only letters differ: show a cell holding a digit whose letter is in doubt.
                doubtful = {d for ch, d in self.letters.items() if other.letters.get(ch) != d}
                diff = [c for c in sorted(values) if values[c] in doubtful and c not in reveals]
            if not diff:
                raise KakuroError(f"puzzle {name}: letters cannot be pinned by reveals")
            cell = diff[rng.randrange(len(diff))]
            reveals[cell] = self.letter_of[values[cell]]

    def hidden_unneeded(self, reveals: dict[Cell, str], rng: random.Random) -> dict[Cell, str]:
        """The reveals the solution needs (each tried hidden in random order, one solve
        each)."""
        for cell in sorted(reveals, key=lambda c: rng.random()):
            trial = {c: ch for c, ch in reveals.items() if c != cell}
            found = self.check(trial)
            if found is not None and len(found) == 1:
                reveals = trial
        return reveals

    def letters_shown(self, reveals: dict[Cell, str], rng: random.Random) -> set[str]:
        """Reveal cells (in place) until the text mentions nine letters (the tenth follows
        from the bijection); the letters it mentions."""
        used = {ch for clue in self.clues.values() for ch in str(clue)} | set(reveals.values())
        for cell in sorted(self.values, key=lambda c: rng.random()):
            if len(used) >= 9:
                break
            ch = self.letter_of[self.values[cell]]
            if ch not in used:
                reveals[cell] = ch
                used.add(ch)
        if len(used) < 9:
            raise KakuroError(f"puzzle {self.standard.id}: only {len(used)} letters can appear")
        return used


def generate_cryptic(
    size: int,
    *,
    seed: int | str = 0,
    difficulty: str = "hard",
    symmetric: bool = True,
    backend: str | Backend = "native",
    attempts: int = 20,
    pid: str | None = None,
    full_frame: bool = True,
    white_goal: float | None = WHITE_GOAL,
    dense_area: int = DENSE_AREA,
) -> CrypticGenerated:
    """A square cryptic puzzle (the PE424 format holds square grids only) in the published
    look (half-turn symmetric unless ``symmetric`` is off), unique in grid and letters and
    solved by ``logic.deduce`` (an attempt deduction cannot finish is dropped); ``full_frame``,
    ``white_goal`` and ``dense_area`` as in :func:`core.generate` (the digit grid is
    whitened before its clues become letters).

    Examples:
        >>> from kakurolab.generator import generate_cryptic
        >>> made = generate_cryptic(5, seed=0, difficulty="easy")
        >>> made.puzzle.is_cryptic, kl.prove_unique(made.puzzle).verdict.value
        (True, 'unique')
    """
    last: KakuroError | None = None
    for attempt in range(attempts):
        base: Generated = generate(
            size,
            size,
            difficulty,
            seed=f"{seed}/cryptic{attempt}",
            symmetric=symmetric,
            backend=backend,
            pid=pid or f"c{size}x{size}-s{seed}",
            full_frame=full_frame,
            white_goal=white_goal,
            dense_area=dense_area,
        )
        rng = random.Random(derive_seed(seed, "cryptic", size, attempt))
        try:
            made = encrypt(base.puzzle, base.solution, rng, backend=backend)
        except KakuroError as exc:
            last = exc
            continue
        if not deduce(made.puzzle).solved:
            last = KakuroError(f"puzzle {made.puzzle.id}: deduction stops on the letters")
            continue
        made.puzzle.meta["seed"] = seed  # type: ignore[index]
        made.stats["attempts"] = attempt + 1
        return made
    raise KakuroError(f"no cryptic {size}x{size} puzzle in {attempts} attempts: {last}")
