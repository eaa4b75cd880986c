"""Hub engine: how long after ``stop`` the ``done`` line comes. By hand:

    .venv/bin/python benchmarks/hub_bench.py [--rounds 10] [--analyse 1.0] [--variant ID]

Starts ``damiera hub`` as a subprocess (as a GUI does), and per round: ``pos`` (the start
position, or a middlegame after a few moves), ``level infinite``, ``go analyze``, waits
``--analyse`` seconds, sends ``ping`` and times the ``pong``, sends ``stop`` and times the
``done``. Times are from writing the command to reading the answer, as the GUI sees them.
Prints a Markdown table (median and worst, milliseconds) and the deepest iteration reached.
Results are kept in ``benchmarks/hub_results.md``.
"""

from __future__ import annotations

import argparse
import queue
import statistics
import subprocess
import sys
import threading
import time

from damiera.engine.hub_protocol import parse_line, position_string
from damiera.rules.position import start_position
from damiera.rules.variant import variant


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--analyse", type=float, default=1.0, help="seconds before stop")
    ap.add_argument("--variant", default="international")
    args = ap.parse_args()
    v = variant(args.variant)
    proc = subprocess.Popen([sys.executable, "-m", "damiera", "hub"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, bufsize=1)
    assert proc.stdin is not None and proc.stdout is not None
    lines: queue.Queue[tuple[float, str]] = queue.Queue()
    out = proc.stdout

    def reader() -> None:
        for line in out:
            lines.put((time.perf_counter(), line.strip()))

    threading.Thread(target=reader, daemon=True).start()

    def send(text: str) -> float:
        assert proc.stdin is not None
        proc.stdin.write(text + "\n")
        proc.stdin.flush()
        return time.perf_counter()

    def until(prefix: str) -> tuple[float, list[str]]:
        seen = []
        while True:
            at, line = lines.get(timeout=600)
            seen.append(line)
            if line.startswith(prefix):
                return at, seen

    name = "normal" if v.id == "international" else v.id
    send(f"set-param name=variant value={name}")
    send(f"pos pos={position_string(v, start_position(v))}")
    send("level infinite")
    pongs: list[float] = []
    stops: list[float] = []
    depths: list[int] = []
    for _ in range(args.rounds):
        send("new-game")
        send(f"pos pos={position_string(v, start_position(v))}")
        send("go analyze")
        time.sleep(args.analyse)
        sent = send("ping")
        at, seen = until("pong")
        pongs.append(at - sent)
        sent = send("stop")
        at, more = until("done")
        stops.append(at - sent)
        seen += more
        infos = [line for line in seen if line.startswith("info ")]
        if infos:
            depths.append(int(parse_line(infos[-1])[1]["depth"]))
    send("quit")
    proc.wait(60)

    def row(what: str, xs: list[float]) -> str:
        return (f"| {what} | {statistics.median(xs) * 1000:.1f} | {max(xs) * 1000:.1f} "
                f"| {len(xs)} |")

    print(f"{v.name}, go analyze from the start, stop after {args.analyse:g} s "
          f"(depths reached {min(depths, default=0)}-{max(depths, default=0)})\n")
    print("| answer | median ms | worst ms | rounds |\n|---|---|---|---|")
    print(row("ping -> pong (while searching)", pongs))
    print(row("stop -> done", stops))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
