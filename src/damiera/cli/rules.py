"""The rules commands of the ``damiera`` CLI: ``damiera variants``, ``damiera moves``,
``damiera perft``. Bad input (unknown variant, malformed or impossible FEN, bad depth) exits
with status 2 and one line on stderr saying what is wrong; never a traceback.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from collections.abc import Iterable
from typing import Any

from damiera.cli.common import (
    OutputError,
    UsageError,
    add_rule_options,
    load_position,
    shown,
    variant_of,
)
from damiera.rules.custom import CUSTOM_PREFIX
from damiera.rules.movegen import apply_move, legal_moves, perft
from damiera.rules.notation import move_labels, move_text
from damiera.rules.position import FenError, Position, parse_fen
from damiera.rules.variant import VARIANTS, RuleOption, Variant


def _options_of(v: Variant) -> list[RuleOption]:
    """The rule options ``v`` may be played with (optional capture: 8x8 boards only)."""
    return [option for option in RuleOption
            if option is not RuleOption.OPTIONAL_CAPTURE or v.board_size == 8]


def _cmd_variants(args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps([{**v.rule_parameters(),
                           "options_available": [o.value for o in _options_of(v)]}
                          for v in VARIANTS.values()]))
        return 0
    for v in VARIANTS.values():
        print(f"{v.id}: {v.name}")
        print(
            f"  board {v.board_size}x{v.board_size}, {v.men_per_side} men each, "
            f"{v.first_to_move.word} moves first, "
            f"{v.notation.value} squares "
            + ("(all 64 play)" if v.all_squares else f"({'a1' if v.a1_dark else 'h1'} dark)")
        )
        if v.all_squares:
            print("  men move forward and sideways, kings along rows and columns, never "
                  "diagonally")
        print(
            f"  men capture {'forward and sideways' if v.all_squares else 'backward too' if v.men_capture_backward else 'forward only'}; "
            f"kings {'fly' if v.flying_kings else 'move one square'}"
            f"{', landing right behind the piece they capture' if v.king_lands_behind else ''}; "
            f"men {'may' if v.men_capture_kings else 'may not'} take kings"
        )
        print(
            "  captured pieces: "
            + ("removed at once as they are jumped" if v.remove_captured_at_once
               else "removed when the move ends (Turkish strike)")
            + ("; a capture never turns straight back" if v.no_reverse_capture else "")
        )
        print(
            f"  capture choice: {v.capture_choice.value}; man reaching the far row during a "
            f"capture: {v.promotion_during_capture.value}"
        )
        print(
            f"  draw: {v.draw_moves_without_progress} moves each without capture or promotion,"
            f" or threefold repetition; PDN GameType {v.pdn_gametype}"
        )
        flags = ", ".join(f"--{o.value}" for o in _options_of(v))
        print(f"  options: {flags} (or {v.id}+{RuleOption.LOSING.value} and the like)")
    print(f"{CUSTOM_PREFIX}<code>[:name]: your own rule set, every rule chosen (made on the "
          "site's /custom page; the code is described in damiera.rules.custom)")
    return 0


def _moves_line(v: Variant, position: Position, as_json: bool) -> str:
    moves = legal_moves(v, position)
    if as_json:
        return json.dumps([move_labels(v, m) for m in moves])
    return " ".join(move_text(v, m) for m in moves)


def _cmd_moves(args: argparse.Namespace) -> int:
    v = variant_of(args)
    if args.fens is not None:
        if args.fen is not None:
            raise UsageError("give --fen or --fens, not both")
        if args.fens == "-":
            if isinstance(sys.stdin, io.TextIOWrapper):
                sys.stdin.reconfigure(errors="replace")
            _answer_fens(v, sys.stdin, args.json)
            return 0
        try:
            with open(args.fens, encoding="utf-8-sig", errors="replace") as stream:
                _answer_fens(v, stream, args.json)
        except OutputError:  # the answers could not be written: not the input's fault
            raise
        except OSError as exc:
            raise UsageError(f"cannot read {args.fens}: {exc.strerror}") from None
        return 0
    position = load_position(v, args.fen)
    moves = legal_moves(v, position)
    if args.json:
        print(json.dumps([move_labels(v, m) for m in moves]))
    else:
        for m in moves:
            print(move_text(v, m))
    return 0


def _answer_fens(v: Variant, lines: Iterable[str], as_json: bool) -> None:
    """Answer every input line with exactly one output line (an empty or bad FEN gets an
    error line), so answers match questions by line number."""
    out = sys.stdout
    for raw in lines:
        fen = raw.strip().lstrip("\ufeff")
        try:
            position = parse_fen(v, fen)
        except FenError as exc:
            message = f"bad FEN {shown(fen)}: {exc}"
            out.write((json.dumps({"error": message}) if as_json else f"error: {message}") + "\n")
            continue
        out.write(_moves_line(v, position, as_json) + "\n")
    out.flush()


def _cmd_perft(args: argparse.Namespace) -> int:
    v = variant_of(args)
    text = args.depth.strip()
    if not (text.isascii() and text.isdigit()) or int(text[:3]) > 30 or len(text) > 3:
        raise UsageError(f"depth must be a whole number from 0 to 30, not {shown(args.depth)}")
    depth = int(text)
    position = load_position(v, args.fen)
    started = time.perf_counter()
    if args.divide and depth >= 1:
        total = 0
        for m in legal_moves(v, position):
            n = perft(v, apply_move(position, m), depth - 1)
            total += n
            print(f"{move_text(v, m)}: {n}")
    else:
        total = perft(v, position, depth)
    elapsed = time.perf_counter() - started
    if args.divide:
        print()
    print(f"Time: {elapsed:.3f} s ({total / elapsed if elapsed > 0 else 0:,.0f} nodes/s)")
    print(f"Nodes searched: {total}")
    return 0


def register(sub: Any) -> None:
    """Add ``variants``, ``moves`` and ``perft`` to the CLI's subparsers."""
    p = sub.add_parser("variants", help="list the variants and their rule parameters")
    p.add_argument("--json", action="store_true", help="one JSON array")
    p.set_defaults(func=_cmd_variants)

    p = sub.add_parser("moves", help="every legal move of a position")
    p.add_argument("variant")
    p.add_argument("--fen", help="position in FEN (default: the start position)")
    p.add_argument("--fens", metavar="FILE", help="one FEN per line ('-' for standard input)")
    add_rule_options(p)
    p.add_argument("--json", action="store_true", help="JSON objects instead of notation")
    p.set_defaults(func=_cmd_moves)

    p = sub.add_parser("perft", help="count leaf nodes at a depth")
    p.add_argument("variant")
    p.add_argument("depth")
    p.add_argument("--fen", help="position in FEN (default: the start position)")
    add_rule_options(p)
    p.add_argument("--divide", action="store_true", help="count per first move")
    p.set_defaults(func=_cmd_perft)
