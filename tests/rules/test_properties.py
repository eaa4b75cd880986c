"""Property tests over random legal games in every variant (and with the house rule)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from damiera.rules.game import Game
from damiera.rules.movegen import apply_move, legal_moves
from damiera.rules.notation import move_text, parse_move
from damiera.rules.position import parse_fen, write_fen
from damiera.rules.variant import VARIANTS, Variant, variant

ALL_VARIANTS = [variant(v) for v in VARIANTS] + [
    variant(v, optional_capture=True) for v in VARIANTS if VARIANTS[v].board_size == 8
]

variants = st.sampled_from(ALL_VARIANTS)
choices = st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=120)


def _random_game(v: Variant, picks: list[int]) -> Game:
    game = Game(v)
    for pick in picks:
        moves = game.legal_moves
        if not moves:
            break
        game.play(moves[pick % len(moves)])
    return game


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(variants, choices)
def test_fen_round_trips_in_random_games(v: Variant, picks: list[int]) -> None:
    game = _random_game(v, picks)
    for position in game.positions:
        fen = write_fen(v, position)
        assert parse_fen(v, fen) == position
        assert write_fen(v, parse_fen(v, fen)) == fen


@SETTINGS
@given(variants, choices)
def test_captured_squares_are_exactly_the_pieces_that_disappear(v: Variant, picks: list[int]) -> None:
    game = _random_game(v, picks)
    for before, played, after in zip(game.positions, game.moves, game.positions[1:]):
        move = played.raw
        mover, other = before.turn, before.turn.opponent
        vanished = before.pieces(other) & ~after.pieces(other)
        assert vanished == move.captured
        assert after.pieces(other) == before.pieces(other) & ~move.captured
        assert after.pieces(mover).bit_count() == before.pieces(mover).bit_count()


@SETTINGS
@given(variants, choices)
def test_piece_counts_never_grow(v: Variant, picks: list[int]) -> None:
    game = _random_game(v, picks)
    for before, after in zip(game.positions, game.positions[1:]):
        assert after.white.bit_count() <= before.white.bit_count()
        assert after.black.bit_count() <= before.black.bit_count()
        # A king never turns back into a man.
        for color in (before.turn, before.turn.opponent):
            kept = before.kings_of(color) & after.pieces(color)
            assert kept & ~after.kings == 0


@SETTINGS
@given(variants, choices)
def test_undo_restores_the_position_exactly(v: Variant, picks: list[int]) -> None:
    game = _random_game(v, picks)
    positions = list(game.positions)
    while game.moves:
        game.undo()
        assert game.position == positions[len(game.moves)]
    assert game.position == game.start


@SETTINGS
@given(variants, choices)
def test_every_listed_move_is_accepted_by_the_parser(v: Variant, picks: list[int]) -> None:
    game = _random_game(v, picks)
    for position in game.positions[-8:]:
        for move in legal_moves(v, position):
            assert parse_move(v, position, move_text(v, move)) == move
            assert apply_move(position, move) is not None
