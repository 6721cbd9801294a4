"""The refusals the web layer reports, each with its HTTP status.

The engine's errors (:mod:`kakurolab.game.errors`) are mapped onto these by
:func:`kakurolab.web.gateway.web_error`; the web layer's own (a malformed message) are
:class:`~kakurolab.web.protocol.ProtocolError`, status 400.
"""

from __future__ import annotations

from ..errors import KakuroError


class WebError(KakuroError):
    """A refusal the server reports as ``{"error": message}`` with an HTTP status."""

    status = 400


class Unauthorized(WebError):
    """A missing, malformed or wrong token: nobody acts or reads as someone else."""

    status = 403


class NotFound(WebError, LookupError):
    status = 404


class Refused(WebError):
    """The engine refused a well-formed move (not your turn, not a white cell, game over)."""

    status = 409


class Busy(WebError):
    """Too much puzzle making under way: try again after ``retry_after`` seconds (503)."""

    status = 503

    def __init__(self, message: str, retry_after: int = 10) -> None:
        super().__init__(message)
        self.retry_after = retry_after

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (str(self), self.retry_after))


class TooMany(Busy):
    """This player has as many new games in the making as one may (429)."""

    status = 429
