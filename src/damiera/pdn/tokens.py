"""PDN text to tokens: decoding lines, then one pass over each line (PDN 3.0 lexical rules).

Input is read one line at a time, so a file is never held whole in memory. Each line is
decoded on its own: UTF-8 (a byte order mark on the first line is dropped), else CP1252,
else Latin-1 (which never fails), since real files mix them. CRLF and LF both end a line.

Tokens: ``[`` ``]`` tag brackets, tag names, strings (``\\"`` and ``\\\\`` escaped), move
numbers (``12.``, ``12...``), ``...`` (a move left out, as in ``12. ...``), moves (squares joined by ``-``, ``x``, ``:`` or ``×``, spaces
allowed around the separator, leading zeros kept; algebraic squares may follow each other
without one, ``a3b4``), move strength (``!``, ``?!``, ``(!?)``; also a ``*`` written
against a move, ``22-17*``, the checkers literature's star for the only move that wins or
draws: a STRENGTH token, read as the result when no move follows it), NAGs (``$3``), comments
(``{...}``, over several lines; a ``{`` inside one is an error, the standard has no nested
comments), ``%`` to the end of the line (skipped), set-up text between slashes (skipped),
``(`` ``)`` variations, and results (``1-0``, ``0-1``, ``2-0``, ``0-2``, ``1-1``,
``1/2-1/2``, ``0-0`` (both forfeit), ``*``). Anything else becomes an ``ERROR`` token
naming what was found, so a reader can report it and go on. White space is anything
Unicode counts as such (``str.isspace``: a non-breaking space or U+2028 pasted from a web
page separates tokens like a space).

Every token carries its 1-based line and column (in characters). The work is linear in the
input: one regular expression without nested repetition scans each line once, and lines
longer than :data:`MAX_LINE` characters or comments longer than :data:`MAX_COMMENT` are
cut with an error instead of being held.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable, Iterator
from enum import Enum
from typing import BinaryIO, NamedTuple, TextIO

from damiera.files import open_regular

#: Longest line read whole (characters or bytes); the rest of a longer line is skipped.
MAX_LINE = 65_536
#: Longest comment kept (characters); a longer one is an error.
MAX_COMMENT = 65_536


class Kind(Enum):
    """Token kinds."""

    TAG_OPEN = "["
    TAG_CLOSE = "]"
    NAME = "name"
    STRING = "string"
    NUMBER = "move number"
    ELLIPSIS = "..."
    MOVE = "move"
    STRENGTH = "move strength"
    NAG = "NAG"
    COMMENT = "comment"
    OPEN = "("
    CLOSE = ")"
    RESULT = "result"
    ERROR = "error"


class Token(NamedTuple):
    """One token: ``kind``, ``text`` (for STRING and COMMENT the content, unescaped; for
    ERROR the message), ``line`` and ``column`` (1-based, where the token starts)."""

    kind: Kind
    text: str
    line: int
    column: int


_SQUARE = r"(?:[0-9]{1,2}|[a-lA-L](?:1[0-2]|[1-9]))"
_SEP = r"(?:[ \t]*[-x×:X][ \t]*|(?=[a-lA-L]))"
_STRENGTH = r"[!?]{1,3}"
_TOKEN = re.compile(
    rf"""
    (?P<ws>\s+)
  | (?P<result>(?:1-0|0-1|2-0|0-2|1-1|0-0|1/2-1/2|\*)(?![0-9A-Za-z/-]))
  | (?P<escape>%)
  | (?P<setup>/[^/]*/)
  | (?P<number>[0-9]{{1,4}}\.(?:\.\.)?)
  | (?P<move>{_SQUARE}(?:{_SEP}{_SQUARE})+)(?P<suffix>{_STRENGTH}|\*)?
  | (?P<ellipsis>\.\.\.?)
  | (?P<nag>\$[0-9]{{1,3}})
  | (?P<strength>\([ \t]*{_STRENGTH}[!?]*[ \t]*\)|{_STRENGTH})
  | (?P<open>\()
  | (?P<close>\))
  | (?P<tag_open>\[)
  | (?P<tag_close>\])
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<comment>\{{)
  | (?P<unterminated>")
  | (?P<junk>[^\s\[\]{{}}()"]+|\}})
    """,
    re.VERBOSE,
)
_UNESCAPE = re.compile(r"\\(.)")

_SIMPLE = {
    "ellipsis": Kind.ELLIPSIS,
    "nag": Kind.NAG,
    "strength": Kind.STRENGTH,
    "open": Kind.OPEN,
    "close": Kind.CLOSE,
    "tag_open": Kind.TAG_OPEN,
    "tag_close": Kind.TAG_CLOSE,
    "name": Kind.NAME,
    "result": Kind.RESULT,
}

Source = str | bytes | os.PathLike[str] | TextIO | BinaryIO | Iterable[str]


def _decode(raw: bytes, first: bool) -> str:
    if first and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("cp1252")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _strip_eol(line: str) -> str:
    line = line.removesuffix("\n")
    line = line.removesuffix("\r")
    return line


def lines(source: Source) -> Iterator[tuple[str, bool]]:
    """The lines of ``source`` without their line ends, each with a flag that is True when
    the line was longer than :data:`MAX_LINE` and cut (the rest of a cut line is read past
    only when the next line is asked for).

    ``source``: PDN text (``str``), raw bytes, a path (``os.PathLike`` such as
    :class:`pathlib.Path`: the file is opened as bytes and closed after its last line), a
    text or binary file handle, or any iterable of text lines. Raises TypeError for anything
    else (when the first line is asked for) and OSError when a path cannot be read:
    :class:`damiera.files.NotRegularFileError` at once for a path that is not a regular file
    (a FIFO is refused, not waited on; a directory, a device).
    """
    if isinstance(source, os.PathLike):
        with open_regular(source) as handle:
            yield from lines(handle)
        return
    if not isinstance(source, (str, bytes)) and not hasattr(source, "readline") and not (
        isinstance(source, Iterable)
    ):
        raise TypeError("PDN is read from text (str), bytes, a path (pathlib.Path), an open "
                        f"file or an iterable of lines, not {type(source).__name__}")
    if isinstance(source, bytes):
        source = io.BytesIO(source)
    elif isinstance(source, str):
        source = io.StringIO(source, newline="\n")
    readline = getattr(source, "readline", None)
    if readline is None:
        for n, item in enumerate(source):
            text = _strip_eol(str(item))
            if n == 0:
                text = text.removeprefix("\ufeff")
            yield (text[:MAX_LINE], len(text) > MAX_LINE)
        return
    first = True
    while True:
        chunk = readline(MAX_LINE + 1)
        if not chunk:
            return
        newline = b"\n" if isinstance(chunk, bytes) else "\n"
        cut = len(chunk) > MAX_LINE and not chunk.endswith(newline)
        rest = chunk
        if cut:
            chunk = chunk[:MAX_LINE]
        text = _decode(chunk, first) if isinstance(chunk, bytes) else chunk
        if first:
            text = text.removeprefix("\ufeff")
        first = False
        yield (_strip_eol(text), cut)
        # The rest of a cut line is skipped only when the next line is asked for: a reader
        # that stops at the cut (read_game's error) does not read on to the line's end, which
        # in a file without a newline is the end of the file.
        while cut and rest and not rest.endswith(newline):
            rest = readline(MAX_LINE)


def tokenize(source: Source) -> Iterator[Token]:
    """The tokens of a PDN text, in order (see the module docstring)."""
    comment: list[str] | None = None  # open comment's parts
    comment_at = (0, 0)
    comment_size = 0
    for number, (line, cut) in enumerate(lines(source), 1):
        if cut:
            yield Token(Kind.ERROR, f"line longer than {MAX_LINE} characters", number,
                        MAX_LINE + 1)
        pos = 0
        end = len(line)
        if comment is None and line.startswith("%"):
            continue  # escape line: ignored
        while pos < end:
            if comment is not None:
                close = line.find("}", pos)
                inner = line.find("{", pos, close if close >= 0 else end)
                if inner >= 0:
                    yield Token(Kind.ERROR, "a comment cannot hold '{' (comments do not "
                                f"nest; this one opened at line {comment_at[0]}, column "
                                f"{comment_at[1]})", number, inner + 1)
                    comment = None
                    pos = close + 1 if close >= 0 else end
                    continue
                stop = close if close >= 0 else end
                comment.append(line[pos:stop])
                comment_size += stop - pos
                if comment_size > MAX_COMMENT:
                    yield Token(Kind.ERROR, f"comment longer than {MAX_COMMENT} characters",
                                *comment_at)
                    comment = None
                    pos = close + 1 if close >= 0 else end
                    continue
                if close < 0:
                    break
                yield Token(Kind.COMMENT, " ".join(" ".join(comment).split()), *comment_at)
                comment = None
                pos = close + 1
                continue
            match = _TOKEN.match(line, pos)
            assert match is not None  # the last alternative takes any other character
            group = match.lastgroup
            if group == "suffix":
                group = "move"
            start = pos
            pos = match.end()
            if group == "ws" or group == "setup":
                continue
            if group == "escape":
                break  # the rest of the line is ignored
            column = start + 1
            if group == "move":
                text = match.group("move")
                yield Token(Kind.MOVE, text, number, column)
                suffix = match.group("suffix")
                if suffix:
                    yield Token(Kind.STRENGTH, suffix, number, column + len(text))
            elif group == "number":
                yield Token(Kind.NUMBER, match.group(), number, column)
            elif group == "string":
                yield Token(Kind.STRING, _UNESCAPE.sub(r"\1", match.group()[1:-1]), number,
                            column)
            elif group == "comment":
                comment = []
                comment_at = (number, column)
                comment_size = 0
            elif group == "unterminated":
                yield Token(Kind.ERROR, "a string is not closed on its line", number, column)
                pos = end
            elif group == "junk":
                text = match.group()
                shown = text if len(text) <= 20 else text[:20] + "..."
                what = ("'}' without a '{' before it" if text == "}"
                        else f"cannot read {shown!r}")
                yield Token(Kind.ERROR, what, number, column)
            else:
                assert group is not None
                yield Token(_SIMPLE[group], match.group(), number, column)
        if cut:
            comment = None  # a comment still open on a cut line: its end was cut off
    if comment is not None:
        yield Token(Kind.ERROR, "a comment is not closed before the end of the file",
                    *comment_at)
