"""The PDN tokenizer on any text: it never raises, every token lies where it says, and
well-formed pieces come back as the tokens they are (Hypothesis)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from damiera import pdn
from damiera.cli import main
from damiera.pdn import Kind, tokenize
from damiera.pdn.tokens import MAX_LINE

ALPHABET = st.sampled_from(list('[]{}()"%$!?.*-x:/\\ \t\r\n01234569abcdhWBK=;') + ["é", "\x00"])
PIECES = st.sampled_from([
    '[Event "a b"]', '[FEN "W:W31-50:B1-20"]', "1.", "12...", "...", "32-28", "28x19",
    "14x23x32", "c3:e5", "a3b4", "06-11", "1- 6", "!?", "(!?)", "$12", "{note}", "(", ")",
    "1-0", "0-1", "2-0", "0-2", "1-1", "1/2-1/2", "*", "%x\n", "\n", " ", "{", "}", '"',
])


@settings(max_examples=300, deadline=None)
@given(st.text(ALPHABET, max_size=300))
def test_tokenizer_never_raises_and_positions_are_in_the_text(text: str) -> None:
    lines = text.replace("\r\n", "\n").split("\n")
    for token in tokenize(text):
        assert 1 <= token.line <= len(lines) + 1
        assert token.column >= 1


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=60))
def test_reader_never_crashes_on_pieces_of_pdn(pieces: list[str]) -> None:
    text = " ".join(pieces)
    for game in pdn.read_games(text, errors="collect"):
        if game.error is not None:
            assert game.error.line >= 1 and game.error.column >= 1


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["32-28", "1.", "{c}", "$3", "(", ")", "2-0", "*"]),
                max_size=40))
def test_well_formed_tokens_come_back_in_order(words: list[str]) -> None:
    kinds = {"32-28": Kind.MOVE, "1.": Kind.NUMBER, "{c}": Kind.COMMENT, "$3": Kind.NAG,
             "(": Kind.OPEN, ")": Kind.CLOSE, "2-0": Kind.RESULT, "*": Kind.RESULT}
    tokens = list(tokenize(" ".join(words)))
    assert [t.kind for t in tokens] == [kinds[w] for w in words]
    column = 1
    for token, word in zip(tokens, words, strict=True):
        assert token.column == column
        column += len(word) + 1


def test_a_line_longer_than_the_limit_is_cut_with_an_error() -> None:
    tokens = list(tokenize("1. 32-28 " + "{" + "x" * (MAX_LINE + 10) + "}\n2. 31-27 *"))
    assert tokens[0].kind is Kind.ERROR and "longer than" in tokens[0].text
    assert tokens[-1].kind is Kind.RESULT and tokens[-1].line == 2


class _CountingBytes(io.BytesIO):
    """A binary file handle that counts the bytes its readers took."""

    taken = 0

    def readline(self, size: int | None = -1) -> bytes:
        line = super().readline(size)
        self.taken += len(line)
        return line

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        self.taken += len(data)
        return data


def test_reading_the_first_game_stops_at_an_overlong_line() -> None:
    """A first game whose line is past the limit is refused when the limit is reached: the
    rest of that line (a file of gigabytes without a newline) is not read to skip it."""
    tail = 50 * MAX_LINE  # the rest of the line, never reached
    handle = _CountingBytes(b"[Event " + b"x" * (MAX_LINE + 10) + b"y" * tail)
    with pytest.raises(pdn.PdnError, match="longer than"):
        pdn.read_game(handle)
    assert handle.taken <= 2 * MAX_LINE + 2


def test_tokenizing_is_linear_in_the_input() -> None:
    """Counted, not timed: the tokens of n copies of a game are n times those of one."""
    one = "1. 32-28 {a} 19-23 (18-23) 2. 28x19 $1 14x23 2-0\n"
    assert len(list(tokenize(one * 200))) == 200 * len(list(tokenize(one)))


def test_a_run_of_squares_and_separators_is_one_token() -> None:
    """No backtracking over a long run: it is one move token (then refused by the reader),
    however it ends, so the tokenizer stays linear."""
    for text in ("1 - " * 2000 + "a", "1-" * 2000 + "a"):
        kinds = [t.kind for t in tokenize(text)]
        assert kinds[0] is Kind.MOVE and len(kinds) <= 3


@pytest.mark.parametrize("space", ["\u00a0", "\u001c", "\u001d", "\u001e", "\u001f", "\u0085",
                                   "\u2028", "\u2029", "\u3000", "\u202f"])
def test_unicode_spaces_as_pasted_from_a_web_page_separate_tokens(space: str) -> None:
    """A non-breaking space (or another character Unicode counts as white space) between
    tokens is white space, not a crash."""
    text = f'[GameType "20"]\n1.{space}32-28 19-23{space}*\n'
    (game,) = pdn.read_games(text, errors="collect")
    assert game.error is None and [str(m) for m in game.moves] == ["32-28", "19-23"]
    assert [t.kind for t in tokenize(f"1.{space}32-28")] == [Kind.NUMBER, Kind.MOVE]


def test_a_file_with_a_non_breaking_space_is_checked_by_the_cli(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "nbsp.pdn"
    path.write_bytes(b'[GameType "20"]\n1.\xc2\xa032-28 19-23 *\n')
    assert main(["pdn", "check", str(path)]) == 0
    assert "1 games, 2 plies, 0 with errors" in capsys.readouterr().out
