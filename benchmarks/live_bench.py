"""Live boards under load: watchers of one game, and many games at once.

Starts the site in a process of its own (one Uvicorn process, SQLite in a temporary folder,
the in-process event bus; or ``--database-url``/``--redis-url`` for another store and bus),
then from this process, on asyncio sockets:

- **one game, N watchers** (``--watchers 100 500 1000``): N event streams on one game
  between two people (a new game, or one ``--plies-before`` plies into it: plies picked at
  random by the rules core, seeded), then ``--moves`` moves posted one after the other (each
  the first legal move); for each move, the
  delay from sending its POST to the arrival of its event (``id:`` the new version) at every
  watcher;
- **M games at once** (``--games 100 --per-game 5``): M games with their watchers, a move
  posted on every game at once, for ``--rounds`` rounds; the same delays;

and reports for each: the delay's median and 95th percentile (ms) over every watcher and move,
the size of a move's event at a watcher (its ``data:`` line, KB; mean over the moves),
the server's memory per open stream (its resident set with the streams open, less before
they opened, divided by their number), and the database statements the server ran per move
(counted by SQLAlchemy's ``before_cursor_execute`` in the server: the move's POST, and
anything the streams cost), and the machine's load average (1 minute) when the run began.
Each setup runs ``--runs`` times; medians of the runs are printed, as a Markdown table for
``benchmarks/live_results.md``.

    .venv/bin/python benchmarks/live_bench.py [--watchers 100 500 1000] [--games 100]
        [--per-game 5] [--moves 10] [--rounds 5] [--runs 3] [--plies-before 0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2

SERVER = """
import sys, uvicorn
from sqlalchemy import event
from damiera.web.app import create_app
from damiera.web.limits import Limits
from damiera.web.live.hub import LiveSettings
app = create_app(sys.argv[1], computer_workers=1, redis_url=sys.argv[2] or None,
                 limits=Limits(create_rate=1e6, create_burst=1_000_000),
                 live=LiveSettings(streams_per_client=100_000, streams_total=100_000))
count = [0]
event.listen(app.state.service.store.engine, "before_cursor_execute",
             lambda *a: count.__setitem__(0, count[0] + 1))

@app.get("/_bench/queries", include_in_schema=False)
async def queries() -> dict:
    return {"queries": count[0]}

config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning",
                        timeout_keep_alive=600, backlog=4096)
server = uvicorn.Server(config)
import asyncio
async def main():
    await server.serve(sockets=[sock])
import socket
sock = socket.socket(); sock.bind(("127.0.0.1", 0)); sock.listen(4096)
print(sock.getsockname()[1], flush=True)
asyncio.run(main())
"""

#: The seed of the plies a game starts with (``--plies-before``): the same games every run.
SEED = 29


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Watcher:
    """One event stream on a raw socket: the arrival time of each event id."""

    def __init__(self) -> None:
        self.seen: dict[int, float] = {}
        self.sizes: dict[int, int] = {}      # bytes of the data: line of each event id
        self.waiters: dict[int, asyncio.Event] = {}
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.task: asyncio.Task[None] | None = None

    async def open(self, port: int, path: str) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
        self.writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: "
                          "text/event-stream\r\n\r\n".encode())
        await self.writer.drain()
        status = await self.reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"stream refused: {status!r}")
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.reader is not None
        version = -1
        while True:
            line = await self.reader.readline()
            if not line:
                return
            if line.startswith(b"id: "):
                version = int(line[4:])
                self.seen.setdefault(version, time.perf_counter())
                waiter = self.waiters.get(version)
                if waiter is not None:
                    waiter.set()
            elif line.startswith(b"data: ") and b'"type":"live"' not in line[:20]:
                self.sizes[version] = self.sizes.get(version, 0) + len(line)

    async def arrival(self, version: int, timeout: float = 120) -> float:
        if version not in self.seen:
            waiter = self.waiters.setdefault(version, asyncio.Event())
            await asyncio.wait_for(waiter.wait(), timeout)
        return self.seen[version]

    def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        if self.writer is not None:
            self.writer.close()


def opening(plies: int) -> list[str]:
    """``plies`` moves of International draughts picked at random (seeded) by the rules
    core, the game still going on after them, so that a game's event is that of a game in
    progress (its whole JSON grows with its moves)."""
    import random

    import damiera

    rng = random.Random(SEED)
    while True:
        game = damiera.Game("international")
        moves = []
        for _ in range(plies):
            legal = game.legal_moves
            if not legal or game.outcome() is not None:
                break
            move = rng.choice(legal)
            moves.append(str(move))
            game.play(str(move))
        if len(moves) == plies and game.outcome() is None:
            return moves


class Board:
    """A game between two people (httpx2 clients with their own cookies) and its newest
    legal moves (each move posted is the first legal one)."""

    def __init__(self, white: httpx2.AsyncClient, black: httpx2.AsyncClient, game: Any):
        self.white, self.black, self.id = white, black, str(game["id"])
        self.legal: list[str] = [m["move"] for m in game["legal_moves"]]
        self.turn = str(game["turn"])

    async def move(self) -> int:
        """Post the first legal move (by the side to move); returns the new version."""
        web = self.white if self.turn == "white" else self.black
        r = await web.post(f"/api/games/{self.id}/moves", json={"move": self.legal[0]})
        if r.status_code != 200:
            raise RuntimeError(r.text)
        game = r.json()
        self.legal = [m["move"] for m in game["legal_moves"]]
        self.turn = str(game["turn"])
        return int(game["version"])


async def new_game(base: str, moves: list[str]) -> Board:
    white = httpx2.AsyncClient(base_url=base, headers={"Origin": base}, timeout=120,
                              trust_env=False, follow_redirects=True)
    black = httpx2.AsyncClient(base_url=base, headers={"Origin": base}, timeout=120,
                              trust_env=False, follow_redirects=True)
    r = await white.post("/api/games", json={"variant": "international", "moves": moves,
                                             "opponent": "online", "side": "white"})
    game = r.json()
    await black.get(game["invite_url"])
    return Board(white, black, (await white.get(f"/api/games/{game['id']}")).json())


async def one_setup(port: int, pid: int, games: int, per_game: int, moves: int,
                    before: list[str]) -> dict[str, Any]:
    base = f"http://127.0.0.1:{port}"
    boards = [await new_game(base, before) for _ in range(games)]
    await asyncio.sleep(0.5)
    before = rss_kb(pid)
    watchers: list[list[Watcher]] = []
    for board in boards:
        group = [Watcher() for _ in range(per_game)]
        for w in group:
            await w.open(port, f"/api/games/{board.id}/events")
        watchers.append(group)
    await asyncio.sleep(1.0)
    streams = games * per_game
    after = rss_kb(pid)
    async with httpx2.AsyncClient(base_url=base, trust_env=False) as probe:
        q0 = (await probe.get("/_bench/queries")).json()["queries"]
        delays: list[float] = []
        sizes: list[int] = []
        for _n in range(moves):
            async def move(i: int) -> list[float]:
                sent = time.perf_counter()
                version = await boards[i].move()
                arrivals = await asyncio.gather(*(w.arrival(version) for w in watchers[i]))
                sizes.extend(w.sizes.get(version, 0) for w in watchers[i])
                return [(t - sent) * 1000 for t in arrivals]
            for result in await asyncio.gather(*(move(i) for i in range(games))):
                delays.extend(result)
        q1 = (await probe.get("/_bench/queries")).json()["queries"]
    for group in watchers:
        for w in group:
            w.close()
    for board in boards:
        await board.white.aclose()
        await board.black.aclose()
    delays.sort()
    return {
        "median_ms": statistics.median(delays),
        "p95_ms": delays[int(0.95 * (len(delays) - 1))],
        "kb_per_stream": (after - before) / streams,
        "queries_per_move": (q1 - q0) / (moves * games),
        "kb_per_event": statistics.mean(sizes) / 1024,
        "deliveries": len(delays),
    }


def start_server(database_url: str, redis_url: str | None) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", SERVER, database_url, redis_url or ""],
                            stdout=subprocess.PIPE, text=True)
    return proc


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--watchers", type=int, nargs="*", default=[100, 500, 1000])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--per-game", type=int, default=5)
    parser.add_argument("--moves", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--plies-before", type=int, default=0,
                        help="plies each game has before the watchers come (0: a new game)")
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--redis-url", default=None)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    setups = [(1, n, args.moves) for n in args.watchers]
    if args.games:
        setups.append((args.games, args.per_game, args.rounds))
    before = opening(args.plies_before)
    rows = []
    for games, per_game, moves in setups:
        runs = []
        for _run in range(args.runs):
            folder = tempfile.mkdtemp(prefix="damiera-live-bench-")
            url = args.database_url or f"sqlite:///{folder}/games.sqlite3"
            proc = start_server(url, args.redis_url)
            try:
                assert proc.stdout is not None
                port = int(proc.stdout.readline())
                load = os.getloadavg()[0]
                runs.append({**asyncio.run(one_setup(port, proc.pid, games, per_game, moves,
                                                     before)), "load": load})
                print(json.dumps({"run": runs[-1]}), file=sys.stderr, flush=True)
            finally:
                proc.terminate()
                proc.wait(30)
        row = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        row.update(games=games, per_game=per_game, moves=moves)
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
    print("| games x watchers | moves each | delay median (ms) | delay p95 (ms) | "
          "event at a watcher (KB) | memory per stream (KB) | DB statements per move | "
          "load average |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['games']} x {r['per_game']} | {r['moves']} | {r['median_ms']:.1f} | "
              f"{r['p95_ms']:.1f} | {r['kb_per_event']:.1f} | {r['kb_per_stream']:.1f} | "
              f"{r['queries_per_move']:.1f} | {r['load']:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
