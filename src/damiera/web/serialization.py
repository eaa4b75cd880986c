"""The JSON form of variants, moves and games in the API (the shapes the pages draw from).

Everything here is computed by the rules core (:mod:`damiera.rules.notation`,
:mod:`damiera.rules.geometry`): the pages draw and accept moves without a rule of their own.
"""

from __future__ import annotations

from typing import Any

from damiera.rules.game import Game
from damiera.rules.geometry import geometry
from damiera.rules.movegen import Move
from damiera.rules.notation import capture_paths, crowned_at, move_labels
from damiera.rules.position import Position, start_position, write_fen
from damiera.rules.variant import Color, Variant
from damiera.web.game_cache import fen_of
from damiera.web.results import color_of, result_json, stored_result_text, stored_variant
from damiera.web.store import StoredGame

__all__ = [
    "board_text",
    "game_json",
    "legal_moves_json",
    "move_json",
    "move_numbers",
    "moves_with_paths_json",
    "options_json",
    "pieces_json",
    "summary_json",
    "variant_json",
]


def options_json(v: Variant) -> dict[str, Any]:
    """A game's or challenge's rule set and options: ``variant`` (the rule set's id, as
    before the options), ``full_id`` (the canonical id with its options, what to send back
    to create the same game), ``optional_capture``, ``losing`` and ``breakthrough``."""
    return {"variant": v.id, "full_id": v.full_id, "optional_capture": v.optional_capture,
            "losing": v.losing, "breakthrough": v.breakthrough}


def variant_json(v: Variant) -> dict[str, Any]:
    """A variant for the API: its rule parameters (``id``, ``name``, ...), its board
    (``{"size", "squares": [{"label", "file", "rank"}]}``, file/rank 0-based from White's
    lower left), ``start_fen`` and ``start_pieces`` (:func:`pieces_json`)."""
    geo = geometry(v)
    out: dict[str, Any] = dict(v.rule_parameters())
    out["first_to_move"] = v.first_to_move.word
    out["board"] = {
        "size": v.board_size,
        "squares": [
            {"label": geo.label(s), "file": geo.file_rank(s)[0], "rank": geo.file_rank(s)[1]}
            for s in geo.label_order
        ],
    }
    out["start_fen"] = write_fen(v, start_position(v))
    out["start_pieces"] = pieces_json(v, start_position(v))
    return out


#: The piece named by each letter of :func:`board_text` (``.``, an empty square, has none).
_PIECE_NAMES = {"w": "white-man", "b": "black-man", "W": "white-king", "B": "black-king"}


def pieces_json(v: Variant, position: Position) -> dict[str, str]:
    """The pieces of ``position`` by square label: ``{"22": "white-man", "9": "black-king"}``
    (empty squares left out), in the board's label order; what ``board.js`` draws. Read
    from :func:`board_text`, one letter per square in that order."""
    geo = geometry(v)
    letters = board_text(v, position)
    return {geo.label(s): _PIECE_NAMES[letter]
            for s, letter in zip(geo.label_order, letters, strict=True) if letter != "."}


def board_text(v: Variant, position: Position) -> str:
    """The pieces of ``position`` as one character per playing square, in the order of the
    variant's ``board.squares`` (:func:`variant_json`, the label order): ``.`` empty, ``w`` /
    ``b`` a man, ``W`` / ``B`` a king (50 characters on 10x10): each ply's pieces for the
    page to draw without replaying moves, small enough to send for every ply."""
    geo = geometry(v)
    out = []
    for s in geo.label_order:
        bit = 1 << s
        letter = "w" if position.white & bit else "b" if position.black & bit else "."
        out.append(letter.upper() if position.kings & bit else letter)
    return "".join(out)


def move_json(v: Variant, move: Move, side: Color) -> dict[str, Any]:
    """A move for the page: :func:`~damiera.rules.notation.move_labels` plus ``crowned_at``
    (index in ``path`` from which the moving man is drawn as a king, or null), so that the
    page draws every step without a rule of its own. ``side``: who plays it."""
    out = move_labels(v, move)
    out["crowned_at"] = crowned_at(v, move, side)
    return out


def legal_moves_json(game: Game) -> list[dict[str, Any]]:
    """The legal moves of ``game`` now as :func:`moves_with_paths_json`."""
    return moves_with_paths_json(game.variant, game.position,
                                 [m.raw for m in game.legal_moves])


def moves_with_paths_json(v: Variant, position: Position,
                          moves: list[Move]) -> list[dict[str, Any]]:
    """``moves`` (legal in ``position``) as :func:`move_json`, each with ``paths``: every
    way of playing it (``[{"path", "captures", "crowned_at"}]``: its own first, then the
    equal captures' other paths, :func:`~damiera.rules.notation.capture_paths`), so a page
    (``static/entry.js``) accepts and draws any of them."""
    side = position.turn
    out = []
    for m, ways in zip(moves, capture_paths(v, position, moves), strict=True):
        item = move_json(v, m, side)
        item["paths"] = [
            {k: w[k] for k in ("path", "captures", "crowned_at")}
            for w in (move_json(v, way, side) for way in ways)
        ]
        out.append(item)
    return out


def move_numbers(game: Game) -> list[str]:
    """The number of each move played as the move list shows it, then of the move to play
    now (one more than the moves): ``"12."`` for the move that opens move 12 (by the side
    that moves first in the variant), ``"12…"`` for the reply that completes it (or a game
    that starts with the other side to move); counted from the start's move number (a
    lidraughts FEN's ``F``, else 1)."""
    first = game.variant.first_to_move
    offset = 0 if game.start.turn is first else 1
    number = game.start_move_number   # 1, or a lidraughts FEN's F
    return [f"{(ply + offset) // 2 + number}{'…' if (ply + offset) % 2 else '.'}"
            for ply in range(game.ply + 1)]


def game_json(stored: StoredGame, game: Game, *, can_undo: bool) -> dict[str, Any]:
    """The game object of the API before its clock and seats are added (see
    :meth:`damiera.web.games.GameService.to_json` for the fields); ``game`` is ``stored``
    rebuilt, ``can_undo`` whether an undo would take something back."""
    v = game.variant
    computer_side = (
        color_of(stored.side).opponent.word if stored.opponent == "computer" else None
    )
    history = [move_json(v, m.raw, p.turn)
               for m, p in zip(game.move_stack, game.positions, strict=False)]
    numbers = move_numbers(game)
    return {
        "id": stored.id,
        **options_json(v),
        "variant_name": v.display_name,
        "opponent": stored.opponent,
        "level": stored.level,
        "engine": stored.engine,
        "side": stored.side,
        "computer_side": computer_side,
        "fen": fen_of(v.id, game.position),
        "start_fen": game.start_fen,
        "pieces": pieces_json(v, game.position),
        "start_pieces": pieces_json(v, game.start),
        "turn": game.turn.word,
        "legal_moves": legal_moves_json(game),
        "history": game.history(),
        "history_moves": history,
        "move_numbers": numbers[:-1],
        "next_move_number": numbers[-1],
        "positions": [fen_of(v.id, p) for p in game.positions],
        "boards": [board_text(v, p) for p in game.positions],
        "last_move": history[-1] if history else None,
        "result": result_json(game.outcome(), v),
        "moves_without_progress": game.moves_without_progress,
        "can_undo": can_undo,
        "draw_moves_without_progress": v.draw_moves_without_progress,
        "version": stored.version,
        "thinking": False,
        "created_at": stored.created_at.isoformat(),
        "updated_at": stored.updated_at.isoformat(),
    }


def summary_json(s: StoredGame) -> dict[str, Any]:
    """One game of "my games" (see :func:`damiera.web.my_games.recent`), read from
    the stored row without replaying it."""
    v = stored_variant(s)
    result: dict[str, Any] | None = None
    outcome = None
    if s.result_reason:
        result = {"winner": s.result_winner, "reason": s.result_reason,
                  "text": stored_result_text(s)}
        if s.opponent == "computer":
            outcome = ("draw" if s.result_winner is None
                       else "won" if s.result_winner == s.side else "lost")
    first = v.first_to_move.word if v else "white"
    starts = (s.start_fen or first[0]).strip()[:1].upper()
    offset = 0 if starts == first[0].upper() else 1
    return {
        "id": s.id,
        **(options_json(v) if v else {"variant": s.variant, "full_id": s.variant,
                                      "optional_capture": s.optional_capture,
                                      "losing": False, "breakthrough": False}),
        "variant_name": v.name if v else s.variant,
        "opponent": s.opponent,
        "level": s.level,
        "engine": s.engine,
        "side": s.side,
        "plies": len(s.moves),
        "moves": (len(s.moves) + offset + 1) // 2,
        "result": result,
        "outcome": outcome,
        "updated_at": s.updated_at,
        "created_at": s.created_at,
    }
