"""Shared helpers for the game tests: a settable clock, small puzzles, a service on a temp
store, and the solution of a game found independently (by the native solver, not the
engine's referee)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kakurolab.formats import load
from kakurolab.game import GameService
from kakurolab.game.moves import cell_text
from kakurolab.model import Puzzle, Solution
from kakurolab.uniqueness import solve

TINY = Path(__file__).parent / "data" / "tiny.kakuro"
START = 1_795_996_800.0
"""Monday 2026-11-30, 00:00 UTC."""


@dataclass
class Clock:
    now: float = START

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def tiny(name: str = "tiny-a") -> Puzzle:
    return load(TINY, select=[name])[0]


def tiny_chooser(size: str, difficulty: str, seed: str | int) -> tuple[Puzzle, Solution]:
    """Every size is tiny-a (the engine and scoring do not care how big the grid is)."""
    puzzle = tiny()
    result = solve(puzzle)
    assert result.solution is not None
    return Puzzle(f"tiny-{seed}", puzzle.grid), result.solution


def service(at: Path | str, clock: Clock | None = None, **kwargs: object) -> GameService:
    """A service on the store ``at`` (a folder: its ``games.sqlite``; a file or a URL)."""
    where = at / "games.sqlite" if isinstance(at, Path) and at.suffix != ".sqlite" else at
    return GameService(where, clock=clock or Clock(), **kwargs)  # type: ignore[arg-type]


def damage(at: Path | str, sql: str) -> int:
    """Run one statement on the store ``at`` behind the engine's back; the rows it changed."""
    if isinstance(at, str) and at.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(at, autocommit=True) as db:
            return db.execute(sql).rowcount
    import sqlite3

    with sqlite3.connect(at) as db:
        return db.execute(sql).rowcount


def solution_of(svc: GameService, game_id: str) -> dict[str, int]:
    """The game's solution by an independent solve of its puzzle (cell text -> digit)."""
    puzzle = svc._game(game_id).puzzle
    result = solve(puzzle, backend="pysat")
    assert result.solution is not None
    return {cell_text(c): d for c, d in sorted(result.solution.values.items())}
