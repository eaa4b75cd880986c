"""PDN on the 12x12 board: algebraic squares past j10 (columns k and l, ranks 11 and 12) in
the move text of a custom 12x12 rule set, and a numbered game without GameType guessed as a
12x12 rule set from its squares above 50."""

from __future__ import annotations

import random

from damiera import Game, pdn
from damiera.pdn.tokens import Kind, tokenize
from damiera.rules.custom import default_fields, write_custom

ALGEBRAIC_12 = write_custom({**default_fields(), "board_size": 12, "board": "algebraic"})


def test_pdn_tokens_read_squares_of_columns_k_and_l_and_ranks_11_and_12() -> None:
    kinds = [(t.kind, t.text) for t in tokenize("1. k5-l6 b12xd10xf12 *")
             ]
    assert [text for kind, text in kinds if kind is Kind.MOVE] == ["k5-l6", "b12xd10xf12"]


def test_a_game_on_the_algebraic_12x12_board_is_read_back_from_its_pdn() -> None:
    game = Game(ALGEBRAIC_12)
    rng = random.Random(7)
    while len(game.moves) < 60 and not game.is_over():
        game.push(rng.choice(list(game.legal_moves)))
    texts = [str(m) for m in game.moves]
    assert any(t[0] in "kl" or "11" in t or "12" in t for t in texts)
    back = pdn.read_game(pdn.write_game(game))
    assert back is not None and back.variant.id == game.variant.id
    assert [str(m) for m in back.moves] == texts


def test_a_numbered_game_without_gametype_with_squares_above_50_is_guessed_12x12() -> None:
    game = Game("canadian")
    rng = random.Random(3)
    for _ in range(12):
        game.push(rng.choice(list(game.legal_moves)))
    text = " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else str(m)
                    for i, m in enumerate(game.moves)) + " *\n"
    (back,) = pdn.read_games(text, "guess")
    assert back.variant.id == "canadian" and back.guessed and back.error is None
    assert [str(m) for m in back.moves] == [str(m) for m in game.moves]
