"""PDN syntax: tokens grouped into raw games (tags, moves as written, comments, NAGs,
variations, result), with :class:`PdnError` for what the grammar refuses.

Source: PDN 3.0's reading grammar. A game is a tag section followed by movetext and ends
with a result; a new game's tags after movetext without a result, a move number without a
move, a result inside a variation, a result with no game before it (a second result, as in
``1-0 0-2``), an unclosed variation and the tokenizer's errors are syntax errors. After one
the rest of the game is skipped (to its result, or to the next game's tags at the start of a
line), so reading goes on with the next game.

A ``*`` written against a move (``22-17*``) is the checkers literature's star, the only move
that wins or draws: a mark on that move (in its ``nags``), unless nothing follows it in
the game (the next game's tags or the end of the input), where it is the game's result.
Each move keeps its number as the file writes it (``7.`` or ``7...``; counted on from the
last number written), so an error names the move as the file does.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from damiera.pdn.tokens import Kind, Token
from damiera.rules.notation import NotationError

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

    A move that the rules refuse (rule ``illegal-move``) also carries its parts, so that a
    reader in another language can word them: ``number`` (the move number as the file
    writes it, ``"7."`` or ``"7..."``), ``move`` (the move as written) and ``reason`` (the
    rules core's :class:`~damiera.rules.notation.NotationError`, with its ``code`` and
    ``params``); ``message`` is then ``"move {number} {move}: {reason}"``, after
    ``"in a variation: "`` once for each of the ``variation`` variations (0: the main line)
    the move is nested in. The parts are None for every other error.
    """

    def __init__(self, message: str, line: int, column: int, rule: str, game: int = 0, *,
                 number: str | None = None, move: str | None = None,
                 reason: NotationError | None = None):
        self.message = message
        self.line = line
        self.column = column
        self.rule = rule
        self.game = game
        self.number = number
        self.move = move
        self.reason = reason
        self.variation = 0
        super().__init__(message)

    def __str__(self) -> str:
        return f"game {self.game}, line {self.line}, column {self.column}: {self.message}"


@dataclass
class RawPly:
    """A move as written (``token``), not yet matched to a legal move, with its NAGs,
    comments and variations (lists of raw plies); ``label`` is its move number as the file
    writes it (``"7."`` for the first side's move, ``"7..."`` for the other's; ``""`` when
    the file numbers no move before it)."""

    token: Token
    label: str = ""
    nags: list[str] = field(default_factory=list)
    comment_before: str = ""
    comment: str = ""
    variations: list[list[RawPly]] = field(default_factory=list)


@dataclass
class RawGame:
    """One game as read: ``line`` where it starts, ``tags`` (name, value, name token),
    ``plies``, ``comment`` before the first move, ``result`` token, the first syntax
    ``error`` (the plies read before it are kept), and ``after``: for a game without tags
    that starts on the line where the game before it ended, that game's result token (a
    ``*`` in the middle of a line of moves often means something else to the file's
    author, and an error in this game then points at it)."""

    line: int
    tags: list[tuple[str, str, Token]] = field(default_factory=list)
    plies: list[RawPly] = field(default_factory=list)
    comment: str = ""
    result: str = "*"
    error: PdnError | None = None
    after: Token | None = None


#: A star: the only move that wins or draws (a ``*`` written against a move).
STAR = "*"


class _Numbers:
    """The file's move numbers along one line of play: the number and side of the next move
    (after ``7.`` the first side's move 7, then ``7...``, then ``8.``)."""

    def __init__(self, number: int | None = None, second: bool = False):
        self.number = number
        self.second = second

    def written(self, token: Token) -> None:
        """A move number token (``7.``, ``7...``)."""
        self.number = int(token.text.rstrip("."))
        self.second = token.text.endswith("...")

    def take(self) -> str:
        """The label of the next move (``""`` before any number), then count it."""
        if self.number is None:
            return ""
        label = f"{self.number}{'...' if self.second else '.'}"
        if self.second:
            self.number += 1
        self.second = not self.second
        return label

    @staticmethod
    def at(label: str) -> _Numbers:
        """Numbers starting at the move labelled ``label`` (a variation replacing it)."""
        if not label:
            return _Numbers()
        return _Numbers(int(label.rstrip(".")), label.endswith("..."))


class _Syntax(Exception):
    def __init__(self, message: str, token: Token):
        super().__init__(message)
        self.message = message
        self.token = token


def _join(a: str, b: str) -> str:
    return f"{a} {b}" if a and b else a or b


class Splitter:
    """Groups tokens into raw games; on a syntax error skips to the end of the game, when
    the next game is asked for (a reader that stops at the error reads no further: the
    rest of a broken game can be the rest of a file of gigabytes)."""

    def __init__(self, tokens: Iterator[Token]):
        self.tokens = tokens
        self.ahead: Token | None = None
        self.ended: Token | None = None  # the result token that ended the last game
        #: The last game broke off at a syntax error: its rest is still to be skipped (the
        #: value: whether the error came in its moves, as :meth:`_skip` takes it).
        self.broken: bool | None = None

    def _next(self) -> Token | None:
        if self.ahead is not None:
            tok, self.ahead = self.ahead, None
            return tok
        return next(self.tokens, None)

    def games(self) -> Iterator[RawGame]:
        while True:
            if self.broken is not None:
                in_moves, self.broken = self.broken, None
                self._skip(in_moves)
            tok = self._next()
            if tok is None:
                return
            self.ahead = tok
            ended, self.ended = self.ended, None
            raw = self._game(tok.line)
            if (ended is not None and not raw.tags and ended.line == tok.line
                    and tok.kind is not Kind.TAG_OPEN):
                raw.after = ended
                if raw.error is not None and not raw.plies and tok.kind is Kind.RESULT:
                    raw.error.message = (f"a second result {tok.text} after the game's "
                                         f"{ended.text} (column {ended.column}): a game has "
                                         "one result")
            yield raw

    def _game(self, line: int) -> RawGame:
        raw = RawGame(line)
        count = 0
        # stack of open lines: the main line, then each open variation
        stack: list[list[RawPly]] = [raw.plies]
        numbers = [_Numbers()]  # the file's move numbers along each open line
        star: Token | None = None  # a star on the last move, the last token read
        pending = ""  # a comment waiting for the next move of the current line
        in_moves = False
        number: Token | None = None  # a move number not yet followed by its move
        while True:
            tok = self._next()
            if tok is None:
                break
            count += 1
            last_star, star = star, None
            try:
                if count > MAX_GAME_TOKENS:
                    raise _Syntax(f"a game of more than {MAX_GAME_TOKENS} tokens", tok)
                kind = tok.kind
                if number is not None and kind not in (Kind.MOVE, Kind.COMMENT, Kind.ELLIPSIS):
                    raise _Syntax(f"move number {number.text} is not followed by a move",
                                  number)
                if kind is Kind.TAG_OPEN:
                    if last_star is not None and len(stack) == 1:
                        self.ahead = tok  # the next game's tags; the star was the result
                        self._star_result(raw)
                        break
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
                    ply = RawPly(tok, numbers[-1].take(), comment_before=pending)
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
                    if tok.text == STAR:
                        star = tok
                elif kind is Kind.NUMBER:
                    in_moves = True
                    number = tok
                    numbers[-1].written(tok)
                elif kind is Kind.ELLIPSIS:
                    in_moves = True  # a move left out ("12. ..."): nothing to play
                    if number is not None:
                        numbers[-1].second = True
                    number = None
                elif kind is Kind.OPEN:
                    if not stack[-1]:
                        raise _Syntax("a variation must follow the move it replaces", tok)
                    if len(stack) > MAX_DEPTH:
                        raise _Syntax(f"variations nested deeper than {MAX_DEPTH}", tok)
                    variation: list[RawPly] = []
                    stack[-1][-1].variations.append(variation)
                    stack.append(variation)
                    numbers.append(_Numbers.at(stack[-2][-1].label))
                    pending = ""
                    in_moves = True
                elif kind is Kind.CLOSE:
                    if len(stack) == 1:
                        raise _Syntax("')' without a '(' before it", tok)
                    if not stack[-1]:
                        raise _Syntax("an empty variation '( )'", tok)
                    stack.pop()
                    numbers.pop()
                    pending = ""
                elif kind is Kind.RESULT:
                    if len(stack) > 1:
                        raise _Syntax("a result inside a variation (a ')' is missing)", tok)
                    raw.result = tok.text
                    self.ended = tok
                    if not (raw.tags or raw.plies or raw.comment or in_moves):
                        # a second result after a game's (1-0 0-2), or a result alone
                        raw.error = PdnError(
                            f"a result {tok.text} with no game before it (a game has one "
                            "result)", tok.line, tok.column, "syntax")
                    break
                elif kind is Kind.ERROR:
                    raise _Syntax(tok.text, tok)
                else:
                    raise _Syntax(f"unexpected {kind.value} {tok.text!r} in the moves", tok)
            except _Syntax as exc:
                raw.error = PdnError(exc.message, exc.token.line, exc.token.column, "syntax")
                self.broken = in_moves  # skipped when the next game is asked for
                return raw
        if star is not None and len(stack) == 1 and raw.error is None:
            self._star_result(raw)  # the end of the input
        if number is not None and raw.error is None:
            raw.error = PdnError(f"move number {number.text} is not followed by a move",
                                 number.line, number.column, "syntax")
        if len(stack) > 1 and raw.error is None:
            first = stack[1][0].token if stack[1] else None
            where = (first.line, first.column) if first else (raw.line, 1)
            raw.error = PdnError("a variation is not closed with ')'", *where, "syntax")
        return raw

    @staticmethod
    def _star_result(raw: RawGame) -> None:
        """A star on the game's last move: the result ``*`` written against it."""
        raw.plies[-1].nags.pop()
        raw.result = STAR

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
