"""``damiera openings``: match openings the engine judges level (:func:`~damiera.engine.
match_openings.balanced_openings`), written for ``damiera match --openings FILE``.

``damiera openings VARIANT --count N [--plies P] [--nodes N] [--margin CENTI_MEN] [--seed S]
[--quiet]`` draws random openings of P plies (default 4 on 8x8 boards, 6 on larger ones, as
``match`` draws them; as many men and as many kings each, no capture pending), searches each for N nodes (default 2,000,000) and prints those scored
within the margin (default 30 centi-men, a man being 100) of level, one a line::

    # damiera openings russian: 50 wanted, 4 plies, |score| <= 30 at 2000000 nodes, seed 1
    B:W18,21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,...  # score +12, depth 15

(``match`` reads the FEN and skips the comment). A progress bar goes to stderr. When fewer
than N openings are found (the variant has too few of that length, or too few are level at
that margin), the ones found are printed and a line on stderr says how many: exit status 1.
Bad input exits with status 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from damiera.cli.common import add_rule_options, int_in, variant_of
from damiera.engine.match_openings import BALANCED_TRIES_EACH, JudgedOpening, balanced_openings
from damiera.rules.position import write_fen

#: Most openings one command makes (a match of 20,000 games).
MAX_COUNT = 10_000
#: Most plies an opening is drawn with.
MAX_PLIES = 40
#: Most nodes one opening is searched (about ten minutes of one core).
MAX_NODES = 2_000_000_000
#: Widest margin (centi-men): ten men.
MAX_MARGIN = 1000


def _cmd_openings(args: argparse.Namespace) -> int:
    v = variant_of(args)
    count = int_in(args.count, "--count", 1, MAX_COUNT)
    plies = (int_in(args.plies, "--plies", 0, MAX_PLIES) if args.plies is not None
             else 4 if v.board_size == 8 else 6)
    nodes = int_in(args.nodes, "--nodes", 1000, MAX_NODES)
    margin = int_in(args.margin, "--margin", 0, MAX_MARGIN)
    from tqdm import tqdm  # type: ignore[import-untyped]

    print(f"# damiera openings {v.full_id}: {count} wanted, {_plies(plies)}, |score| <= "
          f"{margin} at {nodes} nodes, seed {args.seed}", flush=True)
    with tqdm(total=count, desc="level openings", unit="opening", file=sys.stderr,
              disable=args.quiet) as bar:
        searched = 0

        def judged(opening: JudgedOpening, kept: bool) -> None:
            nonlocal searched
            searched += 1
            if kept:
                # Each as it is found: an interrupted run keeps what it had.
                print(f"{write_fen(v, opening.position)}  # score {opening.score:+d}, "
                      f"depth {opening.depth}", flush=True)
                bar.update(1)
            bar.set_postfix(searched=searched, refresh=False)

        found = balanced_openings(v, count, plies=plies, seed=args.seed, nodes=nodes,
                                  margin=margin, on_judged=judged)
    if len(found) < count:
        why = (f"the most searched for {count}" if searched >= count * BALANCED_TRIES_EACH
               else f"{v.full_id} has no more distinct openings of {_plies(plies)}")
        print(f"damiera: found {len(found)} of {count} openings within {margin} ({searched} "
              f"searched, {why})", file=sys.stderr)
        return 1
    return 0


def _plies(n: int) -> str:
    return f"{n} ply" if n == 1 else f"{n} plies"


def register(sub: Any) -> None:
    """Add ``openings`` to the ``damiera`` subcommands."""
    p = sub.add_parser("openings",
                       help="random openings the engine judges level, for match --openings")
    p.add_argument("variant")
    p.add_argument("--count", required=True, help="openings wanted")
    p.add_argument("--plies",
                   help="random plies from the start (default: 4 on 8x8 boards, else 6)")
    p.add_argument("--nodes", default="2000000",
                   help="nodes each opening is searched (default 2000000)")
    p.add_argument("--margin", default="30",
                   help="most |score| kept, in centi-men (a man is 100; default 30)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random openings")
    add_rule_options(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_openings)
