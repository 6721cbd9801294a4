"""The Kakuro Mastery Formula, the Battle Matrix points, target times and tie-breakers.

Every number of the rulebook's scoring section (docs/sources/rulebook.txt, 2.6.3 and 2.7) is a
constant here, and every rule is one small function, so the tests can check each one against a
worked example (docs/game.md shows them).

Base score by size: the rulebook fixes three sheets (8x8 = 500, 12x12 = 1,200, 16x22 = 3,000).
Other sizes are scored by their *playing area*, the cells a sheet offers for white cells
((rows - 1) x (cols - 1): the first row and column hold only clues), piecewise linearly through
the three points (49 -> 500, 121 -> 1,200, 315 -> 3,000), continued with the nearest segment's
slope outside them, rounded to the nearest 10 and never below 100.  The area, not the puzzle's
own white cells, is the measure, so every 8x8 sheet is worth exactly the rulebook's 500.

Target times (the speed bonus's benchmark) are measured, not invented: a puzzle's *solving
estimate* is ``SECONDS_PER_CELL`` per white cell (reading two clues and writing a digit) plus
``SECONDS_PER_EFFORT`` per unit of the grade's ``effort`` (weighted deduction steps,
:mod:`kakurolab.logic.grading`), plus ``SECONDS_PER_OPEN_CELL`` for every cell deduction
leaves open (trial and error); :data:`TARGET_TIMES` holds, per size and difficulty, the median
estimate over the puzzles games are played on, the verified bank's bases
(:func:`measure_target`, re-checked: 8x8 easy in the default suite, all in the slow one), rounded
up to a whole half minute.  A size or difficulty outside the table uses the game's own puzzle's
estimate.  The three per-second constants are the one calibration: they assume a practised
human and are to be refitted from recorded games.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from ..model import Puzzle

BASE_POINTS: tuple[tuple[int, int], ...] = ((49, 500), (121, 1200), (315, 3000))
"""(playing-area cells, base score) of the rulebook's three sheets: 8x8, 12x12, 16x22."""

MIN_BASE = 100
SPEED_STEP_S = 30
SPEED_STEP_POINTS = 10
FLAWLESS_BONUS = 500
UNUSED_SHIELD_POINTS = 100

RUN_BONUS = 100
"""Battle Matrix: completing a whole clue entry."""
ILLEGAL_PENALTY = 150
"""Battle Matrix: a digit that differs from the solution (it is not placed)."""

SECONDS_PER_CELL = 5.0
SECONDS_PER_EFFORT = 4.0
SECONDS_PER_OPEN_CELL = 30.0


def playing_area(nrows: int, ncols: int) -> int:
    """Cells a sheet of this size offers for white cells (the clue row/column excluded)."""
    return max(0, nrows - 1) * max(0, ncols - 1)


def base_score(nrows: int, ncols: int) -> int:
    """The base completion score of a sheet: exact at the rulebook's three sizes,
    piecewise linear in the playing area between and beyond them."""
    area = playing_area(nrows, ncols)
    points = BASE_POINTS
    if area <= points[0][0]:
        (x0, y0), (x1, y1) = points[0], points[1]
    elif area >= points[-1][0]:
        (x0, y0), (x1, y1) = points[-2], points[-1]
    else:
        (x0, y0), (x1, y1) = next(
            (a, b) for a, b in itertools.pairwise(points) if a[0] <= area <= b[0]
        )
    value = y0 + (y1 - y0) * (area - x0) / (x1 - x0)
    return max(MIN_BASE, round(value / 10.0) * 10)


def speed_bonus(elapsed_s: float, target_s: float) -> int:
    """+10 for every *full* 30 s under the target (nothing at or over it)."""
    if elapsed_s >= target_s:
        return 0
    return SPEED_STEP_POINTS * int((target_s - elapsed_s) // SPEED_STEP_S)


@dataclass(frozen=True)
class Mastery:
    """The Mastery Formula's parts for one player who solved the grid (all zero otherwise)."""

    base: int = 0
    speed: int = 0
    flawless: int = 0
    shields: int = 0

    @property
    def total(self) -> int:
        return self.base + self.speed + self.flawless + self.shields

    def to_json(self) -> dict[str, int]:
        return {
            "base": self.base,
            "speed": self.speed,
            "flawless": self.flawless,
            "shields": self.shields,
            "total": self.total,
        }


def mastery(
    *,
    nrows: int,
    ncols: int,
    elapsed_s: float,
    target_s: float,
    shields_used: int,
    shields_left: int,
    illegal_entries: int,
) -> Mastery:
    """The Kakuro Mastery Formula for a player who correctly solved the grid."""
    flawless = shields_used == 0 and illegal_entries == 0
    return Mastery(
        base=base_score(nrows, ncols),
        speed=speed_bonus(elapsed_s, target_s),
        flawless=FLAWLESS_BONUS if flawless else 0,
        shields=UNUSED_SHIELD_POINTS * shields_left,
    )


@dataclass(frozen=True)
class Standing:
    """One player's final line: score and the three tie-breakers, then the rank."""

    player_id: str
    name: str
    score: int
    time_s: float | None
    shields_used: int
    best_clue: int
    solved: bool
    rank: int = 0
    breakdown: Mastery | None = None
    flagged: bool = False
    """Finished faster than a human could (:func:`kakurolab.game.fair.implausible`): the
    line stands, marked for whoever runs the server."""

    def tie_key(self) -> tuple[float, float, int, int]:
        """Higher score; then faster time (no time last); fewer shields; higher clue."""
        time_s = self.time_s if self.time_s is not None else math.inf
        return (-self.score, time_s, self.shields_used, -self.best_clue)

    def to_json(self) -> dict[str, object]:
        record: dict[str, object] = {
            "rank": self.rank,
            "player_id": self.player_id,
            "name": self.name,
            "score": self.score,
            "solved": self.solved,
            "time_s": None if self.time_s is None else round(self.time_s, 3),
            "shields_used": self.shields_used,
            "best_clue": self.best_clue,
            "flagged": self.flagged,
        }
        if self.breakdown is not None:
            record["breakdown"] = self.breakdown.to_json()
        return record


def ranked(standings: Sequence[Standing]) -> list[Standing]:
    """Standings sorted by score and the rulebook's tie-breakers; players equal on every one
    of them share a rank (1, 1, 3)."""
    order = sorted(standings, key=Standing.tie_key)
    result: list[Standing] = []
    for i, line in enumerate(order):
        same = i and order[i - 1].tie_key() == line.tie_key()
        rank = result[-1].rank if same else i + 1
        result.append(_with_rank(line, rank))
    return result


def _with_rank(line: Standing, rank: int) -> Standing:
    from dataclasses import replace

    return replace(line, rank=rank)


# --- the end screen's words ----------------------------------------------------------------------


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def mastery_reasons(
    line: Standing, *, target_s: float, illegal: int, timed_out: bool, floor_s: float
) -> list[str]:
    """Why each bonus of the Mastery Formula was given or not, in the formula's own units
    (seconds against the target, counted in full half-minutes), one sentence each."""
    name = line.name
    if not line.solved or line.time_s is None:
        until = " before the time ran out" if timed_out else ""
        return [f"{name}: no score: the grid was not solved{until}"]
    b = line.breakdown or Mastery()
    t, under = int(line.time_s), target_s - line.time_s
    if under >= SPEED_STEP_S:
        speed = (f"Speed +{b.speed}: {t} s against a target of {target_s:g} s, {int(under)} s "
                 f"under = {int(under // SPEED_STEP_S)} full {SPEED_STEP_S} s")  # fmt: skip
    else:
        short = "not under it"
        if under > 0:
            short = f"only {int(under)} s under (less than a full {SPEED_STEP_S} s)"
        speed = f"Speed +0: {t} s against a target of {target_s:g} s, {short}"
    if b.flawless:
        flawless = f"Flawless Logic +{b.flawless}: no Logic Shield spent, no illegal entry"
    else:
        why = []
        if line.shields_used:
            why.append(_count(line.shields_used, "Logic Shield spent", "Logic Shields spent"))
        if illegal:
            why.append(_count(illegal, "illegal entry", "illegal entries"))
        flawless = f"Flawless Logic +0: {' and '.join(why) or 'an illegal entry'}"
    left = b.shields // UNUSED_SHIELD_POINTS
    out = [speed, flawless, f"Unused shields +{b.shields}: {left} left × {UNUSED_SHIELD_POINTS}"]
    if line.flagged:
        out.append(f"flagged: {t} s is under the human floor of {floor_s:g} s for this grid")
    return [f"{name}: {text}" for text in out]


TIME_LABELS = {"mastery": "completion time", "battle": "time on own turns"}
"""The first tie-breaker, the *official completion time*, as each scoring measures it: start
to solve (Mastery Formula); the time spent on one's own turns (Battle Matrix)."""


def tie_notes(lines: Sequence[Standing], scoring: str) -> list[str]:
    """For each pair of neighbours on equal points: which tie-breaker put one ahead (with
    both values), or that they share the rank; players who did not score share theirs."""
    def seconds(x: Standing) -> str:
        return "no time" if x.time_s is None else f"{int(x.time_s)} s"

    notes = []
    for a, b in itertools.pairwise(lines):
        if a.score != b.score:
            continue
        if a.rank == b.rank:
            unscored = not a.solved and not b.solved and a.score == 0
            why = "neither scored" if unscored else "equal on every tie-breaker"
            notes.append(f"{a.name} and {b.name} share rank {a.rank} ({why})")
            continue
        if a.time_s != b.time_s:
            by = f"{TIME_LABELS.get(scoring, 'completion time')} {seconds(a)} against {seconds(b)}"
        elif a.shields_used != b.shields_used:
            by = f"shields used {a.shields_used} against {b.shields_used}"
        else:
            by = f"highest clue completed {a.best_clue} against {b.best_clue}"
        notes.append(f"{a.name} ahead of {b.name} on equal points by {by}")
    return notes


# --- target times --------------------------------------------------------------------------------

TARGET_TIMES: dict[tuple[str, str], int] = {
    ("8x8", "easy"): 480,
    ("8x8", "normal"): 600,
    ("8x8", "hard"): 780,
    ("8x8", "expert"): 930,
    ("10x10", "easy"): 840,
    ("10x10", "normal"): 1050,
    ("10x10", "hard"): 1500,
    ("10x10", "expert"): 1620,
    ("12x12", "easy"): 1260,
    ("12x12", "normal"): 1560,
    ("12x12", "hard"): 2160,
    ("12x12", "expert"): 2310,
    ("16x22", "easy"): 3360,
    ("16x22", "normal"): 4290,
    ("16x22", "hard"): 5850,
    ("16x22", "expert"): 6600,
}
"""Seconds, per (size, difficulty): the measured median solving estimate (see module doc);
filled in from :func:`measure_target` (``python -m kakurolab.game.scoring`` prints it)."""

TARGET_SEEDS: tuple[str, ...] = ("target-0", "target-1", "target-2")
"""Generator seeds the table is measured on."""


def estimate_seconds(puzzle: Puzzle) -> float:
    """How long a practised human needs for this puzzle, from its grade (module doc)."""
    from ..logic import deduce
    from ..logic.grading import grade

    deduction = deduce(puzzle)
    measured = grade(puzzle, deduction)
    open_cells = measured.white_cells - len(deduction.state.placed)
    return (
        SECONDS_PER_CELL * measured.white_cells
        + SECONDS_PER_EFFORT * measured.effort
        + SECONDS_PER_OPEN_CELL * open_cells
    )


def round_up_half_minute(seconds: float) -> int:
    return int(SPEED_STEP_S * math.ceil(seconds / SPEED_STEP_S))


def measure_target(size: str, difficulty: str, seeds: Sequence[str] = TARGET_SEEDS) -> int:
    """The target time of a size and difficulty: the median estimate over the puzzles games
    are played on: the bank's bases where the bank holds the size and level (a variant
    estimates the same as its base), else generated puzzles."""
    from .. import bank

    if bank.holds(size, difficulty):
        puzzles = [base.puzzle for base in bank.bases(size, difficulty)]
    else:
        from ..generator import generate, parse_size

        nrows, ncols = parse_size(size)
        puzzles = [generate(nrows, ncols, difficulty, seed=seed).puzzle for seed in seeds]
    return round_up_half_minute(statistics.median(estimate_seconds(p) for p in puzzles))


def target_seconds(size: str, difficulty: str | None, puzzle: Puzzle) -> int:
    """The table's target for this size and difficulty, else the puzzle's own estimate."""
    known = TARGET_TIMES.get((size, difficulty or ""))
    if known is not None:
        return known
    return round_up_half_minute(estimate_seconds(puzzle))


TABLE_SIZES: tuple[str, ...] = ("8x8", "10x10", "12x12", "16x22")
TABLE_DIFFICULTIES: tuple[str, ...] = ("easy", "normal", "hard", "expert")


if __name__ == "__main__":  # pragma: no cover - regenerates TARGET_TIMES
    import sys

    wanted = sys.argv[1:] or [f"{s}:{d}" for s in TABLE_SIZES for d in TABLE_DIFFICULTIES]
    for item in wanted:
        size, difficulty = item.split(":")
        print(f'    ("{size}", "{difficulty}"): {measure_target(size, difficulty)},', flush=True)
