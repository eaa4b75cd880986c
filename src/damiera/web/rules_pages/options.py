"""The pages of the rule options any rule set can be played with: the optional-capture house
rule, the losing rule (antidraughts) and breakthrough. Their texts, as English message ids
(translated when a page is built), and the variant each page's comparison starts from.

The rules are written here in the project's own words after lidraughts' Antidraughts ("lose
all your pieces, or run out of moves, to win") and Breakthrough ("the first player who makes
a king wins"), as the rules core plays them (``csrc/goal.h``); their diagrams, in
:mod:`damiera.web.rules_pages.diagrams`, are checked against it.
"""

from __future__ import annotations

from dataclasses import dataclass

from damiera.web.rules_pages.diagram_model import (
    BREAKTHROUGH_PAGE,
    LOSING_PAGE,
    OPTIONAL_CAPTURE_PAGE,
)
from damiera.web.rules_pages.messages import N_

#: The optional-capture rule, as the captures section of a variant page words it too.
OPTIONAL = N_(
    "Under this house rule capturing is optional: you may make a quiet move even when a "
    "capture is available. A capture you miss is not punished."
)


@dataclass(frozen=True, slots=True)
class OptionPage:
    """One option's page: ``title``, ``intro``, the rule's ``paragraphs``, ``tips``, ``faq``
    (question, answer) pairs, the rules index's ``facts``, ``compare``: the canonical id of
    the variant whose differences from American checkers the page's table shows (American
    checkers with the option: the table shows the rows the option changes), and the page
    ``section`` the rule belongs to (``captures``, or ``end`` for a goal)."""

    title: str
    intro: str
    paragraphs: tuple[str, ...]
    tips: tuple[str, ...]
    faq: tuple[tuple[str, str], ...]
    facts: tuple[str, ...]
    compare: str
    section: str = "end"


#: Page titles of the options (the optional-capture one is also the index's).
OPTIONAL_TITLE = N_("Captures optional (house rule)")
LOSING_TITLE = N_("Losing rule (antidraughts)")
BREAKTHROUGH_TITLE = N_("Breakthrough")

OPTION_PAGES: dict[str, OptionPage] = {
    OPTIONAL_CAPTURE_PAGE: OptionPage(
        title=OPTIONAL_TITLE,
        intro=N_(
            "Many people learn draughts at home without the rule that captures are compulsory. "
            "This site offers it as a house rule for every 8×8 variant: choose \"captures "
            "optional\" when you start a new game."
        ),
        paragraphs=(
            OPTIONAL,
            N_(
                "Everything else stays as in the chosen variant. If you do capture, you must "
                "complete the capture and follow the variant's rule for which capture to choose."
            ),
            N_(
                "The house rule exists for the 8×8 variants only; international draughts is "
                "always played with compulsory captures."
            ),
        ),
        tips=(
            N_("Without compulsory captures you cannot force your opponent to take a piece, so "
               "sacrifices that work in the normal game may fail."),
            N_("Check every capture available to both sides before you move: your opponent may "
               "ignore the bait and take something else."),
        ),
        faq=((
            N_("If I miss a capture, is my piece taken away?"),
            N_("No. There is no huffing on this site: a missed capture is simply a move you "
               "chose not to make."),
        ),),
        facts=(N_("any 8×8 variant"), N_("you may skip a capture")),
        compare="american+optional-capture",
        section="captures",
    ),
    LOSING_PAGE: OptionPage(
        title=LOSING_TITLE,
        intro=N_(
            "The losing rule turns the game upside down: you try to get rid of all your "
            "pieces. Any rule set on this site can be played this way; tick the losing rule "
            "when you start a new game."
        ),
        paragraphs=(
            N_("You win when, on your turn, you have no pieces left or none of your pieces can "
               "move."),
            N_("Everything else stays as in the chosen rule set: captures are compulsory and "
               "must be completed, and its rule for which capture to choose still applies, so "
               "you can force your opponent to take your pieces."),
            N_("The draw rules of the chosen rule set stay too: the same position three times, "
               "or its number of moves without a capture or a promotion."),
        ),
        tips=(
            N_("Offer your pieces where your opponent has to take them: a compulsory capture "
               "works for you."),
            N_("Avoid making a king: it can run away from every attack, so it is the hardest "
               "piece to give away."),
        ),
        faq=((
            N_("May I refuse a piece my opponent offers me?"),
            N_("No. Captures stay compulsory, and that is what the game is about: each side "
               "tries to force the other to take."),
        ),),
        facts=(N_("any rule set"), N_("lose all your pieces to win")),
        compare="american+losing",
    ),
    BREAKTHROUGH_PAGE: OptionPage(
        title=BREAKTHROUGH_TITLE,
        intro=N_(
            "Breakthrough is a race to the far row: the first player to make a king wins at "
            "once. Any rule set on this site can be played this way; tick breakthrough when "
            "you start a new game."
        ),
        paragraphs=(
            N_("The first player to crown a man wins the game at that moment; the new king "
               "never moves."),
            N_("A capture that ends on the far row crowns the man and wins as well. Where a man "
               "crowned during a capture goes on capturing as a king (Russian draughts), the "
               "whole capture is played first; where it passes the far row as a man "
               "(international and Brazilian draughts), it is not crowned and wins nothing."),
            N_("Until then the game goes on as usual: captures, the choice of capture and the "
               "draw rules are those of the chosen rule set, and a player with no pieces or no "
               "legal move left loses."),
        ),
        tips=(
            N_("Count the moves each man needs to reach the far row: a race is often won by a "
               "single tempo."),
            N_("Keep men on your back row: they are the last guards that stop a man from "
               "breaking through."),
        ),
        faq=((
            N_("Does a man that only passes over the far row during a capture win?"),
            N_("Only if the rule set crowns it there. In international and Brazilian draughts "
               "it stays a man while it passes, so it does not."),
        ),),
        facts=(N_("any rule set"), N_("the first king wins")),
        compare="american+breakthrough",
    ),
}
