"""Errors of the web layer's game operations, and how user input is quoted in them.

The API maps them to status codes: :class:`BadRequest` (400, bad input),
:class:`IllegalMove` (400, a move the rules refuse; carries the rule's ``code``/``params``),
:class:`~damiera.web.store.NotFoundError` (404), :class:`Conflict` (409: the game is over,
not your turn, or another request changed the game first),
:class:`~damiera.web.seats.Forbidden` (403: the caller holds no seat that may do this),
:class:`~damiera.web.store.StorageError` (503: the database failed; the message says what was
stored).
"""

from __future__ import annotations

from damiera.rules.variant import UnknownVariantError, Variant, variant

__all__ = [
    "BadRequest", "ChangedMeanwhile", "Conflict", "IllegalMove", "clip", "quoted", "rule_set",
]


def clip(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters (with "…") so that an error never echoes a huge
    input back in full."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def quoted(text: str, limit: int = 60) -> str:
    """User input quoted for an error message, cut to about ``limit`` characters."""
    return repr(clip(text, limit))


class BadRequest(ValueError):
    """Bad input (unknown variant, malformed FEN, bad option); the message says what."""


class IllegalMove(ValueError):
    """A move the rules refuse: ``code`` and ``params`` from the rules core, ``message`` in
    the request's language."""

    def __init__(self, message: str, code: str, params: dict[str, str]):
        super().__init__(message)
        self.message = message
        self.code = code
        self.params = params


class Conflict(RuntimeError):
    """The request cannot apply to the game as it is now (409); the message is in the
    request's language (raise it with a catalog message, ``_("...")``)."""


class ChangedMeanwhile(Conflict):
    """A :class:`Conflict` of the optimistic save: another request stored the game between
    this request's read and its write. A request that named no version may read the game
    again and retry; one that did gets the 409."""


def rule_set(variant_id: str, optional_capture: bool = False) -> Variant:
    """The rule set a request names (a variant's id, optional capture or not). Raises
    :class:`BadRequest` (an unknown variant, optional capture on a board without it)."""
    try:
        return variant(variant_id, optional_capture=optional_capture)
    except (UnknownVariantError, ValueError) as exc:
        raise BadRequest(str(exc)) from None
