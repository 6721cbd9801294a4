"""Complete games of every mode through the service API, the four shields, bad input, a
seeded fuzz of random moves, and that nothing shows the solution before the end."""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path
from typing import Any

import pytest
from _game import Clock, service, solution_of, tiny, tiny_chooser

from kakurolab.combos import combos, digits_of
from kakurolab.game import (
    AuthError,
    GameOverError,
    IllegalMoveError,
    Mode,
    Move,
    MoveSyntaxError,
    NewGame,
    NotYourTurnError,
    Options,
    UnknownGameError,
)
from kakurolab.game import calendar as cal
from kakurolab.game.moves import parse_cell
from kakurolab.game.scoring import base_score, speed_bonus
from kakurolab.game.service import solution_rows

# tiny-a (tests/data/tiny.kakuro), its solution and clues:
#   r2: 2 1 (across 3)     c2: 2 3 (down 5)
#   r3: 3 5 2 (across 10)  c3: 1 5 9 (down 15)
#   r4:   9 7 (across 16)  c4: 2 7 (down 9)
TINY_A = {"r2c2": 2, "r2c3": 1, "r3c2": 3, "r3c3": 5, "r3c4": 2, "r4c3": 9, "r4c4": 7}


def place(cell: str, digit: int) -> dict[str, Any]:
    return {"kind": "place", "cell": cell, "digit": digit}


def test_independent_solution_is_the_hand_written_one(tmp_path: Path) -> None:
    svc = service(tmp_path)
    me = svc.register("a")
    view = svc.create(me.token, NewGame(Mode.PRACTICE, puzzle=tiny()))
    assert solution_of(svc, view.game_id) == TINY_A


# --- Battle Matrix ------------------------------------------------------------------------------


def test_battle_matrix_scripted_game_matches_the_hand_computed_score(tmp_path: Path) -> None:
    clock = Clock()
    svc = service(tmp_path, clock, chooser=tiny_chooser)
    alice, bob = svc.register("alice"), svc.register("bob")
    game = svc.create(alice.token, NewGame(Mode.BATTLE, size="4x4")).game_id
    assert svc.view(game, alice.token).phase == "waiting"
    assert svc.join(game, bob.token).phase == "active"  # the second seat starts it
    script = [
        # (player, cell, digit, points, completed entries)          running: alice / bob
        (alice, "r2c2", 2, 2, []),  # 2 / 0
        (bob, "r2c3", 1, 101, ["r2c1 across"]),  # 1 + 100 (row 2 = 3): 2 / 101
        (alice, "r3c2", 4, -150, []),  # wrong, not placed: -148 / 101
        (bob, "r3c2", 3, 103, ["r1c2 down"]),  # 3 + 100 (col 2 = 5): -148 / 204
        (alice, "r3c3", 5, 5, []),  # -143 / 204
        (bob, "r3c4", 2, 102, ["r3c1 across"]),  # 2 + 100 (row 3 = 10): -143 / 306
        (alice, "r4c3", 9, 109, ["r1c3 down"]),  # 9 + 100 (col 3 = 15): -34 / 306
        (bob, "r4c4", 7, 207, ["r4c2 across", "r2c4 down"]),  # 7 + 200: -34 / 513
    ]
    for who, cell, digit, points, completed in script:
        clock.advance(10 if who is alice else 20)
        result = svc.act(game, who.token, place(cell, digit))
        assert result.outcome.points == points, (cell, digit)
        assert sorted(result.outcome.completed) == sorted(completed)
        assert result.outcome.correct is (points > 0)
    final = svc.view(game, alice.token)
    assert final.phase == "finished" and final.end_reason == "completed"
    lines = {s["name"]: s for s in final.standings}
    assert lines["bob"]["score"] == 513 and lines["alice"]["score"] == -34
    assert lines["bob"]["rank"] == 1 and lines["alice"]["rank"] == 2
    # tie-breaker inputs: time on own turns (4 x 20 s, 4 x 10 s), the highest clue completed
    assert lines["bob"]["time_s"] == 80 and lines["alice"]["time_s"] == 40
    assert lines["bob"]["best_clue"] == 16 and lines["alice"]["best_clue"] == 15
    assert final.board == TINY_A


def test_battle_turns_and_public_pencil_marks(tmp_path: Path) -> None:
    svc = service(tmp_path, chooser=tiny_chooser)
    alice, bob = svc.register("alice"), svc.register("bob")
    game = svc.create(alice.token, NewGame(Mode.BATTLE, size="4x4")).game_id
    svc.join(game, bob.token)
    before = svc.view(game, bob.token).to_json()
    with pytest.raises(NotYourTurnError, match="alice's turn"):
        svc.act(game, bob.token, place("r2c2", 2))
    with pytest.raises(NotYourTurnError):
        svc.act(game, bob.token, {"kind": "shield", "shield": "hint"})
    assert svc.view(game, bob.token).to_json() == before
    svc.act(game, bob.token, {"kind": "mark", "cell": "r3c3", "digit": 5})  # marks: any time
    seen = {p.name: p.marks for p in svc.view(game, alice.token).players}
    assert seen["bob"] == {"r3c3": [5]}  # public in turn-based play
    with pytest.raises(IllegalMoveError, match="no clear shield"):
        svc.act(game, alice.token, {"kind": "shield", "shield": "clear"})
    with pytest.raises(IllegalMoveError, match="verified and stay"):
        svc.act(game, alice.token, {"kind": "erase", "cell": "r2c2"})
    svc.act(game, alice.token, place("r2c2", 2))
    with pytest.raises(IllegalMoveError, match="already holds 2"):
        svc.act(game, bob.token, place("r2c2", 2))
    assert svc.view(game, bob.token).turn == bob.player_id
    last = svc.events_since(game, bob.token, svc.version(game) - 1)
    assert [e.move for e in last] == [place("r2c2", 2)]  # the shared board is public
    assert last[0].outcome is not None and last[0].outcome["points"] == 2


# --- Speed Arena -------------------------------------------------------------------------------


def test_arena_race_wrong_then_right_submission(tmp_path: Path) -> None:
    clock = Clock()
    svc = service(tmp_path, clock, chooser=tiny_chooser)
    racers = [svc.register(n) for n in ("ann", "ben", "cy")]
    game = svc.create(racers[0].token, NewGame(Mode.ARENA, size="4x4")).game_id
    for racer in racers[1:]:
        svc.join(game, racer.token)
    with pytest.raises(IllegalMoveError, match="only the player who created"):
        svc.act(game, racers[1].token, {"kind": "start"})
    svc.act(game, racers[0].token, {"kind": "start"})
    ann, ben = racers[0], racers[1]
    wrong = dict(TINY_A, r4c4=8)
    for cell, digit in wrong.items():
        clock.advance(5)
        svc.act(game, ann.token, place(cell, digit))
    svc.act(game, ben.token, place("r2c2", 2))
    # rivals see progress only: shares of filled cells, never digits
    seen = svc.view(game, ben.token)
    ann_seen = next(p for p in seen.players if p.name == "ann")
    assert ann_seen.progress == 1.0 and ann_seen.marks is None
    assert "r4c4" not in seen.board
    assert all(e.move is None for e in svc.events_since(game, ben.token, 0)
               if e.player_id == ann.player_id and e.kind == "place")  # fmt: skip
    with pytest.raises(IllegalMoveError, match="6 empty"):  # incomplete: refused, not counted
        svc.act(game, ben.token, {"kind": "submit"})
    refused = svc.act(game, ann.token, {"kind": "submit"})
    assert refused.outcome.submission == "wrong" and not refused.outcome.finished
    assert refused.view.phase == "active"
    assert next(p for p in refused.view.players if p.name == "ann").wrong_submissions == 1
    clock.advance(10)
    svc.act(game, ann.token, place("r4c4", 7))
    clock.advance(10)
    won = svc.act(game, ann.token, {"kind": "submit"})
    assert won.outcome.submission == "accepted" and won.view.phase == "finished"
    assert won.view.end_reason == "submission"
    lines = {s["name"]: s for s in won.view.standings}
    target = won.view.spec["target_s"]
    elapsed = 7 * 5 + 20
    # ann: 4x4 base 110, speed from the target, no flawless (a wrong digit and a wrong
    # submission), 3 unused shields
    expected = base_score(4, 4) + speed_bonus(elapsed, target) + 0 + 300
    assert lines["ann"]["score"] == expected and lines["ann"]["rank"] == 1
    assert lines["ann"]["time_s"] == elapsed
    assert lines["ben"]["score"] == 0 and lines["cy"]["score"] == 0
    assert lines["ben"]["rank"] == lines["cy"]["rank"] == 2  # a complete tie shares rank 2
    with pytest.raises(GameOverError):
        svc.act(game, ben.token, place("r2c3", 1))


# --- Practice and the sprint countdown -----------------------------------------------------------


def test_practice_flawless_solve_scores_the_mastery_formula(tmp_path: Path) -> None:
    clock = Clock()
    svc = service(tmp_path, clock)
    me = svc.register("solo")
    view = svc.create(me.token, NewGame(Mode.PRACTICE, puzzle=tiny()))
    assert view.phase == "active" and view.spec["size"] == "4x4"
    for cell, digit in TINY_A.items():
        clock.advance(3)
        result = svc.act(view.game_id, me.token, place(cell, digit))
    assert result.outcome.finished and result.view.end_reason == "completed"
    (line,) = result.view.standings
    target = view.spec["target_s"]
    assert line["breakdown"] == {
        "base": 110, "speed": speed_bonus(21, target), "flawless": 500, "shields": 300,
        "total": 110 + speed_bonus(21, target) + 800,
    }  # fmt: skip
    assert line["best_clue"] == 16  # the highest clue sum of the grid


def test_sprint_countdown_ends_the_game(tmp_path: Path) -> None:
    clock = Clock()
    svc = service(tmp_path, clock)
    me = svc.register("sprinter")
    options = Options(time_limit_s=60)
    game = svc.create(me.token, NewGame(Mode.PRACTICE, puzzle=tiny(), options=options)).game_id
    svc.act(game, me.token, place("r2c2", 2))
    clock.advance(59)
    assert svc.view(game, me.token).remaining_s == 1
    clock.advance(5)
    with pytest.raises(GameOverError, match="time ran out"):
        svc.act(game, me.token, place("r2c3", 1))
    final = svc.view(game, me.token)
    assert final.phase == "finished" and final.end_reason == "time"
    assert final.elapsed_s == 60 and final.remaining_s == 0
    assert final.standings[0]["score"] == 0 and final.board == {"r2c2": 2}
    assert final.solution is not None  # over: now it may be shown


def test_options_are_checked(tmp_path: Path) -> None:
    svc = service(tmp_path, chooser=tiny_chooser)
    me = svc.register("x")
    with pytest.raises(Exception, match="box holds 20"):
        svc.create(me.token, NewGame(Mode.ARENA, options=Options(shields=6)))
    with pytest.raises(Exception, match="permanent placement does not apply"):
        svc.create(me.token, NewGame(Mode.BATTLE, options=Options(permanent=True)))


# --- the Master Calendar -------------------------------------------------------------------------


def test_campaign_week_streak_and_one_puzzle_per_date(tmp_path: Path) -> None:
    clock = Clock()  # Monday 2026-11-30
    asked: list[tuple[str, str, str]] = []

    def chooser(size: str, difficulty: str, seed: str | int) -> Any:
        asked.append((size, difficulty, str(seed)))
        from kakurolab.game.puzzles import choose

        return choose("6x6", "easy", seed)  # the week's real sizes are tested in the slow suite

    svc = service(tmp_path, clock, chooser=chooser)
    alice, bob = svc.register("alice"), svc.register("bob")
    for day in range(7):
        view = svc.create(alice.token, NewGame(Mode.CAMPAIGN))
        assert view.spec["date"] == (dt.date(2026, 11, 30) + dt.timedelta(days=day)).isoformat()
        again = svc.create(alice.token, NewGame(Mode.CAMPAIGN))
        assert again.game_id == view.game_id  # one calendar game per player and date
        if day == 2:  # bob plays Wednesday too: the same grid
            theirs = svc.create(bob.token, NewGame(Mode.CAMPAIGN))
            assert theirs.puzzle == view.puzzle and theirs.game_id != view.game_id
        for cell, digit in solution_of(svc, view.game_id).items():
            clock.advance(2)
            result = svc.act(view.game_id, alice.token, place(cell, digit))
        assert result.view.phase == "finished"
        progress = svc.campaign(alice.token)
        assert progress["current_streak"] == day + 1
        clock.advance(24 * 3600 - clock.now % (24 * 3600))  # to the next midnight
    # Monday to Sunday: the week's table, each day from its own seed, which is not the date
    # (a secret of the store: nobody computes a future day offline); bob's Wednesday was
    # the kept grid, not made again
    # (a day's maker may draw SEED/1, SEED/2 ... until the grade fits the day's band)
    firsts = [(size, level, seed) for size, level, seed in asked if "/" not in seed]
    assert [(size, level) for size, level, _ in firsts] == [
        (day.size, day.difficulty) for day in cal.WEEK
    ]
    assert all(seed.split("/")[0] in {s for _, _, s in firsts} for _, _, seed in asked)
    seeds = [seed for _, _, seed in firsts]
    assert len(set(seeds)) == 7 and not any("2026" in seed for seed in seeds)
    progress = svc.campaign(alice.token)
    assert progress["best_streak"] == 7 and progress["current_streak"] == 7
    assert all(d["solved_on"] == d["date"] for d in progress["days"])
    clock.advance(2 * 24 * 3600)  # two days without playing: the streak is broken
    assert svc.campaign(alice.token)["current_streak"] == 0
    assert svc.campaign(alice.token)["best_streak"] == 7


def test_streak_rules() -> None:
    day = dt.date(2026, 11, 30)
    days = [day - dt.timedelta(days=i) for i in (1, 2, 3, 5, 6)]
    assert cal.streaks(days, day) == cal.Streaks(3, 3)  # today still open: yesterday counts
    assert cal.streaks([*days, day], day) == cal.Streaks(4, 4)
    assert cal.streaks(days, day + dt.timedelta(days=2)).current == 0


# --- shields -----------------------------------------------------------------------------------


def _solo(tmp_path: Path, **options: Any) -> tuple[Any, Any, str]:
    svc = service(tmp_path)
    me = svc.register("solo")
    view = svc.create(me.token, NewGame(Mode.PRACTICE, puzzle=tiny(), options=Options(**options)))
    return svc, me, view.game_id


def shield(kind: str, **fields: Any) -> dict[str, Any]:
    return {"kind": "shield", "shield": kind, **fields}


def test_candidates_shield_shows_the_clue_sets_given_the_entries(tmp_path: Path) -> None:
    svc, me, game = _solo(tmp_path)
    svc.act(game, me.token, place("r2c3", 1))
    result = svc.act(game, me.token, shield("candidates", run="r1c3 down"))
    # column 3: 15 in three cells, 1 written: 14 in two cells without 1 -> {5, 9} or {6, 8}
    assert result.outcome.shield is not None
    assert result.outcome.shield.sets == ((5, 9), (6, 8))  # in reading order
    assert result.view.shields_left == 2 and result.view.shields_used == 1
    # a white cell names its run too
    again = svc.act(game, me.token, shield("candidates", run="r3c2 across"))
    # row 3: 10 in three empty cells: every set the table of sums allows
    expected = tuple(sorted(digits_of(m) for m in combos(3, 10)))
    assert again.outcome.shield is not None and again.outcome.shield.sets == expected
    assert len(expected) == 4


def test_hint_shield_gives_the_next_deduction(tmp_path: Path) -> None:
    svc, me, game = _solo(tmp_path)
    result = svc.act(game, me.token, shield("hint"))
    found = result.outcome.shield
    assert found is not None and found.fixes and "Fixes:" in found.text
    for cell, digit in found.fixes:
        assert TINY_A[f"r{cell[0] + 1}c{cell[1] + 1}"] == digit
    assert result.view.board == {}  # a hint shows; it does not write


def test_clear_shield_removes_exactly_the_wrong_entries(tmp_path: Path) -> None:
    svc, me, game = _solo(tmp_path)
    for cell, digit in {"r2c2": 2, "r2c3": 2, "r3c3": 4}.items():
        svc.act(game, me.token, place(cell, digit))
    result = svc.act(game, me.token, shield("clear"))
    assert result.view.board == {"r2c2": 2}
    assert result.outcome.shield is not None and len(result.outcome.shield.cleared) == 2


def test_unlock_shield_frees_a_permanent_digit(tmp_path: Path) -> None:
    svc, me, game = _solo(tmp_path, permanent=True)
    svc.act(game, me.token, place("r2c2", 3))
    for move in ({"kind": "erase", "cell": "r2c2"}, place("r2c2", 2)):
        with pytest.raises(IllegalMoveError, match="permanent"):
            svc.act(game, me.token, move)
    with pytest.raises(IllegalMoveError, match="no permanent digit"):
        svc.act(game, me.token, shield("unlock", cell="r3c3"))
    assert svc.view(game, me.token).shields_left == 3  # a refused shield is not spent
    svc.act(game, me.token, shield("unlock", cell="r2c2"))
    svc.act(game, me.token, place("r2c2", 2))
    assert svc.view(game, me.token).locked == ["r2c2"]


def test_unlock_needs_permanent_placement_and_shields_run_out(tmp_path: Path) -> None:
    svc, me, game = _solo(tmp_path)
    with pytest.raises(IllegalMoveError, match="permanent placement is off"):
        svc.act(game, me.token, shield("unlock", cell="r2c2"))
    for _ in range(3):
        svc.act(game, me.token, shield("clear"))
    with pytest.raises(IllegalMoveError, match="no Logic Shield left"):
        svc.act(game, me.token, shield("clear"))


def test_shields_refuse_entries_that_break_a_rule_without_spending(tmp_path: Path) -> None:
    svc, me, game = _solo(tmp_path)
    svc.act(game, me.token, place("r2c2", 1))
    svc.act(game, me.token, place("r2c3", 1))  # a repeat in row 2
    assert svc.view(game, me.token).conflicts == ["r2c2", "r2c3"]
    for kind in ("hint", "candidates"):
        fields = {"run": "r2c4 down"} if kind == "candidates" else {}
        with pytest.raises(IllegalMoveError, match="break a rule"):
            svc.act(game, me.token, shield(kind, **fields))
    assert svc.view(game, me.token).shields_left == 3


# --- bad input ---------------------------------------------------------------------------------

BAD_MOVES: list[Any] = [
    "place r2c2 2",
    {"kind": "place", "cell": "r2c2"},
    {"kind": "place", "cell": "r2c2", "digit": 0},
    {"kind": "place", "cell": "r2c2", "digit": 10},
    {"kind": "place", "cell": "r2c2", "digit": True},
    {"kind": "place", "cell": "x9", "digit": 3},
    {"kind": "place", "cell": "r2c2", "digit": 3, "extra": 1},
    {"kind": "teleport"},
    {"kind": "shield", "shield": "nuke"},
    {"kind": "shield", "shield": "candidates"},
    {"kind": "join", "name": "mallory"},
    {"kind": "expire"},
    {"kind": "mark", "cell": "r2c2", "digit": "x" * 10_000},
]
REFUSED_MOVES: list[Any] = [
    place("r1c1", 3),  # a clue cell
    place("r9c9", 3),  # off the grid
    {"kind": "erase", "cell": "r2c2"},  # empty
    {"kind": "start"},  # already started
    {"kind": "submit"},  # incomplete
    shield("candidates", run="r1c1 down"),  # no such clue entry
]


def test_bad_input_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    svc, me, game = _solo(tmp_path)
    other = svc.register("eve")
    before = svc.view(game, me.token).to_json()
    for move in BAD_MOVES:
        with pytest.raises(MoveSyntaxError):
            svc.act(game, me.token, move)
    for move in REFUSED_MOVES:
        with pytest.raises(IllegalMoveError):
            svc.act(game, me.token, move)
    with pytest.raises(UnknownGameError, match="no game 'g-nosuch'"):
        svc.act("g-nosuch", me.token, place("r2c2", 2))
    with pytest.raises(AuthError, match="unknown player token"):
        svc.act(game, "not-a-token", place("r2c2", 2))
    with pytest.raises(AuthError, match="not a player"):
        svc.act(game, other.token, place("r2c2", 2))
    with pytest.raises(AuthError):
        svc.view(game, other.token)
    assert svc.view(game, me.token).to_json() == before
    assert svc.store.version(game) == before["version"]


def test_moves_after_the_end_are_refused(tmp_path: Path) -> None:
    svc, me, game = _solo(tmp_path)
    for cell, digit in TINY_A.items():
        svc.act(game, me.token, place(cell, digit))
    before = svc.view(game, me.token).to_json()
    for move in (place("r2c2", 3), shield("hint"), {"kind": "submit"}):
        with pytest.raises(GameOverError, match="is over"):
            svc.act(game, me.token, move)
    assert svc.view(game, me.token).to_json() == before


def test_error_kinds_are_standard_exceptions() -> None:
    assert issubclass(UnknownGameError, KeyError) and issubclass(AuthError, PermissionError)
    assert issubclass(IllegalMoveError, ValueError) and str(UnknownGameError("no game 'x'")) == (
        "no game 'x'"
    )


def test_move_words_and_json_are_one_shape() -> None:
    cases = {
        "r3c4 7": {"kind": "place", "cell": "r3c4", "digit": 7},
        "erase r3c4": {"kind": "erase", "cell": "r3c4"},
        "mark r3c4 7": {"kind": "mark", "cell": "r3c4", "digit": 7},
        "shield candidates r1c3 down": {
            "kind": "shield",
            "shield": "candidates",
            "run": "r1c3 down",
        },
        "shield unlock r3c4": {"kind": "shield", "shield": "unlock", "cell": "r3c4"},
        "shield hint": {"kind": "shield", "shield": "hint"},
        "submit": {"kind": "submit"},
    }
    for words, record in cases.items():
        move = Move.parse(words.split())
        assert move.to_json() == record and Move.from_json(record) == move
        assert Move.parse([words]) == move  # one argument holding every word, as help shows


# --- fuzz --------------------------------------------------------------------------------------


def _random_move(rng: random.Random) -> dict[str, Any]:
    near = rng.random() < 0.9  # mostly cells of the 4x4 grid, sometimes off it
    cell = f"r{rng.randint(1, 4) if near else rng.randint(0, 9)}c{rng.randint(1, 4)}"
    right = TINY_A.get(cell)
    digit = right if right and rng.random() < 0.5 else rng.choice([1, 2, 3, 5, 7, 9, 0, 10])
    kind = rng.choice(["place"] * 6 + ["erase"] * 2 + ["mark", "submit", "shield"])
    if kind == "shield":
        which = rng.choice(["hint", "clear", "candidates", "unlock"])
        extra = {"run": f"{cell} {rng.choice(['down', 'across'])}"} if which == "candidates" else {}
        extra |= {"cell": cell} if which == "unlock" else {}
        return shield(which, **extra)
    if kind in ("place", "mark"):
        return {"kind": kind, "cell": cell, "digit": digit}
    return {"kind": kind, "cell": cell} if kind == "erase" else {"kind": kind}


@pytest.mark.parametrize("mode", [Mode.PRACTICE, Mode.BATTLE])
def test_fuzz_random_moves_keep_the_invariants(tmp_path: Path, mode: Mode) -> None:
    rng = random.Random(f"fuzz-{mode}")
    clock = Clock()
    svc = service(tmp_path, clock, chooser=tiny_chooser)
    players = [svc.register("p1"), svc.register("p2")]
    seats = players[:1] if mode is Mode.PRACTICE else players
    # a countdown ends games that random play cannot finish (permanent wrong digits)
    options = Options(permanent=mode is Mode.PRACTICE, time_limit_s=120)
    game = svc.create(players[0].token, NewGame(mode, size="4x4", options=options)).game_id
    for p in seats[1:]:
        svc.join(game, p.token)
    accepted = 0
    games = 1
    for step in range(2000):
        clock.advance(rng.random())
        current = svc.view(game, seats[0].token).turn
        turn = [p for p in seats if p.player_id == current]
        who = turn[0] if turn and rng.random() < 0.8 else rng.choice(seats)
        before = svc.view(game, who.token).to_json()
        try:
            svc.act(game, who.token, _random_move(rng))
        except IllegalMoveError:
            if svc.view(game, who.token).phase == "finished":  # the countdown ran out
                before = svc.view(game, who.token).to_json()
            assert svc.view(game, who.token).to_json() == before  # refused: nothing changed
            after = before
        else:
            accepted += 1
            after = svc.view(game, who.token).to_json()
            assert after["version"] == before["version"] + 1
        assert set(after["board"]) <= set(TINY_A) and all(
            1 <= d <= 9 for d in after["board"].values()
        )
        for p in after["players"]:
            assert p["shields_left"] + p["shields_used"] == 3 and p["shields_left"] >= 0
        if mode is Mode.BATTLE:
            assert all(TINY_A[c] == d for c, d in after["board"].items())  # only right digits
        assert (after["solution"] is None) == (after["phase"] != "finished")
        if step % 500 == 499:  # the store replays to the same state
            fresh = service(tmp_path, clock, chooser=tiny_chooser)
            assert fresh.view(game, who.token).to_json() == after
        if after["phase"] == "finished":  # start another game, keep fuzzing
            games += 1
            game = svc.create(players[0].token, NewGame(mode, size="4x4", options=options)).game_id
            for p in seats[1:]:
                svc.join(game, p.token)
    print(f"{mode}: {accepted} accepted, {games} games")
    assert accepted > 150 and games >= 3  # the fuzz reached real play, not only refusals


# --- the solution stays hidden -------------------------------------------------------------------


def test_nothing_shows_the_solution_before_the_end(tmp_path: Path) -> None:
    clock = Clock()
    svc = service(tmp_path, clock)
    me = svc.register("curious")
    view = svc.create(me.token, NewGame(Mode.PRACTICE, size="8x8", difficulty="easy", seed=7))
    game = view.game_id
    solution = solution_of(svc, game)
    cells = list(solution)
    assert len(cells) >= 15
    outputs: list[Any] = [view.to_json()]
    # play most of the grid, some of it wrong, with shields (not the last cells)
    for cell in cells[:-3]:
        clock.advance(4)
        digit = solution[cell] if cell != cells[2] else solution[cell] % 9 + 1
        outputs.append(svc.act(game, me.token, place(cell, digit)).to_json())
    outputs.append(svc.act(game, me.token, shield("clear")).to_json())
    outputs.append(svc.act(game, me.token, shield("candidates", run=f"{cells[-1]} across")))
    outputs.append(svc.view(game, me.token).to_json())
    outputs += [e.to_json() for e in svc.events_since(game, me.token, 0)]
    outputs += [svc.describe(game), svc.games(me.token), svc.standings(game, me.token)]
    text = json.dumps(outputs, default=str)
    digits = "".join(str(solution[c]) for c in cells)
    puzzle = svc._game(game).puzzle
    values = {parse_cell(c): d for c, d in solution.items()}
    long_rows = [t for t in solution_rows(puzzle, values) if len(t.replace("-", "")) >= 4]
    assert long_rows
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("games.sqlite*"))
    for haystack in (text, stored.decode("latin-1")):
        assert digits not in haystack
        assert not [t for t in long_rows if t in haystack]
    # ... and the search would find it once the game is over
    for cell in [*cells[-3:], cells[2]]:
        svc.act(game, me.token, place(cell, solution[cell]))
    after = svc.view(game, me.token)
    assert after.phase == "finished"
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("games.sqlite*"))
    assert after.solution == solution_rows(puzzle, values)
    assert all(t in stored.decode("latin-1") for t in long_rows)


@pytest.mark.slow
def test_the_real_calendar_chooser_gives_the_week() -> None:
    """The real chooser on a whole week, Sunday's 16x22 Grand Master included: the sizes of
    the table, unique puzzles (proved by a second backend), the same grid on a second call."""
    from kakurolab.game.puzzles import choose
    from kakurolab.generator import parse_size
    from kakurolab.rulebook import solution_problems
    from kakurolab.uniqueness import Verdict, prove_unique

    for i, day in enumerate(cal.WEEK):
        date = dt.date(2026, 11, 30) + dt.timedelta(days=i)
        puzzle, solution = choose(day.size, day.difficulty, cal.seed_of(date))
        assert puzzle.shape == parse_size(day.size)
        assert not solution_problems(puzzle, solution)
        assert prove_unique(puzzle, backend="pysat").verdict is Verdict.UNIQUE
        if i == 0:
            assert choose(day.size, day.difficulty, cal.seed_of(date)).puzzle == puzzle


def test_lobby_rules_and_hostile_input(tmp_path: Path) -> None:
    clock = Clock()
    svc = service(tmp_path, clock, chooser=tiny_chooser)
    a, b, c = (svc.register(n) for n in ("a", "b", "c"))
    game = svc.create(a.token, NewGame(Mode.BATTLE, size="4x4")).game_id
    assert svc.describe(game) | {"version": 0} == {
        "game_id": game, "mode": "battle", "phase": "waiting", "version": 0, "size": "4x4",
        "difficulty": "easy", "players": ["a"], "seats": 2,
    }  # fmt: skip
    svc.join(game, b.token)
    with pytest.raises(IllegalMoveError, match="already started"):
        svc.join(game, c.token)
    with pytest.raises(Exception, match="whole number"):
        svc.events_since(game, a.token, "0")  # type: ignore[arg-type]
    huge = {"kind": "place", "cell": "r2c2", "digit": 2} | {f"k{i}": i for i in range(10_000)}
    with pytest.raises(MoveSyntaxError) as info:
        svc.act(game, a.token, huge)
    assert len(str(info.value)) < 200
    with pytest.raises(AuthError):
        svc.act(game, "t" * 100_000, place("r2c2", 2))
    with pytest.raises(UnknownGameError):
        svc.view("g-" + "x" * 10_000, a.token)
    with pytest.raises(Exception, match="not out yet"):
        svc.create(a.token, NewGame(Mode.CAMPAIGN, date="2026-12-01"))
    with pytest.raises(Exception, match="YYYY-MM-DD"):
        svc.create(a.token, NewGame(Mode.CAMPAIGN, date="yesterday"))
    assert svc.view(game, a.token).version == 3  # two joins and the start, nothing else
