"""The Master Calendar Campaign: one puzzle per date, the same for every player, and streaks.

The week climbs from Monday's 8x8 easy to Sunday's 16x22 Grand Master (the ``expert``
level, the hardest of ``logic.levels``).  Four levels cannot tell seven days apart, so the
climb is in the grader's score: each week day plays only the bases of its bank cell in its
*pool* (:func:`pools`: the ``POOL`` lowest-scoring bases scoring above every base of the
day before), as built (no rotation or complement, which move the score), so the level never
falls and the score strictly rises from Monday to Sunday in every week.  A date's puzzle is
``puzzles.choose`` with the week day's size and difficulty and the seed
``calendar:YYYY-MM-DD``, which draws from the pool (:func:`drawn`), so every player (and
every machine) gets the same grid on one date.  Dates are calendar days in UTC.

The calendar is open for the last :data:`ARCHIVE_DAYS` days and today (:func:`check_open`):
a future date is not out yet, an older one is closed, so no request makes a puzzle for 1900
or keeps one for every date ever asked.  A date's puzzle stays *live* (it may not be copied
into another game, :mod:`kakurolab.game.fair`) until it leaves the archive (:func:`live_until`).

A day counts for the *streak* when its puzzle was solved on that very day; the current
streak is the run of such days ending today (or yesterday, while today's puzzle is still
open); the best streak is the longest run ever.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from .errors import GameError

if TYPE_CHECKING:
    from ..bank import BankPuzzle, Base


@dataclass(frozen=True)
class CalendarDay:
    weekday: str
    size: str
    difficulty: str
    title: str


WEEK: tuple[CalendarDay, ...] = (
    CalendarDay("Monday", "8x8", "easy", "Beginner"),
    CalendarDay("Tuesday", "8x8", "normal", "Beginner+"),
    CalendarDay("Wednesday", "10x10", "normal", "Intermediate"),
    CalendarDay("Thursday", "12x12", "normal", "Intermediate+"),
    CalendarDay("Friday", "12x12", "hard", "Advanced"),
    CalendarDay("Saturday", "16x22", "hard", "Master"),
    CalendarDay("Sunday", "16x22", "expert", "Grand Master"),
)
"""The week's table, Monday first (``date.weekday()`` indexes it)."""


def parse_date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except (TypeError, ValueError):
        raise GameError(f"a date is written YYYY-MM-DD, got {str(text)[:40]!r}") from None


def today(now: float) -> dt.date:
    """The calendar day (UTC) of a clock reading."""
    return dt.datetime.fromtimestamp(now, dt.UTC).date()


ARCHIVE_DAYS = 28
"""Past dates a player may still open a calendar game for (four weeks of the climb)."""


def check_open(date: dt.date, today_: dt.date) -> None:
    """Refuse a date outside the calendar's range: after today, or older than the archive."""
    if date > today_:
        raise GameError(f"the calendar puzzle of {date.isoformat()} is not out yet")
    first = today_ - dt.timedelta(days=ARCHIVE_DAYS)
    if date < first:
        raise GameError(
            f"the calendar keeps the last {ARCHIVE_DAYS} days: {date.isoformat()} is before "
            f"{first.isoformat()}"
        )


def live_until(date: dt.date) -> float:
    """The clock reading at which a date's puzzle leaves the archive (no longer playable)."""
    end = date + dt.timedelta(days=ARCHIVE_DAYS + 1)
    return dt.datetime(end.year, end.month, end.day, tzinfo=dt.UTC).timestamp()


def day_of(date: dt.date) -> CalendarDay:
    return WEEK[date.weekday()]


SEED_PREFIX = "calendar:"

POOL = 4
"""Bases a week day draws from: few enough that seven pools fit one above the other."""


def seed_of(date: dt.date) -> str:
    return f"{SEED_PREFIX}{date.isoformat()}"


def date_of_seed(seed: str | int) -> dt.date | None:
    """The date of a calendar seed (``seed_of``), None for any other seed."""
    if not isinstance(seed, str) or not seed.startswith(SEED_PREFIX):
        return None
    try:
        return dt.date.fromisoformat(seed[len(SEED_PREFIX) :])
    except ValueError:
        return None


@cache
def pools() -> tuple[tuple[str, ...], ...]:
    """Per week day (Monday first), the ids of the bank bases it draws from.

    Greedy, Monday first: a day takes the ``POOL`` lowest-scoring bases of its cell that
    score above every base of the day before, so each pool lies wholly above the last.  A
    bank too flat to fit seven pools is refused (its tests say so)."""
    from .. import bank

    pools: list[tuple[str, ...]] = []
    floor = float("-inf")
    for day in WEEK:
        ranked = sorted(bank.bases(day.size, day.difficulty), key=lambda b: (b.score, b.id))
        above = [b for b in ranked if b.score > floor][:POOL]
        if not above:
            raise GameError(f"the bank has no {day.size} {day.difficulty} base above {floor}")
        pools.append(tuple(b.id for b in above))
        floor = max(b.score for b in above)
    return tuple(pools)


def score_band(weekday: int) -> tuple[float, float]:
    """The grade scores (low, high] a week day's puzzle may have: from the highest score of
    the day before's pool to the highest of its own (Monday from -inf, Sunday to +inf).  The
    bands are disjoint and rise, so any week whose puzzles each fall in their day's band
    rises strictly; a maker of fresh (not banked) calendar puzzles can draw seeds until the
    grade falls in the band (each band holds at least its pool's bank bases)."""
    highs = [max(b.score for b in _pool_bases(day)) for day in range(len(WEEK))]
    low = float("-inf") if weekday == 0 else highs[weekday - 1]
    high = float("inf") if weekday == len(WEEK) - 1 else highs[weekday]
    return low, high


def fits(date: dt.date, score: float) -> bool:
    """Whether a puzzle of this grade score may be the date's (``score_band``)."""
    low, high = score_band(date.weekday())
    return low < score <= high


def _pool_bases(weekday: int) -> list[Base]:
    from .. import bank

    day = WEEK[weekday]
    ids = set(pools()[weekday])
    return [b for b in bank.bases(day.size, day.difficulty) if b.id in ids]


def drawn(date: dt.date) -> BankPuzzle:
    """The date's puzzle: a base of its week day's pool, as built, the same everywhere."""
    from .. import bank

    day = day_of(date)
    pool = pools()[date.weekday()]
    digest = hashlib.sha256(seed_of(date).encode()).digest()
    chosen = pool[int.from_bytes(digest[:8], "big") % len(pool)]
    (base,) = (b for b in bank.bases(day.size, day.difficulty) if b.id == chosen)
    return bank.variant_of(base, bank.IDENTITY)


@dataclass(frozen=True)
class Streaks:
    current: int
    best: int


def streaks(solved_on_time: Iterable[dt.date], today_: dt.date) -> Streaks:
    """Current and best streak from the dates whose puzzle was solved on the day."""
    days = set(solved_on_time)
    best = 0
    for day in days:
        if day - dt.timedelta(days=1) in days:
            continue  # not the first day of its run
        length = 1
        while day + dt.timedelta(days=length) in days:
            length += 1
        best = max(best, length)
    end = today_ if today_ in days else today_ - dt.timedelta(days=1)
    current = 0
    while end - dt.timedelta(days=current) in days:
        current += 1
    return Streaks(current, best)
