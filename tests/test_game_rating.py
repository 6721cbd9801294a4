"""The Battle Matrix rating (issue 50 §1, ``kakurolab/game/rating.py``): a finished Battle
moves both players' OpenSkill ratings once, from the final ranks (win, loss, a draw when the
players share rank 1, a countdown's end with the points standing); never twice (a second tick,
a reload that replays the log, a second service on the store); people and computer games in
separate pools.  Every test with ``store_at`` runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from _game import Clock, service, tiny_chooser
from openskill.models import PlackettLuce

from kakurolab.errors import MissingExtraError
from kakurolab.game import GameService, Mode, NewGame, Options, rating
from kakurolab.game.service import Credentials

SCRIPT = [  # tiny-a, the hand-computed Battle of tests/test_game.py: bob 513, alice -34
    ("alice", "r2c2", 2), ("bob", "r2c3", 1), ("alice", "r3c2", 4), ("bob", "r3c2", 3),
    ("alice", "r3c3", 5), ("bob", "r3c4", 2), ("alice", "r4c3", 9), ("bob", "r4c4", 7),
]  # fmt: skip


def _battle(svc: GameService, clock: Clock, options: Options | None = None,
            ) -> tuple[str, dict[str, Credentials]]:  # fmt: skip
    who = {name: svc.register(name) for name in ("alice", "bob")}
    new = NewGame(Mode.BATTLE, size="4x4", options=options or Options())
    game = svc.create(who["alice"].token, new).game_id
    svc.join(game, who["bob"].token)
    return game, who


def _play(svc: GameService, clock: Clock, game: str, who: dict[str, Credentials],
          moves: int = len(SCRIPT)) -> None:  # fmt: skip
    for name, cell, digit in SCRIPT[:moves]:
        clock.advance(10)
        svc.act(game, who[name].token, {"kind": "place", "cell": cell, "digit": digit})


def _mine(svc: GameService, who: Credentials, pool: str = "battle") -> dict[str, object]:
    return svc.my_ratings(who.token)[pool]


def test_a_win_moves_both_ratings_once_as_openskill_says(store_at: Path | str) -> None:
    clock = Clock()
    svc = service(store_at, clock, chooser=tiny_chooser)
    game, who = _battle(svc, clock)
    assert svc.my_ratings(who["bob"].token) == {}  # no rated game yet
    _play(svc, clock, game, who)
    assert svc.view(game, who["bob"].token).phase == "finished"
    model = PlackettLuce()  # the package's own answer, computed here independently
    [[alice], [bob]] = model.rate([[model.rating()], [model.rating()]], ranks=[2, 1])
    won, lost = _mine(svc, who["bob"]), _mine(svc, who["alice"])
    assert won["mu"] == pytest.approx(bob.mu, abs=0.01) and won["mu"] > 25
    assert lost["mu"] == pytest.approx(alice.mu, abs=0.01) and lost["mu"] < 25
    assert won["sigma"] == pytest.approx(bob.sigma, abs=0.01) and won["sigma"] < 25 / 3
    assert (won["wins"], won["losses"], won["draws"], won["games"]) == (1, 0, 0, 1)
    assert (lost["wins"], lost["losses"], lost["draws"], lost["games"]) == (0, 1, 0, 1)
    assert won["shown"] == f"{bob.mu:.1f} ± {2 * bob.sigma:.1f}"
    assert won["conservative"] == pytest.approx(bob.mu - 3 * bob.sigma, abs=0.01)
    table = svc.ratings("battle")
    assert [(r["name"], r["rank"]) for r in table] == [("bob", 1), ("alice", 2)]
    assert svc.ratings("computer") == []
    changes = svc.store.rating_changes_of(game)
    assert {c["player_id"] for c in changes} == {who["alice"].player_id, who["bob"].player_id}
    assert all(c["mu_before"] == 25 and c["pool"] == "battle" for c in changes)


def test_a_countdown_with_no_move_is_a_draw(store_at: Path | str) -> None:
    """Both on 0 points, 0 s on their turns, no shield, no clue: equal on every tie-breaker,
    so they share rank 1, and the rating counts a draw (equal ratings stay equal)."""
    clock = Clock()
    svc = service(store_at, clock, chooser=tiny_chooser)
    game, who = _battle(svc, clock, Options(time_limit_s=60))
    clock.advance(61)
    assert svc.tick(game) is True
    view = svc.view(game, who["alice"].token)
    assert view.end_reason == "time" and [s["rank"] for s in view.standings] == [1, 1]
    a, b = _mine(svc, who["alice"]), _mine(svc, who["bob"])
    assert a["draws"] == b["draws"] == 1 and a["wins"] == b["wins"] == 0
    assert a["mu"] == pytest.approx(25) and a["sigma"] < 25 / 3 and a["mu"] == b["mu"]


def test_a_countdown_rates_the_points_as_they_stand(store_at: Path | str) -> None:
    clock = Clock()
    svc = service(store_at, clock, chooser=tiny_chooser)
    game, who = _battle(svc, clock, Options(time_limit_s=60))
    _play(svc, clock, game, who, moves=2)  # alice +2, bob +101
    clock.advance(100)
    svc.tick(game)
    assert _mine(svc, who["bob"])["wins"] == 1 and _mine(svc, who["alice"])["losses"] == 1


def test_finishing_again_or_replaying_never_counts_twice(store_at: Path | str) -> None:
    clock = Clock()
    svc = service(store_at, clock, chooser=tiny_chooser)
    game, who = _battle(svc, clock, Options(time_limit_s=600))
    _play(svc, clock, game, who)
    after = svc.ratings("battle")
    clock.advance(1000)
    assert svc.tick(game) is False  # over already: no second end
    svc._games.clear()  # forget it: the next call replays the whole log
    assert svc.view(game, who["bob"].token).phase == "finished"
    other = service(store_at, clock, chooser=tiny_chooser)  # a second process on the store
    assert other.tick(game) is False and other.view(game, who["bob"].token).phase == "finished"
    lines = [s for s in svc.view(game, who["bob"].token).standings]
    with svc.store.transaction() as db:  # the end recorded again by hand: refused by its key
        assert rating.record(svc.store, db, game, lines, clock()) is None
    assert svc.ratings("battle") == after == other.ratings("battle")
    assert len(svc.store.rating_changes_of(game)) == 2


def test_two_games_add_up_in_order(store_at: Path | str) -> None:
    clock = Clock()
    svc = service(store_at, clock, chooser=tiny_chooser)
    first, who = _battle(svc, clock)
    _play(svc, clock, first, who)
    bob = _mine(svc, who["bob"])
    alice2 = svc.register("alice2")
    second = svc.create(who["bob"].token, NewGame(Mode.BATTLE, size="4x4")).game_id
    svc.join(second, alice2.token)
    for name, cell, digit in SCRIPT:  # bob now moves first, as alice did: he plays her part
        token = who["bob"].token if name == "alice" else alice2.token
        clock.advance(10)
        svc.act(second, token, {"kind": "place", "cell": cell, "digit": digit})
    again = _mine(svc, who["bob"])
    assert again["games"] == 2 and again["losses"] == 1 and again["mu"] < bob["mu"]
    assert again["sigma"] < bob["sigma"]  # every game makes the rating surer


def test_a_game_against_the_computer_is_rated_in_its_own_pool(store_at: Path | str) -> None:
    clock = Clock()
    svc = service(store_at, clock, chooser=tiny_chooser)
    ann = svc.register("ann")
    view = svc.create(ann.token, NewGame(Mode.BATTLE, size="4x4", computer="hard"))
    bot = svc.computer("hard")
    assert view.phase == "active" and [p.player_id for p in view.players] == [
        ann.player_id, bot.player_id]  # fmt: skip
    who = {"alice": ann, "bob": bot}
    _play(svc, clock, view.game_id, who)
    assert set(svc.my_ratings(ann.token)) == {"computer"}
    assert [r["name"] for r in svc.ratings("computer")] == ["Computer (hard)", "ann"]
    assert svc.ratings("battle") == []
    assert svc.computer("hard") == bot  # the same computer player every time (the secret's)


def test_without_openskill_the_rating_names_its_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openskill.models", None)  # as if not installed
    with pytest.raises(MissingExtraError) as caught:
        rating.rated([rating.Rating("a"), rating.Rating("b")], [1, 2])
    message = str(caught.value)
    assert "'web'" in message or "[web]" in message
    assert "\n" not in message and not rating.available()


def test_without_openskill_a_battle_still_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A terminal-only install (no ``web`` extra) plays and ends its Battles unrated."""
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    clock = Clock()
    svc = service(tmp_path, clock, chooser=tiny_chooser)
    game, who = _battle(svc, clock)
    _play(svc, clock, game, who)
    assert svc.view(game, who["bob"].token).phase == "finished"
    assert svc.my_ratings(who["bob"].token) == {} and svc.store.rating_changes_of(game) == []


@pytest.mark.parametrize(("ranks", "won", "lost", "drawn"),
                         [([1, 2], 1, 0, 0), ([2, 1], 0, 1, 0), ([1, 1], 0, 0, 1)])  # fmt: skip
def test_the_record_counts_wins_losses_and_draws(
    ranks: list[int], won: int, lost: int, drawn: int
) -> None:
    first, second = rating.rated([rating.Rating("a"), rating.Rating("b")], ranks)
    assert (first.wins, first.losses, first.draws) == (won, lost, drawn)
    assert (second.wins, second.losses, second.draws) == (lost, won, drawn)
    assert (first.mu > second.mu) is (ranks[0] < ranks[1])
    with pytest.raises(ValueError, match="two or more players"):
        rating.rated([rating.Rating("a")], [1])
