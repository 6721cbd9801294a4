"""``kakuro play``: Kakuro Master in the terminal (new, join, move, show, score, list, campaign,
standings, archive; link, signin, devices, revoke: one player on several devices, docs/game.md).

Every action is one call of :class:`kakurolab.game.GameService` on the store (``--store``, or
the ``KAKURO_STORE`` variable, else the user's data directory).  The player is a local one by
name (``--player``, default ``local``; created on first use) or any player by ``--token``.
An action is one ``@action`` function that adds its arguments and sets ``func`` (the web
front end adds ``serve`` this way).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ..errors import KakuroError
from ._common import OptionError, emit_json, positive_float

ACTIONS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {}
"""Action name -> (help, add its arguments); each parser's ``func`` runs it."""


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--store", metavar="PATH|URL",
                        help="game store: a SQLite file or a postgresql:// URL (the 'postgres' "
                        "extra; default: $KAKURO_STORE, else "
                        "~/.local/share/kakurolab/games.sqlite)")  # fmt: skip
    who = parser.add_mutually_exclusive_group()
    who.add_argument(
        "--player", metavar="NAME", default="local",
        help="play as this local player (created on first use; default 'local')",
    )  # fmt: skip
    who.add_argument("--token", metavar="TOKEN", help="play as the player of this token")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("play", help="play Kakuro Master: practice, calendar, arena, battle")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    for name, (text, build) in ACTIONS.items():
        action = actions.add_parser(name, help=text)
        build(action)
        _common(action)


def action(name: str, text: str) -> Callable[[Callable[[argparse.ArgumentParser], None]], Any]:
    def wrap(build: Callable[[argparse.ArgumentParser], None]) -> Any:
        ACTIONS[name] = (text, build)
        return build

    return wrap


# --- the actions -------------------------------------------------------------------------------


@action("new", "start a game: practice, campaign (the calendar), arena or battle")
def _new_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--mode", default="practice",
                   choices=("practice", "campaign", "arena", "battle"))  # fmt: skip
    p.add_argument("--size", default="8x8", help="ROWSxCOLS or a preset (default 8x8)")
    p.add_argument("--difficulty", default="easy", help="easy, normal, hard, expert")
    p.add_argument("--seed", help="puzzle seed (default: random)")
    p.add_argument("--file", metavar="FILE", help="play this puzzle file (not in campaign)")
    p.add_argument("--select", metavar="ID", help="with --file: the puzzle id")
    p.add_argument("--date", help="campaign: the date YYYY-MM-DD (default today, UTC); "
                   "practice: a past calendar day from the archive")
    p.add_argument("--permanent", action=argparse.BooleanOptionalAction, default=None,
                   help="permanent placement (default: on in arena, as the rulebook says for "
                   "competitive play)")  # fmt: skip
    p.add_argument("--time-limit", type=positive_float("--time-limit", 7 * 24 * 3600),
                   metavar="SECONDS", help="sprint: the countdown")  # fmt: skip
    p.add_argument("--shields", type=int, default=3, help="starting shields (default 3)")
    p.set_defaults(func=run_new)


@action("join", "take a seat in an arena or battle game")
def _join_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME")
    p.set_defaults(func=run_join)


@action("start", "start a waiting arena game (its creator)")
def _start_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME")
    p.set_defaults(func=lambda a: _move(a, ["start"]))


@action(
    "move",
    "a move: 'r3c4 7', 'erase r3c4', 'mark r3c4 7', 'shield hint|clear', "
    "'shield candidates r1c3 down', 'shield unlock r3c4', 'submit'",
)
def _move_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME")
    p.add_argument("words", nargs="+", metavar="MOVE")
    p.set_defaults(func=lambda a: _move(a, a.words))


@action("show", "the board with entries and pencil marks, the clock and the players")
def _show_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME")
    p.set_defaults(func=run_show)


@action("score", "the standings (final when the game is over) with the Mastery breakdown")
def _score_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME")
    p.set_defaults(func=run_score)


@action("list", "your games")
def _list_args(p: argparse.ArgumentParser) -> None:
    p.set_defaults(func=run_list)


@action("link", "a one-time sign-in code (and link) for another device: a browser, "
        "another terminal")
def _link_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--url", default="http://127.0.0.1:8421/",
                   help="the server the link opens (default http://127.0.0.1:8421/, "
                   "'play serve''s)")  # fmt: skip
    p.set_defaults(func=run_link)


@action("signin", "sign this terminal's player in with a code made on another device")
def _signin_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("code", metavar="CODE", help="the code (ABCD-EFGH-JKMN-PQRS)")
    p.set_defaults(func=run_signin)


@action("devices", "your devices and unused sign-in codes")
def _devices_args(p: argparse.ArgumentParser) -> None:
    p.set_defaults(func=run_devices)


@action("revoke", "revoke one of your devices (d-...) or unused sign-in codes (c-...)")
def _revoke_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("ident", metavar="ID", help="a device id (d-...) or a code id (c-...)")
    p.set_defaults(func=run_revoke)


@action("campaign", "calendar progress, streaks and this week's puzzles")
def _campaign_args(p: argparse.ArgumentParser) -> None:
    p.set_defaults(func=run_campaign)


@action("standings", "a calendar day's leaderboard, or the Arena's (--arena PERIOD)")
def _standings_args(p: argparse.ArgumentParser) -> None:
    which = p.add_mutually_exclusive_group()
    which.add_argument("--date", help="the calendar day YYYY-MM-DD (default today, UTC)")
    which.add_argument("--arena", metavar="PERIOD", choices=("today", "week", "all"),
                       help="the Arena's leaderboard of today, this week or all time")
    p.set_defaults(func=run_standings)


@action("archive", "the calendar archive: a month's days since the server's first")
def _archive_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--month", help="YYYY-MM (default this month, UTC)")
    p.set_defaults(func=run_archive)


@action("serve", "play in the browser: a local web server (needs the 'web' extra)")
def _serve_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8421, help="port (default 8421; 0: any free)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="processes that generate puzzles (default: cores - 1, at least 1)")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="a host name the server answers to besides loopback and the bound "
                   "address (repeat for more; e.g. the domain of a public deployment)")
    p.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                   help="change one of a public server's limits (repeatable), e.g. "
                   "sockets_per_address=64 or register=20/10 (docs/web.md)")
    p.set_defaults(func=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    """docs/web.md; the server itself is :mod:`kakurolab.web`."""
    from ..web.server import serve

    if not 0 <= args.port <= 65535:
        raise OptionError(f"--port must be 0-65535, got {args.port}")
    if args.workers is not None and not 1 <= args.workers <= 64:
        raise OptionError(f"--workers must be 1-64, got {args.workers}")
    serve(host=args.host, port=args.port, store=args.store, open_browser=not args.no_browser,
          as_json=args.json, player=args.player, token=args.token,
          workers=args.workers, allowed_hosts=tuple(args.allow_host),
          limits=args.limit)  # fmt: skip
    return 0


# --- running -----------------------------------------------------------------------------------


def _service(args: argparse.Namespace) -> Any:
    from ..game import GameService

    return GameService(args.store)


def _token(service: Any, args: argparse.Namespace) -> str:
    if args.token:
        service.whoami(args.token)
        return str(args.token)
    return str(service.local_player(args.player).token)


def run_new(args: argparse.Namespace) -> int:
    from ..game import RULES, Mode, NewGame, Options

    rules = RULES[Mode(args.mode)]
    puzzle = None
    if args.file:
        if rules.dated:
            raise OptionError("--file: the calendar chooses the campaign's puzzle")
        puzzle = _one_puzzle(args.file, args.select)
    permanent = rules.permanent_default if args.permanent is None else args.permanent
    options = Options(permanent=permanent, time_limit_s=args.time_limit, shields=args.shields)
    new = NewGame(Mode(args.mode), size=args.size, difficulty=args.difficulty, seed=args.seed,
                  date=args.date, puzzle=puzzle, options=options)  # fmt: skip
    service = _service(args)
    view = service.create(_token(service, args), new)
    _print_view(args, view)
    return 0


def _one_puzzle(path: str, select: str | None) -> Any:
    from ..formats import load

    puzzles = load(path, select=[select] if select else None)
    if len(puzzles) != 1:
        raise KakuroError(f"{path} holds {len(puzzles)} puzzles; choose one with --select")
    return puzzles[0]


def run_join(args: argparse.Namespace) -> int:
    service = _service(args)
    _print_view(args, service.join(args.game, _token(service, args)))
    return 0


def _move(args: argparse.Namespace, words: list[str]) -> int:
    from ..game import Move

    move = Move.parse(words)
    service = _service(args)
    result = service.act(args.game, _token(service, args), move)
    if args.json:
        emit_json({"outcome": result.outcome.to_json(), **result.view.to_json()})
        return 0
    if result.outcome.message:
        print(result.outcome.message)
    if result.view.phase == "finished":
        _print_standings(result.view.standings)
    return 0


def run_show(args: argparse.Namespace) -> int:
    service = _service(args)
    _print_view(args, service.view(args.game, _token(service, args)))
    return 0


def run_score(args: argparse.Namespace) -> int:
    service = _service(args)
    view = service.view(args.game, _token(service, args))
    lines = service.standings(args.game, _token(service, args))
    if args.json:
        emit_json({"game_id": view.game_id, "phase": view.phase, "standings": lines})
    else:
        print(f"{view.game_id} ({view.mode}, {view.phase})")
        _print_standings(lines)
    return 0


def run_list(args: argparse.Namespace) -> int:
    service = _service(args)
    games = service.games(_token(service, args))
    if args.json:
        emit_json({"games": games})
    else:
        import time

        for game in games:  # started here or in a browser of the same player (play link)
            made = time.strftime("%Y-%m-%d %H:%M", time.gmtime(game["created"]))
            print(f"{game['game_id']}  {game['mode']:<8} {game['size']:<6} {game['phase']:<9} "
                  f"{made} UTC")  # fmt: skip
    return 0


def run_link(args: argparse.Namespace) -> int:
    import time

    service = _service(args)
    made = service.accounts.make_code(_token(service, args))
    link = args.url.rstrip("/") + made.to_json()["link"]
    if args.json:
        emit_json({**made.to_json(), "link": link})
        return 0
    minutes = round((made.expires - time.time()) / 60)
    print(f"sign-in code {made.code} (works once, for {minutes} minutes; revoke: kakuro play "
          f"revoke {made.code_id})")  # fmt: skip
    print(f"open {link} on the other device (a server on this store), or there run: "
          f"kakuro play signin {made.code}")  # fmt: skip
    return 0


def run_signin(args: argparse.Namespace) -> int:
    if args.token:
        raise OptionError("signin: --token names a player already; use --player NAME")
    service = _service(args)
    me = service.signin_local(args.code, args.player)
    if args.json:
        emit_json({"player_id": me.player_id, "name": me.name})
    else:
        print(f"this terminal's player {args.player!r} is now {me.name} ({me.player_id})")
    return 0


def run_devices(args: argparse.Namespace) -> int:
    service = _service(args)
    found = service.accounts.devices(_token(service, args))
    if args.json:
        emit_json(found)
        return 0
    print(f"{found['name']} ({found['player_id']}):")
    for device in found["devices"]:
        state = "revoked" if device["revoked"] else "this one" if device["current"] else ""
        print(f"  {device['device_id']}  {device['label']:<24} {state}")
    for code in found["codes"]:
        print(f"  {code['code_id']}  unused sign-in code")
    return 0


def run_revoke(args: argparse.Namespace) -> int:
    service = _service(args)
    token = _token(service, args)
    if args.ident.startswith("c-"):
        service.accounts.revoke_code(token, args.ident)
    else:
        service.accounts.revoke_device(token, args.ident)
    if args.json:
        emit_json({"revoked": args.ident})
    else:
        print(f"revoked {args.ident}")
    return 0


def run_campaign(args: argparse.Namespace) -> int:
    service = _service(args)
    progress = service.campaign(_token(service, args))
    if args.json:
        emit_json(progress)
        return 0
    print(f"today {progress['today']}: streak {progress['current_streak']} "
          f"(best {progress['best_streak']})")  # fmt: skip
    played = {d["date"]: d for d in progress["days"]}
    for day in progress["week"]:
        done = played.get(day["date"])
        state = "solved" if done and done["solved_on"] else "open" if done else ""
        print(f"  {day['weekday']:<9} {day['date']}  {day['size']:<6} {day['difficulty']:<7} "
              f"{day['title']:<14} {state}")  # fmt: skip
    return 0


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def run_standings(args: argparse.Namespace) -> int:
    service = _service(args)
    token = _token(service, args)
    if args.arena:
        board = service.arena_board(token, args.arena)
        if args.json:
            emit_json(board)
            return 0
        span = f"{board['first']} to {board['last']}" if board["first"] else "all time"
        print(f"Speed Arena, {span}: wins, points, fastest win")
        for r in board["racers"]:
            flag = f"  flagged {r['flagged']}" if r["flagged"] else ""
            print(f"  {r['rank']:>3}  {r['name']:<24} {r['wins']:>4} of {r['races']:<4} "
                  f"{r['points']:>6}  {_clock(r['best_s'])}{flag}")  # fmt: skip
        return 0
    day = service.day_board(token, args.date)
    if args.json:
        emit_json(day)
        return 0
    state = "open: finished games only" if day["open"] else "live" if day["live"] else "over"
    print(f"{day['weekday']} {day['date']} {day['title']} ({day['size']} {day['difficulty']}; "
          f"{state})")  # fmt: skip
    for title, key in (("", "ranked"), ("solved later, not ranked", "late"),
                       ("under the human floor, not ranked", "flagged")):  # fmt: skip
        if title and day[key]:
            print(f"  {title}:")
        for e in day[key]:
            rank = "-" if e["rank"] is None else str(e["rank"])
            print(f"  {rank:>3}  {e['name']:<24} {e['score']:>6}  {_clock(e['time_s'])}  "
                  f"shields {e['shields_used']}")  # fmt: skip
    if not day["ranked"]:
        print("  nobody has solved this day yet")
    return 0


def run_archive(args: argparse.Namespace) -> int:
    service = _service(args)
    month = service.archive(_token(service, args), args.month)
    if args.json:
        emit_json(month)
        return 0
    print(f"calendar archive {month['month']} (since {month['first_day']})")
    for d in month["days"]:
        mine = d["mine"]
        own = f"  you: {mine['score']}" if mine and mine["solved_on"] else ""
        print(f"  {d['weekday']:<9} {d['date']}  {d['size']:<6} {d['difficulty']:<7} "
              f"{d['state']:<8} {d['solvers']} solved{own}")  # fmt: skip
    return 0


def _print_view(args: argparse.Namespace, view: Any) -> None:
    from ..game import board_text

    if args.json:
        emit_json(view.to_json())
        return
    spec = view.spec
    print(f"game {view.game_id}: {view.mode} {spec['size']} {spec['difficulty'] or ''} "
          f"({view.phase}; target {spec['target_s']} s)")  # fmt: skip
    print("\n".join(board_text(view)))
    clock = f"elapsed {view.elapsed_s:.0f} s"
    if view.remaining_s is not None:
        clock += f", {view.remaining_s:.0f} s left"
    print(f"{clock}; shields left {view.shields_left}")
    for player in view.players:
        extra = f" {player.points} points" if player.points is not None else ""
        mine = " (you)" if player.player_id == view.you else ""
        turn = " <- turn" if view.turn == player.player_id else ""
        print(f"  {player.name}{mine}: {player.progress:.0%} filled{extra}{turn}")
    if view.marks:
        print("marks: " + _marks_text(view.marks))
    for player in view.players:  # public in turn-based play
        if player.player_id != view.you and player.marks:
            print(f"{player.name}'s marks: {_marks_text(player.marks)}")
    if view.standings:
        _print_standings(view.standings)
    for text in view.ties:
        print(f"tie-break: {text}")
    if view.solution:  # shown only once the game is over
        print("solution:")
        print("\n".join("  " + row for row in view.solution))
    elif view.solution_withheld:
        print(f"solution: {view.solution_withheld}")


def _marks_text(marks: dict[str, list[int]]) -> str:
    return "; ".join(f"{cell} {''.join(map(str, digits))}" for cell, digits in marks.items())


def _print_standings(lines: list[dict[str, Any]]) -> None:
    for line in lines:
        parts = ", ".join(f"{k} {v}" for k, v in (line.get("breakdown") or {}).items())
        time_s = "-" if line["time_s"] is None else f"{line['time_s']:.1f} s"
        extra = f" [{parts}]" if parts else ""
        flag = " FLAGGED: faster than the human floor" if line.get("flagged") else ""
        print(f"  {line['rank']}. {line['name']}: {line['score']} ({time_s}; "
              f"shields used {line['shields_used']}){extra}{flag}")  # fmt: skip
