"""Late-move and futility pruning (csrc/search.c): it spares the moves a shallow search must
not skip (those that leave the opponent a capture) and the forced wins. (A search that
skipped the first move too fails the forty-move tests of test_search.py.) How many nodes it
saves is measured in ``benchmarks/pruning_bench.py`` (``benchmarks/core_results.md``), not
asserted: tree sizes move with the evaluation.

Fixed depths only: no wall-clock assertion; the hand-made evaluation (tests/engine/conftest.py).
"""

from __future__ import annotations

import pytest

from damiera.engine.search import MATE_BOUND, Searcher, SearchResult
from damiera.rules.notation import move_text
from damiera.rules.position import Position, parse_fen
from damiera.rules.variant import Variant, variant


def searched(v: Variant, pos: Position, depth: int, prune: bool) -> SearchResult:
    searcher = Searcher(v)
    searcher.prune_late_moves = prune
    return searcher.search(pos, depth=depth)


# A middlegame of random play where White's two best moves at depth 6, 23-18 and 23-19 (about
# -1.2 men with the hand-made evaluation, the same with and without the pruning), and 10 of
# its 14 moves, leave Black a capture: a search that also skipped the quiet moves after which
# the opponent can capture (sacrifices, exchanges) at the last plies would judge them, and
# the replies that refute the others, without their exchanges.
OFFERS_A_CAPTURE = ("W:W22,23,31,33,37,38,41,42,43,44,45,46,47,48,49,50:"
                    "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,16,24,26,34,35")


def test_late_move_pruning_spares_moves_that_leave_the_opponent_a_capture() -> None:
    v = variant("international")
    pos = parse_fen(v, OFFERS_A_CAPTURE)
    pruned = searched(v, pos, 6, True)
    full = searched(v, pos, 6, False)
    assert pruned.move is not None and full.move is not None
    # the two are 2 centi-men apart: either may come first, never a third move
    assert {move_text(v, pruned.move), move_text(v, full.move)} <= {"23-18", "23-19"}
    assert abs(pruned.score - full.score) < 50


# The forced wins of tests/engine/test_search.py (a breakthrough to the king row, won in a few
# plies beyond depth 9): the pruning is off where a mate score is at stake, so both searches
# find the same winning move.
FORCED_WINS = [
    ("american", "W:W16,20:B4,7"),
    ("czech", "W:Wh4,g5:Be7,h8"),
    ("russian", "W:Wh4,g5:Be7,h8"),
    ("international", "W:W7,25,44:B15,19,45"),
]


@pytest.mark.parametrize("vid,fen", FORCED_WINS, ids=[w[0] for w in FORCED_WINS])
def test_late_move_pruning_keeps_the_forced_wins(vid: str, fen: str) -> None:
    v = variant(vid)
    pos = parse_fen(v, fen)
    pruned = searched(v, pos, 9, True)
    full = searched(v, pos, 9, False)
    assert pruned.move is not None and full.move is not None
    assert move_text(v, pruned.move) == move_text(v, full.move)
    assert pruned.score > MATE_BOUND and full.score > MATE_BOUND


# -- the ProbCut-style cut only where a capture is on the board ---------------------------------
# In a quiet position its shallow searches rarely beat its bound (one cut in four tries from the
# International start, a third of the nodes: benchmarks/core_results.md), so it is only tried
# where one side or the other can capture.
def probcut_nodes(v: Variant, pos: Position, depth: int, probcut: bool) -> SearchResult:
    searcher = Searcher(v)
    searcher.probcut = probcut
    return searcher.search(pos, depth=depth)


def test_probcut_is_not_tried_where_no_one_can_capture() -> None:
    # The men are too far apart to meet within the search: no node of the tree has a capture,
    # so the cut never runs and both trees are the same.
    v = variant("international")
    pos = parse_fen(v, "W:W41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10")
    with_cut = probcut_nodes(v, pos, 7, True)
    without = probcut_nodes(v, pos, 7, False)
    assert (with_cut.nodes, with_cut.score, with_cut.move) == (without.nodes, without.score,
                                                              without.move)


def test_probcut_cuts_where_captures_are_near() -> None:
    # The middlegame above, where exchanges are offered at once: the cut prunes.
    v = variant("international")
    pos = parse_fen(v, OFFERS_A_CAPTURE)
    assert probcut_nodes(v, pos, 8, True).nodes < probcut_nodes(v, pos, 8, False).nodes
