"""Message ids of the rules core's refusals, so every catalog translates them.

The web layer shows an illegal move's reason through :func:`damiera.web.i18n.error_message`,
which looks up the msgid ``error:<code>`` (``code`` from
:class:`damiera.rules.notation.NotationError`) and fills its ``str.format`` fields from the
error's ``params``. English keeps these msgids untranslated and falls back to the core's own
English sentence. Fields available per code (translations may use any subset):

=========================  ======================================================
code                       fields
=========================  ======================================================
no_piece                   square
not_your_piece             square (also color, turn: English words)
no_legal_move              (turn: English word)
capture_incomplete         square
promotion_ends_capture     move
king_must_capture          variant, move
most_pieces                variant, move (count: digits)
king_captures_first        variant, move
most_kings                 variant, move (count: digits)
king_first                 variant, move
highest_value              variant, move
king_move_limit            move, count
capture_mandatory          moves
king_lands_behind          -
man_takes_king             -
man_captures_backward      -
man_moves_backward         -
short_king                 variant
not_legal_from_square      move, square, moves
piece_cannot_move          square, moves
ambiguous                  candidates
empty                      -
unreadable                 text
bad_square                 square
=========================  ======================================================

``variant`` is the variant's English name; the site translates it before filling the field.
"""

from __future__ import annotations

from damiera.web.rules_pages.messages import N_

#: Every refusal msgid, in the order of the table above.
REFUSALS: tuple[str, ...] = (
    N_("error:no_piece"),
    N_("error:not_your_piece"),
    N_("error:no_legal_move"),
    N_("error:capture_incomplete"),
    N_("error:promotion_ends_capture"),
    N_("error:king_must_capture"),
    N_("error:most_pieces"),
    N_("error:king_captures_first"),
    N_("error:most_kings"),
    N_("error:king_first"),
    N_("error:highest_value"),
    N_("error:king_move_limit"),
    N_("error:capture_mandatory"),
    N_("error:king_lands_behind"),
    N_("error:man_takes_king"),
    N_("error:man_captures_backward"),
    N_("error:man_moves_backward"),
    N_("error:short_king"),
    N_("error:not_legal_from_square"),
    N_("error:piece_cannot_move"),
    N_("error:ambiguous"),
    N_("error:empty"),
    N_("error:unreadable"),
    N_("error:bad_square"),
)
