"""Pool checkers and Thai draughts (docs/rules.md): one named position for every rule
(docs/reference/rule_positions.json), each shown to depend on its rule, and the native core
against the Python reference generator on 1,000 random positions of each.

pydraughts, the independent implementation the specification's rule sets are compared with,
knows neither rule set; the reference generator and the published perft counts
(docs/reference/perft.json, tests/rules/test_perft.py) stand in for it."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from damiera.rules.movegen import apply_move, legal_moves
from damiera.rules.notation import move_text
from damiera.rules.position import parse_fen, write_fen
from damiera.rules.variant import CaptureChoice, PromotionDuringCapture, Variant, variant
from tests.conftest import project_cases
from tests.rules.helpers import moves_of, normalised
from tests.rules.test_native_vs_reference import _random_positions

CASES = project_cases("rule_positions.json")


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_rule_position(case: dict[str, Any]) -> None:
    v = variant(case["variant"])
    position = parse_fen(v, case["fen"])
    moves = legal_moves(v, position)
    assert normalised([move_text(v, m) for m in moves]) == normalised(case["legal_moves"])
    if "after_fen" in case:
        first = next(m for m in moves if move_text(v, m) == case["legal_moves"][0])
        assert write_fen(v, apply_move(position, first)) == write_fen(
            v, parse_fen(v, case["after_fen"]))


#: The rule each position shows, as the change of rule parameters that would break it.
RULE_SWITCHED_OFF: dict[str, dict[str, object]] = {
    "pool_man_captures_backward": {"men_capture_backward": False},
    "pool_flying_king_captures_from_afar_and_lands_on_any_square_beyond": {
        "flying_kings": False},
    "pool_free_capture_choice_not_the_most_pieces": {"capture_choice": CaptureChoice.MAJORITY},
    "pool_captured_pieces_block_until_the_move_ends": {"remove_captured_at_once": True},
    "pool_man_passing_through_the_far_row_captures_on_and_stays_a_man": {
        "promotion_during_capture": PromotionDuringCapture.PROMOTE_AND_STOP},
    "thai_men_capture_forward_only": {"men_capture_backward": True},
    "thai_king_flies_on_quiet_moves": {"flying_kings": False},
    "thai_king_captures_from_afar_but_lands_right_behind": {"king_lands_behind": False},
    "thai_king_lands_right_behind_only_on_the_long_diagonal": {"king_lands_behind": False},
    "thai_captured_pieces_removed_at_once_so_the_king_turns_straight_back": {
        "remove_captured_at_once": False},
    "thai_captured_pieces_removed_at_once_so_the_king_lands_where_one_stood": {
        "remove_captured_at_once": False},
    "thai_free_capture_choice_not_the_most_pieces": {"capture_choice": CaptureChoice.MAJORITY},
    "thai_man_crowned_on_the_far_row_during_a_capture_and_the_move_ends": {
        "promotion_during_capture": PromotionDuringCapture.PROMOTE_AND_CONTINUE},
    "thai_men_capture_kings": {"men_capture_kings": False},
}


@pytest.mark.parametrize("case_id", sorted(RULE_SWITCHED_OFF))
def test_rule_position_depends_on_its_rule(case_id: str) -> None:
    """Each position answers differently with its rule changed: it tests that rule."""
    case = next(c for c in CASES if c["id"] == case_id)
    v = variant(case["variant"])
    other = dataclasses.replace(v, **RULE_SWITCHED_OFF[case_id])  # type: ignore[arg-type]
    assert moves_of(other, case["fen"]) != moves_of(v, case["fen"])


def test_thai_king_under_the_turkish_strike_could_not_turn_back() -> None:
    """The same king, with pieces removed at the end instead, stops after one capture."""
    turkish = dataclasses.replace(variant("thai"), remove_captured_at_once=False)
    assert moves_of(turkish, "W:WK10:B6,19") == ["10x1", "10x24"]


@pytest.mark.parametrize("vid", ["pool", "thai"])
def test_native_generator_equals_reference_on_1000_random_positions(vid: str) -> None:
    v: Variant = variant(vid)
    _random_positions(v, 1000, seed=33)
