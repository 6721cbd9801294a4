"""The web layer's message checks: well-formed messages parse to typed records, everything
else is a ProtocolError with a reason (never another exception, whatever the input)."""

from __future__ import annotations

import json
import random

import pytest

from kakurolab.errors import KakuroError
from kakurolab.web import protocol
from kakurolab.web.protocol import MAX_MESSAGE, Move, ProtocolError, parse_move, parse_socket


def test_moves_parse_to_records() -> None:
    assert parse_move({"kind": "place", "cell": [2, 3], "digit": 7}) == Move(
        "place", cell=(2, 3), digit=7
    )
    assert parse_move({"kind": "erase", "cell": [0, 1]}) == Move("erase", cell=(0, 1))
    assert parse_move({"kind": "mark", "cell": [4, 4], "digit": 1}).digit == 1
    reveal = parse_move({"kind": "shield", "use": "reveal", "clue": [1, 0], "dir": "a"})
    assert (reveal.use, reveal.clue, reveal.direction) == ("reveal", (1, 0), "a")
    assert parse_move({"kind": "shield", "use": "unlock", "cell": [3, 3]}).cell == (3, 3)
    assert parse_move({"kind": "shield", "use": "hint"}) == Move("shield", use="hint")
    assert parse_move({"kind": "submit"}) == Move("submit")


@pytest.mark.parametrize(
    "move",
    [
        {"kind": "place", "cell": [2, 3], "digit": 0},
        {"kind": "place", "cell": [2, 3], "digit": 10},
        {"kind": "place", "cell": [2, 3], "digit": True},
        {"kind": "place", "cell": [2, 3], "digit": "7"},
        {"kind": "place", "cell": [2, 3], "digit": 7.0},
        {"kind": "place", "cell": [2], "digit": 7},
        {"kind": "place", "cell": [-1, 3], "digit": 7},
        {"kind": "place", "cell": [2, 999], "digit": 7},
        {"kind": "place", "cell": "r2c3", "digit": 7},
        {"kind": "place", "cell": [2, 3], "digit": 7, "player": "p2"},
        {"kind": "teleport"},
        {"kind": ["place"]},
        {"kind": "shield", "use": "solve"},
        {"kind": "shield", "use": "reveal", "clue": [1, 0]},
        {"kind": "submit", "solution": [[1]]},
        [],
        None,
        "place",
    ],
)
def test_malformed_moves_are_refused(move: object) -> None:
    with pytest.raises(ProtocolError):
        parse_move(move)


def test_socket_messages() -> None:
    hello = parse_socket(json.dumps({"type": "hello", "game": "g1", "token": "a" * 22}))
    assert hello == protocol.Hello("g1", "a" * 22)
    message = parse_socket(json.dumps({"type": "move", "id": 5, "move": {"kind": "submit"}}))
    assert isinstance(message, protocol.MoveMessage) and message.id == 5
    for raw in (
        "{",
        "[]",
        '"hello"',
        "null",
        json.dumps({"type": "hello", "game": "g1", "token": "short"}),
        json.dumps({"type": "hello", "game": "../etc", "token": "a" * 22}),
        json.dumps({"type": "move", "id": -1, "move": {"kind": "submit"}}),
        json.dumps({"type": "shout"}),
        "[" * 100_000,
        b"\xff\xfe",
    ):
        with pytest.raises(ProtocolError):
            parse_socket(raw)


def test_size_limit_is_checked_before_parsing() -> None:
    big = json.dumps({"type": "view", "id": 1, "pad": "x" * MAX_MESSAGE})
    with pytest.raises(ProtocolError, match="too large"):
        parse_socket(big)


def test_new_game_and_join() -> None:
    spec = protocol.parse_new_game({"mode": "arena", "name": " Ann ", "size": "8x8", "players": 3})
    assert (spec.mode, spec.name, spec.size, spec.players) == ("arena", "Ann", "8x8", 3)
    assert protocol.parse_join({"code": "ab12", "name": "Bo"}).code == "AB12"
    for bad in (
        {"mode": "arena", "name": ""},
        {"mode": "arena", "name": "x" * 100},
        {"mode": "arena", "name": "a\x00b"},
        {"mode": "chess", "name": "a"},
        {"mode": "arena", "name": "a", "players": 9},
        {"mode": "arena", "name": "a", "size": "8x8; drop table"},
        {"mode": "arena", "name": "a", "permanent": "yes"},
    ):
        with pytest.raises(ProtocolError):
            protocol.parse_new_game(bad)


def test_random_garbage_only_ever_raises_protocol_errors() -> None:
    """A few thousand random messages: each parses or is a ProtocolError (a KakuroError)."""
    rng = random.Random(17)
    atoms: list[object] = [None, True, 0, -1, 7, 2**70, 1.5, "", "place", "a" * 30, [], {}]
    keys = ["type", "id", "move", "kind", "cell", "digit", "use", "clue", "dir", "game", "token"]

    def value(depth: int) -> object:
        if depth > 2 or rng.random() < 0.5:
            return rng.choice(atoms)
        if rng.random() < 0.5:
            return [value(depth + 1) for _ in range(rng.randint(0, 3))]
        return {rng.choice(keys): value(depth + 1) for _ in range(rng.randint(0, 4))}

    for _ in range(3000):
        raw = json.dumps(value(0))
        try:
            parse_socket(raw)
        except KakuroError as exc:
            assert isinstance(exc, ProtocolError)
