"""``damiera pdn``: check, convert and replay PDN files from the command line.

- ``damiera pdn check FILE...``: reads every game and prints, per file, the games, plies
  and errors (each with its game, line and column). Exit status 1 when a game is broken, 2
  when a file cannot be read or is not a regular file (a FIFO is refused, not waited on); such
  a file gets its error line on standard error and the files after it are still checked.
- ``damiera pdn convert FILE -o OUT``: writes the readable games as canonical PDN 3.0
  (``-o -``: standard output); broken games are reported on standard error and left out
  (exit status 1). The output file is written whole or not at all, through a symlink to the
  file it points to, keeping an existing file's permissions (a new one gets the umask's); a
  FIFO, a device, a directory, a name ending with ``/`` or FILE itself named as OUT is
  refused (exit status 2: writing over FILE would lose its broken games).
- ``damiera pdn replay FILE --game N``: the positions of game N as FEN, one line per ply
  (``ply move FEN``, ply 0 the start).

``--variant`` names the variant of games without a ``GameType`` tag; by default it is
guessed from how the squares are written and which rules replay the games
(:func:`damiera.pdn.read_games` with ``variant="guess"``), and ``check`` says so.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from damiera.cli.common import OutputError, load_variant
from damiera.files import open_regular, replace_regular
from damiera.pdn.reader import PdnGame, read_games
from damiera.pdn.writer import write_game
from damiera.rules.position import write_fen
from damiera.rules.variant import Variant


class _Unreadable(Exception):
    """A file that cannot be opened or read (exit status 2)."""


def _variant(name: str) -> Variant | None:
    """The variant named on the command line; None for ``guess``."""
    return None if name.strip().lower() == "guess" else load_variant(name)


def _games(path: str, v: Variant | None) -> Iterator[PdnGame]:
    """The games of a file (errors collected); :class:`_Unreadable` when it cannot be read."""
    try:
        with open_regular(path) as handle:  # a FIFO is refused, not waited on
            yield from read_games(handle, "guess" if v is None else v, errors="collect")
    except OSError as exc:
        raise _Unreadable(f"{path}: {exc.strerror or exc}") from None


def _cmd_check(args: argparse.Namespace) -> int:
    v = _variant(args.variant)
    status = 0
    for path in args.files:
        games = plies = broken = 0
        guessed: Counter[str] = Counter()
        try:
            for game in _games(path, v):
                games += 1
                plies += len(game.plies)
                if game.guessed:
                    guessed[game.variant.id] += 1
                if game.error is not None:
                    broken += 1
                    print(f"{path}: {game.error}")
        except _Unreadable as exc:  # said, and the other files are checked still
            print(f"damiera: error: {exc}", file=sys.stderr)
            status = 2
            continue
        guesses = ", ".join(f"{name} {n}" for name, n in guessed.most_common())
        note = f" (no GameType; variant guessed: {guesses})" if guesses else ""
        print(f"{path}: {games} games, {plies} plies, {broken} with errors{note}")
        if broken:
            status = max(status, 1)
    return status


def _convert(args: argparse.Namespace, v: Variant | None, write: Callable[[str], Any]) -> int:
    """Write the readable games of ``args.file`` with ``write``; 1 when a game was broken."""
    status = written = 0
    for game in _games(args.file, v):
        if game.error is not None:
            print(f"{args.file}: {game.error}", file=sys.stderr)
            status = 1
            continue
        write(("\n" if written else "") + write_game(game))
        written += 1
    return status


def _same_file(a: str, b: str) -> bool:
    """Whether paths ``a`` and ``b`` name one existing file (``-``: standard input)."""
    try:
        return a != "-" and os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def _cmd_convert(args: argparse.Namespace) -> int:
    v = _variant(args.variant)
    try:
        if args.output == "-":
            return _convert(args, v, sys.stdout.write)
        if _same_file(args.file, args.output):   # its games with errors would be lost
            print(f"damiera: error: {args.output}: the output is the input file; write to "
                  "another file", file=sys.stderr)
            return 2
        # whole or not at all, through a symlink, keeping the file's mode; a FIFO, a device
        # or a directory is refused (damiera.files.replace_regular)
        with replace_regular(args.output) as out:
            return _convert(args, v, lambda text: out.write(text.encode("utf-8")))
    except _Unreadable as exc:
        print(f"damiera: error: {exc}", file=sys.stderr)
        return 2
    except OutputError:  # -o -: standard output, reported as every command's
        raise
    except OSError as exc:
        print(f"damiera: error: {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return 2


def _cmd_replay(args: argparse.Namespace) -> int:
    from damiera.cli.common import UsageError

    v = _variant(args.variant)
    if args.game < 1:
        raise UsageError(f"--game counts from 1, not {args.game}")
    try:
        for game in _games(args.file, v):
            if game.number != args.game:
                continue
            gv = game.variant
            print(f"0 - {write_fen(gv, game.game.positions[0])}")
            for ply, (p, position) in enumerate(zip(game.plies, game.game.positions[1:]), 1):
                print(f"{ply} {p.move} {write_fen(gv, position)}")
            if game.error is not None:
                print(f"{args.file}: {game.error}", file=sys.stderr)
                return 1
            return 0
    except _Unreadable as exc:
        print(f"damiera: error: {exc}", file=sys.stderr)
        return 2
    raise UsageError(f"{args.file} has no game {args.game}")


def register(sub: Any) -> None:
    """Add ``damiera pdn ...`` to the main parser's subcommands."""
    p = sub.add_parser("pdn", help="check, convert and replay PDN files")
    pdn_sub = p.add_subparsers(dest="pdn_command", required=True,
                               parser_class=type(p))
    variant_help = ("variant of games without a GameType tag, or 'guess' (default: guessed "
                    "from the squares and the rules that replay the games)")

    c = pdn_sub.add_parser("check", help="read every game; report errors with line and column")
    c.add_argument("files", nargs="+", metavar="FILE")
    c.add_argument("--variant", default="guess", help=variant_help)
    c.set_defaults(func=_cmd_check)

    c = pdn_sub.add_parser("convert", help="write the games as canonical PDN 3.0")
    c.add_argument("file", metavar="FILE")
    c.add_argument("-o", "--output", required=True, metavar="OUT", help="'-' for stdout")
    c.add_argument("--variant", default="guess", help=variant_help)
    c.set_defaults(func=_cmd_convert)

    c = pdn_sub.add_parser("replay", help="the positions of one game as FEN")
    c.add_argument("file", metavar="FILE")
    c.add_argument("--game", type=int, default=1, help="game number, from 1 (default 1)")
    c.add_argument("--variant", default="guess", help=variant_help)
    c.set_defaults(func=_cmd_replay)
