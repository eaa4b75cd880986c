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
import errno
import io
import os
import sys
import warnings
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from damiera.cli import book, db, egdb, engine, openings, pdn, puzzles, rules, web
from damiera.cli.common import OutputError, Parser, UsageError, load_position, load_variant
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


class _Output:
    """Standard output while a command runs: ``write`` and ``flush`` raise the stream's OSError
    as :class:`OutputError`; everything else is the stream's."""

    def __init__(self, stream: TextIO):
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise OutputError(exc.errno, exc.strerror) from exc

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            raise OutputError(exc.errno, exc.strerror) from exc

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _NoOutput(io.StringIO):
    """Standard output when the process has none: every write fails (EBADF, ``standard
    output is closed``); a flush with nothing written does not."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    def fileno(self) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def _output_failed(stream: TextIO | None, exc: OutputError) -> int:
    """Standard output ``stream`` cannot be written: its file descriptor pointed at
    ``os.devnull`` (so that the interpreter's flush at exit does not fail again on what is
    still buffered) and the exit status: 0 quietly for a closed pipe (``| head``), else 1
    after one line on stderr (None: there was no standard output)."""
    try:
        fd = -1 if stream is None else stream.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (a test's capture)
        fd = -1
    if fd >= 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    if exc.errno == errno.EPIPE:
        return 0
    print(f"damiera: error: cannot write the output: {exc.strerror}", file=sys.stderr)
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``damiera`` console script; returns the exit status. Warnings
    (``warnings.warn``, e.g. the engine's about a weights file it refused) are shown by
    :func:`show_warning` while it runs. Standard output that cannot be written (a full disk,
    or none open: REASON ``standard output is closed``) ends the command with one line on
    stderr, ``damiera: error: cannot write the output: REASON``, and status 1; into a closed
    pipe, quietly with status 0."""
    stream = sys.stdout
    with warnings.catch_warnings():
        warnings.showwarning = show_warning
        # No standard output at all (``>&-``: Python then has no sys.stdout): the first write
        # fails as a closed descriptor's would, and the command ends as for any failed write.
        sys.stdout = _Output(_NoOutput() if stream is None else stream)
        try:
            try:
                status = _run(argv)
            except SystemExit:  # argparse's exit after --help or a usage error
                sys.stdout.flush()
                raise
            sys.stdout.flush()  # what is still buffered: the last write that can fail
            return status
        except OutputError as exc:
            return _output_failed(stream, exc)
        finally:
            sys.stdout = stream


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
