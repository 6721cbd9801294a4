"""The computer opponent of the Battle Matrix: a player that deduces, at a human pace.

It sees what a seated player sees and nothing else: :func:`decide` takes the player's view
(the clues as the page draws them, the shared board of verified digits, its shields) and the
game's public events (whose placements were judged wrong, what its own hint shields said),
rebuilds the puzzle *without a solution* from the view's grid, and runs the logic engine
(:mod:`kakurolab.logic`) with its strength's techniques from the board it sees.  The first
deduction that writes a digit is its move.  Where its techniques find nothing it does what
the rules let a player do: it spends a ``hint`` shield (the engine's, paid for like anyone's),
and with none left it guesses the open cell with the fewest candidates (a wrong guess costs
its 150 points, as anyone's, and teaches it that the digit is not there).

Three strengths, :data:`STRENGTHS`: *easy* knows the per-run basics (naked singles, unique
partitions, cross-intersections, excluded digits, hidden singles), *medium* adds the run
arithmetic (sums, sets, subsets, permutations), *hard* the whole ladder (region sums, swap
rectangles, bounded contradiction).  Each move's think time is drawn from a seeded
log-normal distribution whose median grows with the *effort* of the deduction (the weight of
the hardest technique among the steps the digit rests on, as a hint shield would list them);
easy now and then stops to think longer.
The draw is seeded by the game, its version and the strength, so a position always takes the
same time: a replay, a test or a restarted server sees the same pace.

:func:`take_turn` plays one turn through the service's own calls (``view``, ``events_since``,
``act`` with the computer's token), as a person's client does; the web server runs it as a
task with the think time slept first (:mod:`kakurolab.web.bots`).
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..combos import bit, digits_of, popcount
from ..logic import BY_NAME, TECHNIQUES, Contradiction, Engine, State, Technique
from ..model import Block, Cell, Clue, ClueCell, Puzzle, White
from .moves import cell_text, parse_cell


class Seat(Protocol):
    """The calls of :class:`~kakurolab.game.service.GameService` a player's client makes."""

    def view(self, game_id: str, token: str) -> Any: ...

    def events_since(self, game_id: str, token: str, version: int) -> list[Any]: ...

    def act(self, game_id: str, token: str, move: Any) -> Any: ...


@dataclass(frozen=True)
class Strength:
    """One level of the computer: the techniques it knows and how fast it thinks."""

    name: str
    techniques: tuple[str, ...]
    """Names of :data:`kakurolab.logic.TECHNIQUES` rungs it uses, simplest first."""
    base_s: float
    """Median seconds to find and write a digit (reading the cell and its two clues)."""
    per_weight_s: float
    """Median seconds more per unit of technique weight in the move's deduction."""
    spread: float
    """The log-normal's sigma: how much one move's time varies."""
    pause_chance: float = 0.0
    """The chance of a longer pause before a move (a person who looks away)."""
    pause_s: tuple[float, float] = (0.0, 0.0)
    max_s: float = 90.0

    @property
    def ladder(self) -> tuple[Technique, ...]:
        return tuple(t for t in TECHNIQUES if t.name in self.techniques)

    @property
    def title(self) -> str:
        return f"Computer ({self.name})"


_BASICS = ("naked single", "unique partition", "cross-intersection", "excluded digits",
           "hidden single")  # fmt: skip
_RUN_ARITHMETIC = ("sum arithmetic", "run sets", "run subsets", "run permutations")

STRENGTHS: dict[str, Strength] = {
    "easy": Strength("easy", _BASICS, base_s=7.0, per_weight_s=2.0, spread=0.45,
                     pause_chance=0.15, pause_s=(8.0, 20.0)),
    "medium": Strength("medium", _BASICS + _RUN_ARITHMETIC, base_s=5.0, per_weight_s=1.0,
                       spread=0.35, pause_chance=0.05, pause_s=(5.0, 10.0)),
    "hard": Strength("hard", tuple(t.name for t in TECHNIQUES), base_s=3.0,
                     per_weight_s=0.5, spread=0.25),
}  # fmt: skip
"""The three strengths, weakest first (the new-game form lists them in this order)."""

GUESS = "guess"
HINT = "hint shield"


@dataclass(frozen=True)
class Decision:
    """The computer's next move, why, and how long it thinks before sending it."""

    move: dict[str, Any]
    think_s: float
    technique: str
    """The hardest technique the digit rests on, :data:`HINT` for a
    digit a hint shield gave, :data:`GUESS` for a guess, or ``hint`` for spending one."""
    effort: int = 0
    """The weight of the hardest technique the move rests on (the think time scales with it)."""

    @property
    def deduced(self) -> bool:
        return self.technique not in (GUESS, HINT, "hint")


def puzzle_from_view(grid: Sequence[Sequence[str]], puzzle_id: str = "seen") -> Puzzle:
    """The puzzle as a player sees it (the view's ``puzzle.grid``: ``#``, ``.``, ``D\\A``):
    clues and white cells, no solution anywhere."""
    rows = []
    for row in grid:
        squares: list[Block | ClueCell | White] = []
        for token in row:
            if token == ".":
                squares.append(White())
            elif "\\" in token:
                down, _, across = token.partition("\\")
                squares.append(ClueCell(Clue(int(down)) if down else None,
                                        Clue(int(across)) if across else None))  # fmt: skip
            else:
                squares.append(Block())
        rows.append(tuple(squares))
    return Puzzle(puzzle_id, tuple(rows))


def think_time(strength: Strength, effort: int, seed: str) -> float:
    """Seconds to think for a move of this ``effort``, drawn from the seeded distribution."""
    rng = random.Random(hashlib.sha256(seed.encode()).hexdigest())
    median = strength.base_s + strength.per_weight_s * effort
    seconds = median * rng.lognormvariate(0.0, strength.spread)
    if rng.random() < strength.pause_chance:
        seconds += rng.uniform(*strength.pause_s)
    return min(seconds, strength.max_s)


@dataclass
class Seen:
    """What the public events have taught the computer: digits judged wrong in a cell, and
    the digits its own hint shields named."""

    wrong: dict[Cell, int]
    hinted: dict[Cell, int]

    @classmethod
    def from_events(cls, events: Sequence[Mapping[str, Any]], me: str) -> Seen:
        wrong: dict[Cell, int] = {}
        hinted: dict[Cell, int] = {}
        for event in events:
            move, outcome = event.get("move"), event.get("outcome")
            if not isinstance(move, Mapping) or not isinstance(outcome, Mapping):
                continue
            if move.get("kind") == "place" and outcome.get("correct") is False:
                cell = parse_cell(move["cell"])
                wrong[cell] = wrong.get(cell, 0) | bit(int(move["digit"]))
            shield = outcome.get("shield")
            if event.get("player_id") == me and isinstance(shield, Mapping):
                for name, digit in dict(shield.get("fixes") or {}).items():
                    hinted[parse_cell(name)] = int(digit)
        return cls(wrong, hinted)


def decide(
    view: Mapping[str, Any], events: Sequence[Mapping[str, Any]], strength: Strength
) -> Decision | None:
    """The computer's move from what it sees (see module doc), or None when it is not its
    turn (or the game is not running)."""
    me = view["you"]
    if view.get("phase") != "active" or view.get("turn") != me:
        return None
    puzzle = puzzle_from_view(view["puzzle"]["grid"])
    board = {parse_cell(name): int(d) for name, d in view["board"].items()}
    seen = Seen.from_events(events, me)
    seed = f"{view['game_id']}:{view['version']}:{strength.name}"
    for cell, digit in sorted(seen.hinted.items()):
        if cell not in board:
            move = {"kind": "place", "cell": cell_text(cell), "digit": digit}
            return Decision(move, think_time(strength, 1, seed), HINT, 1)
    state = State.from_digits(puzzle, board)
    for cell, mask in seen.wrong.items():
        if cell not in board and state.cands[cell] & ~mask:
            state.cands[cell] &= ~mask
    found = _deduce(state, strength.ladder)
    if found is not None:
        (cell, digit), technique, effort = found
        move = {"kind": "place", "cell": cell_text(cell), "digit": digit}
        return Decision(move, think_time(strength, effort, seed), technique, effort)
    if view.get("shields_left", 0) > 0 and "hint" in view.get("rules", {}).get("shields", ()):
        return Decision({"kind": "shield", "shield": "hint"}, think_time(strength, 4, seed),
                        "hint", 4)  # fmt: skip
    return _guess(state, board, strength, seed)


Found = tuple[tuple[Cell, int], str, int]


def _deduce(state: State, ladder: tuple[Technique, ...]) -> Found | None:
    """The first digit the ladder writes from ``state``: (cell and digit, the hardest
    technique it rests on, that technique's weight)."""
    for techniques in (ladder, tuple(t for t in ladder if not t.assumes_unique)):
        engine = Engine(state.copy(), techniques)
        try:
            engine.run(until=lambda step: bool(step.placements))
        except Contradiction:
            continue  # a uniqueness argument gone wrong: again without one
        steps = engine.steps
        if not steps or not steps[-1].placements:
            return None
        chain, frontier = {len(steps) - 1}, list(steps[-1].premises)
        while frontier:  # the steps the placement rests on, as a hint shows them
            i = frontier.pop()
            if i not in chain:
                chain.add(i)
                frontier.extend(steps[i].premises)
        hardest = max((BY_NAME[steps[i].technique] for i in sorted(chain)),
                      key=lambda t: t.weight)  # fmt: skip
        return min(steps[-1].placements.items()), hardest.name, hardest.weight
    return None


def _guess(state: State, board: Mapping[Cell, int], strength: Strength, seed: str) -> Decision:
    """No deduction and no shield: the open cell with the fewest candidates, its lowest."""
    open_cells = [c for c in state.cands if c not in board]
    cell = min(open_cells, key=lambda c: (popcount(state.cands[c]) or 10, c))
    digits = digits_of(state.cands[cell]) or (1,)
    move = {"kind": "place", "cell": cell_text(cell), "digit": digits[0]}
    return Decision(move, think_time(strength, 6, seed), GUESS, 6)


def account_token(secret: str, strength: str) -> str:
    """The computer player's token, derived from the store's secret (kept nowhere)."""
    return hmac.new(secret.encode(), f"computer:{strength}".encode(), "sha256").hexdigest()


def player_id(strength: str) -> str:
    return f"p-computer-{strength}"


def take_turn(service: Seat, game_id: str, token: str,
              strength: Strength) -> Decision | None:  # fmt: skip
    """Decide and play one turn through the service (a shield first when it needs one);
    the decision played, or None when it is not the computer's turn.  No waiting here: the
    caller sleeps the decision's ``think_s`` (:func:`next_move` then :meth:`act`) or not."""
    decision = next_move(service, game_id, token, strength)
    if decision is None:
        return None
    service.act(game_id, token, decision.move)
    if decision.move["kind"] == "shield":
        return take_turn(service, game_id, token, strength)
    return decision


def next_move(service: Seat, game_id: str, token: str,
              strength: Strength) -> Decision | None:  # fmt: skip
    """The decision from the computer's own view and the events it may see."""
    view = service.view(game_id, token).to_json()
    events = [e.to_json() for e in service.events_since(game_id, token, 0)]
    return decide(view, events, strength)
