"""PDN tags of the goal options: ``[Variant "Antidraughts"]`` / ``[Variant "Breakthrough"]``
beside the rule set's GameType (lidraughts' words), written and read back."""

from __future__ import annotations

import io

import pytest

from damiera import pdn
from damiera.rules.game import Game, ResultReason
from damiera.rules.variant import variant


def test_a_losing_game_is_written_with_the_antidraughts_tag_and_read_back() -> None:
    game = Game("international+losing", fen="W:W32:B28")
    game.play("32x23")
    text = pdn.write_game(game)
    assert '[GameType "20,W,10,10,N2,0"]\n[Variant "Antidraughts"]' in text
    assert text.rstrip().endswith("0-2")  # Black, left without pieces, won
    record = next(pdn.read_games(io.StringIO(text)))
    assert record.variant == variant("international+losing")
    assert record.game.outcome() is not None
    assert record.game.outcome().reason is ResultReason.LOSING_NO_PIECES  # type: ignore[union-attr]


def test_lidraughts_breakthrough_record_reads_as_international_with_breakthrough() -> None:
    text = ('[GameType "20"]\n[Variant "Breakthrough"]\n[FEN "W:W6:B45"]\n\n'
            '1. 6-1 2-0\n')
    record = next(pdn.read_games(io.StringIO(text)))
    assert record.variant.full_id == "international+breakthrough"
    outcome = record.game.outcome()
    assert outcome is not None and outcome.reason is ResultReason.BREAKTHROUGH


def test_other_variant_tag_values_change_nothing() -> None:
    text = '[GameType "20"]\n[Variant "Standard"]\n\n1. 32-28 *\n'
    assert next(pdn.read_games(io.StringIO(text))).variant == variant("international")


def test_a_plain_game_drops_a_stale_goal_tag() -> None:
    game = Game("international")
    text = pdn.write_game(game, tags={"Variant": "Antidraughts"})
    assert "Variant" not in text


@pytest.mark.parametrize("option", ["losing", "breakthrough"])
def test_goal_games_round_trip_on_8x8(option: str) -> None:
    game = Game(f"russian+{option}")
    game.play("c3-d4")
    record = next(pdn.read_games(io.StringIO(pdn.write_game(game))))
    assert record.variant.full_id == f"russian+{option}"
