"""One player on several devices (issue 50, "Across devices"): sign-in codes redeemed for a
new token of the same player, devices listed and revoked, codes single-use, expiring and
revocable, and no way to another player's token.  Every test runs on SQLite and on a real
PostgreSQL (``store_at``, tests/_pg.py)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from _game import Clock, damage, service, tiny

from kakurolab.cli import main
from kakurolab.game import AuthError, GameError, GameService, Mode, NewGame, UnknownGameError
from kakurolab.game.accounts import (
    ALPHABET,
    CODE_LENGTH,
    CODE_LIFETIME_S,
    MAX_LIVE_CODES,
    SigninError,
    normalized,
)


def _two_devices(svc: GameService) -> tuple[str, str, str]:
    """alice's first token, a practice game on it, and a second device's token."""
    alice = svc.register("alice", device="laptop")
    game = svc.create(alice.token, NewGame(Mode.PRACTICE, puzzle=tiny())).game_id
    svc.act(game, alice.token, {"kind": "place", "cell": "r2c2", "digit": 2})
    code = svc.accounts.make_code(alice.token)
    player_id, name, token, _ = svc.accounts.redeem(code.code, "phone")
    assert (player_id, name) == (alice.player_id, "alice")
    return alice.token, game, token


def test_a_code_gives_another_device_the_same_player(store_at: Path | str) -> None:
    svc = service(store_at)
    first, game, second = _two_devices(svc)
    assert second != first
    assert svc.whoami(second) == svc.whoami(first)
    assert svc.games(second) == svc.games(first)
    assert svc.stats(second) == svc.stats(first)
    # the second device goes on with the game the first one started
    svc.act(game, second, {"kind": "place", "cell": "r2c3", "digit": 1})
    assert svc.view(game, first).board == svc.view(game, second).board
    assert svc.view(game, first).board["r2c3"] == 1
    listed = svc.accounts.devices(second)
    assert sorted((d["label"], d["current"], d["revoked"]) for d in listed["devices"]) == [
        ("laptop", False, None), ("phone", True, None)]  # fmt: skip
    # another service on the same store (another process) knows the new device at once
    assert GameService(store_at, clock=Clock()).whoami(second)[1] == "alice"


def test_another_process_finds_the_revoked_tokens_among_its_sockets(
    store_at: Path | str,
) -> None:
    """``revoked_among`` (a server's check of its open sockets' tokens): a device revoked
    through one service is found revoked by another on the same store; live ones are not."""
    svc = service(store_at)
    first, _, second = _two_devices(svc)
    other = GameService(store_at, clock=Clock())
    assert other.revoked_among([first, second]) == set()
    svc.accounts.revoke_device(first, svc.store.device_by_token(second) or "")
    assert other.revoked_among([first, second]) == {second}
    assert other.revoked_among([]) == set()


def test_the_code_is_unguessable_and_stored_only_as_a_hash(store_at: Path | str) -> None:
    svc = service(store_at)
    alice = svc.register("alice")
    made = [svc.accounts.make_code(alice.token) for _ in range(3)]
    plain = [normalized(m.code) for m in made]
    assert len(set(plain)) == 3
    for code in plain:
        assert code is not None and len(code) == CODE_LENGTH
        assert set(code) <= set(ALPHABET)
    svc.close()
    for code in plain:  # neither the code nor its shown form is anywhere in the table
        assert damage(store_at, f"UPDATE signin_codes SET used = NULL WHERE code_hash = '{code}'"
                      f" OR code_hash = '{made[0].code}'") == 0  # fmt: skip
    assert damage(store_at, "UPDATE signin_codes SET used = NULL WHERE used IS NULL") == 3


def test_a_code_works_once(store_at: Path | str) -> None:
    svc = service(store_at)
    alice = svc.register("alice")
    code = svc.accounts.make_code(alice.token).code
    svc.accounts.redeem(code.lower().replace("-", " "))  # typed by hand: case and spaces
    with pytest.raises(SigninError, match="used already"):
        svc.accounts.redeem(code)


def test_two_devices_racing_for_one_code_get_one_token(store_at: Path | str) -> None:
    svc = service(store_at)
    alice = svc.register("alice")
    code = svc.accounts.make_code(alice.token).code
    others = [GameService(store_at, clock=Clock()) for _ in range(4)]
    won: list[str] = []
    lost: list[str] = []

    def take(other: GameService) -> None:
        try:
            won.append(other.accounts.redeem(code)[2])
        except SigninError as exc:
            lost.append(str(exc))

    threads = [threading.Thread(target=take, args=(o,)) for o in others]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1 and len(lost) == 3
    assert all("used already" in why for why in lost)


def test_a_code_expires(store_at: Path | str) -> None:
    clock = Clock()
    svc = service(store_at, clock)
    alice = svc.register("alice")
    code = svc.accounts.make_code(alice.token)
    assert code.expires == clock.now + CODE_LIFETIME_S
    clock.advance(CODE_LIFETIME_S + 1)
    with pytest.raises(SigninError, match="expired"):
        svc.accounts.redeem(code.code)
    assert svc.accounts.devices(alice.token)["codes"] == []


@pytest.mark.parametrize("bad", ["", "ABCD", "ABCD-EFGH-JKMN-PQR!", "x" * 500, "U" * 16])
def test_a_malformed_code_is_refused_in_one_line(store_at: Path | str, bad: str) -> None:
    svc = service(store_at)
    with pytest.raises(SigninError) as caught:
        svc.accounts.redeem(bad)
    assert "\n" not in str(caught.value)


def test_an_unknown_code_is_refused(store_at: Path | str) -> None:
    svc = service(store_at)
    svc.register("alice")
    with pytest.raises(SigninError, match="unknown"):
        svc.accounts.redeem("ABCD-EFGH-JKMN-PQRS")


def test_a_revoked_code_cannot_be_redeemed(store_at: Path | str) -> None:
    svc = service(store_at)
    alice, bob = svc.register("alice"), svc.register("bob")
    code = svc.accounts.make_code(alice.token)
    assert [c["code_id"] for c in svc.accounts.devices(alice.token)["codes"]] == [code.code_id]
    with pytest.raises(UnknownGameError):  # bob cannot revoke alice's code
        svc.accounts.revoke_code(bob.token, code.code_id)
    svc.accounts.revoke_code(alice.token, code.code_id)
    with pytest.raises(SigninError, match="unknown"):
        svc.accounts.redeem(code.code)
    with pytest.raises(UnknownGameError):
        svc.accounts.revoke_code(alice.token, code.code_id)


def test_codes_per_player_are_capped(store_at: Path | str) -> None:
    svc = service(store_at)
    alice = svc.register("alice")
    for _ in range(MAX_LIVE_CODES):
        svc.accounts.make_code(alice.token)
    with pytest.raises(GameError, match="unused sign-in codes already"):
        svc.accounts.make_code(alice.token)


def test_a_revoked_device_is_refused_at_once(store_at: Path | str) -> None:
    svc = service(store_at)
    first, game, second = _two_devices(svc)
    other = GameService(store_at, clock=Clock())  # another process that knew the token
    assert other.view(game, second).game_id == game
    phone = next(d for d in svc.accounts.devices(first)["devices"] if d["label"] == "phone")
    svc.accounts.revoke_device(first, phone["device_id"])
    for where in (svc, other):
        with pytest.raises(AuthError, match="unknown player token"):
            where.view(game, second)
        with pytest.raises(AuthError):
            where.act(game, second, {"kind": "place", "cell": "r2c3", "digit": 1})
        with pytest.raises(AuthError):
            where.accounts.make_code(second)
    listed = svc.accounts.devices(first)["devices"]
    assert {d["label"]: d["revoked"] is not None for d in listed} == {"laptop": False,
                                                                      "phone": True}
    assert svc.view(game, first).board == {"r2c2": 2}  # the first device is untouched
    with pytest.raises(UnknownGameError):  # revoked already
        svc.accounts.revoke_device(first, phone["device_id"])


def test_the_last_device_cannot_be_revoked_and_none_of_another_player(
    store_at: Path | str,
) -> None:
    svc = service(store_at)
    first, _, second = _two_devices(svc)
    bob = svc.register("bob")
    bobs = svc.accounts.devices(bob.token)["devices"][0]["device_id"]
    with pytest.raises(UnknownGameError):  # alice cannot revoke bob's device
        svc.accounts.revoke_device(first, bobs)
    with pytest.raises(GameError, match="only signed-in device"):
        svc.accounts.revoke_device(bob.token, bobs)
    assert svc.whoami(bob.token)[1] == "bob"
    mine = svc.accounts.devices(second)
    current = next(d["device_id"] for d in mine["devices"] if d["current"])
    svc.accounts.revoke_device(second, current)  # signing this device out
    with pytest.raises(AuthError):
        svc.whoami(second)
    assert svc.whoami(first)[1] == "alice"


def test_a_code_of_one_player_never_gives_another_players_token(store_at: Path | str) -> None:
    svc = service(store_at)
    alice, bob = svc.register("alice"), svc.register("bob")
    code = svc.accounts.make_code(bob.token).code
    player_id, name, token, _ = svc.accounts.redeem(code)
    assert (player_id, name) == (bob.player_id, "bob")
    assert svc.whoami(token) != svc.whoami(alice.token)
    assert alice.token not in (token,) and bob.token != token


def test_players_of_an_older_store_keep_their_token(store_at: Path | str) -> None:
    svc = service(store_at)
    alice = svc.register("alice")
    svc.close()
    assert damage(store_at, "DELETE FROM devices") == 1  # a store from before devices
    again = GameService(store_at, clock=Clock())  # opening it lists the old tokens
    assert again.whoami(alice.token)[1] == "alice"
    (device,) = again.accounts.devices(alice.token)["devices"]
    assert device["current"] and device["label"] == "first device"


def test_the_terminal_signs_in_as_a_browser_player_and_back(store_at: Path | str) -> None:
    svc = service(store_at)
    browser = svc.register("web-alice")
    game = svc.create(browser.token, NewGame(Mode.PRACTICE, puzzle=tiny())).game_id
    local = svc.local_player("local")
    assert svc.games(local.token) == []
    code = svc.accounts.make_code(browser.token).code
    linked = svc.signin_local(code, "local")
    assert linked.player_id == browser.player_id
    assert svc.local_player("local").token == linked.token
    assert [g["game_id"] for g in svc.games(svc.local_player("local").token)] == [game]
    # the browser revokes the terminal: the terminal says how to sign in again
    terminal = next(d for d in svc.accounts.devices(browser.token)["devices"]
                if d["label"] == "terminal")  # fmt: skip
    svc.accounts.revoke_device(browser.token, terminal["device_id"])
    with pytest.raises(AuthError, match="kakuro play signin"):
        svc.local_player("local")


def test_link_signin_devices_and_revoke_in_the_terminal(
    store_at: Path | str, capsys: pytest.CaptureFixture[str]
) -> None:
    store = ["--store", str(store_at)]
    svc = GameService(store_at)  # the wall clock, as the command's
    browser = svc.register("web-ann")
    game = svc.create(browser.token, NewGame(Mode.PRACTICE, puzzle=tiny())).game_id
    # the browser's code signs the terminal in: its list holds the browser's game
    code = svc.accounts.make_code(browser.token).code
    assert main(["play", "signin", code, *store]) == 0
    assert "is now web-ann" in capsys.readouterr().out
    assert main(["play", "list", *store]) == 0
    assert game in capsys.readouterr().out
    assert main(["play", "signin", code, *store]) == 2  # spent
    assert "used already" in capsys.readouterr().err
    # the terminal makes a code, lists its devices and revokes the browser
    assert main(["play", "link", *store, "--url", "http://example.test:9/", "--json"]) == 0
    made = json.loads(capsys.readouterr().out)
    assert made["link"] == f"http://example.test:9/#/signin/{made['code']}"
    assert main(["play", "devices", *store, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [c["code_id"] for c in listed["codes"]] == [made["code_id"]]
    first = next(d for d in listed["devices"] if not d["current"])
    assert main(["play", "revoke", made["code_id"], *store]) == 0
    assert main(["play", "revoke", first["device_id"], *store]) == 0
    capsys.readouterr()
    with pytest.raises(AuthError):
        svc.whoami(browser.token)
    assert main(["play", "revoke", "d-nobody", *store]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kakuro: error: ") and err.count("\n") == 1
