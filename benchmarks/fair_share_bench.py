"""One address against everyone else: the audit's three floods of the expensive work, and
what a visitor at another address gets meanwhile. Run by hand:

    .venv/bin/python benchmarks/fair_share_bench.py [--streams 100] [--reviews 65]
        [--rounds 5] [--import-seconds 30]

It starts ``damiera serve --port 0`` with a fresh SQLite file (searches in its own processes)
and stops it at the end. The benchmark talks to it as the site's trusted proxy on the same
machine would, naming each client in ``X-Forwarded-For``: the attacker is 203.0.113.5 and
sends a new random ``damiera_player`` cookie with every request, the visitor is
198.51.100.7.

- Analysis: the attacker opens ``--streams`` analysis streams of the International start
  position at once (multipv 3) and keeps those accepted open; then the visitor opens one.
  Measured: the attacker's answers by status, and the seconds until the visitor's first
  line of analysis (median and worst of ``--rounds`` rounds).
- Reviews: the visitor asks for a review, then the attacker asks for ``--reviews`` more;
  measured: the attacker's answers by status and the visitor's review afterwards (200, not
  404).
- Imports: for ``--import-seconds`` the attacker sends 1 MB PDN files, two at a time, as fast
  as the site answers; meanwhile the visitor imports a small file every 1.5 s. Measured: both
  sides' answers by status and the visitor's median and 95th percentile time.

Traffic goes only to the loopback address; every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2

sys.path.insert(0, str(Path(__file__).parent))
from api_bench import _pct

ATTACKER = "203.0.113.5"
VISITOR = "198.51.100.7"
STREAM = "/api/analysis/stream?variant=international&multipv=3"
GAME = '[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14 4. 41-37 5-10 *\n\n'
BIG_PDN = GAME * (1024 * 1024 // len(GAME) - 1)


def _as(address: str) -> dict[str, str]:
    return {"x-forwarded-for": address,
            "cookie": f"damiera_player={secrets.token_urlsafe(16)}"}


async def _analysis_round(http: httpx2.AsyncClient, streams: int) -> tuple[
        collections.Counter[int], float]:
    """One round: the attacker's statuses and the visitor's seconds to its first data."""
    opened: list[httpx2.Response] = []

    async def attack() -> int:
        r = await http.send(http.build_request("GET", STREAM, headers=_as(ATTACKER)),
                            stream=True)
        opened.append(r)
        return r.status_code

    statuses = collections.Counter(await asyncio.gather(*(attack() for _ in range(streams))))
    start = time.perf_counter()
    visitor = await http.send(http.build_request("GET", STREAM, headers=_as(VISITOR)),
                              stream=True)
    opened.append(visitor)
    waited = float("inf")
    try:
        async with asyncio.timeout(120):
            async for line in visitor.aiter_lines():
                if line.startswith("data:"):
                    waited = time.perf_counter() - start
                    break
    except TimeoutError:
        pass
    for r in opened:
        await r.aclose()
    await asyncio.sleep(1.0)        # the server sees the streams close and ends their searches
    return statuses, waited


async def _reviews(http: httpx2.AsyncClient, count: int) -> tuple[int, collections.Counter[int],
                                                                 int]:
    body = {"variant": "international", "moves": ["32-28", "19-23", "28x19", "14x23"]}
    mine = await http.post("/api/analysis/reviews", json=body, headers=_as(VISITOR))
    statuses: collections.Counter[int] = collections.Counter()
    for _ in range(count):
        r = await http.post("/api/analysis/reviews", json=body, headers=_as(ATTACKER))
        statuses[r.status_code] += 1
    after = await http.get(f"/api/analysis/reviews/{mine.json()['id']}")
    return mine.status_code, statuses, after.status_code


async def _imports(http: httpx2.AsyncClient, seconds: float) -> dict[str, Any]:
    end = time.monotonic() + seconds
    attacker: collections.Counter[int] = collections.Counter()
    visitor: collections.Counter[int] = collections.Counter()
    times: list[float] = []

    async def flood() -> None:
        while time.monotonic() < end:
            r = await http.post("/api/pdn/import", json={"pdn": BIG_PDN},
                                headers=_as(ATTACKER))
            attacker[r.status_code] += 1
            if r.status_code == 429:
                await asyncio.sleep(float(r.headers.get("retry-after", "1")))

    async def visit() -> None:
        while time.monotonic() < end:
            t = time.perf_counter()
            r = await http.post("/api/pdn/import", json={"pdn": GAME}, headers=_as(VISITOR))
            times.append(time.perf_counter() - t)
            visitor[r.status_code] += 1
            await asyncio.sleep(1.5)

    await asyncio.gather(flood(), flood(), visit())
    return {"attacker": attacker, "visitor": visitor,
            "median": statistics.median(times), "p95": _pct(times, 0.95)}


async def _run(base: str, args: argparse.Namespace) -> None:
    limits = httpx2.Limits(max_connections=args.streams + 20)
    async with httpx2.AsyncClient(base_url=base, timeout=120, limits=limits) as http:
        waits = []
        for n in range(args.rounds):
            statuses, waited = await _analysis_round(http, args.streams)
            waits.append(waited)
            print(f"analysis round {n + 1}: attacker {dict(statuses)}, visitor's first line "
                  f"after {waited:.2f} s", flush=True)
        print(f"analysis: visitor's first line median {statistics.median(waits):.2f} s, "
              f"worst {max(waits):.2f} s over {args.rounds} rounds")
        first, statuses, after = await _reviews(http, args.reviews)
        print(f"reviews: visitor {first}, attacker {dict(statuses)}, visitor's review "
              f"afterwards {after}")
        result = await _imports(http, args.import_seconds)
        print(f"imports over {args.import_seconds:g} s: attacker {dict(result['attacker'])}, "
              f"visitor {dict(result['visitor'])}, visitor median "
              f"{1000 * result['median']:.0f} ms, p95 {1000 * result['p95']:.0f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=100)
    parser.add_argument("--reviews", type=int, default=65)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--import-seconds", type=float, default=30.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        proc = subprocess.Popen(
            [sys.executable, "-m", "damiera", "serve", "--port", "0", "--database-url",
             f"sqlite:///{tmp}/games.sqlite3"], stdout=subprocess.PIPE, text=True, env=env)
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            base = line.split()[1].rstrip("/")
            print(f"site: {base} ({os.cpu_count()} cores)", flush=True)
            asyncio.run(_run(base, args))
        finally:
            proc.terminate()
            proc.wait(60)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
