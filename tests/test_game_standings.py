"""Standings (kakurolab.game.standings): the daily Calendar leaderboard, the Arena
leaderboard and the Calendar archive, on the real engine and on both stores (``store_at``
runs each store test on SQLite and on PostgreSQL)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from _game import Clock, damage, service, solution_of, tiny_chooser

from kakurolab.game import GameError, GameService, LivePuzzleError, Mode, NewGame
from kakurolab.game import calendar as cal
from kakurolab.game.scoring import Mastery, Standing
from kakurolab.game.standings import UnknownDayError, rank_day, rank_racers

DAY = 24 * 3600
TODAY = dt.date(2026, 11, 30)  # _game.START


def line(name: str, score: int, time_s: float | None, shields: int = 0, clue: int = 10,
         *, solved: bool = True, flagged: bool = False) -> dict[str, Any]:  # fmt: skip
    return Standing(f"p-{name}", name, score, time_s, shields, clue, solved, rank=1,
                    breakdown=Mastery(score), flagged=flagged).to_json()  # fmt: skip


# --- the ranking itself ---------------------------------------------------------------------


def test_a_day_ranks_by_score_then_the_rulebook_tie_breakers() -> None:
    day = TODAY.isoformat()
    rows = [
        ("p-slow", day, line("slow", 900, 300.0)),
        ("p-fast", day, line("fast", 900, 200.0)),  # equal points: the faster first
        ("p-top", day, line("top", 1300, 400.0)),
        ("p-shield", day, line("shield", 900, 200.0, shields=1)),  # then fewer shields
        ("p-twin", day, line("twin", 900, 300.0)),  # equal on everything: shares a rank
        ("p-bot", day, line("bot", 2000, 3.0, flagged=True)),
        ("p-late", (TODAY + dt.timedelta(days=1)).isoformat(), line("late", 1500, 100.0)),
    ]
    ranked, late, flagged = rank_day(TODAY, rows)
    got = [(e.standing.name, e.standing.rank) for e in ranked]
    assert got[:3] == [("top", 1), ("fast", 2), ("shield", 3)]
    assert sorted(got[3:]) == [("slow", 4), ("twin", 4)]
    assert [e.standing.name for e in late] == ["late"] and late[0].late
    assert [e.standing.name for e in flagged] == ["bot"]  # first on points, yet not ranked
    assert flagged[0].to_json(False)["rank"] is None and flagged[0].to_json(False)["flagged"]


def test_the_arena_ranks_by_wins_then_points_then_the_fastest_win() -> None:
    def race(player: str, score: int, time_s: float | None, **kw: Any) -> tuple[Any, ...]:
        return ("g", f"p-{player}", 0.0, line(player, score, time_s, solved=score > 0, **kw))

    rows = [
        race("ann", 900, 100.0), race("ann", 800, 120.0), race("ann", 0, None),
        race("ben", 1000, 90.0), race("ben", 1000, 95.0),  # two wins, more points than ann
        race("cy", 900, 60.0),
        race("dee", 900, 60.0),  # cy's equal: they share a rank
        race("bot", 2000, 2.0, flagged=True), race("bot", 2000, 2.0, flagged=True),
        race("eve", 0, None),
    ]  # fmt: skip
    board = {r.name: r for r in rank_racers(rows)}
    assert (board["ben"].rank, board["ann"].rank) == (1, 2)
    assert board["ann"].races == 3 and board["ann"].wins == 2 and board["ann"].points == 1700
    assert board["ann"].best_s == 100.0
    assert board["cy"].rank == board["dee"].rank == 3
    assert board["bot"].wins == 0 and board["bot"].points == 0 and board["bot"].flagged == 2
    assert board["bot"].rank == board["eve"].rank == 5


# --- on the real engine and both stores ------------------------------------------------------


def solve(svc: GameService, clock: Clock, token: str, game: str, step_s: float) -> None:
    for cell, digit in solution_of(svc, game).items():
        clock.advance(step_s)
        svc.act(game, token, {"kind": "place", "cell": cell, "digit": digit})


def text_of(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def test_a_calendar_day_board_shows_finished_results_only(store_at: Path | str) -> None:
    clock = Clock()
    svc = service(store_at, clock, chooser=tiny_chooser)
    ann, ben, cy, bot, dee = (svc.register(n) for n in ("ann", "ben", "cy", "bot", "dee"))
    ann_game = svc.create(ann.token, NewGame(Mode.CAMPAIGN)).game_id
    solution = solution_of(svc, ann_game)
    ben_game = svc.create(ben.token, NewGame(Mode.CAMPAIGN)).game_id
    cy_game = svc.create(cy.token, NewGame(Mode.CAMPAIGN)).game_id
    svc.act(cy_game, cy.token, {"kind": "place", "cell": next(iter(solution)), "digit": 1})
    solve(svc, clock, ann.token, ann_game, 10)
    solve(svc, clock, ben.token, ben_game, 20)
    bot_game = svc.create(bot.token, NewGame(Mode.CAMPAIGN)).game_id  # its clock starts now
    solve(svc, clock, bot.token, bot_game, 0.01)  # 7 cells in 0.07 s: under the floor
    board = svc.day_board(dee.token)  # today, still open: cy is still playing
    assert board["open"] and board["live"] and board["date"] == TODAY.isoformat()
    assert [(e["name"], e["rank"]) for e in board["ranked"]] == [("ann", 1), ("ben", 2)]
    assert board["ranked"][0]["score"] > board["ranked"][1]["score"]
    assert [e["name"] for e in board["flagged"]] == ["bot"] and board["late"] == []
    assert "cy" not in text_of(board)
    assert board["floor_s"] == 7.0
    # scores only: no grid, no entry, no solution on the public board of a live day
    shown = text_of(board)
    for word in ("solution", "entries", "board", "grid", "marks", "puzzle"):
        assert f'"{word}"' not in shown
    digits = "".join(str(d) for d in solution.values())
    assert digits not in shown
    # a late solve of yesterday's day: listed apart on yesterday's board
    clock.advance(DAY)
    late = svc.create(dee.token, NewGame(Mode.CAMPAIGN, date=TODAY.isoformat())).game_id
    solve(svc, clock, dee.token, late, 10)
    board = svc.day_board(dee.token, TODAY.isoformat())
    assert not board["open"] and board["live"]
    assert [e["name"] for e in board["late"]] == ["dee"] and board["late"][0]["late"]
    assert [e["name"] for e in board["ranked"]] == ["ann", "ben"]


def test_unknown_and_future_days_are_refused(store_at: Path | str) -> None:
    clock = Clock()
    svc = service(store_at, clock, chooser=tiny_chooser)
    me = svc.register("me")  # the server's first day: today
    clock.advance(3 * DAY)
    assert svc.day_board(me.token, TODAY.isoformat())["ranked"] == []
    assert not svc.day_board(me.token, TODAY.isoformat())["made"]
    tomorrow = (cal.today(clock.now) + dt.timedelta(days=1)).isoformat()
    with pytest.raises(UnknownDayError, match="not out yet"):
        svc.day_board(me.token, tomorrow)
    with pytest.raises(UnknownDayError, match="starts on 2026-11-30"):
        svc.day_board(me.token, "2026-11-29")
    with pytest.raises(GameError, match="YYYY-MM-DD"):
        svc.day_board(me.token, "30/11/2026")
    with pytest.raises(GameError, match="a period is one of"):
        svc.arena_board(me.token, "decade")
    assert svc.store.meta_value("first_day") == "2026-11-30"  # written once, kept
    damage(store_at, "DELETE FROM meta WHERE key = 'first_day'")  # a store from before
    assert svc.archive(me.token)["first_day"] == "2026-11-30"  # from its first player


def test_the_arena_board_counts_finished_races_in_its_period(store_at: Path | str) -> None:
    clock = Clock()  # Monday
    svc = service(store_at, clock, chooser=tiny_chooser)
    ann, ben, cy = (svc.register(n) for n in ("ann", "ben", "cy"))

    def race(winner: Any, loser: Any) -> str:
        game = svc.create(winner.token, NewGame(Mode.ARENA)).game_id
        svc.join(game, loser.token)
        svc.act(game, winner.token, {"kind": "start"})
        solve(svc, clock, winner.token, game, 10)
        svc.act(game, winner.token, {"kind": "submit"})
        return game

    race(ann, ben)
    clock.advance(2 * DAY)  # Wednesday
    race(ann, ben)
    race(ben, ann)
    running = svc.create(cy.token, NewGame(Mode.ARENA)).game_id
    svc.join(running, ann.token)
    svc.act(running, cy.token, {"kind": "start"})
    solve(svc, clock, cy.token, running, 10)  # a full grid, not submitted: no result
    week = svc.arena_board(cy.token, "week")
    assert week["first"] == "2026-11-30" and week["last"] == "2026-12-06"
    racers = {r["name"]: r for r in week["racers"]}
    assert set(racers) == {"ann", "ben"}
    assert (racers["ann"]["wins"], racers["ann"]["races"], racers["ann"]["rank"]) == (2, 3, 1)
    assert (racers["ben"]["wins"], racers["ben"]["rank"]) == (1, 2)
    today = {r["name"]: r for r in svc.arena_board(cy.token, "today")["racers"]}
    assert today["ann"]["wins"] == today["ben"]["wins"] == 1
    a, b = today["ann"], today["ben"]  # equal wins: points, then the fastest win decide
    if (a["points"], a["best_s"]) == (b["points"], b["best_s"]):
        assert a["rank"] == b["rank"] == 1
    else:
        assert (a["rank"] == 1) == ((-a["points"], a["best_s"]) < (-b["points"], b["best_s"]))
    clock.advance(7 * DAY)  # next week: only all time has them
    assert svc.arena_board(cy.token, "week")["racers"] == []
    assert len(svc.arena_board(cy.token, "all")["racers"]) == 2
    assert "solution" not in text_of(week) and "board" not in text_of(week)


def test_the_archive_keeps_each_day_and_offers_old_days_for_practice(
    store_at: Path | str,
) -> None:
    clock = Clock()
    svc = service(store_at, clock, chooser=tiny_chooser)
    me, old = svc.register("me"), svc.register("old")
    first = svc.create(old.token, NewGame(Mode.CAMPAIGN))
    kept = svc.store.cached_puzzle(cal.seed_of(TODAY))
    assert kept is not None
    solve(svc, clock, old.token, first.game_id, 10)
    with pytest.raises(LivePuzzleError, match="still played for a score"):
        svc.create(me.token, NewGame(Mode.PRACTICE, date=TODAY.isoformat()))
    clock.advance((cal.ARCHIVE_DAYS + 5) * DAY)
    month = svc.archive(me.token)  # January 2027: no calendar day was made in it
    assert month["month"] == "2027-01" and month["previous"] == "2026-12"
    assert month["next"] is None and month["first_day"] == "2026-11-30"
    assert all(d["state"] in {"today", "live"} for d in month["days"])
    november = svc.archive(me.token, "2026-11")
    assert [d["date"] for d in november["days"]] == ["2026-11-30"]  # from the first day
    (day,) = november["days"]
    assert (day["state"], day["made"], day["solvers"]) == ("practice", True, 1)
    assert november["previous"] is None
    december = svc.archive(me.token, "2026-12")
    oldest_live = (cal.today(clock.now) - dt.timedelta(days=cal.ARCHIVE_DAYS)).isoformat()
    for d in december["days"]:  # nobody made them: over and unmade, or still live
        assert d["state"] == ("live" if d["date"] >= oldest_live else "unmade"), d
    with pytest.raises(UnknownDayError):
        svc.archive(me.token, "2026-10")
    with pytest.raises(UnknownDayError):
        svc.archive(me.token, "2027-02")
    # the old day, for practice: the very puzzle kept on its day, byte for byte
    game = svc.create(me.token, NewGame(Mode.PRACTICE, date=TODAY.isoformat()))
    assert svc.store.cached_puzzle(cal.seed_of(TODAY)) == kept
    assert game.mode == "practice" and game.spec["source"] == "archive"
    assert game.puzzle["id"] == "calendar-2026-11-30"
    assert game.puzzle["grid"] == first.puzzle["grid"]
    assert svc.archive(old.token, "2026-11")["days"][0]["mine"]["game_id"] == first.game_id
    # its leaderboard stays; a practice game adds nothing to it
    solve(svc, clock, me.token, game.game_id, 10)
    assert [e["name"] for e in svc.day_board(me.token, "2026-11-30")["ranked"]] == ["old"]
    with pytest.raises(UnknownDayError, match="no calendar puzzle was made"):
        svc.create(me.token, NewGame(Mode.PRACTICE, date="2026-12-01"))
    with pytest.raises(UnknownDayError, match="not out yet"):
        svc.create(me.token, NewGame(Mode.PRACTICE, date="2027-12-01"))


def test_the_terminal_prints_the_boards_and_refuses_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kakurolab.cli import main

    clock = Clock()
    svc = service(tmp_path, clock, chooser=tiny_chooser)
    ann, ben = svc.register("ann"), svc.register("ben")
    solve(svc, clock, ann.token, svc.create(ann.token, NewGame(Mode.CAMPAIGN)).game_id, 10)
    game = svc.create(ann.token, NewGame(Mode.ARENA)).game_id
    svc.join(game, ben.token)
    svc.act(game, ann.token, {"kind": "start"})
    solve(svc, clock, ann.token, game, 10)
    svc.act(game, ann.token, {"kind": "submit"})
    svc.close()
    store = ["--store", str(tmp_path / "games.sqlite")]
    assert main(["play", "standings", "--date", TODAY.isoformat(), *store]) == 0
    out = capsys.readouterr().out
    assert "Monday 2026-11-30" in out and "    1  ann" in out
    assert main(["play", "standings", "--arena", "all", "--json", *store]) == 0
    racers = json.loads(capsys.readouterr().out)["racers"]
    assert [(r["name"], r["wins"], r["rank"]) for r in racers] == [("ann", 1, 1), ("ben", 0, 2)]
    assert main(["play", "archive", "--month", "2026-11", *store]) == 0
    assert "2026-11-30  8x8" in capsys.readouterr().out
    assert main(["play", "standings", "--date", "2026-11-29", *store]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "starts on 2026-11-30" in err
