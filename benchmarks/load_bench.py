"""Load on N web processes x M engine workers on PostgreSQL + Redis.

    .venv/bin/python benchmarks/load_bench.py [--seconds 45] [--setups 1x1,2x1,1x2,2x2]
        [--database-url URL] [--redis-url URL]

For each setup ``NxM`` it starts ``damiera serve --workers N --port 0`` and ``damiera worker
--processes M`` on a fresh PostgreSQL database and a flushed Redis (without the URLs: a
throw-away PostgreSQL cluster and Redis server on Unix sockets, as the tests start them),
then runs for ``--seconds``:

- 50 clients each playing Italian games against level 1, one move after the other (a random
  legal move; a new game when one ends or reaches 80 plies);
- 10 clients doing the same against level 3 (each search takes the level's 2 seconds);
- 5 clients playing moves in games between two people (no search: the web + database cost of
  a move) and 1 client reading a game (``GET /api/games/{id}``) over and over.

Every client runs at the same time, from this process, on the loopback address. Measured as
the clients see it: computer moves per second (level 1 and level 3), the median and 95th
percentile latency of a level-1 move (its search included: a few milliseconds) and of a move
without any search (friend games), and the 95th percentile of the plain GET while the level-3
searches run. Searches run is read from the workers' counter in Redis. Prints a Markdown
table; the machine's load average is printed with it (the machine may be shared).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.api_bench import _pct

MAX_PLIES = 80


@dataclass
class Sink:
    """What the clients measured in one run."""

    moves: dict[str, int] = field(default_factory=lambda: {"1": 0, "3": 0, "friend": 0})
    latency: dict[str, list[float]] = field(
        default_factory=lambda: {"1": [], "3": [], "friend": [], "get": []})
    #: Answers other than 200/201 by status, and "closed" for a connection the server
    #: closed under the request (a keep-alive connection timed out as it was reused).
    errors: dict[int | str, int] = field(default_factory=dict)
    #: Computer moves answered (also after the run's end) that needed a search: more than
    #: one legal move (the workers' count of searches must equal it).
    searched: int = 0


def _needed_search(game: dict[str, Any]) -> bool:
    """Whether the computer's last move in ``game`` had to be searched (not forced)."""
    from damiera.rules.movegen import legal_moves
    from damiera.rules.position import parse_fen
    from damiera.rules.variant import variant

    v = variant(game["variant"], optional_capture=game["optional_capture"])
    return len(legal_moves(v, parse_fen(v, game["positions"][-2]))) > 1


def _start(args: list[str], first_words: str, env: dict[str, str]) -> tuple[Any, str]:
    proc = subprocess.Popen([sys.executable, "-m", "damiera", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env)
    line = proc.stdout.readline() if proc.stdout else ""
    if first_words not in line:
        proc.kill()
        raise RuntimeError(f"damiera {args[0]} did not start: {line.strip()}")
    return proc, line


def _stop(proc: Any) -> None:
    proc.terminate()
    try:
        proc.wait(60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


async def _client(web: httpx2.AsyncClient, base: str, level: str, until: float,
                  sink: Sink, rng: random.Random) -> None:
    """One player: games against ``level`` ("1", "3") or between friends, move after move;
    a connection closed under a request counts as an error and the player goes on."""
    while time.monotonic() < until:
        try:
            await _play(web, base, level, until, sink, rng)
        except httpx2.TransportError:
            sink.errors["closed"] = sink.errors.get("closed", 0) + 1


async def _play(web: httpx2.AsyncClient, base: str, level: str, until: float,
                sink: Sink, rng: random.Random) -> None:
    headers = {"Origin": base}
    body: dict[str, Any] = {"variant": "italian", "side": "white"}
    body.update({"opponent": "friend"} if level == "friend"
                else {"opponent": "computer", "level": int(level)})
    game: dict[str, Any] | None = None
    while time.monotonic() < until:
        if game is None or game["result"] or len(game["history"]) >= MAX_PLIES:
            r = await web.post(base + "/api/games", json=body, headers=headers)
            if r.status_code != 201:
                sink.errors[r.status_code] = sink.errors.get(r.status_code, 0) + 1
                await asyncio.sleep(0.5)
                continue
            game = r.json()
        assert game is not None
        move = rng.choice(game["legal_moves"])["move"]
        t = time.perf_counter()
        r = await web.post(f"{base}/api/games/{game['id']}/moves",
                           json={"move": move, "version": game["version"]}, headers=headers)
        took = (time.perf_counter() - t) * 1000
        if r.status_code != 200:
            sink.errors[r.status_code] = sink.errors.get(r.status_code, 0) + 1
            game = None
            continue
        before = len(game["history"])
        game = r.json()
        if len(game["history"]) == before + 2 and _needed_search(game):
            sink.searched += 1
        if time.monotonic() < until:   # moves that end after the run are not counted
            sink.moves[level] += 1
            sink.latency[level].append(took)


async def _reader(web: httpx2.AsyncClient, base: str, game_id: str, until: float,
                  sink: Sink) -> None:
    while time.monotonic() < until:
        t = time.perf_counter()
        try:
            r = await web.get(f"{base}/api/games/{game_id}")
        except httpx2.TransportError:
            sink.errors["closed"] = sink.errors.get("closed", 0) + 1
            continue
        took = (time.perf_counter() - t) * 1000
        if r.status_code == 200:
            sink.latency["get"].append(took)
        else:
            sink.errors[r.status_code] = sink.errors.get(r.status_code, 0) + 1
        await asyncio.sleep(0.05)


async def _load(base: str, seconds: float, seed: int) -> Sink:
    sink = Sink()
    rng = random.Random(seed)
    limits = httpx2.Limits(max_connections=100, max_keepalive_connections=100)
    async with httpx2.AsyncClient(timeout=120, trust_env=False, limits=limits) as web:
        r = await web.post(base + "/api/games", headers={"Origin": base},
                           json={"variant": "italian", "opponent": "friend"})
        r.raise_for_status()
        read_id = r.json()["id"]
        until = time.monotonic() + seconds
        tasks = [_client(web, base, "1", until, sink, random.Random(rng.random()))
                 for _ in range(50)]
        tasks += [_client(web, base, "3", until, sink, random.Random(rng.random()))
                  for _ in range(10)]
        tasks += [_client(web, base, "friend", until, sink, random.Random(rng.random()))
                  for _ in range(5)]
        tasks.append(_reader(web, base, read_id, until, sink))
        await asyncio.gather(*tasks)
    return sink


def _searches(redis_url: str) -> int:
    import redis

    from damiera.web.computer_jobs import SEARCHES_KEY

    client = redis.Redis.from_url(redis_url)
    try:
        value: Any = client.get(SEARCHES_KEY)
        return int(value or 0)
    finally:
        client.close()


def _flush(redis_url: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    client.close()


def run_setup(web: int, workers: int, database_url: str, redis_url: str,
              seconds: float) -> dict[str, Any]:
    """One setup measured (see the module docstring)."""
    _flush(redis_url)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    worker, _ = _start(["worker", "--redis-url", redis_url, "--processes", str(workers)],
                       "Damiera engine worker", env)
    try:
        server, line = _start(
            ["serve", "--port", "0", "--workers", str(web), "--database-url", database_url,
             "--redis-url", redis_url, "--create-burst", "100000", "--create-per-minute",
             "1000000", "--computer-per-client", "1000"], "Damiera: http://", env)
        try:
            found = re.search(r"http://[^/\s]+", line)
            assert found is not None
            load_before = os.getloadavg()[0]
            sink = asyncio.run(_load(found.group(0), seconds, seed=web * 10 + workers))
            load_after = os.getloadavg()[0]
        finally:
            _stop(server)
    finally:
        _stop(worker)
    lat = sink.latency
    return {
        "setup": f"{web} web x {workers} worker{'s' if workers > 1 else ''}",
        "l1_moves_s": sink.moves["1"] / seconds,
        "l3_moves_s": sink.moves["3"] / seconds,
        "l1_p50": _pct(lat["1"], 0.5) if lat["1"] else float("nan"),
        "l1_p95": _pct(lat["1"], 0.95) if lat["1"] else float("nan"),
        "friend_p50": _pct(lat["friend"], 0.5) if lat["friend"] else float("nan"),
        "friend_p95": _pct(lat["friend"], 0.95) if lat["friend"] else float("nan"),
        "get_p95": _pct(lat["get"], 0.95) if lat["get"] else float("nan"),
        "searches": _searches(redis_url),
        "searched": sink.searched,
        "errors": dict(sorted(sink.errors.items(), key=str)),
        "load": f"{load_before:.1f} / {load_after:.1f}",
    }


def _servers(args: argparse.Namespace) -> tuple[Any, Any]:
    """The PostgreSQL cluster and Redis server to use (throw-away ones unless given)."""
    cluster = redis_server = None
    if not args.database_url:
        from tests.services.postgres import Cluster, postgres_bin

        bindir = postgres_bin()
        if bindir is None:
            raise SystemExit("PostgreSQL is not installed: give --database-url")
        cluster = Cluster(bindir)
        cluster.start()
    if not args.redis_url:
        import shutil

        from tests.services.redis import RedisServer

        program = shutil.which("redis-server")
        if program is None:
            raise SystemExit("redis-server is not installed: give --redis-url")
        redis_server = RedisServer(program)
    return cluster, redis_server


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=45.0)
    parser.add_argument("--setups", default="1x1,2x1,1x2,2x2",
                        help="web processes x engine workers, comma-separated")
    parser.add_argument("--database-url", default=None,
                        help="an empty PostgreSQL database (default: a throw-away cluster)")
    parser.add_argument("--redis-url", default=None,
                        help="a Redis server whose data may be flushed (default: a "
                        "throw-away server)")
    args = parser.parse_args()
    setups = [tuple(int(n) for n in s.split("x")) for s in args.setups.split(",")]
    cluster, redis_server = _servers(args)
    try:
        rows = []
        for web, workers in setups:
            database = args.database_url or cluster.new_database()
            redis_url = args.redis_url or redis_server.url
            row = run_setup(web, workers, database, redis_url, args.seconds)
            rows.append(row)
            print(row, flush=True)
    finally:
        if cluster is not None:
            cluster.stop()
        if redis_server is not None:
            redis_server.stop()
    print(f"\n{os.cpu_count()} cores; {args.seconds:g} s a setup; 50 level-1 + 10 level-3 "
          "clients, 5 friend-game clients, 1 reader\n")
    print("| setup | level-1 moves/s | level-3 moves/s | level-1 move p50 / p95 ms | "
          "move without search p50 / p95 ms | GET p95 ms | searches (needed) | errors | load avg "
          "before / after |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['setup']} | {r['l1_moves_s']:.1f} | {r['l3_moves_s']:.2f} | "
              f"{r['l1_p50']:.0f} / {r['l1_p95']:.0f} | {r['friend_p50']:.0f} / "
              f"{r['friend_p95']:.0f} | {r['get_p95']:.0f} | {r['searches']} ({r['searched']}) | "
              f"{r['errors'] or 'none'} | {r['load']} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
