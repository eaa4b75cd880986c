"""The words of the rules trainer, in the current language: each kind of question, each
rule's name and sentence (the rules pages' own sentences, keyed by rule parameter and value,
never by rule set), and the script's strings. Translations in
``locales/<lang>/LC_MESSAGES/train.po``."""

from __future__ import annotations

from damiera.rules.variant import CaptureChoice, Variant
from damiera.web.board_strings import board_strings
from damiera.web.i18n import gettext as _
from damiera.web.rules_pages import content as rules
from damiera.web.rules_pages.comparison import CHOICE_SHORT, NO, PROMOTION_SHORT, YES


def question(kind: str) -> str:
    """The question of a kind of exercise, in the current language."""
    return {
        "capture": _("Which capture must you take? Play it on the board."),
        "promotion": _("A man reaches the far row in this capture. What happens? Play the "
                       "capture on the board."),
        "destinations": _("Where can the piece on {square} go? Click every square it can "
                          "reach, then Check."),
        "legal": _("Is the move {move} legal here?"),
        "outcome": _("{side} is to move. Who wins here?"),
    }[kind]


def rule_name(variant: Variant, param: str) -> str:
    """A rule and its value in ``variant``, short: the rules pages' comparison row and cell
    (``Men may capture kings: No``, ``Which capture you must choose: The most pieces``)."""
    label = {
        "capture_choice": _("Which capture you must choose"),
        "men_capture_kings": _("Men may capture kings"),
        "promotion_during_capture": _("Man reaching the far row during a capture"),
        "men_capture_backward": _("Men capture backwards"),
        "flying_kings": _("Flying kings"),
        "mandatory_capture": _("Capturing is compulsory"),
    }[param]
    if param == "capture_choice":
        value = _(CHOICE_SHORT[variant.capture_choice])
    elif param == "promotion_during_capture":
        value = _(PROMOTION_SHORT[variant.promotion_during_capture])
    else:
        value = _(YES) if getattr(variant, param) else _(NO)
    return f"{label}: {value}"


def rule_sentence(variant: Variant, param: str) -> str:
    """What rule ``param`` says in ``variant``, in the rules pages' words."""
    if param == "capture_choice":
        text = " ".join(_(t) for t in rules.CHOICE_TEXT[variant.capture_choice])
        if variant.capture_choice is CaptureChoice.ITALIAN_PRIORITIES:
            text += " " + " ".join(_(t) for t in rules.ITALIAN_PRIORITY_LIST)
        return text
    if param == "men_capture_kings":
        return _(rules.MEN_TAKE_KINGS if variant.men_capture_kings else rules.MEN_NO_KINGS)
    if param == "promotion_during_capture":
        return _(rules.PROMOTION_TEXT[variant.promotion_during_capture])
    if param == "men_capture_backward":
        return _(rules.MEN_BACKWARD if variant.men_capture_backward else rules.MEN_FORWARD_ONLY)
    if param == "flying_kings":
        return _(rules.KING_FLYING if variant.flying_kings else rules.KING_SHORT)
    return _(rules.MANDATORY if variant.mandatory_capture else rules.OPTIONAL)


def js_strings() -> dict[str, str]:
    """The trainer page's script strings, keyed by name."""
    return {
        **board_strings(),
        "right": _("Right!"),
        "wrong": _("Not quite."),
        "the_rule": _("The rule: {rule}"),
        "shown": _("The right answer is drawn on the board."),
        "progress": _("Exercise {n} of {total}"),
        "score": _("Score: {n} of {total}"),
        "done": _("Session over: {n} of {total} right."),
        "missed": _("Rules you missed:"),
        "none_missed": _("You missed no rule. Well done!"),
        "no_exercises": _("The trainer has no exercises for this rule set yet."),
        "is_legal": _("{move} is legal."),
        "legal_moves": _("Legal moves: {moves}"),
        "moves_of_piece": _("The piece on {square} can go to: {squares}"),
        "nowhere": _("nowhere"),
    }
