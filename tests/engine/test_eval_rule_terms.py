"""The evaluation's hand-made terms that follow the rule parameters: the king's worth, a
balanced start, and the endings a king holds (flying kings), on fixed positions."""

from __future__ import annotations

import pytest

from damiera.engine.evaluate import (
    KING_FLYING,
    KING_SHORT,
    KING_SHORT_SAFE,
    Evaluator,
)
from damiera.rules.position import parse_fen, start_position
from damiera.rules.variant import VARIANTS, variant


def test_king_value_follows_the_rule_parameters() -> None:
    assert Evaluator(variant("international")).king_value == KING_FLYING
    assert Evaluator(variant("russian")).king_value == KING_FLYING
    assert Evaluator(variant("american")).king_value == KING_SHORT
    assert Evaluator(variant("italian")).king_value == KING_SHORT_SAFE


@pytest.mark.parametrize("vid", list(VARIANTS))
def test_start_position_is_balanced(vid: str) -> None:
    v = variant(vid)
    score = Evaluator(v).evaluate(start_position(v))
    assert abs(score) <= 20  # only the tempo bonus and mobility asymmetry


@pytest.mark.parametrize("vid, held, full", [
    # Russian: three kings against a lone king on the long diagonal a1-h8 is a draw, off it
    # a win (Petrov's triangle).
    pytest.param("russian", "W:WKa3,Kb2,Kc1:BKd4", "W:WKa3,Kb2,Kc1:BKd6",
                 id="russian-lone-king-on-the-main-road"),
    # Russian (8x8): the held draw is scored only in kings-only endings; with a man on the
    # board the plain score stands.
    pytest.param("russian", "W:WKa3,Kb2,Kc1:BKd4", "W:Wa3,Kb2,Kc1:BKd4",
                 id="russian-a-man-beside-the-kings-is-scored-in-full"),
    # International: a king cannot be beaten by three pieces, a man counted as the king it
    # may become; against a man, or against four pieces, the plain score stands.
    pytest.param("international", "W:W28,K1,K5:BK46", "W:W28,K1,K5:B16",
                 id="international-king-holds-draw-against-man-and-two-kings"),
    pytest.param("international", "W:W28,K1,K5:BK46,20", "W:W28,K1,K5:B16",
                 id="international-king-with-a-man-holds-the-draw"),
    pytest.param("international", "W:W28,K1,K5:BK46", "W:W28,K1,K4,K5:BK46",
                 id="international-four-pieces-against-a-king-scored-in-full"),
])
def test_king_holds_the_draw_is_scored_near_zero(vid: str, held: str, full: str) -> None:
    v = variant(vid)
    ev = Evaluator(v)
    drawn = ev.evaluate(parse_fen(v, held))
    assert 0 < drawn < ev.evaluate(parse_fen(v, full)) / 4
    # The side to move does not change the verdict.
    black_to_move = ev.evaluate(parse_fen(v, "B" + held[1:]))
    assert 0 > black_to_move > -ev.evaluate(parse_fen(v, full)) / 4


def test_thai_two_kings_against_a_king_are_scored_in_full() -> None:
    # Thai kings land right behind the piece they capture: two kings beat one in every
    # position of the 4-piece database, so no held draw is scored (it is for kings that may
    # land anywhere beyond).
    v = variant("thai")
    ev = Evaluator(v)
    assert ev.evaluate(parse_fen(v, "W:WK1,K2:BK30")) > KING_FLYING // 2


def test_runaway_man_is_worth_more_than_a_blocked_one() -> None:
    # Russian: the white man on c5 has a free road to the king row unless a piece stands in
    # the cone ahead of it (b8 is in it, h8 is not).
    v = variant("russian")
    ev = Evaluator(v)
    free = ev.evaluate(parse_fen(v, "W:Wc5,a1:Bh8,g7"))
    blocked = ev.evaluate(parse_fen(v, "W:Wc5,a1:Bb8,g7"))
    assert free - blocked >= (KING_FLYING - 100) // 2 - 40
