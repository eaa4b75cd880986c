"""Perft speed: Damiera's move generator against the py-draughts package, side by side.

Run with ``make bench`` (or ``.venv/bin/python benchmarks/perft_bench.py [--runs N]``).

For every variant, perft from the start position at a fixed depth (both programs count the
same way: bulk counting at the last ply, equal captures once). py-draughts (PyPI
``py-draughts``, import name ``draughts``) is installed by this script into its own virtual
environment (``.bench-venv/``) and measured in a child process on International, Russian and
Brazilian -- its American board makes captures optional, so its American counts are wrong
and it is left out. Two py-draughts figures are given for International: its public board API
(``legal_moves`` / ``push`` / ``pop``) and its internal International-only bitboard perft
(``draughts.engines.turbo.perft``).

"ours" is the installed native rules core (``damiera._core`` through
:func:`damiera.rules.movegen.perft`), timed in this process at the same depth as py-draughts;
every run repeats the perft until it has taken at least 0.2 s, so that the short 8x8 counts
are timed too. "ours deeper" runs one ply deeper (International 7, 8x8 8): more leaves per
interior node, as in a real search.

Each figure is the median of ``--runs`` runs (default 5) on this machine; both programs run in
the same invocation, one after the other.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
import venv
from pathlib import Path

from damiera.rules.movegen import perft
from damiera.rules.position import start_position
from damiera.rules.variant import VARIANTS, variant

ROOT = Path(__file__).resolve().parent.parent
BENCH_VENV = ROOT / ".bench-venv"
#: The py-draughts release every peer measurement uses.
PEER_VERSION = "1.10.1"
DEPTHS = {"international": 6}
DEPTH_8X8 = 7
PEER_VARIANTS = ("international", "russian", "brazilian")

#: Run in the py-draughts virtual environment; prints one JSON object of timings.
PEER_SCRIPT = r"""
import json, sys, time, statistics
from draughts import StandardBoard, RussianBoard, BrazilianBoard
from draughts.engines.turbo import perft_from_board

def board_perft(board, depth):
    moves = board.legal_moves
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += board_perft(board, depth - 1)
        board.pop()
    return total

runs, depths = int(sys.argv[1]), json.loads(sys.argv[2])
boards = {"international": StandardBoard, "russian": RussianBoard, "brazilian": BrazilianBoard}
out = {}
for name, cls in boards.items():
    depth = depths[name]
    times, nodes = [], 0
    for _ in range(runs):
        board = cls()
        start = time.perf_counter()
        nodes = board_perft(board, depth)
        times.append(time.perf_counter() - start)
    out[name] = {"nodes": nodes, "seconds": statistics.median(times)}
    if name == "international":
        times = []
        for _ in range(runs):
            board = cls()
            start = time.perf_counter()
            nodes = perft_from_board(board, depth)
            times.append(time.perf_counter() - start)
        out["international-turbo"] = {"nodes": nodes, "seconds": statistics.median(times)}
print(json.dumps(out))
"""


def ensure_venv(where: Path, package: str, version: str) -> Path:
    """Create the virtual environment ``where`` with ``package==version`` installed (once:
    installed again only when the version differs); return its python."""
    python = where / "bin" / "python"
    if not python.exists():
        venv.create(where, with_pip=True)
    check = subprocess.run(
        [str(python), "-c", f"import importlib.metadata as m; print(m.version({package!r}))"],
        capture_output=True, text=True, check=False,
    )
    if check.returncode != 0 or check.stdout.strip() != version:
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", f"{package}=={version}"],
            check=True,
        )
    return python


def ensure_peer_venv() -> Path:
    """Create ``.bench-venv`` with py-draughts ``PEER_VERSION`` installed (once); return its
    python. The version is pinned so that measurements from different days compare."""
    return ensure_venv(BENCH_VENV, "py-draughts", PEER_VERSION)


def _time_perft(vid: str, depth: int, runs: int) -> dict[str, float]:
    """Median seconds of one perft (each run repeated for at least 0.2 s), and its nodes."""
    v = variant(vid)
    position = start_position(v)
    times = []
    nodes = 0
    for _ in range(runs):
        repeats = 0
        start = time.perf_counter()
        while True:
            nodes = perft(v, position, depth)
            repeats += 1
            elapsed = time.perf_counter() - start
            if elapsed >= 0.2:
                break
        times.append(elapsed / repeats)
    return {"depth": depth, "nodes": nodes, "seconds": statistics.median(times)}


def measure_ours(runs: int, deeper: int = 0) -> dict[str, dict[str, float]]:
    """Perft timings of the native core, per variant: depth, nodes and median seconds."""
    return {vid: _time_perft(vid, DEPTHS.get(vid, DEPTH_8X8) + deeper, runs) for vid in VARIANTS}


def measure_peer(runs: int) -> dict[str, dict[str, float]]:
    python = ensure_peer_venv()
    depths = {vid: DEPTHS.get(vid, DEPTH_8X8) for vid in PEER_VARIANTS}
    done = subprocess.run(
        [str(python), "-c", PEER_SCRIPT, str(runs), json.dumps(depths)],
        capture_output=True, text=True, check=True,
    )
    result: dict[str, dict[str, float]] = json.loads(done.stdout)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--no-peer", action="store_true", help="skip py-draughts")
    args = parser.parse_args()
    ours = measure_ours(args.runs)
    deeper = measure_ours(args.runs, deeper=1)
    theirs = {} if args.no_peer else measure_peer(args.runs)
    header = (
        f"{'variant':<22}{'depth':>6}{'nodes':>11}{'ours n/s':>14}{'theirs n/s':>12}"
        f"{'ratio':>8}{'ours deeper n/s':>17}"
    )
    print(f"perft from the start position, median of {args.runs} runs, bulk counting")
    print(header)
    print("-" * len(header))
    rows = [(vid, vid) for vid in VARIANTS] + ([("international", "international-turbo")]
                                               if "international-turbo" in theirs else [])
    for vid, peer_key in rows:
        mine = ours[vid]
        ours_nps = mine["nodes"] / mine["seconds"]
        label = vid if peer_key == vid else "international (turbo)"
        peer = theirs.get(peer_key)
        if peer:
            if peer["nodes"] != mine["nodes"]:
                print(f"  ! py-draughts counted {peer['nodes']} nodes for {vid}, we {mine['nodes']}")
            theirs_nps = peer["nodes"] / peer["seconds"]
            peer_text, ratio = f"{theirs_nps:>12,.0f}", f"{ours_nps / theirs_nps:>8.1f}"
        else:
            peer_text, ratio = f"{'-':>12}", f"{'-':>8}"
        deep = deeper[vid]
        print(
            f"{label:<22}{mine['depth']:>6}{mine['nodes']:>11,}{ours_nps:>14,.0f}"
            f"{peer_text}{ratio}{deep['nodes'] / deep['seconds']:>17,.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
