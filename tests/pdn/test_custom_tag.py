"""PDN of a custom rule set: ``[Variant "custom:..."]`` carries every rule (no GameType
describes one), written and read back to the same game."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from damiera import pdn
from damiera.cli import main
from damiera.rules.custom import write_custom
from damiera.rules.game import Game
from damiera.rules.variant import VARIANTS, custom_fields, variant

#: Russian men and kings on a 10x10 board, Black first, the losing rule, Thai numbering.
CLUB = write_custom({**custom_fields(VARIANTS["russian"]), "board_size": 10, "man_rows": 4,
                     "first_to_move": "B", "losing": True, "board": "thai"}, "Klub Ω")


def _random_game(v_id: str, plies: int, seed: int) -> Game:
    game = Game(v_id)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.is_game_over():
            break
        game.push(rng.choice(game.legal_moves))
    return game


@pytest.mark.parametrize("seed", range(4))
def test_a_custom_game_round_trips_through_its_variant_tag(seed: int) -> None:
    game = _random_game(CLUB, 60, seed)
    text = pdn.write_game(game)
    assert f'[Variant "{CLUB}"]' in text and "GameType" not in text
    record = next(pdn.read_games(io.StringIO(text)))
    assert record.variant == variant(CLUB) and record.game.fen == game.fen
    assert record.moves == game.moves
    assert pdn.write_game(record.game) == text


def test_the_custom_tag_decides_over_a_game_type_and_a_stale_variant_tag() -> None:
    game = _random_game(CLUB, 6, 1)
    text = pdn.write_game(game, tags={"Variant": "Antidraughts", "GameType": "20"})
    assert text.count("[Variant ") == 1 and "GameType" not in text
    body = text.split("\n\n", 1)[1]
    record = next(pdn.read_games(io.StringIO(f'[GameType "20"]\n[Variant "{CLUB}"]\n\n{body}')))
    assert record.variant.full_id == CLUB and record.game.fen == game.fen


def test_a_broken_custom_tag_is_the_games_error_with_the_reason() -> None:
    text = '[Variant "custom:1000001"]\n\n1. 22-18 *\n'  # a short king landing behind
    record = next(pdn.read_games(io.StringIO(text), errors="collect"))
    assert record.error is not None and "only when kings fly" in str(record.error)


def test_optional_capture_on_the_default_10x10_board_is_the_games_error() -> None:
    text = '[CaptureRule "optional"]\n\n1. 32-28 *\n'  # no GameType: International
    record = next(pdn.read_games(io.StringIO(text), errors="collect"))
    assert record.error is not None and "8x8" in str(record.error)
    assert record.error.line == 1


def test_a_custom_variant_tag_states_the_rules_so_nothing_is_guessed() -> None:
    custom_id = write_custom(custom_fields(VARIANTS["russian"]), "Klub")
    text = f'[Variant "{custom_id}"]\n1. c3-d4 f6-g5 *\n'
    (game,) = pdn.read_games(text, "guess")
    assert game.variant.id == custom_id and game.guessed is False and game.error is None


def test_pdn_check_does_not_call_a_custom_game_guessed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    custom_id = write_custom(custom_fields(VARIANTS["russian"]), "Klub")
    path = tmp_path / "custom.pdn"
    path.write_text(f'[Variant "{custom_id}"]\n1. c3-d4 f6-g5 *\n')
    assert main(["pdn", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.strip() == f"{path}: 1 games, 2 plies, 0 with errors"
