"""Every worked example and rule position of the specification (shared/reference)."""

from __future__ import annotations

from typing import Any

import pytest

from damiera.rules.movegen import apply_move, legal_moves
from damiera.rules.notation import move_text
from damiera.rules.position import parse_fen, write_fen
from damiera.rules.variant import variant
from tests.conftest import load_reference, reference_cases
from tests.rules.helpers import normalised

SEEDS = reference_cases("seed_examples.json")
RULE_POSITIONS = reference_cases("rule_positions.json")


def _check(case: dict[str, Any]) -> None:
    v = variant(case["variant"])
    position = parse_fen(v, case["fen"])
    moves = legal_moves(v, position)
    got = normalised([move_text(v, m) for m in moves])
    assert got == normalised(case["legal_moves"]), case.get("rule") or case.get("source")
    if case.get("after_fen"):
        first = next(m for m in moves if move_text(v, m).replace(":", "x") == case["legal_moves"][0])
        after = apply_move(position, first)
        assert write_fen(v, after) == write_fen(v, parse_fen(v, case["after_fen"]))


@pytest.mark.parametrize("case", SEEDS, ids=[c["id"] for c in SEEDS])
def test_seed_example(case: dict[str, Any]) -> None:
    _check(case)


@pytest.mark.parametrize("case", RULE_POSITIONS, ids=[c["id"] for c in RULE_POSITIONS])
def test_rule_position(case: dict[str, Any]) -> None:
    _check(case)


def test_reference_files_are_present() -> None:
    """Fails loudly (skips) rather than passing vacuously when shared/ is missing."""
    assert load_reference("seed_examples.json")["cases"]
    assert load_reference("rule_positions.json")["cases"]
