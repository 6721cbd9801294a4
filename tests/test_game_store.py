"""The store: a SIGKILLed process loses no acknowledged move, a damaged log is refused on
replay, two processes (services) on one file stay in step, and ``kakuro play`` in the terminal.

Every test that takes ``store_at`` runs twice: on a SQLite file and on a database of a real
PostgreSQL cluster (``tests/_pg.py``)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from _game import Clock, damage, service, tiny, tiny_chooser

from kakurolab.cli import main
from kakurolab.game import GameService, Mode, NewGame, Options, ReplayError

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys
from kakurolab.game import GameService, Mode, NewGame
svc = GameService(sys.argv[1])
me = svc.register("killed")
view = svc.create(me.token, NewGame(Mode.PRACTICE, size="6x6", difficulty="easy", seed=3))
whites = [f"r{r + 1}c{c + 1}" for r, row in enumerate(view.puzzle["grid"])
          for c, token in enumerate(row) if token == "."]
print(json.dumps({"token": me.token, "game": view.game_id}), flush=True)
i = 0
while True:
    move = {"kind": "mark", "cell": whites[i % len(whites)], "digit": i % 9 + 1}
    result = svc.act(view.game_id, me.token, move)
    print(json.dumps({"version": result.view.version, "move": move}), flush=True)
    i += 1
"""


def test_sigkill_loses_no_acknowledged_move(store_at: Path | str) -> None:
    path = store_at
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE, text=True, env=env
    )
    assert child.stdout is not None
    head = json.loads(child.stdout.readline())
    acked = []
    while len(acked) < 150:
        acked.append(json.loads(child.stdout.readline()))
    os.kill(child.pid, signal.SIGKILL)  # mid-write, most likely: it never sleeps
    child.wait()
    assert child.returncode == -signal.SIGKILL
    svc = GameService(path)  # a new process's view: load and replay the log
    events = [e.to_json() for e in svc.events_since(head["game"], head["token"], 0)]
    by_seq = {e["seq"]: e for e in events}
    for ack in acked:
        assert by_seq[ack["version"]]["move"] == ack["move"]
    view = svc.view(head["game"], head["token"])
    assert view.version >= acked[-1]["version"]
    # the marks replayed are the toggles of every logged move
    marks: dict[str, set[int]] = {}
    for event in events:
        if event["kind"] == "mark":
            marks.setdefault(event["move"]["cell"], set()).symmetric_difference_update(
                {event["move"]["digit"]}
            )
    assert view.marks == {c: sorted(d) for c, d in sorted(marks.items()) if d}


def _played(store_at: Path | str) -> tuple[GameService, str, str]:
    svc = service(store_at)
    me = svc.register("solo")
    game = svc.create(me.token, NewGame(Mode.PRACTICE, puzzle=tiny())).game_id
    for cell, digit in (("r2c2", 2), ("r2c3", 4), ("r3c3", 5)):
        svc.act(game, me.token, {"kind": "place", "cell": cell, "digit": digit})
    return svc, me.token, game


@pytest.mark.parametrize(
    "harm",
    [
        "UPDATE moves SET outcome = replace(outcome, 'r2c3 = 4', 'r2c3 = 5') WHERE seq = 4",
        "UPDATE moves SET move = replace(move, '\"digit\": 4', '\"digit\": 1') WHERE seq = 4",
        "DELETE FROM moves WHERE seq = 3",
        "UPDATE moves SET at = at + 1 WHERE seq = 5",
        "UPDATE games SET solution_digest = 'x'",
    ],
)
def test_a_damaged_log_is_refused_on_replay(store_at: Path | str, harm: str) -> None:
    svc, token, game = _played(store_at)
    before = svc.view(game, token).to_json()
    assert GameService(store_at, clock=Clock()).view(game, token).to_json() == before
    svc.close()
    assert damage(store_at, harm) == 1
    with pytest.raises(ReplayError):
        GameService(store_at, clock=Clock()).view(game, token)


def test_two_services_on_one_store_stay_in_step(store_at: Path | str) -> None:
    clock = Clock()
    first = service(store_at, clock, chooser=tiny_chooser)
    alice, bob = first.register("alice"), first.register("bob")
    game = first.create(alice.token, NewGame(Mode.BATTLE, size="4x4")).game_id
    second = service(store_at, clock, chooser=tiny_chooser)  # another process, say the web
    second.join(game, bob.token)
    assert first.view(game, alice.token).phase == "active"
    first.act(game, alice.token, {"kind": "place", "cell": "r2c2", "digit": 2})
    second.act(game, bob.token, {"kind": "place", "cell": "r2c3", "digit": 1})
    assert first.view(game, alice.token).board == second.view(game, bob.token).board
    assert first.view(game, alice.token).turn == alice.player_id


def test_subscribers_hear_every_commit(store_at: Path | str) -> None:
    svc, token, game = _played(store_at)
    heard: list[tuple[str, int]] = []
    stop = svc.subscribe(lambda g, v: heard.append((g, v)))
    svc.act(game, token, {"kind": "mark", "cell": "r4c4", "digit": 7})
    stop()
    svc.act(game, token, {"kind": "mark", "cell": "r4c4", "digit": 7})
    assert heard == [(game, svc.version(game) - 1)]


# --- kakuro play -------------------------------------------------------------------------------


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_play_in_the_terminal(store_at: Path | str, capsys: pytest.CaptureFixture[str]) -> None:
    store = ["--store", str(store_at)]
    puzzle = str(Path(__file__).parent / "data" / "tiny.kakuro")
    code, out, _ = _cli(capsys, "new", "--file", puzzle, "--select", "tiny-a", *store, "--json")
    assert code == 0
    game = json.loads(out)["game_id"]
    code, out, _ = _cli(capsys, "move", game, "r2c2", "2", *store)
    assert code == 0 and "r2c2 = 2" in out
    code, out, _ = _cli(capsys, "move", game, "mark r3c3 5", *store)  # one quoted argument
    assert code == 0 and "r3c3" in out
    code, out, _ = _cli(capsys, "show", game, *store)
    assert code == 0 and "  2  " in out and "(5)" in out and "solution" not in out
    for bad in (["r1c1", "3"], ["r2c2", "0"], ["fly"], ["shield", "candidates", "r9c9"]):
        code, out, err = _cli(capsys, "move", game, *bad, *store)
        assert code == 2 and err.startswith("kakuro: error: ") and err.count("\n") == 1, bad
        assert "Traceback" not in err
    code, _, err = _cli(capsys, "move", "g-none", "r2c2", "2", *store)
    assert code == 2 and "no game" in err
    code, _, err = _cli(capsys, "show", game, "--player", "someone-else", *store)
    assert code == 2 and "not a player" in err
    for cell, digit in (("r2c3", 1), ("r3c2", 3), ("r3c3", 5), ("r3c4", 2), ("r4c3", 9)):
        assert _cli(capsys, "move", game, cell, str(digit), *store)[0] == 0
    code, out, _ = _cli(capsys, "move", game, "r4c4", "7", *store)
    assert code == 0 and "1. local" in out
    code, out, _ = _cli(capsys, "show", game, *store)
    assert "solution:\n  ----\n  -21-\n  -352\n  --97" in out
    code, out, _ = _cli(capsys, "score", game, *store, "--json")
    (line,) = json.loads(out)["standings"]
    assert line["solved"] and line["breakdown"]["flawless"] == 500
    code, out, _ = _cli(capsys, "list", *store, "--json")
    assert [g["game_id"] for g in json.loads(out)["games"]] == [game]


def test_play_campaign_in_the_terminal(
    store_at: Path | str, capsys: pytest.CaptureFixture[str]
) -> None:
    store = ["--store", str(store_at)]
    code, out, _ = _cli(capsys, "campaign", *store)
    assert code == 0 and "Sunday" in out and "16x22" in out and "streak 0" in out


def test_games_evicted_from_memory_replay_from_the_store(
    store_at: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kakurolab.game import memory

    monkeypatch.setattr(memory, "MAX_CACHED", 1)
    svc = service(store_at)
    me = svc.register("many")
    games = [svc.create(me.token, NewGame(Mode.PRACTICE, puzzle=tiny())).game_id for _ in range(3)]
    for i, game in enumerate(games):
        svc.act(game, me.token, {"kind": "place", "cell": "r2c2", "digit": i + 1})
    assert len(svc._games) == 1
    assert [svc.view(g, me.token).board for g in games] == [{"r2c2": d} for d in (1, 2, 3)]


def test_battle_between_two_terminal_players(
    store_at: Path | str, capsys: pytest.CaptureFixture[str]
) -> None:
    store = ["--store", str(store_at)]
    puzzle = str(Path(__file__).parent / "data" / "tiny.kakuro")
    code, out, _ = _cli(capsys, "new", "--mode", "battle", "--file", puzzle, "--select",
                        "tiny-a", "--player", "ann", *store, "--json")  # fmt: skip
    game = json.loads(out)["game_id"]
    assert _cli(capsys, "join", game, "--player", "bo", *store)[0] == 0
    code, _, err = _cli(capsys, "move", game, "r2c2", "2", "--player", "bo", *store)
    assert code == 2 and "ann's turn" in err
    assert _cli(capsys, "move", game, "mark", "r3c3", "5", "--player", "bo", *store)[0] == 0
    code, out, _ = _cli(capsys, "move", game, "r2c2", "3", "--player", "ann", *store)
    assert code == 0 and "wrong: -150" in out
    code, out, _ = _cli(capsys, "show", game, "--player", "ann", *store)
    assert "bo's marks: r3c3 5" in out and "ann (you): 0% filled -150 points" in out
    assert "bo: 0% filled 0 points <- turn" in out
    code, _, err = _cli(capsys, "new", "--mode", "campaign", "--file", puzzle, *store)
    assert code == 2 and "calendar chooses" in err


def test_threads_share_one_service(store_at: Path | str) -> None:
    """A web server calls the service from worker threads: every acknowledged move is kept."""
    import threading

    svc = service(store_at, chooser=tiny_chooser)
    players = [svc.register(f"t{i}") for i in range(6)]
    games = [svc.create(p.token, NewGame(Mode.PRACTICE, puzzle=tiny())).game_id for p in players]
    arena = svc.create(players[0].token, NewGame(Mode.ARENA, size="4x4")).game_id
    for p in players[1:4]:
        svc.join(arena, p.token)  # the fourth seat starts it
    errors: list[BaseException] = []

    def play(i: int) -> None:
        try:
            for k in range(40):
                game = games[i] if k % 2 else arena
                if game == arena and i >= 4:
                    continue
                move = {"kind": "mark", "cell": "r3c3", "digit": k % 9 + 1}
                svc.act(game, players[i].token, move)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    fresh = GameService(store_at, clock=Clock())
    for i, game in enumerate(games):
        assert fresh.view(game, players[i].token).version == 2 + 20  # join, start, 20 marks
    assert fresh.view(arena, players[0].token).version == 5 + 4 * 20


def test_a_failed_write_is_refused_and_changes_nothing(
    store_at: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kakurolab.game import StoreError

    svc, token, game = _played(store_at)
    before = svc.view(game, token).to_json()
    real = svc.store.append

    def full_disk(*args: object) -> None:
        real(*args)  # type: ignore[arg-type]
        raise svc.store.errors[0]("database or disk is full")  # the database's own error

    monkeypatch.setattr(svc.store, "append", full_disk)
    with pytest.raises(StoreError, match="disk is full"):
        svc.act(game, token, {"kind": "place", "cell": "r4c4", "digit": 7})
    monkeypatch.undo()
    assert svc.view(game, token).to_json() == before  # rolled back, memory reloaded
    assert svc.act(game, token, {"kind": "place", "cell": "r4c4", "digit": 7}).view.version == (
        before["version"] + 1
    )


def test_two_processes_moving_in_one_game_lose_nothing(store_at: Path | str) -> None:
    """Two services (two server processes) move in the same Arena game at once, each from
    its own thread: the game's lock (PostgreSQL: its row, ``FOR UPDATE``; SQLite: the file)
    makes each append start from the newest log, so every move is acknowledged and kept,
    numbered without a gap."""
    import threading

    first = service(store_at, chooser=tiny_chooser)
    second = service(store_at, chooser=tiny_chooser)
    players = [first.register(f"r{i}") for i in range(4)]
    arena = first.create(players[0].token, NewGame(Mode.ARENA, size="4x4")).game_id
    for p in players[1:]:
        second.join(arena, p.token)  # the fourth seat starts it
    start = first.version(arena)
    errors: list[BaseException] = []
    acked: list[int] = []

    def play(svc: GameService, who: int) -> None:
        try:
            for k in range(25):
                move = {"kind": "mark", "cell": "r3c3", "digit": k % 9 + 1}
                acked.append(svc.act(arena, players[who].token, move).view.version)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(svc, who))
               for who, svc in enumerate((first, second, first, second))]  # fmt: skip
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors[:3]
    fresh = service(store_at)
    events = fresh.events_since(arena, players[0].token, start)
    assert len(acked) == 100
    assert [e.seq for e in events] == list(range(start + 1, start + 101))
    assert {e.kind.value for e in events} == {"mark"}


def test_two_processes_end_a_timed_game_once(
    store_at: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both servers' timers fire at the deadline: one ends the game; the other, which read
    the game as running just before, finds it over under the lock and writes nothing."""
    clock = Clock()
    first, second = service(store_at, clock), service(store_at, clock)
    me = first.register("sprinter")
    options = Options(time_limit_s=60)
    game = first.create(me.token, NewGame(Mode.PRACTICE, puzzle=tiny(), options=options)).game_id
    assert second.view(game, me.token).phase == "active"
    clock.advance(61)
    stale = second.store.version(game)
    real = second.store.version
    reads = iter([stale])  # second's first read is from before first's commit, as in a race
    monkeypatch.setattr(second.store, "version", lambda g: next(reads, None) or real(g))
    assert first.tick(game) is True
    assert second.tick(game) is False
    events = service(store_at, clock).events_since(game, me.token, 0)
    assert [e.kind.value for e in events].count("expire") == 1
    assert second.view(game, me.token).end_reason == "time"


def test_a_postgresql_store_without_the_extra_says_which(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if not installed
    code, out, err = _cli(capsys, "list", "--store", "postgresql://someone@127.0.0.1/kakuro")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "pip install 'kakurolab[postgres]'" in err and "Traceback" not in err


def test_an_unreachable_postgresql_store_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _cli(capsys, "list", "--store", "postgresql://someone:pw@127.0.0.1:1/kakuro")
    assert code == 2 and err.count("\n") == 1 and "cannot open the game store" in err
    assert "someone:***@" in err and ":pw@" not in err  # the password is not shown


def test_a_commit_is_heard_by_the_other_processes(store_at: Path | str) -> None:
    """PostgreSQL: each appended move is a NOTIFY at commit, heard by every other store's
    listener (not the committer's own: its server pushes its moves itself).  SQLite cannot
    push: ``listen`` says so (None) and a server polls."""
    import queue

    mover, watcher = service(store_at), service(store_at)
    heard: queue.Queue[tuple[str, str, int]] = queue.Queue()
    stops = [svc.store.listen(lambda g, v, who=who: heard.put((who, g, v)))
             for who, svc in (("mover", mover), ("watcher", watcher))]  # fmt: skip
    if isinstance(store_at, Path):
        assert stops == [None, None]
        return
    me = mover.register("solo")
    game = mover.create(me.token, NewGame(Mode.PRACTICE, puzzle=tiny())).game_id
    mover.act(game, me.token, {"kind": "place", "cell": "r2c2", "digit": 2})
    got = [heard.get(timeout=10) for _ in range(3)]  # the join, the start, the place
    for stop in stops:
        assert stop is not None
        stop()
    assert got == [("watcher", game, v) for v in (1, 2, 3)]
    assert heard.empty()
