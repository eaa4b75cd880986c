"""Display names of the players of a game between two browsers (no accounts: a name is
whatever the player types, per game).

A name is at most :data:`MAX_NAME` characters after its spaces are collapsed and trimmed, and
holds no control or format character (Unicode categories ``C*``: no line breaks, no
right-to-left overrides that would turn the text around it); an empty name is no name.
"""

from __future__ import annotations

import unicodedata

#: Longest display name, in characters.
MAX_NAME = 24


def check_name(name: str | None) -> str | None:
    """``name`` as stored (spaces collapsed, trimmed), or None for no name. Raises
    ValueError with a one-line reason (too long, or a control character)."""
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
    return text or None
