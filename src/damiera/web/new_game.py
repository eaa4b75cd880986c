"""A new game from the options of ``POST /api/games``: each option checked (a one-line
:class:`~damiera.web.errors.BadRequest` naming the bad one), then the stored row and the
rules-core Game it starts from."""

from __future__ import annotations

from dataclasses import dataclass

from damiera.rules.game import Game
from damiera.rules.position import FenError, parse_fen, start_position, write_fen
from damiera.rules.variant import VARIANTS, UnknownVariantError, variant
from damiera.web import clocks, seats
from damiera.web.errors import BadRequest, clip, quoted
from damiera.web.hub_engines import HubPlayers
from damiera.web.store import StoredGame, new_game_id

__all__ = ["NewGame", "new_game"]


@dataclass(frozen=True)
class NewGame:
    """Options of a new game (the body of ``POST /api/games``)."""

    variant: str
    opponent: str = "computer"
    level: int = 1
    side: str | None = None
    optional_capture: bool = False
    fen: str | None = None
    clock: str | None = None
    #: Against the computer: a configured Hub engine's name (None: Damiera's own engine).
    engine: str | None = None


def new_game(options: NewGame, owner: str | None,
             hub: HubPlayers) -> tuple[StoredGame, Game]:
    """The unsaved row of a new game owned by ``owner`` (its seats and clock set, no move
    played) and its Game. ``hub``: the site's Hub engines (``options.engine`` must be one
    that plays the variant). Raises BadRequest."""
    try:
        v = variant(options.variant, optional_capture=options.optional_capture)
    except UnknownVariantError:
        raise BadRequest(
            f"unknown variant {quoted(str(options.variant))}; known variants: "
            f"{', '.join(VARIANTS)}"
        ) from None
    except ValueError as exc:
        raise BadRequest(clip(str(exc), 200)) from None
    if options.opponent not in ("computer", "friend"):
        raise BadRequest(
            f"opponent must be 'computer' or 'friend', not {options.opponent!r}"
        )
    if options.engine is not None:
        if options.opponent != "computer":
            raise BadRequest("an engine plays only as the computer (opponent 'computer')")
        try:
            hub.check(options.engine, v.id, v.optional_capture)
        except ValueError as exc:
            raise BadRequest(str(exc)) from None
    if options.level not in (1, 2, 3):
        raise BadRequest(f"level must be 1, 2 or 3, not {options.level!r}")
    if options.side is not None and options.side not in ("white", "black"):
        raise BadRequest(f"side must be 'white' or 'black', not {options.side!r}")
    try:
        control = clocks.parse_time_control(options.clock)
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    start_fen: str | None = None
    if options.fen is not None and options.fen.strip():
        try:
            start = parse_fen(v, options.fen)
        except FenError as exc:
            raise BadRequest(
                f"bad FEN {quoted(options.fen)}: {clip(str(exc), 200)}"
            ) from None
        if start != start_position(v):
            start_fen = write_fen(v, start)
    game = Game(v, start_fen)
    stored = StoredGame(
        id=new_game_id(),
        variant=v.id,
        optional_capture=v.optional_capture,
        opponent=options.opponent,
        level=(options.level if options.opponent == "computer" and options.engine is None
               else None),
        engine=options.engine,
        side=options.side or game.turn.word,
        start_fen=start_fen,
        owner=seats.owner_key(owner),
        clock=clocks.new_clock(control),
    )
    stored.white_seat, stored.black_seat = seats.new_game_seats(
        owner, stored.opponent, stored.side)
    return stored, game
