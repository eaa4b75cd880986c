"""The flood of half-open connections for ``benchmarks/limits_bench.py --flood proxy|bare``
(see that file's docstring): the site started bare or behind the shipped nginx, a flood
process, and the other client's measurements."""

from __future__ import annotations

import asyncio
import collections
import multiprocessing
import os
import resource
import ssl
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.api_bench import _free_port, _pct

HALF_HEAD = b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: "


def _raise_fd_limit(needed: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(needed, hard), hard))


async def _hold(port: int, tls: ssl.SSLContext | None, until: list[float],
                counts: collections.Counter[str], opened: asyncio.Event, total: int) -> None:
    """One connection of the flood, opened again whenever the server closes it, until the
    time in ``until[0]``."""
    first = True
    while time.monotonic() < until[0]:
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, ssl=tls, server_hostname="localhost" if tls else None,
                local_addr=("127.0.0.1", 0))
        except OSError:
            counts["connection failed"] += 1
            await asyncio.sleep(0.1)
            continue
        counts["opened"] += 1
        if first:
            first = False
            counts["held"] += 1
            if counts["held"] >= total:
                opened.set()
        try:
            writer.write(HALF_HEAD)
            await writer.drain()
            answer = b"..."
            while answer == b"..." and time.monotonic() < until[0]:
                try:
                    answer = await asyncio.wait_for(reader.read(64), 0.5)
                except TimeoutError:
                    pass
            if answer == b"...":
                continue                           # still open at the end
            counts["answered 429" if answer.startswith(b"HTTP/1.1 429") else
                   "closed by the server" if not answer else "answered otherwise"] += 1
        except OSError:
            counts["closed by the server"] += 1
        finally:
            writer.close()
        if not first:
            await asyncio.sleep(0.05)              # then open it again


def _flood(port: int, certificate: str | None, connections: int, seconds: float,
           ready: Any, results: Any) -> None:
    """The flood process: ``connections`` held for ``seconds``; sets ``ready`` once all were
    opened, puts its counts on ``results`` at the end."""
    _raise_fd_limit(2 * connections + 200)

    async def main() -> collections.Counter[str]:
        tls = ssl.create_default_context(cafile=certificate) if certificate else None
        counts: collections.Counter[str] = collections.Counter()
        opened = asyncio.Event()
        until = [time.monotonic() + 600]
        tasks = []
        for _ in range(connections):
            tasks.append(asyncio.ensure_future(_hold(port, tls, until, counts, opened,
                                                     connections)))
            await asyncio.sleep(0)
        await opened.wait()
        ready.set()
        until[0] = time.monotonic() + seconds      # the other client's time, and a second
        await asyncio.gather(*tasks)
        return counts

    results.put(dict(asyncio.run(main())))


async def _client(base: str, certificate: str | None, until: float,
                  record: dict[str, list[tuple[int | str, float]]]) -> None:
    """The other client, from 127.0.0.2: a friend game, then reads in a loop, ten a second
    (a person's page makes fewer; the proxy allows one address 20 a second after a burst)."""
    transport = httpx2.AsyncHTTPTransport(local_address="127.0.0.2",
                                         verify=ssl.create_default_context(cafile=certificate)
                                         if certificate else True)
    async with httpx2.AsyncClient(base_url=base, transport=transport, timeout=60) as c:
        gid = "none"                  # a game id that does not exist (404) if none is made
        for _ in range(50):
            r = await c.post("/api/games", json={"variant": "italian", "opponent": "friend"})
            if r.status_code == 201:
                gid = r.json()["id"]
                break
            await asyncio.sleep(0.1)
        t = time.perf_counter()
        while time.perf_counter() < until:
            for name, path in (("GET /api/variants", "/api/variants"),
                               ("GET /api/games/{id}", f"/api/games/{gid}")):
                await asyncio.sleep(max(0.0, t + 0.1 - time.perf_counter()) if record else 0)
                t = time.perf_counter()
                try:
                    status: int | str = (await c.get(path)).status_code
                except httpx2.HTTPError as exc:
                    status = type(exc).__name__
                record[name].append((status, (time.perf_counter() - t) * 1000))


def _wait_for_socket(path: Path, proc: subprocess.Popen[bytes]) -> None:
    for _ in range(600):
        if path.exists():
            return
        if proc.poll() is not None:
            raise SystemExit("damiera serve did not start")
        time.sleep(0.1)
    raise SystemExit("damiera serve did not start")


def run_flood_bench(mode: str, connections: int, seconds: float) -> None:
    """Run the flood benchmark (``mode``: "proxy", "bare", or "bare-uncapped": the bare
    server without its per-address cap, as it was before it) and print its table."""
    from tests.services.nginx import Nginx

    _raise_fd_limit(2 * connections + 500)
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DAMIERA_DATABASE_URL": f"sqlite:///{Path(tmp) / 'b.sqlite3'}"}
        proxy: Nginx | None = None
        if mode == "proxy":
            sock = Path(tmp) / "web.sock"
            command = ["serve", "--uds", str(sock)]
        else:
            port = _free_port()
            command = ["serve", "--port", str(port)]
            if mode == "bare-uncapped":          # as before the per-address cap
                command += ["--connections-per-address", "0"]
        proc = subprocess.Popen([sys.executable, "-m", "damiera.cli", *command], env=env,
                                stdout=subprocess.DEVNULL)
        try:
            if mode == "proxy":
                _wait_for_socket(sock, proc)
                proxy = Nginx(str(sock))
                port, certificate = proxy.https_port, str(proxy.certificate)
                base = f"https://localhost:{port}"
            else:
                certificate = None
                base = f"http://127.0.0.1:{port}"
                for _ in range(200):
                    try:
                        httpx2.get(f"{base}/api/variants", timeout=1)
                        break
                    except httpx2.HTTPError:
                        time.sleep(0.1)
            context = multiprocessing.get_context("spawn")
            ready, results = context.Event(), context.Queue()
            flood_seconds = seconds + 1
            flood = context.Process(target=_flood, args=(port, certificate, connections,
                                                         flood_seconds, ready, results))
            started = time.perf_counter()
            flood.start()
            if not ready.wait(120):
                raise SystemExit("the flood could not open its connections")
            opened_in = time.perf_counter() - started
            record: dict[str, list[tuple[int | str, float]]] = collections.defaultdict(list)
            asyncio.run(_client(base, certificate, time.perf_counter() + seconds, record))
            counts: dict[str, int] = results.get(timeout=120)
            flood.join(30)
        finally:
            if proxy is not None:
                proxy.stop()
            proc.terminate()
            proc.wait(timeout=60)
    load = os.getloadavg()[0]
    where = {"proxy": "through nginx (deploy/nginx/, TLS)", "bare": "bare damiera serve",
             "bare-uncapped": "bare damiera serve --connections-per-address 0"}[mode]
    print(f"{connections} half-open connections from 127.0.0.1 ({where}), all opened in "
          f"{opened_in:.1f} s, each opened again when closed; another client from 127.0.0.2 for {seconds:g} s; "
          f"load average {load:.1f}\n")
    print("The flood's connections: " + ", ".join(f"{k} {v}" for k, v in sorted(
        counts.items())) + "\n")
    print("| request (other client) | answers (status: count) | 2xx | median ms | p95 ms | "
          "max ms |")
    print("|---|---|---:|---:|---:|---:|")
    for name, rows in record.items():
        codes = collections.Counter(s for s, _ in rows)
        times = [t for _, t in rows]
        ok = sum(n for s, n in codes.items() if isinstance(s, int) and 200 <= s < 300)
        shown = ", ".join(f"{c}: {n}" for c, n in sorted(codes.items(), key=str))
        print(f"| {name} | {shown} | {100 * ok / len(rows):.1f}% | {_pct(times, 0.5):.0f} | "
              f"{_pct(times, 0.95):.0f} | {max(times):.0f} |")
