"""Kakuro Master in the browser: ``kakuro play serve``.

The web layer transports and draws, nothing more: a Starlette app (:mod:`.app`) serves the
static front end (``static/``: HTML, CSS and plain JavaScript modules, no build step) and the
game engine's API over HTTP and a WebSocket; :mod:`.protocol` checks every message's shape,
:mod:`.hub` pushes fresh per-player views, :mod:`.engine` adapts the engine's token-based
service.  Rules, verification and scoring are the engine's (:mod:`kakurolab.game`).
"""
