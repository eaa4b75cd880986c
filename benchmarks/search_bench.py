"""Search benchmarks (run by hand; never part of the test suite).

    python benchmarks/search_bench.py speed  [--variants a,b] [--times 1,5]
    python benchmarks/search_bench.py ladder [--variants a,b] [--games 40] [--movetime 0.5]
    python benchmarks/search_bench.py peers  [--pyd-python /path/to/venv/bin/python]
                                             [--variants international,russian,brazilian]
                                             [--games 40] [--movetime 0.5] [--record FILE]
    python benchmarks/search_bench.py drops  --record FILE [--record FILE ...] [--movetime 0.5]

``speed``: nodes/second and depth reached in 1 s and 5 s from the start position and from
two middlegame positions per variant (reached by deterministic level-2 self-play from a random
opening), and the time actually used against the time given (the search must never overshoot
by more than 10%).

``ladder``: level 3 vs 2, 2 vs 1 and 1 vs random, ``--games`` games each, colours alternated on
the same random openings; W/D/L and Elo with 95% error bars (`damiera.engine.match`).

``peers``: level 3 against py-draughts' strongest built-in engine (``TurboEngine`` on 10x10,
``SimpleEngine`` on 8x8), run in its own virtual environment (``--pyd-python``, else
``.bench-venv/``, made and filled by ``perft_bench.ensure_peer_venv`` on first use) through
``benchmarks/pydraughts_bridge.py``, at the same time per move; same openings for both,
colours alternated; our rules core (:class:`damiera.rules.game.Game`) referees every game.

``drops``: reads games recorded by ``peers --record`` and, in every game level 3 did not win
(lost or drawn), finds the first lasting drop of its score: a move after which its score
goes from at least -0.3 man to -0.8 man or less and stays there at its next move. The position
searched again, for ``--movetime`` seconds (``search_results.md`` used 5), is the one before
level 3's last move *with a choice* up to that move (a forced capture is no mistake), and so
is the move it played there. A longer search that plays otherwise, and scores the move played
half a man lower, points at the horizon; the same move points at a man lost earlier, by the
evaluation.

Every mode prints a table and, last, one JSON line with all the numbers.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from json_lines import JsonLinesProcess  # this folder is sys.path[0]

from damiera.engine import Engine, Limit
from damiera.engine.match import MAX_GAME_PLIES, elo_stats, random_openings, run_match
from damiera.engine.search import Searcher
from damiera.pdn import write_game
from damiera.rules.game import Game
from damiera.rules.geometry import geometry
from damiera.rules.movegen import Move, generate, has_capture
from damiera.rules.notation import move_text, parse_move
from damiera.rules.position import Position, parse_fen, write_fen
from damiera.rules.variant import VARIANTS, Color, Variant, variant

HERE = os.path.dirname(os.path.abspath(__file__))
#: The variants py-draughts plays by our rules (its American board makes captures optional).
PEER_VARIANTS = ("international", "russian", "brazilian")


# -- speed -------------------------------------------------------------------------------------
def middlegames(v: Variant, count: int = 2, plies: int = 16) -> list[Position]:
    """``count`` middlegame positions: level-2 self-play (no weaker moves) from random openings."""
    out = []
    for opening in random_openings(v, count, seed=11):
        game = Game(v, opening)
        searcher = Searcher(v)
        # Play on past ``plies`` until a position with a real choice (no pending capture, at
        # least two moves): a forced move is answered without searching.
        while not game.is_over() and (
            len(game.moves) < plies
            or has_capture(v, game.position)
            or len(generate(v, game.position)) < 2
        ):
            r = searcher.search(game.position, depth=4, history=game.positions)
            assert r.move is not None
            game.play(r.move)
        if not game.is_over():
            out.append(game.position)
    return out


def speed(variants: list[str], times: list[float]) -> list[dict[str, Any]]:
    rows = []
    for vid in variants:
        v = variant(vid)
        from damiera.rules.position import start_position

        positions = [("start", start_position(v))] + [
            (f"middle{i + 1}", p) for i, p in enumerate(middlegames(v))
        ]
        for name, pos in positions:
            for t in times:
                s = Searcher(v)
                t0 = time.perf_counter()
                r = s.search(pos, movetime=t)
                used = time.perf_counter() - t0
                row = {
                    "variant": vid, "position": name, "fen": write_fen(v, pos), "movetime": t,
                    "depth": r.depth, "nodes": r.nodes, "nps": int(r.nodes / used),
                    "used": round(used, 3), "overshoot_pct": round(100 * (used / t - 1), 1),
                }
                rows.append(row)
                print(f"{vid:14s} {name:8s} {t:4.1f}s  depth {r.depth:2d}  nodes {r.nodes:8d}  "
                      f"nps {row['nps']:7d}  used {used:6.3f}s ({row['overshoot_pct']:+.1f}%)",
                      flush=True)
    return rows


# -- ladder ------------------------------------------------------------------------------------
def ladder(variants: list[str], games: int, movetime: float, jobs: int) -> list[dict[str, Any]]:
    rows = []
    for vid in variants:
        v = variant(vid)
        for first, second in (("3", "2"), ("2", "1"), ("1", "random")):
            t0 = time.perf_counter()
            result, _ = run_match(v, first, second, games, movetime=movetime, jobs=jobs, seed=5)
            d = result.as_dict()
            d["seconds"] = round(time.perf_counter() - t0, 1)
            rows.append(d)
            print(result.summary(), f"[{d['seconds']} s]", flush=True)
    return rows


# -- peers -------------------------------------------------------------------------------------
class Bridge(JsonLinesProcess):
    """A py-draughts engine in a subprocess (see ``pydraughts_bridge.py``)."""

    def __init__(self, python: str):
        super().__init__([python, os.path.join(HERE, "pydraughts_bridge.py")],
                         "the py-draughts bridge")

    def ask(self, request: Any) -> dict[str, Any]:
        out: dict[str, Any] = super().ask(request)
        if "error" in out:
            raise RuntimeError(out["error"])
        return out


def numeric_fen(v: Variant, pos: Position) -> str:
    """FEN with squares numbered 1-N from the top left (py-draughts' numbering)."""
    geo = geometry(v)

    def side(letter: str, pieces: int) -> str:
        items = sorted(
            (geo.number(s), "K" if pos.kings >> s & 1 else "") for s in geo.squares
            if pieces >> s & 1
        )
        return letter + ",".join(f"{k}{n}" for n, k in items)

    return f"{pos.turn.value}:{side('W', pos.white)}:{side('B', pos.black)}"


def peer_game(args: tuple[str, str, float, str, bool, int]) -> dict[str, Any]:
    """One game, level 3 vs py-draughts; returns the result from level 3's side."""
    vid, fen, movetime, python, ours_white, seed = args
    v = variant(vid)
    geo = geometry(v)
    opening = parse_fen(v, fen)
    bridge = Bridge(python)
    bridge.ask({"cmd": "new", "variant": vid, "fen": numeric_fen(v, opening)})
    ours = Engine(v, 3, rng=random.Random(seed))
    our_color = Color.WHITE if ours_white else Color.BLACK
    game = Game(v, opening)
    their_times: list[float] = []
    our_times: list[float] = []
    our_scores: list[int] = []
    texts: list[str] = []
    try:
        while not game.is_over() and len(game.moves) < MAX_GAME_PLIES:
            pos = game.position
            if pos.turn is our_color:
                t0 = time.perf_counter()
                chosen = ours.choose(game.positions, Limit(time=movetime))
                move = None if chosen.move is None else chosen.move.raw
                our_times.append(time.perf_counter() - t0)
                our_scores.append(chosen.score)
                assert move is not None
            else:
                t0 = time.perf_counter()
                reply = bridge.ask({"cmd": "go", "movetime": movetime})
                their_times.append(time.perf_counter() - t0)
                move = _match(v, pos, reply["path"], reply["captured"])
            bridge.ask({
                "cmd": "push",
                "path": [geo.number(s) for s in move.path],
                "captured": sorted(geo.number(s) for s in move.captures),
            })
            texts.append(move_text(v, move))
            game.play(move)
    finally:
        bridge.close()
    if game.result is None or game.result.winner is None:
        outcome = 0
    else:
        outcome = 1 if game.result.winner is our_color else -1
    return {
        "opening": fen, "ours_white": ours_white, "outcome": outcome,
        "reason": game.result.reason.value if game.result else "adjudicated",
        "plies": len(game.moves),
        "our_avg_time": round(sum(our_times) / max(1, len(our_times)), 3),
        "their_avg_time": round(sum(their_times) / max(1, len(their_times)), 3),
        "their_max_time": round(max(their_times, default=0.0), 3),
        "our_scores": our_scores,
        "moves": texts,
        "pdn": write_game(game, {
            "White": "Damiera level 3" if ours_white else "py-draughts",
            "Black": "py-draughts" if ours_white else "Damiera level 3",
            "Event": f"search_bench peers, {movetime} s a move",
        }),
    }


def _match(v: Variant, pos: Position, path: list[int], captured: list[int]) -> Move:
    geo = geometry(v)
    for m in generate(v, pos):
        if (geo.number(m.start) == path[0] and geo.number(m.end) == path[-1]
                and sorted(geo.number(s) for s in m.captures) == sorted(captured)):
            return m
    raise RuntimeError(f"py-draughts played {path} x {captured}, not legal by our rules in "
                       f"{write_fen(v, pos)}")


def _finite(x: float) -> float | None:
    return round(x, 1) if math.isfinite(x) else None


def peers(variants: list[str], games: int, movetime: float, jobs: int,
          python: str, record: str | None = None, seed: int = 9) -> list[dict[str, Any]]:
    rows = []
    for vid in variants:
        v = variant(vid)
        openings = random_openings(v, (games + 1) // 2, plies=4 if v.board_size == 8 else 6,
                                   seed=seed)
        tasks = [
            (vid, write_fen(v, openings[i // 2]), movetime, python, i % 2 == 0, i)
            for i in range(games)
        ]
        t0 = time.perf_counter()
        results = []
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for n, r in enumerate(pool.map(peer_game, tasks), 1):
                results.append(r)
                if record:  # each game as it ends: an interrupted run keeps what it played
                    with open(record, "a", encoding="utf-8") as f:
                        f.write(json.dumps({"variant": vid, **r}) + "\n")
                w = sum(1 for x in results if x["outcome"] > 0)
                d = sum(1 for x in results if x["outcome"] == 0)
                print(f"  {vid} game {n}/{games}: {'+=-'[1 - r['outcome']]} "
                      f"({r['reason']}, {r['plies']} plies; their avg {r['their_avg_time']} s, "
                      f"max {r['their_max_time']} s)  running +{w} ={d} -{n - w - d}",
                      flush=True)
        wins = sum(1 for x in results if x["outcome"] > 0)
        draws = sum(1 for x in results if x["outcome"] == 0)
        losses = len(results) - wins - draws
        score, elo, lo, hi = elo_stats(wins, draws, losses)
        row = {"variant": vid, "games": games, "movetime": movetime, "wins": wins,
               "draws": draws, "losses": losses, "score": round(score, 4), "elo": round(elo, 1),
               # An open side of the interval (0% or 100%) is null: strict JSON has no Infinity.
               "elo_low": _finite(lo), "elo_high": _finite(hi),
               "seconds": round(time.perf_counter() - t0, 1),
               "their_avg_time": round(sum(x["their_avg_time"] for x in results) / len(results), 3),
               "our_avg_time": round(sum(x["our_avg_time"] for x in results) / len(results), 3)}
        rows.append(row)
        print(f"level 3 vs py-draughts in {vid}: +{wins} ={draws} -{losses}, "
              f"score {100 * score:.1f}%, Elo {elo:+.0f} ({lo:+.0f} .. {hi:+.0f})", flush=True)
    return rows


# -- drops -------------------------------------------------------------------------------------
#: A lasting drop: level 3's score goes from at least DROP_FROM to at most DROP_TO (centi-men)
#: and stays there for its next move as well; scores of DROP_IGNORE or more either way (a
#: game already decided) are not a starting point.
DROP_FROM = -30
DROP_TO = -80
DROP_IGNORE = 500


def _first_drop(scores: list[int]) -> int | None:
    for i in range(len(scores) - 2):
        if (scores[i] >= DROP_FROM and scores[i + 1] <= DROP_TO and scores[i + 2] <= DROP_TO
                and abs(scores[i]) < DROP_IGNORE):
            return i
    return None


def drop_position(args: tuple[dict[str, Any], float]) -> dict[str, Any] | None:
    """Searches the position before a recorded game's first drop again (see ``drops``)."""
    game, movetime = args
    try:
        return _drop_position(game, movetime)
    except ValueError as exc:  # unknown variant, bad FEN, a move the rules refuse
        raise ValueError(f"{game['where']}: {exc}") from None


def _drop_position(game: dict[str, Any], movetime: float) -> dict[str, Any] | None:
    v = variant(game["variant"])
    i = _first_drop(game["our_scores"])
    if i is None:
        return None
    g = Game(v, parse_fen(v, game["opening"]))
    our_color = Color.WHITE if game["ours_white"] else Color.BLACK
    # Replay to the move before the drop, keeping level 3's last move that had a choice
    # (a forced capture is no mistake): (its ply, its number among level 3's moves).
    chosen: tuple[int, int] | None = None
    ours = -1
    for text in game["moves"]:
        pos = g.position
        if pos.turn is our_color:
            ours += 1
            if len(generate(v, pos)) > 1:
                chosen = (len(g.moves), ours)
        g.play(parse_move(v, pos, text))
        if ours == i:
            break
    else:
        raise ValueError(f"the record has fewer than {i + 1} moves of level 3")
    if chosen is None:
        return None
    ply, number = chosen
    pos, move, history = g.positions[ply], g.move_stack[ply].raw, g.positions[: ply + 1]
    longer = Searcher(v).search(pos, movetime=movetime, history=history)
    assert longer.move is not None
    played_score = longer.score
    if longer.move != move:
        # The move played, searched as long: the opponent's score after it, negated.
        reply = Searcher(v).search(g.positions[ply + 1], movetime=movetime,
                                   history=g.positions[: ply + 2])
        played_score = -reply.score
    return {"fen": write_fen(v, pos), "ply": ply, "played": move_text(v, move),
            "score_then": game["our_scores"][number], "longer_move": move_text(v, longer.move),
            "longer_score": longer.score, "longer_depth": longer.depth,
            "played_score": played_score}


def _check_record(game: Any) -> str | None:
    """What is wrong with one recorded game (None: nothing)."""
    if not isinstance(game, dict):
        return "not a JSON object"
    kinds = {"variant": (str, "text"), "opening": (str, "FEN text"),
             "ours_white": (bool, "true or false"), "outcome": (int, "number"),
             "our_scores": (list, "list")}
    for key, (kind, word) in kinds.items():
        if not isinstance(game.get(key), kind):
            return f'field "{key}" missing or not a {word}'
    if game["outcome"] not in (-1, 0, 1):
        return 'field "outcome" must be -1, 0 or 1'
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in game["our_scores"]):
        return 'field "our_scores" must hold integers'
    if not (isinstance(game.get("moves"), list) and all(isinstance(m, str)
                                                        for m in game["moves"])):
        return 'field "moves" missing or not a list of move texts'
    return None


def read_records(paths: list[str]) -> list[dict[str, Any]]:
    """Every game in ``peers --record`` files, each tagged with ``where`` (file:line).

    Raises ValueError naming the file (and line) that cannot be read or is not a record."""
    games: list[dict[str, Any]] = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.readlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"cannot read {path}: {exc}") from None
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            problem: str | None
            try:
                game = json.loads(line)
            except ValueError:
                game, problem = None, "not JSON"
            else:
                problem = _check_record(game)
            if problem:
                raise ValueError(f"{path}, line {n}: not a game written by `peers --record` "
                                 f"({problem})")
            games.append({**game, "where": f"{path}, line {n}"})
    return games


def drops(records: list[str], movetime: float, jobs: int) -> list[dict[str, Any]]:
    games = read_records(records)
    not_won = [g for g in games if g["outcome"] < 1]
    print(f"{len(games)} recorded games, {len(not_won)} not won by level 3", flush=True)
    rows = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for r in pool.map(drop_position, [(g, movetime) for g in not_won]):
            if r is None:
                continue
            rows.append(r)
            verdict = ("same move" if r["longer_move"] == r["played"] else
                       f"{r['longer_move']} {r['longer_score']:+d} (played "
                       f"{r['played_score']:+d})")
            print(f"  {r['fen']}  played {r['played']} (score then {r['score_then']:+d}); "
                  f"{movetime} s: {verdict}", flush=True)
    other = [r for r in rows if r["longer_move"] != r["played"]]
    worse = [r for r in other if r["longer_score"] - r["played_score"] >= 50]
    print(f"{len(rows)} drops; a {movetime} s search plays another move in {len(other)}, and "
          f"judges the move played at least half a man worse in {len(worse)}", flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("mode", choices=("speed", "ladder", "peers", "drops"))
    ap.add_argument("--variants")
    ap.add_argument("--times", default="1,5")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--movetime", type=float, default=0.5)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--pyd-python", default=os.environ.get("PYDRAUGHTS_PYTHON", ""))
    ap.add_argument("--record", action="append",
                    help="peers: append every game to this file, one JSON object a line "
                    "(result, level 3's score after each of its moves, its moves, PDN); drops: "
                    "read games from it (may be given several times)")
    ap.add_argument("--seed", type=int, default=9,
                    help="peers: seed of the random openings (another seed, other openings)")
    a = ap.parse_args()

    def fail(message: str) -> None:
        ap.exit(2, f"search_bench.py: error: {message}\n")

    if not (math.isfinite(a.movetime) and a.movetime > 0):
        fail(f"--movetime must be a number of seconds above 0, not {a.movetime}")
    try:
        times = [float(x) for x in a.times.split(",")]
    except ValueError:
        times = []
    if not times or not all(math.isfinite(t) and t > 0 for t in times):
        fail(f"--times must be seconds above 0, separated by commas, not {a.times!r}")
    if a.jobs < 1:
        fail(f"--jobs must be at least 1, not {a.jobs}")
    if a.games < 1:
        fail(f"--games must be at least 1, not {a.games}")
    requested = a.variants.split(",") if a.variants else None
    for x in requested or ():
        if x not in VARIANTS:
            fail(f"unknown variant {x!r}: one of {', '.join(VARIANTS)}")
        if a.mode == "peers" and x not in PEER_VARIANTS:
            fail(f"py-draughts plays {', '.join(PEER_VARIANTS)} by our rules, not {x}")
    if a.mode == "speed":
        rows = speed(requested or list(VARIANTS), times)
    elif a.mode == "ladder":
        rows = ladder(requested or ["american", "international", "russian", "italian"],
                      a.games, a.movetime, a.jobs)
    elif a.mode == "drops":
        if not a.record:
            fail("drops needs --record FILE (games written by `peers --record`)")
        try:
            rows = drops(a.record, a.movetime, a.jobs)
        except ValueError as exc:
            fail(f"drops: {exc}")
    else:
        from perft_bench import ensure_peer_venv  # this folder is sys.path[0]

        python = a.pyd_python or str(ensure_peer_venv())
        if a.record and len(a.record) > 1:
            fail("peers records into one file: give --record once")
        if a.record:
            try:
                open(a.record[0], "a", encoding="utf-8").close()
            except OSError as exc:
                fail(f"cannot write the record: {exc}")
        rows = peers(requested or list(PEER_VARIANTS), a.games, a.movetime, a.jobs, python,
                     a.record[0] if a.record else None, a.seed)
    print(json.dumps({"mode": a.mode, "results": rows}))


if __name__ == "__main__":
    main()
