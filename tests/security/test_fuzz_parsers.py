"""Every text parser on any Unicode text (Hypothesis, awkward characters often: controls,
separators, Unicode spaces, lone surrogates): PDN, FEN, move text, the Hub protocol and DXP
give a result or their own clear error, never another exception. Bounded example counts keep
the suite quick."""

from __future__ import annotations

import io

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from damiera import pdn
from damiera.engine.dxp_protocol import DxpError, MessageReader, MoveMsg, decode, find_move
from damiera.engine.hub import HubSession
from damiera.engine.hub_protocol import (
    HubError,
    parse_hub_move,
    parse_line,
    parse_position,
    read_lines,
)
from damiera.pdn import PdnError, tokenize
from damiera.rules.game import Game, GameOverError
from damiera.rules.notation import NotationError, parse_move
from damiera.rules.position import FenError, parse_fen, start_position
from damiera.rules.variant import VARIANTS
from tests.security.unicode_text import AWKWARD, any_text, text_with

QUICK = settings(max_examples=120, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
VARIANT = st.sampled_from(list(VARIANTS.values()))


def _utf8(text: str) -> bytes:
    """The bytes a file or socket would carry (a lone surrogate as its invalid UTF-8)."""
    return text.encode("utf-8", "surrogatepass")


PDN_PIECES = ['[GameType "20"]\n', '[GameType "21"]\n', '[FEN "W:W31-50:B1-20"]\n',
              '[Event "', '"]', "[", "]", "1.", "1...", "32-28", "19-23", "28x19", "14x23",
              "c3-d4", "a3:b4", "{", "}", "(", ")", "$1", "!?", "%", "\n", " ", "2-0", "1-0",
              "*", "1/2-1/2", "\\", '"']


@QUICK
@given(text_with(PDN_PIECES, 30), st.sampled_from([None, "guess", "italian", "russian"]))
def test_pdn_reader_collects_errors_on_any_text(text: str, variant: str | None) -> None:
    for game in pdn.read_games(text, variant, errors="collect"):
        if game.error is not None:
            assert game.error.line >= 1 and game.error.column >= 1 and game.error.message
    for game in pdn.read_games(_utf8(text), variant, errors="skip"):
        assert game.error is None
    try:
        list(pdn.read_games(io.StringIO(text), variant, errors="raise"))
    except PdnError as exc:
        assert str(exc)


@QUICK
@given(any_text(200))
def test_pdn_tokenizer_on_any_text_and_bytes(text: str) -> None:
    for source in (text, _utf8(text), io.BytesIO(_utf8(text))):
        for token in tokenize(source):
            assert token.line >= 1 and token.column >= 1


FEN_PIECES = ["W", "B", ":", ":W", ":B", "K", "21-32", "1-12", "1,", "2", "50", "a1", "c3",
              "Kd4", ",", "-", ".", '"', " ", "0", "99"]


@QUICK
@given(VARIANT, text_with(FEN_PIECES))
def test_fen_gives_a_position_or_a_fen_error(variant: object, text: str) -> None:
    try:
        parse_fen(variant, text)   # type: ignore[arg-type]
    except FenError as exc:
        assert str(exc)


MOVE_PIECES = ["22-18", "32-28", "c3-d4", "c3", "d4", "x", "-", ":", "×", "22", "18", "0",
               "a", "h8", " ", "10", "x6"]


@QUICK
@given(VARIANT, text_with(MOVE_PIECES, 8), st.integers(0, 6))
def test_move_text_gives_a_move_or_a_notation_error(variant: object, text: str,
                                                    plies: int) -> None:
    game = Game(variant)   # type: ignore[arg-type]
    for n in range(plies):                         # somewhere in a game, not only at its start
        moves = game.legal_moves()
        if not moves:
            break
        game.play(moves[n % len(moves)])
    try:
        parse_move(game.variant, game.position, text)
    except NotationError as exc:
        assert str(exc)
    before = game.fen()
    try:
        game.play(text)
    except (NotationError, GameOverError):
        assert game.fen() == before                # nothing half-done


HUB_PIECES = ["hub", "init", "ping", "new-game", "set-param", "pos", "level", "name=",
              "variant", "value=", "normal", "italian", "pos=", "moves=", '"', "=", " ",
              "depth=", "move-time=", "time=", "inc=", "infinite", "32-28", "W", "B",
              "e" * 50, "stop", "nan", "-1", "1e308"]


@QUICK
@given(text_with(HUB_PIECES, 12))
def test_hub_lines_give_words_or_a_hub_error(line: str) -> None:
    try:
        parse_line(line)
    except HubError as exc:
        assert exc.args[0].isascii()
    for item in read_lines(io.BytesIO(_utf8(line) + b"\n")):
        assert isinstance(item, str | HubError)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.lists(text_with(HUB_PIECES, 10), min_size=1, max_size=6))
def test_a_hub_session_answers_any_line_without_failing(lines: list[str]) -> None:
    """Lines that would start a search (go, ponder-hit) are left out: searches are tested on
    their own."""
    parsed = []
    for line in lines:
        try:
            parsed.append(parse_line(line)[0])
        except HubError:
            parsed.append("")
    assume(not {"go", "ponder-hit", "quit"} & set(parsed))
    out = io.StringIO()
    session = HubSession(out)
    try:
        for line in lines:
            assert session.handle(line) is True
    finally:
        session.close()
    for answer in out.getvalue().splitlines():
        assert answer.split(" ", 1)[0] in ("id", "param", "wait", "ready", "pong", "error")


@QUICK
@given(VARIANT, text_with(["W", "B", "w", "b", "e", "W" * 32, "e" * 50, "32-28", "x"], 10))
def test_hub_positions_and_moves_give_a_result_or_a_hub_error(variant: object,
                                                              text: str) -> None:
    v = variant
    try:
        pos = parse_position(v, text)   # type: ignore[arg-type]
    except HubError:
        pos = start_position(v)   # type: ignore[arg-type]
    try:
        parse_hub_move(v, pos, text)   # type: ignore[arg-type]
    except HubError as exc:
        assert str(exc).isascii()


DXP_PIECES = ["C", "R", "A", "M", "E", "B", "K", "01", "Damiera", "W", "Z", "A", "B",
              "0", "1", "2", "3", "005", "075", "0001", "32", "28", "00", "ze" * 25, " "]


@QUICK
@given(text_with(DXP_PIECES, 14))
def test_dxp_messages_give_a_message_or_a_dxp_error(text: str) -> None:
    v = VARIANTS["international"]
    try:
        msg = decode(v, text)
    except DxpError as exc:
        assert str(exc)
        return
    if isinstance(msg, MoveMsg):
        try:
            find_move(v, start_position(v), msg)
        except DxpError as exc:
            assert str(exc)


@QUICK
@given(st.lists(st.binary(max_size=40) | st.sampled_from([b"\0", _utf8("".join(AWKWARD))]),
                max_size=10))
def test_dxp_framing_cuts_any_bytes_into_messages_or_errors(chunks: list[bytes]) -> None:
    reader = MessageReader()
    for chunk in chunks:
        for item in reader.feed(chunk):
            assert isinstance(item, str | DxpError)
            if isinstance(item, str):
                assert item.isascii()
