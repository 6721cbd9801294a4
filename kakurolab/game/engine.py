"""The rules engine: a game's state and the one function that applies a move to it.

A game is its move log replayed: :meth:`Game.apply` is the only way state changes, the store
keeps every applied move with its time and public outcome, and loading a game applies them
again and compares outcomes (:mod:`kakurolab.game.service`).  A refused move raises an
:class:`~kakurolab.game.errors.IllegalMoveError` *before* anything changes: every handler
checks first and writes last.

Hidden state stays here: the solution, and in solo and Arena play whether a placed digit was
right (counted as an *illegal entry* for the Flawless Logic Bonus, shown only when the game
ends).  In the Battle Matrix a digit is judged in public at once, as the rulebook says.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..combos import bit
from ..model import Cell, Puzzle, Run
from . import fair, scoring
from .errors import AuthError, GameOverError, IllegalMoveError, NotYourTurnError
from .moves import EndReason, Move, MoveKind, Phase, cell_text
from .rules import RULES, GameSpec, ModeRules
from .shields import SHIELDS
from .state import Board, Outcome, Player, Referee, ShieldContext, require_white

TURN_KINDS = frozenset({MoveKind.PLACE, MoveKind.SHIELD})
"""In turn-based play only the player whose turn it is may place or spend a shield; pencil
marks are free at any time."""


class Game:
    """One game in memory: puzzle, hidden solution, players, phase, clock and turn."""

    def __init__(
        self, game_id: str, spec: GameSpec, puzzle: Puzzle, solution: Mapping[Cell, int]
    ) -> None:
        self.game_id = game_id
        self.spec = spec
        self.puzzle = puzzle
        self.referee = Referee(solution)
        self.players: dict[str, Player] = {}
        self.phase = Phase.WAITING
        self.started_at: float | None = None
        self.ended_at: float | None = None
        self.end_reason: EndReason | None = None
        self.paused_at: float | None = None
        """When the clock was stopped (solo play), or None while it runs."""
        self.paused_s = 0.0
        """Seconds spent in finished pauses: not solving time, and the countdown waits."""
        self.turn = 0
        self.turn_started = 0.0
        self.last_at = 0.0
        self.seq = 0
        self.shared = Board() if self.rules.shared_board else None
        self._clues = {run: run.clue.value or 0 if run.clue else 0 for run in puzzle.runs}

    # --- reading -------------------------------------------------------------------------------

    @property
    def rules(self) -> ModeRules:
        return RULES[self.spec.mode]

    @property
    def host(self) -> str | None:
        return next(iter(self.players), None)

    @property
    def current(self) -> str | None:
        """Whose turn it is (turn-based play while active), else None."""
        if not self.rules.turn_based or self.phase is not Phase.ACTIVE or not self.players:
            return None
        return list(self.players)[self.turn % len(self.players)]

    @property
    def deadline(self) -> float | None:
        limit = self.spec.options.time_limit_s
        if limit is None or self.started_at is None:
            return None
        return self.started_at + limit + self.paused_s

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    def clock_at(self, now: float) -> float:
        """The moment the game's clock shows at ``now``: the end once over, the start of the
        pause while paused (so elapsed and remaining time stand still), else ``now``."""
        if self.phase is Phase.FINISHED and self.ended_at is not None:
            return self.ended_at
        return self.paused_at if self.paused_at is not None else now

    def elapsed(self, now: float) -> float:
        """Solving time at ``now``: from the start, less every pause."""
        if self.started_at is None:
            return 0.0
        return max(0.0, self.clock_at(now) - self.started_at - self.paused_s)

    def expired(self, now: float) -> bool:
        """The countdown reached zero while the game was on (a paused clock never runs out)."""
        deadline = self.deadline
        return (
            self.phase is Phase.ACTIVE and not self.paused and deadline is not None
            and now >= deadline
        )  # fmt: skip

    def solution_for_end(self) -> Mapping[Cell, int]:
        """The solution, only once the game is over."""
        if self.phase is not Phase.FINISHED:
            raise GameOverError("the solution is shown only when the game is over")
        return self.referee.reveal()

    def progress(self, player: Player) -> float:
        """Share of the white cells filled on the player's board (what Arena rivals see)."""
        return len(player.board.entries) / len(self.puzzle.whites)

    def standings(self) -> list[scoring.Standing]:
        """Everyone's score and tie-breakers, ranked (final once the game is over)."""
        lines = [STANDINGS[self.rules.scoring](self, p) for p in self.players.values()]
        return scoring.ranked(lines)

    def correct_clue_best(self, player: Player) -> int:
        """The highest clue of an entry the player's board holds entirely right."""
        entries, referee = player.board.entries, self.referee
        done = [
            self._clues[run]
            for run in self.puzzle.runs
            if all(c in entries and referee.right(c, entries[c]) for c in run.cells)
        ]
        return max(done, default=0)

    # --- applying -------------------------------------------------------------------------------

    def apply(self, actor: str | None, move: Move, at: float) -> Outcome:
        """Apply one move at time ``at`` (seconds on the service clock) or refuse it."""
        if at < self.last_at:
            at = self.last_at  # a clock that stepped back never reorders the log
        if self.phase is Phase.FINISHED:
            raise GameOverError(f"game {self.game_id} is over")
        if move.kind is not MoveKind.EXPIRE and self.expired(at):
            raise GameOverError(f"game {self.game_id}: the time ran out")
        player = None
        if move.kind is not MoveKind.JOIN and move.kind is not MoveKind.EXPIRE:
            player = self.players.get(actor or "")
            if player is None:
                raise AuthError(f"you are not a player of game {self.game_id}")
            if move.kind is not MoveKind.START and self.phase is not Phase.ACTIVE:
                raise IllegalMoveError(f"game {self.game_id} has not started yet")
            if self.paused and move.kind is not MoveKind.RESUME:
                raise IllegalMoveError(f"game {self.game_id} is paused: resume it first")
            if move.kind in TURN_KINDS and self.rules.turn_based and actor != self.current:
                who = self.players[self.current or ""].name if self.current else "nobody"
                raise NotYourTurnError(f"it is {who}'s turn, not yours")
        outcome = HANDLERS[move.kind](self, actor, player, move, at)
        self.seq += 1
        self.last_at = at
        return outcome

    def finish(self, at: float, reason: EndReason) -> None:
        self.phase = Phase.FINISHED
        self.ended_at = at
        self.end_reason = reason

    def require_white(self, cell: Cell | None) -> Cell:
        return require_white(self.puzzle, cell)

    def runs_of(self, cell: Cell) -> tuple[Run, ...]:
        return self.puzzle.runs_of[cell]

    def clue_of(self, run: Run) -> int:
        return self._clues[run]


# --- handlers: one per move kind -------------------------------------------------------------

Handler = Callable[[Game, str | None, Player | None, Move, float], Outcome]


def _join(game: Game, actor: str | None, _: Player | None, move: Move, at: float) -> Outcome:
    if game.phase is not Phase.WAITING:
        raise IllegalMoveError(f"game {game.game_id} has already started")
    if actor is None or actor in game.players:
        raise IllegalMoveError(f"you are already a player of game {game.game_id}")
    if len(game.players) >= game.rules.max_players:
        raise IllegalMoveError(f"game {game.game_id} is full ({game.rules.max_players} players)")
    board = game.shared if game.shared is not None else Board()
    game.players[actor] = Player(actor, move.name or actor, board, game.spec.options.shields)
    return Outcome(MoveKind.JOIN, actor, message=f"{move.name} joined")


def _start(game: Game, actor: str | None, _: Player | None, move: Move, at: float) -> Outcome:
    if game.phase is not Phase.WAITING:
        raise IllegalMoveError(f"game {game.game_id} has already started")
    if actor != game.host:
        raise IllegalMoveError("only the player who created the game starts it")
    if len(game.players) < game.rules.min_players:
        raise IllegalMoveError(
            f"{game.rules.mode.value} needs {game.rules.min_players}-"
            f"{game.rules.max_players} players, {len(game.players)} joined"
        )
    game.phase = Phase.ACTIVE
    game.started_at = game.turn_started = at
    return Outcome(MoveKind.START, actor, message="the clock runs")


def _place(game: Game, actor: str | None, player: Player | None, move: Move, at: float) -> Outcome:
    assert player is not None and move.digit is not None
    cell = game.require_white(move.cell)
    return PLACEMENT[game.rules.scoring](game, player, cell, move.digit, at)


def _place_private(game: Game, player: Player, cell: Cell, digit: int, at: float) -> Outcome:
    """Solo and Arena: the digit is written on the player's own board, judged in secret."""
    board = player.board
    if cell in board.locked:
        raise IllegalMoveError(
            f"{cell_text(cell)} holds a permanent {board.entries[cell]}: spend an unlock shield"
        )
    if board.entries.get(cell) == digit:
        raise IllegalMoveError(f"{cell_text(cell)} already holds {digit}")
    board.entries[cell] = digit
    if game.spec.options.permanent:
        board.locked.add(cell)
    if not game.referee.right(cell, digit):
        player.illegal += 1
    finished = False
    if not game.rules.needs_submit and game.referee.solved(board):
        _solved(game, player, at, EndReason.COMPLETED)
        finished = True
    return Outcome(
        MoveKind.PLACE, player.player_id, finished=finished, message=f"{cell_text(cell)} = {digit}"
    )


def _place_battle(game: Game, player: Player, cell: Cell, digit: int, at: float) -> Outcome:
    """Battle Matrix: judged at once; a right digit scores its value (+100 per entry it
    completes), a wrong one costs 150 and is not placed; either way the turn passes."""
    board = player.board
    if cell in board.entries:
        raise IllegalMoveError(f"{cell_text(cell)} already holds {board.entries[cell]}")
    player.turn_time += at - game.turn_started
    game.turn_started = at
    game.turn += 1
    if not game.referee.right(cell, digit):
        player.illegal += 1
        player.points -= scoring.ILLEGAL_PENALTY
        return Outcome(
            MoveKind.PLACE,
            player.player_id,
            points=-scoring.ILLEGAL_PENALTY,
            correct=False,
            message=f"{cell_text(cell)} = {digit} is wrong: -150",
        )
    board.entries[cell] = digit
    board.locked.add(cell)
    player.placed += 1
    gained = digit
    completed = []
    for run in game.runs_of(cell):
        if all(c in board.entries for c in run.cells):
            gained += scoring.RUN_BONUS
            completed.append(run.name)
            player.best_clue = max(player.best_clue, game.clue_of(run))
    player.points += gained
    finished = len(board.entries) == len(game.puzzle.whites)
    if finished:
        for each in game.players.values():
            each.time_s = each.turn_time
        game.finish(at, EndReason.COMPLETED)
    return Outcome(
        MoveKind.PLACE,
        player.player_id,
        points=gained,
        correct=True,
        completed=tuple(completed),
        finished=finished,
        message=f"{cell_text(cell)} = {digit}: +{gained}",
    )


def _solved(game: Game, player: Player, at: float, reason: EndReason) -> None:
    player.solved = True
    player.time_s = game.elapsed(at)
    game.finish(at, reason)


def _erase(game: Game, actor: str | None, player: Player | None, move: Move, at: float) -> Outcome:
    assert player is not None
    cell = game.require_white(move.cell)
    if game.rules.shared_board:
        raise IllegalMoveError("placed digits are verified and stay on the shared board")
    board = player.board
    if cell not in board.entries:
        raise IllegalMoveError(f"{cell_text(cell)} is empty")
    if cell in board.locked:
        raise IllegalMoveError(
            f"{cell_text(cell)} holds a permanent {board.entries[cell]}: spend an unlock shield"
        )
    del board.entries[cell]
    return Outcome(MoveKind.ERASE, player.player_id, message=f"{cell_text(cell)} erased")


def _mark(game: Game, actor: str | None, player: Player | None, move: Move, at: float) -> Outcome:
    assert player is not None and move.digit is not None
    cell = game.require_white(move.cell)
    if cell in player.board.entries:
        raise IllegalMoveError(f"{cell_text(cell)} holds a digit; pencil marks go in empty cells")
    mask = player.marks.get(cell, 0) ^ bit(move.digit)
    if mask:
        player.marks[cell] = mask
    else:
        player.marks.pop(cell, None)
    on = "on" if mask & bit(move.digit) else "off"
    return Outcome(
        MoveKind.MARK, player.player_id, message=f"mark {move.digit} {on} in {cell_text(cell)}"
    )


def _shield(game: Game, actor: str | None, player: Player | None, move: Move, at: float) -> Outcome:
    assert player is not None and move.shield is not None
    if move.shield not in game.rules.shields:
        raise IllegalMoveError(f"{game.rules.mode.value} has no {move.shield.value} shield")
    if player.shields_left <= 0:
        raise IllegalMoveError("you have no Logic Shield left")
    context = ShieldContext(game.puzzle, game.referee, player, move, game.spec.options.permanent)
    result = SHIELDS[move.shield](context)
    player.shields_left -= 1
    player.shields_used += 1
    return Outcome(MoveKind.SHIELD, player.player_id, shield=result, message=result.text)


def _submit(game: Game, actor: str | None, player: Player | None, move: Move, at: float) -> Outcome:
    assert player is not None
    if game.rules.shared_board:
        raise IllegalMoveError("the Battle Matrix ends when the board is full; nothing to submit")
    board = player.board
    empty = len(game.puzzle.whites) - len(board.entries)
    if empty:
        raise IllegalMoveError(f"fill every cell before submitting ({empty} empty)")
    if not game.referee.solved(board):
        player.wrong_submissions += 1
        player.illegal += 1
        return Outcome(
            MoveKind.SUBMIT,
            player.player_id,
            submission="wrong",
            message="the grid is not the solution: submission refused",
        )
    reason = EndReason.SUBMISSION if game.rules.needs_submit else EndReason.COMPLETED
    _solved(game, player, at, reason)
    return Outcome(
        MoveKind.SUBMIT,
        player.player_id,
        submission="accepted",
        finished=True,
        message=f"{player.name} solved the grid",
    )


def _expire(game: Game, actor: str | None, _: Player | None, move: Move, at: float) -> Outcome:
    deadline = game.deadline
    if not game.expired(at) or deadline is None:
        raise IllegalMoveError("the countdown has not reached zero")
    if game.rules.turn_based:
        for each in game.players.values():
            each.time_s = each.turn_time
    game.finish(deadline, EndReason.TIME)
    return Outcome(MoveKind.EXPIRE, None, finished=True, message="the time ran out")


def _pause(game: Game, actor: str | None, player: Player | None, move: Move, at: float) -> Outcome:
    if not game.rules.pausable:
        raise IllegalMoveError(f"{game.rules.mode.value}: the clock stops for nobody")
    game.paused_at = at  # apply() refuses every move but resume while paused
    return Outcome(MoveKind.PAUSE, actor, message="paused: the clock stands still")


def _resume(game: Game, actor: str | None, player: Player | None, move: Move, at: float) -> Outcome:
    if game.paused_at is None:
        raise IllegalMoveError(f"game {game.game_id} is not paused")
    game.paused_s += at - game.paused_at
    game.paused_at = None
    return Outcome(MoveKind.RESUME, actor, message="resumed: the clock runs")


HANDLERS: dict[MoveKind, Handler] = {
    MoveKind.JOIN: _join,
    MoveKind.START: _start,
    MoveKind.PLACE: _place,
    MoveKind.ERASE: _erase,
    MoveKind.MARK: _mark,
    MoveKind.SHIELD: _shield,
    MoveKind.SUBMIT: _submit,
    MoveKind.EXPIRE: _expire,
    MoveKind.PAUSE: _pause,
    MoveKind.RESUME: _resume,
}

PLACEMENT: dict[str, Callable[[Game, Player, Cell, int, float], Outcome]] = {
    "mastery": _place_private,
    "battle": _place_battle,
}


# --- standings ---------------------------------------------------------------------------------


def _mastery_line(game: Game, player: Player) -> scoring.Standing:
    breakdown = scoring.Mastery()
    if player.solved and player.time_s is not None:
        breakdown = scoring.mastery(
            nrows=game.puzzle.nrows,
            ncols=game.puzzle.ncols,
            elapsed_s=player.time_s,
            target_s=game.spec.target_s,
            shields_used=player.shields_used,
            shields_left=player.shields_left,
            illegal_entries=player.illegal,
        )
    time_s = player.time_s if player.solved else None
    return scoring.Standing(
        player.player_id,
        player.name,
        breakdown.total,
        time_s,
        player.shields_used,
        game.correct_clue_best(player) if player.solved else 0,
        player.solved,
        breakdown=breakdown,
        flagged=game.rules.secret_puzzle and fair.implausible(time_s, len(game.puzzle.whites)),
    )


def _battle_line(game: Game, player: Player) -> scoring.Standing:
    time_s = player.time_s if player.time_s is not None else player.turn_time
    return scoring.Standing(
        player.player_id,
        player.name,
        player.points,
        time_s,
        player.shields_used,
        player.best_clue,
        game.phase is Phase.FINISHED and game.end_reason is EndReason.COMPLETED,
        flagged=game.rules.secret_puzzle and fair.implausible(time_s, player.placed),
    )


STANDINGS: dict[str, Callable[[Game, Player], scoring.Standing]] = {
    "mastery": _mastery_line,
    "battle": _battle_line,
}
