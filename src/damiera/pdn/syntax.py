"""PDN syntax: tokens grouped into raw games (tags, moves as written, comments, NAGs,
variations, result), with :class:`PdnError` for what the grammar refuses.

Source: PDN 3.0's reading grammar. A game is a tag section followed by movetext and ends
with a result; a new game's tags after movetext without a result, a move number without a
move, a result inside a variation, an unclosed variation and the tokenizer's errors are
syntax errors. After one the rest of the game is skipped (to its result, or to the next
game's tags at the start of a line), so reading goes on with the next game.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from damiera.pdn.tokens import Kind, Token

#: Deepest nesting of variations read.
MAX_DEPTH = 32
#: Most tokens in one game (moves, comments, ...): a longer game is an error.
MAX_GAME_TOKENS = 200_000


class PdnError(ValueError):
    """A game that cannot be read or replayed.

    ``line`` and ``column`` (1-based) locate the token at fault; ``game`` is the game's
    number in the input (1-based); ``rule`` a stable code (``syntax``, ``gametype``, ``fen``,
    ``illegal-move``, ``ambiguous-move``, ``limit``); ``message`` the English reason.
    ``str(error)`` is ``"game G, line L, column C: message"``.
    """

    def __init__(self, message: str, line: int, column: int, rule: str, game: int = 0):
        self.message = message
        self.line = line
        self.column = column
        self.rule = rule
        self.game = game
        super().__init__(message)

    def __str__(self) -> str:
        return f"game {self.game}, line {self.line}, column {self.column}: {self.message}"


@dataclass
class RawPly:
    """A move as written (``token``), not yet matched to a legal move, with its NAGs,
    comments and variations (lists of raw plies)."""

    token: Token
    nags: list[str] = field(default_factory=list)
    comment_before: str = ""
    comment: str = ""
    variations: list[list[RawPly]] = field(default_factory=list)


@dataclass
class RawGame:
    """One game as read: ``line`` where it starts, ``tags`` (name, value, name token),
    ``plies``, ``comment`` before the first move, ``result`` token, and the first syntax
    ``error`` (the plies read before it are kept)."""

    line: int
    tags: list[tuple[str, str, Token]] = field(default_factory=list)
    plies: list[RawPly] = field(default_factory=list)
    comment: str = ""
    result: str = "*"
    error: PdnError | None = None


class _Syntax(Exception):
    def __init__(self, message: str, token: Token):
        super().__init__(message)
        self.message = message
        self.token = token


def _join(a: str, b: str) -> str:
    return f"{a} {b}" if a and b else a or b


class Splitter:
    """Groups tokens into raw games; on a syntax error skips to the end of the game."""

    def __init__(self, tokens: Iterator[Token]):
        self.tokens = tokens
        self.ahead: Token | None = None

    def _next(self) -> Token | None:
        if self.ahead is not None:
            tok, self.ahead = self.ahead, None
            return tok
        return next(self.tokens, None)

    def games(self) -> Iterator[RawGame]:
        while True:
            tok = self._next()
            if tok is None:
                return
            self.ahead = tok
            yield self._game(tok.line)

    def _game(self, line: int) -> RawGame:
        raw = RawGame(line)
        count = 0
        # stack of open lines: the main line, then each open variation
        stack: list[list[RawPly]] = [raw.plies]
        pending = ""  # a comment waiting for the next move of the current line
        in_moves = False
        number: Token | None = None  # a move number not yet followed by its move
        while True:
            tok = self._next()
            if tok is None:
                break
            count += 1
            try:
                if count > MAX_GAME_TOKENS:
                    raise _Syntax(f"a game of more than {MAX_GAME_TOKENS} tokens", tok)
                kind = tok.kind
                if number is not None and kind not in (Kind.MOVE, Kind.COMMENT, Kind.ELLIPSIS):
                    raise _Syntax(f"move number {number.text} is not followed by a move",
                                  number)
                if kind is Kind.TAG_OPEN:
                    if in_moves:
                        self.ahead = tok  # the next game's tags
                        raw.error = PdnError(
                            "the game has no result (1-0, 0-1, 2-0, 1-1, 0-2, 1/2-1/2 or *) "
                            "before the next game's tags", tok.line, tok.column, "syntax")
                        break
                    raw.tags.append(self._tag(tok))
                elif kind is Kind.MOVE:
                    in_moves = True
                    number = None
                    ply = RawPly(tok, comment_before=pending)
                    pending = ""
                    stack[-1].append(ply)
                elif kind is Kind.COMMENT:
                    line_plies = stack[-1]
                    if line_plies and not pending:
                        line_plies[-1].comment = _join(line_plies[-1].comment, tok.text)
                    elif len(stack) == 1 and not line_plies:
                        raw.comment = _join(raw.comment, tok.text)
                    else:
                        pending = _join(pending, tok.text)
                elif kind in (Kind.NAG, Kind.STRENGTH):
                    if not stack[-1]:
                        raise _Syntax(f"{tok.text} before any move", tok)
                    stack[-1][-1].nags.append(tok.text.replace(" ", "").replace("\t", ""))
                elif kind is Kind.NUMBER:
                    in_moves = True
                    number = tok
                elif kind is Kind.ELLIPSIS:
                    in_moves = True  # a move left out ("12. ..."): nothing to play
                    number = None
                elif kind is Kind.OPEN:
                    if not stack[-1]:
                        raise _Syntax("a variation must follow the move it replaces", tok)
                    if len(stack) > MAX_DEPTH:
                        raise _Syntax(f"variations nested deeper than {MAX_DEPTH}", tok)
                    variation: list[RawPly] = []
                    stack[-1][-1].variations.append(variation)
                    stack.append(variation)
                    pending = ""
                    in_moves = True
                elif kind is Kind.CLOSE:
                    if len(stack) == 1:
                        raise _Syntax("')' without a '(' before it", tok)
                    if not stack[-1]:
                        raise _Syntax("an empty variation '( )'", tok)
                    stack.pop()
                    pending = ""
                elif kind is Kind.RESULT:
                    if len(stack) > 1:
                        raise _Syntax("a result inside a variation (a ')' is missing)", tok)
                    raw.result = tok.text
                    break
                elif kind is Kind.ERROR:
                    raise _Syntax(tok.text, tok)
                else:
                    raise _Syntax(f"unexpected {kind.value} {tok.text!r} in the moves", tok)
            except _Syntax as exc:
                raw.error = PdnError(exc.message, exc.token.line, exc.token.column, "syntax")
                self._skip(in_moves)
                return raw
        if number is not None and raw.error is None:
            raw.error = PdnError(f"move number {number.text} is not followed by a move",
                                 number.line, number.column, "syntax")
        if len(stack) > 1 and raw.error is None:
            first = stack[1][0].token if stack[1] else None
            where = (first.line, first.column) if first else (raw.line, 1)
            raw.error = PdnError("a variation is not closed with ')'", *where, "syntax")
        return raw

    def _tag(self, start: Token) -> tuple[str, str, Token]:
        name = self._next()
        if name is None or name.kind is not Kind.NAME:
            raise _Syntax("a tag must be [Name \"value\"]: the name is missing", name or start)
        value = self._next()
        if value is not None and value.kind is Kind.ERROR:
            raise _Syntax(f"tag {name.text}: {value.text}", value)
        if value is None or value.kind is not Kind.STRING:
            got = value or name
            raise _Syntax(f"tag {name.text}: the value must be a quoted string", got)
        close = self._next()
        if close is None or close.kind is not Kind.TAG_CLOSE:
            raise _Syntax(f"tag {name.text}: ']' is missing", close or value)
        return name.text, value.text, name

    def _skip(self, in_moves: bool) -> None:
        """Skip the rest of a broken game: up to its result, or to the next game's tags."""
        depth = 0
        while True:
            tok = self._next()
            if tok is None:
                return
            kind = tok.kind
            if kind is Kind.OPEN:
                depth += 1
            elif kind is Kind.CLOSE:
                depth = max(0, depth - 1)
            elif kind is Kind.RESULT and depth == 0:
                return
            elif kind is Kind.TAG_OPEN and in_moves and tok.column == 1:
                self.ahead = tok
                return
            elif kind in (Kind.MOVE, Kind.NUMBER):
                in_moves = True
