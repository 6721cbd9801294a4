"""Fair play in the engine (issue 45, item 1): a live competitive puzzle (an Arena or Battle
game's, a calendar day's) is never copied into another game, in any of its 16 variants or
after a format round trip, so its solution never shows while the competition runs; the
competitive modes offer no restart; a finish faster than the human floor is flagged."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from _game import Clock, damage, service, solution_of, tiny, tiny_chooser

from kakurolab.formats import dumps, loads
from kakurolab.game import RULES, Credentials, GameError, GameService, Mode, NewGame, Options
from kakurolab.game import calendar as cal
from kakurolab.game.fair import HUMAN_FLOOR_S_PER_CELL, fingerprint, fingerprints
from kakurolab.generator.transforms import Transform, all_transforms, transform_puzzle
from kakurolab.model import Puzzle

LIVE = "live Arena, Battle or calendar puzzle"


def sprint_solution(svc: object, token: str, puzzle: Puzzle, clock: Clock) -> object:
    """The racer's attack: ``puzzle`` as a practice game with a 1 s sprint, then the
    finished view's ``solution`` (None when the engine keeps it hidden)."""
    new = NewGame(Mode.PRACTICE, puzzle=puzzle, options=Options(time_limit_s=1))
    view = svc.create(token, new)  # type: ignore[attr-defined]
    clock.advance(2)
    return svc.view(view.game_id, token).solution  # type: ignore[attr-defined]


def battle_of_two(
    at: Path | str,
) -> tuple[Clock, GameService, Credentials, Credentials, str]:
    """ann's Battle on the tiny puzzles, joined by ben: (clock, service, ann, ben, game id)."""
    clock = Clock()
    svc = service(at, clock, chooser=tiny_chooser)
    ann, ben = svc.register("ann"), svc.register("ben")
    game = svc.create(ann.token, NewGame(Mode.BATTLE)).game_id
    svc.join(game, ben.token)
    return clock, svc, ann, ben, game


@pytest.mark.parametrize("mode", [Mode.ARENA, Mode.BATTLE])
def test_a_live_race_grid_pasted_into_a_sprint_is_refused(store_at: Path | str, mode: Mode) -> None:
    clock = Clock()
    svc = service(store_at, clock, chooser=tiny_chooser)
    ann, racer = svc.register("ann"), svc.register("racer")
    race = svc.create(ann.token, NewGame(mode))
    svc.join(race.game_id, racer.token)  # the racer sees the grid of the live game
    if mode is Mode.ARENA:
        svc.act(race.game_id, ann.token, {"kind": "start"})
    seen = svc.view(race.game_id, racer.token)
    assert seen.phase == "active"
    copy = svc._game(race.game_id).puzzle  # the grid as the racer's page has it
    with pytest.raises(GameError, match=LIVE):
        sprint_solution(svc, racer.token, copy, clock)
    other = tiny("tiny-b")  # another grid stays playable
    assert sprint_solution(svc, racer.token, other, clock) is not None


def test_every_variant_and_format_round_trip_is_refused(tmp_path: Path) -> None:
    clock = Clock()
    svc = service(tmp_path, clock, chooser=tiny_chooser)
    ann, racer = svc.register("ann"), svc.register("racer")
    svc.create(ann.token, NewGame(Mode.BATTLE))
    live = tiny()
    dressed = [transform_puzzle(live, t) for t in all_transforms()]
    for fmt in ("kakuro", "pzpr", "puzzlekit", "dzn", "mzn", "xcsp3", "pycsp3"):
        dressed += [loads(dumps([p], fmt), format=fmt)[0] for p in dressed[:16]]
    assert len({p.grid for p in dressed}) >= 8  # really different grids
    for copy in dressed:
        with pytest.raises(GameError, match=LIVE):
            svc.create(racer.token, NewGame(Mode.PRACTICE, puzzle=copy))
        with pytest.raises(GameError, match=LIVE):  # nor as an Arena of the racer's own
            svc.create(racer.token, NewGame(Mode.ARENA, puzzle=copy))


def test_the_fingerprint_tells_puzzles_apart_and_ignores_the_frame() -> None:
    a, b = tiny("tiny-a"), tiny("tiny-b")
    assert fingerprint(a) != fingerprint(b)
    framed = loads("\n".join(["#  #  #  #  #", *(" ".join([*row, "#"]) for row in (
        ["#", "5\\", "15\\", "#"], ["\\3", ".", ".", "9\\"],
        ["\\10", ".", ".", "."], ["#", "\\16", ".", "."])), "#  #  #  #  #"]),
        format="kakuro")[0]  # fmt: skip
    assert framed.shape == (6, 5) and fingerprint(framed) == fingerprint(a)


def test_a_live_grid_beside_another_puzzle_is_refused(store_at: Path | str) -> None:
    """The live grid pasted side by side with another puzzle: two independent pieces, one of
    them live (the whole grid's fingerprint would differ; each piece is checked)."""
    clock = Clock()
    svc = service(store_at, clock, chooser=tiny_chooser)
    ann, racer = svc.register("ann"), svc.register("racer")
    svc.create(ann.token, NewGame(Mode.ARENA))  # tiny-a is live
    a, b = tiny("tiny-a"), tiny("tiny-b")
    both = Puzzle("both", tuple(ra + rb for ra, rb in zip(b.grid, a.grid, strict=True)))
    turned = transform_puzzle(both, Transform(270, None, complement=True))
    assert len(fingerprints(both)) == 2 and fingerprint(both) != fingerprint(a)
    for grid in (both, turned):
        with pytest.raises(GameError, match=LIVE):
            sprint_solution(svc, racer.token, grid, clock)
    twice_b = Puzzle("bb", tuple(ra + rb for ra, rb in zip(b.grid, b.grid, strict=True)))
    assert sprint_solution(svc, racer.token, twice_b, clock) is not None


def test_a_finished_race_frees_its_grid(store_at: Path | str) -> None:
    clock, svc, ann, ben, game = battle_of_two(store_at)
    with pytest.raises(GameError, match=LIVE):
        svc.create(ann.token, NewGame(Mode.PRACTICE, puzzle=tiny()))
    players = [ann, ben]
    for i, (cell, digit) in enumerate(solution_of(svc, game).items()):
        clock.advance(10)
        svc.act(game, players[i % 2].token, {"kind": "place", "cell": cell, "digit": digit})
    assert svc.view(game, ann.token).phase == "finished"
    assert svc.create(ann.token, NewGame(Mode.PRACTICE, puzzle=tiny())).phase == "active"


def test_a_calendar_day_is_live_while_it_can_be_played(store_at: Path | str) -> None:
    clock = Clock()
    svc = service(store_at, clock, chooser=tiny_chooser)
    ann, racer = svc.register("ann"), svc.register("racer")
    svc.create(ann.token, NewGame(Mode.CAMPAIGN))  # today's puzzle (tiny-a here)
    with pytest.raises(GameError, match=LIVE):
        sprint_solution(svc, racer.token, transform_puzzle(tiny(), next(
            t for t in all_transforms() if t.complement)), clock)  # fmt: skip
    clock.advance((cal.ARCHIVE_DAYS + 1) * 24 * 3600)  # the day left the archive
    assert sprint_solution(svc, racer.token, tiny(), clock) is not None


def test_a_store_from_before_the_copy_rule_lists_its_live_games(store_at: Path | str) -> None:
    clock = Clock()
    svc = service(store_at, clock, chooser=tiny_chooser)
    ann = svc.register("ann")
    svc.create(ann.token, NewGame(Mode.ARENA))
    damage(store_at, "DELETE FROM live_puzzles")  # as an old store has it
    svc.close()
    again = service(store_at, clock, chooser=tiny_chooser)
    with pytest.raises(GameError, match=LIVE):
        again.create(ann.token, NewGame(Mode.PRACTICE, puzzle=tiny()))


def test_calendar_dates_stay_in_the_campaign_range(tmp_path: Path) -> None:
    clock = Clock()
    svc = service(tmp_path, clock, chooser=tiny_chooser)
    me = svc.register("me")
    today = cal.today(clock.now)
    oldest = today - dt.timedelta(days=cal.ARCHIVE_DAYS)
    for date in ("1900-01-01", (oldest - dt.timedelta(days=1)).isoformat()):
        with pytest.raises(GameError, match="calendar keeps the last"):
            svc.create(me.token, NewGame(Mode.CAMPAIGN, date=date))
    with pytest.raises(GameError, match="not out yet"):
        tomorrow = today + dt.timedelta(days=1)
        svc.create(me.token, NewGame(Mode.CAMPAIGN, date=tomorrow.isoformat()))
    assert svc.create(me.token, NewGame(Mode.CAMPAIGN, date=oldest.isoformat())).spec["date"]
    kept = svc.store.db.execute("SELECT count(*) FROM kept_puzzles").fetchone()[0]
    assert kept == 1  # the refused dates made nothing


def test_competitive_views_offer_no_restart(tmp_path: Path) -> None:
    svc = service(tmp_path, chooser=tiny_chooser)
    me = svc.register("me")
    for mode in Mode:
        view = svc.create(me.token, NewGame(mode))
        facts = view.to_json()["rules"]
        assert facts["restart"] is (mode is Mode.PRACTICE), mode
        assert facts == RULES[mode].facts()
        seen = svc.view(view.game_id, me.token).to_json()["rules"]
        assert seen["seats"] == RULES[mode].max_players


def test_a_finish_under_the_human_floor_is_flagged(tmp_path: Path) -> None:
    clock = Clock()
    svc = service(tmp_path, clock, chooser=tiny_chooser)
    ann, ben = svc.register("ann"), svc.register("ben")

    def race(seconds_per_cell: float) -> dict[str, object]:
        game = svc.create(ann.token, NewGame(Mode.ARENA)).game_id
        svc.join(game, ben.token)
        svc.act(game, ann.token, {"kind": "start"})
        for cell, digit in solution_of(svc, game).items():
            clock.advance(seconds_per_cell)
            svc.act(game, ann.token, {"kind": "place", "cell": cell, "digit": digit})
        svc.act(game, ann.token, {"kind": "submit"})
        lines = {s["name"]: s for s in svc.standings(game, ann.token)}
        assert svc.store.results_of(ann.player_id)[game]["flagged"] == lines["ann"]["flagged"]
        assert lines["ben"]["flagged"] is False  # no finish, no flag
        return lines["ann"]

    assert race(HUMAN_FLOOR_S_PER_CELL * 0.2)["flagged"] is True
    assert race(HUMAN_FLOOR_S_PER_CELL * 2)["flagged"] is False
    # practice is nobody's race: never flagged
    game = svc.create(ann.token, NewGame(Mode.PRACTICE, puzzle=tiny("tiny-b"))).game_id
    for cell, digit in solution_of(svc, game).items():
        svc.act(game, ann.token, {"kind": "place", "cell": cell, "digit": digit})
    assert svc.standings(game, ann.token)[0]["flagged"] is False


def test_a_battle_of_instant_placements_is_flagged(tmp_path: Path) -> None:
    clock, svc, ann, ben, game = battle_of_two(tmp_path)
    for i, (cell, digit) in enumerate(solution_of(svc, game).items()):
        clock.advance(0.1 if i % 2 == 0 else 20)  # ann at once, ben thinks
        svc.act(game, [ann, ben][i % 2].token, {"kind": "place", "cell": cell, "digit": digit})
    lines = {s["name"]: s for s in svc.standings(game, ann.token)}
    assert lines["ann"]["flagged"] is True and lines["ben"]["flagged"] is False


# --- the end screen's words (issue 45, item 9: engine-side) --------------------------------------


def test_two_non_scorers_share_their_rank_in_words(tmp_path: Path) -> None:
    clock = Clock()
    svc = service(tmp_path, clock, chooser=tiny_chooser)
    ann, ben, cy = (svc.register(n) for n in ("ann", "ben", "cy"))
    game = svc.create(ann.token, NewGame(Mode.ARENA)).game_id
    svc.join(game, ben.token)
    svc.join(game, cy.token)
    svc.act(game, ann.token, {"kind": "start"})
    for cell, digit in solution_of(svc, game).items():
        clock.advance(10)
        svc.act(game, ann.token, {"kind": "place", "cell": cell, "digit": digit})
    view = svc.act(game, ann.token, {"kind": "submit"}).view
    assert view.ties == ["ben and cy share rank 2 (neither scored)"]
    assert not any("by nothing" in t or "ahead of" in t for t in view.ties)
    texts = [r["text"] for r in view.reasons if r["player_id"] == ben.player_id]
    assert texts == ["ben: no score: the grid was not solved"]


def test_the_battle_tie_break_names_the_time_on_own_turns() -> None:
    from kakurolab.game.scoring import Standing, ranked, tie_notes

    lines = ranked([Standing("a", "ann", 120, 40.0, 0, 17, True),
                    Standing("b", "bob", 120, 55.0, 0, 17, True)])  # fmt: skip
    (battle,) = tie_notes(lines, "battle")
    assert battle == "ann ahead of bob on equal points by time on own turns 40 s against 55 s"
    (mastery,) = tie_notes(lines, "mastery")
    assert "by completion time 40 s against 55 s" in mastery
    shields = ranked([Standing("a", "ann", 9, None, 1, 0, False),
                      Standing("b", "bob", 9, None, 2, 0, False)])  # fmt: skip
    assert tie_notes(shields, "battle") == [
        "ann ahead of bob on equal points by shields used 1 against 2"
    ]


def test_the_flawless_reason_names_a_shield_and_an_illegal_entry(tmp_path: Path) -> None:
    clock = Clock()
    svc = service(tmp_path, clock, chooser=tiny_chooser)
    me = svc.register("me")
    game = svc.create(me.token, NewGame(Mode.PRACTICE, puzzle=tiny())).game_id
    solution = solution_of(svc, game)
    first, digit = next(iter(solution.items()))
    svc.act(game, me.token, {"kind": "place", "cell": first, "digit": digit % 9 + 1})  # illegal
    svc.act(game, me.token, {"kind": "erase", "cell": first})
    svc.act(game, me.token, {"kind": "shield", "shield": "hint"})
    for cell, right in solution.items():
        clock.advance(10)
        view = svc.act(game, me.token, {"kind": "place", "cell": cell, "digit": right}).view
    assert view.phase == "finished"
    texts = [r["text"] for r in view.reasons]
    assert "me: Flawless Logic +0: 1 Logic Shield spent and 1 illegal entry" in texts, texts
    assert "me: Unused shields +200: 2 left × 100" in texts


def test_a_live_calendar_day_shows_its_solution_only_to_its_solver(tmp_path: Path) -> None:
    """An account that lets today's countdown run out would otherwise read the answer for
    another account that then races on the same day."""
    clock = Clock()
    svc = service(tmp_path, clock, chooser=tiny_chooser)
    quitter, solver = svc.register("quitter"), svc.register("solver")
    sprint = NewGame(Mode.CAMPAIGN, options=Options(time_limit_s=1))
    lost = svc.create(quitter.token, sprint).game_id
    won = svc.create(solver.token, NewGame(Mode.CAMPAIGN)).game_id
    clock.advance(2)
    view = svc.view(lost, quitter.token)
    assert view.phase == "finished" and view.end_reason == "time"
    assert view.solution is None and "is played until" in (view.solution_withheld or "")
    for cell, digit in solution_of(svc, won).items():
        clock.advance(5)
        svc.act(won, solver.token, {"kind": "place", "cell": cell, "digit": digit})
    assert svc.view(won, solver.token).solution is not None  # the solver knows it anyway
    clock.advance((cal.ARCHIVE_DAYS + 1) * 24 * 3600)  # the day is over for everyone
    assert svc.view(lost, quitter.token).solution is not None


def test_the_terminal_refuses_a_live_grid_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from _game import TINY

    from kakurolab.cli import main

    svc = service(tmp_path, chooser=tiny_chooser)  # an Arena on tiny-a waits for racers
    svc.create(svc.register("ann").token, NewGame(Mode.ARENA))
    svc.close()
    store = ["--store", str(tmp_path / "games.sqlite")]
    for select in ("tiny-a", "tiny-b"):
        code = main(["play", "new", "--file", str(TINY), "--select", select, *store])
        err = capsys.readouterr().err
        if select == "tiny-a":
            assert code == 2 and err.count("\n") == 1 and LIVE in err and "Traceback" not in err
        else:
            assert code == 0, err


def test_the_terminal_shows_the_flag_and_the_withheld_solution(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import time

    from kakurolab.cli import main

    clock = Clock(time.time())  # the terminal reads the wall clock: today's calendar day
    svc = service(tmp_path, clock, chooser=tiny_chooser)
    ann, ben = svc.register("ann"), svc.register("ben")
    race = svc.create(ann.token, NewGame(Mode.ARENA)).game_id
    svc.join(race, ben.token)
    svc.act(race, ann.token, {"kind": "start"})
    for cell, digit in solution_of(svc, race).items():
        svc.act(race, ann.token, {"kind": "place", "cell": cell, "digit": digit})
    svc.act(race, ann.token, {"kind": "submit"})
    day = svc.create(ben.token, NewGame(Mode.CAMPAIGN, options=Options(time_limit_s=1))).game_id
    clock.advance(2)
    svc.view(day, ben.token)  # settles the countdown at the service's clock
    svc.close()
    store = ["--store", str(tmp_path / "games.sqlite")]
    assert main(["play", "score", race, "--token", ann.token, *store]) == 0
    out = capsys.readouterr().out
    assert "ann: " in out and "FLAGGED" in out.split("ann: ")[1].splitlines()[0]
    assert main(["play", "show", day, "--token", ben.token, *store]) == 0
    out = capsys.readouterr().out
    assert "solution: the calendar puzzle of" in out and "  -21-" not in out


def test_the_kept_calendar_puzzle_is_the_live_one(store_at: Path | str) -> None:
    """Two makers of one day race: the first kept grid is everyone's, and it is the one the
    copy rule guards (not the late maker's)."""
    from kakurolab.game.prepare import Choice, Prepared
    from kakurolab.game.rules import GameSpec

    svc = service(store_at, chooser=tiny_chooser)
    key = cal.seed_of(cal.today(svc.clock()))
    for name in ("tiny-a", "tiny-b"):  # tiny-a is kept first, tiny-b is made late
        made = Prepared(GameSpec(Mode.CAMPAIGN, "4x4", "easy", None), tiny(name), None,  # type: ignore[arg-type]
                        fingerprints(tiny(name)))  # fmt: skip
        svc.keep(Choice(Mode.CAMPAIGN, "4x4", "easy", None, None, "secret", Options(),
                        cache_key=key), made)  # fmt: skip
    me = svc.register("me")
    with pytest.raises(GameError, match=LIVE):
        svc.create(me.token, NewGame(Mode.PRACTICE, puzzle=tiny("tiny-a")))
    assert svc.create(me.token, NewGame(Mode.PRACTICE, puzzle=tiny("tiny-b"))).phase == "active"
