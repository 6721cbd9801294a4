"""The four Logic Shields, each a function ``(ShieldContext) -> ShieldResult``.

They read the player's board through the deduction engine (:mod:`kakurolab.logic`): the
candidate sets of a clue are ``State.remaining_sets``, the next deduction is ``next_hint``.
A shield that cannot work (entries that break a rule, a clue already filled) raises an
:class:`~kakurolab.game.errors.IllegalMoveError` and is not spent; the engine takes the token
only after the shield returned.
"""

from __future__ import annotations

from collections.abc import Callable

from ..combos import digits_of, popcount
from ..logic import Contradiction, State, next_hint
from ..model import Cell, Run
from .errors import IllegalMoveError
from .moves import ShieldKind, cell_text, run_text
from .state import ShieldContext, ShieldResult, require_white


def _state(ctx: ShieldContext) -> State:
    """The player's entries as a deduction state; entries that break a rule refuse."""
    try:
        return State.from_digits(ctx.puzzle, dict(ctx.player.board.entries))
    except Contradiction as exc:
        raise IllegalMoveError(
            f"your entries break a rule ({exc}); fix them (or spend a clear shield) first"
        ) from None


def _run(ctx: ShieldContext) -> Run:
    """The run a clue cell heads, or the run through a white cell, in the move's direction."""
    move = ctx.move
    assert move.run is not None
    cell, direction = move.run
    for run in ctx.puzzle.runs:
        if run.direction is direction and (run.clue_cell == cell or cell in run.cells):
            return run
    raise IllegalMoveError(f"no {direction.value} clue entry at {run_text(move.run)}")


def candidates(ctx: ShieldContext) -> ShieldResult:
    """The digit sets the empty cells of a clue entry may still take (the unique-partition
    hint, given what the player has written)."""
    run = _run(ctx)
    empty, _, sets = _state(ctx).remaining_sets(run)
    if not empty:
        raise IllegalMoveError(f"clue entry {run.name} is already filled")
    shown = tuple(sorted(digits_of(mask) for mask in sets))
    listed = " or ".join("{" + ", ".join(map(str, s)) + "}" for s in shown) or "none"
    clue = run.clue.value if run.clue else 0
    text = (
        f"{run.name} (clue {clue}, {len(run)} cells, {len(empty)} empty): "
        f"the empty cells take {listed}"
    )
    return ShieldResult(ShieldKind.CANDIDATES, text, cells=tuple(empty), sets=shown)


def hint(ctx: ShieldContext) -> ShieldResult:
    """The next deduction in words and the cell(s) it fixes.  Where deduction stops (the
    puzzle needs search from here), the shield pays out one cell of the solution instead:
    the open cell with the fewest candidates."""
    state = _state(ctx)
    try:
        found = next_hint(ctx.puzzle, state)
    except Contradiction as exc:
        raise IllegalMoveError(
            f"deduction meets a contradiction from your entries ({exc}); some entry is wrong"
        ) from None
    if found.step is not None:
        fixes = tuple(sorted(found.step.placements.items()))
        return ShieldResult(ShieldKind.HINT, found.text(), cells=tuple(found.step.cells),
                            fixes=fixes)  # fmt: skip
    if found.state.solved:
        raise IllegalMoveError("the grid is already complete")
    open_cells = [c for c in ctx.puzzle.whites if c not in ctx.player.board.entries]
    cell: Cell = min(open_cells, key=lambda c: (popcount(found.state.cands[c]), c))
    digit = ctx.referee.digit(cell)
    text = (
        "no technique finds anything from here (the next step needs search); "
        f"the solution holds {digit} at {cell_text(cell)}"
    )
    return ShieldResult(ShieldKind.HINT, text, cells=(cell,), fixes=((cell, digit),))


def clear(ctx: ShieldContext) -> ShieldResult:
    """Remove every entry that differs from the solution (permanent ones too); what stays
    agrees with the solution, so it breaks no rule either."""
    board = ctx.player.board
    wrong = tuple(ctx.referee.wrong_cells(board))
    for cell in wrong:
        del board.entries[cell]
        board.locked.discard(cell)
    text = f"cleared {len(wrong)} entr{'y' if len(wrong) == 1 else 'ies'}: " + (
        ", ".join(map(cell_text, wrong)) if wrong else "every entry was right"
    )
    return ShieldResult(ShieldKind.CLEAR, text, cells=wrong, cleared=wrong)


def unlock(ctx: ShieldContext) -> ShieldResult:
    """Permanent placement: make one placed digit changeable again."""
    cell = require_white(ctx.puzzle, ctx.move.cell)
    board = ctx.player.board
    if not ctx.permanent:
        raise IllegalMoveError("permanent placement is off in this game: nothing to unlock")
    if cell not in board.locked:
        raise IllegalMoveError(f"{cell_text(cell)} holds no permanent digit")
    board.locked.discard(cell)
    return ShieldResult(ShieldKind.UNLOCK, f"{cell_text(cell)} may be changed", cells=(cell,))


SHIELDS: dict[ShieldKind, Callable[[ShieldContext], ShieldResult]] = {
    ShieldKind.CANDIDATES: candidates,
    ShieldKind.HINT: hint,
    ShieldKind.CLEAR: clear,
    ShieldKind.UNLOCK: unlock,
}
