"""The Battle Matrix rating: OpenSkill (Plackett-Luce, the ``openskill`` package) over the
final ranks the engine already decided.

A rating is a belief about a player's strength: ``mu`` (the mean) and ``sigma`` (how unsure it
still is).  Every finished rated game moves both players once, from the ranks of its final
standings (:func:`kakurolab.game.engine.Game.standings`: points first, then the rulebook's
tie-breakers), so the rating says nothing the score table did not: a win is rank 1 against
rank 2, a *draw* is two players sharing rank 1 (equal on points and on every tie-breaker),
and a game ended by its countdown is rated like any other (the rulebook: the points stand).
The update is written in the transaction that records the game's end, under its lock, and
keyed by the game: finishing twice, replaying the log or a second server settling the same
countdown never counts a game twice (:func:`record`).

Shown with its uncertainty: ``mu ± 2·sigma`` (about 95% of the belief) and the *conservative*
rating ``mu − 3·sigma`` (OpenSkill's ``ordinal``), which the tables sort by, so a new player
(25 ± 16.7, conservative 0) climbs by playing, not by one lucky win.

Pools: games between people are rated in ``battle``; a game against the computer
(:mod:`.computer`) in ``computer``, a pool of its own in which the three computer players
are rated too, so beating the easy computer never lifts anyone in the people's table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import MissingExtraError, require

POOLS = ("battle", "computer")
"""``battle``: people against people; ``computer``: games with a computer player."""

MU = 25.0
SIGMA = MU / 3
"""OpenSkill's defaults: a new player is 25 ± 8.33 (conservative 0)."""

EXTRA = "web"
"""The pip extra that brings ``openskill`` (the server's; the tests' ``test`` has it too)."""


@dataclass(frozen=True)
class Rating:
    """One player's rating in one pool, with the record of rated games behind it."""

    player_id: str
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    name: str = ""

    @property
    def conservative(self) -> float:
        """``mu − 3·sigma``: what the player is at least, with ~99.7% belief."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        return {
            "player_id": self.player_id,
            "name": self.name,
            "mu": round(self.mu, 2),
            "sigma": round(self.sigma, 2),
            "plus_minus": round(2 * self.sigma, 2),
            "conservative": round(self.conservative, 2),
            "shown": f"{self.mu:.1f} ± {2 * self.sigma:.1f}",
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
        }


def _model() -> Any:
    models: Any = require("openskill.models", extra=EXTRA, feature="the Battle Matrix rating")
    return models.PlackettLuce(mu=MU, sigma=SIGMA)


def available() -> bool:
    """Whether ``openskill`` is installed (a terminal-only install may lack it)."""
    try:
        _model()
    except MissingExtraError:
        return False
    return True


def rated(before: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """Everyone's rating after one game with these final ranks (1 = first; equal ranks are a
    draw between those players), in the order given."""
    if len(before) != len(ranks) or len(before) < 2:
        raise ValueError("a rated game has two or more players, one rank each")
    model = _model()
    teams = [[model.rating(mu=r.mu, sigma=r.sigma, name=r.player_id)] for r in before]
    after = model.rate(teams, ranks=list(ranks))
    out = []
    for old, team, rank in zip(before, after, ranks, strict=True):
        (new,) = team
        others = [r for r in ranks]
        others.remove(rank)
        won = all(rank < o for o in others)
        lost = all(rank > o for o in others)
        out.append(Rating(
            old.player_id, float(new.mu), float(new.sigma), old.games + 1,
            old.wins + won, old.losses + lost, old.draws + (not won and not lost), old.name,
        ))  # fmt: skip
    return out


def pool_of(player_ids: Sequence[str], computers: Mapping[str, str]) -> str:
    """The pool a game is rated in: ``computer`` when any seat is a computer player."""
    return "computer" if any(p in computers for p in player_ids) else "battle"


def record(store: Any, db: Any, game_id: str, lines: Sequence[Mapping[str, Any]],
           at: float) -> list[Rating] | None:  # fmt: skip
    """Inside the transaction that records a rated game's end (the game's lock held): both
    players' new ratings from the final ``lines`` (standings as JSON), written once per game;
    None when the game was rated already (or has fewer than two players).  Each player's
    rating row is locked before it is read (``FOR UPDATE`` on PostgreSQL), in player order,
    so two games ending at once for one player apply one after the other."""
    if len(lines) < 2 or store.rating_recorded(db, game_id):
        return None
    players = [str(line["player_id"]) for line in lines]
    pool = pool_of(players, store.computers_among(db, players))
    before = store.ratings_for_update(db, pool, players)
    after = rated([before[p] for p in players], [int(line["rank"]) for line in lines])
    for old, new in zip((before[p] for p in players), after, strict=True):
        store.save_rating(db, pool, game_id, old, new, at)
    return after
