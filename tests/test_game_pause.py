"""Pause in solo play (issue 28): the engine records pause and resume in the move log, so
the solving time, the countdown and the Mastery speed bonus leave the pause out, and a
replayed game (another process, a restart) agrees."""

from __future__ import annotations

from pathlib import Path

import pytest
from _game import Clock, service, solution_of, tiny_chooser

from kakurolab.game import GameService, Mode, NewGame, Options
from kakurolab.game.errors import IllegalMoveError


def _solo(tmp_path: Path, clock: Clock, **options: object) -> tuple[GameService, str, str]:
    svc = service(tmp_path, clock, chooser=tiny_chooser)
    token = svc.register("ada").token
    view = svc.create(token, NewGame(Mode.PRACTICE, options=Options(**options)))  # type: ignore[arg-type]
    return svc, view.game_id, token


def test_pause_stops_the_clock_and_the_score_leaves_it_out(tmp_path: Path) -> None:
    clock = Clock()
    svc, game_id, token = _solo(tmp_path, clock)
    clock.advance(40)
    svc.act(game_id, token, {"kind": "pause"})
    clock.advance(1000)  # a long pause
    paused = svc.view(game_id, token)
    assert paused.paused and paused.elapsed_s == pytest.approx(40)
    with pytest.raises(IllegalMoveError, match="paused"):
        svc.act(game_id, token, {"kind": "place", "cell": "r2c2", "digit": 1})
    svc.act(game_id, token, {"kind": "resume"})
    clock.advance(20)
    assert svc.view(game_id, token).elapsed_s == pytest.approx(60)
    for cell, digit in solution_of(svc, game_id).items():
        svc.act(game_id, token, {"kind": "place", "cell": cell, "digit": digit})
    (line,) = svc.view(game_id, token).standings
    assert line["time_s"] == pytest.approx(60)  # 1060 s on the wall, 60 s solving
    # a second service on the same store replays the log to the same time
    svc.close()
    again = GameService(tmp_path / "games.sqlite", clock=clock, chooser=tiny_chooser)
    assert again.view(game_id, token).standings[0]["time_s"] == pytest.approx(60)
    again.close()


def test_a_paused_countdown_does_not_run_out(tmp_path: Path) -> None:
    clock = Clock()
    svc, game_id, token = _solo(tmp_path, clock, time_limit_s=100)
    clock.advance(30)
    svc.act(game_id, token, {"kind": "pause"})
    clock.advance(500)
    view = svc.view(game_id, token)
    assert view.phase == "active" and view.remaining_s == pytest.approx(70)
    svc.act(game_id, token, {"kind": "resume"})
    clock.advance(69)
    assert svc.view(game_id, token).remaining_s == pytest.approx(1)
    clock.advance(2)
    assert svc.view(game_id, token).phase == "finished"


def test_competitive_games_cannot_pause(tmp_path: Path) -> None:
    clock = Clock()
    svc = service(tmp_path, clock, chooser=tiny_chooser)
    ann, bob = svc.register("ann").token, svc.register("bob").token
    view = svc.create(ann, NewGame(Mode.BATTLE))
    svc.join(view.game_id, bob)
    with pytest.raises(IllegalMoveError, match="clock stops for nobody"):
        svc.act(view.game_id, ann, {"kind": "pause"})
    _, game_id, token = _solo(tmp_path / "solo", clock)
    with pytest.raises(IllegalMoveError, match="not paused"):
        svc2 = GameService(tmp_path / "solo" / "games.sqlite", clock=clock, chooser=tiny_chooser)
        svc2.act(game_id, token, {"kind": "resume"})
