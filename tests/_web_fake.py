"""A stand-in for the game engine with just enough behaviour to drive the transport layer
(protocol, auth, pushes) in tests that must not depend on the engine's rules.  It keeps
entries and marks, alternates turns in battle and checks tokens; it scores nothing."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from kakurolab.model import Puzzle
from kakurolab.web.port import NotFound, Refused, Seat, Unauthorized, View
from kakurolab.web.protocol import Move, NewGame
from kakurolab.web.views import board_json


@dataclass
class FakeGame:
    id: str
    mode: str
    puzzle: Puzzle
    seats: int
    code: str
    players: list[tuple[str, str, str]] = field(default_factory=list)  # token, id, name
    entries: dict[str, dict[tuple[int, int], int]] = field(default_factory=dict)
    marks: dict[str, dict[tuple[int, int], set[int]]] = field(default_factory=dict)
    turn: int = 0
    event: int = 0
    moves: int = 0


class FakeGames:
    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.games: dict[str, FakeGame] = {}

    def _seat(self, game: FakeGame, name: str) -> Seat:
        token, pid = secrets.token_urlsafe(16), f"p{len(game.players) + 1}"
        game.players.append((token, pid, name))
        key = "shared" if game.mode == "battle" else pid
        game.entries.setdefault(key, {})
        game.marks.setdefault(key, {})
        game.event += 1
        return Seat(game.id, token, pid, game.mode, game.code)

    def create(self, spec: NewGame) -> Seat:
        gid = f"g{len(self.games) + 1}"
        game = FakeGame(gid, spec.mode, self.puzzle, spec.players, f"R{len(self.games) + 1}")
        self.games[gid] = game
        return self._seat(game, spec.name)

    def join(self, code: str, name: str) -> Seat:
        for game in self.games.values():
            if game.code == code and len(game.players) < game.seats:
                return self._seat(game, name)
        raise NotFound(f"no open room {code}")

    def _find(self, game_id: str, token: str) -> tuple[FakeGame, str]:
        game = self.games.get(game_id)
        if game is None:
            raise NotFound(f"no game {game_id}")
        for t, pid, _ in game.players:
            if secrets.compare_digest(t, token):
                return game, pid
        raise Unauthorized("wrong token")

    def view(self, game_id: str, token: str) -> View:
        game, pid = self._find(game_id, token)
        key = "shared" if game.mode == "battle" else pid
        return {
            "event": game.event,
            "game": {
                "id": game.id,
                "mode": game.mode,
                "status": "playing",
                "code": game.code,
                "size": f"{game.puzzle.nrows}x{game.puzzle.ncols}",
                "difficulty": "easy",
                "permanent": False,
                "seats": game.seats,
                "waiting": len(game.players) < game.seats,
                "turn": game.players[game.turn][1] if game.mode == "battle" else None,
                "clock": {"elapsed_s": 0, "limit_s": None, "running": True},
            },
            "puzzle": board_json(game.puzzle),
            "board": {
                "entries": [[r, c, d] for (r, c), d in sorted(game.entries[key].items())],
                "marks": [[r, c, sorted(m)] for (r, c), m in sorted(game.marks[key].items())],
                "locked": [],
                "conflicts": [],
            },
            "me": {"id": pid, "shields": 3},
            "players": [
                {"id": p, "name": n, "score": 0, "progress": 0.0, "finished": False}
                for _, p, n in game.players
            ],
            "result": None,
        }

    def act(self, game_id: str, token: str, move: Move) -> dict[str, Any]:
        game, pid = self._find(game_id, token)
        if game.mode == "battle" and game.players[game.turn][1] != pid:
            raise Refused("not your turn")
        key = "shared" if game.mode == "battle" else pid
        assert move.cell is not None or move.kind in ("shield", "submit")
        if move.kind == "place" and move.cell is not None and move.digit is not None:
            game.entries[key][move.cell] = move.digit
        elif move.kind == "erase" and move.cell is not None:
            game.entries[key].pop(move.cell, None)
        elif move.kind == "mark" and move.cell is not None and move.digit is not None:
            game.marks[key].setdefault(move.cell, set()).symmetric_difference_update({move.digit})
        if game.mode == "battle":
            game.turn = (game.turn + 1) % len(game.players)
        game.event += 1
        game.moves += 1
        return {}

    def event(self, game_id: str) -> int:
        game = self.games.get(game_id)
        if game is None:
            raise NotFound(game_id)
        return game.event

    def calendar(self, name: str) -> dict[str, Any]:
        return {"week": [], "streak": 0, "best_streak": 0}
