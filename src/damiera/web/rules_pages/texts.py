"""The rules pages' texts written for one variant page each (keyed by variant id): the
introduction and the strategy tips (the rule options' pages have theirs in
:mod:`damiera.web.rules_pages.options`). Every other sentence of a page is shared and chosen by a rule parameter
(:mod:`damiera.web.rules_pages.content`). English message ids, translated per language.
"""

from __future__ import annotations

from damiera.web.rules_pages.messages import N_

INTRO: dict[str, str] = {
    "american": N_(
        "American checkers, called draughts in Britain, is the classic game on an 8×8 board: "
        "men move and capture forwards only, kings step one square at a time, and when you "
        "can capture you must, but you may choose which capture to make."
    ),
    "italian": N_(
        "Italian draughts looks like American checkers, with short kings and men that only go "
        "forwards, but two rules change the game: a man can never capture a king, and when "
        "several captures are possible a strict list of priorities decides which one you play."
    ),
    "czech": N_(
        "Czech draughts has flying kings and men that capture only forwards. There is no duty "
        "to take the most pieces; instead, whenever one of your kings can capture, a king must "
        "make the capture."
    ),
    "russian": N_(
        "Russian draughts (shashki) is fast and tactical: men capture backwards too, kings fly, "
        "you may choose any capture, and a man crowned in the middle of a capture carries on "
        "at once as a king."
    ),
    "brazilian": N_(
        "Brazilian draughts plays the rules of international draughts on an 8×8 board: men "
        "capture backwards, kings fly, and you must take the greatest number of pieces."
    ),
    "spanish": N_(
        "Spanish draughts is played on a mirrored board with men that go only forwards and "
        "flying kings. You must take the most pieces and, among equal captures, the most kings."
    ),
    "international": N_(
        "International draughts, the game of the world championships, is played on a 10×10 "
        "board with 20 men each. Men capture backwards, kings fly, and the capture that takes "
        "the most pieces is compulsory."
    ),
    "pool": N_(
        "Pool checkers is the game of the American Pool Checker Association, played mostly in "
        "the south-eastern United States: the board and numbers of American checkers, but men "
        "capture backwards too, kings fly, and you may choose any capture."
    ),
    "thai": N_(
        "Thai draughts (Mak-hot) starts with only eight men each on two rows. Kings fly, yet "
        "when they capture they must stop right behind the piece they take, and every captured "
        "piece leaves the board at once."
    ),
    "frisian": N_(
        "Frisian draughts, played in Friesland in the north of the Netherlands, uses the board "
        "of international draughts, but pieces also capture along rows and columns, the "
        "capture of the highest value is compulsory, and a king may not make more than three "
        "moves in a row while its side still has men."
    ),
    "frysk": N_(
        "Frysk! is Frisian draughts from only five men each, on the back rows: a quick game "
        "in which the first king often decides."
    ),
    "turkish": N_(
        "Turkish draughts (Dama), played in Turkey, Greece and across the Middle East, uses "
        "every square of the board: pieces move straight ahead and sideways instead of "
        "diagonally, kings sweep along rows and columns, and the capture that takes the most "
        "pieces is compulsory."
    ),
    "canadian": N_(
        "Canadian draughts, played mainly in Quebec, is international draughts on a 12×12 "
        "board with 30 men each: men capture backwards, kings fly, and the capture that takes "
        "the most pieces is compulsory."
    ),
    "malaysian": N_(
        "Malaysian draughts, played in Malaysia and Singapore, uses the 12×12 board with 30 men "
        "each and flying kings, but men move and capture only forwards; the capture that takes "
        "the most pieces is compulsory."
    ),
}

TIPS: dict[str, tuple[str, ...]] = {
    "american": (
        N_("Keep your back row in place as long as you can: it stops the opponent's men from "
           "being crowned."),
        N_("Move your men in pairs that protect each other; a lone man is easy to capture."),
        N_("Because captures are compulsory, you can give away a piece to force your opponent "
           "into a capture that opens a double jump for you."),
    ),
    "italian": (
        N_("Your kings are safe from men: only enemy kings can take them, so the first king is "
           "often decisive."),
        N_("A king in front of your men is a solid wall, because enemy men cannot capture it."),
        N_("Learn the order of the priorities: most combinations force the opponent into one "
           "exact capture."),
    ),
    "czech": (
        N_("Use king precedence: offering a piece to an enemy king forces a king capture, which "
           "can pull the king away from where it is needed."),
        N_("The rule binds you too: before you crown a man, check what your new king will be "
           "forced to capture."),
        N_("Men cannot capture backwards, so an enemy flying king behind your lines is "
           "dangerous; guard the squares behind your men."),
    ),
    "russian": (
        N_("Watch both directions: men capture backwards, so a piece left alone behind the "
           "front can be taken."),
        N_("A man that reaches the far row during a capture continues as a king; count the "
           "whole sequence before you offer a piece."),
        N_("Since you may choose any capture, pick the one that leaves the best position, not "
           "always the longest."),
    ),
    "brazilian": (
        N_("The majority rule is the key to combinations: count which capture your opponent "
           "will be forced to make."),
        N_("Men capture backwards, so keep your pieces close together."),
        N_("A flying king is very strong on an 8×8 board; the first king often wins the game."),
    ),
    "spanish": (
        N_("Offering a king can force your opponent into a capture that takes it, because the "
           "most kings must be taken."),
        N_("Men only capture forwards: protect the squares behind your advanced men from enemy "
           "kings."),
        N_("Count pieces first, then kings: that is exactly how your opponent's capture will be "
           "chosen."),
    ),
    "international": (
        N_("Control the centre squares; on the large board the centre decides most games."),
        N_("The majority rule makes long combinations possible: look for sacrifices that force "
           "the opponent into a capture you have prepared."),
        N_("Keep your pieces connected; loose men on the wings are easy targets."),
    ),
    "pool": (
        N_("A man that reaches the far row in a capture stays a man if it can jump back out: "
           "count the whole capture before you let a man run through."),
        N_("Men capture backwards, so a man left alone behind your lines is rarely safe."),
        N_("You are never forced to take the most pieces: choose the capture that leaves your "
           "pieces best placed."),
    ),
    "thai": (
        N_("With only eight men each the middle of the board is wide open: the first king "
           "usually decides the game."),
        N_("A king must stop right behind the piece it takes: guard the square behind each of "
           "your pieces, and a king that captures there is taken back at once."),
        N_("Captured pieces leave the board at once, so an enemy king may turn back over its "
           "own path: check every direction before you offer a piece."),
    ),
    "frisian": (
        N_("Look in eight directions: a piece two columns beside an enemy piece, or two rows "
           "in front of or behind it, can be captured straight across."),
        N_("While you have men your kings are rationed: plan king moves in threes and keep a "
           "man ready to move."),
        N_("Value decides the capture: offering a king forces a capture that offering a man "
           "would not."),
    ),
    "frysk": (
        N_("With only five men each, every tempo counts: the race to the first king starts at "
           "once."),
        N_("Men capture along rows and columns too, so a man beside an enemy with an empty "
           "square beyond is a target."),
        N_("Once only kings are left, remember the draw rules: two kings against one must win "
           "within seven moves."),
    ),
    "turkish": (
        N_("Keep your men side by side in solid rows: a man with an empty square beside it "
           "and an enemy next to it can be taken sideways."),
        N_("A king is worth several men here, since it sweeps whole rows and columns: giving "
           "up two or three men to crown one is often a good trade."),
        N_("Captured pieces leave the board at once, so a long capture can open lines it "
           "crosses later: count the whole chain before you offer a piece."),
    ),
    # The 12x12 rule sets share tips of the same rules on other boards (already translated).
    "canadian": (
        N_("Control the centre squares; on the large board the centre decides most games."),
        N_("The majority rule makes long combinations possible: look for sacrifices that force "
           "the opponent into a capture you have prepared."),
        N_("Keep your pieces connected; loose men on the wings are easy targets."),
    ),
    "malaysian": (
        N_("Men only capture forwards: protect the squares behind your advanced men from enemy "
           "kings."),
        N_("The majority rule makes long combinations possible: look for sacrifices that force "
           "the opponent into a capture you have prepared."),
        N_("Control the centre squares; on the large board the centre decides most games."),
    ),
}
