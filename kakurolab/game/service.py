"""The game service: the one facade the CLI and the web call, token-authenticated.

    service = GameService()                       # the default store, the wall clock
    alice = service.register("alice")             # Credentials(player_id, name, token)
    view = service.create(alice.token, NewGame(Mode.PRACTICE, size="8x8"))
    result = service.act(view.game_id, alice.token, {"kind": "place", "cell": "r2c3", "digit": 7})
    service.view(view.game_id, alice.token)       # GameView: what alice may see

Every change is one move appended to the game's log inside a store transaction (SQLite or
PostgreSQL, :mod:`.store`) that holds the game's lock and commits before the call returns (an
acknowledged move survives a crash); a refused move raises a
:class:`~kakurolab.game.errors.GameError` and writes nothing.  Games are kept in memory and
brought up to date from the store before every call (another process may have moved), and a
game not in memory is replayed from its log: each move is applied again and its recorded
outcome and hash chain compared, so a damaged log fails loudly (``ReplayError``).
The clock is injectable (``clock=``) for tests; subscribers (``subscribe``) hear
``(game_id, version)`` after every commit, which is how a web server pushes updates.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import one_line
from ..formats import dumps, loads
from ..model import Cell, Puzzle
from . import calendar, computer, fair, puzzles, rating, standings
from .accounts import Accounts, label_of, new_device_id
from .engine import Game
from .errors import (
    AuthError,
    GameError,
    GameOverError,
    IllegalMoveError,
    LivePuzzleError,
    MoveSyntaxError,
    StoreError,
)
from .memory import LoadedGames, solution_digest
from .moves import PLAYER_KINDS, Mode, Move, MoveKind, Phase
from .prepare import Choice, Chooser, Prepared, bank_holds, fresh_puzzle, make
from .prepare import from_portable as from_portable  # the web gateway's import
from .prepare import make_portable as make_portable  # the web gateway's import
from .replay import Replay, replay
from .replay import withheld as replay_withheld
from .rules import RULES, GameSpec, Options
from .state import Outcome
from .stats import Stats, campaign_card, day_streaks, played_games, summarize
from .store import LogRow, Store, chain, token_hash
from .stores import open_store
from .views import (
    Candidates,
    Event,
    GameView,
    SpectatorView,
    candidates,
    event_for,
    player_view,
    spectator_view,
)


@dataclass(frozen=True)
class Credentials:
    """A player's identity; ``token`` is the secret every call presents."""

    player_id: str
    name: str
    token: str

    def to_json(self) -> dict[str, str]:
        return {"player_id": self.player_id, "name": self.name, "token": self.token}


@dataclass(frozen=True)
class NewGame:
    """What to play: a mode and either a size and difficulty (and seed), a campaign date,
    or (practice) any puzzle."""

    mode: Mode
    size: str = "8x8"
    difficulty: str | None = "easy"
    seed: str | int | None = None
    date: str | None = None
    puzzle: Puzzle | None = None
    options: Options = field(default_factory=Options)
    computer: str | None = None
    """A rated duel's second seat taken by the computer at this strength
    (:data:`kakurolab.game.computer.STRENGTHS`)."""


@dataclass(frozen=True)
class ActResult:
    """An applied move: its public outcome and the mover's view after it."""

    outcome: Outcome
    view: GameView

    def to_json(self) -> dict[str, Any]:
        return {"outcome": self.outcome.to_json(), "view": self.view.to_json()}


def solution_rows(puzzle: Puzzle, values: Mapping[Cell, int]) -> list[str]:
    return [
        "".join(str(values[(r, c)]) if (r, c) in values else "-" for c in range(puzzle.ncols))
        for r in range(puzzle.nrows)
    ]


class GameService:
    """Players, games and moves over one :class:`Store` (see module doc)."""

    def __init__(
        self,
        store: Store | str | Path | None = None,
        *,
        clock: Callable[[], float] = time.time,
        chooser: Chooser | None = None,
        fresh: Chooser | None = None,
    ) -> None:
        self.store = store if isinstance(store, Store) else open_store(store)
        self.clock = clock
        self.chooser: Chooser = chooser or puzzles.choose
        self.fresh: Chooser = fresh or chooser or fresh_puzzle
        """Makes competitive and calendar puzzles from a secret seed (a test's ``chooser``
        stands in for it unless ``fresh`` is given too)."""
        self._games = LoadedGames(self.store)
        self._lock = threading.RLock()
        self._subscribers: list[Callable[[str, int], None]] = []
        self.accounts = Accounts(self.store, clock, self._lock, self.whoami)
        """Devices and sign-in codes: one player on several devices (:mod:`.accounts`)."""
        self._list_live()

    def close(self) -> None:
        self.store.close()

    # --- players ----------------------------------------------------------------------------

    def register(self, name: str, device: str | None = None) -> Credentials:
        """A new player with a fresh secret token (shown once; only its hash is stored): the
        player's first device, named ``device`` (:mod:`.accounts`)."""
        checked = Move.from_json({"kind": "join", "name": name}).name or name
        player_id = "p-" + secrets.token_hex(5)
        token = secrets.token_urlsafe(24)
        with self._lock:
            self.store.add_player(player_id, checked, token, self.clock(),
                                  device_id=new_device_id(),
                                  label=label_of(device, "first device"))  # fmt: skip
        return Credentials(player_id, checked, token)

    def whoami(self, token: str) -> tuple[str, str]:
        """(player_id, name) of a token, or an AuthError."""
        if not isinstance(token, str) or len(token) > 200:
            raise AuthError("unknown player token")
        with self._lock:
            found = self.store.player_by_token(token)
        if found is None:
            raise AuthError("unknown player token")
        return found

    def revoked_among(self, tokens: Iterable[str]) -> set[str]:
        """Those of these tokens (of open sockets, each valid when it said hello) whose
        device has been revoked since, by any process on the store."""
        by_hash = {token_hash(token): token for token in tokens}
        with self._lock:
            live = self.store.live_token_hashes(list(by_hash))
        return {token for digest, token in by_hash.items() if digest not in live}

    def local_player(self, name: str = "local") -> Credentials:
        """The terminal's player of this name, created on first use (its token is kept in
        the store's ``local_players`` table: the file is the user's own)."""
        with self._lock:
            token = self.store.local_token(name)
            if token is None:
                made = self.register(name, device="terminal")
                self.store.remember_local(name, made.player_id, made.token)
                token = self.store.local_token(name)  # another process's, if it came first
                if token == made.token:
                    return made
            if token is None:
                raise StoreError(f"{self.store.where}: the local player {name!r} was not kept")
            found = self.store.player_by_token(token)
            if found is None:
                raise AuthError(
                    f"the terminal's player {name!r} was signed out (its device revoked); sign "
                    "in again with a code from another device: kakuro play signin CODE"
                )
            return Credentials(found[0], found[1], token)

    def signin_local(self, code: str, name: str = "local") -> Credentials:
        """Redeem a sign-in code for the terminal: its player ``name`` becomes the code's
        player (a new device of theirs; :mod:`.accounts`)."""
        player_id, real, token, _ = self.accounts.redeem(code, "terminal")
        with self._lock:
            self.store.relink_local(name, player_id, token)
        return Credentials(player_id, real, token)

    # --- games ------------------------------------------------------------------------------

    def create(self, token: str, new: NewGame, made: Prepared | None = None) -> GameView:
        """A new game with its creator seated (solo games start at once).  A campaign date a
        player already has returns that game instead: one calendar game per player and day.

        The puzzle is chosen outside the service lock (a generator may take seconds); a
        caller that made it elsewhere (the web server, in a worker process: :meth:`choice`
        then :func:`make`) passes it as ``made``."""
        player_id, name = self.whoami(token)
        if made is None:
            choice = self.choice(token, new)
            if isinstance(choice, GameView):
                return choice
            made = make(choice, self.chooser, self.fresh)
            self.keep(choice, made)
        date = made.spec.date
        with self._lock:
            if made.spec.source == "file":
                self._refuse_live(made.puzzle)
            if date is not None:
                existing = self.store.calendar_game(player_id, date)
                if existing is not None:  # made meanwhile by another call: that one
                    return self.view(existing, token)
            game_id = "g-" + secrets.token_hex(4)
            spec, puzzle = made.spec, made.puzzle
            values = dict(made.solution.values)
            text = dumps([Puzzle(puzzle.id, puzzle.grid)], "kakuro")
            self.store.add_game(
                game_id, spec.mode.value, spec.to_json(), text, solution_digest(game_id, values),
                self.clock(),
            )  # fmt: skip
            self._games[game_id] = (Game(game_id, spec, puzzle, values), "")
            if spec.source == "secret" and date is None:  # a race's or a duel's own puzzle
                marks = made.fingerprints or fair.fingerprints(puzzle)
                with self.store.transaction() as db:
                    self.store.add_live(db, game_id, marks)
            if date is not None:
                with self.store.transaction() as db:
                    self.store.add_calendar(db, player_id, date, game_id)
            self._commit(game_id, player_id, Move(MoveKind.JOIN, name=name))
            if new.computer is not None:  # the computer takes the other seat: the game starts
                bot = self.computer(new.computer)
                self._commit(game_id, bot.player_id, Move(MoveKind.JOIN, name=bot.name))
            return self.view(game_id, token)

    def computer(self, strength: str) -> Credentials:
        """The computer player of a strength (made on first use; its token is derived from
        the store's secret, so every process of a server finds the same one)."""
        if strength not in computer.STRENGTHS:
            known = ", ".join(computer.STRENGTHS)
            raise GameError(f"unknown computer strength {str(strength)[:20]!r}; known: {known}")
        level = computer.STRENGTHS[strength]
        with self._lock:
            token = computer.account_token(self.store.secret(), strength)
            if self.store.player_by_token(token) is None:
                self.store.add_computer(computer.player_id(strength), level.title, token,
                                        strength, self.clock())  # fmt: skip
        return Credentials(computer.player_id(strength), level.title, token)

    def computer_games(self) -> list[tuple[str, Credentials, str]]:
        """(game id, the computer's credentials, strength) of every unfinished game with a
        computer seat: what a starting server resumes."""
        with self._lock:
            rows = self.store.computer_games()
        return [(game_id, self.computer(strength), strength) for game_id, _, strength in rows]

    def lease_computer(self, game_id: str, holder: str, seconds: float) -> bool:
        """Hold or renew for ``seconds`` the right to play a game's computer (one server
        process of several plays it; :meth:`Store.lease_computer`): whether ``holder`` has it."""
        with self._lock:
            now = self.clock()
            return self.store.lease_computer(game_id, holder, now, now + seconds)

    def release_computer(self, game_id: str, holder: str) -> None:
        with self._lock:
            self.store.release_computer(game_id, holder)

    def ratings(self, pool: str = "battle", limit: int = 100) -> list[dict[str, Any]]:
        """A pool's rating table (:mod:`.rating`), best conservative rating first."""
        if pool not in rating.POOLS:
            raise GameError(f"unknown rating pool {str(pool)[:20]!r}; known: "
                            + ", ".join(rating.POOLS))  # fmt: skip
        with self._lock:
            rows = self.store.ratings_table(pool, limit)
        return [dict(rating.Rating(**row).to_json(), rank=i + 1) for i, row in enumerate(rows)]

    def my_ratings(self, token: str) -> dict[str, dict[str, Any]]:
        """The player's rating in each pool played (pool -> rating)."""
        player_id, name = self.whoami(token)
        with self._lock:
            rows = self.store.ratings_of(player_id)
        return {row.pop("pool"): rating.Rating(**row, name=name).to_json() for row in rows}

    def choice(self, token: str, new: NewGame) -> Choice | GameView:
        """What puzzle ``new`` needs (checked: the token, the options, the date), or the
        player's existing game of that calendar date.  Fast: nothing is generated here.

        Calendar, Arena and Battle puzzles are *fresh*: generated from a seed derived from
        the store's secret (:meth:`Store.secret`), so nobody holding the package can look
        their solution up in the shipped bank or compute a future day offline.  A calendar
        day's puzzle, once made, is kept in the store (:meth:`keep`) for the other players."""
        from ..generator import DIFFICULTIES, parse_size

        player_id, _ = self.whoami(token)
        mode = Mode(new.mode)
        rules = RULES[mode]
        new.options.check(rules)
        if new.computer is not None:
            self.computer(new.computer)  # a known strength
            if not rules.rated:
                raise GameError(f"{mode.value}: the computer plays the Battle Matrix only")
        seed: str | None = None if new.seed is None else str(new.seed)
        fresh = rules.secret_puzzle and new.puzzle is None
        date = key = None
        if new.date is not None and rules.chooses_puzzle and new.puzzle is None:
            with self._lock:  # a past calendar day, for practice (kakurolab.game.standings)
                return standings.archive_choice(self.store, new.date, self.clock(), new.options)
        if rules.dated:
            today = calendar.today(self.clock())
            day = calendar.parse_date(new.date) if new.date else today
            if day > today:
                raise GameError(f"the calendar puzzle of {day.isoformat()} is not out yet")
            date = day.isoformat()
            with self._lock:
                existing = self.store.calendar_game(player_id, date)
            if existing is not None:
                return self.view(existing, token)
            calendar.check_open(day, today)
            row = calendar.day_of(day)
            size, difficulty = row.size, row.difficulty
            key, fresh = calendar.seed_of(day), True
        elif new.puzzle is not None:
            puzzle = new.puzzle
            with self._lock:
                self._refuse_live(puzzle)
            return Choice(mode, f"{puzzle.nrows}x{puzzle.ncols}", None, None, None, "file",
                          new.options, puzzle)  # fmt: skip
        else:
            nrows, ncols = parse_size(new.size)
            size, difficulty = f"{nrows}x{ncols}", new.difficulty or "easy"
            if difficulty not in DIFFICULTIES:
                known = ", ".join(DIFFICULTIES)
                raise GameError(f"unknown difficulty {difficulty!r}; known: {known}")
        if fresh:
            with self._lock:
                secret = self.store.secret()
                cached = None if key is None else self.store.cached_puzzle(key)
            label = key or secrets.token_hex(8)
            seed = hmac.new(secret.encode(), label.encode(), "sha256").hexdigest()[:24]
            if cached is not None:
                (puzzle,) = loads(cached, format="kakuro")
                return Choice(mode, size, difficulty, None, date, "secret", new.options, puzzle)
            return Choice(mode, size, difficulty, seed, date, "secret", new.options, None, key,
                          slow=self.fresh is fresh_puzzle)  # fmt: skip
        ours = self.chooser is puzzles.choose
        source = "bank" if ours and bank_holds(size, difficulty) else "generator"
        return Choice(mode, size, difficulty, seed or secrets.token_hex(4), None, source,
                      new.options, slow=ours and source == "generator")  # fmt: skip

    def calendar_ahead(self, days: int = 2) -> list[Choice]:
        """The calendar puzzles of today and the next ``days - 1`` days not made yet, to
        make ahead (a server does, in the background) so nobody waits for a 16x22."""
        today = calendar.today(self.clock())
        out = []
        for ahead in range(days):
            day = type(today).fromordinal(today.toordinal() + ahead)
            key = calendar.seed_of(day)
            with self._lock:
                if self.store.cached_puzzle(key) is not None:
                    continue
                secret = self.store.secret()
            row = calendar.day_of(day)
            seed = hmac.new(secret.encode(), key.encode(), "sha256").hexdigest()[:24]
            out.append(Choice(Mode.CAMPAIGN, row.size, row.difficulty, seed, day.isoformat(),
                              "secret", Options(), None, key,
                              slow=self.fresh is fresh_puzzle))  # fmt: skip
        return out

    def keep(self, choice: Choice, made: Prepared) -> None:
        """Keep a calendar day's fresh puzzle for the players who ask for it next."""
        if choice.cache_key is not None:
            text = dumps([Puzzle(made.puzzle.id, made.puzzle.grid)], "kakuro")
            with self._lock:
                self.store.keep_puzzle(choice.cache_key, text)
                kept = self.store.cached_puzzle(choice.cache_key) or text  # the first one kept
                self._live_day(choice.cache_key, kept, made.fingerprints if kept == text else None)

    # --- the copy rule (kakurolab.game.fair) ------------------------------------------------

    def _refuse_live(self, puzzle: Puzzle) -> None:
        """Refuse a chosen grid that is, or holds as one of its pieces, a live competitive
        puzzle in any variant (a piece is fingerprinted only when a live piece has as many
        white cells: most pastes cost one indexed lookup per piece)."""
        now = self.clock()
        for piece in fair.pieces(puzzle):
            if not self.store.live_cells(fair.white_cells(piece), now):
                continue
            mark = fair.piece_fingerprint(piece, puzzle.shape, puzzle.is_cryptic)
            if self.store.live_key(mark, now) is None:
                continue
            raise LivePuzzleError(
                f"puzzle {puzzle.id}: this grid (or a turned, mirrored or complemented copy "
                "of it) is a live Arena, Battle or calendar puzzle; it can be played there, "
                "not copied into another game while the competition runs"
            )

    def _live_day(self, key: str, text: str, marks: dict[str, int] | None = None) -> None:
        """A kept calendar puzzle is live until its date leaves the archive."""
        date = calendar.date_of_seed(key)
        (puzzle,) = loads(text, format="kakuro")
        until = None if date is None else calendar.live_until(date)
        marks = marks or fair.fingerprints(puzzle)
        with self.store.transaction() as db:
            self.store.add_live(db, key, marks, until)

    def _list_live(self) -> None:
        """Give every live puzzle of a store made before the copy rule its fingerprint."""
        modes = tuple(m.value for m, r in RULES.items() if r.secret_puzzle and not r.dated)
        with self._lock:
            for key, text in self.store.unlisted_live(modes):
                if key.startswith(calendar.SEED_PREFIX):
                    self._live_day(key, text)
                else:
                    (puzzle,) = loads(text, format="kakuro")
                    with self.store.transaction() as db:
                        self.store.add_live(db, key, fair.fingerprints(puzzle))

    def join(self, game_id: str, token: str) -> GameView:
        """Take a seat in a waiting game; the last free seat starts it."""
        player_id, name = self.whoami(token)
        with self._lock:
            game = self._game(game_id)
            if player_id not in game.players:
                self._commit(game_id, player_id, Move(MoveKind.JOIN, name=name))
            return self.view(game_id, token)

    def act(self, game_id: str, token: str, move: Move | Mapping[str, Any]) -> ActResult:
        """Apply one player move (a :class:`Move` or its JSON object) or refuse it."""
        player_id, _ = self.whoami(token)
        parsed = Move.from_json(move)
        if parsed.kind not in PLAYER_KINDS:
            raise MoveSyntaxError(f"players do not send {parsed.kind.value} moves")
        with self._lock:
            cached = self._games.get(game_id)
            seated = cached is not None and player_id in cached[0].players  # seats stay taken
            if not seated and player_id not in self._game(game_id).players:
                raise AuthError(f"you are not a player of game {game_id}")
            outcome = self._commit(game_id, player_id, parsed)  # brings the game up to date
            if outcome is None:  # only an EXPIRE is ever dropped, and players send none
                raise GameOverError(f"game {game_id} is over")
            return ActResult(outcome, self._settled_view(game_id, player_id))

    def view(self, game_id: str, token: str) -> GameView:
        """What this player may see now (the countdown is settled first)."""
        player_id, _ = self.whoami(token)
        with self._lock:
            if player_id not in self._game(game_id).players:
                raise AuthError(f"you are not a player of game {game_id}")
            return self._settled_view(game_id, player_id)

    def _settled_view(self, game_id: str, player_id: str) -> GameView:
        """The view of a game in memory and up to date (just read or just written: a move
        costs the store no second read), its countdown settled first."""
        game = self._games[game_id][0]
        now = self.clock()
        if game.expired(now):
            self.tick(game_id)
            game = self._games[game_id][0]
        return player_view(game, player_id, now)

    def candidates(self, game_id: str, token: str) -> Candidates:
        """This player's whole-grid candidates view, where the mode allows one
        (:func:`kakurolab.game.views.candidates`)."""
        player_id, _ = self.whoami(token)
        with self._lock:
            self.tick(game_id)
            game = self._game(game_id)
            if player_id not in game.players:
                raise AuthError(f"you are not a player of game {game_id}")
            return candidates(game, player_id)

    def replay(self, game_id: str) -> Replay:
        """The finished game's move log replayed into frames, for anyone with its link, once
        its competition is over (:func:`kakurolab.game.replay.withheld`).  The frames are
        made outside the service lock (a 910-move 16x22 game: ~0.1 s), so moves go on."""
        with self._lock:
            self.tick(game_id)
            game = self._game(game_id)
            refusal = replay_withheld(game, self.clock())
            if refusal is not None:
                raise IllegalMoveError(refusal)
            fresh, _ = self._games.load(game_id)
            log = self.store.log(game_id)
        return replay(fresh, log)  # outside the lock: a long game takes a while

    def spectate(self, game_id: str) -> SpectatorView:
        """The game as anyone not seated may watch it (no token: a spectator acts for nobody),
        its countdown settled first; solo games are refused
        (:func:`kakurolab.game.views.spectator_view`)."""
        with self._lock:
            game = self._game(game_id)
            now = self.clock()
            if game.rules.watchable and game.expired(now):
                self.tick(game_id)
                game = self._game(game_id)
            return spectator_view(game, now)

    def live_games(self, limit: int = 20) -> list[dict[str, Any]]:
        """The lobby cards (:meth:`describe`) of the newest running games others may watch."""
        modes = tuple(m.value for m, r in RULES.items() if r.watchable)
        with self._lock:
            found = self.store.games_in_phase(modes, Phase.ACTIVE.value, limit)
            return [self.describe(game_id) for game_id in found]

    def describe(self, game_id: str) -> dict[str, Any]:
        """The public lobby card of a game: what anyone may know before joining."""
        with self._lock:
            game = self._game(game_id)
            return {
                "game_id": game_id,
                "mode": game.spec.mode.value,
                "phase": game.phase.value,
                "version": game.seq,
                "size": game.spec.size,
                "difficulty": game.spec.difficulty,
                "players": [p.name for p in game.players.values()],
                "seats": game.rules.max_players,
            }

    def tick(self, game_id: str) -> bool:
        """End the game if its countdown ran out; True when this call ended it.  Every
        server watching the game calls this when its timer fires: the check is made again
        under the game's lock, so the game ends once and the others find it over."""
        with self._lock:
            game = self._game(game_id)
            now = self.clock()
            if not game.expired(now):
                return False
            return self._commit(game_id, None, Move(MoveKind.EXPIRE)) is not None

    def version(self, game_id: str) -> int:
        """The game's log length: a client that saw this version has seen everything."""
        with self._lock:
            return self._game(game_id).seq

    def events_since(self, game_id: str, token: str, version: int) -> list[Event]:
        """The log entries after ``version`` as this player may see them (rivals' Arena moves
        only by kind)."""
        player_id, _ = self.whoami(token)
        if not isinstance(version, int) or isinstance(version, bool):
            raise GameError(f"a version is a whole number, got {str(version)[:40]!r}")
        with self._lock:
            game = self._game(game_id)
            if player_id not in game.players:
                raise AuthError(f"you are not a player of game {game_id}")
            public = game.rules.turn_based
            return [
                event_for(player_id, public, r.seq, r.at, r.player_id, r.move, r.outcome)
                for r in self.store.log(game_id, max(0, int(version)))
            ]

    def subscribe(self, callback: Callable[[str, int], None]) -> Callable[[], None]:
        """Call ``callback(game_id, version)`` after every committed move; returns the
        function that unsubscribes.  Callbacks run synchronously in the committing thread
        (keep them short: hand the news to an event loop); their errors are ignored."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback)

    def games(self, token: str) -> list[dict[str, Any]]:
        """The player's games, oldest first."""
        player_id, _ = self.whoami(token)
        with self._lock:
            rows = self.store.games_of(player_id)
        return [
            {k: v for k, v in row.items() if k != "spec"}
            | {"size": GameSpec.from_json(_json(row["spec"])).size}
            for row in rows
        ]

    def standings(self, game_id: str, token: str) -> list[dict[str, Any]]:
        """The scores as they stand (final once the game is over)."""
        return self._standings(self.view(game_id, token))

    def _standings(self, view: GameView) -> list[dict[str, Any]]:
        if view.standings:
            return view.standings
        game = self._game(view.game_id)
        lines = game.standings()
        return [s.to_json() for s in lines]

    def stats(self, token: str) -> Stats:
        """The player's statistics: games, best times per size and level, streaks."""
        player_id, _ = self.whoami(token)
        with self._lock:
            rows = self.store.games_of(player_id)
            results = self.store.results_of(player_id)
            days = self.store.calendar_rows(player_id)
        streaks = day_streaks(days, calendar.today(self.clock()))
        return summarize(played_games(rows, results), streaks)

    def campaign(self, token: str) -> dict[str, Any]:
        """Calendar progress: every day played, the streaks, and this week's table."""
        player_id, _ = self.whoami(token)
        now = calendar.today(self.clock())
        with self._lock:
            rows = self.store.calendar_rows(player_id)
        return campaign_card(rows, now)

    # --- standings (kakurolab.game.standings): finished results only -----------------------

    def day_board(self, token: str, date: str | None = None) -> dict[str, Any]:
        """A calendar day's leaderboard (default today)."""
        self.whoami(token)
        with self._lock:
            now = self.clock()
            return standings.day_board(self.store, date or calendar.today(now).isoformat(),
                                       now).to_json()  # fmt: skip

    def arena_board(self, token: str, period: str = "week") -> dict[str, Any]:
        """The Arena leaderboard of a period (``today``, ``week``, ``all``)."""
        self.whoami(token)
        with self._lock:
            return standings.arena_board(self.store, period, self.clock()).to_json()

    def archive(self, token: str, month: str | None = None) -> dict[str, Any]:
        """The calendar archive's days of a month (``YYYY-MM``, default this one)."""
        player_id, _ = self.whoami(token)
        with self._lock:
            rows = self.store.calendar_rows(player_id)
            return standings.archive_month(self.store, month, self.clock(), rows)

    # --- the one write path -----------------------------------------------------------------

    def _commit(self, game_id: str, actor: str | None, move: Move) -> Outcome | None:
        """Apply ``move`` and append it in one transaction that holds the game's lock; a
        refused move raises and writes nothing.  A JOIN that fills the last seat is followed
        by the host's START.  An EXPIRE of a game no longer running (another process ended
        it first) writes nothing and returns None."""
        expired = False
        outcome: Outcome | None = None
        try:
            with self.store.transaction() as db:
                game, head = self._games.synced(game_id, self.store.lock(db, game_id))
                now = max(self.clock(), game.last_at)
                if move.kind is MoveKind.EXPIRE and not game.expired(now):
                    pass  # ended (or paused) meanwhile, under this same lock: nothing to do
                elif move.kind is not MoveKind.EXPIRE and game.expired(now):
                    self._append(db, game, head, None, Move(MoveKind.EXPIRE), now)
                    expired = True
                else:
                    outcome = self._append(db, game, head, actor, move, now)
                    if (
                        move.kind is MoveKind.JOIN
                        and game.phase is Phase.WAITING
                        and len(game.players) == game.rules.max_players
                    ):
                        link = self._games[game_id][1]
                        self._append(db, game, link, game.host, Move(MoveKind.START), now)
        except GameError:
            raise  # refused before anything changed (the engine checks first)
        except self.store.errors as exc:
            self._games.pop(game_id, None)  # memory may be ahead of the store: reload it
            raise StoreError(
                f"{self.store.where}: the game store failed: {one_line(exc)}"
            ) from None
        except BaseException:
            self._games.pop(game_id, None)
            raise
        if outcome is not None or expired:
            self._notify(game_id)
        if expired:
            raise GameOverError(f"game {game_id}: the time ran out")
        return outcome

    def _append(
        self, db: Any, game: Game, head: str, actor: str | None, move: Move, now: float
    ) -> Outcome:
        was = game.phase
        outcome = game.apply(actor, move, now)
        row_data: dict[str, Any] = {
            "seq": game.seq, "at": game.last_at, "player_id": actor,
            "move": move.to_json(), "outcome": outcome.to_json(),
        }  # fmt: skip
        link = chain(head, row_data)
        row = LogRow(game.seq, game.last_at, actor, row_data["move"], row_data["outcome"], link)
        self.store.append(db, game.game_id, row, game.phase.value)
        if was is not Phase.FINISHED and game.phase is Phase.FINISHED:
            self._record_end(db, game)
        self._games[game.game_id] = (game, link)
        return outcome

    def _record_end(self, db: Any, game: Game) -> None:
        values = game.solution_for_end()
        lines = [s.to_json() for s in game.standings()]
        self.store.finish(db, game.game_id, game.ended_at or game.last_at,
                          solution_rows(game.puzzle, values), lines)  # fmt: skip
        self.store.drop_live(db, game.game_id)  # a race's puzzle is no longer live
        if game.rules.rated and rating.available():  # once per game, under its lock
            rating.record(self.store, db, game.game_id, lines, game.ended_at or game.last_at)
        if game.rules.dated and game.ended_at is not None:
            for line in lines:
                if line["solved"]:
                    day = calendar.today(game.ended_at).isoformat()
                    score, time_s = int(str(line["score"])), float(str(line["time_s"]))
                    self.store.calendar_done(db, game.game_id, day, score, time_s)

    def _notify(self, game_id: str) -> None:
        version = self._games[game_id][0].seq if game_id in self._games else 0
        for callback in list(self._subscribers):
            try:
                callback(game_id, version)
            except Exception:  # a subscriber's failure never undoes a committed move
                continue

    def _game(self, game_id: str) -> Game:
        return self._games.synced(game_id)[0]


def _json(text: str) -> Any:
    import json

    return json.loads(text)
