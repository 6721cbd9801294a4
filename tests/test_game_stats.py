"""The statistics page's numbers (kakurolab.game.stats): best times per size and level from
solved timed games only, the run of solved games, and the service's query over a real store."""

from __future__ import annotations

from pathlib import Path

from _game import Clock, service, solution_of, tiny_chooser

from kakurolab.game import Mode, NewGame
from kakurolab.game.calendar import Streaks
from kakurolab.game.stats import Played, summarize


def test_summarize() -> None:
    played = [
        Played("practice", "12x12", "hard", True, True, 900.0),
        Played("practice", "8x8", "easy", True, True, 300.0),
        Played("practice", "8x8", "easy", True, True, 250.0),
        Played("battle", "8x8", "easy", True, True, 10.0),  # a Battle's time is no solve time
        Played("practice", "8x8", "normal", True, False, None),
        Played("arena", "8x8", "easy", True, True, 200.0),
        Played("practice", "8x8", "easy", False, False, None),  # still open: not in the run
    ]
    stats = summarize(played, Streaks(2, 5))
    assert (stats.games, stats.finished, stats.solved) == (7, 6, 5)
    assert [(b.size, b.difficulty, b.best_s, b.solved) for b in stats.best_times] == [
        ("8x8", "easy", 200.0, 3),
        ("12x12", "hard", 900.0, 1),
    ]
    assert stats.solved_in_a_row == 1  # the arena win, after the unsolved 8x8 normal
    assert (stats.current_streak, stats.best_streak) == (2, 5)


def test_the_service_counts_a_solved_game(store_at: Path | str) -> None:
    clock = Clock()
    svc = service(store_at, clock, chooser=tiny_chooser)
    token = svc.register("ada").token
    game = svc.create(token, NewGame(Mode.PRACTICE)).game_id
    svc.create(token, NewGame(Mode.PRACTICE))  # left open
    clock.advance(75)
    for cell, digit in solution_of(svc, game).items():
        svc.act(game, token, {"kind": "place", "cell": cell, "digit": digit})
    stats = svc.stats(token).to_json()
    assert (stats["games"], stats["finished"], stats["solved"]) == (2, 1, 1)
    assert stats["best_times"] == [
        {"size": "8x8", "difficulty": "easy", "best_s": 75.0, "solved": 1}
    ]
    assert stats["solved_in_a_row"] == 1
    svc.close()
