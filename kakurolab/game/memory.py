"""The games a service keeps in memory, each with its log's head hash, and how a game comes
back from the store: loaded and replayed move by move, every move's recorded outcome and hash
chain compared, so a damaged log fails loudly (``ReplayError``) instead of playing on."""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Mapping

from ..formats import loads
from ..model import Cell
from . import puzzles
from .engine import Game
from .errors import GameError, IllegalMoveError, ReplayError, UnknownGameError
from .moves import Move
from .rules import GameSpec
from .store import LogRow, Store, chain

MAX_CACHED = 512
"""Games kept in memory; others are replayed from the store when next asked for."""


def solution_digest(game_id: str, values: Mapping[Cell, int]) -> str:
    """A salted digest of the solution: checks the recomputed one, reveals nothing."""
    text = game_id + ":" + ",".join(f"{r}.{c}={d}" for (r, c), d in sorted(values.items()))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class LoadedGames(OrderedDict[str, tuple[Game, str]]):
    """game id -> (game, head of its log's hash chain), least recently used first."""

    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store

    def synced(self, game_id: str, version: int | None = None) -> tuple[Game, str]:
        """The game, brought up to the store's version (replaying what other processes
        appended; ``version``: the store's, when just read under the lock); loaded and
        replayed in full when not in memory."""
        if not isinstance(game_id, str) or len(game_id) > 40:
            raise UnknownGameError(f"no game {str(game_id)[:40]!r}")
        cached = self.get(game_id)
        if cached is None:
            cached = self.load(game_id)
        game, head = cached
        if (self.store.version(game_id) if version is None else version) > game.seq:
            game, head = self.replay(game, head, self.store.log(game_id, game.seq))
        self[game_id] = (game, head)
        self.move_to_end(game_id)
        while len(self) > MAX_CACHED:  # the least recently used reloads from the store
            self.popitem(last=False)
        return game, head

    def load(self, game_id: str) -> tuple[Game, str]:
        row = self.store.game_row(game_id)
        if row is None:
            raise UnknownGameError(f"no game {game_id!r}")
        (puzzle,) = loads(row["puzzle"], format="kakuro")
        puzzle, solution = puzzles.prepare(puzzle)
        values = dict(solution.values)
        if solution_digest(game_id, values) != row["solution_digest"]:
            raise ReplayError(f"game {game_id}: the puzzle's solution does not match the store")
        game = Game(game_id, GameSpec.from_json(json.loads(row["spec"])), puzzle, values)
        return game, ""

    def replay(self, game: Game, head: str, rows: list[LogRow]) -> tuple[Game, str]:
        for row in rows:
            where = f"game {game.game_id}, move {row.seq}"
            if row.seq != game.seq + 1:
                raise ReplayError(f"{where}: the log skips from {game.seq}")
            data = {"seq": row.seq, "at": row.at, "player_id": row.player_id,
                    "move": row.move, "outcome": row.outcome}  # fmt: skip
            if chain(head, data) != row.chain:
                raise ReplayError(f"{where}: the log's hash chain is broken")
            try:
                outcome = game.apply(row.player_id, Move.from_json(row.move), row.at)
            except (IllegalMoveError, GameError) as exc:
                raise ReplayError(f"{where}: the rules refuse the logged move: {exc}") from None
            if outcome.to_json() != row.outcome:
                raise ReplayError(f"{where}: replays to a different outcome than was recorded")
            head = row.chain
        return game, head
