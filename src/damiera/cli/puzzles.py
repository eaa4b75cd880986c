"""``damiera puzzles export <rule set> [--out FILE]``: the shipped puzzles of a rule set as
JSON lines, one puzzle a line: ``{"id", "variant", "fen", "solution", "rating", "themes"}``
(``solution``: the whole line in the rule set's notation, the solver's moves and the replies
alternating, the solver's first move first). Without ``--out`` they go to standard output.
An unknown rule set exits with status 2; a rule set without puzzles writes nothing and says
so on standard error (status 0)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from damiera.cli.common import add_rule_options, variant_of
from damiera.puzzles.library import shipped, variant_key


def _cmd_export(args: argparse.Namespace) -> int:
    v = variant_of(args)
    puzzles = shipped(variant_key(v))
    if not puzzles:
        print(f"damiera: no puzzles ship for {v.display_name}", file=sys.stderr)
    if args.out is None:
        for p in puzzles:
            sys.stdout.write(p.json_line() + "\n")
        return 0
    with Path(args.out).open("w", encoding="utf-8") as handle:
        for p in puzzles:
            handle.write(p.json_line() + "\n")
    return 0


def register(sub: Any) -> None:
    """Add ``damiera puzzles ...`` to the main parser's subcommands."""
    p = sub.add_parser("puzzles", help="the shipped tactics puzzles")
    puzzles_sub = p.add_subparsers(dest="puzzles_command", required=True,
                                   parser_class=type(p))
    c = puzzles_sub.add_parser("export", help="a rule set's puzzles as JSON lines")
    c.add_argument("variant", metavar="RULE_SET")
    c.add_argument("--out", metavar="FILE", help="write to FILE (default: standard output)")
    add_rule_options(c)
    c.set_defaults(func=_cmd_export)
