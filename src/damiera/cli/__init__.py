"""The ``damiera`` command line (a stable interface: other tools call it), one package:

- :mod:`.common`: bad input (:class:`UsageError`: one line on stderr, exit status 2, never a
  traceback), the variant and ``--fen`` readers;
- :mod:`.rules`: ``variants``, ``moves``, ``perft``;
- :mod:`.engine`: ``bestmove``, ``analyse``, ``match``, ``hub``, ``dxp``;
- :mod:`.openings`: ``openings`` (match openings the engine judges level);
- :mod:`.pdn`: ``pdn check | convert | replay``;
- :mod:`.web`: ``serve``, ``worker``; :mod:`.db`: ``db current | upgrade``;
- :mod:`.puzzles`: ``puzzles export``; :mod:`.egdb`: ``egdb build | info``;
- :mod:`.book`: ``book build | info`` (opening books).

Each command module adds its subcommands with ``register(subparsers)``; this module builds
the parser and runs the command (:func:`main`, the console script).
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence
from typing import TextIO

from damiera.cli import book, db, egdb, engine, openings, pdn, puzzles, rules, web
from damiera.cli.common import Parser, UsageError, load_position, load_variant
from damiera.engine.evaluate import learned_enabled
from damiera.engine.switches import SwitchError

__all__ = ["UsageError", "build_parser", "load_position", "load_variant", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The ``damiera`` parser with every subcommand."""
    parser = Parser(prog="damiera", description="Damiera: multi-variant draughts")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for module in (rules, engine, openings, egdb, book, pdn, web, db, puzzles):
        module.register(sub)
    return parser


def show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                 file: TextIO | None = None, line: str | None = None) -> None:
    """A warning as the command line shows it (:data:`warnings.showwarning`'s signature): one
    line ``damiera: warning: MESSAGE`` on stderr, like its errors, not Python's two lines
    pointing into the library that warned."""
    text = " ".join(str(message).split())
    print(f"damiera: warning: {text}", file=sys.stderr if file is None else file)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``damiera`` console script; returns the exit status. Warnings
    (``warnings.warn``, e.g. the engine's about a weights file it refused) are shown by
    :func:`show_warning` while it runs."""
    with warnings.catch_warnings():
        warnings.showwarning = show_warning
        return _run(argv)


def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        # The engine's environment switches before any command starts (SwitchError): a server
        # (hub, dxp, serve, worker) must not start and then fail every search over a mistyped
        # DAMIERA_EVAL.
        learned_enabled()
        status: int = args.func(args)
    except (UsageError, SwitchError) as exc:
        print(f"damiera: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    return status
