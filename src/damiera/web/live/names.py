"""Display names of the players of a game between two browsers (no accounts: a name is
whatever the player types, per game).

A name is at most :data:`MAX_NAME` characters after its spaces are collapsed and trimmed;
an empty name is no name. It is refused (ValueError with the reason) when it

- holds a control or format character (Unicode categories ``C*``: no line breaks, no
  right-to-left overrides that would turn the text around it) or an invisible "letter"
  (:data:`INVISIBLE`: the Hangul fillers, the Braille blank, which Unicode counts as
  letters or symbols but nothing draws);
- has no visible letter or digit (categories ``L*``, ``N*``): a name of blanks, of
  combining marks alone, or of punctuation shows nothing that tells players apart;
- stacks more than :data:`MAX_MARKS` combining marks (``M*``) on one character, in its
  composed form (NFC): enough for every script's accents, vowel signs and Arabic
  harakat, not for a "zalgo" tower drawn over the page's other lines;
- holds the separator the page puts between a side and its player (:data:`SEPARATORS`:
  ``·`` and its look-alikes), with which "White · You" would read as a label; or is, once
  compared without regard to case, width or spacing (NFKC, casefolded), one of the page's
  own words for a player (:data:`LABEL_WORDS`: "White", "Black", "You", "Player", ...) in
  any of the site's languages.
"""

from __future__ import annotations

import functools
import unicodedata

from damiera.web import i18n

#: Longest display name, in characters.
MAX_NAME = 24
#: Most combining marks on one character (after NFC composition).
MAX_MARKS = 3
#: Characters Unicode counts as letters or symbols that nothing draws.
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")
#: The page's separator between a side and its player, and characters that look like it.
SEPARATORS = frozenset("\u00b7\u0387\u2022\u2027\u2219\u22c5\u30fb\uff65\u16eb\u2e31")
#: The page's words for a side or a player (English message ids of the catalogs): a name
#: may not be one of them in any language of the site.
LABEL_WORDS = ("White", "Black", "You", "Player", "Computer", "Friend", "Your opponent",
               "You are watching", "waiting for a player", "Your move")


def _folded(text: str) -> str:
    """``text`` compared without regard to case, width or spacing."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


@functools.lru_cache(maxsize=1)
def _labels() -> frozenset[str]:
    """:data:`LABEL_WORDS` in every language of the site, folded (read once)."""
    words: set[str] = set()
    for code in i18n.available_locales():
        catalog = i18n.translations(code)
        words.update(_folded(catalog.gettext(word)) for word in LABEL_WORDS)
    return frozenset(words)


def _refusal(text: str) -> str | None:
    """Why ``text`` (spaces collapsed, not empty) may not be a name, or None."""
    composed = unicodedata.normalize("NFC", text)
    marks = 0
    visible = False
    for ch in composed:
        category = unicodedata.category(ch)
        if ch in INVISIBLE:
            if any(unicodedata.category(c)[0] in "LN" and c not in INVISIBLE
                   for c in composed):
                return f"a name may not contain invisible characters (U+{ord(ch):04X})"
            continue
        if ch in SEPARATORS:
            return (f"a name may not contain {ch!r}, which the page puts between a side "
                    "and its player")
        marks = marks + 1 if category[0] == "M" else 0
        if marks > MAX_MARKS:
            return f"a name has at most {MAX_MARKS} marks on one letter"
        visible = visible or category[0] in "LN"
    if not visible:
        return "a name needs at least one visible letter or digit"
    if _folded(text) in _labels():
        return f"{text!r} is one of the page's own words; choose another name"
    return None


def check_name(name: str | None) -> str | None:
    """``name`` as stored (spaces collapsed, trimmed), or None for no name. Raises
    ValueError with a one-line reason (see the module docstring)."""
    if name is None:
        return None
    if len(name) > 4 * MAX_NAME:
        raise ValueError(f"a name has at most {MAX_NAME} characters")
    for ch in name:
        if unicodedata.category(ch).startswith("C"):
            raise ValueError("a name may not contain control characters "
                             f"(U+{ord(ch):04X})")
    text = " ".join(name.split())
    if len(text) > MAX_NAME:
        raise ValueError(f"a name has at most {MAX_NAME} characters")
    if not text:
        return None
    why = _refusal(text)
    if why is not None:
        raise ValueError(why)
    return text
