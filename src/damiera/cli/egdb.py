"""Endgame database commands of the ``damiera`` CLI (:mod:`damiera.engine.egdb_files`).

``damiera egdb build RULE_SET --pieces N [--dir PATH] [--optional-capture]`` solves every 8x8
or 10x10 position of up to N pieces (2 to 6 on 8x8, 2 to 5 on 10x10) of the rule set, one
material class at a time, and writes a file per class in ``PATH/<rules key>/`` (default folder: ``$DAMIERA_EGDB_DIR``, else the
user's data folder). A progress bar goes to stderr; stdout gets::

    rules 8x8-f0-b0-k1-c0-p0-l0-r0-o0-m1 in /home/me/.local/share/damiera/egdb
    2 pieces: 4 classes, 4 solved, 0 on disk already, 5,216 bytes, 0.0 s
    3 pieces: ...
    done: 2 to 3 pieces, 399,040 positions, longest win 61 plies

Classes already on disk are read (and checked) instead of solved, so a build that was
interrupted resumes where it stopped.

``damiera egdb info RULE_SET [--dir PATH]`` lists what is on disk, one line per piece count::

    rules 8x8-f0-b0-k1-c0-p0-l0-r0-o0-m1 in /home/me/.local/share/damiera/egdb
    2 pieces: 4 of 4 classes, 5,216 bytes
    3 pieces: 12 of 12 classes, 117,380 bytes
    4 pieces: 0 of 30 classes
    ...
    usable: up to 3 pieces

(``usable: none`` when 2 pieces are not complete). Bad input (a rule set without databases,
pieces out of range, an unusable file) exits with status 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from tqdm import tqdm  # type: ignore[import-untyped]

from damiera.cli.common import OutputError, UsageError, add_rule_options, variant_of
from damiera.engine import egdb_files
from damiera.engine.data_dir import expand_user
from damiera.rules.variant import Variant


def _folder(args: argparse.Namespace) -> Path:
    if args.dir is None:
        return egdb_files.default_dir()
    if not args.dir.strip():
        # An empty --dir (an unset shell variable) is a mistake, not a wish for the default.
        raise UsageError("--dir is empty: name a folder, or leave --dir out for "
                         f"{egdb_files.default_dir()}")
    return expand_user(args.dir)


def _checked(args: argparse.Namespace) -> Variant:
    v = variant_of(args)
    try:
        egdb_files.check_rules(v)
    except ValueError as exc:
        raise UsageError(f"{v.id}: {exc}") from None
    return v


def _label(v: Variant, cls: egdb_files.Class) -> str:
    """The progress bar's label while ``cls`` is solved: ``russian 2 pieces``."""
    return f"{v.id} {egdb_files.pieces_of(cls)} pieces"


def _cmd_build(args: argparse.Namespace) -> int:
    v = _checked(args)
    try:
        egdb_files.check_pieces(v, args.pieces)
    except ValueError as exc:
        raise UsageError(f"--{exc}") from None
    folder = _folder(args)
    print(f"rules {egdb_files.rules_dir(v, folder).name} in {folder}", flush=True)
    classes = egdb_files.empty_database(v, args.pieces).classes
    # Per piece count: classes, solved, read from disk, bytes, seconds.
    rows: dict[int, list[float]] = {}
    last: egdb_files.Step | None = None
    started = time.perf_counter()
    try:
        # labelled with the piece count of the class being solved, not the database's
        with tqdm(total=len(classes), unit="class", desc=_label(v, classes[0]),
                  leave=False, postfix=egdb_files.class_name(classes[0])) as bar:
            for done, step in enumerate(egdb_files.build(v, args.pieces, folder), 1):
                n = egdb_files.pieces_of(step.cls)
                row = rows.setdefault(n, [0, 0, 0, 0, 0.0])
                row[0] += 1
                row[1 if step.solved else 2] += 1
                row[3] += step.bytes
                row[4] += step.seconds
                if done < len(classes):  # the class being solved or read now
                    bar.set_description_str(_label(v, classes[done]), refresh=False)
                    bar.set_postfix_str(egdb_files.class_name(classes[done]), refresh=False)
                bar.update()
                last = step
                if row[0] == sum(1 for c in classes if egdb_files.pieces_of(c) == n):
                    tqdm.write(f"{n} pieces: {row[0]:.0f} classes, {row[1]:.0f} solved, "
                               f"{row[2]:.0f} on disk already, {row[3]:,.0f} bytes, "
                               f"{row[4]:.1f} s")
    except egdb_files.EgdbFileError as exc:
        raise UsageError(f"{exc} (delete the file to build it again)") from None
    except OutputError:  # standard output, not the folder
        raise
    except OSError as exc:
        raise UsageError(f"cannot write in {folder}: {exc.strerror}") from None
    except MemoryError:
        raise UsageError(f"out of memory building {args.pieces} pieces") from None
    assert last is not None  # a database has at least one class
    print(f"done: 2 to {args.pieces} pieces, {last.positions:,} positions, longest win "
          f"{last.max_distance} plies, {time.perf_counter() - started:.1f} s")
    return 0


def _cmd_info(args: argparse.Namespace) -> int:
    v = _checked(args)
    folder = _folder(args)
    print(f"rules {egdb_files.rules_dir(v, folder).name} in {folder}")
    counts = egdb_files.info(v, folder)
    usable, whole = 0, True
    for count in counts:
        size = f", {count.bytes:,} bytes" if count.present else ""
        bad = f", {len(count.unusable)} unusable" if count.unusable else ""
        print(f"{count.pieces} pieces: {count.present} of {count.total} classes{size}{bad}")
        for problem in count.unusable:
            print(f"  unusable: {problem}")
        whole = whole and count.complete and not count.unusable
        usable = count.pieces if whole else usable
    print(f"usable: up to {usable} pieces" if usable else "usable: none")
    if any(count.unusable for count in counts):
        top = max(count.pieces for count in counts if count.present)
        print(f"delete the unusable files and build again: "
              f"{egdb_files.build_command(v, top)}")
    return 0


def register(sub: Any) -> None:
    """Add ``damiera egdb build | info`` to the main parser's subcommands."""
    p = sub.add_parser("egdb", help="endgame databases on disk (8x8 and 10x10 rule sets)")
    egdb_sub = p.add_subparsers(dest="egdb_command", required=True, parser_class=type(p))
    b = egdb_sub.add_parser("build", help="solve and write a rule set's endgame database")
    b.add_argument("variant", metavar="RULE_SET")
    b.add_argument("--pieces", type=int, required=True, metavar="N",
                   help=f"most pieces of a position, 2 to {egdb_files.MAX_DISK_PIECES}")
    b.add_argument("--dir", metavar="PATH",
                   help=f"folder of the databases (default: ${egdb_files.ENV_DIR}, else the "
                        "user's data folder)")
    add_rule_options(b)
    b.set_defaults(func=_cmd_build)
    i = egdb_sub.add_parser("info", help="what is on disk for a rule set")
    i.add_argument("variant", metavar="RULE_SET")
    i.add_argument("--dir", metavar="PATH", help="folder of the databases")
    add_rule_options(i)
    i.set_defaults(func=_cmd_info)
