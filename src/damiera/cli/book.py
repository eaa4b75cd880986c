"""Opening book commands of the ``damiera`` CLI (:mod:`damiera.engine.book`,
:mod:`damiera.engine.book_build`).

``damiera book build RULE_SET --plies N [--full K] (--time S | --depth D) [--margin M]
[--positions P] [--budget MINUTES] [--out FILE]`` analyses the opening with Damiera's own
search (every position of the first K plies, then the likeliest lines up to N plies; S CPU
seconds or D plies a position) and writes the book to FILE (default: ``<rule set>.book`` in
the books' folder, ``$DAMIERA_BOOK_DIR`` else the user's data folder, where the engine looks
for it). When FILE holds a book of the rule set already, its positions are kept and the
building goes on (an interrupted build is restarted where it stopped; the file is rewritten
every 100 positions and at the end). A progress bar goes to stderr; stdout gets::

    book american to /home/me/.local/share/damiera/books/american.book
    done: 1,204 positions (1,204 searched), deepest ply 9, 61,233 bytes, 598.2 CPU s

``damiera book info RULE_SET [--file FILE]`` prints the book's positions, moves, plies and
how it was built. Bad input (values out of range, an unusable file) exits with status 2 and
one line on stderr.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from tqdm import tqdm  # type: ignore[import-untyped]

from damiera.cli.common import UsageError, add_rule_options, variant_of
from damiera.engine import book as books
from damiera.engine.book_build import MAX_BOOK_PLIES, build_book
from damiera.engine.search import MAX_DEPTH, MAX_MOVETIME

#: Positions analysed between two writes of the book file.
SAVE_EVERY = 100


def _cmd_build(args: argparse.Namespace) -> int:
    v = variant_of(args)
    if not 1 <= args.plies <= MAX_BOOK_PLIES:
        raise UsageError(f"--plies must be 1 to {MAX_BOOK_PLIES}, not {args.plies}")
    full = min(args.full, args.plies)
    if full < 0:
        raise UsageError(f"--full must be 0 or more, not {args.full}")
    if args.time is None and args.depth is None:
        raise UsageError("give --time (CPU seconds a position) or --depth (plies)")
    if args.time is not None and not 0 < args.time <= MAX_MOVETIME:
        raise UsageError(f"--time must be above 0 and at most {MAX_MOVETIME:g} seconds")
    if args.depth is not None and not 1 <= args.depth <= MAX_DEPTH:
        raise UsageError(f"--depth must be 1 to {MAX_DEPTH}, not {args.depth}")
    if (not 0 <= args.margin <= books.MAX_BOOK_MARGIN
            or not 1 <= args.positions <= books.MAX_POSITIONS):
        raise UsageError(f"--margin must be 0 to {books.MAX_BOOK_MARGIN} and --positions 1 to "
                         f"{books.MAX_POSITIONS}")
    if args.budget is not None and not args.budget > 0:
        raise UsageError("--budget must be a positive number of CPU minutes")
    out = Path(args.out) if args.out else books.user_dir() / books.file_name(v)
    book = None
    if out.exists():
        try:
            book = books.read_book(v, out)
        except books.BookFileError as exc:
            raise UsageError(f"{exc} (delete it or name another --out)") from None
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot write in {out.parent}: {exc.strerror}") from None
    print(f"book {v.full_id} to {out}" + (f" (going on from {len(book)} positions)"
                                          if book else ""), flush=True)
    book = book or books.Book(v)
    searched = deepest = 0
    cpu = 0.0
    steps = build_book(v, plies=args.plies, full=full, movetime=args.time, depth=args.depth,
                       margin=args.margin, max_positions=args.positions,
                       cpu_budget=None if args.budget is None else args.budget * 60,
                       book=book)
    try:
        with tqdm(total=args.positions, unit="pos", desc=f"{v.id} book", leave=False) as bar:
            for step in steps:
                searched += step.searched
                cpu += step.cpu
                deepest = max(deepest, step.ply)
                bar.set_postfix_str(f"ply {step.ply}, depth {step.depth}", refresh=False)
                bar.update()
                if step.searched and searched % SAVE_EVERY == 0:
                    books.write_book(book, out)
        size = books.write_book(book, out)
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc.strerror}") from None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    print(f"done: {len(book):,} positions ({searched:,} searched), deepest ply {deepest}, "
          f"{size:,} bytes, {cpu:.1f} CPU s")
    return 0


def _cmd_info(args: argparse.Namespace) -> int:
    v = variant_of(args)
    path = Path(args.file) if args.file else books.book_path(v)
    if path is None:
        raise UsageError(f"no book for {v.full_id} (damiera book build {v.id} ...)")
    try:
        book = books.read_book(v, path)
    except books.BookFileError as exc:
        raise UsageError(str(exc)) from None
    moves = sum(len(m) for m in book.positions.values())
    depths = [m[0].depth for m in book.positions.values() if m]
    mean = sum(depths) / len(depths) if depths else 0.0
    print(f"book {v.full_id} in {path}")
    print(f"{len(book):,} positions, {moves:,} moves, mean depth {mean:.1f} plies")
    print(f"built with {json.dumps(book.settings, sort_keys=True)}")
    return 0


def register(sub: Any) -> None:
    """Add ``damiera book build | info`` to the main parser's subcommands."""
    p = sub.add_parser("book", help="opening books from Damiera's own analysis")
    book_sub = p.add_subparsers(dest="book_command", required=True, parser_class=type(p))
    b = book_sub.add_parser("build", help="analyse the opening and write a rule set's book")
    b.add_argument("variant", metavar="RULE_SET")
    b.add_argument("--plies", type=int, required=True, metavar="N",
                   help=f"the deepest book position's plies from the start, 1-{MAX_BOOK_PLIES}")
    b.add_argument("--full", type=int, default=2, metavar="K",
                   help="plies of the full tree (every move of both sides; default 2)")
    b.add_argument("--time", type=float, metavar="S", help="CPU seconds of search a position")
    b.add_argument("--depth", type=int, metavar="D", help="plies of search a position")
    b.add_argument("--margin", type=int, default=books.BOOK_MARGIN, metavar="M",
                   help="the book side's moves: at most M centi-men below the best "
                        f"(default {books.BOOK_MARGIN})")
    b.add_argument("--positions", type=int, default=20_000, metavar="P",
                   help="most positions (default 20000)")
    b.add_argument("--budget", type=float, metavar="MINUTES",
                   help="stop after this many CPU minutes of search")
    b.add_argument("--out", metavar="FILE", help="the book file (default: the books' folder)")
    add_rule_options(b)
    b.set_defaults(func=_cmd_build)
    i = book_sub.add_parser("info", help="what a rule set's book holds")
    i.add_argument("variant", metavar="RULE_SET")
    i.add_argument("--file", metavar="FILE", help="the book file (default: the one the "
                                                    "engine uses)")
    add_rule_options(i)
    i.set_defaults(func=_cmd_info)
