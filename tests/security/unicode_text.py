"""Hypothesis strategies for text from outside: every Unicode code point, with control and
separator characters, Unicode spaces and lone surrogates far more often than chance gives
them, mixed with pieces of well-formed input so that the parsers get past their first
character."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

#: Characters that broke parsers elsewhere: NUL and the C0/C1 controls, the information
#: separators U+001C-001F, NEL, the no-break and other Unicode spaces, the line and paragraph
#: separators, a byte order mark, a zero-width space, the replacement character, and both
#: halves of a surrogate pair.
AWKWARD = ["\x00", "\x01", "\x08", "\t", "\n", "\x0b", "\x0c", "\r", "\x1b", "\x1c", "\x1d",
           "\x1e", "\x1f", "\x7f", "\x85", "\xa0", "\u1680", "\u2000", "\u200b", "\u2028",
           "\u2029", "\u202f", "\u3000", "\ufeff", "\ufffd", "\ud800", "\udbff", "\udc00",
           "\udfff", "\U0001f600", "é", "Ж", "ب"]

CHARACTERS = st.one_of(
    st.characters(codec=None, categories=None, exclude_categories=()),   # all of Unicode
    st.sampled_from(AWKWARD),
    st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),           # lone surrogates
    st.characters(max_codepoint=0x7F),
)


def any_text(max_size: int = 60) -> st.SearchStrategy[str]:
    """Any text, awkward characters often."""
    return st.text(CHARACTERS, max_size=max_size)


def text_with(pieces: Sequence[str], max_pieces: int = 20) -> st.SearchStrategy[str]:
    """Well-formed ``pieces`` and any text, joined in any order."""
    part = st.one_of(st.sampled_from(list(pieces)), any_text(8), st.sampled_from(AWKWARD))
    return st.lists(part, max_size=max_pieces).map("".join)
