"""Stateful property tests of the game engine over all four modes (issue 29): random
sequences of moves by several players, with the invariants that a refused move changes
nothing, no view shows the solution before the end, replaying the stored log gives the same
state (a fresh service reads the log back), and scores follow the rulebook, recomputed here
from its text: Battle Matrix points after every placement, and the Kakuro Mastery Formula
(practice, campaign, arena) for every player when the game ends.  tiny-a is played on an 8x8
sheet (blocks around it) so the rulebook's base score table has its row."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from _game import Clock, service, tiny

from kakurolab.game import GameError, Mode, NewGame, Options
from kakurolab.game.rules import RULES
from kakurolab.model import BLOCK, Puzzle, Solution
from kakurolab.uniqueness import solve

hypothesis = pytest.importorskip("hypothesis", reason="the test extra installs hypothesis")
st = pytest.importorskip("hypothesis.strategies")
stateful = pytest.importorskip("hypothesis.stateful")

TINY_A = {"r2c2": 2, "r2c3": 1, "r3c2": 3, "r3c3": 5, "r3c4": 2, "r4c3": 9, "r4c4": 7}
"""tiny-a's solution (tests/data/tiny.kakuro): right digits make real progress."""

RUNS = [
    {f"r{r + 1}c{c + 1}" for r, c in run.cells} for run in tiny().runs
]
"""tiny-a's runs (clue entries) by cell name, read from the puzzle, not from the engine."""

ENTRY_BONUS, ILLEGAL = 100, -150
"""The rulebook's Battle Matrix scoring (Kakuro Master, section on duels): a correct digit
earns its value, completing a clue entry +100, an illegal digit forfeits 150 points."""


BASE_SCORES = {(8, 8): 500, (12, 12): 1200, (16, 22): 3000}
"""The rulebook's Kakuro Mastery Formula (2.7): the base completion score by grid size."""
SPEED_STEP_S, SPEED_STEP_POINTS = 30, 10
"""+10 points for every full 30 seconds remaining under the target benchmark time."""
FLAWLESS, PER_UNUSED_SHIELD, START_TOKENS = 500, 100, 3
"""+500 without spending a Logic Shield Token or making an illegal entry; +100 per remaining
token; each player starts with 3 tokens (setup)."""


def mastery_score(size: tuple[int, int], elapsed: float, target: float, used: int,
                  illegal: int) -> int:
    """The Mastery Formula by the rulebook for a player who solved the grid."""
    speed = SPEED_STEP_POINTS * int((target - elapsed) // SPEED_STEP_S) if elapsed < target else 0
    flawless = FLAWLESS if used == 0 and illegal == 0 else 0
    return BASE_SCORES[size] + speed + flawless + PER_UNUSED_SHIELD * (START_TOKENS - used)


def sheet_chooser(size: str, difficulty: str, seed: str | int) -> tuple[Puzzle, Solution]:
    """tiny-a in the corner of an 8x8 sheet (blocks elsewhere), whatever the size asked."""
    small = tiny()
    grid = tuple(
        tuple(small.grid[r][c] if r < small.nrows and c < small.ncols else BLOCK
              for c in range(8))
        for r in range(8)
    )
    puzzle = Puzzle(f"tiny-{seed}", grid)
    result = solve(puzzle)
    assert result.solution is not None
    return puzzle, result.solution


def battle_points(board: dict[str, int], cell: str, digit: int) -> int:
    """A placement's points by the rulebook, from the board before it."""
    if TINY_A.get(cell) != digit:
        return ILLEGAL
    after = {*board, cell}
    return digit + ENTRY_BONUS * sum(cell in run and run <= after for run in RUNS)

cells = st.sampled_from([*TINY_A, "r1c1", "r9c9"])
digits = st.integers(min_value=0, max_value=10)
moves = st.one_of(
    cells.map(lambda c: {"kind": "place", "cell": c, "digit": TINY_A.get(c, 1)}),
    st.builds(lambda c, d: {"kind": "place", "cell": c, "digit": d}, cells, digits),
    cells.map(lambda c: {"kind": "erase", "cell": c}),
    st.builds(lambda c, d: {"kind": "mark", "cell": c, "digit": d}, cells, digits),
    st.just({"kind": "submit"}),
    st.just({"kind": "shield", "shield": "hint"}),
    cells.map(lambda c: {"kind": "shield", "shield": "unlock", "cell": c}),
    cells.map(lambda c: {"kind": "shield", "shield": "candidates", "run": f"{c} down"}),
)


class GameMachine(stateful.RuleBasedStateMachine):  # type: ignore[misc,name-defined]
    def __init__(self) -> None:
        super().__init__()
        self.tmp = Path(tempfile.mkdtemp(prefix="kakuro-game-"))
        self.clock = Clock()
        self.svc = service(self.tmp, self.clock, chooser=sheet_chooser)
        self.players = [self.svc.register(f"p{i}") for i in range(3)]
        self.seats: list[Any] = []
        self.game = ""
        self.mode = Mode.PRACTICE
        self.used: dict[str, int] = {}
        self.illegal: dict[str, int] = {}
        self.solved_at: dict[str, float] = {}
        """Per player, counted from the accepted moves: tokens spent, illegal entries (a
        wrong digit placed, a wrong grid submitted) and when the grid was solved."""

    @stateful.initialize(mode=st.sampled_from(list(Mode)))  # type: ignore[misc]
    def new_game(self, mode: Mode) -> None:
        rules = RULES[mode]
        self.mode = mode
        options = Options(time_limit_s=120, permanent=False)
        host = self.players[0]
        self.game = self.svc.create(host.token, NewGame(mode, size="8x8", options=options)).game_id
        self.seats = self.players[: max(1, min(rules.max_players, 2))]
        for player in self.seats[1:]:
            self.svc.join(self.game, player.token)
        if mode is Mode.ARENA:
            self.svc.act(self.game, host.token, {"kind": "start"})

    def _views(self) -> list[dict[str, Any]]:
        return [self.svc.view(self.game, p.token).to_json() for p in self.seats]

    @stateful.rule(who=st.integers(0, 3), move=moves, wait=st.floats(0, 3))  # type: ignore[misc]
    def act(self, who: int, move: dict[str, Any], wait: float) -> None:
        """A move by a seated player (by the one whose turn it is, mostly), or by the
        player who is not in the game (3)."""
        self.clock.advance(wait)
        turn = self.svc.view(self.game, self.seats[0].token).turn
        in_turn = [p for p in self.seats if p.player_id == turn]
        if who == 3:
            actor = self.players[2]
        elif in_turn and who < 2:
            actor = in_turn[0]
        else:
            actor = self.seats[who % len(self.seats)]
        self._views()  # a countdown that ran out ends the game here, before the move
        before = self._views()
        try:
            self.svc.act(self.game, actor.token, move)
        except GameError:
            assert self._views() == before, move  # refused: nothing changed
        else:
            after = self._views()
            assert after[0]["version"] == before[0]["version"] + 1
            if self.mode is Mode.BATTLE and move["kind"] == "place":
                self._check_battle_points(actor.player_id, move, before[0], after[0])
            self._count(actor.player_id, move, after[0])

    @stateful.rule(cell=st.sampled_from(sorted(TINY_A)))  # type: ignore[misc]
    def place_right(self, cell: str) -> None:
        """Real progress: the player in turn (or the first) writes a right digit."""
        self.act(0, {"kind": "place", "cell": cell, "digit": TINY_A[cell]}, 1.0)

    @stateful.rule(wait=st.floats(0, 60))  # type: ignore[misc]
    def finish(self, wait: float) -> None:
        """The first seat writes every right digit (after a pause: the speed bonus varies)
        and submits, so games end with a score to recompute, whatever came before."""
        self.clock.advance(wait)
        for cell in TINY_A:
            self.act(0, {"kind": "place", "cell": cell, "digit": TINY_A[cell]}, 0.5)
        self.act(0, {"kind": "submit"}, 0.5)

    def _check_battle_points(
        self, actor: str, move: dict[str, Any], before: dict[str, Any], after: dict[str, Any]
    ) -> None:
        """Scores follow the rulebook: the actor's points move by the formula, no one else's."""
        points = {p["player_id"]: p["points"] for p in before["players"]}
        expected = dict(points)
        expected[actor] += battle_points(before["board"], move["cell"], move["digit"])
        assert {p["player_id"]: p["points"] for p in after["players"]} == expected, move

    def _count(self, actor: str, move: dict[str, Any], after: dict[str, Any]) -> None:
        """Book an accepted move for the Mastery Formula."""
        wrong = move["kind"] == "place" and TINY_A.get(move["cell"]) != move["digit"]
        refused_grid = move["kind"] == "submit" and after["phase"] != "finished"
        self.illegal[actor] = self.illegal.get(actor, 0) + (wrong or refused_grid)
        self.used[actor] = self.used.get(actor, 0) + (move["kind"] == "shield")
        if after["phase"] == "finished" and after["end_reason"] in ("completed", "submission"):
            self.solved_at.setdefault(actor, self.clock.now)

    @stateful.invariant()  # type: ignore[misc]
    def mastery_scores_follow_the_formula(self) -> None:
        self.check_mastery()

    def check_mastery(self) -> list[int]:
        """At the end of a practice, campaign or arena game, each player's score is the
        rulebook's formula of their time, tokens and illegal entries (zero if unsolved); the
        scores checked."""
        if not self.game or self.mode is Mode.BATTLE:
            return []
        view = self._views()[0]
        if view["phase"] != "finished":
            return []
        checked = []
        size = (view["puzzle"]["rows"], view["puzzle"]["cols"])
        target, start = view["spec"]["target_s"], view["started_at"]
        for line in view["standings"]:
            who = line["player_id"]
            used = self.used.get(who, 0)
            assert line["shields_used"] == used
            if who not in self.solved_at:
                assert not line["solved"] and line["score"] == 0, line
                checked.append(0)
                continue
            elapsed = self.solved_at[who] - start
            assert line["solved"] and line["time_s"] == pytest.approx(elapsed, abs=1e-3)
            expected = mastery_score(size, elapsed, target, used, self.illegal.get(who, 0))
            assert line["score"] == expected, (line, elapsed, target)
            checked.append(expected)
        return checked

    @stateful.rule()  # type: ignore[misc]
    def replay(self) -> None:
        fresh = service(self.tmp, self.clock, chooser=sheet_chooser)
        assert [fresh.view(self.game, p.token).to_json() for p in self.seats] == self._views()

    @stateful.invariant()  # type: ignore[misc]
    def solution_hidden_until_the_end(self) -> None:
        if not self.game:
            return
        for view in self._views():
            assert (view["solution"] is None) == (view["phase"] != "finished")
            assert set(view["board"]) <= set(TINY_A)
            for player in view["players"]:
                assert player["shields_left"] >= 0

    def teardown(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)


GameMachine.TestCase.settings = hypothesis.settings(
    max_examples=25, stateful_step_count=30, deadline=None
)
test_game_engine_properties = GameMachine.TestCase


@pytest.mark.parametrize("mode", [Mode.PRACTICE, Mode.CAMPAIGN, Mode.ARENA])
@pytest.mark.parametrize("flaw", ["none", "shield", "wrong digit", "wrong grid"])
def test_mastery_formula_in_every_part(mode: Mode, flaw: str) -> None:
    """The state machine's end-of-game check on games that surely end, with each flaw that
    costs the flawless bonus (a token spent, a wrong digit, a wrong grid submitted) and a
    wait that moves the speed bonus, so every part of the formula is exercised."""
    machine = GameMachine()
    try:
        machine.new_game(mode)
        first = sorted(TINY_A)[0]
        if flaw == "shield":
            machine.act(0, {"kind": "shield", "shield": "hint"}, 1.0)
        elif flaw == "wrong digit":
            machine.act(0, {"kind": "place", "cell": first, "digit": TINY_A[first] % 9 + 1}, 1)
        elif flaw == "wrong grid":
            for cell in TINY_A:
                digit = TINY_A[cell] % 9 + 1 if cell == first else TINY_A[cell]
                machine.act(0, {"kind": "place", "cell": cell, "digit": digit}, 0.5)
            machine.act(0, {"kind": "submit"}, 0.5)
        machine.finish(95.0)
        (winner, *others) = sorted(machine.check_mastery(), reverse=True)
        assert winner < 1440 if flaw != "none" else winner > 1000  # 500 + 300 + speed (+500)
        assert others == [0] * (len(machine.seats) - 1)
    finally:
        machine.teardown()
