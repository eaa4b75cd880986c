"""A new game from the options of ``POST /api/games``: each option checked (a one-line
:class:`~damiera.web.errors.BadRequest` naming the bad one), then the stored row and the
rules-core Game it starts from. ``side`` ``"random"`` is drawn here; a game against a
player online (opponent ``"online"``) gets the creator's seat only, its invitation link's
key (:mod:`damiera.web.live.invitations`), a clock that waits for both players' first moves
and, continued from a record, how many moves it began with
(:func:`damiera.web.live.state.start_ply`)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from damiera.rules.game import Game, GameOverError
from damiera.rules.notation import MAX_MOVE_TEXT, NotationError
from damiera.rules.position import FenError, start_position, write_fen
from damiera.rules.variant import VARIANTS, UnknownVariantError, unknown_variant_hint, variant
from damiera.web import clocks, seats
from damiera.web.errors import BadRequest, clip, quoted
from damiera.web.hub_engines import HubPlayers
from damiera.web.live.invitations import invite_key
from damiera.web.live.names import check_name
from damiera.web.store import StoredGame, new_game_id

__all__ = ["MAX_START_MOVES", "NewGame", "new_game"]

#: Most moves a new game may start with (a game continued from a record; each at most
#: :data:`damiera.rules.notation.MAX_MOVE_TEXT` characters).
MAX_START_MOVES = 3_000


@dataclass(frozen=True)
class NewGame:
    """Options of a new game (the body of ``POST /api/games``)."""

    variant: str
    opponent: str = "computer"
    level: int = 1
    side: str | None = None
    optional_capture: bool = False
    #: The goal options (any rule set); ``variant`` may name them too (``italian+losing``).
    losing: bool = False
    breakthrough: bool = False
    fen: str | None = None
    clock: str | None = None
    #: Against the computer: a configured Hub engine's name (None: Damiera's own engine).
    engine: str | None = None
    #: Moves already played from ``fen`` (a game continued from a record): the new game
    #: has them in its history and goes on after them.
    moves: Sequence[str] = ()
    #: Against a player online: the creator's display name (None: none given).
    name: str | None = None


def new_game(options: NewGame, owner: str | None,
             hub: HubPlayers) -> tuple[StoredGame, Game]:
    """The unsaved row of a new game owned by ``owner`` (its seats and clock set, the
    ``options.moves`` played: they cost no clock time) and its Game. ``hub``: the site's Hub
    engines (``options.engine`` must be one that plays the variant). Raises BadRequest (a
    move that is not legal where it stands, or after the game has ended by rule, names its
    number)."""
    try:
        v = variant(options.variant, optional_capture=options.optional_capture,
                    losing=options.losing, breakthrough=options.breakthrough)
    except UnknownVariantError:
        raise BadRequest(
            f"unknown variant {quoted(str(options.variant))}"
            f"{unknown_variant_hint(str(options.variant))}; known variants: "
            f"{', '.join(VARIANTS)}"
        ) from None
    except ValueError as exc:
        raise BadRequest(clip(str(exc), 200)) from None
    if options.opponent not in ("computer", "friend", "online"):
        raise BadRequest(
            f"opponent must be 'computer', 'friend' or 'online', not {options.opponent!r}"
        )
    if options.engine is not None:
        if options.opponent != "computer":
            raise BadRequest("an engine plays only as the computer (opponent 'computer')")
        try:
            hub.check(options.engine, v.full_id, v.optional_capture)
        except ValueError as exc:
            raise BadRequest(str(exc)) from None
    if options.level not in (1, 2, 3):
        raise BadRequest(f"level must be 1, 2 or 3, not {options.level!r}")
    if options.side is not None and options.side not in ("white", "black", "random"):
        raise BadRequest(f"side must be 'white', 'black' or 'random', not {options.side!r}")
    try:
        name = check_name(options.name)
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    try:
        control = clocks.parse_time_control(options.clock)
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    try:
        game = Game(v, options.fen if options.fen is not None and options.fen.strip() else None)
    except FenError as exc:
        raise BadRequest(f"bad FEN {quoted(options.fen or '')}: {clip(str(exc), 200)}") from None
    # stored canonical, with a lidraughts FEN's H and F (Game.start_fen); None: the start
    start_fen = game.start_fen if game.start_fen != write_fen(v, start_position(v)) else None
    _play_start_moves(game, options.moves)
    side = options.side or game.turn.word
    if side == "random":
        side = secrets.choice(("white", "black"))
    stored = StoredGame(
        id=new_game_id(),
        variant=v.full_id,
        optional_capture=v.optional_capture,
        opponent=options.opponent,
        level=(options.level if options.opponent == "computer" and options.engine is None
               else None),
        engine=options.engine,
        side=side,
        start_fen=start_fen,
        owner=seats.owner_key(owner),
        clock=clocks.new_clock(control, played=len(game.moves)),
    )
    stored.white_seat, stored.black_seat = seats.new_game_seats(
        owner, stored.opponent, stored.side)
    if stored.opponent == "online":
        if owner is not None:
            stored.invite = invite_key(owner, stored.id)
        setattr(stored, f"{side}_name", name)
        if len(game.moves):            # a game continued from a record: not its players'
            stored.offers = {"start_ply": len(game.moves)}
        if stored.clock is not None:   # it waits for both players' first moves
            stored.clock["stopped"] = True
    return stored, game


def _play_start_moves(game: Game, moves: Sequence[str]) -> None:
    """Play ``moves`` (text in the variant's notation) in ``game``; BadRequest names the
    first that is too long, not legal, or after the end of the game."""
    if len(moves) > MAX_START_MOVES:
        raise BadRequest(f"a game starts with at most {MAX_START_MOVES} moves, not {len(moves)}")
    for n, text in enumerate(moves, 1):
        if len(text) > MAX_MOVE_TEXT:
            raise BadRequest(f"move {n} is longer than {MAX_MOVE_TEXT} characters")
        try:
            game.play(text)
        except (NotationError, GameOverError) as exc:
            raise BadRequest(f"move {n} {quoted(text)}: {clip(str(exc), 200)}") from None
