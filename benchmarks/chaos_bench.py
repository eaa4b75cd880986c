"""The site under faults: 20 clients playing the computer while its processes and servers are
killed and restarted (the outside audit's scenario).

    .venv/bin/python benchmarks/chaos_bench.py [--seconds 80]

Starts a throw-away PostgreSQL cluster and Redis server (Unix sockets, as the tests start
them; Redis saves nothing, so its restart loses its data), ``damiera serve --workers 2
--port 0`` on them and ``damiera worker --processes 2``. 20 clients play Italian games
against levels 1, 2 and 3 (seven, seven and six of them), a random legal move at a time, as
the page does: a move that fails is looked at again (``GET``) and, when the computer's
reply is missing, asked for with ``POST /reply``; a new game after 60 plies or the end.
During the run, at fixed times:

- kill -9 of one engine process of ``damiera worker``, the one using the most CPU (so it is
  searching; the time until its replacement says it is ready, and whether the supervisor
  handed its job back to the queue, are read from the worker's log);
- kill -9 of one web process (Uvicorn replaces it);
- a PostgreSQL restart (``pg_ctl restart -m fast``; its length is measured);
- a Redis restart (down 1 s; back empty).

Then the clients stop, and after the pending-move lease (15 s) every game is read once:

- acknowledged moves lost: a move the site answered 200 for (or 503 with ``move_stored``)
  that is not in the game's history at its place (must be 0);
- games left thinking (must be 0);
- failed requests by cause (status and the error's first words, or the connection error),
  and when they happened relative to the faults;
- the longest wait: the longest single request, and the longest time a client waited from
  sending a move until the computer's reply was in the game (retries included); and, for
  the moves under way when the engine process was killed, how long after the kill the
  reply came.

Prints a Markdown report; traffic stays on this machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.api_bench import _pct

MAX_PLIES = 60
CLIENTS = 20


@dataclass
class Sink:
    """What the clients saw."""

    start: float = field(default_factory=time.monotonic)
    #: (game id, ply index, move text) of every acknowledged human move.
    acknowledged: list[tuple[str, int, str]] = field(default_factory=list)
    games: set[str] = field(default_factory=set)
    failures: Counter[str] = field(default_factory=Counter)
    failure_times: list[tuple[float, str]] = field(default_factory=list)
    requests: int = 0
    longest_request: float = 0.0
    longest_reply: float = 0.0
    replies: list[float] = field(default_factory=list)
    #: (sent, answered) monotonic times of every move until the computer's reply.
    spans: list[tuple[float, float]] = field(default_factory=list)

    def fail(self, cause: str) -> None:
        self.failures[cause] += 1
        self.failure_times.append((time.monotonic() - self.start, cause))


def _cause(r: httpx2.Response) -> str:
    try:
        error = str(r.json().get("error", ""))
    except ValueError:
        error = r.text[:60]
    words = re.sub(r"[0-9a-zA-Z_-]{12}", "ID", error)[:70]
    return f"{r.status_code} {words}"


async def _send(c: httpx2.AsyncClient, sink: Sink, method: str, path: str,
                **kwargs: Any) -> httpx2.Response | None:
    t = time.monotonic()
    sink.requests += 1
    try:
        r = await c.request(method, path, **kwargs)
    except httpx2.HTTPError as exc:
        sink.fail(f"connection: {type(exc).__name__}")
        return None
    finally:
        sink.longest_request = max(sink.longest_request, time.monotonic() - t)
    if r.status_code >= 400:
        sink.fail(_cause(r))
    return r


async def _settle(c: httpx2.AsyncClient, sink: Sink, gid: str, until: float) -> dict[str, Any]:
    """The game once the computer's reply is in (asking for it when it is missing)."""
    while True:
        r = await _send(c, sink, "GET", f"/api/games/{gid}")
        if r is not None and r.status_code == 200:
            game: dict[str, Any] = r.json()
            mine = game["turn"] != game["computer_side"] or game["result"]
            if mine:
                return game
            if not game["thinking"]:
                r = await _send(c, sink, "POST", f"/api/games/{gid}/reply")
                if r is not None and r.status_code == 200:
                    return dict(r.json())
        if time.monotonic() > until + 120:
            raise RuntimeError(f"game {gid} never got its reply")
        await asyncio.sleep(0.5)


async def _client(base: str, level: int, until: float, sink: Sink, rng: random.Random) -> None:
    async with httpx2.AsyncClient(base_url=base, timeout=300) as c:
        game: dict[str, Any] | None = None
        while time.monotonic() < until:
            if game is None or game["result"] or len(game["history"]) >= MAX_PLIES:
                r = await _send(c, sink, "POST", "/api/games", json={
                    "variant": "italian", "opponent": "computer", "level": level,
                    "side": "white"})
                if r is None or r.status_code != 201:
                    await asyncio.sleep(0.5)
                    continue
                game = r.json()
                sink.games.add(game["id"])
                continue
            gid = game["id"]
            move = rng.choice(game["legal_moves"])["move"]
            ply = len(game["history"])
            sent = time.monotonic()
            r = await _send(c, sink, "POST", f"/api/games/{gid}/moves", json={"move": move})
            if r is not None and r.status_code == 200:
                sink.acknowledged.append((gid, ply, move))
                game = r.json()
            else:
                stored = r is not None and r.status_code == 503 and r.json().get("move_stored")
                if stored:
                    sink.acknowledged.append((gid, ply, move))
                game = await _settle(c, sink, gid, until)
            waited = time.monotonic() - sent
            sink.spans.append((sent, sent + waited))
            sink.replies.append(waited)
            sink.longest_reply = max(sink.longest_reply, waited)


class _Log:
    """Lines of a process's output with the time each arrived."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.lines: list[tuple[float, str]] = []
        threading.Thread(target=self._read, args=(proc,), daemon=True).start()

    def _read(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self.lines.append((time.monotonic(), line.rstrip("\n")))


def _children(pid: int, marker: str | None = None) -> list[int]:
    """Live child processes of ``pid`` (with ``marker`` in their command line)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_text()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z" and (marker is None or marker in cmdline):
            found.append(int(stat.parent.name))
    return sorted(found)


def _cpu_ticks(pid: int) -> int:
    """User and system clock ticks ``pid`` has used (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


async def _busiest(pids: list[int], seconds: float = 0.5) -> int:
    """The one of ``pids`` that used the most CPU over ``seconds``."""
    before = {pid: _cpu_ticks(pid) for pid in pids}
    await asyncio.sleep(seconds)
    return max(pids, key=lambda pid: _cpu_ticks(pid) - before[pid])


def _start(args: list[str], first_words: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([sys.executable, "-m", "damiera", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if first_words not in line:
        proc.kill()
        raise SystemExit(f"damiera {args[0]} did not start: {line}")
    return proc, line


async def _faults(times: dict[str, float], start: float, worker: subprocess.Popen[str],
                  worker_log: _Log, web: subprocess.Popen[str], cluster: Any,
                  redis_server: Any, events: dict[str, Any]) -> None:
    async def at(name: str) -> None:
        await asyncio.sleep(max(0.0, start + times[name] - time.monotonic()))

    await at("worker")
    victim = await _busiest(_children(worker.pid))
    killed = time.monotonic()
    os.kill(victim, signal.SIGKILL)
    events["worker killed"] = (killed - start, victim)
    await at("web")
    web_victim = _children(web.pid, "spawn_main")[0]
    os.kill(web_victim, signal.SIGKILL)
    events["web process killed"] = (time.monotonic() - start, web_victim)
    await at("postgresql")
    t = time.monotonic()
    await asyncio.to_thread(cluster.restart)
    events["postgresql restart"] = (t - start, time.monotonic() - t)
    await at("redis")
    t = time.monotonic()
    await asyncio.to_thread(redis_server.restart, 1.0)
    events["redis restart"] = (t - start, time.monotonic() - t)
    ready = [w for w, line in worker_log.lines
             if w > killed and "engine process ready" in line and str(victim) not in line]
    events["worker replaced after"] = ready[0] - killed if ready else None
    events["killed at"] = killed
    handed = [f"{w - killed:.2f} s after the kill: {line}" for w, line in worker_log.lines
              if w > killed and "handed back" in line]
    events["job handed back"] = handed[0] if handed else None


async def _run(base: str, seconds: float, worker: subprocess.Popen[str], worker_log: _Log,
               web: subprocess.Popen[str], cluster: Any, redis_server: Any) -> tuple[
                   Sink, dict[str, Any]]:
    sink = Sink()
    events: dict[str, Any] = {}
    times = {"worker": 0.15 * seconds, "web": 0.35 * seconds, "postgresql": 0.55 * seconds,
             "redis": 0.75 * seconds}
    until = sink.start + seconds
    rng = random.Random(32)
    levels = [1 + i % 3 for i in range(CLIENTS)]
    await asyncio.gather(
        _faults(times, sink.start, worker, worker_log, web, cluster, redis_server, events),
        *(_client(base, level, until, sink, random.Random(rng.random())) for level in levels))
    return sink, events


async def _check(base: str, sink: Sink) -> tuple[int, int, int]:
    """(acknowledged moves lost, games left thinking, games read) after the lease."""
    histories: dict[str, list[str]] = {}
    stuck = 0
    async with httpx2.AsyncClient(base_url=base, timeout=120) as c:
        for gid in sorted(sink.games):
            r = await c.get(f"/api/games/{gid}")
            game = r.json()
            histories[gid] = game["history"]
            stuck += bool(game["thinking"])
    lost = sum(1 for gid, ply, move in sink.acknowledged
               if len(histories[gid]) <= ply or histories[gid][ply] != move)
    return lost, stuck, len(histories)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=80.0)
    args = parser.parse_args()
    from tests.services.postgres import Cluster, postgres_bin
    from tests.services.redis import RedisServer

    bindir, program = postgres_bin(), shutil.which("redis-server")
    if bindir is None or program is None:
        raise SystemExit("needs Debian's postgresql and redis-server (make test installs them)")
    cluster = Cluster(bindir)
    cluster.start()
    redis_server = RedisServer(program)
    try:
        database = cluster.new_database()
        web, line = _start(["serve", "--workers", "2", "--port", "0", "--database-url",
                            database, "--redis-url", redis_server.url, "--create-burst", "1000",
                            "--computer-per-client", "100"], "Damiera: http://")
        found = re.search(r"http://[^/\s]+", line)
        assert found is not None
        base = found.group(0)
        worker, _ = _start(["worker", "--redis-url", redis_server.url, "--processes", "2"],
                           "Damiera engine worker")
        worker_log = _Log(worker)
        try:
            while len(_children(web.pid, "spawn_main")) < 2 or len(_children(worker.pid)) < 2:
                time.sleep(0.1)
            load = os.getloadavg()[0]
            sink, events = asyncio.run(_run(base, args.seconds, worker, worker_log, web,
                                            cluster, redis_server))
            time.sleep(16)                     # the pending-move lease runs out
            lost, stuck, read = asyncio.run(_check(base, sink))
        finally:
            for proc in (web, worker):
                proc.terminate()
                try:
                    proc.wait(60)
                except subprocess.TimeoutExpired:
                    proc.kill()
    finally:
        redis_server.stop()
        cluster.stop()
    print(f"{CLIENTS} clients (levels 1-3) for {args.seconds:g} s on serve --workers 2 + worker "
          f"--processes 2, PostgreSQL + Redis; load average {load:.1f} at the start\n")
    for name, value in events.items():
        if name != "killed at":
            print(f"- {name}: {value}")
    print(f"\n| measure | value |\n|---|---|\n| requests | {sink.requests} |")
    print(f"| acknowledged moves | {len(sink.acknowledged)} |")
    print(f"| acknowledged moves lost | {lost} |")
    print(f"| games | {read} |\n| games left thinking | {stuck} |")
    print(f"| failed requests | {sum(sink.failures.values())} |")
    print(f"| longest request | {sink.longest_request:.1f} s |")
    print(f"| move until the computer's reply: median / p95 / longest | "
          f"{_pct(sink.replies, 0.5):.2f} / {_pct(sink.replies, 0.95):.2f} / "
          f"{sink.longest_reply:.1f} s |")
    killed = events.pop("killed at")
    spanning = [end - killed for sent, end in sink.spans if sent < killed < end]
    print(f"| moves under way at the engine process's kill: replied after the kill | "
          f"{', '.join(f'{t:.1f}' for t in sorted(spanning)) or 'none'} s |")
    replaced = events.get("worker replaced after")
    print(f"| killed engine process replaced (ready) after | "
          f"{'never' if replaced is None else f'{replaced:.1f} s'} |")
    print("\nFailed requests by cause (time: seconds from the start):\n")
    for cause, count in sink.failures.most_common():
        when = [f"{t:.0f}" for t, c in sink.failure_times if c == cause]
        print(f"- {count} x {cause} (at {', '.join(sorted(set(when), key=float))} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
