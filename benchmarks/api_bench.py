"""API latency with concurrent clients. Run by hand or with ``make bench``.

    .venv/bin/python benchmarks/api_bench.py [--clients 20] [--rounds 15] [--url URL]

Without ``--url`` it starts ``damiera serve`` on a free local port with a fresh SQLite file
and stops it at the end. Every client has its own games and sends its requests one after the
other; the clients run at the same time. Measured, per request, as the client sees it:

- ``GET /api/games/{id}`` of a game 20 plies long;
- ``POST /api/games/{id}/moves`` in a game between two people (rules + store), per variant;
- the same against the computer at level 1 (the reply's search included), per variant.

Prints a Markdown table of the median and 95th percentile in milliseconds. Traffic goes only
to the loopback address unless ``--url`` says otherwise; the request count is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2

VARIANTS = ["american", "italian", "czech", "russian", "brazilian", "spanish", "international"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[k]


async def _timed(coro: Any, sink: list[float]) -> Any:
    t = time.perf_counter()
    r = await coro
    sink.append((time.perf_counter() - t) * 1000)
    return r


async def _new(client: httpx2.AsyncClient, variant: str, opponent: str) -> dict[str, Any]:
    r = await client.post("/api/games", json={"variant": variant, "opponent": opponent})
    r.raise_for_status()
    game: dict[str, Any] = r.json()
    return game


async def _play_game(client: httpx2.AsyncClient, variant: str, opponent: str, moves: int,
                     sink: list[float], seed: int) -> None:
    """Play up to ``moves`` of our moves (the i-th legal move, cycling), timing each POST;
    a finished game is replaced by a new one."""
    game = await _new(client, variant, opponent)
    for i in range(moves):
        if game["result"] is not None or not game["legal_moves"]:
            game = await _new(client, variant, opponent)
        legal = game["legal_moves"]
        move = legal[(seed + i) % len(legal)]["move"]
        r = await _timed(client.post(f"/api/games/{game['id']}/moves", json={"move": move}),
                         sink)
        r.raise_for_status()
        game = r.json()


async def _long_game(client: httpx2.AsyncClient, seed: int) -> str:
    """A game between two people, 20 plies long; returns its id."""
    game = await _new(client, "international", "friend")
    for i in range(20):
        legal = game["legal_moves"]
        r = await client.post(f"/api/games/{game['id']}/moves",
                              json={"move": legal[(seed + i) % len(legal)]["move"]})
        game = r.json()
        if game["result"]:
            break
    game_id: str = game["id"]
    return game_id


async def _get_game(client: httpx2.AsyncClient, game_id: str, rounds: int,
                    sink: list[float]) -> None:
    for _ in range(rounds):
        r = await _timed(client.get(f"/api/games/{game_id}"), sink)
        r.raise_for_status()


async def _run(url: str, clients: int, rounds: int) -> list[tuple[str, list[float]]]:
    limits = httpx2.Limits(max_connections=clients * 2)
    async with httpx2.AsyncClient(base_url=url, timeout=120, limits=limits) as client:
        await client.get("/api/variants")
        # warm the computer's worker processes
        await _play_game(client, "italian", "computer", 1, [], 0)
        rows: list[tuple[str, list[float]]] = []
        sink: list[float] = []
        ids = await asyncio.gather(*(_long_game(client, s) for s in range(clients)))
        await asyncio.gather(*(_get_game(client, i, rounds, sink) for i in ids))
        rows.append(("GET /api/games/{id}", sink))
        for opponent in ("friend", "computer"):
            for v in VARIANTS:
                sink = []
                await asyncio.gather(
                    *(_play_game(client, v, opponent, rounds, sink, s) for s in range(clients))
                )
                label = "move, two people" if opponent == "friend" else "move + level-1 reply"
                rows.append((f"{label}: {v}", sink))
        return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a running site (default: start one locally)")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=15, help="requests per client and row")
    args = parser.parse_args()
    proc = None
    url = args.url
    tmp = tempfile.TemporaryDirectory()
    if url is None:
        port = _free_port()
        env = {**os.environ, "DAMIERA_DATABASE_URL": f"sqlite:///{Path(tmp.name) / 'b.sqlite3'}"}
        proc = subprocess.Popen(
            [sys.executable, "-m", "damiera.cli", "serve", "--port", str(port),
             "--create-burst", "100000", "--computer-per-client", "1000"], env=env,
            stdout=subprocess.DEVNULL,
        )
        url = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                httpx2.get(f"{url}/api/variants")
                break
            except httpx2.TransportError:
                time.sleep(0.1)
    try:
        started = time.perf_counter()
        rows = asyncio.run(_run(url, args.clients, args.rounds))
        elapsed = time.perf_counter() - started
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=10)
        tmp.cleanup()
    print(f"{args.clients} concurrent clients, {args.rounds} requests each per row, "
          f"{os.cpu_count()} CPUs, {elapsed:.0f} s in all\n")
    print("| request | n | median ms | p95 ms |")
    print("|---|---:|---:|---:|")
    for label, values in rows:
        print(f"| {label} | {len(values)} | {statistics.median(values):.0f} | "
              f"{_pct(values, 0.95):.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
