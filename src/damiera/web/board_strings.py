"""The sentences of the board itself (``static/board.js`` and the clicks on it), in the
current language, shared by every page that draws one: the play page, analysis, the rules
trainer and the puzzles. Placeholders in braces (``{square}``) are filled in by the
scripts; translations in ``locales/<lang>/LC_MESSAGES/messages.po``."""

from __future__ import annotations

from damiera.web.i18n import gettext as _


def board_strings() -> dict[str, str]:
    """The board's strings by key: the sides' and pieces' names, what a screen reader says
    of a square, and the prompts of a capture entered landing by landing (the moves its
    clicks name offered below the board: ``static/entry_choices.js``)."""
    return {
        "white": _("White"),
        "black": _("Black"),
        "white-man": _("white man"),
        "white-king": _("white king"),
        "black-man": _("black man"),
        "black-king": _("black king"),
        "square_empty": _("square {square}, empty"),
        "square_piece": _("square {square}, {piece}"),
        "capture_goes_on": _("The capture goes on: choose the next landing square"),
        "choose_path": _("Several captures end on {square}: click a square of the one you "
                         "want, or choose it below"),
        "capture_can_end": _("A capture ends on {square}: choose it below, or click the next "
                             "landing square"),
    }
