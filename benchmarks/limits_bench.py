"""Oversized requests under load: 20 concurrent clients, half of them sending
1 MB requests of every kind, half playing normally. Run by hand:

    .venv/bin/python benchmarks/limits_bench.py [--clients 20] [--attackers 10] [--seconds 20]

It starts ``damiera serve`` (its own limits and Uvicorn settings) on a free local port with a
fresh SQLite file and stops it at the end. Attackers cycle through seven large requests: a move
body, a move text inside a body (sent as JSON; also 60 KB of it, under the body limit,
which the old quadratic reader would have taken minutes over), a FEN body, an ``Accept-Language`` header,
a query string, and a 1 MB body announced by ``Content-Length`` and sent slowly. Normal
clients loop over ``GET /api/variants``, ``GET /api/games/{id}`` and a move in a friend game
(played and taken back). Prints, per kind, the answers' status codes and the median, 95th
percentile and maximum time in milliseconds, as the client saw it. Traffic goes only to the
loopback address; the run is bounded in time.

The flood of half-open connections (the audit's first finding):

    .venv/bin/python benchmarks/limits_bench.py --flood proxy [--seconds 30] [--connections 1100]
    .venv/bin/python benchmarks/limits_bench.py --flood bare
    .venv/bin/python benchmarks/limits_bench.py --flood bare-uncapped

``proxy``: ``damiera serve --uds`` behind Debian's nginx with the shipped configuration
(``deploy/nginx/``, rendered as the tests do: :mod:`tests.services.nginx`), the flood over
TLS to its HTTPS port; ``bare``: ``damiera serve`` alone on a free port (``bare-uncapped``:
without its cap on connections per address, as the audit found it). A second process
keeps ``--connections`` connections open from 127.0.0.1, each with a request line and one
header line sent and the head left open, opening a new one whenever one is closed; after
it has opened them all, another client from 127.0.0.2 loops over ``GET /api/variants`` and
``GET /api/games/{id}`` for ``--seconds``. Prints that client's answers by status and its
median, 95th percentile and maximum time, and what happened to the flood's connections.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx2

sys.path.insert(0, str(Path(__file__).parent))
from api_bench import _free_port, _pct
from flood import run_flood_bench

MB = 1024 * 1024


Record = dict[str, list[tuple[int, float]]]


async def _slow_body(port: int) -> int:
    """Announce a 1 MB body and send 64 KB of it, 4 KB at a time; the status received."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(b"POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: "
                     b"application/json\r\nContent-Length: 1048576\r\n\r\n")
        for _ in range(16):
            writer.write(b" " * 4096)
            await writer.drain()
            await asyncio.sleep(0.01)
        line = await asyncio.wait_for(reader.readline(), 60)
        return int(line.split()[1]) if line.startswith(b"HTTP/") else 0
    except (TimeoutError, ConnectionError):
        return 0
    finally:
        writer.close()


async def _raw(port: int, request: bytes) -> int:
    """Send ``request`` on a new connection; the status received (0: closed without one)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request)
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), 60)
        return int(line.split()[1]) if line.startswith(b"HTTP/") else 0
    except (TimeoutError, ConnectionError):
        return 0
    finally:
        writer.close()


async def _attacker(base: str, port: int, until: float, record: Record) -> None:
    async with httpx2.AsyncClient(base_url=base, timeout=120) as c:
        r = await c.post("/api/games", json={"variant": "italian", "opponent": "friend"})
        gid = r.json()["id"]
        kinds: dict[str, Callable[[], Awaitable[httpx2.Response]]] = {
            "1 MB move body": lambda: c.post(f"/api/games/{gid}/moves",
                                             content=b"{" + b" " * MB + b"}",
                                             headers={"content-type": "application/json"}),
            "60 KB move text of spaces (under the body limit)": lambda: c.post(
                f"/api/games/{gid}/moves", json={"move": "22" + " " * 60_000 + "-19"}),
            "1 MB move text (spaces)": lambda: c.post(
                f"/api/games/{gid}/moves", json={"move": "22" + " " * MB + "-19"}),
            "1 MB FEN": lambda: c.post("/api/games", json={
                "variant": "international", "opponent": "friend", "fen": "W:W" + "1," * (MB // 2)}),
            "1 MB Accept-Language": lambda: c.get(
                "/api/variants", headers={"accept-language": "de-DE;q=0.5," * (MB // 12)}),
        }
        raw = {
            "1 MB query string": b"GET /api/variants?x=" + b"a" * MB
            + b" HTTP/1.1\r\nHost: localhost\r\n\r\n",
        }
        while time.perf_counter() < until:
            for name, send in kinds.items():
                t = time.perf_counter()
                try:
                    status = (await send()).status_code
                except httpx2.HTTPError:
                    status = 0          # the server closed the connection
                record[name].append((status, (time.perf_counter() - t) * 1000))
            for name, request in raw.items():
                t = time.perf_counter()
                status = await _raw(port, request)
                record[name].append((status, (time.perf_counter() - t) * 1000))
            t = time.perf_counter()
            status = await _slow_body(port)
            record["1 MB body sent slowly"].append((status, (time.perf_counter() - t) * 1000))


async def _player(base: str, until: float, record: Record) -> None:
    async with httpx2.AsyncClient(base_url=base, timeout=120) as c:
        r = await c.post("/api/games", json={"variant": "italian", "opponent": "friend"})
        gid = r.json()["id"]
        while time.perf_counter() < until:
            reads: list[tuple[str, Callable[[], Awaitable[httpx2.Response]]]] = [
                ("normal: GET /api/variants", lambda: c.get("/api/variants")),
                ("normal: GET /api/games/{id}", lambda: c.get(f"/api/games/{gid}")),
                ("normal: move + undo", lambda: c.post(f"/api/games/{gid}/moves",
                                                       json={"move": "22-19"})),
            ]
            for name, send in reads:
                t = time.perf_counter()
                status = (await send()).status_code
                record[name].append((status, (time.perf_counter() - t) * 1000))
            await c.post(f"/api/games/{gid}/undo", json={})


async def _run(port: int, clients: int, attackers: int, seconds: float) -> Record:
    record: Record = collections.defaultdict(list)
    base = f"http://127.0.0.1:{port}"
    until = time.perf_counter() + seconds
    await asyncio.gather(
        *(_attacker(base, port, until, record) for _ in range(attackers)),
        *(_player(base, until, record) for _ in range(clients - attackers)),
    )
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--attackers", type=int, default=None,
                        help="clients sending 1 MB requests (default: half the clients)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--flood", choices=["proxy", "bare", "bare-uncapped"], default=None,
                        help="the flood of half-open connections instead (see above)")
    parser.add_argument("--connections", type=int, default=1100,
                        help="half-open connections of the flood (default %(default)s)")
    args = parser.parse_args()
    if args.flood:
        run_flood_bench(args.flood, args.connections, args.seconds)
        return
    attackers = args.clients // 2 if args.attackers is None else args.attackers
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DAMIERA_DATABASE_URL": f"sqlite:///{Path(tmp) / 'b.sqlite3'}"}
        proc = subprocess.Popen(
            [sys.executable, "-m", "damiera.cli", "serve", "--port", str(port)], env=env,
            stdout=subprocess.DEVNULL)
        try:
            for _ in range(200):
                try:
                    httpx2.get(f"http://127.0.0.1:{port}/api/variants", timeout=1)
                    break
                except httpx2.HTTPError:
                    time.sleep(0.1)
            record = asyncio.run(_run(port, args.clients, attackers, args.seconds))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    print(f"{args.clients} concurrent clients ({attackers} sending 1 MB requests), "
          f"{args.seconds:g} s\n")
    print("| request | answers (status: count) | median ms | p95 ms | max ms |")
    print("|---|---|---:|---:|---:|")
    for name, rows in sorted(record.items(), key=lambda kv: kv[0].startswith("normal")):
        codes = collections.Counter(s for s, _ in rows)
        times = [t for _, t in rows]
        shown = ", ".join(f"{c}: {n}" for c, n in sorted(codes.items()))
        print(f"| {name} | {shown} | {_pct(times, 0.5):.0f} | {_pct(times, 0.95):.0f} | "
              f"{max(times):.0f} |")


if __name__ == "__main__":
    main()
