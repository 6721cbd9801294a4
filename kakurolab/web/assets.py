"""What the server hands out as it is: the front end's files (read once, served from memory),
the digit-set table, and the sign-in pages of the server's own player."""

from __future__ import annotations

import hashlib
import json
import secrets
from importlib import resources
from pathlib import Path

from starlette.responses import JSONResponse, Response

from .. import combos

STATIC = Path(str(resources.files(__package__).joinpath("static")))


def combos_table() -> dict[str, list[list[int]]]:
    """Every (length, sum) with its digit sets, from :mod:`kakurolab.combos`, keyed "len,sum"."""
    table: dict[str, list[list[int]]] = {}
    for length in range(1, combos.MAX_RUN + 1):
        for total in combos.feasible_sums(length):
            table[f"{length},{total}"] = [
                list(combos.digits_of(m)) for m in combos.combos(length, total)
            ]
    return table


MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".webmanifest": "application/manifest+json",
}


def static_files() -> dict[str, tuple[bytes, str, str]]:
    """The front end, read once: name -> (bytes, media type, etag).  Served from memory in
    one write (a file streamed in pieces meets Nagle's algorithm and TCP's delayed ACK, about
    40 ms per file on localhost), and only these names exist: no path reaches the disk."""
    files = {}
    for path in sorted(STATIC.iterdir()):
        if path.suffix in MEDIA_TYPES:
            body = path.read_bytes()
            etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
            files[path.name] = (body, MEDIA_TYPES[path.suffix], etag)
    return files


class Logins:
    """Sign-in links of the server's own player (``serve --player/--token``): ``/login/CODE``
    gives the page that player's token, the way it keeps tokens of players it registered."""

    def __init__(self) -> None:
        self.codes: dict[str, dict[str, str]] = {}

    def add(self, name: str, player_id: str, token: str) -> str:
        code = secrets.token_urlsafe(18)
        self.codes[code] = {"name": name, "player_id": player_id, "token": token}
        return code

    def page(self, code: str, game: str | None) -> Response:
        found = self.codes.get(code)
        if found is None:
            return JSONResponse({"error": "unknown sign-in link"}, 404)
        me = {**found, "game": game}
        data = json.dumps(me).replace("<", "\\u003c")
        script = (
            f"const me = {data};\n"
            'const ids = JSON.parse(localStorage.getItem("kakuro.identities") || "{}");\n'
            "ids[me.name] = {player_id: me.player_id, token: me.token};\n"
            'localStorage.setItem("kakuro.identities", JSON.stringify(ids));\n'
            'localStorage.setItem("kakuro.player", JSON.stringify(me.name));\n'
            'location.replace(me.game ? "/#/game/" + encodeURIComponent(me.game) : "/");\n'
        )
        html = ("<!doctype html><meta charset=\"utf-8\"><title>Kakuro Master: sign in</title>"
                f"<script>\n{script}</script>")  # fmt: skip
        return Response(
            html,
            media_type="text/html; charset=utf-8",
            headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"},
        )
