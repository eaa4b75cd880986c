"""PDN reading speed: Damiera's reader against pydraughts' on the same files.

Run with ``.venv/bin/python benchmarks/pdn_bench.py [--runs N]``; results go in
``benchmarks/pdn_results.md`` by hand.

Two figures per reader and file: games *parsed* per second (text to tags and move texts)
and games *parsed and replayed* per second (every move matched to a legal move and played
from the start or the FEN set-up), with the number of games each reader replayed to the end.
pydraughts (PyPI ``pydraughts``, import name ``draughts``, like py-draughts: hence its own
virtual environment ``.bench-pdn-venv/``) reads with ``draughts.PDN.PDNReader`` and replays
with ``Board.push(Move(board, pdn_move=...))``; it runs in a child process. Damiera reads with
:func:`damiera.pdn.read_games` (which always replays; its parse-only figure is the tokenizer
and the game splitter alone) in this process, on the native rules core.

The files are from the PDN 3.0 test set (``shared/reference/pdn/succeed``): two International
tournaments and one English/American collection. Each Damiera figure is the median of
``--runs`` runs; pydraughts is run once per file (it takes about a minute in all).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from damiera.pdn import read_games
from damiera.pdn.syntax import Splitter
from damiera.pdn.tokens import tokenize

sys.path.insert(0, str(Path(__file__).parent))
from perft_bench import ensure_venv

ROOT = Path(__file__).resolve().parent.parent
PDN_DIR = ROOT.parent / "shared" / "reference" / "pdn" / "succeed"
BENCH_VENV = ROOT / ".bench-pdn-venv"
#: The pydraughts release every measurement uses.
PEER_VERSION = "0.6.7"
#: (file, Damiera variant id, pydraughts variant name)
FILES = (
    ("wk2003.pdn", "international", "standard"),
    ("nk2003-amsterdam.pdn", "international", "standard"),
    ("OCA_2.0.pdn", "american", "english"),
)

#: Run with pydraughts' Python; argv: path, variant. Prints one JSON object.
PEER_SCRIPT = r"""
import json, sys, time
from draughts import Board, Move
from draughts.PDN import PDNReader
path, default = sys.argv[1], sys.argv[2]
start = time.perf_counter()
reader = PDNReader(filename=path)
parsed = time.perf_counter() - start
games = replayed = plies = 0
for game in reader.games:
    games += 1
    try:
        board = Board(game.variant or default, game.tags.get("FEN", "startpos").rstrip("."))
        for text in game.moves:
            board.push(Move(board, pdn_move=text))
            plies += 1
        replayed += 1
    except Exception:
        pass
total = time.perf_counter() - start
print(json.dumps({"games": games, "replayed": replayed, "plies": plies,
                  "parse_s": parsed, "total_s": total}))
"""


def ensure_peer_venv() -> Path:
    """Create ``.bench-pdn-venv`` with pydraughts ``PEER_VERSION`` (once); return its python."""
    return ensure_venv(BENCH_VENV, "pydraughts", PEER_VERSION)


def measure_ours(path: Path, variant: str, runs: int) -> dict[str, float]:
    parse_times, total_times = [], []
    games = replayed = plies = 0
    for _ in range(runs):
        start = time.perf_counter()
        with open(path, "rb") as handle:
            n = sum(1 for _ in Splitter(tokenize(handle)).games())
        parse_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        games = replayed = plies = 0
        with open(path, "rb") as handle:
            for game in read_games(handle, variant, errors="collect"):
                games += 1
                plies += len(game.plies)
                replayed += game.error is None
        total_times.append(time.perf_counter() - start)
        assert n == games
    return {"games": games, "replayed": replayed, "plies": plies,
            "parse_s": statistics.median(parse_times), "total_s": statistics.median(total_times)}


def measure_peer(python: Path, path: Path, variant: str) -> dict[str, float]:
    out = subprocess.run([str(python), "-c", PEER_SCRIPT, str(path), variant],
                         capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    python = ensure_peer_venv()
    print(f"damiera (native core); pydraughts {PEER_VERSION}")
    print("| file | reader | games | replayed | plies | parsed games/s | parsed+replayed games/s"
          " | plies/s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for name, ours_variant, peer_variant in FILES:
        path = PDN_DIR / name
        for reader, r in (("damiera", measure_ours(path, ours_variant, args.runs)),
                          ("pydraughts", measure_peer(python, path, peer_variant))):
            print(f"| {name} | {reader} | {r['games']} | {r['replayed']} | {r['plies']} | "
                  f"{r['games'] / r['parse_s']:,.0f} | {r['games'] / r['total_s']:,.1f} | "
                  f"{r['plies'] / r['total_s']:,.0f} |", flush=True)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
