"""What every ``damiera`` command shares: :class:`UsageError` (bad input: one line on
stderr, exit status 2), :class:`OutputError` (standard output cannot be written), the parser
that exits so, the rule options' flags, and the readers of a variant name and a ``--fen``."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from damiera.rules.position import FenError, Position, parse_fen, start_position
from damiera.rules.variant import RuleOption, UnknownVariantError, Variant, variant

if TYPE_CHECKING:
    from _typeshed import SupportsWrite


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit status 2."""


class OutputError(OSError):
    """Writing standard output failed (a full disk, a closed pipe, ...): the stream's OSError,
    same ``errno`` and ``strerror``, raised in its place while a command runs
    (:func:`damiera.cli.main`), so that it is told apart from a command's own file errors. An
    OSError still, so that library code that writes standard output and catches OSError
    (the Hub engine's answers) sees it as the error it is."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit status 2, and whose help
    (``--help``) fails as any command's output does when standard output cannot be
    written."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")

    def print_help(self, file: SupportsWrite[str] | None = None) -> None:
        """The help on ``file`` (standard output by default). argparse's own drops the write's
        OSError, which left a full disk unreported (or reported as 'Exception ignored' by the
        interpreter's flush at exit); here standard output's :class:`OutputError` is raised,
        so :func:`damiera.cli.main` ends the command as it ends every other one."""
        (sys.stdout if file is None else file).write(self.format_help())


#: Help of each rule option's flag (``--optional-capture``, ``--losing``, ``--breakthrough``).
OPTION_HELP = {
    RuleOption.OPTIONAL_CAPTURE: "captures are optional (8x8 rule sets)",
    RuleOption.LOSING: "the losing rule (Antidraughts): no piece or no move left wins",
    RuleOption.BREAKTHROUGH: "breakthrough: the first side to make a king wins",
}


def add_rule_options(parser: argparse.ArgumentParser) -> None:
    """Add a flag for every rule option to a command that takes a rule set: ``--`` and the
    option's word (:class:`~damiera.rules.variant.RuleOption`)."""
    for option in RuleOption:
        parser.add_argument(f"--{option.value}", action="store_true", help=OPTION_HELP[option])


def load_variant(name: str, optional_capture: bool = False, *, losing: bool = False,
                 breakthrough: bool = False) -> Variant:
    """Variant from a command-line name (an id, an alias or a GameType number, with any
    ``+option``) and the options' flags, raising :class:`UsageError` with the reason."""
    try:
        return variant(name, optional_capture=optional_capture, losing=losing,
                       breakthrough=breakthrough)
    except (UnknownVariantError, ValueError) as exc:
        raise UsageError(str(exc)) from None


def variant_of(args: argparse.Namespace) -> Variant:
    """The variant of a command's ``variant`` argument and its rule options' flags
    (:func:`add_rule_options`)."""
    return load_variant(args.variant, args.optional_capture, losing=args.losing,
                        breakthrough=args.breakthrough)


def load_position(v: Variant, fen: str | None) -> Position:
    """Position from ``--fen`` (start position when None); :class:`UsageError` if bad."""
    if fen is None:
        return start_position(v)
    try:
        return parse_fen(v, fen)
    except FenError as exc:
        raise UsageError(f"bad FEN {shown(fen)}: {exc}") from None


def int_in(text: str, what: str, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high`` given on the command line (``what`` names the
    option in the message); :class:`UsageError` if it is not one."""
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"{what} must be a whole number, not {shown(text)}") from None
    if not low <= value <= high:
        raise UsageError(f"{what} must be between {low} and {high}, not {value}")
    return value


def shown(text: str, limit: int = 60) -> str:
    """User input quoted for an error message, cut so the message stays one short line."""
    return repr(text if len(text) <= limit else text[:limit] + "...")
