"""``damiera serve``: run the web site with Uvicorn (registered by :mod:`damiera.cli`)."""

from __future__ import annotations

import argparse
import dataclasses
import os
from typing import Any

from damiera.web.limits import Limits


def register(subparsers: Any) -> None:
    """Add the ``serve`` subcommand to the ``damiera`` parser's subparsers."""
    p = subparsers.add_parser("serve", help="serve the web site")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", default="8000", help="port (8000)")
    p.add_argument(
        "--database-url",
        default=None,
        help="SQLAlchemy URL of the game store (default: $DAMIERA_DATABASE_URL, else an "
        "SQLite file in the user's data directory)",
    )
    d = Limits()
    p.add_argument("--game-ttl-days", type=float, default=d.game_ttl / 86400 if d.game_ttl
                   else 0, help="delete games nobody changed for this many days "
                   "(0: keep them; default %(default)g)")
    p.add_argument("--create-burst", type=int, default=d.create_burst,
                   help="new games a client may start at once (default %(default)s)")
    p.add_argument("--create-per-minute", type=float, default=d.create_rate * 60,
                   help="new games a client may start a minute after that (default "
                   "%(default)g)")
    p.add_argument("--computer-per-client", type=int, default=d.computer_per_client,
                   help="computer moves one client may have queued (default %(default)s)")
    p.add_argument("--hub-engine", action="append", default=[], metavar="NAME=COMMAND",
                   help="offer a Hub engine as an opponent, e.g. 'Scan=/opt/scan/scan hub' "
                   "(repeatable; also $DAMIERA_HUB_ENGINES, one NAME=COMMAND a line)")
    p.add_argument("--hub-movetime", type=float, default=1.0,
                   help="seconds a Hub engine gets for a move (default %(default)g)")
    p.set_defaults(func=_serve)


def _serve(args: argparse.Namespace) -> int:
    from damiera.cli import UsageError

    try:
        port = int(args.port)
    except ValueError:
        raise UsageError(f"port must be a whole number, not {args.port!r}") from None
    if not 0 < port < 65536:
        raise UsageError(f"port must be between 1 and 65535, not {port}")
    # The address first: a typo in --host or a busy port must not leave a new database behind.
    _check_address(args.host, port)
    import uvicorn
    from sqlalchemy.exc import ArgumentError, OperationalError

    from damiera.web.app import create_app
    from damiera.web.migrate import MigrationError
    from damiera.web.store import default_database_url, safe_url

    url = args.database_url or default_database_url()
    shown = safe_url(url)   # never print a password
    limits = _limits(args)
    engines = _hub_engines(args)
    try:
        app = create_app(url, limits=limits, hub_engines=engines,
                         hub_movetime=args.hub_movetime)
    except ArgumentError:
        raise UsageError(f"bad database URL {url!r}") from None
    except (OperationalError, OSError) as exc:
        raise UsageError(f"cannot open the database {shown!r}: {exc}") from None
    except ModuleNotFoundError as exc:
        raise UsageError(f"database URL {shown!r} needs the module {exc.name}") from None
    except MigrationError as exc:
        raise UsageError(str(exc)) from None
    from damiera.web.store import StorageError

    try:
        app.state.service.store.check_writable()
    except StorageError as exc:
        raise UsageError(f"cannot write to the database {shown!r}: {exc.why}") from None
    print(f"Damiera: http://{args.host}:{port}/  (games in {shown})", flush=True)
    os.environ.setdefault("DAMIERA_DATABASE_URL", url)
    try:
        uvicorn.run(app, host=args.host, port=port, log_level="warning",
                    **server_settings(app.state.limits))
    except SystemExit as exc:  # uvicorn exits when it cannot bind
        raise UsageError(f"cannot serve on {args.host}:{port}") from exc
    return 0


def _limits(args: argparse.Namespace) -> Limits:
    from damiera.cli import UsageError

    for name in ("game_ttl_days", "create_burst", "create_per_minute", "computer_per_client"):
        value = getattr(args, name)
        if not value >= 0:
            raise UsageError(f"--{name.replace('_', '-')} must be 0 or more, not {value}")
    return dataclasses.replace(
        Limits(),
        game_ttl=args.game_ttl_days * 86400 or None,
        create_burst=args.create_burst,
        create_rate=args.create_per_minute / 60,
        computer_per_client=args.computer_per_client,
    )


def _hub_engines(args: argparse.Namespace) -> list[Any]:
    """The Hub engines of ``--hub-engine`` and ``$DAMIERA_HUB_ENGINES``, each started once to
    learn its variants; UsageError when one cannot be used."""
    from damiera.cli import UsageError
    from damiera.web.hub_engines import ENVIRONMENT, load_engines

    if not 0 < args.hub_movetime <= 600:
        raise UsageError(f"--hub-movetime must be more than 0 and at most 600 seconds, "
                         f"not {args.hub_movetime}")
    specs = [*os.environ.get(ENVIRONMENT, "").splitlines(), *args.hub_engine]
    try:
        engines = load_engines(specs)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    for e in engines:
        print(f"Hub engine {e.name} ({e.title}): {', '.join(e.variants)}", flush=True)
    return engines


def server_settings(limits: Limits) -> dict[str, Any]:
    """Uvicorn's settings against slow and greedy clients: the HTTP protocol of
    :mod:`damiera.web.slow_clients` (a request head must arrive within
    ``limits.head_timeout`` seconds; at most ``limits.max_head_bytes`` of it are buffered),
    idle keep-alive connections closed after 5 s, at most 1,000 connections at once (503
    past that) and 30 s to finish the requests under way when the server stops."""
    from damiera.web.slow_clients import with_head_timeout

    return {
        "http": with_head_timeout(limits.head_timeout),
        "h11_max_incomplete_event_size": limits.max_head_bytes,
        "timeout_keep_alive": 5,
        "limit_concurrency": 1000,
        "timeout_graceful_shutdown": 30,
    }


def _check_address(host: str, port: int) -> None:
    """Raise UsageError unless ``host:port`` resolves and can be bound now (the socket is
    closed again at once; Uvicorn binds its own)."""
    import socket

    from damiera.cli import UsageError

    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else exc
        raise UsageError(f"cannot serve on {host}:{port}: unknown host ({why})") from None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as Uvicorn does
        try:
            probe.bind(address)
        except OSError as exc:
            raise UsageError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
