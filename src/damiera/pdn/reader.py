"""Reading PDN: each game (from :mod:`.syntax`) replayed by the rules core.

Source: PDN 3.0 (the standard's grammar and its test set, ``shared/reference/pdn``) and
RULES.md section 4.

- ``GameType`` (``20`` or the full form ``20,W,10,10,N2,0``) chooses the variant by its
  number; without it the reader uses the ``variant`` it is given (International, the
  standard's default, unless told otherwise).
- ``FEN`` sets up the start position; numeric FENs are read on algebraic boards too (squares
  numbered from the top left, as the variant's numeric twin would), and a side to move of
  ``?`` is the side whose piece makes the first move (the variant's first side when there
  is no move). Lidraughts' trailing ``:H<n>:F<n>`` are read: ``H`` starts the draw rules'
  count of plies without progress, ``F`` numbers the moves (:attr:`Game.start_move_number`).
- Moves are matched to the legal moves by :func:`damiera.rules.notation.parse_move` (full
  or short captures, ``x``, ``:`` or ``-``); leading zeros are dropped (``06`` is 6). A
  short capture that several legal moves fit is resolved by the moves that follow: when
  exactly one candidate lets the rest of the game replay it is taken, otherwise the error
  names the candidates.
- A record that plays on after a draw by rule (threefold repetition, the move limit) still
  replays: the draw is noted (:attr:`PdnGame.noted_draw`), not enforced.
- Variations ``( ... )`` are replayed from the position before the move they replace and
  kept (``variations=True``) or dropped.
- The result is the movetext's end marker, or the ``Result`` tag when the marker is ``*``,
  in the variant's convention (:mod:`damiera.pdn.results`), as the writer writes it.
- An error names the move by the number the file writes for it (``move 7. 13x22``).
- A broken game becomes a :class:`PdnError` with its line, column and the rule broken;
  ``errors="raise"`` raises it, ``"skip"`` drops the game, ``"collect"`` yields the game
  with :attr:`PdnGame.error` set (tags and the moves before the error kept). Reading then
  goes on with the next game.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

from damiera.pdn.results import game_result
from damiera.pdn.syntax import PdnError, RawGame, RawPly, Splitter
from damiera.pdn.tokens import Source, tokenize
from damiera.rules import game as _rules
from damiera.rules.custom import is_custom
from damiera.rules.game import Game, Outcome
from damiera.rules.move import Move
from damiera.rules.movegen import CoreMove as RawMove
from damiera.rules.notation import AmbiguousMoveError, NotationError, move_text, parse_move
from damiera.rules.position import (
    FenClocks,
    FenError,
    Position,
    fen_excerpt,
    parse_fen_clocks,
    write_fen,
)
from damiera.rules.variant import (
    GOAL_VARIANT_TAGS,
    VARIANTS,
    Color,
    Notation,
    RuleOption,
    Variant,
    with_options,
)
from damiera.rules.variant import variant as _variant

#: Most moves tried while resolving short captures by the moves that follow, per game.
MAX_LOOKAHEAD = 50_000

Errors = Literal["raise", "skip", "collect"]

#: Variants by their PDN ``GameType`` number.
GAME_TYPES: dict[int, Variant] = {
    int(v.pdn_gametype.split(",")[0]): v for v in VARIANTS.values()
}


@dataclass
class Ply:
    """One move of a game's record: ``move``; ``text`` as written in the file; ``nags``
    (move strength such as ``!?`` and NAGs such as ``$3``, in order); ``comment_before`` /
    ``comment`` (the comments around it); ``variations`` (alternatives to this move, each
    a list of plies starting from the position before it)."""

    move: Move
    text: str = ""
    nags: list[str] = field(default_factory=list)
    comment_before: str = ""
    comment: str = ""
    variations: list[list[Ply]] = field(default_factory=list)


@dataclass
class PdnGame:
    """One game read from PDN.

    ``tags`` (name to value, in file order); ``variant``; ``game`` (a :class:`damiera.Game`
    with every move replayed, draws not enforced); ``plies`` (the record, with comments and
    variations); ``result`` (the result token, ``"*"`` when none); ``comment`` (before the
    first move); ``line`` (where the game starts); ``number`` (1-based, in the input);
    ``noted_draw`` (``(ply, outcome)``: the first position where a draw rule applied, for
    records that played on); ``error`` (None, or why the game is broken); ``guessed``
    (the variant was guessed: no ``GameType`` tag, read with ``variant="guess"``).
    """

    tags: dict[str, str]
    variant: Variant
    game: Game
    plies: list[Ply] = field(default_factory=list)
    result: str = "*"
    comment: str = ""
    line: int = 1
    number: int = 1
    noted_draw: tuple[int, Outcome] | None = None
    error: PdnError | None = None
    guessed: bool = False
    result_text: str = "*"

    @property
    def moves(self) -> list[Move]:
        return [p.move for p in self.plies]


# -- replay ----------------------------------------------------------------------------------
_SQUARES = re.compile(r"[0-9]{1,2}|[a-lA-L](?:1[0-2]|[1-9])")
_CAPTURE_MARK = re.compile(r"[x×:X]")


def _move_text(text: str) -> str:
    """A move as written, normalised for the notation reader: leading zeros dropped
    (``06-11`` is ``6-11``), spaces dropped, algebraic squares written without separator
    (``a3b4``) separated."""
    squares = [s.lstrip("0") or "0" if s.isdigit() else s.lower()
               for s in _SQUARES.findall(text)]
    sep = "x" if _CAPTURE_MARK.search(text) else "-"
    return sep.join(squares)


def variant_of(tags: dict[str, str], default: Variant) -> Variant:
    """The variant a game's ``GameType`` tag names (its first number), else ``default``;
    with the optional-capture house rule when the game carries ``[CaptureRule "optional"]``
    (what the writer adds for such a game), and the losing rule or breakthrough when its
    ``Variant`` tag says ``Antidraughts`` or ``Breakthrough`` (lidraughts' words; any other
    ``Variant`` value, such as ``Standard``, changes nothing). A ``Variant`` tag holding a
    custom rule set's id (``custom:...``, what the writer writes for one) names the rules
    whatever the GameType says.

    Raises ValueError for a custom id that cannot be read (with the reason), a GameType that is not a number Damiera plays, or the house rule
    on a board it does not apply to."""
    value = tags.get("GameType")
    named = tags.get("Variant", "").strip()
    if is_custom(named):
        base = _variant(named)
    elif value is None or not value.strip():
        base = default
    else:
        head = value.split(",", 1)[0].strip()
        if not head.isdigit() or int(head) not in GAME_TYPES:
            known = ", ".join(f"{n} ({v.name})" for n, v in sorted(GAME_TYPES.items()))
            raise ValueError(f"GameType {value!r} is not a game Damiera plays; known: {known}")
        base = GAME_TYPES[int(head)]
    options = set(base.options)
    if tags.get("CaptureRule", "").strip().lower() == "optional":
        options.add(RuleOption.OPTIONAL_CAPTURE)
    goal = GOAL_VARIANT_TAGS.get(tags.get("Variant", "").strip().lower())
    if goal is not None:
        options.add(goal)
    if options == set(base.options):
        return base
    return with_options(base, options)


def _numeric_twin(v: Variant) -> Variant:
    return dataclasses.replace(v, notation=Notation.NUMERIC)


def _start_game(v: Variant, fen: str | None, first: str | None) -> _rules.Game:
    """The rules-core game at the start: the FEN's position, else the start position."""
    if fen is None or not fen.strip():
        return _rules.Game(v, enforce_draws=False)
    text = fen.strip()
    if text[:1] == "?":
        # Unknown side to move: the side whose piece makes the first move.
        turn = v.first_to_move
        if first is not None:
            for letter in ("W", "B"):
                try:
                    pos = _parse_fen_any(v, letter + text[1:])[0]
                    parse_move(v, pos, first)
                except (FenError, NotationError):
                    continue
                turn = Color(letter)
                break
        text = turn.value + text[1:]
    position, clocks = _parse_fen_any(v, text)
    # in v's own squares, with lidraughts' H and F fields (the plies without progress the
    # draw rules count, the number of the first move)
    return _rules.Game(v, write_fen(v, position) + clocks.text, enforce_draws=False)


def _parse_fen_any(v: Variant, text: str) -> tuple[Position, FenClocks]:
    try:
        return parse_fen_clocks(v, text)
    except FenError:
        if v.notation is Notation.NUMERIC or re.search(r"[a-l][0-9]", text):
            raise  # already numeric, or written in algebraic squares
        return parse_fen_clocks(_numeric_twin(v), text)


class _Work:
    """Moves that may still be tried in the whole input (None: no bound but each game's)."""

    def __init__(self, moves: int | None):
        self.left = moves

    def take(self) -> bool:
        """Count one move tried; False once the input's bound is spent."""
        if self.left is None:
            return True
        self.left -= 1
        return self.left >= 0

    @property
    def spent(self) -> bool:
        return self.left is not None and self.left < 0


class _Replayer:
    def __init__(self, variant: Variant, work: _Work | None = None):
        self.variant = variant
        self.budget = MAX_LOOKAHEAD
        self.work = work or _Work(None)
        self.resolved = 0  # short captures resolved by the moves that follow

    def line(
        self, game: _rules.Game, plies: list[RawPly], start: int, keep: bool,
        out: list[Ply] | None,
    ) -> tuple[_rules.Game, PdnError | None]:
        """Replay ``plies[start:]`` on ``game`` (changed in place, or replaced when a short
        capture was resolved by looking ahead); returns the final game and the first error.
        ``out`` receives the replayed plies (None: only check)."""
        v = self.variant
        for i in range(start, len(plies)):
            raw = plies[i]
            tok = raw.token
            self.budget -= 1
            if self.budget < 0:
                return game, PdnError(
                    "too many moves tried resolving short captures", tok.line, tok.column,
                    "limit")
            if not self.work.take():
                return game, PdnError(
                    "the input holds more moves than this reading may try; the games from "
                    "here on were not read", tok.line, tok.column, "limit")
            if game.result is not None:
                return game, PdnError(
                    f"{tok.text}: the game is over "
                    f"({game.result.describe(v).replace('wins: ', 'won: ')})",
                    tok.line, tok.column, "illegal-move")
            text = _move_text(tok.text)
            try:
                move = parse_move(v, game.position, text)
            except AmbiguousMoveError as amb:
                return self._resolve(game, plies, i, amb, keep, out)
            except NotationError as exc:
                number = self._number(game, raw)
                return game, PdnError(
                    f"move {number} {tok.text}: {exc}", tok.line, tok.column,
                    "illegal-move", number=number, move=tok.text, reason=exc)
            error = self._play(game, raw, move, keep, out)
            if error is not None:
                return game, error
        return game, None

    def _number(self, game: _rules.Game, raw: RawPly) -> str:
        """``N.`` or ``N...``: the number the file writes for ``raw``, else the number of
        the move ``game`` is at, counted from its first move's number (1, or a FEN's F)."""
        if raw.label:
            return raw.label
        ply = game.ply
        first = game.start.turn is self.variant.first_to_move
        number = (ply + (0 if first else 1)) // 2 + game.start_move_number
        dots = "." if game.turn is self.variant.first_to_move else "..."
        return f"{number}{dots}"

    def _where(self, game: _rules.Game, raw: RawPly) -> str:
        """``move N.`` or ``move N...`` (:meth:`_number`)."""
        return f"move {self._number(game, raw)}"

    def _play(
        self, game: _rules.Game, raw: RawPly, move: RawMove, keep: bool,
        out: list[Ply] | None,
    ) -> PdnError | None:
        """Play one move, replaying the variations of it first (from the same position)."""
        variations: list[list[Ply]] = []
        for var in raw.variations:
            branch = game.copy()
            kept: list[Ply] | None = [] if (keep and out is not None) else None
            _, err = self.line(branch, var, 0, keep, kept)
            if err is not None:
                err.message = f"in a variation: {err.message}"
                err.variation += 1
                return err
            if kept is not None:
                variations.append(kept)
        try:
            played = game.play(move)
        except NotationError as exc:
            # The position allows the move, the game's history does not (a rule that
            # lives in the moves before it, such as a king's limit of quiet moves).
            tok = raw.token
            number = self._number(game, raw)
            why = str(exc).removeprefix(f"{move_text(self.variant, move)}: ")
            return PdnError(f"move {number} {tok.text}: {why}", tok.line, tok.column,
                            "illegal-move", number=number, move=tok.text, reason=exc)
        if out is not None:
            out.append(Ply(played, raw.token.text, list(raw.nags),
                           raw.comment_before, raw.comment, variations))
        return None

    def _resolve(
        self, game: _rules.Game, plies: list[RawPly], i: int, amb: AmbiguousMoveError,
        keep: bool, out: list[Ply] | None,
    ) -> tuple[_rules.Game, PdnError | None]:
        tok = plies[i].token
        good: list[RawMove] = []
        for name in amb.candidates:
            move = parse_move(self.variant, game.position, name)
            trial = game.copy()
            if self._play(trial, plies[i], move, False, None) is not None:
                continue
            _, err = self.line(trial, plies, i + 1, False, None)
            if err is None:
                good.append(move)
            elif err.rule == "limit":
                return game, err
        if len(good) == 1:
            self.resolved += 1
            self._play(game, plies[i], good[0], keep, out)
            return self.line(game, plies, i + 1, keep, out)
        names = ", ".join(amb.candidates)
        why = ("more than one of them lets the following moves replay" if good
               else "none of them lets the following moves replay")
        return game, PdnError(
            f"{self._where(game, plies[i])} {tok.text} is ambiguous: it could be {names}, and {why}",
            tok.line, tok.column, "ambiguous-move")


class _Guesser:
    """Guesses the variant of games without ``GameType``, learning along the file.

    For each family of candidates (:func:`guess_candidates`) it keeps those still possible,
    in order. A game with moves is read as the first remaining candidate that replays it,
    and the candidates before that one are dropped for the rest of the input (they failed
    on a game that another variant plays legally). A game without moves, or one no
    remaining candidate replays, is read as the first remaining candidate: a broken
    game never changes the guess.
    """

    def __init__(self, work: _Work | None = None) -> None:
        self.remaining: dict[tuple[str, ...], list[Variant]] = {}
        self.work = work

    def replay(self, raw: RawGame, tags: dict[str, str], number: int, keep: bool) -> PdnGame:
        family = guess_candidates(raw, tags)
        remaining = self.remaining.setdefault(tuple(v.id for v in family), list(family))
        first: PdnGame | None = None
        for i, candidate in enumerate(remaining if raw.plies else remaining[:1]):
            game = _replay_as(raw, candidate, tags, number, keep, self.work)
            game.guessed = True
            if game.error is None or (self.work is not None and self.work.spent):
                del remaining[:i]
                return game
            first = first or game
        assert first is not None
        return first


def _replay(
    raw: RawGame, default: Variant | None, number: int, keep: bool, guesser: _Guesser
) -> PdnGame:
    """Replay one raw game; ``default`` None: guess the variant of a game without a
    ``GameType`` tag."""
    tags = {name: value for name, value, _ in raw.tags}
    if default is not None or _states_rules(tags):
        return _replay_as(raw, default or VARIANTS["international"], tags, number, keep,
                          guesser.work)
    return guesser.replay(raw, tags, number, keep)


def _states_rules(tags: dict[str, str]) -> bool:
    """Whether the tags name the rules: a ``GameType``, or a custom rule set's id in
    ``Variant`` (which states every rule; nothing is left to guess)."""
    return bool(tags.get("GameType", "").strip()) or is_custom(tags.get("Variant", "").strip())


def guess_candidates(raw: RawGame, tags: dict[str, str]) -> list[Variant]:
    """The variants a game without ``GameType`` may be in, most likely first, from how its
    squares are written: letters (a1-h8) for the 8x8 algebraic boards; a number above 50
    for the 12x12 board; above 32 for the 10x10 board; else the numbered 8x8 boards."""
    texts = [p.token.text for p in raw.plies[:40]]
    fen = tags.get("FEN", "")
    algebraic = any(re.search(r"[a-j][0-9]", t) for t in texts) or bool(
        re.search(r"[,:K][a-j][0-9]", fen))
    numbers = [int(n) for t in [*texts, fen] for n in re.findall(r"[0-9]+", t)]
    by_id = VARIANTS
    if algebraic:
        return [by_id["russian"], by_id["brazilian"], by_id["czech"]]
    if numbers and max(numbers) > 50:
        return [by_id["canadian"], by_id["malaysian"]]
    if not numbers or max(numbers) > 32:
        return [by_id["international"]]
    return [by_id["american"], by_id["italian"], by_id["spanish"], by_id["international"]]


def _replay_as(
    raw: RawGame, default: Variant, tags: dict[str, str], number: int, keep: bool,
    work: _Work | None = None,
) -> PdnGame:
    tag_tokens = {name: tok for name, _, tok in raw.tags}
    v = default
    syntax = raw.error
    error = (None if syntax is None
             else PdnError(syntax.message, syntax.line, syntax.column, syntax.rule))
    try:
        v = variant_of(tags, default)
    except ValueError as exc:
        # the tag that named the rules: a custom Variant, else GameType, else CaptureRule
        names = ("Variant",) if is_custom(tags.get("Variant", "").strip()) else ()
        tok = next(tag_tokens[n] for n in (*names, "GameType", "CaptureRule", "Variant")
                   if n in tag_tokens)
        error = error or PdnError(str(exc), tok.line, tok.column, "gametype")
    first = _move_text(raw.plies[0].token.text) if raw.plies else None
    try:
        rules_game = _start_game(v, tags.get("FEN"), first)
    except FenError as exc:
        tok = tag_tokens["FEN"]
        error = error or PdnError(f"FEN {fen_excerpt(tags['FEN'])}: {exc}", tok.line,
                                  tok.column, "fen")
        rules_game = _rules.Game(v, enforce_draws=False)
    plies: list[Ply] = []
    if error is None or error.rule == "syntax":
        replayer = _Replayer(v, work)
        # A game broken in its syntax still replays the moves read before the fault.
        rules_game, replay_error = replayer.line(rules_game, raw.plies, 0, keep, plies)
        # The moves replayed all come before a syntax error, so a replay error is the first.
        error = replay_error or error
    if (error is not None and error.rule == "illegal-move" and not plies
            and not _states_rules(tags)):
        error.message += f" (the game has no GameType tag and was read as {v.name})"
    if (error is not None and raw.after is not None
            and error.rule in ("illegal-move", "ambiguous-move")):
        end = raw.after
        error.message += (f"; this game has no tags and starts after the {end.text!r} at "
                          f"line {end.line}, column {end.column}, which ended the game "
                          "before it")
    noted = rules_game.first_draw_by_rule()
    if error is not None:
        error.game = number
    result = game_result(v, raw.result, tags.get("Result"))
    return PdnGame(tags, v, rules_game, plies, result, raw.comment,
                   raw.line, number, noted, error, result_text=raw.result)


def read_games(
    source: Source,
    variant: Variant | str | None = None,
    *,
    errors: Errors = "raise",
    variations: bool = True,
    max_moves: int | None = None,
) -> Iterator[PdnGame]:
    """Every game of a PDN input, one at a time (a generator: the input is read as it goes).

    ``source``: PDN text (``str``), bytes, a path (``os.PathLike`` such as
    :class:`pathlib.Path`; a ``str`` is always text, never a file name), a text or binary
    file handle (bytes are decoded line by line: UTF-8, else CP1252, else Latin-1), or an
    iterable of lines; TypeError for anything else. A ``str`` of one word that cannot be
    read as PDN gets an error that says to pass a ``Path`` or an open file for a file.
    ``variant``: the variant of games without a ``GameType`` tag (a Variant or its id;
    default International, as the standard says), or ``"guess"``: guessed from how the
    squares are written and which rules replay the games, learning along the input
    (:attr:`PdnGame.guessed` is then True). ``errors``: ``"raise"`` raises the first
    :class:`PdnError`; ``"skip"`` leaves broken games out; ``"collect"`` yields them with
    :attr:`PdnGame.error` set. ``variations``: keep variations in :attr:`Ply.variations`
    (they are replayed either way). ``max_moves``: at most this many moves tried over the
    whole input (each move played, and each tried while resolving short captures or guessing
    the variant; None: no bound but each game's own); when they run out, the game being
    read gets a :class:`PdnError` (rule ``"limit"``; raised with ``"raise"``, else yielded)
    and reading stops. With it, reading any input takes time linear in its size. OSError
    when a path cannot be read: :class:`damiera.files.NotRegularFileError` at once for one
    that is not a regular file (a FIFO is refused, not waited on).
    """
    if errors not in ("raise", "skip", "collect"):
        raise ValueError(f"errors must be 'raise', 'skip' or 'collect', not {errors!r}")
    default: Variant | None
    if variant == "guess":
        default = None
    else:
        default = (_variant(variant) if isinstance(variant, str)
                   else variant or VARIANTS["international"])
    number = 0
    work = _Work(max_moves)
    guesser = _Guesser(work)
    for raw in Splitter(tokenize(source)).games():
        if not raw.tags and not raw.plies and raw.error is None and not raw.comment:
            continue  # nothing but a lone terminator
        number += 1
        game = _replay(raw, default, number, variations, guesser)
        if game.error is not None and number == 1 and _looks_like_a_file_name(source):
            game.error.message += (f"; a str is read as PDN text: to read the file "
                                   f"{source!r}, pass pathlib.Path({source!r}) or an open file")
        if game.error is not None:
            if errors == "raise":
                raise game.error
            if errors == "skip" and not work.spent:
                continue
        yield game
        if work.spent:
            return


def _looks_like_a_file_name(source: Source) -> bool:
    """A str of one word (no blank, at most 255 characters): what a file name looks like,
    and no PDN game is."""
    return isinstance(source, str) and 0 < len(source) <= 255 and not any(
        c.isspace() for c in source)


def read_game(
    source: Source, variant: Variant | str | None = None, *, variations: bool = True,
) -> PdnGame | None:
    """The first game of a PDN input, or None when it holds none; raises
    :class:`PdnError` when that game is broken, and OSError as :func:`read_games` does
    for a path that cannot be read or is not a regular file."""
    return next(read_games(source, variant, errors="raise", variations=variations), None)
