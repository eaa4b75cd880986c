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

Both of Damiera's columns time the checkout's rules-core source in a child process on a copy
of it, so they stay what they say whether or not the checkout itself is compiled (``make
compile``): "ours" runs the Python source (copied without any ``.so`` to ``build/pure-bench/``),
"mypyc" the same source compiled with mypyc (shipped with mypy, a dev dependency) in
``build/mypyc-bench/``. ``--no-mypyc`` skips the compiled column.

Each figure is the median of ``--runs`` runs (default 5) on this machine.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import venv
from pathlib import Path

from damiera.rules.variant import VARIANTS

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


def ensure_peer_venv() -> Path:
    """Create ``.bench-venv`` with py-draughts ``PEER_VERSION`` installed (once); return its
    python. The version is pinned so that measurements from different days compare."""
    python = BENCH_VENV / "bin" / "python"
    if not python.exists():
        venv.create(BENCH_VENV, with_pip=True)
    check = subprocess.run(
        [str(python), "-c", "import importlib.metadata as m; print(m.version('py-draughts'))"],
        capture_output=True, text=True, check=False,
    )
    if check.returncode != 0 or check.stdout.strip() != PEER_VERSION:
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", f"py-draughts=={PEER_VERSION}"],
            check=True,
        )
    return python


#: Run with a copy of the rules core first on sys.path; argv: runs, depths (JSON) and "pure"
#: or "compiled" (which the copy must be); prints one JSON object of timings.
COPY_SCRIPT = r"""
import json, statistics, sys, time
import damiera.rules.movegen as movegen
runs, depths, kind = int(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
assert movegen.__file__.endswith(".so") == (kind == "compiled"), movegen.__file__
from damiera.rules.position import start_position
from damiera.rules.variant import VARIANTS, variant
out = {}
for vid in VARIANTS:
    v = variant(vid)
    position = start_position(v)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        nodes = movegen.perft(v, position, depths[vid])
        times.append(time.perf_counter() - start)
    out[vid] = {"depth": depths[vid], "nodes": nodes, "seconds": statistics.median(times)}
print(json.dumps(out))
"""
COMPILED_MODULES = ("variant.py", "geometry.py", "position.py", "movegen.py")


def _copy_rules(name: str) -> Path:
    """A fresh ``build/<name>/damiera`` holding the rules core's sources (no compiled module,
    an empty package ``__init__``); returns ``build/<name>``."""
    build = ROOT / "build" / name
    shutil.rmtree(build, ignore_errors=True)
    shutil.copytree(ROOT / "src" / "damiera" / "rules", build / "damiera" / "rules",
                    ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    (build / "damiera" / "__init__.py").write_text("", encoding="utf-8")
    return build


def _measure_copy(build: Path, kind: str, runs: int) -> dict[str, dict[str, float]]:
    """Perft timings of the copy in ``build`` (``kind``: "pure" or "compiled"), per variant:
    depth, nodes and median seconds."""
    depths = {vid: DEPTHS.get(vid, DEPTH_8X8) for vid in VARIANTS}
    done = subprocess.run(
        [sys.executable, "-c", COPY_SCRIPT, str(runs), json.dumps(depths), kind],
        cwd=build, capture_output=True, text=True, check=True,
        env={"PYTHONPATH": str(build), "PATH": "/usr/bin:/bin"},
    )
    result: dict[str, dict[str, float]] = json.loads(done.stdout)
    return result


def measure_compiled(runs: int) -> dict[str, dict[str, float]]:
    """Compile a copy of the rules core with mypyc in ``build/mypyc-bench`` and time it there."""
    build = _copy_rules("mypyc-bench")
    mypyc = Path(sys.executable).parent / "mypyc"
    subprocess.run(
        [str(mypyc), *(f"damiera/rules/{name}" for name in COMPILED_MODULES)],
        cwd=build, check=True, capture_output=True,
    )
    return _measure_copy(build, "compiled", runs)


def measure_ours(runs: int) -> dict[str, dict[str, float]]:
    """Time the rules core's Python source, copied to ``build/pure-bench`` without any .so."""
    return _measure_copy(_copy_rules("pure-bench"), "pure", runs)


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
    parser.add_argument("--no-mypyc", action="store_true", help="skip the mypyc-compiled run")
    args = parser.parse_args()
    ours = measure_ours(args.runs)
    compiled = {} if args.no_mypyc else measure_compiled(args.runs)
    theirs = {} if args.no_peer else measure_peer(args.runs)
    header = (
        f"{'variant':<22}{'depth':>6}{'nodes':>11}{'ours n/s':>12}{'theirs n/s':>12}"
        f"{'ratio':>7}{'mypyc n/s':>12}{'ratio':>7}"
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
            peer_text, ratio = f"{theirs_nps:>12,.0f}", f"{ours_nps / theirs_nps:>7.2f}"
        else:
            peer_text, ratio = f"{'-':>12}", f"{'-':>7}"
        fast = compiled.get(vid)
        if fast and peer:
            fast_nps = fast["nodes"] / fast["seconds"]
            fast_text = f"{fast_nps:>12,.0f}{fast_nps / theirs_nps:>7.2f}"
        elif fast:
            fast_text = f"{fast['nodes'] / fast['seconds']:>12,.0f}{'-':>7}"
        else:
            fast_text = ""
        print(
            f"{label:<22}{mine['depth']:>6}{mine['nodes']:>11,}{ours_nps:>12,.0f}"
            f"{peer_text}{ratio}{fast_text}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
