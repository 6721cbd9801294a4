"""The new-game form's practice sources (issue 28): a ``seed`` plays the same puzzle again
(the board's Restart), a ``puzzle`` is a puzz.link URL or the kakuro text of a grid, read by
the formats layer; both only for practice, and a bad one is one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest
from _web import engine_games, shipped

from kakurolab.formats import dumps
from kakurolab.model import Puzzle
from kakurolab.web.protocol import ProtocolError, parse_new_game


def _bare(puzzle: Puzzle) -> Puzzle:
    return Puzzle(puzzle.id, puzzle.grid)


URL = dumps([_bare(shipped("8x8", "easy")[0])], "pzpr").strip()


def test_a_puzz_link_url_and_kakuro_text_give_the_same_grid() -> None:
    source = shipped("8x8", "easy")[0]
    url = dumps([_bare(source)], "pzpr").strip()
    from_url = parse_new_game({"mode": "practice", "puzzle": url}).puzzle
    text = dumps([_bare(source)], "kakuro")
    from_text = parse_new_game({"mode": "practice", "puzzle": text}).puzzle
    assert from_url is not None and from_text is not None
    assert from_url.grid == source.grid == from_text.grid


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"mode": "arena", "seed": "abc"}, "practice game's puzzle only"),
        ({"mode": "campaign", "puzzle": URL}, "practice game's puzzle only"),
        ({"mode": "practice", "puzzle": "https://puzz.link/p?kakuro/7/7/zz"}, "'puzzle'"),
        ({"mode": "practice", "puzzle": ""}, "'puzzle'"),
        ({"mode": "practice", "puzzle": 7}, "'puzzle'"),
        ({"mode": "practice", "seed": "no spaces allowed"}, "'seed'"),
    ],
)
def test_bad_sources_are_one_line(body: dict[str, object], says: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_new_game(body)
    assert says in str(caught.value) and "\n" not in str(caught.value)


def test_a_seed_plays_the_same_puzzle_again(tmp_path: Path) -> None:
    games = engine_games(tmp_path / "games.sqlite")
    token = games.register("ada")["token"]
    body = {"mode": "practice", "size": "8x8", "difficulty": "easy"}
    first = games.create(token, parse_new_game(body))
    again = games.create(token, parse_new_game({**body, "seed": first["spec"]["seed"]}))
    assert again["game_id"] != first["game_id"]
    assert again["puzzle"] == first["puzzle"]
    assert again["spec"]["target_s"] == first["spec"]["target_s"]
    text = "\n".join(" ".join(row) for row in first["puzzle"]["grid"])  # what Restart sends
    pasted = games.create(token, parse_new_game({"mode": "practice", "puzzle": text}))
    assert pasted["puzzle"]["grid"] == first["puzzle"]["grid"]
    assert pasted["spec"]["source"] == "file"
    games.close()
