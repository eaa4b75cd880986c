"""Writing PDN 3.0: one canonical form for every game, read back to the same game.

- Tags in the standard's order: Event, Site, Date, Round, White, Black, Result, then
  GameType (the variant's full form), ``CaptureRule "optional"`` for a game under the
  optional-capture house rule (no GameType value says that captures were optional, so
  without it the movetext would be illegal under the GameType it declares; README, "PDN files"),
  ``Variant "Antidraughts"`` or ``Variant "Breakthrough"`` for a game under a goal option (the
  tag and words lidraughts writes beside its GameType: the moves are the rule set's, the
  result follows the option's goal), or for a custom rule set ``Variant`` with its id
  (``[Variant "custom:1a01:Club rules"]``, every rule in its code) and no GameType, FEN
  (only for a set-up, written canonically), then the others in their order. Missing
  seven-tag-roster values are ``?``.
- Results in the variant's convention (:mod:`damiera.pdn.results`): on the 10x10 board
  the FMJD's points ``2-0``, ``1-1``, ``0-2``; on 8x8 ``1-0``, ``1/2-1/2``, ``0-1``;
  ``0-0`` for a double forfeit; ``*`` when unknown. The ``Result`` tag and the end marker
  are the same token, the one the reader gives as :attr:`PdnGame.result`.
- Moves in full notation (every landing square of a capture), numbered from 1: the first
  side's move takes ``N.``, and a record that starts with the other side to move opens with
  ``1...``. Comments in ``{}``, move strength and NAGs after the move, variations in ``()``.
- Lines of at most 79 characters (a longer single word stands alone).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import TextIO

from damiera.pdn.reader import PdnGame, Ply
from damiera.pdn.results import canonical_result, result_token
from damiera.rules.custom import is_custom
from damiera.rules.game import Game, Outcome, ResultReason
from damiera.rules.notation import move_text
from damiera.rules.position import start_position, write_fen
from damiera.rules.variant import GOAL_VARIANT_TAGS, Color, Variant

ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
WIDTH = 79

def _string(value: str) -> str:
    flat = " ".join(str(value).split())
    return '"' + flat.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _comment(text: str) -> list[str]:
    """A comment as words to wrap: ``{`` on the first, ``}`` on the last (a brace inside
    becomes a parenthesis, since comments do not nest)."""
    words = text.replace("{", "(").replace("}", ")").split() or [""]
    words[0] = "{" + words[0]
    words[-1] += "}"
    return words


def _movetext(variant: Variant, first: Color, turn: Color, plies: list[Ply],
              number: int, words: list[str]) -> None:
    """Append the words of one line of play (and its variations) to ``words``."""
    need_number = True
    for ply in plies:
        if ply.comment_before:
            words.extend(_comment(ply.comment_before))
            need_number = True
        if turn is first:
            words.append(f"{number}.")
        elif need_number:
            words.append(f"{number}...")
        words.append(move_text(variant, ply.move.raw) + "".join(
            n for n in ply.nags if not n.startswith(("$", "("))))
        words.extend(n for n in ply.nags if n.startswith(("$", "(")))
        need_number = False
        if ply.comment:
            words.extend(_comment(ply.comment))
            need_number = True
        for variation in ply.variations:
            words.append("(")
            _movetext(variant, first, turn, variation, number, words)
            words.append(")")
            need_number = True
        if turn is not first:
            number += 1
        turn = turn.opponent


def _wrap(words: list[str]) -> list[str]:
    out: list[str] = []
    line = ""
    for w in words:
        if line and (len(line) + 1 + len(w) > WIDTH):
            out.append(line)
            line = w
        elif line and not (line.endswith("(") or w == ")"):
            line = f"{line} {w}"
        else:
            line += w
    if line:
        out.append(line)
    return out


def _outcome_winner(outcome: Outcome | None) -> Color | None | str:
    return "*" if outcome is None else outcome.winner


def write_game(game: PdnGame | Game, tags: dict[str, str] | None = None,
               result: str | None = None,
               comments: Sequence[str | None] | None = None) -> str:
    """One game as canonical PDN text (tags, a blank line, movetext, a newline).

    ``game``: a :class:`~damiera.pdn.reader.PdnGame` (its tags, comments and variations are
    kept) or a :class:`damiera.Game`. ``tags`` are added (they override the game's own);
    ``result``: a result token to write instead of the game's (``*`` if it has none), for
    a game decided outside the rules (a loss on time); a :class:`damiera.Game` that ended
    by a flag fall (:meth:`damiera.Game.flag_fall`) gets ``[Termination "time forfeit"]``
    with its result, a loss or, when the opponent could not win, a draw; ``comments[i]``,
    when given and not None or empty, is written after ply ``i`` as a comment ``{...}``
    (clock times such as ``[%clk 0:04:57]``), replacing that ply's own comment.
    """
    setup = game.game if isinstance(game, PdnGame) else game   # the start and its numbers
    v = game.variant
    if isinstance(game, PdnGame):
        plies = game.plies
        all_tags = dict(game.tags)
        token = canonical_result(v, game.result)
        comment = game.comment
    else:
        plies = [Ply(m) for m in game.moves]
        all_tags = {}
        outcome = game.outcome()
        token = result_token(v, _outcome_winner(outcome))
        if outcome is not None and outcome.reason in (ResultReason.TIME,
                                                      ResultReason.TIME_NO_WIN):
            all_tags["Termination"] = "time forfeit"   # as PGN names a flag fall
        comment = ""
    if comments is not None:
        plies = [dataclasses.replace(p, comment=comments[i] or p.comment)
                 if i < len(comments) else p for i, p in enumerate(plies)]
    all_tags.update(tags or {})
    if result is not None:
        token = canonical_result(v, result)
    all_tags["Result"] = token
    all_tags.pop("GameType", None)
    all_tags.pop("CaptureRule", None)
    variant_tag = all_tags.get("Variant", "").strip()
    if variant_tag.lower() in GOAL_VARIANT_TAGS or is_custom(variant_tag):
        del all_tags["Variant"]  # the game's own rules decide it, below
    if is_custom(v.id):
        all_tags["Variant"] = v.full_id  # every rule in its code; no GameType describes it
    else:
        all_tags["GameType"] = v.pdn_gametype
        if v.optional_capture:
            all_tags["CaptureRule"] = "optional"
        goal = next((word for word, option in GOAL_VARIANT_TAGS.items()
                     if option in v.options), None)
        if goal is not None:
            all_tags["Variant"] = goal.capitalize()
    all_tags.pop("FEN", None)
    all_tags.pop("SetUp", None)
    all_tags.pop("Setup", None)
    if setup.start_fen != write_fen(v, start_position(v)):   # with its H and F (lidraughts)
        all_tags["FEN"] = setup.start_fen
    ordered = {k: all_tags.get(k) or "?" for k in ROSTER}
    ordered["Result"] = token
    for key in ("GameType", "Variant", "CaptureRule", "FEN"):
        if key in all_tags:
            ordered[key] = all_tags[key]
    for key, value in all_tags.items():
        ordered.setdefault(key, value)
    head = [f"[{k} {_string(val)}]" for k, val in ordered.items()]
    words: list[str] = []
    if comment:
        words.extend(_comment(comment))
    _movetext(v, v.first_to_move, setup.start.turn, plies, setup.start_move_number, words)
    words.append(token)
    return "\n".join(head) + "\n\n" + "\n".join(_wrap(words)) + "\n"


def write_games(games: Iterable[PdnGame | Game], handle: TextIO | None = None) -> str:
    """Many games as PDN, separated by a blank line. Written to ``handle`` as they come
    when one is given (then ``""`` is returned), else returned as one string."""
    parts: list[str] = []
    for n, game in enumerate(games):
        text = ("\n" if n else "") + write_game(game)
        if handle is not None:
            handle.write(text)
        else:
            parts.append(text)
    return "".join(parts)
