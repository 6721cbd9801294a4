"""Standings across games: the daily Calendar leaderboard, the Arena leaderboard and the
Calendar archive (issue 50 §1; docs/game.md, "Standings").

Every board is built from the store's *final* results (a game's standing lines, written
when it ends, :meth:`Store.finish`): a game still running has none, so a day that is still
open shows only finished results, and no board ever carries a grid, a solution or an entry:
names, scores, times and the tie-breakers only.

*The Calendar day.*  Ranked by the Mastery Formula's score and the rulebook's tie-breakers
(:func:`kakurolab.game.scoring.ranked`: faster time, fewer shields, higher clue; equal on all
share a rank).  Only solves made on the day itself are ranked; a solve of a past day while it
is still in the calendar's archive (a late game) is listed apart, as it earns no streak
either.  A result under the human floor (:func:`kakurolab.game.fair.implausible`, flagged by
the engine) is listed apart too, unranked: the flag is no disqualification, but a script
that knew the solution must not take first place on the public board.

*The Arena.*  The rulebook's Arena has one scoring: the first verified submission wins the
match (2.6.2), and the winner's points are the Mastery Formula's (2.7).  Over a period
(:data:`PERIODS`: today, this week Monday to Sunday, all time; by the game's end, UTC) a
racer is ranked by matches won, then the points of those wins, then the fastest winning
time; equal on all three share a rank.  A flagged win counts for neither wins nor points (it
is shown as a count beside the name).

*The archive.*  Every day from the server's first day (:func:`first_day`, kept in the
store's ``meta``) to today can be browsed by month, each with its leaderboard; never a
future day.  A day's puzzle is made once and kept (``kept_puzzles``, the same text for
everyone, for ever).  While the day is live (today and the last
:data:`~kakurolab.game.calendar.ARCHIVE_DAYS` days) it is played as the calendar game
itself; after that it can be played as *practice* on the kept puzzle
(:func:`archive_choice`: not scored on any board, its solution shown at the end as in any
practice game).  A day no one ever made (the server did not run) stays unmade.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..formats import loads
from ..model import Puzzle
from . import calendar, fair, scoring
from .errors import GameError, LivePuzzleError, UnknownGameError
from .moves import Mode
from .prepare import Choice
from .rules import Options
from .store import Store


class UnknownDayError(UnknownGameError):
    """A calendar day the server has no board of: before its first day, or not out yet."""


FIRST_DAY_KEY = "first_day"
"""The ``meta`` row of the server's first calendar day (the archive starts there)."""


def first_day(store: Store, today: dt.date) -> dt.date:
    """The server's first day: the earliest of today, the first calendar day played or kept
    and the day its first player was made, written once (a store made before the archive
    gets it from what it already holds)."""
    known = store.meta_value(FIRST_DAY_KEY)
    if known is not None:
        return calendar.parse_date(known)
    played, kept, made = store.first_activity()
    found = [today]
    if played is not None:
        found.append(calendar.parse_date(played))
    kept_day = None if kept is None else calendar.date_of_seed(kept)
    if kept_day is not None:
        found.append(kept_day)
    if made is not None:
        found.append(calendar.today(made))
    value = store.meta_once(FIRST_DAY_KEY, min(found).isoformat())
    return calendar.parse_date(value)


def check_day(store: Store, text: str, today: dt.date) -> dt.date:
    """A date the archive knows: from the server's first day to today, else a 404."""
    date = calendar.parse_date(text)
    if date > today:
        raise UnknownDayError(f"the calendar day {date.isoformat()} is not out yet")
    first = first_day(store, today)
    if date < first:
        raise UnknownDayError(
            f"the calendar of this server starts on {first.isoformat()}: "
            f"{date.isoformat()} has no puzzle"
        )
    return date


def is_live(date: dt.date, today: dt.date) -> bool:
    """Whether a day is still played for a score (today and the archive's window)."""
    return today - dt.timedelta(days=calendar.ARCHIVE_DAYS) <= date <= today


# --- the Calendar day's leaderboard ---------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One result on a day's leaderboard (scores only: nothing of the grid)."""

    standing: scoring.Standing
    late: bool = False
    """Solved after its day (while the day was in the archive)."""

    def to_json(self, ranked: bool) -> dict[str, Any]:
        line = self.standing.to_json()
        line["rank"] = self.standing.rank if ranked else None
        line["late"] = self.late
        line.pop("solved", None)  # every entry solved
        return line


@dataclass(frozen=True)
class DayBoard:
    date: dt.date
    today: dt.date
    ranked: list[Entry]
    late: list[Entry]
    flagged: list[Entry]
    made: bool
    floor_s: float | None
    """The human floor of the day's grid (its white cells), when the grid was made."""

    def to_json(self) -> dict[str, Any]:
        day = calendar.day_of(self.date)
        return {
            "date": self.date.isoformat(),
            "weekday": day.weekday,
            "size": day.size,
            "difficulty": day.difficulty,
            "title": day.title,
            "open": self.date == self.today,
            "live": is_live(self.date, self.today),
            "made": self.made,
            "floor_s": self.floor_s,
            "ranked": [e.to_json(True) for e in self.ranked],
            "late": [e.to_json(False) for e in self.late],
            "flagged": [e.to_json(False) for e in self.flagged],
        }


def standing_of(line: dict[str, Any]) -> scoring.Standing:
    """A stored standing line read back (the engine wrote it with ``Standing.to_json``)."""
    breakdown = line.get("breakdown")
    parts = None
    if isinstance(breakdown, dict):
        parts = scoring.Mastery(*(int(breakdown.get(k, 0)) for k in
                                  ("base", "speed", "flawless", "shields")))  # fmt: skip
    time_s = line.get("time_s")
    return scoring.Standing(
        str(line.get("player_id", "")),
        str(line.get("name", "")),
        int(line.get("score", 0)),
        None if time_s is None else float(time_s),
        int(line.get("shields_used", 0)),
        int(line.get("best_clue", 0)),
        bool(line.get("solved", False)),
        breakdown=parts,
        flagged=bool(line.get("flagged", False)),
    )


def rank_day(
    date: dt.date, results: Sequence[tuple[str, str, dict[str, Any]]]
) -> tuple[list[Entry], list[Entry], list[Entry]]:
    """(ranked, late, flagged) from (player_id, solved_on, line) rows: the day's own
    unflagged solves ranked by :func:`scoring.ranked`; the rest in the same order, unranked."""
    on_day, late, flagged = [], [], []
    for _, solved_on, line in results:
        standing = standing_of(line)
        is_late = solved_on != date.isoformat()
        if standing.flagged:
            flagged.append(Entry(standing, is_late))
        elif is_late:
            late.append(Entry(standing, True))
        else:
            on_day.append(standing)
    ranked = [Entry(s) for s in scoring.ranked(on_day)]

    def order(entries: list[Entry]) -> list[Entry]:
        return sorted(entries, key=lambda e: (e.standing.tie_key(), e.standing.name))

    return ranked, order(late), order(flagged)


def day_board(store: Store, text: str, now: float) -> DayBoard:
    """The leaderboard of a calendar day (``YYYY-MM-DD``) from the server's first day to
    today; a 404 (:class:`UnknownDayError`) for any other."""
    today = calendar.today(now)
    date = check_day(store, text, today)
    ranked, late, flagged = rank_day(date, store.day_results(date.isoformat()))
    kept = store.cached_puzzle(calendar.seed_of(date))
    floor_s = None
    if kept is not None:
        (puzzle,) = loads(kept, format="kakuro")
        floor_s = fair.human_floor_s(len(puzzle.whites))
    return DayBoard(date, today, ranked, late, flagged, kept is not None, floor_s)


# --- the Arena leaderboard ------------------------------------------------------------------


def _today(today: dt.date) -> tuple[dt.date | None, dt.date | None]:
    return today, today + dt.timedelta(days=1)


def _week(today: dt.date) -> tuple[dt.date | None, dt.date | None]:
    monday = today - dt.timedelta(days=today.weekday())
    return monday, monday + dt.timedelta(days=7)


def _all_time(today: dt.date) -> tuple[dt.date | None, dt.date | None]:
    return None, None


PERIODS: dict[str, Callable[[dt.date], tuple[dt.date | None, dt.date | None]]] = {
    "today": _today,
    "week": _week,
    "all": _all_time,
}
"""A leaderboard period by name -> its first day and the day after its last (None: open)."""


def _midnight(day: dt.date | None, default: float) -> float:
    if day is None:
        return default
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp()


@dataclass(frozen=True)
class Racer:
    """A player's Arena record over a period."""

    player_id: str
    name: str
    races: int
    wins: int
    points: int
    best_s: float | None
    flagged: int
    rank: int = 0

    def key(self) -> tuple[int, int, float]:
        return (-self.wins, -self.points, math.inf if self.best_s is None else self.best_s)

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank, "player_id": self.player_id, "name": self.name,
            "races": self.races, "wins": self.wins, "points": self.points,
            "best_s": None if self.best_s is None else round(self.best_s, 3),
            "flagged": self.flagged,
        }  # fmt: skip


@dataclass(frozen=True)
class ArenaBoard:
    period: str
    first: dt.date | None
    until: dt.date | None
    """The day after the period's last (None: open)."""
    racers: list[Racer]

    def to_json(self) -> dict[str, Any]:
        last = None if self.until is None else self.until - dt.timedelta(days=1)
        return {
            "period": self.period,
            "periods": list(PERIODS),
            "first": None if self.first is None else self.first.isoformat(),
            "last": None if last is None else last.isoformat(),
            "racers": [r.to_json() for r in self.racers],
        }


def rank_racers(results: Sequence[tuple[str, str, float, dict[str, Any]]]) -> list[Racer]:
    """Per player, from (game_id, player_id, ended, line) rows: races, wins, the points of
    the wins, the fastest win, flagged results; ranked (module doc), ties sharing a rank."""
    tally: dict[str, dict[str, Any]] = {}
    for _, player_id, _, line in results:
        s = standing_of(line)
        t = tally.setdefault(player_id, {"name": s.name, "races": 0, "wins": 0, "points": 0,
                                         "best": None, "flagged": 0})  # fmt: skip
        t["races"] += 1
        t["name"] = s.name or t["name"]
        if s.flagged:
            t["flagged"] += 1
        elif s.solved:
            t["wins"] += 1
            t["points"] += s.score
            if s.time_s is not None and (t["best"] is None or s.time_s < t["best"]):
                t["best"] = s.time_s
    racers = [Racer(p, t["name"], t["races"], t["wins"], t["points"], t["best"], t["flagged"])
              for p, t in tally.items()]  # fmt: skip
    racers.sort(key=lambda r: (r.key(), r.name, r.player_id))
    out: list[Racer] = []
    for i, r in enumerate(racers):
        same = bool(out) and racers[i - 1].key() == r.key()
        out.append(replace(r, rank=out[-1].rank if same else i + 1))
    return out


def arena_board(store: Store, period: str, now: float) -> ArenaBoard:
    """The Arena leaderboard of a period (``today``, ``week`` or ``all``)."""
    span = PERIODS.get(period)
    if span is None:
        raise GameError(f"a period is one of {', '.join(PERIODS)}, got {str(period)[:20]!r}")
    first, until = span(calendar.today(now))
    start, end = _midnight(first, 0.0), _midnight(until, 1e300)
    return ArenaBoard(period, first, until,
                      rank_racers(store.mode_results(Mode.ARENA.value, start, end)))  # fmt: skip


# --- the archive ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ArchiveDay:
    date: dt.date
    state: str
    """``today``, ``live`` (played as the calendar game), ``practice`` (over: practice on
    the kept puzzle) or ``unmade`` (over, and no puzzle was ever made)."""
    made: bool
    solvers: int
    mine: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        day = calendar.day_of(self.date)
        return {
            "date": self.date.isoformat(), "weekday": day.weekday, "size": day.size,
            "difficulty": day.difficulty, "title": day.title, "state": self.state,
            "made": self.made, "solvers": self.solvers, "mine": self.mine,
        }  # fmt: skip


def day_state(date: dt.date, today: dt.date, made: bool) -> str:
    if date == today:
        return "today"
    if is_live(date, today):
        return "live"
    return "practice" if made else "unmade"


def _month_start(day: dt.date) -> dt.date:
    return day.replace(day=1)


def _next_month(day: dt.date) -> dt.date:
    return (day.replace(day=28) + dt.timedelta(days=4)).replace(day=1)


def archive_month(
    store: Store, month: str | None, now: float, mine: Sequence[tuple[str, str, str | None,
                                                                  int | None]] = ()
) -> dict[str, Any]:
    """The archive's days of one month (``YYYY-MM``, default this one), newest first, from
    the server's first day to today, with the months before and after that have any; the
    player's own calendar rows (``mine``: date, game, solved on, score) marked."""
    today = calendar.today(now)
    first = first_day(store, today)
    if month is None:
        start = _month_start(today)
    else:
        try:
            start = dt.date.fromisoformat(f"{month}-01")
        except (TypeError, ValueError):
            raise GameError(f"a month is written YYYY-MM, got {str(month)[:20]!r}") from None
    if start > today or _next_month(start) <= first:
        raise UnknownDayError(
            f"the archive runs from {first.isoformat()} to {today.isoformat()}: "
            f"{start.isoformat()[:7]} has no day"
        )
    low, high = max(start, first), min(_next_month(start) - dt.timedelta(days=1), today)
    kept = set(store.kept_keys(calendar.seed_of(low), calendar.seed_of(high)))
    solvers = store.day_solvers(low.isoformat(), high.isoformat())
    own = {d: {"game_id": g, "solved_on": s, "score": sc} for d, g, s, sc in mine}
    days = []
    day = high
    while day >= low:
        made = calendar.seed_of(day) in kept
        key = day.isoformat()
        days.append(ArchiveDay(day, day_state(day, today, made), made, solvers.get(key, 0),
                               own.get(key)).to_json())  # fmt: skip
        day -= dt.timedelta(days=1)
    before = _month_start(start - dt.timedelta(days=1))
    after = _next_month(start)
    return {
        "month": start.isoformat()[:7],
        "first_day": first.isoformat(),
        "today": today.isoformat(),
        "previous": before.isoformat()[:7] if start > first else None,
        "next": after.isoformat()[:7] if after <= today else None,
        "days": days,
    }


def archive_choice(store: Store, text: str, now: float, options: Options) -> Choice:
    """A practice game on a past calendar day's kept puzzle, once the day is no longer live
    (before that it is played as the calendar game, for a score); never a future day."""
    today = calendar.today(now)
    date = check_day(store, text, today)
    if is_live(date, today):
        raise LivePuzzleError(
            f"the calendar puzzle of {date.isoformat()} is still played for a score (until "
            f"it is {calendar.ARCHIVE_DAYS} days old): open it from the calendar"
        )
    kept = store.cached_puzzle(calendar.seed_of(date))
    if kept is None:
        raise UnknownDayError(f"no calendar puzzle was made on {date.isoformat()}")
    (puzzle,) = loads(kept, format="kakuro")
    row = calendar.day_of(date)
    named = Puzzle(f"calendar-{date.isoformat()}", puzzle.grid)
    return Choice(Mode.PRACTICE, row.size, row.difficulty, None, None, "archive", options,
                  named)  # fmt: skip
