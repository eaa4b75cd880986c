"""Move text: writing moves in the variant's labels, and reading them back with clear errors.

Source: RULES.md section 4 and DESIGN.md. A quiet move is written ``22-19`` / ``c3-d4``; a
capture lists every square the piece lands on, ``29x22x15x6`` / ``c3xe5xg7`` (Russian writes
``c3:e5:g7``). Reading accepts ``x``, ``:`` or ``-`` between squares, the short form (first and
last square) and any subset of the landing squares in order, as long as exactly one legal
move fits. When none fits, :class:`IllegalMoveError` says why in the rule's own terms; when
several fit, :class:`AmbiguousMoveError` names them.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from damiera.rules.geometry import SquareError, geometry
from damiera.rules.movegen import Move, capture_sequences, legal_moves, quiet_moves
from damiera.rules.position import Position
from damiera.rules.variant import CaptureChoice, Color, PromotionDuringCapture, Variant

_NUMBER_WORDS = (
    "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve",
)


def _count_word(n: int) -> str:
    return _NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else str(n)


class NotationError(ValueError):
    """Move text that cannot be read or matched to a legal move.

    ``code`` names the reason (stable, for translations); ``params`` holds its values
    (square labels, move texts, numbers) as strings; ``str(error)`` is the English message.
    """

    def __init__(self, message: str, code: str, params: dict[str, str] | None = None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.params = params or {}

    def __reduce__(self) -> tuple[object, ...]:
        # Picklable with every attribute (a worker process sends its errors back pickled;
        # the default would call __init__ with the message alone and fail).
        return (_rebuild_error, (type(self), self.args, self.__dict__))


def _rebuild_error(cls: type[NotationError], args: tuple[object, ...],
                   state: dict[str, object]) -> NotationError:
    err = cls.__new__(cls)
    Exception.__init__(err, *args)
    err.__dict__.update(state)
    return err


class IllegalMoveError(NotationError):
    """Readable move text that is not a legal move; the message names the rule it breaks."""


class AmbiguousMoveError(NotationError):
    """Short move text that fits several legal moves; ``candidates`` lists their full texts."""

    def __init__(self, message: str, candidates: list[str]):
        super().__init__(message, "ambiguous", {"candidates": ", ".join(candidates)})
        self.candidates = candidates


def move_text(variant: Variant, move: Move) -> str:
    """Full notation of a move: ``22-19``, ``29x22x15x6``, ``c3xe5`` (``c3:e5`` in Russian)."""
    geo = geometry(variant)
    sep = variant.capture_separator if move.captures else "-"
    return sep.join(geo.label(s) for s in move.path)


def move_labels(variant: Variant, move: Move) -> dict[str, object]:
    """JSON-ready description of a move: ``{"move", "from", "to", "path", "captures",
    "promotes"}`` with squares as official labels (the CLI and web API contract)."""
    geo = geometry(variant)
    return {
        "move": move_text(variant, move),
        "from": geo.label(move.start),
        "to": geo.label(move.end),
        "path": [geo.label(s) for s in move.path],
        "captures": [geo.label(s) for s in move.captures],
        "promotes": move.promotes,
    }


def crowned_at(variant: Variant, move: Move, side: Color) -> int | None:
    """Index in ``move.path`` of the landing from which the moving man is a king, or None
    (a king's move, or a man that is not crowned).

    ``side``: the colour that plays ``move``. Where a man crowned during a capture goes on
    capturing as a king (``promote-and-continue``, Russian: RULES.md section 2), that is its
    first landing on the promotion row; elsewhere a man is crowned only at the end of its
    move. Front ends draw the piece from that landing on as a king, without a rule of
    their own.
    """
    if move.by_king or not move.promotes:
        return None
    if variant.promotion_during_capture is PromotionDuringCapture.PROMOTE_AND_CONTINUE:
        geo = geometry(variant)
        row = geo.top_row if side is Color.WHITE else geo.bottom_row
        for i, square in enumerate(move.path[1:], start=1):
            if row >> square & 1:
                return i
    return len(move.path) - 1


#: Between two squares: one of these characters, with any spaces around it.
_SEPARATORS = re.compile(r"[x×:\-]", re.IGNORECASE)

#: The longest move text read (a capture of 20 pieces on 10x10 writes 63 characters); longer
#: text is refused before it is read, so no input makes the reader work long.
MAX_MOVE_TEXT = 200


def _excerpt(text: str, limit: int = 40) -> str:
    """The start of user text for an error message (never the whole of a long input)."""
    return text if len(text) <= limit else text[:limit] + "…"


def parse_squares(variant: Variant, text: str) -> list[int]:
    """Squares (bit indices) named in a move text. Raises :class:`NotationError`.

    Linear in ``len(text)``: text longer than :data:`MAX_MOVE_TEXT` characters is refused
    first (code ``too_long``); the squares are split on single separator characters and each
    piece is stripped of its spaces (no pattern that backtracks over a run of spaces)."""
    geo = geometry(variant)
    if len(text) > MAX_MOVE_TEXT:
        raise NotationError(
            f"move text of {len(text)} characters is too long (at most {MAX_MOVE_TEXT}): "
            f"{_excerpt(text)!r}",
            "too_long",
            {"text": _excerpt(text), "max": str(MAX_MOVE_TEXT)},
        )
    raw = text.strip()
    if not raw:
        raise NotationError("empty move text", "empty")
    tokens = [tok.strip() for tok in _SEPARATORS.split(raw)]
    if len(tokens) < 2 or any(not tok for tok in tokens):
        raise NotationError(
            f"cannot read {_excerpt(raw)!r} as a move: write it as squares joined by - or x, "
            f"such as {_example(variant)}",
            "unreadable",
            {"text": _excerpt(raw)},
        )
    squares = []
    for tok in tokens:
        try:
            squares.append(geo.square(tok))
        except SquareError as exc:
            raise NotationError(str(exc), "bad_square", {"square": tok}) from None
    return squares


def _example(variant: Variant) -> str:
    return "22-18 or 26x17" if variant.notation.value == "numeric" else "c3-d4 or c3xe5"


def _fits(squares: Sequence[int], move: Move) -> bool:
    path = move.path
    if path[0] != squares[0] or path[-1] != squares[-1]:
        return False
    inner = iter(path[1:-1])
    return all(any(s == p for p in inner) for s in squares[1:-1])


def _matching(squares: Sequence[int], moves: Sequence[Move]) -> list[Move]:
    exact = [m for m in moves if list(m.path) == list(squares)]
    if exact:
        return exact
    return [m for m in moves if _fits(squares, m)]


def parse_move(variant: Variant, position: Position, text: str) -> Move:
    """The legal move that ``text`` names in ``position``.

    Raises :class:`NotationError` for unreadable text or squares that do not exist,
    :class:`AmbiguousMoveError` when several legal moves fit (the message lists them), and
    :class:`IllegalMoveError` with the rule broken when no legal move fits.
    """
    squares = parse_squares(variant, text)
    legal = legal_moves(variant, position)
    found = _matching(squares, legal)
    if not found:
        found = _equal_capture_of(variant, position, squares, legal)
    if len(found) == 1:
        return found[0]
    if found:
        names = [move_text(variant, m) for m in found]
        raise AmbiguousMoveError(
            f"{text.strip()} is ambiguous: it could be {_or_list(names)}; write the full path",
            names,
        )
    raise explain_illegal(variant, position, squares, legal, text.strip())


def _equal_capture_of(
    variant: Variant, position: Position, squares: Sequence[int], legal: Sequence[Move]
) -> list[Move]:
    """Legal moves that ``squares`` names through another path of the same capture (same
    start, end, captured pieces and promotion: RULES.md section 1, equal captures)."""
    if not any(m.captures for m in legal):
        return []
    raw = capture_sequences(variant, position)
    keys = {(m.start, m.end, m.captured, m.promotes) for m in _matching(squares, raw)}
    return [m for m in legal if (m.start, m.end, m.captured, m.promotes) in keys]


#: At most this many paths are listed for one move (a bound on the API's answer).
MAX_PATHS_PER_MOVE = 16


def capture_paths(
    variant: Variant, position: Position, moves: Sequence[Move]
) -> list[list[Move]]:
    """Every way of playing each of ``moves`` (legal in ``position``): the move itself first,
    then the captures along other paths that take the same pieces and end on the same
    square (equal captures, merged into one move: RULES.md sections 1 and 4), at most
    :data:`MAX_PATHS_PER_MOVE` each. A front end lets the player enter any of them and
    plays the move they name."""
    out = [[m] for m in moves]
    if not any(m.captures for m in moves):
        return out
    raw = capture_sequences(variant, position)
    index = {(m.start, m.end, m.captured, m.promotes): i for i, m in enumerate(moves)}
    for r in raw:
        i = index.get((r.start, r.end, r.captured, r.promotes))
        if (i is not None and all(r.path != o.path for o in out[i])
                and len(out[i]) < MAX_PATHS_PER_MOVE):
            out[i].append(r)
    return out


def _starting_with(squares: Sequence[int], moves: Sequence[Move]) -> list[Move]:
    """Captures whose path begins with exactly ``squares`` (an incomplete capture)."""
    n = len(squares)
    return [m for m in moves if len(m.path) > n and list(m.path[:n]) == list(squares)]


def _or_list(items: list[str]) -> str:
    """English "a, b or c" (for the English message only: a translated message gets its
    moves from :func:`_examples`, which has no English word in it)."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def _examples(texts: list[str], limit: int = 3) -> tuple[str, str]:
    """The first ``limit`` move texts as (English "a, b or c", the same as "a, b, c" for a
    refusal's params), each followed by " ..." when moves were left out."""
    more = " ..." if len(texts) > limit else ""
    shown = texts[:limit]
    return _or_list(shown) + more, ", ".join(shown) + more


def explain_illegal(
    variant: Variant,
    position: Position,
    squares: Sequence[int],
    legal: Sequence[Move],
    text: str | None = None,
) -> IllegalMoveError:
    """Why the move through ``squares`` is illegal, in the rule's own terms.

    Checks in order: the start square, game over, an incomplete capture, going on after a
    man was crowned, the capture-choice rule, mandatory capture, a king that must land right
    behind the piece it takes, men that may not take kings,
    a man moving backwards, a short king moving far; otherwise a plain refusal listing the
    legal moves of that piece.
    """
    geo = geometry(variant)
    labels = [geo.label(s) for s in squares]
    if text is None:
        text = ("x" if len(squares) > 2 else "-").join(labels)
    turn = position.turn
    start = squares[0]
    piece = position.piece_at(start)
    if piece is None:
        return IllegalMoveError(
            f"there is no piece on {labels[0]}", "no_piece", {"square": labels[0]}
        )
    color, is_king = piece
    if color is not turn:
        return IllegalMoveError(
            f"the piece on {labels[0]} is {color.word.capitalize()}'s; it is "
            f"{turn.word.capitalize()}'s turn",
            "not_your_piece",
            {"square": labels[0], "color": color.word, "turn": turn.word},
        )
    if not legal:
        return IllegalMoveError(
            f"{turn.word.capitalize()} has no legal move", "no_legal_move", {"turn": turn.word}
        )
    # A legal capture that the text stops short of.
    for m in legal:
        if m.captures and len(squares) < len(m.path) and list(m.path[: len(squares)]) == list(
            squares
        ):
            where = labels[-1]
            return IllegalMoveError(
                f"the capture must go on from {where}", "capture_incomplete", {"square": where}
            )
    # A legal capture that the text goes on from after a man was crowned.
    for m in legal:
        if m.promotes and m.captures and list(squares[: len(m.path)]) == list(m.path):
            full = move_text(variant, m)
            return IllegalMoveError(
                f"a man that is crowned during a capture stops there: the move is {full}",
                "promotion_ends_capture",
                {"move": full},
            )
    every_capture = capture_sequences(variant, position)
    rejected = _matching(squares, every_capture) or _starting_with(squares, every_capture)
    if rejected:
        return _explain_choice(variant, rejected[0], [m for m in legal if m.captures])
    quiet = quiet_moves(variant, position)
    if _matching(squares, quiet) and every_capture and variant.mandatory_capture:
        english, listed = _examples([move_text(variant, m) for m in legal])
        return IllegalMoveError(
            f"a capture is mandatory ({english})", "capture_mandatory", {"moves": listed}
        )
    if variant.king_lands_behind and is_king:
        relaxed_captures = capture_sequences(
            dataclasses.replace(variant, king_lands_behind=False), position)
        if _matching(squares, relaxed_captures) or _starting_with(squares, relaxed_captures):
            return IllegalMoveError(
                "a capturing king must land on the square right behind the piece it takes",
                "king_lands_behind",
            )
    if not variant.men_capture_kings and not is_king:
        relaxed = dataclasses.replace(variant, men_capture_kings=True)
        relaxed_captures = capture_sequences(relaxed, position)
        # Only sequences that take a king within the squares written count as the reason.
        jumps = len(squares) - 1
        if any(
            m.captured_kings & sum(1 << c for c in m.captures[:jumps])
            for m in _matching(squares, relaxed_captures)
            + _starting_with(squares, relaxed_captures)
        ):
            return IllegalMoveError("a man cannot take a king", "man_takes_king")
    if len(squares) == 2:
        r0, r1 = geo.row(start), geo.row(squares[1])
        backwards = (r1 > r0) if turn is Color.WHITE else (r1 < r0)
        if not is_king and backwards:
            if abs(r1 - r0) == 2 and not variant.men_capture_backward:
                return IllegalMoveError(
                    "a man cannot capture backwards", "man_captures_backward"
                )
            if abs(r1 - r0) == 1:
                return IllegalMoveError("a man moves forward only", "man_moves_backward")
        between = next(
            (ray[: ray.index(squares[1])] for ray in (geo.ray[d][start] for d in range(4))
             if squares[1] in ray),
            None,
        )
        if (
            is_king
            and not variant.flying_kings
            and between
            and not any(position.piece_at(s) for s in (*between, squares[1]))
        ):
            return IllegalMoveError(
                f"{variant.name}: a king moves one square at a time",
                "short_king",
                {"variant": variant.name},
            )
    from_here = [move_text(variant, m) for m in legal if m.start == start]
    if from_here:
        return IllegalMoveError(
            f"{text} is not a legal move; the piece on {labels[0]} can play "
            f"{_or_list(from_here)}",
            "not_legal_from_square",
            {"move": text, "square": labels[0], "moves": ", ".join(from_here)},
        )
    everything = [move_text(variant, m) for m in legal]
    return IllegalMoveError(
        f"the piece on {labels[0]} cannot move now; legal moves: {_or_list(everything)}",
        "piece_cannot_move",
        {"square": labels[0], "moves": ", ".join(everything)},
    )


def _explain_choice(variant: Variant, move: Move, chosen: list[Move]) -> IllegalMoveError:
    """The capture-choice rule that ``move`` (a complete capture) breaks; ``chosen``: the
    legal captures (the ones the rule keeps), in notation order."""
    best = chosen[0]
    best_text = move_text(variant, best)
    name = variant.name
    choice = variant.capture_choice
    params = {"variant": name, "move": best_text}
    if choice is CaptureChoice.KING_PRECEDENCE and not move.by_king:
        english, params["move"] = _examples([move_text(variant, m) for m in chosen])
        return IllegalMoveError(
            f"{name}: a king that can capture must capture ({english})",
            "king_must_capture",
            params,
        )
    if choice is CaptureChoice.VALUE:
        return IllegalMoveError(
            f"{name}: you must take the capture of the highest value, a king counting more "
            f"than a man and less than two, and at equal value a king's capture ({best_text})",
            "highest_value",
            params,
        )
    n = len(best.captures)
    if len(move.captures) < n:
        params["count"] = str(n)
        return IllegalMoveError(
            f"{name}: you must take the most pieces; {best_text} takes {_count_word(n)}",
            "most_pieces",
            params,
        )
    if choice is CaptureChoice.ITALIAN_PRIORITIES and best.by_king and not move.by_king:
        return IllegalMoveError(
            f"{name}: when a king and a man can take as many pieces, the king must capture "
            f"({best_text})",
            "king_captures_first",
            params,
        )
    k = best.captured_kings.bit_count()
    if move.captured_kings.bit_count() < k:
        params["count"] = str(k)
        return IllegalMoveError(
            f"{name}: you must take the most kings; {best_text} takes {_count_word(k)}",
            "most_kings",
            params,
        )
    if choice is CaptureChoice.ITALIAN_PRIORITIES:
        return IllegalMoveError(
            f"{name}: you must take the capture that meets a king first ({best_text})",
            "king_first",
            params,
        )
    return IllegalMoveError(  # not reached while every rule above names its reason
        f"{name}: this capture is not allowed; legal: {best_text}", "capture_choice", params
    )


#: Which refusal best explains a piece that cannot move (most specific rule first).
_REASON_RANK = {
    "king_must_capture": 0,
    "most_pieces": 1,
    "king_captures_first": 2,
    "most_kings": 3,
    "king_first": 4,
    "highest_value": 4,
    "man_takes_king": 5,
    "capture_mandatory": 6,
    "not_your_piece": 7,
    "no_piece": 8,
    "no_legal_move": 9,
    "piece_cannot_move": 10,
}


def explain_piece(variant: Variant, position: Position, square: int) -> IllegalMoveError | None:
    """Why the piece on ``square`` (bit index) cannot move now, or None when it can.

    Tries a step and a jump in each direction and every complete capture the piece would have
    under free choice, and returns the most specific refusal (a capture-choice rule first,
    then men that may not take kings, mandatory capture, ...). For the site's "why can't I
    move this piece?" answer.
    """
    geo = geometry(variant)
    legal = legal_moves(variant, position)
    if any(m.start == square for m in legal):
        return None
    attempts = [[square, target] for d in range(4) for target in geo.ray[d][square][:2]]
    free = dataclasses.replace(variant, capture_choice=CaptureChoice.FREE)
    attempts += [
        list(m.path) for m in legal_moves(free, position) if m.start == square and m.captures
    ]
    refusals = [explain_illegal(variant, position, squares, legal) for squares in attempts]
    if not refusals:  # a square with no diagonal neighbour does not exist on these boards
        return explain_illegal(variant, position, [square, square], legal)
    return min(refusals, key=lambda err: _REASON_RANK.get(err.code, len(_REASON_RANK)))
