"""A player on several devices: sign-in codes, devices and revoking them.

A player is one ``player_id`` with one or more *devices*, each a secret token of its own
(a browser's, the terminal's; only the tokens' SHA-256 hashes are stored).  A device of
the player makes a one-time **sign-in code** (:meth:`Accounts.make_code`: 16 characters of
Crockford's base-32, 80 random bits, shown as ``ABCD-EFGH-JKMN-PQRS`` and as the link
``/#/signin/CODE``); another device redeems it (:meth:`Accounts.redeem`) for a *new*
token of the same player, so it sees the same games, history and statistics and can go on
with any of them.  A code is

* unguessable (:mod:`secrets`) and stored only as its hash;
* single use: redeeming takes the code's row lock, so two devices racing for one code get
  one token between them;
* short-lived: :data:`CODE_LIFETIME_S` (15 minutes);
* at most :data:`MAX_LIVE_CODES` at a time per player.

The player lists its devices and open codes (:meth:`Accounts.devices`) and revokes any
device or unused code; a revoked token names nobody from that moment (every call checks
the token against the store), and the web server closes its open sockets.  The last live
device cannot be revoked (the player would lock themselves out).  Nothing here lets one
player reach another's devices or codes: every call acts on the token's own player, and an
id of someone else's device is answered like an unknown one.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import AuthError, IllegalMoveError, UnknownGameError
from .store import Store

CODE_LIFETIME_S = 15 * 60
"""How long a sign-in code can be redeemed after it is made."""

MAX_LIVE_CODES = 5
"""Unused, unexpired codes one player may hold at once."""

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base-32: no I, L, O or U, so a code read aloud or typed is not misread."""

CODE_LENGTH = 16
"""Characters of a code: 16 x 5 = 80 random bits."""

MAX_LABEL = 40


class SigninError(AuthError):
    """A sign-in code that cannot be redeemed: unknown, used, expired or revoked."""


@dataclass(frozen=True)
class SigninCode:
    """A fresh code, shown once: ``code`` is the secret, ``code_id`` names it for revoking."""

    code: str
    code_id: str
    expires: float

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "code_id": self.code_id, "expires": self.expires,
                "link": f"/#/signin/{self.code}"}  # fmt: skip


def normalized(code: str) -> str | None:
    """The code as stored (upper case, no separators; O read as 0, I and L as 1), or None
    when it cannot be a code at all."""
    if not isinstance(code, str) or len(code) > 64:
        return None
    text = code.strip().upper().replace("-", "").replace(" ", "")
    text = text.translate(str.maketrans("OIL", "011"))
    if len(text) != CODE_LENGTH or any(ch not in ALPHABET for ch in text):
        return None
    return text


def shown(code: str) -> str:
    """``ABCD-EFGH-JKMN-PQRS``."""
    return "-".join(code[i : i + 4] for i in range(0, len(code), 4))


def code_hash(code: str) -> str:
    return hashlib.sha256(("signin:" + code).encode("utf-8")).hexdigest()


def new_device_id() -> str:
    return "d-" + secrets.token_hex(5)


def label_of(label: str | None, fallback: str) -> str:
    """A device's name as given (one line, cut to :data:`MAX_LABEL`), else ``fallback``."""
    text = " ".join(str(label or "").split())[:MAX_LABEL]
    return "".join(ch for ch in text if ch.isprintable()) or fallback


class Accounts:
    """Devices and sign-in codes over the store (see module doc); the service owns one and
    shares its lock and clock."""

    def __init__(self, store: Store, clock: Callable[[], float], lock: threading.RLock,
                 whoami: Callable[[str], tuple[str, str]]) -> None:  # fmt: skip
        self.store = store
        self.clock = clock
        self._lock = lock
        self._whoami = whoami

    def make_code(self, token: str) -> SigninCode:
        """A one-time code of the token's player, good for :data:`CODE_LIFETIME_S`."""
        player_id, _ = self._whoami(token)
        now = self.clock()
        with self._lock:
            if len(self.store.codes_of(player_id, now)) >= MAX_LIVE_CODES:
                raise IllegalMoveError(
                    f"you have {MAX_LIVE_CODES} unused sign-in codes already; revoke one or "
                    "let one expire first"
                )
            code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
            code_id = "c-" + secrets.token_hex(5)
            expires = now + CODE_LIFETIME_S
            self.store.add_code(code_id, code_hash(code), player_id, now, expires)
        return SigninCode(shown(code), code_id, expires)

    def redeem(self, code: str, label: str | None = None) -> tuple[str, str, str, str]:
        """A new device of the code's player: (player_id, name, token, device_id).  The code
        is used up; an unknown, used, expired or revoked code is a :class:`SigninError`."""
        plain = normalized(code)
        if plain is None:
            raise SigninError(
                "not a sign-in code (16 letters and digits, like ABCD-EFGH-JKMN-PQRS)"
            )
        token = secrets.token_urlsafe(24)
        device_id = new_device_id()
        with self._lock, self.store.transaction() as db:
            row = self.store.code_row(db, code_hash(plain))
            now = self.clock()
            if row is None:
                raise SigninError("unknown sign-in code (revoked, or never made)")
            if row["used"] is not None:
                raise SigninError("this sign-in code was used already; make a new one")
            if float(row["expires"]) <= now:
                raise SigninError("this sign-in code has expired; make a new one")
            player_id = str(row["player_id"])
            self.store.add_device(db, device_id, player_id, token,
                                  label_of(label, "signed in with a code"), now)  # fmt: skip
            self.store.use_code(db, str(row["code_id"]), now, device_id)
        name = self.store.player_name(player_id) or ""
        return player_id, name, token, device_id

    def devices(self, token: str) -> dict[str, Any]:
        """The player's devices (``current``: the one asking; revoked ones marked) and
        unused codes (ids and expiry only: a code is shown once, when made)."""
        player_id, name = self._whoami(token)
        with self._lock:
            mine = self.store.device_by_token(token)
            rows = self.store.devices_of(player_id)
            codes = self.store.codes_of(player_id, self.clock())
        devices = [row | {"current": row["device_id"] == mine} for row in rows]
        return {"player_id": player_id, "name": name, "devices": devices, "codes": codes}

    def revoke_device(self, token: str, device_id: str) -> str:
        """Revoke one of the player's devices (this one too: signing out); returns the
        revoked token's hash, so a server can close that token's sockets."""
        player_id, _ = self._whoami(token)
        with self._lock, self.store.transaction() as db:
            live = self.store.live_devices(db, player_id)
            if device_id not in live:
                raise UnknownGameError(f"you have no signed-in device {str(device_id)[:24]!r}")
            if len(live) == 1:
                raise IllegalMoveError(
                    "this is your only signed-in device: sign in elsewhere first, or you "
                    "could not reach your games again"
                )
            return self.store.revoke_device(db, device_id, self.clock())

    def revoke_code(self, token: str, code_id: str) -> None:
        """Revoke one of the player's unused codes."""
        player_id, _ = self._whoami(token)
        with self._lock:
            if not self.store.drop_code(player_id, code_id):
                raise UnknownGameError(f"you have no unused sign-in code {str(code_id)[:24]!r}")
