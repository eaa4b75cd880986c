"""The evaluation's hard-win scaling (``csrc/eval.c``, ``hard_win_sixteenths``): with flying
kings on 10x10, four to six pieces against a king and one or two pieces are scored below
their material, since self-play draws many of them (benchmarks/eval_results.md, seventh
International session); without the weaker side's king, or on 8x8, the plain score stands."""

from __future__ import annotations

import pytest

from damiera.engine.evaluate import Evaluator
from damiera.rules.position import parse_fen
from damiera.rules.variant import variant


def _score(vid: str, fen: str) -> int:
    v = variant(vid)
    return Evaluator(v).evaluate(parse_fen(v, fen))


@pytest.mark.parametrize("scaled, plain, men", [
    # Two kings and two men against a king and a man (scaled), against the lone king (not:
    # four pieces beat a lone king in self-play).
    pytest.param("W:W28,33,K1,K5:BK46,20", "W:W28,33,K1,K5:BK46", 1,
                 id="international-four-against-king-and-man"),
    # Four against a king and two men.
    pytest.param("W:W28,33,K1,K5:BK46,20,25", "W:W28,33,K1,K5:BK46", 2,
                 id="international-four-against-king-and-two-men"),
    # Five against a king and two men, against five against the lone king.
    pytest.param("W:W28,33,39,K1,K5:BK46,20,25", "W:W28,33,39,K1,K5:BK46", 2,
                 id="international-five-against-king-and-two-men"),
])
def test_international_hard_win_against_a_king_is_scored_below_material(
        scaled: str, plain: str, men: int) -> None:
    # Unscaled, the weaker side's extra men would take about their worth (100 each) off the
    # lone king's score; scaled, the score is below half of that.
    material = _score("international", plain) - 100 * men
    assert 0 < _score("international", scaled) < material / 2
    # The side to move does not change the verdict.
    assert 0 > _score("international", "B" + scaled[1:]) > -material / 2


def test_international_four_against_two_men_without_a_king_is_scored_in_full() -> None:
    # No king on the weaker side: the plain score, about its two men's worth below the lone
    # king's (a king is worth three men).
    two_men = _score("international", "W:W28,33,K1,K5:B20,25")
    lone_king = _score("international", "W:W28,33,K1,K5:BK46")
    assert two_men > lone_king


def test_russian_four_against_king_and_man_is_scored_in_full() -> None:
    # 8x8: nothing measured, no scaling: the extra man costs the weaker side no more than a
    # man's worth and its terms.
    with_man = _score("russian", "W:Wc3,e3,Ka1,Kh2:Bd8,Kh8")
    lone_king = _score("russian", "W:Wc3,e3,Ka1,Kh2:BKh8")
    assert lone_king - 200 < with_man < lone_king
