"""A player's statistics page: games played, best times per size and level, streaks.

Computed from the store's rows of the player's games and their final standings (the engine's
own record), so the page shows nothing the engine did not score.  Best times count the modes
scored by the Mastery Formula (a Battle's time is its turn time, not a solve).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import calendar
from .calendar import Streaks
from .moves import Phase
from .rules import GameSpec

CalendarRow = tuple[str, str, str | None, int | None]
"""A calendar day played: date, game id, the date it was solved on (or None), its score."""

TIMED_MODES = frozenset({"practice", "campaign", "arena"})


@dataclass(frozen=True)
class Played:
    """One game of the player, as far as statistics care."""

    mode: str
    size: str
    difficulty: str | None
    finished: bool
    solved: bool
    time_s: float | None


@dataclass(frozen=True)
class BestTime:
    size: str
    difficulty: str | None
    best_s: float
    solved: int

    def to_json(self) -> dict[str, Any]:
        return {"size": self.size, "difficulty": self.difficulty,
                "best_s": round(self.best_s, 3), "solved": self.solved}  # fmt: skip


@dataclass(frozen=True)
class Stats:
    games: int
    finished: int
    solved: int
    best_times: list[BestTime]
    current_streak: int
    best_streak: int
    solved_in_a_row: int
    """Finished games solved one after another, ending with the latest finished game."""

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "finished": self.finished,
            "solved": self.solved,
            "best_times": [b.to_json() for b in self.best_times],
            "current_streak": self.current_streak,
            "best_streak": self.best_streak,
            "solved_in_a_row": self.solved_in_a_row,
        }


def _size_key(size: str) -> tuple[int, ...]:
    try:
        return tuple(int(n) for n in size.split("x"))
    except ValueError:
        return (10**6,)


LEVELS = ("easy", "normal", "hard", "expert")


def summarize(played: Sequence[Played], calendar_streaks: Streaks) -> Stats:
    """The statistics of games in the order they were created."""
    best: dict[tuple[str, str | None], list[float]] = {}
    for game in played:
        if game.solved and game.time_s is not None and game.mode in TIMED_MODES:
            best.setdefault((game.size, game.difficulty), []).append(game.time_s)
    rows = [
        BestTime(size, level, min(times), len(times)) for (size, level), times in best.items()
    ]
    rows.sort(key=lambda b: (_size_key(b.size), LEVELS.index(b.difficulty)
                             if b.difficulty in LEVELS else len(LEVELS)))  # fmt: skip
    run = 0
    for game in reversed([g for g in played if g.finished]):
        if not game.solved:
            break
        run += 1
    return Stats(
        games=len(played),
        finished=sum(g.finished for g in played),
        solved=sum(g.solved for g in played),
        best_times=rows,
        current_streak=calendar_streaks.current,
        best_streak=calendar_streaks.best,
        solved_in_a_row=run,
    )


def played_games(
    rows: Sequence[dict[str, Any]], results: dict[str, dict[str, Any]]
) -> list[Played]:
    """The store's rows of a player's games (``Store.games_of``) joined with their final
    standings lines (``Store.results_of``)."""
    played = []
    for row in rows:
        spec = GameSpec.from_json(json.loads(row["spec"]))
        line = results.get(row["game_id"], {})
        time_s = line.get("time_s")
        played.append(Played(
            row["mode"], spec.size, spec.difficulty, row["phase"] == Phase.FINISHED.value,
            bool(line.get("solved")), None if time_s is None else float(time_s),
        ))  # fmt: skip
    return played


def day_streaks(days: Sequence[CalendarRow], today: dt.date) -> Streaks:
    """The calendar streaks, counting the days solved on their own date."""
    solved = [calendar.parse_date(d) for d, _, solved_on, _ in days if solved_on == d]
    return calendar.streaks(solved, today)


def campaign_card(days: Sequence[CalendarRow], today: dt.date) -> dict[str, Any]:
    """Calendar progress: every day played, the streaks, and this week's table."""
    streak = day_streaks(days, today)
    monday = today.toordinal() - today.weekday()
    week = []
    for i, day in enumerate(calendar.WEEK):
        date = type(today).fromordinal(monday + i).isoformat()
        week.append({"date": date, "weekday": day.weekday, "size": day.size,
                     "difficulty": day.difficulty, "title": day.title})  # fmt: skip
    return {
        "today": today.isoformat(),
        "current_streak": streak.current,
        "best_streak": streak.best,
        "days": [
            {"date": d, "game_id": g, "solved_on": s, "score": sc} for d, g, s, sc in days
        ],
        "week": week,
    }
