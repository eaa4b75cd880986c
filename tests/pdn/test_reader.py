"""PDN reading conventions, one rule per test: tags, move numbers, comments, variations,
NAGs, results, GameType, FEN set-ups, captures, leading zeros, encodings, draws played
past, and the three error modes."""

from __future__ import annotations

import io

import pytest

from damiera import pdn
from damiera.pdn import PdnError
from damiera.rules.game import ResultReason


def test_tags_and_movetext_with_numbers_and_ellipsis() -> None:
    text = '[Event "Club"]\n[White "A"]\n[Black "B"]\n1. 32-28 19-23 2. 28x19 14x23 *\n'
    (game,) = pdn.read_games(text)
    assert game.tags == {"Event": "Club", "White": "A", "Black": "B"}
    assert [str(m) for m in game.moves] == ["32-28", "19-23", "28x19", "14x23"]
    assert game.result == "*"


def test_black_move_number_with_dots() -> None:
    (game,) = pdn.read_games("1. 32-28 1... 19-23 2. 28x19 2...14x23 1-1")
    assert len(game.moves) == 4 and game.result == "1-1"


def test_string_escapes_in_tags() -> None:
    (game,) = pdn.read_games('[White "say \\"hi\\" \\\\ bye"]\n1. 32-28 *')
    assert game.tags["White"] == 'say "hi" \\ bye'


def test_comments_percent_lines_and_nags_are_kept_or_skipped() -> None:
    text = "% a line the reader skips\n{before} 1. 32-28! {good} $1 19-23?! 2. 28x19 14x23 *"
    (game,) = pdn.read_games(text)
    assert game.comment == "before"
    assert game.plies[0].nags == ["!", "$1"]
    assert game.plies[0].comment == "good"
    assert game.plies[1].nags == ["?!"]


def test_comment_over_several_lines() -> None:
    (game,) = pdn.read_games("1. 32-28 {one\ntwo\r\nthree} 19-23 *")
    assert game.plies[0].comment == "one two three"


def test_variations_are_replayed_and_kept() -> None:
    text = "1. 32-28 19-23 (1... 18-23 2. 38-32 (2. 37-32? 23-29!) 12-18) 2. 28x19 14x23 *"
    (game,) = pdn.read_games(text)
    (variation,) = game.plies[1].variations
    assert [str(p.move) for p in variation] == ["18-23", "38-32", "12-18"]
    assert [str(p.move) for p in variation[1].variations[0]] == ["37-32", "23-29"]


def test_variations_dropped_when_asked() -> None:
    (game,) = pdn.read_games("1. 32-28 19-23 (18-23) 2. 28x19 *", variations=False)
    assert game.plies[1].variations == []


def test_illegal_move_in_a_variation_is_an_error() -> None:
    with pytest.raises(PdnError, match="in a variation") as info:
        list(pdn.read_games("1. 32-28 19-23 (1... 18-25) 2. 28x19 *"))
    assert info.value.line == 1 and info.value.column == 22


@pytest.mark.parametrize("token", ["1-0", "0-1", "2-0", "0-2", "1-1", "1/2-1/2", "*"])
def test_every_result_ends_a_game(token: str) -> None:
    games = list(pdn.read_games(f"1. 32-28 {token}\n1. 31-27 *"))
    assert [g.result_text for g in games] == [token, "*"]
    assert [g.result for g in games] == [pdn.canonical_result(games[0].variant, token), "*"]


@pytest.mark.parametrize(
    ("gametype", "name"),
    [("20", "international"), ("21", "american"), ("22,W,8,8,N2,1", "italian"),
     ("25", "russian"), ("29,W,8,8,A0,0", "czech")],
)
def test_gametype_number_or_full_form_chooses_the_variant(gametype: str, name: str) -> None:
    (game,) = pdn.read_games(f'[GameType "{gametype}"]\n*')
    assert game.variant.id == name


def test_unknown_gametype_is_an_error_naming_the_known_ones() -> None:
    with pytest.raises(PdnError, match="GameType '32' is not a game") as info:
        list(pdn.read_games('[GameType "32"]\n1. 32-28 *'))
    assert info.value.rule == "gametype" and info.value.line == 1


def test_fen_setup_with_kings_and_black_to_move_numbered_1_dots() -> None:
    text = '[GameType "21"]\n[FEN "B:WK29:BK4"]\n1... 4-8 2. 29-25 *'
    (game,) = pdn.read_games(text)
    assert [str(m) for m in game.moves] == ["4-8", "29-25"]


def test_fen_with_unknown_side_to_move_takes_the_first_movers_side() -> None:
    (game,) = pdn.read_games('[GameType "21"]\n[FEN "?:W29:B4"]\n1. 4-8 *')
    assert game.game.start_fen.startswith("B:")


def test_long_and_short_captures_with_x_or_colon() -> None:
    fen = "W:Wc3:Bd4,f6"
    for move in ("c3:e5:g7", "c3xg7", "c3:g7", "c3-e5-g7"):
        (game,) = pdn.read_games(f'[GameType "25"]\n[FEN "{fen}"]\n1. {move} *')
        assert str(game.moves[0]) == "c3:e5:g7"


def test_squares_with_leading_zeros() -> None:
    (game,) = pdn.read_games("01. 32-28 19-23 02. 28x19 14x23 03. 37-32 09-14 *")
    assert [str(m) for m in game.moves][-1] == "9-14"


def test_algebraic_squares_without_separator() -> None:
    (game,) = pdn.read_games("1.c3d4", "russian")
    assert str(game.moves[0]) == "c3-d4"


def test_ambiguous_short_capture_with_no_continuation_names_the_candidates() -> None:
    # Italian: the man on 3 takes two men to 19 through 10 or through 12.
    text = '[GameType "22"]\n[FEN "B:W6,7,14,15:B3"]\n1... 3x19 *'
    with pytest.raises(PdnError, match=r"3x10x19, 3x12x19") as info:
        list(pdn.read_games(text))
    assert info.value.rule == "ambiguous-move"


def test_repetition_played_past_replays_and_is_noted() -> None:
    shuffle = "1. 4-8 29-25 2. 8-4 25-29 3. 4-8 29-25 4. 8-4 25-29 5. 4-8 29-25"
    (game,) = pdn.read_games(f'[GameType "21"]\n[FEN "B:WK29:BK4"]\n{shuffle} 1/2-1/2')
    assert len(game.moves) == 10
    assert game.noted_draw is not None
    ply, outcome = game.noted_draw
    assert ply == 8 and outcome.reason is ResultReason.REPETITION
    assert game.game.outcome() is None  # noted, not enforced


def test_errors_raise_skip_collect() -> None:
    text = "1. 32-28 *\n1. 32-26 *\n1. 31-27 *"
    with pytest.raises(PdnError) as info:
        list(pdn.read_games(text))
    assert (info.value.game, info.value.line, info.value.column) == (2, 2, 4)
    assert "32-26" in info.value.message
    assert [g.number for g in pdn.read_games(text, errors="skip")] == [1, 3]
    collected = list(pdn.read_games(text, errors="collect"))
    assert [g.error is None for g in collected] == [True, False, True]


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ('[Event "x"\n1. 32-28 *', (2, 1), "']' is missing"),
        ('[Event "x]\n1. 32-28 *', (1, 8), "string is not closed"),
        ("1. 32-28 {open\n19-23 *", (1, 10), "comment is not closed"),
        ("1. 32-28 19-23 ( 18-23 *", (1, 24), "inside a variation"),
        ("1. 32-28 ) *", (1, 10), "')' without"),
        ("1. 32-28 @@ *", (1, 10), "cannot read '@@'"),
        ("1. 32-28 2. *", (1, 10), "move number 2. is not followed"),
    ],
)
def test_syntax_errors_name_line_and_column(text: str, where: tuple[int, int],
                                            words: str) -> None:
    (game,) = pdn.read_games(text, errors="collect")
    assert game.error is not None
    assert (game.error.line, game.error.column) == where
    assert words in game.error.message


def test_reading_goes_on_after_a_broken_game() -> None:
    text = '[Event "a"]\n1. 32-28 {x { y} 19-23 *\n\n[Event "b"]\n1. 31-27 *\n'
    games = list(pdn.read_games(text, errors="collect"))
    assert [g.tags.get("Event") for g in games] == ["a", "b"]
    assert games[0].error is not None and games[1].error is None


def test_encodings_utf8_bom_cp1252_and_crlf() -> None:
    body = '[White "Müller"]\r\n[Black "Œuvre"]\r\n1. 32-28 *\r\n'
    for raw in (body.encode("utf-8"), b"\xef\xbb\xbf" + body.encode("utf-8"),
                body.encode("cp1252")):
        (game,) = pdn.read_games(io.BytesIO(raw))
        assert game.tags == {"White": "Müller", "Black": "Œuvre"}
    latin1 = '[White "\x81x"]\n*'.encode("latin-1")  # undefined in CP1252
    (game,) = pdn.read_games(io.BytesIO(latin1))
    assert game.tags["White"] == "\x81x"


def test_games_are_read_lazily() -> None:
    def lines() -> object:
        yield "1. 32-28 *\n"
        raise AssertionError("read past the first game")

    reader = pdn.read_games(lines())  # type: ignore[arg-type]
    assert len(next(reader).moves) == 1


def test_read_game_returns_the_first_or_none() -> None:
    game = pdn.read_game("1. 32-28 *\n1. 31-27 *")
    assert game is not None and str(game.moves[0]) == "32-28"
    assert pdn.read_game("") is None


def test_bad_errors_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="errors must be"):
        list(pdn.read_games("*", errors="ignore"))  # type: ignore[arg-type]


def test_guessed_variant_from_squares_and_rules() -> None:
    american = "1. 11-15 22-18 2. 15x22 25x18 *\n"
    (game,) = pdn.read_games(american, "guess")
    assert game.variant.id == "american" and game.guessed
    (game,) = pdn.read_games('[GameType "22"]\n1. 21-17 *', "guess")
    assert game.variant.id == "italian" and not game.guessed


def test_guess_learns_along_the_file_and_a_broken_game_does_not_change_it() -> None:
    text = ('[FEN "W:W29:B4"]\n*\n'       # no moves: the first candidate, American
            '[FEN "W:W1:B4"]\n*\n'        # a white man on 1: broken, read as American
            "1. 11-15 22-18 *\n")
    games = list(pdn.read_games(text, "guess", errors="collect"))
    assert [g.variant.id for g in games] == ["american", "american", "american"]
    assert [g.error is None for g in games] == [True, False, True]


def test_max_moves_bounds_the_work_over_the_whole_input_and_stops_reading() -> None:
    one = "1. 32-28 19-23 2. 28x19 14x23 *\n\n"
    games = list(pdn.read_games(one * 10, errors="collect", max_moves=10))
    # 4 moves a game: games 1 and 2 replay, game 3 runs out at its third move, then stop
    assert [g.error is None for g in games] == [True, True, False]
    error = games[2].error
    assert error is not None and error.rule == "limit" and error.line == 5
    assert len(games[2].plies) == 2
    with pytest.raises(PdnError, match="more moves than this reading may try"):
        list(pdn.read_games(one * 10, max_moves=10))
    assert len(list(pdn.read_games(one * 10, max_moves=40))) == 10


def test_a_refused_move_carries_its_number_text_and_the_rules_reason() -> None:
    """The parts of "move 2. 28x17: ..." for a reader in another language to word them."""
    text = '[GameType "20"]\n1. 32-28 19-23 2. 28x17 *\n'
    game = next(pdn.read_games(io.StringIO(text), errors="collect"))
    error = game.error
    assert error is not None and error.rule == "illegal-move"
    assert (error.number, error.move) == ("2.", "28x17")
    assert error.reason is not None and error.reason.code == "not_legal_from_square"
    assert error.message == f"move 2. 28x17: {error.reason}"
    assert error.variation == 0
    # in a variation, and in one inside another: the same parts, and how deep it lies
    for text, depth in [("1. 32-28 19-23 (19-24 2. 28x17) 2. 28x19 *", 1),
                        ("1. 32-28 19-23 (19-24 2. 33-29 (2. 28x17) 24-30) 2. 28x19 *", 2)]:
        error = next(pdn.read_games(io.StringIO(f'[GameType "20"]\n{text}\n'),
                                    errors="collect")).error
        assert error is not None and error.variation == depth
        assert (error.number, error.move) == ("2.", "28x17")
        assert error.reason is not None and error.reason.code == "not_legal_from_square"
        assert error.message == "in a variation: " * depth + f"move 2. 28x17: {error.reason}"
    # other errors have no parts
    error = next(pdn.read_games(io.StringIO("1. 32-28 [19-23 *"), errors="collect")).error
    assert error is not None and error.rule == "syntax"
    assert error.number is None and error.move is None and error.reason is None
