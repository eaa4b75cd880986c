"""The words of the puzzles page, in the current language: the script's strings and the
themes' names. Translations in ``locales/<lang>/LC_MESSAGES/puzzles.po``; the rule names
come from the rules pages' catalog."""

from __future__ import annotations

from damiera.rules.variant import CaptureChoice, PromotionDuringCapture
from damiera.web.board_strings import board_strings
from damiera.web.i18n import gettext as _
from damiera.web.rules_pages.comparison import CHOICE_SHORT, PROMOTION_SHORT


def theme_names() -> dict[str, str]:
    """Every theme's name (:mod:`damiera.puzzles.themes`) in the current language."""
    names = {
        "shot": _("Shot"),
        "sacrifice": _("Sacrifice"),
        "multi-capture": _("Multi-capture"),
        "breakthrough": _("Breakthrough"),
        "king-capture": _("King capture"),
        "king": _("King"),
        "quiet-move": _("Quiet first move"),
        "endgame": _("Endgame"),
        "win": _("Wins the game"),
        "rule:mandatory-capture": _("Capturing is compulsory"),
        "rule:men-capture-backward": _("Men capture backwards"),
        "rule:flying-kings": _("Flying kings"),
        "rule:men-cannot-take-kings": _capitalised(_("men cannot take kings")),
    }
    for choice in CaptureChoice:
        names[f"rule:capture-choice-{choice.value}"] = _(CHOICE_SHORT[choice])
    for promotion in PromotionDuringCapture:
        names[f"rule:promotion-{promotion.value}"] = _(PROMOTION_SHORT[promotion])
    return names


def js_strings() -> dict[str, str]:
    """The puzzles page's script strings, keyed by name (``{placeholders}`` filled in by
    the script)."""
    return {
        **board_strings(),
        "find": _("{side} to play: find the move that wins."),
        "right": _("Right! Keep going: {move} was the reply."),
        "solved": _("Solved!"),
        "failed": _("Not this one: {move} lets the win slip. The solution is shown."),
        "solution": _("Solution: {line}"),
        "rating_change": _("Your rating: {rating} ({change})"),
        "not_rated": _("You had tried this puzzle before: your rating stays {rating}."),
        "copied": _("Copied."),
        "no_puzzles": _("There are no puzzles for this rule set yet."),
    }


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]
