"""The web layer's message checks: well-formed messages parse to the engine's records,
everything else is refused with a reason (a ProtocolError, or the engine's MoveSyntaxError
for a move), never another exception, whatever the input."""

from __future__ import annotations

import json
import random

import pytest

from kakurolab.errors import KakuroError
from kakurolab.game import Mode, Move, MoveKind, MoveSyntaxError, ShieldKind
from kakurolab.model import Direction
from kakurolab.web import protocol
from kakurolab.web.protocol import MAX_MESSAGE, ProtocolError, parse_move, parse_socket

REFUSALS = (ProtocolError, MoveSyntaxError)


def test_moves_parse_to_the_engines_records() -> None:
    place = parse_move({"kind": "place", "cell": "r3c4", "digit": 7})
    assert place == Move(MoveKind.PLACE, cell=(2, 3), digit=7)
    assert parse_move({"kind": "erase", "cell": "r1c2"}).cell == (0, 1)
    reveal = parse_move({"kind": "shield", "shield": "candidates", "run": "r1c3 down"})
    assert (reveal.shield, reveal.run) == (ShieldKind.CANDIDATES, ((0, 2), Direction.DOWN))
    assert parse_move({"kind": "submit"}).kind is MoveKind.SUBMIT


@pytest.mark.parametrize(
    "move",
    [
        {"kind": "place", "cell": "r3c4", "digit": 0},
        {"kind": "place", "cell": "r3c4", "digit": 10},
        {"kind": "place", "cell": "r3c4", "digit": True},
        {"kind": "place", "cell": [2, 3], "digit": 7},
        {"kind": "place", "cell": "r0c4", "digit": 7},
        {"kind": "place", "cell": "r3c4", "digit": 7, "player": "p2"},
        {"kind": "teleport"},
        {"kind": ["place"]},
        {"kind": "shield", "shield": "solve"},
        {"kind": "shield", "shield": "candidates"},
        {"kind": "submit", "solution": [[1]]},
        [],
        None,
        "place",
    ],
)
def test_malformed_moves_are_refused(move: object) -> None:
    with pytest.raises(REFUSALS):
        parse_move(move)


def test_socket_messages() -> None:
    hello = parse_socket(json.dumps({"type": "hello", "game": "g-1", "token": "a" * 22}))
    assert hello == protocol.Hello("g-1", "a" * 22)
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
        json.dumps({"type": "move", "id": 1, "move": {"kind": "submit"}, "as": "p2"}),
        json.dumps({"type": "shout"}),
        "[" * 100_000,
        b"\xff\xfe",
    ):
        with pytest.raises(REFUSALS):
            parse_socket(raw)


def test_size_limit_is_checked_before_parsing() -> None:
    big = json.dumps({"type": "view", "id": 1, "pad": "x" * MAX_MESSAGE})
    with pytest.raises(ProtocolError, match="too large"):
        parse_socket(big)


def test_new_game_form() -> None:
    spec = protocol.parse_new_game({"mode": "arena", "size": "12x12", "permanent": True})
    assert (spec.mode, spec.size, spec.options.permanent) == (Mode.ARENA, "12x12", True)
    assert protocol.parse_new_game({"mode": "campaign", "date": "2026-11-30"}).date == "2026-11-30"
    assert protocol.parse_new_game({"mode": "practice", "shields": 5}).options.shields == 5
    assert protocol.name({"name": " Ann "}) == "Ann"
    for bad in (
        {"mode": "chess"},
        {"mode": "arena", "size": "8x8; drop table"},
        {"mode": "arena", "difficulty": "brutal"},
        {"mode": "arena", "permanent": "yes"},
        {"mode": "arena", "shields": 99},
        {"mode": "arena", "time_limit_s": 0},
        {"mode": "campaign", "date": "next monday"},
        {"mode": "arena", "seed": "0"},
    ):
        with pytest.raises(ProtocolError):
            protocol.parse_new_game(bad)
    for bad_name in ("", "x" * 100, "a\x00b", None):
        with pytest.raises(ProtocolError):
            protocol.name({"name": bad_name})


def test_random_garbage_only_ever_raises_refusals() -> None:
    """A few thousand random messages: each parses or is refused as a KakuroError."""
    rng = random.Random(17)
    atoms: list[object] = [None, True, 0, -1, 7, 2**70, 1.5, "", "place", "r3c4", "a" * 30]
    keys = ["type", "id", "move", "kind", "cell", "digit", "shield", "run", "game", "token"]

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
            assert isinstance(exc, REFUSALS)
