"""What one client may ask of a public server, in one record, and the per-address rate buckets.

Every number a deployment may want to change is a field of :class:`Limits` (``serve``
takes one; docs/web.md, "Running it in public", lists the defaults and what each refusal
looks like).  A client is known by its address (the TCP peer: behind a reverse proxy that is
the proxy, so give each proxy its own, larger limits) and by its player token; a token is
free to make, so every cap that matters is also counted per address.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from typing import Any

from ..errors import KakuroError
from .port import TooMany


@dataclass(frozen=True)
class Rate:
    """A token bucket: ``burst`` requests at once, then ``per_minute`` on average."""

    burst: int
    per_minute: float


@dataclass(frozen=True)
class Limits:
    """Every limit the server puts on one client (see module doc); defaults for a small
    public server on a few cores."""

    register: Rate = Rate(burst=10, per_minute=6)
    """``POST /api/players`` per address."""
    generate: Rate = Rate(burst=20, per_minute=20)
    """New games that need a puzzle made or proved (a generation or a paste) per address."""
    moves: Rate = Rate(burst=100, per_minute=1800)
    """Moves, view requests and hellos per address (30 a second after a burst of 100: a
    person places one or two), so one client cannot keep the engine's one thread from
    everyone else's moves.  Over HTTP the answer is 429; a socket over it is simply read
    later (its next frame waits until the rate allows it: TCP holds the sender back, and
    the server spends nothing on it meanwhile)."""
    per_player: int = 2
    """Generations one token may have waiting or running."""
    per_address: int = 4
    """Generations and pastes one address may have waiting or running, all tokens together."""
    races: int = 16
    """Grids up to 12x12 waiting or running in their own lane (8x8 races are made there)."""
    big: int = 16
    """Bigger grids waiting or running in the big lane."""
    pastes: int = 4
    """Pasted puzzles being proved unique and graded, waiting or running."""
    pastes_per_player: int = 1
    paste_time_s: float = 20.0
    """A paste's proof and grading are stopped (worker killed, answer 503) after this."""
    paste_side: int = 22
    paste_area: int = 400
    """The biggest grid a paste may be: the page's largest sizes are 16x22 and 20x20."""
    make_time_s: float = 900.0
    """A generation not back by then (a worker lost, say) is answered 503."""
    sockets_per_token: int = 4
    sockets_per_address: int = 32
    sockets_per_game: int = 64
    hello_s: float = 10.0
    """A socket that has not said ``hello`` by then is closed (code 4408)."""
    header_s: float = 10.0
    """A connection whose request line and headers are not all in by then is closed."""
    body_s: float = 10.0
    """A request body not all in by then is answered 408."""
    keep_alive_s: float = 5.0
    """An idle kept-alive connection is closed after this (uvicorn's ``timeout_keep_alive``)."""


    def changed(self, settings: list[str]) -> Limits:
        """These limits with ``NAME=VALUE`` settings applied (``serve --limit``): a number,
        or ``BURST/PER_MINUTE`` for a rate; a bad one is one line naming the known names."""
        values: dict[str, Any] = {}
        known = {f.name: getattr(self, f.name) for f in fields(self)}
        for setting in settings:
            name, _, text = setting.partition("=")
            name = name.strip().replace("-", "_")
            if name not in known:
                raise KakuroError(f"unknown limit {name!r}; known: {', '.join(known)}")
            values[name] = _value(name, text.strip(), known[name])
        return replace(self, **values)


def _value(name: str, text: str, now: object) -> object:
    try:
        if isinstance(now, Rate):
            burst, _, per_minute = text.partition("/")
            found: object = Rate(int(burst), float(per_minute))
            ok = found.burst >= 1 and found.per_minute >= 0  # type: ignore[attr-defined]
        else:
            found = type(now)(text)  # type: ignore[call-arg]
            ok = found > 0  # type: ignore[operator]
    except ValueError:
        ok = False
    if not ok:
        want = "BURST/PER_MINUTE, e.g. 10/6" if isinstance(now, Rate) else "a positive number"
        raise KakuroError(f"limit {name} must be {want}, got {text!r}")
    return found


@dataclass
class Buckets:
    """One :class:`Rate` per client address (see module doc)."""

    rate: Rate
    clock: Callable[[], float] = time.monotonic
    _level: dict[str, tuple[float, float]] = field(default_factory=dict)
    """address -> (tokens left, when counted)."""

    def take(self, address: str, what: str) -> None:
        """Spend one request of ``address``, or raise TooMany (429) with the wait."""
        wait = self.wait_s(address)
        if wait > 0:
            whole = math.ceil(wait)
            raise TooMany(f"too many {what} from your address; try again in {whole} s",
                          retry_after=whole)  # fmt: skip

    def wait_s(self, address: str) -> float:
        """Spend one request of ``address`` and return 0, or spend nothing and return the
        seconds until one is there (a socket waits that long before reading on)."""
        now = self.clock()
        refill = self.rate.per_minute / 60.0
        left, then = self._level.get(address, (float(self.rate.burst), now))
        left = min(float(self.rate.burst), left + (now - then) * refill)
        if left < 1.0:
            self._level[address] = (left, now)
            return (1.0 - left) / refill if refill > 0 else 3600.0
        self._level[address] = (left - 1.0, now)
        if len(self._level) > 10_000:  # forget full buckets: they say nothing
            full = [a for a, (n, t) in self._level.items()
                    if n + (now - t) * refill >= self.rate.burst]  # fmt: skip
            for gone in full:
                del self._level[gone]
        return 0.0
