"""SPRT self-play of two builds of the search at a fixed node budget per move, a fixed time
per move, or a game clock.

Usage::

    .venv/bin/python benchmarks/sprt_match.py --new /tmp/cand/src --base /tmp/base/src \\
        --variant international --nodes 50000 --max-games 400 --max-minutes 35

``--new`` and ``--base`` are the ``src`` directories of two scratch copies of the repository
(``git archive COMMIT | tar -x -C DIR``) with the native core compiled in place for this
checkout's Python (in DIR: ``gcc -O3 -std=c11 -shared -fPIC -I$INCLUDE csrc/*.c -o
src/damiera/_core$EXT_SUFFIX``, both from ``sysconfig``); each engine runs in its own process
with its directory first on ``PYTHONPATH``, so each uses its own ``damiera`` and
``damiera._core``. Both must have the node limit (``Searcher.search(nodes=)``).

``--new-endgame-pieces N`` (and ``--base-endgame-pieces``) make that engine probe the endgame
database of up to N pieces (``Searcher(endgame_pieces=N)``, built in its process on first use):
the same build on both sides then judges the probe alone.

Each engine searches ``--nodes`` nodes a move, or ``--movetime`` seconds (a forced move is
played at once; level 3 plays so, with ``--*-endgame-pieces 3`` on 8x8; ``--cpu-time`` times
it on the searching thread's CPU clock, fair on a busy machine), or shares out a game clock
(``--tc 12+0.1``: seconds for each side's game and seconds added after each move, the core's
``time_allocate``, ``Searcher.search(remaining=, increment=, ply=)``; each move's seconds,
CPU seconds of the engine process with ``--cpu-time``, are taken off its clock here, and a
side whose clock reaches 0 loses on time, or draws when the opponent cannot win:
``Game.flag_fall``; a clock is offered to the engine as at most ``MAX_CLOCK``); it keeps its
table between the moves of a game and starts each game with a fresh one: equal work, so the
result does not depend on the machine's load (and a reduction's gain is depth per node). Games
start from random ``--opening-plies``-ply openings (``--seed``), each played twice with the
colours swapped; this checkout's rules core referees every move; a game still running after
300 plies is a draw.

The test: GSPRT on the pairs of games (pentanomial: each pair's score 0, 1/4, ..., 1 is one
sample), H0 "new is ``--elo0`` Elo better than base" against H1 "``--elo1`` better" (logistic
Elo), ``--alpha``/``--beta`` error rates; LLR = N (s1 - s0) (2 mean - s0 - s1) / (2 var) with
s = 1 / (1 + 10^(-elo / 400)). It stops when the LLR leaves [ln(beta / (1 - alpha)),
ln((1 - beta) / alpha)] (not before 10 pairs: ``MIN_PAIRS``), or at ``--max-games`` /
``--max-minutes`` (after a whole pair), or on Ctrl-C or SIGTERM (the unfinished pair is
dropped, the engines are killed and the summary of the pairs played is printed, exit 130).
Prints each pair, then W/D/L, score, Elo with its 95% interval, LLR and the decision; the mean
depth each engine reached; with a game clock, each engine's seconds a move (mean), flag falls and
the fewest seconds it had left after a move; one JSON line with every number last (an Elo
bound of a 0% or 100% score, which is infinite, as null).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import statistics
import sys
import time
from dataclasses import dataclass, field

from json_lines import JsonLinesProcess  # this folder is sys.path[0]

from damiera.cli.common import UsageError
from damiera.cli.engine import time_control
from damiera.engine.egdb_files import MAX_DISK_PIECES
from damiera.engine.match import MAX_GAME_PLIES, elo_stats, random_openings
from damiera.engine.search import MAX_CLOCK, MAX_MOVETIME
from damiera.rules.game import Game
from damiera.rules.notation import parse_move
from damiera.rules.position import parse_fen, write_fen
from damiera.rules.variant import Color, variant

#: One engine, one request per input line: JSON ``[variant, [fen, ...], nodes, movetime,
#: clock]`` (the game's positions, current last; an empty list starts a new game; ``movetime``
#: seconds instead of ``nodes`` when it is not 0; ``clock``: ``[seconds left, increment]`` of a
#: game clock instead of both, or null) -> ``[move text, depth, seconds]`` (the search's
#: seconds: the process's CPU seconds with DAMIERA_CPU_TIME, else the wall clock's).
PLAYER = r"""
import json, os, sys, time
from damiera.engine.search import Searcher
from damiera.rules.notation import move_text
from damiera.rules.position import parse_fen
from damiera.rules.variant import variant
searchers = {}
cpu_time = os.environ.get("DAMIERA_CPU_TIME") == "1"
for line in sys.stdin:
    vid, fens, nodes, movetime, clock = json.loads(line)
    v = variant(vid)
    if vid not in searchers:
        pieces = int(os.environ.get("DAMIERA_ENDGAME_PIECES", "0"))
        searchers[vid] = Searcher(v, endgame_pieces=pieces) if pieces else Searcher(v)
    searcher = searchers[vid]
    if not fens:
        searcher.clear()
        print("[]", flush=True)
        continue
    history = [parse_fen(v, f) for f in fens]
    started = time.process_time() if cpu_time else time.monotonic()
    if clock:
        r = searcher.search(history[-1], history=history, remaining=clock[0],
                            increment=clock[1], ply=len(history) - 1, cpu_time=cpu_time)
    elif movetime:
        r = searcher.search(history[-1], history=history, movetime=movetime, cpu_time=cpu_time)
    else:
        r = searcher.search(history[-1], history=history, nodes=nodes)
    spent = (time.process_time() if cpu_time else time.monotonic()) - started
    print(json.dumps([move_text(v, r.move), r.depth, spent]), flush=True)
"""


class Engine(JsonLinesProcess):
    """One build's player process (see :data:`PLAYER`); what it did over the match:
    ``depths`` (each searched move's depth), ``seconds`` (each move's seconds as its clock was
    charged, with a game clock), ``flag_falls``, ``least_left`` (the fewest seconds left on its
    clock after a move, before the increment)."""

    def __init__(self, src: str, endgame_pieces: int = 0, cpu_time: bool = False):
        super().__init__([sys.executable, "-c", PLAYER], "an engine process",
                         env=dict(os.environ, PYTHONPATH=os.path.abspath(src),
                                  DAMIERA_ENDGAME_PIECES=str(endgame_pieces),
                                  DAMIERA_CPU_TIME="1" if cpu_time else "0"))
        self.depths: list[int] = []
        self.seconds: list[float] = []
        self.flag_falls = 0
        self.least_left: float | None = None


def play(vid: str, opening_fen: str, white: Engine, black: Engine, nodes: int,
         movetime: float = 0.0, clock: tuple[float, float] | None = None) -> float:
    """One game, ``nodes`` a move, or ``movetime`` seconds a move when it is not 0, or on a
    game ``clock`` (seconds for each side, increment) when it is given; returns White's
    score (1, 0.5 or 0)."""
    v = variant(vid)
    game = Game(v, parse_fen(v, opening_fen))
    white.ask([vid, [], nodes, movetime, None])
    black.ask([vid, [], nodes, movetime, None])
    left = {Color.WHITE: clock[0], Color.BLACK: clock[0]} if clock else {}
    while not game.is_over() and len(game.moves) < MAX_GAME_PLIES:
        turn = game.position.turn
        engine = white if turn is Color.WHITE else black
        mine = [min(left[turn], MAX_CLOCK), clock[1]] if clock else None
        text, depth, spent = engine.ask([vid, [write_fen(v, p) for p in game.positions],
                                         nodes, movetime, mine])
        if depth:
            engine.depths.append(depth)
        if clock:
            engine.seconds.append(spent)
            rest = left[turn] - spent
            engine.least_left = rest if engine.least_left is None else min(engine.least_left,
                                                                          rest)
            if rest <= 0:  # time has run out (and the engines refuse a clock of 0)
                engine.flag_falls += 1
                game.flag_fall()
                break
            left[turn] = rest + clock[1]
        game.play(parse_move(v, game.position, text))
    winner = game.result.winner if game.result is not None else None
    return 0.5 if winner is None else 1.0 if winner is Color.WHITE else 0.0


def _score(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


#: Pairs played before the GSPRT may decide: with a handful of pairs the spread of their
#: scores is no estimate (two pairs of 1/4 gave variance 0 and an LLR of -11, "H0 accepted").
MIN_PAIRS = 10


def llr(pairs: list[float], elo0: float, elo1: float) -> float:
    """GSPRT log-likelihood ratio of pair scores (each 0..1) for H1 (elo1) against H0 (elo0);
    0 before ``MIN_PAIRS`` pairs and while every pair scored alike (no spread to judge by)."""
    n = len(pairs)
    if n < MIN_PAIRS:
        return 0.0
    mean = sum(pairs) / n
    var = sum((x - mean) ** 2 for x in pairs) / n
    if var <= 0:
        return 0.0
    s0, s1 = _score(elo0), _score(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


@dataclass
class Tally:
    """The games of a match so far: ``wins``/``draws``/``losses`` of the new engine, the
    ``pairs``' mean scores, the GSPRT ``llr`` and the ``decision`` (text)."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    pairs: list[float] = field(default_factory=list)
    llr: float = 0.0
    decision: str = "none (cap reached)"
    stopped: bool = False


def play_pairs(vid: str, fens: list[str], new: Engine, base: Engine, nodes: int,
               elo: tuple[float, float], bounds: tuple[float, float] | None,
               max_minutes: float, movetime: float = 0.0,
               clock: tuple[float, float] | None = None) -> Tally:
    """Each FEN played twice (the new engine White, then Black), the GSPRT of H1 ``elo[1]``
    against H0 ``elo[0]`` printed after every pair; stops when the LLR crosses ``bounds``
    (None: never) or after ``max_minutes``, or on KeyboardInterrupt (``stopped``; the
    unfinished pair is not counted). ``movetime`` (seconds a move) replaces ``nodes``
    when it is not 0, a game ``clock`` (seconds, increment) both when given."""
    t = Tally()
    start = time.monotonic()
    for i, fen in enumerate(fens):
        try:
            first = play(vid, fen, new, base, nodes, movetime, clock)  # new has White
            second = 1 - play(vid, fen, base, new, nodes, movetime, clock)  # new has Black
        except KeyboardInterrupt:
            t.decision, t.stopped = "none (stopped)", True
            break
        for s in (first, second):
            t.wins += s == 1.0
            t.draws += s == 0.5
            t.losses += s == 0.0
        t.pairs.append((first + second) / 2)
        t.llr = llr(t.pairs, *elo)
        shown = f" [{bounds[0]:+.2f}, {bounds[1]:+.2f}]" if bounds else ""
        print(f"pair {i + 1}: {first} {second}  +{t.wins} ={t.draws} -{t.losses}  "
              f"LLR {t.llr:+.2f}{shown}", flush=True)
        if bounds and t.llr >= bounds[1]:
            t.decision = "H1 accepted (new is better)"
            break
        if bounds and t.llr <= bounds[0]:
            t.decision = "H0 accepted (new is not better)"
            break
        if time.monotonic() - start > 60 * max_minutes:
            break
    return t


MAX_GAMES = 100_000
MAX_OPENING_PLIES = 40


def check_arguments(parser: argparse.ArgumentParser, a: argparse.Namespace) -> None:
    """Refuse, before any game, what cannot give a sound test: limits out of range (a NaN
    too: every comparison below is written to fail on it), SPRT bounds that decide at once
    (alpha + beta must be below 1), a variant or endgame size the engines would refuse."""
    if not 0 <= a.movetime <= MAX_MOVETIME:
        parser.error(f"--movetime must be 0-{MAX_MOVETIME:g} seconds, not {a.movetime:g}")
    if a.tc is not None:
        if a.movetime:
            parser.error("--tc and --movetime: give one of them")
        try:
            a.clock = time_control(a.tc)
        except UsageError as exc:
            parser.error(str(exc))
    else:
        a.clock = None
    if a.cpu_time and not (a.movetime or a.clock):
        parser.error("--cpu-time times --movetime or --tc; with nodes a move it has nothing "
                     "to time")
    if not (a.movetime or a.clock) and a.nodes < 1:
        parser.error(f"--nodes must be 1 or more, not {a.nodes}")
    if not (0 < a.alpha < 1 and 0 < a.beta < 1 and a.alpha + a.beta < 1):
        parser.error("need 0 < --alpha, --beta and --alpha + --beta < 1")
    if not (math.isfinite(a.elo0) and math.isfinite(a.elo1) and a.elo0 < a.elo1):
        parser.error("need finite --elo0 below --elo1")
    if not 2 <= a.max_games <= MAX_GAMES:
        parser.error(f"--max-games must be 2-{MAX_GAMES}, not {a.max_games}")
    if not 0 < a.max_minutes < math.inf:
        parser.error(f"--max-minutes must be a finite number above 0, not {a.max_minutes:g}")
    if not 1 <= a.opening_plies <= MAX_OPENING_PLIES:
        parser.error(f"--opening-plies must be 1-{MAX_OPENING_PLIES}, not {a.opening_plies}")
    for name in ("new_endgame_pieces", "base_endgame_pieces"):
        pieces = getattr(a, name)
        if pieces and not 2 <= pieces <= MAX_DISK_PIECES:
            parser.error(f"--{name.replace('_', '-')} must be 0 or 2-{MAX_DISK_PIECES}, "
                         f"not {pieces}")
    try:
        variant(a.variant)
    except ValueError as exc:  # UnknownVariantError is a ValueError
        parser.error(str(exc))
    for option, folder in (("--new", a.new), ("--base", a.base)):
        # Without this, a missing folder would leave the child on the venv's own damiera.
        if not os.path.isfile(os.path.join(folder, "damiera", "__init__.py")):
            parser.error(f"{option} must be a src folder that holds the damiera package, "
                         f"not {folder!r}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--new", required=True, help="src directory of the candidate build")
    parser.add_argument("--base", required=True, help="src directory of the baseline build")
    parser.add_argument("--variant", default="international")
    parser.add_argument("--nodes", type=int, default=50_000, help="nodes a move")
    parser.add_argument("--movetime", type=float, default=0.0,
                        help="seconds a move instead of nodes (0: nodes); the machine's load "
                             "then falls on the result: run one match at a time, or add "
                             "--cpu-time")
    parser.add_argument("--tc", metavar="SECONDS+INCREMENT",
                        help="a game clock instead of nodes: seconds for each side's game and "
                             "seconds added after each move, e.g. 12+0.1 (a flag fall loses)")
    parser.add_argument("--cpu-time", action="store_true",
                        help="time --movetime or --tc on CPU time, not the wall clock "
                             "(Searcher.search(cpu_time=True)): fair on a busy machine")
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=15.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--max-games", type=int, default=400)
    parser.add_argument("--max-minutes", type=float, default=35.0)
    parser.add_argument("--seed", type=int, default=23, help="seed of the openings")
    parser.add_argument("--opening-plies", type=int, default=6)
    parser.add_argument("--new-endgame-pieces", type=int, default=0,
                        help="the candidate probes the endgame database of up to this many "
                             "pieces (0: none; Searcher(endgame_pieces=))")
    parser.add_argument("--base-endgame-pieces", type=int, default=0)
    a = parser.parse_args()
    check_arguments(parser, a)
    low, high = math.log(a.beta / (1 - a.alpha)), math.log((1 - a.beta) / a.alpha)
    v = variant(a.variant)
    openings = [write_fen(v, p) for p in random_openings(v, (a.max_games + 1) // 2,
                                                          plies=a.opening_plies, seed=a.seed)]
    signal.signal(signal.SIGTERM, _interrupt)  # stopped as by Ctrl-C: a summary, no orphan
    new = Engine(a.new, a.new_endgame_pieces, a.cpu_time)
    base = Engine(a.base, a.base_endgame_pieces, a.cpu_time)
    start = time.monotonic()
    t = Tally(stopped=True)
    try:
        t = play_pairs(a.variant, openings, new, base, a.nodes, (a.elo0, a.elo1), (low, high),
                       a.max_minutes, a.movetime, a.clock)
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the engines are closed in any case
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        new.close(at_once=t.stopped)
        base.close(at_once=t.stopped)
    wins, draws, losses, ratio, decision = t.wins, t.draws, t.losses, t.llr, t.decision
    # No game finished (stopped in the first pair): no score, written as null.
    score, elo, elo_low, elo_high = (elo_stats(wins, draws, losses) if wins + draws + losses
                                     else (math.nan,) * 4)
    depth_new = statistics.mean(new.depths) if new.depths else 0.0
    depth_base = statistics.mean(base.depths) if base.depths else 0.0
    if a.clock:
        budget = f"clock {a.clock[0]:g}+{a.clock[1]:g} ({'CPU' if a.cpu_time else 'wall'} time)"
    else:
        budget = (f"{a.movetime:g} s" if a.movetime else f"{a.nodes} nodes") + " a move"
    print(f"{a.variant}, {budget}: +{wins} ={draws} -{losses} "
          f"({100 * score:.1f}%), Elo {elo:+.1f} [{elo_low:+.1f}, {elo_high:+.1f}], "
          f"LLR {ratio:+.2f} ({a.elo0:g}, {a.elo1:g}): {decision}; mean depth "
          f"{depth_new:.2f} new, {depth_base:.2f} base; "
          f"{(time.monotonic() - start) / 60:.1f} min")
    clocked: dict[str, object] = {}
    if a.clock:
        line, clocked = _clock_summary({"new": new, "base": base})
        print(line)
    print(json.dumps(_finite({"variant": a.variant,
                      "nodes": None if a.movetime or a.clock else a.nodes,
                      "movetime": a.movetime,
                      "clock": a.clock[0] if a.clock else None,
                      "increment": a.clock[1] if a.clock else None,
                      "cpu_time": a.cpu_time, **clocked,
                      "games": wins + draws + losses,
                      "wins": wins, "draws": draws, "losses": losses, "score": score,
                      "elo": elo, "elo_low": elo_low, "elo_high": elo_high, "llr": ratio,
                      "elo0": a.elo0, "elo1": a.elo1, "decision": decision,
                      "depth_new": depth_new, "depth_base": depth_base, "seed": a.seed,
                      "stopped": t.stopped})))
    return 130 if t.stopped else 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _clock_summary(engines: dict[str, Engine]) -> tuple[str, dict[str, object]]:
    """Each engine's clock over the match (seconds a move: mean, flag falls, least left) as
    the summary line and as the JSON's fields (``seconds_new``, ``flag_falls_base``, ...)."""
    figures = {name: (statistics.mean(e.seconds) if e.seconds else None, e.flag_falls,
                      e.least_left) for name, e in engines.items()}
    line = ("seconds a move " + ", ".join(f"{n} {_shown(f[0], 3)}" for n, f in figures.items())
            + "; flag falls " + ", ".join(f"{n} {f[1]}" for n, f in figures.items())
            + "; least left " + ", ".join(f"{n} {_shown(f[2], 2)} s"
                                          for n, f in figures.items()))
    fields: dict[str, object] = {
        f"{key}_{n}": value
        for n, f in figures.items()
        for key, value in zip(("seconds", "flag_falls", "least_left"), f)}
    return line, fields


def _shown(value: object, places: int) -> str:
    """A figure of the summary line: ``places`` decimals, ``none`` for no value."""
    return "none" if value is None else f"{value:.{places}f}"


def _finite(summary: dict[str, object]) -> dict[str, object]:
    """``summary`` with every infinite or NaN float as None: strict JSON (no ``Infinity``)."""
    return {key: None if isinstance(value, float) and not math.isfinite(value) else value
            for key, value in summary.items()}


if __name__ == "__main__":
    sys.exit(main())
