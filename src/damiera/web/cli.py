"""``damiera serve`` (the web site with Uvicorn, in one process or ``--workers N``) and
``damiera worker`` (engine workers of the job queue), registered by :mod:`damiera.cli`.

With ``--workers N`` the listening socket is bound once here and shared by N Uvicorn worker
processes, each of which builds the site from the settings this process checked
(:func:`app_from_environment`, settings as JSON in :data:`SETTINGS_ENVIRONMENT`); the
database is opened (and its tables made) here first, so the workers find it ready. Several
processes need a bus they share for the live boards' events (Redis, or PostgreSQL's
LISTEN/NOTIFY: :func:`damiera.web.live.bus.make_bus`): ``--workers N`` on SQLite without a
Redis URL is refused, since the in-process bus would leave each process's pages blind to
the moves made through the others.
``--port 0`` takes any free port; the first line printed names the port taken. ``--uds
PATH`` listens on a Unix socket instead, for a reverse proxy on the same machine (``deploy/``),
whose ``X-Forwarded-For``/``-Proto`` are then trusted. The HTTP protocol bounds slow and
greedy clients (:mod:`damiera.web.slow_clients`, :func:`server_settings`).

``damiera worker`` runs and supervises engine worker processes
(:mod:`damiera.web.worker_supervisor`).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import socket
from typing import Any

from damiera.web.limits import Limits

#: Environment variable carrying ``damiera serve``'s checked settings to its worker processes.
SETTINGS_ENVIRONMENT = "DAMIERA_SERVE_SETTINGS"
#: Most web processes ``--workers`` may ask for.
MAX_WORKERS = 64


def register(subparsers: Any) -> None:
    """Add the ``serve`` subcommand to the ``damiera`` parser's subparsers."""
    p = subparsers.add_parser("serve", help="serve the web site")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", default="8000", help="port (8000; 0: any free port)")
    p.add_argument("--uds", default=None, metavar="PATH",
                   help="listen on this Unix socket instead of --host/--port (for a reverse "
                   "proxy on the same machine, which is then trusted for X-Forwarded-For "
                   "and -Proto; see deploy/)")
    p.add_argument("--workers", type=int, default=1,
                   help="web processes sharing the port (default %(default)s); give them a "
                   "database they share (PostgreSQL) and a job queue (--redis-url); more "
                   "than one needs Redis or PostgreSQL (the live boards' events)")
    p.add_argument("--redis-url", default=None,
                   help="Redis URL of the job queue for the computer's moves, searched by "
                   "`damiera worker` processes (default: $DAMIERA_REDIS_URL; none: searched "
                   "in this server's own processes)")
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
    p.add_argument("--connections-per-address", type=int, default=d.connections_per_address,
                   help="open connections one client address may have to each web process "
                   "(default %(default)s; 0: no cap, for a proxy on another machine)")
    p.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                   help="a host name the site answers to, e.g. damiera.example or "
                   "'*.damiera.example' (repeatable; also $DAMIERA_ALLOWED_HOSTS, separated "
                   "by commas; default: localhost, 127.0.0.1, ::1 and --host, or this "
                   "machine's names and addresses for 0.0.0.0; '*': any)")
    p.add_argument("--hub-engine", action="append", default=[], metavar="NAME=COMMAND",
                   help="offer a Hub engine as an opponent, e.g. 'Scan=/opt/scan/scan hub' "
                   "(repeatable; also $DAMIERA_HUB_ENGINES, one NAME=COMMAND a line)")
    p.add_argument("--hub-movetime", type=float, default=1.0,
                   help="seconds a Hub engine gets for a move (default %(default)g)")
    p.set_defaults(func=_serve)

    w = subparsers.add_parser("worker", help="run engine workers for the job queue")
    w.add_argument("--redis-url", default=None,
                   help="Redis URL of the job queue (default: $DAMIERA_REDIS_URL)")
    w.add_argument("--processes", type=int, default=1,
                   help="worker processes, each one search at a time, each replaced when it "
                   "dies (default %(default)s)")
    w.set_defaults(func=_worker)


def _serve(args: argparse.Namespace) -> int:
    from damiera.cli import UsageError

    try:
        port = int(args.port)
    except ValueError:
        raise UsageError(f"port must be a whole number, not {args.port!r}") from None
    if not 0 <= port < 65536:
        raise UsageError(f"port must be between 1 and 65535 (or 0: any free port), not {port}")
    if not 1 <= args.workers <= MAX_WORKERS:
        raise UsageError(f"--workers must be between 1 and {MAX_WORKERS}, not {args.workers}")
    # The address first: a typo in --host or a busy port must not leave a new database behind.
    sock = _bind_unix(args.uds) if args.uds else _bind(args.host, port)
    try:
        return _serve_on(args, sock)
    finally:
        sock.close()
        if args.uds:
            with contextlib.suppress(OSError):
                os.unlink(args.uds)


def _serve_on(args: argparse.Namespace, sock: socket.socket) -> int:
    import uvicorn
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, OperationalError

    from damiera.cli import UsageError
    from damiera.web.app import create_app
    from damiera.web.computer_jobs import ENVIRONMENT as REDIS_ENVIRONMENT
    from damiera.web.migrate import MigrationError
    from damiera.web.store import StorageError, default_database_url, safe_url

    url = args.database_url or default_database_url()
    shown = safe_url(url)   # never print a password
    redis_url = args.redis_url or os.environ.get(REDIS_ENVIRONMENT) or None
    redis_shown = safe_url(redis_url) if redis_url else None
    limits = _limits(args)
    hosts = allowed_hosts(args.allowed_host, args.host)
    engines = _hub_engines(args)
    try:
        backend = make_url(url).get_backend_name()
    except (ArgumentError, ValueError):   # ValueError: a port that is not a number
        raise UsageError(f"bad database URL {shown!r}") from None
    if args.workers > 1 and not redis_url and backend != "postgresql":
        raise UsageError(
            f"--workers {args.workers} needs a bus the processes share for the live boards "
            "(a move made in one process must reach the pages connected to the others): "
            "give --redis-url (or $DAMIERA_REDIS_URL), or a PostgreSQL --database-url; on "
            f"{backend} without Redis, serve with one process")
    try:
        app = create_app(url, limits=limits, hub_engines=engines,
                         hub_movetime=args.hub_movetime, redis_url=redis_url,
                         computer_workers=_pool_size(args.workers), allowed_hosts=hosts)
    except ArgumentError:
        raise UsageError(f"bad database URL {shown!r}") from None
    except ValueError as exc:   # a malformed Redis URL
        raise UsageError(str(exc)) from None
    except (OperationalError, OSError) as exc:
        raise UsageError(f"cannot open the database {shown!r}: {exc}") from None
    except ModuleNotFoundError as exc:
        if exc.name in ("arq", "redis"):
            raise UsageError(f"the job queue {redis_shown!r} needs the module {exc.name} "
                             "(pip install 'damiera[queue]')") from None
        raise UsageError(f"database URL {shown!r} needs the module {exc.name}") from None
    except MigrationError as exc:
        raise UsageError(str(exc)) from None
    try:
        app.state.service.store.check_writable()
    except StorageError as exc:
        raise UsageError(f"cannot write to the database {shown!r}: {exc.why}") from None
    host, port = args.host, (0 if args.uds else sock.getsockname()[1])
    address = f"[{host}]" if ":" in host else host
    extra = (f", computer moves on {redis_shown}" if redis_shown else "") + (
        f", {args.workers} processes" if args.workers > 1 else "")
    where = f"http+unix:{args.uds}" if args.uds else f"http://{address}:{port}/"
    print(f"Damiera: {where}  (games in {shown}{extra})", flush=True)
    os.environ.setdefault("DAMIERA_DATABASE_URL", url)
    # Behind a proxy on a Unix socket every peer is a local process allowed to open it.
    proxy: dict[str, Any] = {"forwarded_allow_ips": os.environ.get(
        "FORWARDED_ALLOW_IPS", "*")} if args.uds else {}
    if args.workers == 1:
        config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                                **server_settings(app.state.limits), **proxy)
        server = uvicorn.Server(config)
        server.run(sockets=[sock])
        return 0 if server.started else 1   # the site failed to start (logged by Uvicorn)
    # Several processes: each builds its own site from the settings checked above.
    app.state.service.store.close()
    app.state.service.computer.close()
    from uvicorn.supervisors import Multiprocess

    os.environ[SETTINGS_ENVIRONMENT] = json.dumps({
        "database_url": url, "redis_url": redis_url, "workers": args.workers,
        "limits": dataclasses.asdict(limits), "hub_movetime": args.hub_movetime,
        "allowed_hosts": hosts,
        "hub_engines": [*os.environ.get("DAMIERA_HUB_ENGINES", "").splitlines(),
                        *args.hub_engine],
    })
    settings = server_settings(limits)
    settings["http"] = "damiera.web.slow_clients:GuardedH11Protocol"  # a class by name: the
    config = uvicorn.Config(                                    # processes are spawned
        "damiera.web.cli:app_from_environment", factory=True, workers=args.workers,
        host=host, port=port, log_level="warning", **settings, **proxy)
    Multiprocess(config, sockets=[sock]).run()
    return 0


#: Environment variable listing the host names the site answers to (commas between).
HOSTS_ENVIRONMENT = "DAMIERA_ALLOWED_HOSTS"


def allowed_hosts(given: list[str], host: str) -> list[str]:
    """The host names ``damiera serve --host host`` answers to: ``--allowed-host`` and
    ``$DAMIERA_ALLOWED_HOSTS``, else :func:`~damiera.web.security_headers.
    default_allowed_hosts`."""
    from damiera.web.security_headers import default_allowed_hosts

    named = [*given, *os.environ.get(HOSTS_ENVIRONMENT, "").split(",")]
    named = [n.strip() for n in named if n.strip()]
    return named or default_allowed_hosts(host)


def _pool_size(web_processes: int) -> int:
    """Search processes of each web process's own pool when there is no job queue: the
    machine's cores (at most 4) shared among the web processes."""
    return max(1, min(4, os.cpu_count() or 1) // web_processes)


def app_from_environment() -> Any:
    """The site of one of ``damiera serve --workers N``'s processes, built from the settings
    in :data:`SETTINGS_ENVIRONMENT` (Uvicorn's app factory)."""
    from damiera.web.app import create_app
    from damiera.web.hub_engines import DEFAULT_MOVETIME, load_engines
    from damiera.web.slow_clients import GuardedH11Protocol

    settings = json.loads(os.environ[SETTINGS_ENVIRONMENT])
    fields = dict(settings["limits"])
    fields["large_body_paths"] = tuple(fields["large_body_paths"])
    limits = dataclasses.replace(Limits(), **fields)
    GuardedH11Protocol.head_timeout = limits.head_timeout
    GuardedH11Protocol.per_address = limits.connections_per_address
    return create_app(settings["database_url"], limits=limits,
                      hub_engines=load_engines(settings["hub_engines"]),
                      hub_movetime=settings["hub_movetime"] or DEFAULT_MOVETIME,
                      redis_url=settings["redis_url"],
                      computer_workers=_pool_size(settings["workers"]),
                      allowed_hosts=settings["allowed_hosts"])


def _worker(args: argparse.Namespace) -> int:
    from damiera.cli import UsageError
    from damiera.web.computer_jobs import ENVIRONMENT as REDIS_ENVIRONMENT
    from damiera.web.store import safe_url

    url = args.redis_url or os.environ.get(REDIS_ENVIRONMENT)
    if not url:
        raise UsageError(f"give the job queue's Redis URL: --redis-url or ${REDIS_ENVIRONMENT}")
    if not 1 <= args.processes <= MAX_WORKERS:
        raise UsageError(f"--processes must be between 1 and {MAX_WORKERS}, "
                         f"not {args.processes}")
    try:
        import arq  # noqa: F401
        from redis import Redis
    except ModuleNotFoundError as exc:
        raise UsageError(f"damiera worker needs the module {exc.name} "
                         "(pip install 'damiera[queue]')") from None
    try:
        client = Redis.from_url(url, socket_connect_timeout=10)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:  # noqa: BLE001 - redis' own errors (and a bad URL), in one line
        why = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
        raise UsageError(f"cannot reach the job queue {safe_url(url)!r}: {why}") from None
    from damiera.web.worker_supervisor import supervise

    print(f"Damiera engine worker: {args.processes} process(es) on {safe_url(url)}",
          flush=True)
    return supervise(url, args.processes)


def _limits(args: argparse.Namespace) -> Limits:
    from damiera.cli import UsageError

    for name in ("game_ttl_days", "create_burst", "create_per_minute", "computer_per_client",
                 "connections_per_address"):
        value = getattr(args, name)
        if not value >= 0:
            raise UsageError(f"--{name.replace('_', '-')} must be 0 or more, not {value}")
    return dataclasses.replace(
        Limits(),
        game_ttl=args.game_ttl_days * 86400 or None,
        create_burst=args.create_burst,
        create_rate=args.create_per_minute / 60,
        computer_per_client=args.computer_per_client,
        connections_per_address=args.connections_per_address,
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
    :mod:`damiera.web.slow_clients` (a whole request head must arrive within
    ``limits.head_timeout`` seconds, at most ``limits.max_head_bytes`` of it buffered; at
    most ``limits.connections_per_address`` open connections per client address), idle
    keep-alive connections closed after 5 s, at most 1,000 connections at once (503 past
    that) and 30 s to finish the requests under way when the server stops."""
    from damiera.web.slow_clients import guarded

    return {
        "http": guarded(limits.head_timeout, limits.connections_per_address),
        "h11_max_incomplete_event_size": limits.max_head_bytes,
        "timeout_keep_alive": 5,
        "limit_concurrency": 1000,
        "timeout_graceful_shutdown": 30,
    }


def _bind_unix(path: str) -> socket.socket:
    """A socket listening on the Unix socket ``path`` (a stale socket file there is replaced;
    any other file is not), readable and writable by its owner and group (give the proxy's
    user the group); UsageError when it cannot be made."""
    import stat

    from damiera.cli import UsageError

    try:
        if stat.S_ISSOCK(os.stat(path).st_mode):
            os.unlink(path)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise UsageError(f"cannot serve on {path}: {exc.strerror or exc}") from None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(path)
        os.chmod(path, 0o660)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        raise UsageError(f"cannot serve on {path}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


def _bind(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port`` (0: any free port), as Uvicorn would bind it;
    UsageError when the host is unknown or the port is busy."""
    from damiera.cli import UsageError

    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else exc
        raise UsageError(f"cannot serve on {host}:{port}: unknown host ({why})") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as Uvicorn does
    try:
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        raise UsageError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock
