"""The HTTP routes of one player on several devices (:mod:`kakurolab.game.accounts`):

* ``POST /api/signin`` ``{"code": ..., "device": ...}``: redeem a sign-in code for a new
  token of its player (no token needed; counted per address like ``POST /api/players``);
  a malformed, unknown, used, expired or revoked code is answered 403 with one line;
* ``GET /api/devices``: the player's devices (``current`` marks the asking one) and unused
  codes;
* ``POST /api/codes``: a new one-time code (and its link, ``/#/signin/CODE``), shown once;
* ``DELETE /api/devices/{device_id}``, ``DELETE /api/codes/{code_id}``: revoke.  A revoked
  device's open sockets on this server are told (``fatal``) and closed at once; on another
  server process its next call is refused (every call checks its token in the store).

The engine decides everything; this module only transports, on the engine thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from msgspec import Meta, Struct
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import KakuroError
from ..game.accounts import CODE_LENGTH
from ..game.store import token_hash
from . import protocol
from .gateway import EngineGames, web_error
from .guard import client_address, read_body
from .hub import Hub
from .limits import Buckets

T = TypeVar("T")

Code = Annotated[str, Meta(min_length=1, max_length=40)]
Label = Annotated[str, Meta(max_length=40, pattern=r"^[^\x00-\x1f\x7f-\x9f]*$")]


class SigninRequest(Struct, forbid_unknown_fields=True):
    """``POST /api/signin``: a sign-in code (``ABCD-EFGH-JKMN-PQRS``, case and dashes free)
    and the new device's name (shown in the player's device list)."""

    code: Code
    device: Label = ""


def _engine(request: Request) -> EngineGames:
    games: EngineGames = request.app.state.games
    return games


async def _call(request: Request, method: Callable[..., T], *args: Any) -> T:
    """``method`` on the engine thread, its refusals as the web's (gateway.web_error)."""

    def mapped() -> T:
        try:
            return method(*args)
        except KakuroError as exc:
            raise web_error(exc) from None

    return await _engine(request).call(mapped)


def _ident(request: Request, name: str) -> str:
    found = request.path_params[name]
    if not protocol.GAME_ID.fullmatch(found):
        raise protocol.ProtocolError(f"malformed {name.replace('_', ' ')}")
    return str(found)


async def signin(request: Request) -> Response:
    raw = await read_body(request)
    asked: SigninRequest = protocol.read(raw, SigninRequest)
    signins: Buckets = request.app.state.signins
    signins.take(client_address(request), "sign-ins")
    accounts = _engine(request).service.accounts
    player_id, name, token, device_id = await _call(request, accounts.redeem, asked.code,
                                                    asked.device or "a browser")  # fmt: skip
    return JSONResponse({"player_id": player_id, "name": name, "token": token,
                         "device_id": device_id}, 201)  # fmt: skip


async def devices(request: Request) -> Response:
    accounts = _engine(request).service.accounts
    return JSONResponse(await _call(request, accounts.devices, request.state.token))


async def new_code(request: Request) -> Response:
    accounts = _engine(request).service.accounts
    made = await _call(request, accounts.make_code, request.state.token)
    return JSONResponse(made.to_json(), 201)


async def revoke_device(request: Request) -> Response:
    device_id = _ident(request, "device_id")
    accounts = _engine(request).service.accounts
    revoked = await _call(request, accounts.revoke_device, request.state.token, device_id)
    closed = await sign_out(request.app.state.hub, revoked)
    return JSONResponse({"revoked": device_id, "sockets_closed": closed})


async def revoke_code(request: Request) -> Response:
    code_id = _ident(request, "code_id")
    accounts = _engine(request).service.accounts
    await _call(request, accounts.revoke_code, request.state.token, code_id)
    return JSONResponse({"revoked": code_id})


async def sign_out(hub: Hub, revoked_hash: str) -> int:
    """Tell every open socket of the revoked token on this server and close it (code 4403);
    how many there were.  Other servers on the store close theirs at their next token check
    (:data:`kakurolab.web.hub.REVOKED_CHECK_S`)."""
    closed = hub.sign_out(lambda token: token_hash(token) == revoked_hash)
    await asyncio.sleep(0)
    return closed


ROUTES = [
    Route("/api/signin", signin, methods=["POST"]),
    Route("/api/devices", devices, methods=["GET"]),
    Route("/api/devices/{device_id}", revoke_device, methods=["DELETE"]),
    Route("/api/codes", new_code, methods=["POST"]),
    Route("/api/codes/{code_id}", revoke_code, methods=["DELETE"]),
]

OPEN = ("/api/signin",)
"""The route that needs no token (the code is the credential)."""

DOCUMENTED: tuple[tuple[str, str, str, Any, str, bool], ...] = (
    ("/api/signin", "post", f"Redeem a one-time sign-in code ({CODE_LENGTH} characters) for a "
     "new device token of its player (403: unknown, used, expired or revoked)", SigninRequest,
     "201", False),
    ("/api/devices", "get", "The player's devices and unused sign-in codes", None, "200", True),
    ("/api/devices/{device_id}", "delete", "Revoke one of the player's devices", None, "200",
     True),
    ("/api/codes", "post", "A one-time sign-in code for another device, shown once", None,
     "201", True),
    ("/api/codes/{code_id}", "delete", "Revoke an unused sign-in code", None, "200", True),
)  # fmt: skip
"""The routes in ``protocol._ROUTES``'s shape, for the OpenAPI document."""


def document() -> dict[str, Any]:
    """The OpenAPI document with these routes; a bad code's 403 on the open route too."""
    found = protocol.openapi(DOCUMENTED)
    refusal = found["paths"]["/api/signin"]["post"]["responses"]
    refusal["403"] = {"description": "a sign-in code that is unknown, used, expired or revoked",
                      "content": {"application/json": {"schema": {"type": "object"}}}}
    return found
