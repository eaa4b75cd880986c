"""Every string the analysis page's script shows, in the current language.

Placeholders in braces (``{n}``) are filled in by the script. The msgids are translated in
``locales/<lang>/LC_MESSAGES/analysis.po`` (the strings shared with the play page come from
its catalog).
"""

from __future__ import annotations

from damiera.web.board_strings import board_strings
from damiera.web.i18n import gettext as _


def js_strings() -> dict[str, str]:
    """The analysis page's script strings, keyed by name."""
    return {
        **board_strings(),
        "white_to_move": _("White to move"),
        "black_to_move": _("Black to move"),
        "start_position": _("Start position"),
        "refused": _("This position is refused: {reason}"),
        "depth": _("depth {n}"),
        "nps": _("{n} nodes/s"),
        "win_in": _("{side} wins in {n} plies"),
        "engine_off": _("The engine is off."),
        "engine_thinking": _("The engine is thinking…"),
        "engine_done": _("The engine has finished this position."),
        "engine_busy_you": _("Too many analyses from your address are running or waiting "
                             "(other tabs or devices): the engine tries again in {n} s."),
        "engine_busy_site": _("The site is busy with other analyses: the engine tries again "
                              "in {n} s."),
        "engine_lost": _("The connection to the engine was lost: trying again in {n} s."),
        "game_over": _("Game over: {side} has lost."),
        "copied": _("Copied."),
        "stop_engine": _("Stop the engine"),
        "reviewing": _("Reviewing: {done} of {total} positions"),
        "review_failed": _("The review failed: {error}"),
        "inaccuracy": _("Inaccuracy"),
        "mistake": _("Mistake"),
        "blunder": _("Blunder"),
        "best_was": _("best was {move}"),
        "no_mistakes": _("No mistakes were found."),
        "edit_help": _("Choose a piece, then click squares to place it; click a piece of the "
                       "same kind to remove it."),
        "selected": _("{piece} on {square} selected; choose where it goes"),
        "example": _("e.g. {move}"),
        "play_help": _("Click a piece, then where it goes; a move from an earlier position "
                       "starts a variation."),
    }
