"""Stateful property tests of the game engine over all four modes (issue 29): random
sequences of moves by several players, with the invariants that a refused move changes
nothing, no view shows the solution before the end, replaying the stored log gives the same
state (a fresh service reads the log back), and Battle Matrix points follow the rulebook's
formula, recomputed here.  Mastery scores (practice, campaign, arena) are not recomputed: the
rulebook's base score table has no 4x4 row."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from _game import Clock, service, tiny, tiny_chooser

from kakurolab.game import GameError, Mode, NewGame, Options
from kakurolab.game.rules import RULES

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
        self.svc = service(self.tmp, self.clock, chooser=tiny_chooser)
        self.players = [self.svc.register(f"p{i}") for i in range(3)]
        self.seats: list[Any] = []
        self.game = ""
        self.mode = Mode.PRACTICE

    @stateful.initialize(mode=st.sampled_from(list(Mode)))  # type: ignore[misc]
    def new_game(self, mode: Mode) -> None:
        rules = RULES[mode]
        self.mode = mode
        options = Options(time_limit_s=120, permanent=False)
        host = self.players[0]
        self.game = self.svc.create(host.token, NewGame(mode, size="4x4", options=options)).game_id
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

    @stateful.rule(cell=st.sampled_from(sorted(TINY_A)))  # type: ignore[misc]
    def place_right(self, cell: str) -> None:
        """Real progress: the player in turn (or the first) writes a right digit."""
        self.act(0, {"kind": "place", "cell": cell, "digit": TINY_A[cell]}, 1.0)

    def _check_battle_points(
        self, actor: str, move: dict[str, Any], before: dict[str, Any], after: dict[str, Any]
    ) -> None:
        """Scores follow the rulebook: the actor's points move by the formula, no one else's."""
        points = {p["player_id"]: p["points"] for p in before["players"]}
        expected = dict(points)
        expected[actor] += battle_points(before["board"], move["cell"], move["digit"])
        assert {p["player_id"]: p["points"] for p in after["players"]} == expected, move

    @stateful.rule()  # type: ignore[misc]
    def replay(self) -> None:
        fresh = service(self.tmp, self.clock, chooser=tiny_chooser)
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
