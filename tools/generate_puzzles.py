"""Generate tactics puzzles (``src/damiera/puzzles/data/``) from self-play and from games.

    .venv/bin/python tools/generate_puzzles.py italian russian --count 1000
    .venv/bin/python tools/generate_puzzles.py all --count 1000   # every rule set with a file
    .venv/bin/python tools/generate_puzzles.py czech --pdn games.pdn --self-play 0
    .venv/bin/python tools/generate_puzzles.py italian --database-url sqlite:///var/damiera.sqlite3
    .venv/bin/python tools/generate_puzzles.py american --recheck --count 1000  # new weights

Sources: self-play games of the engine against itself at the weaker levels (1 against 1 or
2, a few random opening moves first, so games differ and both sides blunder into shots),
PDN files (``--pdn``: the site's "Download all my games", ``damiera match --pdn``), and the
games of a Damiera site's store (``--database-url``). Every position is screened by a
shallow search and the candidates verified by a deeper one
(:mod:`damiera.puzzles.finder`). The tool adds to what a rule set's file already has (no
puzzle twice: ids are hashes of the position) until it holds ``--count`` puzzles; found
puzzles are appended as they come, so a stopped run keeps them, and the file is rewritten
sorted when the run ends. Rule sets are served in turn, a few games each, so all of them
grow together. Run it with ``nice -n 19``: it keeps one core busy.

A puzzle is only as good as the engine that judged it: after the search or the evaluation
of a rule set changed, ``--recheck`` judges its puzzles again at the depth the test suite
does, drops those whose first move is no longer the only win and refills the file.
"""

from __future__ import annotations

import argparse
import gzip
import random
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from damiera.engine import Engine, Limit
from damiera.puzzles.finder import Finder, find_in_game, settings_for
from damiera.puzzles.library import DATA, data_file, read_puzzles, variant_key, write_puzzles
from damiera.puzzles.model import Puzzle
from damiera.rules.game import Game
from damiera.rules.position import Position
from damiera.rules.variant import VARIANTS, Variant, VariantOptionError, variant

#: Random plies played before the engines take over (a different opening every game).
OPENING_PLIES = (2, 6)
#: Longest self-play game, in plies.
MAX_GAME_PLIES = 160


def self_play(v: Variant, rng: random.Random, engines: dict[int, Engine]) -> list[Position]:
    """One game of the engine against itself: random opening plies, then level 1 against
    level 1 or 2 (sides drawn at random) at 2-4 plies; returns every position. ``engines``:
    the variant's engine of each level, kept from game to game (making one costs more than
    a game)."""
    game = Game(v)
    for _ in range(rng.randint(*OPENING_PLIES)):
        moves = game.legal_moves
        if not moves or game.outcome() is not None:
            break
        game.play(rng.choice(moves))
    levels = [1, rng.choice([1, 2])]
    rng.shuffle(levels)
    for level in levels:
        if level not in engines:
            engines[level] = Engine(v, level=level, seed=rng.randrange(1 << 30))
    while game.outcome() is None and game.ply < MAX_GAME_PLIES:
        level = levels[game.ply % 2]
        game.play(engines[level].play(game, Limit(depth=level * 2)).move)  # type: ignore[arg-type]
    return list(game.positions)


def pdn_games(v: Variant, files: list[Path]) -> Iterator[list[Position]]:
    """The positions of every game of ``v`` in the PDN files (other rule sets skipped)."""
    from damiera.pdn import read_games

    for path in files:
        with path.open(encoding="utf-8", errors="replace") as handle:
            for record in read_games(handle, variant=v, errors="skip"):
                if record.variant == v:
                    yield list(record.game.positions)


def store_games(v: Variant, url: str) -> Iterator[list[Position]]:
    """The positions of every game of ``v`` in a Damiera store (the site's database)."""
    from sqlalchemy import select

    from damiera.web.store import GameStore
    from damiera.web.store_tables import GameRow

    store = GameStore(url)
    try:
        with store.engine.connect() as conn:
            rows = conn.execute(select(GameRow.start_fen, GameRow.moves).where(
                GameRow.variant == v.id, GameRow.optional_capture == v.optional_capture))
            for start_fen, moves in rows:
                game = Game(v, start_fen, enforce_draws=False)
                for text in moves:
                    game.play(text)
                yield list(game.positions)
    finally:
        store.close()


class Collection:
    """A rule set's puzzles: those already in its file and those found now (appended to
    the file as they come)."""

    def __init__(self, v: Variant, folder: Path):
        self.variant = v
        self.path = data_file(variant_key(v), folder)
        self.puzzles: dict[str, Puzzle] = {}
        if self.path.exists():
            self.puzzles = {p.id: p for p in read_puzzles(self.path)}
        self.found = 0

    def add(self, puzzle: Puzzle) -> None:
        if puzzle.id in self.puzzles:
            return
        self.puzzles[puzzle.id] = puzzle
        self.found += 1
        with gzip.open(self.path, "at", encoding="utf-8") as handle:
            handle.write(puzzle.json_line() + "\n")

    def finish(self) -> None:
        if self.puzzles:
            write_puzzles(self.path, self.puzzles.values())


def recheck(c: Collection, finder: Finder) -> None:
    """Keep only the puzzles of ``c`` that :meth:`Finder.confirm` still accepts (main sets
    its depth to :attr:`Settings.recheck_depth`, the depth the test suite judges them at):
    what to run after the engine's search or evaluation changed. Rewrites the file and
    prints how many stayed."""
    from damiera.rules.notation import parse_move
    from damiera.rules.position import parse_fen

    kept = {}
    for p in c.puzzles.values():
        position = parse_fen(c.variant, p.fen)
        if finder.confirm(position, parse_move(c.variant, position, p.solution[0])):
            kept[p.id] = p
    print(f"{c.variant.id}: {len(kept)} of {len(c.puzzles)} puzzles confirmed at "
          f"{finder.confirm_plies} plies", flush=True)
    c.puzzles = kept
    c.finish()


def _variants(ids: Iterable[str], optional_capture: bool) -> list[Variant]:
    """The rule sets of ``ids`` (with the optional-capture house rule: those it applies to)."""
    out = []
    for vid in ids:
        try:
            out.append(variant(vid, optional_capture=optional_capture))
        except VariantOptionError:
            continue
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="+",
                        help="rule set ids, or 'all': those that have a file in --out (the "
                             "seven shipped; name another to start its file)")
    parser.add_argument("--count", type=int, default=1000, help="puzzles wanted per rule set")
    parser.add_argument("--self-play", type=int, default=100_000,
                        help="most self-play games per rule set (0: none)")
    parser.add_argument("--pdn", type=Path, action="append", default=[], help="PDN file")
    parser.add_argument("--database-url", help="a Damiera store whose games are read")
    parser.add_argument("--optional-capture", action="store_true", help="the house rule")
    parser.add_argument("--out", type=Path, default=DATA, help="data folder")
    parser.add_argument("--seed", type=int, default=None, help="random seed")
    parser.add_argument("--batch", type=int, default=4, help="games per rule set per turn")
    parser.add_argument("--recheck", action="store_true",
                        help="judge every puzzle already in the files two plies deeper than "
                             "the confirm depth (as the tests do), drop those whose first move "
                             "is no longer the only win, and give the new ones their last "
                             "check at that depth too; run it after the engine changed")
    args = parser.parse_args(argv)
    if args.variants == ["all"]:
        chosen = [v for v in _variants(VARIANTS, args.optional_capture)
                  if data_file(variant_key(v), args.out).exists()]
        if not chosen:
            parser.error(f"'all' names the rule sets with a file in {args.out}: it has none")
    else:
        try:
            chosen = [variant(vid, optional_capture=args.optional_capture)
                      for vid in args.variants]
        except ValueError as error:   # an unknown rule set, or the house rule on 10x10
            parser.error(str(error))
    ids = [v.id for v in chosen]
    rng = random.Random(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    collections = [Collection(v, args.out) for v in chosen]
    finders = {c.variant: Finder(c.variant, settings_for(c.variant), variant_key(c.variant))
               for c in collections}
    players: dict[Variant, dict[int, Engine]] = {c.variant: {} for c in collections}
    started = time.monotonic()
    if args.recheck:
        for c in collections:
            finders[c.variant].final_depth = finders[c.variant].settings.recheck_depth
            recheck(c, finders[c.variant])
    try:
        for c in collections:   # games given first: each is read once
            sources = list(pdn_games(c.variant, args.pdn)) if args.pdn else []
            if args.database_url:
                sources += list(store_games(c.variant, args.database_url))
            for positions in sources:
                if len(c.puzzles) >= args.count:
                    break
                find_in_game(finders[c.variant], positions, on_puzzle=c.add)
        games = dict.fromkeys(ids, 0)
        while True:
            wanting = [c for c in collections if len(c.puzzles) < args.count
                       and games[c.variant.id] < args.self_play]
            if not wanting:
                break
            for c in wanting:
                for _ in range(args.batch):
                    games[c.variant.id] += 1
                    positions = self_play(c.variant, rng, players[c.variant])
                    find_in_game(finders[c.variant], positions[4:], on_puzzle=c.add)
                f = finders[c.variant]
                print(f"{c.variant.id}: {len(c.puzzles)} puzzles ({c.found} new) from "
                      f"{games[c.variant.id]} games; {f.screens} screened, {f.candidates} "
                      f"candidates, {f.verified} verified; {time.monotonic() - started:.0f} s",
                      flush=True)
    except KeyboardInterrupt:
        print("stopped; keeping what was found", file=sys.stderr)
    finally:
        for c in collections:
            c.finish()
    return 0


if __name__ == "__main__":
    sys.exit(main())
