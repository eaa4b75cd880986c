"""The custom rule set pages' words: each rule field's label and its values' labels (by the
entries of :data:`damiera.rules.custom.FIELDS`), the refusals' reasons by their code, and the
pages' own sentences. English message ids, translated in ``locales/*/LC_MESSAGES/custom.po``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from damiera.rules.custom import CustomRuleError
from damiera.web.i18n import gettext
from damiera.web.rules_pages.messages import N_

#: Each field's label on the form.
FIELD_LABELS: Final[Mapping[str, str]] = {
    "board_size": N_("Board"),
    "first_to_move": N_("Who moves first"),
    "man_rows": N_("Rows of men for each side"),
    "men_capture_backward": N_("Men capture"),
    "flying_kings": N_("Kings"),
    "king_lands_behind": N_("A flying king's capture lands"),
    "men_capture_kings": N_("May men capture kings?"),
    "capture_choice": N_("Which capture must be chosen"),
    "promotion_during_capture": N_("A man that reaches the far row during a capture"),
    "remove_captured_at_once": N_("Captured pieces are removed"),
    "draw_moves_without_progress": N_("Draw after this many moves each without a capture or "
                                      "a promotion"),
    "mandatory_capture": N_("Capturing is"),
    "losing": N_("Losing rule: whoever has no piece or no move left wins"),
    "breakthrough": N_("Breakthrough: the first king wins"),
    "board": N_("Notation"),
    "orthogonal_captures": N_("Captures along rows and columns"),
    "king_quiet_move_limit": N_("Quiet moves in a row one king may make while its side still "
                                "has men"),
    "king_ending_draws": N_("Endings of kings only drawn early"),
    "all_squares": N_("Every square plays, moves along rows and columns"),
    "no_reverse_capture": N_("A capture may not turn straight back"),
    "back_rows_empty": N_("Empty rows behind the men at the start"),
}

_YES_NO: Final[Mapping[object, str]] = {True: N_("yes"), False: N_("no")}

#: Labels of the values that are not plain numbers, by field.
VALUE_LABELS: Final[Mapping[str, Mapping[object, str]]] = {
    "board_size": {8: "8×8", 10: "10×10", 12: "12×12"},
    "first_to_move": {"W": N_("White"), "B": N_("Black")},
    "men_capture_backward": {False: N_("forwards only"), True: N_("forwards and backwards")},
    "flying_kings": {False: N_("move one square"), True: N_("fly: any distance")},
    "king_lands_behind": {False: N_("on any empty square beyond the piece"),
                          True: N_("right behind the piece")},
    "men_capture_kings": _YES_NO,
    "capture_choice": {
        "free": N_("any capture"),
        "majority": N_("the one that takes the most pieces"),
        "italian-priorities": N_("Italian priorities: most pieces, then with a king, most "
                                 "kings, a king met first"),
        "most-pieces-then-kings": N_("the most pieces, then the most kings"),
        "king-precedence": N_("a king's capture before a man's"),
        "value": N_("the highest value: a king is worth more than one man and less than two"),
    },
    "promotion_during_capture": {
        "promote-and-stop": N_("is crowned, and the move ends"),
        "promote-and-continue": N_("is crowned and goes on capturing as a king"),
        "pass-through": N_("goes on as a man; crowned only if it ends there"),
    },
    "remove_captured_at_once": {False: N_("when the move ends"),
                                True: N_("one by one, as they are jumped")},
    "mandatory_capture": {True: N_("compulsory"), False: N_("optional")},
    "orthogonal_captures": _YES_NO,
    "king_quiet_move_limit": {0: N_("no limit"),
                              3: N_("three, as in Frisian")},
    "king_ending_draws": {
        (): N_("none beyond the general draw rule"),
        ((2, 1, 7), (1, 1, 2)): N_("as in Frisian: two kings against one after 7 moves each, "
                                   "one king against one after 2"),
        ((1, 1, 2),): N_("as in Turkish: one king against one after 2 moves each"),
    },
    "losing": _YES_NO,
    "breakthrough": _YES_NO,
    "all_squares": _YES_NO,
    "no_reverse_capture": _YES_NO,
    "board": {
        "numeric": N_("numbers, as in American and International draughts"),
        "algebraic": N_("a1 to h8, as in Russian draughts"),
        "italian": N_("numbers on a turned board, as in Italian draughts"),
        "spanish": N_("numbers from White's right, as in Spanish draughts"),
        "thai": N_("numbers from White's right, as in Thai draughts"),
    },
}

#: The refusals' reasons by :attr:`CustomRuleError.code` (``%(...)s`` from its params).
REASONS: Final[Mapping[str, str]] = {
    "rows": N_("On a %(size)s×%(size)s board each side has at most %(most)s rows of men, so "
               "that two empty rows part the armies."),
    "land-behind-short-king": N_("A king can land right behind the piece it takes only when "
                                 "kings fly: a short king always lands there."),
    "optional-capture-10x10": N_("The optional-capture house rule applies to 8×8 boards "
                                 "only."),
    "losing-breakthrough": N_("The losing rule and breakthrough are two different goals; a "
                              "game plays one of them."),
    "pass-through-forward-men": N_("A man that reaches the far row during a capture can only "
                                   "go on by capturing backward; with men capturing forwards "
                                   "only, choose that it is crowned and the move ends."),
    "breakthrough-kings": N_("Under breakthrough the first man crowned wins, so no king ever "
                             "moves or is taken: “%(field)s” changes nothing; leave it at its "
                             "first choice."),
    "breakthrough-choice": N_("Under breakthrough no king is on the board while the game goes "
                              "on, so this capture rule is the same as “%(same)s”: choose "
                              "that."),
    "breakthrough-flying": N_("Under breakthrough the first man crowned wins, so how kings move "
                              "matters only to a man crowned during a capture that goes on "
                              "capturing as a king: choose that, or kings that move one "
                              "square."),
    "no-reverse-blocked": N_("A capture that may not turn straight back changes nothing "
                             "unless captured pieces are removed one by one: the piece just "
                             "taken blocks that way until the move ends."),
    "all-squares-8x8": N_("Every square plays on 8×8 boards only."),
    "all-squares-orthogonal": N_("Where every square plays, pieces already move and capture "
                                 "along rows and columns only."),
    "back-rows": N_("With an empty back row each side has at most %(most)s rows of men on "
                    "this board, so that two empty rows part the armies."),
    "name": N_("A name has at most 32 characters: letters, digits, spaces and - ' . & ( ) ! , "
               "with at least one letter or digit."),
    "value": N_("“%(field)s” cannot be %(value)s."),
    "id-length": N_("This address is too long for a rule set: it has at most %(most)s "
                    "characters, and the name at most %(name)s."),
    "id-prefix": N_("A custom rule set's id starts with custom:."),
    "id-version": N_("This address was made by another version of the site: its code starts "
                     "with %(found)s, not %(version)s."),
    "code-length": N_("This address is broken: a rule set's code has at most %(most)s "
                      "characters."),
    "code-char": N_("This address is broken: %(char)s stands for no choice of “%(field)s” (its "
                    "choices are written 0 to %(last)s)."),
}

UI: Final[Mapping[str, str]] = {
    "title": N_("Your own rule set"),
    "intro": N_("Choose every rule and a name, and get the rule set's own address: whoever "
                "opens it reads its rules and can play it against the computer or a friend, "
                "or study it on the analysis board."),
    "name": N_("Name of the rule set"),
    "create": N_("Make the rule set"),
    "page_intro": N_("A rule set made on this site. Each rule below is stated from its "
                     "parameters, and every diagram is checked by the rules engine that "
                     "referees its games."),
    "address": N_("Address of this rule set"),
    "copy_address": N_("Copy the address"),
    "copied": N_("Copied"),
    "play_computer": N_("Play the computer"),
    "play_online": N_("Play a friend online"),
    "play_here": N_("Play a friend on this screen"),
    "analysis": N_("Open in the analysis board"),
    "import": N_("Import PDN"),
    "change": N_("Change the rules"),
    "make_own": N_("Make your own rule set"),
}


#: Said on the form and a custom rule set's page when its rules are a named rule set's
#: (``%(name)s``: that rule set's name, a link to its rules page).
SAME_RULES: Final = N_("These are the rules of %(name)s.")

#: Said on the form when the rules in its address (``?rules=``) cannot be read.
FORM_REFUSED: Final = N_("The rules in this address cannot be read, so the form starts from "
                         "the defaults: %(reason)s")


def reason(error: CustomRuleError) -> str:
    """The refusal's reason in the current language, a field and its values named by their
    labels on the form (the English message for a code without a sentence here)."""
    message = REASONS.get(error.code)
    if message is None:
        return str(error)
    params = {key: str(value) for key, value in error.params.items()}
    field = str(error.params.get("field", ""))
    for key in ("choice", "same"):  # a value of the field, by its label on the form
        label = VALUE_LABELS.get(field, {}).get(error.params.get(key, ""))
        if label is not None:
            params[key] = gettext(label)
    if "field" in params:  # the field's label, as the form shows it
        params["field"] = gettext(FIELD_LABELS.get(params["field"], params["field"]))
    try:
        return gettext(message) % params if params else gettext(message)
    except (KeyError, ValueError, TypeError):
        return str(error)
