"""Frisian draughts and Frysk! (docs/rules.md): each named position of
docs/reference/rule_positions.json shown to depend on its rule (the positions themselves are
checked by tests/rules/test_added_rule_sets.py), the Frysk! start, and the orthogonal
directions' tables of the rules core."""

from __future__ import annotations

import dataclasses

import pytest

from damiera.rules.movegen import legal_moves
from damiera.rules.position import start_position, write_fen
from damiera.rules.variant import CaptureChoice, PromotionDuringCapture, variant
from tests.conftest import project_cases
from tests.rules.helpers import moves_of

CASES = project_cases("rule_positions.json")

#: The rule each position shows, as the change of rule parameters that would break it.
RULE_SWITCHED_OFF: dict[str, dict[str, object]] = {
    "frisian_man_captures_along_a_row": {"orthogonal_captures": False},
    "frisian_man_captures_along_a_column_backward": {"orthogonal_captures": False},
    "frisian_king_captures_along_a_row_from_afar": {"orthogonal_captures": False},
    "frisian_a_king_is_worth_more_than_a_man": {"capture_choice": CaptureChoice.MAJORITY},
    "frisian_two_men_are_worth_more_than_a_king": {"capture_choice": CaptureChoice.FREE},
    "frisian_two_kings_are_worth_more_than_three_men": {
        "capture_choice": CaptureChoice.MAJORITY},
    "frisian_at_equal_value_the_king_captures": {"capture_choice": CaptureChoice.MAJORITY},
    "frisian_man_passing_the_far_row_stays_a_man": {
        "promotion_during_capture": PromotionDuringCapture.PROMOTE_AND_STOP},
    "frysk_five_men_each_on_the_back_row": {"man_rows": 4},
}


@pytest.mark.parametrize("case_id", sorted(RULE_SWITCHED_OFF))
def test_frisian_position_depends_on_its_rule(case_id: str) -> None:
    case = next(c for c in CASES if c["id"] == case_id)
    v = variant(case["variant"])
    other = dataclasses.replace(v, **RULE_SWITCHED_OFF[case_id])  # type: ignore[arg-type]
    if "man_rows" in RULE_SWITCHED_OFF[case_id]:
        assert write_fen(other, start_position(other)) != case["fen"]
        return
    assert moves_of(other, case["fen"]) != moves_of(v, case["fen"])


def test_frysk_is_frisian_from_five_men_each() -> None:
    frisian, frysk = variant("frisian"), variant("frysk")
    assert dataclasses.replace(frysk, id="frisian", name=frisian.name, man_rows=4,
                               pdn_gametype=frisian.pdn_gametype) == frisian
    assert write_fen(frysk, start_position(frysk)) == "W:W46,47,48,49,50:B1,2,3,4,5"
    assert len(legal_moves(frysk, start_position(frysk))) == 9


@pytest.mark.parametrize("fen", [
    # a row's last square steps on to the next row's first bit: no capture across the edge
    "W:WK5:B6",
    "W:W25:B26",
    "W:W10:B11",
    # a column's top and bottom
    "W:WK46:B6",
    "W:WK5:B45",
])
def test_no_orthogonal_capture_wraps_around_the_board(fen: str) -> None:
    v = variant("frisian")
    assert not any(m.count("x") for m in moves_of(v, fen))
