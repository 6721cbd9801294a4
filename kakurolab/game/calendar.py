"""The Master Calendar Campaign: one puzzle per date, the same for every player, and streaks.

The week climbs from Monday's 8x8 easy to Sunday's 16x22 Grand Master (the generator's
``expert`` level, its hardest).  A date's puzzle is ``puzzles.choose`` with the week day's
size and difficulty and the seed ``calendar:YYYY-MM-DD``, so every player (and every
machine) gets the same grid on one date.  Dates are calendar days in UTC.

A day counts for the *streak* when its puzzle was solved on that very day; the current
streak is the run of such days ending today (or yesterday, while today's puzzle is still
open); the best streak is the longest run ever.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import GameError


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


def day_of(date: dt.date) -> CalendarDay:
    return WEEK[date.weekday()]


def seed_of(date: dt.date) -> str:
    return f"calendar:{date.isoformat()}"


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
